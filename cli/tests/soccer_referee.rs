//! `quadrille soccer referee` against `exec:` bots and the engine: whole games, misbehaving
//! players, several games over one connection.

mod common;

use std::time::{Duration, Instant};

use common::soccer::*;
use engine::soccer::record::Record;
use engine::soccer::{Outcome, Reason, Side};

const LIMIT: Duration = Duration::from_secs(30);

fn referee(red: &str, blue: &str, extra: &[&str]) -> Vec<String> {
    let mut args = vec!["soccer", "referee", "--red", red, "--blue", blue];
    args.extend_from_slice(extra);
    stdout_lines(&run(quadrille(&args), LIMIT))
}

/// Red's and blue's scripted bots replaying `record` (with extra bot options).
fn scripted_pair(record: &Record, red_opts: &[&str], blue_opts: &[&str]) -> (String, String) {
    let red_turns = turns_of(record, Side::Red);
    let blue_turns = turns_of(record, Side::Blue);
    let args = |opts: &[&str], turns: &[String]| {
        let mut a: Vec<&str> = opts.to_vec();
        a.extend(turns.iter().map(String::as_str));
        bot(&a)
    };
    (args(red_opts, &red_turns), args(blue_opts, &blue_turns))
}

#[test]
fn engine_against_engine_plays_valid_recorded_games() {
    let dir = testkit::scratch_dir("cli");
    let record_file = dir.path().join("games.txt");
    let log_file = dir.path().join("games.log");
    let games = [
        "--games",
        "3",
        "--seed",
        "7",
        "--turn-ms",
        "2000",
        "--record",
        record_file.to_str().unwrap(),
    ];
    let log_args = ["--log", log_file.to_str().unwrap()];
    let lines = referee("engine:1", "engine:2", &[&games[..], &log_args].concat());
    assert_eq!(lines.len(), 3);
    for line in &lines {
        assert_ended_on_the_field(line);
    }
    let written = std::fs::read_to_string(&record_file).unwrap();
    assert_eq!(written.lines().collect::<Vec<_>>(), lines);
    let log = std::fs::read_to_string(&log_file).unwrap();
    assert!(log.contains("to   red  w\\x08\\nl\\n\\ncr\\n"), "{log}");
    assert!(log.contains("from"), "{log}");

    // The same seed gives the same games; appending keeps the earlier ones.
    let again = referee("engine:1", "engine:2", &games);
    assert_eq!(again, lines);
    assert_eq!(
        std::fs::read_to_string(&record_file)
            .unwrap()
            .lines()
            .count(),
        6
    );
}

#[test]
fn scripted_bots_reproduce_a_game_exactly_even_through_garbage_and_chunks() {
    let expected = self_play(8, 10, Side::Blue, 11);
    let (red, blue) = scripted_pair(&expected, &["--garbage"], &["--chunked"]);
    let lines = referee(&red, &blue, &["--starter", "blue", "--turn-ms", "3000"]);
    assert_eq!(lines, vec![expected.to_string()]);
}

#[test]
fn one_bot_process_serves_several_games_resynchronising_on_w() {
    let expected = self_play(10, 10, Side::Red, 3);
    let (red, blue) = scripted_pair(
        &expected,
        &["--check-size", "10", "10"],
        &["--check-size", "10", "10"],
    );
    let lines = referee(
        &red,
        &blue,
        &[
            "--starter",
            "red",
            "--games",
            "3",
            "--width",
            "10",
            "--length",
            "10",
            "--turn-ms",
            "1500",
        ],
    );
    assert_eq!(lines, vec![expected.to_string(); 3]);
}

fn verdict(line: &str) -> Outcome {
    Record::parse(line)
        .unwrap_or_else(|e| panic!("{line}: {e}"))
        .result
        .expect("a verdict")
}

#[test]
fn framing_faults_lose_by_illegal_step_without_a_recorded_turn() {
    for raw in ["4}", "{4{4}", "xx}"] {
        let lines = referee(
            &bot(&["4"]),
            &bot(&["--raw", raw]),
            &["--starter", "red", "--turn-ms", "3000"],
        );
        assert_eq!(
            lines,
            vec!["8x10 red: 4 # red illegal_step".to_string()],
            "{raw}"
        );
    }
}

