//! Full Paper Soccer games between the Verilog player (`hdl/src`, simulated by Icarus Verilog
//! through the interactive harness `hdl/tb/tb_player.v`) and the Rust engine, with every turn
//! the player sends checked by the rules engine.
//!
//! Skipped, with a notice, when `iverilog`/`vvp` are not installed (`cargo xtask` installs them).

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::OnceLock;

use testkit::soccer::Bot;
use testkit::{Rng, TempDir};

use common::verilog::compile_testbench;
use engine::soccer::field::Field;
use engine::soccer::game::Game;
use engine::soccer::search::Engine;
use engine::soccer::{Outcome, Reason, Side};

/// The harness compiled once per test binary (UART at 4 clocks per bit), or `None` without
/// Icarus Verilog.
fn harness() -> Option<&'static Path> {
    static VVP: OnceLock<Option<(TempDir, PathBuf)>> = OnceLock::new();
    VVP.get_or_init(|| {
        testkit::tools(&["iverilog", "vvp"])?;
        let dir = testkit::scratch_dir("hdl-games");
        let out = dir.path().join("tb_player.vvp");
        compile_testbench("tb_player", &out);
        Some((dir, out))
    })
    .as_ref()
    .map(|(_, out)| out.as_path())
}

/// The board's colour and the starter in the four games of a fair match.
const EVERY_START: [(Side, Side); 4] = [
    (Side::Red, Side::Red),
    (Side::Red, Side::Blue),
    (Side::Blue, Side::Red),
    (Side::Blue, Side::Blue),
];

/// One simulated board on the other end of a serial line.
struct Board {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

/// A line the player sent, with the core's thinking time for the last turn.
struct Reply {
    bytes: Vec<u8>,
    think_cycles: u64,
}

impl Board {
    fn start(vvp: &Path, switches: u8) -> Board {
        let mut child = Command::new("vvp")
            .arg("-n")
            .arg(vvp)
            .arg("+timeout=40000000")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("run vvp");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let mut board = Board {
            child,
            stdin,
            stdout,
        };
        board.set_switches(switches);
        board
    }

    /// Sets SW[7:0] (SW[3:0] is the strength, SW[4] up switches the reply search off).
    fn set_switches(&mut self, switches: u8) {
        self.command(&format!("s{switches:02x}\n"));
    }

    fn command(&mut self, text: &str) {
        self.stdin.write_all(text.as_bytes()).expect("write to vvp");
        self.stdin.flush().expect("flush vvp");
    }

    /// Sends raw bytes to the player's UART.
    fn send(&mut self, bytes: &[u8]) {
        let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        self.command(&format!("{hex}\n"));
    }

    /// Waits for the player's next line.
    fn reply(&mut self) -> Reply {
        self.command("r\n");
        loop {
            let mut line = String::new();
            let n = self.stdout.read_line(&mut line).expect("read vvp");
            assert!(n > 0, "the simulation ended without a reply");
            let line = line.trim_end();
            assert!(
                !line.starts_with("TIMEOUT"),
                "the player did not answer: {line}"
            );
            assert!(
                !line.starts_with("FRAMING"),
                "bad UART frame from the player: {line}"
            );
            if let Some(rest) = line.strip_prefix("REPLY ") {
                let mut fields = rest.split(' ');
                let hex = fields.next().expect("reply bytes");
                let think_cycles = fields.next().and_then(|f| f.parse().ok()).expect("cycles");
                let bytes = (0..hex.len() / 2)
                    .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).expect("hex"))
                    .collect();
                return Reply {
                    bytes,
                    think_cycles,
                };
            }
        }
    }

    /// Lets a byte in flight end, then forgets everything the board has sent so far.
    fn clear(&mut self) {
        self.command("x\n");
        loop {
            let mut line = String::new();
            let n = self.stdout.read_line(&mut line).expect("read vvp");
            assert!(n > 0, "the simulation ended");
            if line.trim_end() == "CLEARED" {
                return;
            }
        }
    }

    /// Starts a game: `w W \n l L \n c r|b \n`.
    fn new_game(&mut self, width: u8, length: u8, colour: Side) {
        self.send(&[
            b'w',
            width,
            b'\n',
            b'l',
            length,
            b'\n',
            b'c',
            colour.letter(),
            b'\n',
        ]);
    }
}

impl Drop for Board {
    fn drop(&mut self) {
        let _ = self.stdin.write_all(b"q\n");
        let _ = self.stdin.flush();
        let _ = self.child.wait();
    }
}

