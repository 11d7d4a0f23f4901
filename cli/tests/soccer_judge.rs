//! `quadrille soccer judge`: the JSON verdict, exit codes, and stdin input.

mod common;

use std::io::Write;
use std::process::{Output, Stdio};

use common::{assert_success, code, quadrille, run};

fn judge(record: &str) -> Output {
    run(&["soccer", "judge", record])
}

fn json(out: &Output) -> serde_json::Value {
    assert_success(out);
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

#[test]
fn an_open_game_reports_who_is_to_move() {
    let out = judge("8x10 red: 3/4/4");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim_end(),
        r#"{"over":false,"winner":null,"reason":null,"turn":null,"turns":3,"to_move":"blue","ball":[5,8]}"#
    );
}

#[test]
fn a_goal_in_the_middle_of_a_bounce_chain_ends_the_game() {
    // 2x2: (1,1) -3-> (2,2) bounce -5-> goal point (1,3); the trailing digits are ignored.
    let v = json(&judge("2x2 red: 35777"));
    assert_eq!(v["over"], true);
    assert_eq!(v["winner"], "red");
    assert_eq!(v["reason"], "goal");
    assert_eq!(v["turn"], 1);
    assert_eq!(v["to_move"], serde_json::Value::Null);
    assert_eq!(v["ball"], serde_json::json!([1, 3]));
}

#[test]
fn faults_name_the_faulty_turn() {
    let cases = [
        ("8x10 red: 3/0", "red", "incomplete_turn", 2),
        ("8x10 red: 3/", "red", "incomplete_turn", 2),
        ("8x10 blue: 2", "red", "illegal_step", 1),
        ("8x10 red: 3/44", "red", "after_end", 2),
        ("2x2 blue: 35", "red", "own_goal", 1),
        ("2x2 blue: 71", "blue", "goal", 1),
        ("4x2 red: 747", "blue", "stuck", 1),
    ];
    for (record, winner, reason, turn) in cases {
        let v = json(&judge(record));
        assert_eq!(v["over"], true, "{record}");
        assert_eq!(v["winner"], winner, "{record}");
        assert_eq!(v["reason"], reason, "{record}");
        assert_eq!(v["turn"], turn, "{record}");
    }
}

#[test]
fn turns_after_the_end_and_bad_records_exit_2() {
    for record in [
        "8x10 red: 3/0/4452",
        "8x10 red: 3/9",
        "9x10 red: 3",
        "8x10 purple: 3",
        "8x10 red: 3/0 # red goal",
    ] {
        let out = judge(record);
        assert_eq!(code(&out), 2, "{record}");
        assert!(!out.stderr.is_empty(), "{record}");
    }
}

#[test]
fn a_matching_verdict_suffix_is_accepted() {
    let v = json(&judge("8x10 red: 3/0 # red incomplete_turn"));
    assert_eq!(v["reason"], "incomplete_turn");
    // A timeout cannot be seen in the moves: the JSON describes the open game.
    let v = json(&judge("8x10 red: 3/4 # blue timeout"));
    assert_eq!(v["over"], false);
    assert_eq!(v["to_move"], "red");
}

#[test]
fn reads_the_record_from_stdin() {
    let mut child = quadrille(&["soccer", "judge", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run quadrille");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"8x10 red: \n")
        .expect("write");
    let out = child.wait_with_output().expect("wait");
    let v = json(&out);
    assert_eq!(v["turns"], 0);
    assert_eq!(v["to_move"], "red");
    assert_eq!(v["ball"], serde_json::json!([4, 5]));
}