#[test]
fn rule_faults_are_recorded_with_the_faulty_turn() {
    // 4 ends red's turn on a fresh point; the 3 after it is a fault.
    let lines = referee(
        &bot(&["43"]),
        &bot(&[]),
        &["--starter", "red", "--turn-ms", "3000"],
    );
    assert_eq!(lines, vec!["8x10 red: 43 # blue after_end".to_string()]);
    let lines = referee(
        &bot(&["--raw", "{}"]),
        &bot(&[]),
        &["--starter", "red", "--turn-ms", "3000"],
    );
    assert_eq!(
        lines,
        vec!["8x10 red: {} # blue incomplete_turn".to_string()]
    );
}

#[test]
fn silence_past_the_clock_loses_on_time() {
    let start = Instant::now();
    let lines = referee(
        "engine:0",
        &bot(&["--silent-after", "0"]),
        &["--starter", "blue", "--turn-ms", "250"],
    );
    assert_eq!(lines, vec!["8x10 blue: # red timeout".to_string()]);
    assert!(start.elapsed() < Duration::from_secs(10));
}

#[test]
fn a_bot_that_exits_mid_game_loses_by_disconnect_in_every_later_game() {
    let game = self_play(8, 10, Side::Red, 5);
    assert!(game.turns.len() > 3);
    let (red, blue) = scripted_pair(&game, &[], &["--quit-after", "1"]);
    let lines = referee(
        &red,
        &blue,
        &["--starter", "red", "--games", "2", "--turn-ms", "3000"],
    );
    let mut first = game.clone();
    first.turns.truncate(3);
    first.result = Some(Outcome {
        winner: Side::Red,
        reason: Reason::Disconnect,
    });
    assert_eq!(
        lines,
        vec![first.to_string(), "8x10 red: # red disconnect".to_string()]
    );
}

#[test]
fn a_bot_that_cannot_start_loses_by_disconnect() {
    let lines = referee(
        "exec:exit 0",
        "engine:0",
        &["--starter", "blue", "--seed", "1"],
    );
    assert_eq!(
        verdict(&lines[0]),
        Outcome {
            winner: Side::Blue,
            reason: Reason::Disconnect
        }
    );
}

#[test]
fn usage_errors_exit_with_2() {
    let out = run(
        quadrille(&[
            "soccer", "referee", "--red", "engine", "--blue", "engine", "--width", "7",
        ]),
        LIMIT,
    );
    assert_eq!(code(&out), 2);
    let out = run(
        quadrille(&[
            "soccer",
            "referee",
            "--red",
            "/nonexistent/tty",
            "--blue",
            "engine",
        ]),
        LIMIT,
    );
    assert_eq!(code(&out), 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/tty"));
}

#[test]
fn a_player_that_never_stops_talking_cannot_stall_the_referee() {
    let start = Instant::now();
    // Noise only: never a turn, so the clock runs out, game after game.
    let lines = referee(
        "exec:yes hello",
        "engine:0",
        &["--starter", "red", "--games", "2", "--turn-ms", "200"],
    );
    assert_eq!(lines, vec!["8x10 red: # blue timeout".to_string(); 2]);
    // `{4` over and over: the second `{` is a fault.
    let lines = referee("engine:0", "exec:yes {4", &["--starter", "blue"]);
    assert_eq!(lines, vec!["8x10 blue: # red illegal_step".to_string()]);
    assert!(start.elapsed() < Duration::from_secs(20));
}

/// Issue 19: the referee's summary named the winner where a reader expects the faulty side,
/// and said `1 games`.
#[test]
fn the_summary_names_winner_and_faulty_side() {
    let args = [
        "soccer",
        "referee",
        "--red",
        &bot(&["3"]),
        "--blue",
        &bot(&["0"]),
        "--starter",
        "red",
        "--turn-ms",
        "3000",
    ];
    let out = run(quadrille(&args), LIMIT);
    assert_eq!(
        stdout_lines(&out),
        vec!["8x10 red: 3/0 # red incomplete_turn"]
    );
    let err = String::from_utf8_lossy(&out.stderr);
    let red = bot(&["3"]);
    let blue = bot(&["0"]);
    assert_eq!(
        err,
        format!(
            "game 1: red wins at turn 2: blue made an incomplete turn\n\
             1 game: red ({red}) 1 - 0 blue ({blue})\n"
        )
    );
}
