//! `quadrille soccer moves`: every legal complete turn, sorted, or their count.

mod common;

use std::process::Output;

use common::{assert_success, code, run};

fn moves(args: &[&str]) -> Output {
    run(&[&["soccer", "moves"], args].concat())
}

fn stdout(out: &Output) -> String {
    assert_success(out);
    String::from_utf8(out.stdout.clone()).expect("UTF-8")
}

#[test]
fn kick_off_on_8x10_has_six_single_steps() {
    assert_eq!(stdout(&moves(&["8x10 red: "])), "0\n1\n3\n4\n5\n7\n");
    assert_eq!(stdout(&moves(&["8x10 red:", "--count"])), "6\n");
}

#[test]
fn lists_are_sorted_counted_and_each_turn_is_legal() {
    let record = "6x8 blue: 1/2";
    let list = stdout(&moves(&[record]));
    let turns: Vec<&str> = list.lines().collect();
    assert!(turns.len() > 6, "{turns:?}");
    assert!(turns.windows(2).all(|w| w[0] < w[1]));
    let count = stdout(&moves(&[record, "--count"]));
    assert_eq!(count.trim(), turns.len().to_string());
    for turn in turns {
        let next = format!("{record}/{turn}");
        let out = run(&["soccer", "judge", &next]);
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        let reason = v["reason"].as_str().unwrap_or("none");
        assert!(
            ["none", "goal", "own_goal", "stuck"].contains(&reason),
            "{next}: {v}"
        );
    }
}

#[test]
fn a_finished_game_exits_2() {
    let out = moves(&["2x2 red: 35"]);
    assert_eq!(code(&out), 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("over"));
}
