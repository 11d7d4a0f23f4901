//! Paper Soccer opponents for tests, and a driver that plays a whole refereed match.
//!
//! [`play_match`] runs the engine's [`Referee`] between two [`Contestant`]s on a simulated
//! clock in milliseconds: bytes the referee transmits are handed over at once, the contestant on
//! turn is asked for its next bytes before the referee's deadline, and time only passes when a
//! contestant says so (an emulated board's cycles) or when the deadline passes in silence. So a
//! match of bots takes no simulated time at all, and a board's every millisecond is its own.

use engine::soccer::game::Game;
use engine::soccer::protocol::Turn;
use engine::soccer::record::Record;
use engine::soccer::referee::{End, Referee, Settings};
use engine::soccer::search::Engine;
use engine::soccer::wire::{ChooseTurn, WireNote, WirePlayer};
use engine::soccer::{BySide, Side};
use hdl_sim::BoardEmulator;

use crate::Rng;

/// A player that chooses turns from the position alone.
#[derive(Clone, Debug)]
pub enum Bot {
    /// A uniformly random legal turn among the first 2000 listed (a random walk of turns).
    Random(Rng),
    /// The engine's search at some level.
    Engine(Engine),
}

impl Bot {
    /// The turn to play, `None` once the game is over.
    pub fn choose(&mut self, game: &Game) -> Option<Turn> {
        match self {
            Bot::Random(rng) => {
                let mut turns: Vec<Turn> = game.legal_turns().take(2000).collect();
                if turns.is_empty() {
                    return None;
                }
                let pick = rng.below(turns.len() as u64) as usize;
                Some(turns.swap_remove(pick))
            }
            Bot::Engine(engine) => engine.choose_turn(game),
        }
    }
}

/// One side of a refereed match, on the driver's simulated clock (milliseconds).
pub trait Contestant {
    /// Takes the bytes the referee sent at `now_ms`.
    fn hear(&mut self, bytes: &[u8], now_ms: u64);

    /// The contestant is on turn at `now_ms`: its next bytes and the time they arrive (from
    /// `now_ms` to `deadline_ms`), or `None` if it stays silent until `deadline_ms`.
    fn speak(&mut self, now_ms: u64, deadline_ms: u64) -> Option<(u64, Vec<u8>)>;
}

impl ChooseTurn for Bot {
    fn choose_turn(&mut self, game: &Game) -> Option<Turn> {
        self.choose(game)
    }
}

/// A [`Bot`] behind the protocol: the engine's [`WirePlayer`], answering at once, in zero
/// simulated time.
pub struct BotPlayer(WirePlayer<Bot>);

impl BotPlayer {
    pub fn new(bot: Bot) -> BotPlayer {
        BotPlayer(WirePlayer::new(bot))
    }
}

impl Contestant for BotPlayer {
    fn hear(&mut self, bytes: &[u8], _now_ms: u64) {
        self.0.handle_input(bytes);
        while let Some(note) = self.0.poll_note() {
            if let WireNote::Ignored(_) | WireNote::OutOfTurn = note {
                panic!("the referee sent nonsense: {note}");
            }
        }
    }

    fn speak(&mut self, now_ms: u64, _deadline_ms: u64) -> Option<(u64, Vec<u8>)> {
        self.0.poll_transmit().map(|bytes| (now_ms, bytes))
    }
}

/// An emulated board as a contestant: its clock is the match's (`now_ms` = its cycles since the
/// match began, in milliseconds), and it reports how long it took over each of its turns.
pub struct BoardPlayer<'a> {
    board: &'a mut BoardEmulator,
    origin: u64,
    /// When the board's clock started for the turn in progress (its last input), in cycles.
    turn_start: u64,
    /// Cycles from the board's input to its `}`, per turn it completed.
    pub turn_cycles: Vec<u64>,
}

impl<'a> BoardPlayer<'a> {
    /// Starts the match clock at the board's current cycle (dropping any output left over).
    pub fn new(board: &'a mut BoardEmulator) -> BoardPlayer<'a> {
        board.take_output();
        let origin = board.cycle();
        BoardPlayer {
            board,
            origin,
            turn_start: origin,
            turn_cycles: Vec::new(),
        }
    }

    fn now_ms(&self) -> u64 {
        (self.board.cycle() - self.origin) / self.board.cycles_per_ms()
    }
}

impl Contestant for BoardPlayer<'_> {
    fn hear(&mut self, bytes: &[u8], _now_ms: u64) {
        self.board.send(bytes);
        self.turn_start = self.board.cycle();
    }

