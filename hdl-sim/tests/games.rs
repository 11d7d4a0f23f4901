//! Complete refereed games of the reference player (`hdl/netlist/de2_115_top.json`), emulated
//! cycle by cycle, against the rules engine's players (issue 7).
//!
//! The board speaks to [`Referee`] through its simulated UART at the contest's line settings
//! (115200 baud, 8N2); the referee's clock is the board's: `now_ms = cycles / 50_000`. The
//! opponent answers in zero simulated time, so every millisecond on the clock is the board's own
//! (its thinking plus the UART bytes both ways). A game passes only if the referee never sees an
//! illegal or incomplete turn, or a time-out, from the board.

use engine::soccer::field::Field;
use engine::soccer::game::Game;
use engine::soccer::referee::Settings;
use engine::soccer::search::Engine;
use engine::soccer::{BySide, Reason, Side};
use hdl_sim::BoardEmulator;
use testkit::board::{CLOCK_HZ, contest_board as board};
use testkit::soccer::{BoardPlayer, Bot, BotPlayer, Contestant, MatchEnd, play_match};

const CYCLES_PER_MS: u64 = CLOCK_HZ / 1000;
/// The contest's turn clock.
const TURN_MS: u64 = engine::soccer::protocol::TURN_MS;

/// One game's result, from the board's point of view.
struct Played {
    board_won: bool,
    /// The record with its verdict, as the referee wrote it.
    record: String,
    board_turns: u64,
    /// Cycles from the referee queuing the board's signal to the board's `}` arriving.
    turn_cycles_total: u64,
    turn_cycles_max: u64,
}

/// Plays one refereed game; the board plays `colour`, `opponent` the other side.
fn play(
    board: &mut BoardEmulator,
    (width, length): (u8, u8),
    colour: Side,
    starter: Side,
    opponent: Engine,
) -> Played {
    let settings = Settings {
        width,
        length,
        turn_ms: TURN_MS,
    };
    let mut player = BoardPlayer::new(board);
    let mut bot = BotPlayer::new(Bot::Engine(opponent));
    let players: BySide<&mut dyn Contestant> = match colour {
        Side::Red => BySide::new(&mut player, &mut bot),
        Side::Blue => BySide::new(&mut bot, &mut player),
    };
    let MatchEnd { end, record, .. } = play_match(settings, starter, players);
    let record = record.to_string();
    let turns = &player.turn_cycles;
    let (board_turns, total, max) = (
        turns.len() as u64,
        turns.iter().sum::<u64>(),
        turns.iter().copied().max().unwrap_or(0),
    );
    let fault = end.outcome.winner != colour
        && (end.outcome.reason.is_fault() || end.outcome.reason == Reason::Timeout);
    assert!(!fault, "the board lost by a fault: {record}");
    // The record replays to the same verdict.
    let replay = engine::soccer::record::Record::parse(&record).expect("the record parses");
    let mut game = Game::new(Field::new(width, length).expect("field"), starter);
    let mut outcome = None;
    for turn in &replay.turns {
        outcome = game.play_message(turn.payload());
    }
    assert_eq!(outcome, Some(end.outcome), "replaying {record}");
    Played {
        board_won: end.outcome.winner == colour,
        record,
        board_turns,
        turn_cycles_total: total,
        turn_cycles_max: max,
    }
}

/// Tallies of a series.
#[derive(Default)]
struct Series {
    games: u64,
    wins: u64,
    turns: u64,
    cycles: u64,
    max: u64,
}

impl Series {
    fn add(&mut self, p: &Played) {
        self.games += 1;
        self.wins += u64::from(p.board_won);
        self.turns += p.board_turns;
        self.cycles += p.turn_cycles_total;
        self.max = self.max.max(p.turn_cycles_max);
    }

    fn print(&self, label: &str) {
        println!(
            "{label:<28} board wins {:>3}/{:<3} ({:>5.1} %)  cycles per turn: mean {:>7} max {:>8} ({:.2} ms)",
            self.wins,
            self.games,
            100.0 * self.wins as f64 / self.games.max(1) as f64,
            self.cycles / self.turns.max(1),
            self.max,
            self.max as f64 / CYCLES_PER_MS as f64,
        );
    }
}

/// Plays `games` games on one field, alternating the board's colour and the starter, against a
/// fresh `Engine::new(level, seed)` each game.
fn series(sw: u64, field: (u8, u8), level: u8, games: u64, seed: u64) -> Series {
    let mut b = board(sw);
    let mut s = Series::default();
    for k in 0..games {
        let colour = if k % 2 == 0 { Side::Red } else { Side::Blue };
        let starter = if (k / 2) % 2 == 0 {
            Side::Red
        } else {
            Side::Blue
        };
        let opponent = Engine::new(level, seed.wrapping_mul(1000).wrapping_add(k));
        let p = play(&mut b, field, colour, starter, opponent);
        if std::env::var_os("GAMES_VERBOSE").is_some() {
            println!("  {} {}", if p.board_won { "W" } else { "L" }, p.record);
        }
        s.add(&p);
    }
    s
}

#[test]
fn reference_player_beats_random_turns_on_8x10() {
    let s = series(0, (8, 10), 0, 200, 1);
    s.print("8x10 vs random, SW=0");
    assert!(
        s.wins * 10 >= s.games * 9,
        "the board won only {}/{} against random turns",
        s.wins,
        s.games
    );
}

#[test]
fn reference_player_plays_legal_games_against_the_engine_on_8x10() {
    let s = series(0, (8, 10), 1, 24, 2);
    s.print("8x10 vs engine:1, SW=0");
    assert_eq!(s.games, 24);
}

/// `games` games on `field` against random turns and as many against `engine:1`.
fn other_field(field: (u8, u8), games: u64) {
    for level in [0, 1] {
        let s = series(0, field, level, games, 3 + u64::from(level));
        s.print(&format!("{}x{} vs level {level}, SW=0", field.0, field.1));
        assert_eq!(s.games, games);
    }
}

#[test]
fn reference_player_plays_legal_games_on_2x2() {
    other_field((2, 2), 12);
}

#[test]
fn reference_player_plays_legal_games_on_254x2() {
    other_field((254, 2), 12);
}

#[test]
fn reference_player_plays_legal_games_on_2x254() {
    other_field((2, 254), 6);
}

#[test]
fn reference_player_plays_legal_games_on_30x40() {
    other_field((30, 40), 6);
}