/// The digits of a `{digits}\n` line, or a failure naming what is wrong.
fn turn_of(reply: &Reply) -> Vec<u8> {
    let b = &reply.bytes;
    assert!(
        b.len() >= 3 && b[0] == b'{' && b[b.len() - 2] == b'}' && b[b.len() - 1] == b'\n',
        "not a turn message: {:?}",
        String::from_utf8_lossy(b)
    );
    let digits = b[1..b.len() - 2].to_vec();
    assert!(
        digits.iter().all(|d| (b'0'..=b'7').contains(d)),
        "not digits: {:?}",
        String::from_utf8_lossy(b)
    );
    digits
}

struct GameReport {
    /// `None` when the game was abandoned after the board's `max_turns` turns.
    outcome: Option<Outcome>,
    board_turns: usize,
    max_think: u64,
    total_think: u64,
    record: String,
}

/// Plays one game on `board` (the board plays `colour`), checking every turn it sends, until
/// it ends or the board has played `max_turns` turns.
fn play(
    board: &mut Board,
    (width, length): (u8, u8),
    colour: Side,
    starter: Side,
    opponent: &mut Bot,
    max_turns: usize,
) -> GameReport {
    let mut game = Game::new(Field::new(width, length).expect("field"), starter);
    board.new_game(width, length, colour);
    let mut turns: Vec<String> = Vec::new();
    let mut last_opponent: Option<Vec<u8>> = None;
    let (mut board_turns, mut max_think, mut total_think) = (0, 0, 0);
    let outcome = loop {
        if game.outcome().is_some() || board_turns == max_turns {
            break game.outcome();
        }
        if game.to_move() == colour {
            let mut msg = vec![b'{'];
            msg.extend(last_opponent.take().unwrap_or_default());
            msg.extend(b"}\n");
            board.send(&msg);
            let reply = board.reply();
            let digits = turn_of(&reply);
            board_turns += 1;
            max_think = max_think.max(reply.think_cycles);
            total_think += reply.think_cycles;
            let before = game.clone();
            turns.push(String::from_utf8(digits.clone()).expect("ascii"));
            let result = game.play_message(&digits);
            let record = format!("{width}x{length} {starter}: {}", turns.join("/"));
            match result {
                None => {}
                Some(o) if o.winner == colour => {}
                Some(Outcome {
                    reason: Reason::Stuck,
                    ..
                }) => {
                    // Only acceptable when every legal turn of the position gets stuck.
                    let escapes = before.legal_turns().take(100_000).any(|t| {
                        let mut g = before.clone();
                        !matches!(
                            g.play_turn(&t),
                            Some(Outcome {
                                reason: Reason::Stuck,
                                ..
                            })
                        )
                    });
                    assert!(!escapes, "the board walked into a dead end: {record}");
                }
                Some(Outcome {
                    reason: Reason::OwnGoal,
                    ..
                }) => {
                    let alternative = before.legal_turns().take(100_000).any(|t| {
                        let mut g = before.clone();
                        !matches!(g.play_turn(&t), Some(o) if o.winner != colour)
                    });
                    assert!(
                        !alternative,
                        "the board scored an own goal needlessly: {record}"
                    );
                }
                Some(o) => panic!("the board's turn is a fault ({o}): {record}"),
            }
        } else {
            let turn = opponent.choose(&game).expect("an open game");
            turns.push(turn.to_string());
            game.play_turn(&turn);
            last_opponent = Some(turn.digits().to_vec());
        }
    };
    GameReport {
        outcome,
        board_turns,
        max_think,
        total_think,
        record: format!(
            "{width}x{length} {starter}: {}{}",
            turns.join("/"),
            outcome.map(|o| format!(" # {o}")).unwrap_or_default()
        ),
    }
}

/// Plays one game on `board` to its end, as [`play`] does.
fn play_to_end(
    board: &mut Board,
    field: (u8, u8),
    colour: Side,
    starter: Side,
    opponent: &mut Bot,
) -> GameReport {
    play(board, field, colour, starter, opponent, usize::MAX)
}

fn summary(label: &str, r: &GameReport) {
    let mean = r.total_think / r.board_turns.max(1) as u64;
    let result = r
        .outcome
        .map_or("unfinished".to_string(), |o| o.to_string());
    println!(
        "{label}: {result} after {} board turns; think cycles max {} mean {mean}\n  {}",
        r.board_turns, r.max_think, r.record
    );
}

#[test]
fn board_beats_random_turns_on_8x10_with_every_turn_legal() {
    let Some(vvp) = harness() else { return };
    let mut board = Board::start(vvp, 0);
    let mut wins = 0;
    // All games on one board, one after the other: each `w` starts afresh.
    for (k, (colour, starter)) in EVERY_START.into_iter().enumerate() {
        let mut opponent = Bot::Random(Rng::new(k as u64 + 1));
        let r = play_to_end(&mut board, (8, 10), colour, starter, &mut opponent);
        summary(&format!("board {colour}, {starter} starts"), &r);
        if r.outcome.expect("finished").winner == colour {
            wins += 1;
        }
    }
    assert!(
        wins >= 3,
        "the board won only {wins} of 4 games against random turns"
    );
}