    fn speak(&mut self, _now_ms: u64, deadline_ms: u64) -> Option<(u64, Vec<u8>)> {
        let per_ms = self.board.cycles_per_ms();
        let left = (deadline_ms * per_ms + self.origin).saturating_sub(self.board.cycle());
        let byte = self.board.run_until_byte(left)?;
        assert!(!byte.framing_error, "framing error from the board");
        if byte.byte == b'}' {
            self.turn_cycles.push(byte.cycle - self.turn_start);
        }
        Some((self.now_ms(), vec![byte.byte]))
    }
}

/// How a match ended.
#[derive(Clone, Debug)]
pub struct MatchEnd {
    pub end: End,
    /// The referee's record, verdict included.
    pub record: Record,
    /// The simulated time the match took, in milliseconds.
    pub ms: u64,
}

/// Plays one game between `players` under the referee: see the module documentation.
pub fn play_match(
    settings: Settings,
    starter: Side,
    mut players: BySide<&mut dyn Contestant>,
) -> MatchEnd {
    let mut referee = Referee::new(settings, starter, 0).expect("a valid field");
    let mut now = 0;
    loop {
        while let Some(t) = referee.poll_transmit() {
            players[t.to].hear(&t.bytes, now);
        }
        if let Some(end) = referee.end() {
            return MatchEnd {
                end,
                record: referee.record().clone(),
                ms: now,
            };
        }
        let side = referee
            .on_turn()
            .expect("a clock runs while the game goes on");
        let deadline = referee.next_deadline().expect("a running clock");
        match players[side].speak(now, deadline) {
            Some((at, bytes)) => {
                now = at.max(now);
                referee.handle_input(side, &bytes, now);
            }
            None => {
                now = deadline.max(now);
                referee.poll(now);
            }
        }
    }
}

/// A whole game of two engines at `level` (the starter's seeded `seed`, the other's `seed + 1`),
/// refereed, as its record with the result.
pub fn self_play(width: u8, length: u8, starter: Side, level: u8, seed: u64) -> Record {
    let engine = |side: Side| Engine::new(level, seed + u64::from(side != starter));
    let mut red = BotPlayer::new(Bot::Engine(engine(Side::Red)));
    let mut blue = BotPlayer::new(Bot::Engine(engine(Side::Blue)));
    let settings = Settings {
        width,
        length,
        ..Settings::default()
    };
    play_match(settings, starter, BySide::new(&mut red, &mut blue)).record
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::soccer::Reason;

    #[test]
    fn bots_play_a_refereed_game_to_a_verdict_on_the_field() {
        for starter in Side::BOTH {
            let mut red = BotPlayer::new(Bot::Random(Rng::new(1)));
            let mut blue = BotPlayer::new(Bot::Engine(Engine::new(1, 2)));
            let m = play_match(
                Settings::default(),
                starter,
                BySide::new(&mut red, &mut blue),
            );
            assert!(
                matches!(
                    m.end.outcome.reason,
                    Reason::Goal | Reason::OwnGoal | Reason::Stuck
                ),
                "{}",
                m.record
            );
            assert_eq!(m.record.starter, starter);
            assert_eq!(m.ms, 0, "bots answer in zero simulated time");
            assert_eq!(
                m.record.replay().unwrap().outcome(),
                Some(m.end.outcome),
                "{}",
                m.record
            );
        }
    }

    /// A contestant that never answers.
    struct Silent;

    impl Contestant for Silent {
        fn hear(&mut self, _: &[u8], _: u64) {}
        fn speak(&mut self, _: u64, _: u64) -> Option<(u64, Vec<u8>)> {
            None
        }
    }

    #[test]
    fn silence_loses_on_time_at_the_deadline() {
        let mut red = Silent;
        let mut blue = BotPlayer::new(Bot::Random(Rng::new(3)));
        let m = play_match(
            Settings::default(),
            Side::Red,
            BySide::new(&mut red, &mut blue),
        );
        assert_eq!(m.end.outcome.winner, Side::Blue);
        assert_eq!(m.end.outcome.reason, Reason::Timeout);
        assert_eq!(m.ms, Settings::default().turn_ms);
    }

    #[test]
    fn self_play_is_deterministic() {
        let a = self_play(8, 10, Side::Blue, 1, 5);
        assert_eq!(a, self_play(8, 10, Side::Blue, 1, 5));
        assert!(a.result.is_some());
    }
}
