//! `quadrille soccer referee` with the emulated reference board (`sim`) as a player: whole games
//! against the engine, judged again from the record.

mod common;

use std::time::Duration;

use common::soccer::*;

/// Generous: the emulator shares the machine with the rest of the test suite.
const LIMIT: Duration = Duration::from_secs(240);

#[test]
fn the_emulated_reference_board_plays_the_engine_to_the_end_on_8x10() {
    let dir = testkit::scratch_dir("cli");
    let log_file = dir.path().join("games.log");
    // The clock is the referee's wall clock; a loaded test machine slows the emulator, so give
    // it room (the board itself needs a few milliseconds per turn, see `transport::sim`).
    let out = run(
        quadrille(&[
            "soccer",
            "referee",
            "--red",
            "sim",
            "--blue",
            "engine:1",
            "--games",
            "2",
            "--seed",
            "11",
            "--turn-ms",
            "10000",
            "--log",
            log_file.to_str().unwrap(),
        ]),
        LIMIT,
    );
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), 2, "{lines:?}");
    for line in &lines {
        let record = assert_ended_on_the_field(line);
        let result = record.result.expect("a verdict");
        assert!(record.turns.len() >= 2, "{line}");
        // The judge agrees.
        let judged = run(quadrille(&["soccer", "judge", line]), LIMIT);
        assert!(judged.status.success(), "{line}");
        let json = String::from_utf8_lossy(&judged.stdout);
        assert!(json.contains(result.reason.name()), "{line}: {json}");
    }
    let log = std::fs::read_to_string(&log_file).unwrap();
    assert!(log.contains("from red  {"), "the board answered: {log}");
}

#[test]
fn sim_players_parse_and_a_bad_netlist_is_a_clear_error() {
    let dir = testkit::scratch_dir("cli");
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{ not json").unwrap();
    let red = format!("sim:{}@3", bad.display());
    let out = run(
        quadrille(&["soccer", "referee", "--red", &red, "--blue", "engine:0"]),
        LIMIT,
    );
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.json"), "{err}");

    let out = run(
        quadrille(&["soccer", "referee", "--red", "sim@x", "--blue", "engine:0"]),
        LIMIT,
    );
    assert_eq!(code(&out), 2, "a usage error");
}