#[test]
fn board_plays_legal_games_against_the_engine_on_several_fields() {
    let Some(vvp) = harness() else { return };
    let mut board = Board::start(vvp, 0);
    // SW = 2 (a 64K-cycle budget) on the small fields, the quick SW = 0 on the large one.
    for (w, l, colour, seed, switches) in [
        (10, 10, Side::Blue, 7, 2),
        (2, 2, Side::Red, 8, 2),
        (12, 16, Side::Red, 9, 0),
    ] {
        board.set_switches(switches);
        let mut opponent = Bot::Engine(Engine::new(1, seed));
        let r = play_to_end(&mut board, (w, l), colour, Side::Red, &mut opponent);
        summary(&format!("{w}x{l} board {colour} vs engine level 1"), &r);
        assert!(r.outcome.is_some() && r.board_turns > 0);
    }
}

#[test]
fn board_recovers_from_random_bytes() {
    let Some(vvp) = harness() else { return };
    let mut board = Board::start(vvp, 0);
    for seed in 1..=3 {
        // Any bytes: odd or zero sizes, stray braces, turns on nonsense fields (the board may
        // even start answering one) ...
        let mut rng = Rng::new(seed);
        let mut noise: Vec<u8> = (0..400).map(|_| rng.below(256) as u8).collect();
        // A `w` or `l` takes the next byte as a size whatever it is, so end the noise with two
        // line ends: the parser is then out of any size byte whatever came before.
        noise.extend(b"\n\n");
        board.send(&noise);
        // ... and then a proper game must be played from a fresh field.
        board.new_game(8, 10, Side::Red);
        board.clear();
        board.send(b"{}\n");
        let digits = turn_of(&board.reply());
        let mut game = Game::new(Field::new(8, 10).expect("field"), Side::Red);
        assert_eq!(
            game.play_message(&digits),
            None,
            "after noise seed {seed}, first turn {:?} is not a complete turn",
            String::from_utf8_lossy(&digits)
        );
    }
}

#[test]
fn board_plays_opening_turns_on_the_largest_field() {
    let Some(vvp) = harness() else { return };
    let mut board = Board::start(vvp, 0);
    // 255 x 255 points to clear, W and L = 254; then a few turns each way, as both colours.
    for (colour, seed) in [(Side::Blue, 11), (Side::Red, 12)] {
        let mut opponent = Bot::Engine(Engine::new(1, seed));
        let r = play(&mut board, (254, 254), colour, Side::Red, &mut opponent, 6);
        summary(&format!("254x254 board {colour}"), &r);
        assert_eq!(r.board_turns, 6);
    }
}

#[test]
fn board_resynchronises_on_w_in_the_middle_of_a_turn() {
    let Some(vvp) = harness() else { return };
    let mut board = Board::start(vvp, 0);
    // A game that is abandoned while the opponent's turn is half sent ...
    board.new_game(10, 10, Side::Blue);
    board.send(b"{45");
    // ... and a new one that starts with our turn: the board must answer from a fresh field.
    board.new_game(8, 10, Side::Red);
    board.send(b"{}\n");
    let reply = board.reply();
    let digits = turn_of(&reply);
    let mut game = Game::new(Field::new(8, 10).expect("field"), Side::Red);
    assert_eq!(
        game.play_message(&digits),
        None,
        "first turn {digits:?} is not a complete turn"
    );
}

/// A strength survey, printed as a table: the board at two switch settings against engine
/// levels 1-3 on 8x10, both colours, both starters. Slow (minutes), so run it on demand:
/// `cargo test -p hdl-sim --test hdl_games survey -- --ignored --nocapture`.
#[test]
#[ignore]
fn survey_board_against_engine_levels() {
    let Some(vvp) = harness() else { return };
    println!("SW  level  board wins / games  mean think  max think");
    for switches in [0u8, 3] {
        let mut board = Board::start(vvp, switches);
        for level in 1..=3u8 {
            let (mut wins, mut games, mut think, mut turns, mut max) = (0, 0, 0, 0, 0);
            for (k, (colour, starter)) in EVERY_START.into_iter().enumerate() {
                let mut opponent = Bot::Engine(Engine::new(level, 100 + k as u64));
                let r = play_to_end(&mut board, (8, 10), colour, starter, &mut opponent);
                games += 1;
                if r.outcome.is_some_and(|o| o.winner == colour) {
                    wins += 1;
                }
                think += r.total_think;
                turns += r.board_turns as u64;
                max = max.max(r.max_think);
            }
            println!(
                "{switches:>2}  {level:>5}  {wins:>10} / {games:<5}  {:>10}  {max:>9}",
                think / turns.max(1)
            );
        }
    }
}
