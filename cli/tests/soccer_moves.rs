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
fn a_finished_game_exits_2_naming_winner_and_loser() {
    let out = moves(&["2x2 red: 35"]);
    assert_eq!(code(&out), 2);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "quadrille: the game is over (red wins at turn 1: red scored in blue's goal): no turn to list\n"
    );
    let out = moves(&["8x10 red: 3/0"]);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "quadrille: the game is over (red wins at turn 2: blue made an incomplete turn): no turn to list\n"
    );
}

/// The spec's Decision (§2) on a hand-checked position (the walk-through is in
/// `engine::soccer::turns`' tests): blue at (1, 0) of a 2x4 field has 11 turns, among them
/// `533`, which ends stuck on (2, 3) and loses at once, but is listed.
#[test]
fn the_list_includes_turns_that_end_stuck() {
    let record = "2x4 red: 52/4/16017";
    assert_eq!(
        stdout(&moves(&[record])),
        "0\n1\n25\n27\n4\n52\n530\n533\n61\n63\n7\n"
    );
    assert_eq!(stdout(&moves(&[record, "--count"])), "11\n");
    let out = run(&["soccer", "judge", &format!("{record}/533")]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(
        (v["winner"].as_str(), v["reason"].as_str()),
        (Some("red"), Some("stuck"))
    );
}

#[test]
fn limit_cuts_the_list_with_a_closing_line() {
    assert_eq!(
        stdout(&moves(&["8x10 red: ", "--limit", "3"])),
        "0\n1\n3\n… listed 3 turns; limit reached (--limit 3), there are more\n"
    );
    // A limit the list fits in leaves it whole, with no closing line.
    assert_eq!(
        stdout(&moves(&["8x10 red: ", "--limit", "6"])),
        "0\n1\n3\n4\n5\n7\n"
    );
    assert_eq!(
        stdout(&moves(&["8x10 red: ", "--limit", "1"])),
        "0\n… listed 1 turn; limit reached (--limit 1), there are more\n"
    );
}

/// Issue 19: `soccer moves "254x2 red: "` wrote 50 GB in 20 s, and 12x2 never ended. By
/// default at most 10,000 turns are listed.
#[test]
fn the_default_limit_bounds_huge_lists() {
    for record in ["12x2 red: ", "254x2 red: "] {
        let list = stdout(&moves(&[record]));
        let lines: Vec<&str> = list.lines().collect();
        assert_eq!(lines.len(), 10_001, "{record}");
        assert!(
            lines[..10_000]
                .iter()
                .all(|t| t.bytes().all(|b| (b'0'..=b'7').contains(&b)))
        );
        assert_eq!(
            lines[10_000],
            "… listed 10000 turns; limit reached (--limit 10000), there are more"
        );
        assert!(list.len() < 16 << 20, "{record}: {} bytes", list.len());
    }
}

#[test]
fn budget_cuts_the_count_with_a_line_that_says_how_far_it_got() {
    assert_eq!(
        stdout(&moves(&["8x10 red: ", "--count", "--budget", "5"])),
        "… counted 5 turns in 5 steps; budget reached (--budget 5), there are more\n"
    );
    assert_eq!(
        stdout(&moves(&["8x10 red: ", "--count", "--budget", "1"])),
        "… counted 1 turn in 1 step; budget reached (--budget 1), there are more\n"
    );
    // Six steps suffice for the six one-step turns of the kick-off: the count is exact.
    assert_eq!(
        stdout(&moves(&["8x10 red: ", "--count", "--budget", "6"])),
        "6\n"
    );
    // `--budget` belongs to `--count`, `--limit` to the list.
    assert_eq!(code(&moves(&["8x10 red: ", "--budget", "6"])), 2);
    assert_eq!(code(&moves(&["8x10 red: ", "--count", "--limit", "6"])), 2);
}

/// Issue 19: `soccer moves --count "12x2 red: "` never ended. The default budget ends it.
#[test]
fn the_default_budget_ends_a_count_that_would_never_end() {
    let text = stdout(&moves(&["12x2 red: ", "--count"]));
    let line = text.strip_suffix('\n').expect("one line");
    assert!(!line.contains('\n'), "{text}");
    let rest = line.strip_prefix("… counted ").expect(line);
    let (turns, rest) = rest.split_once(" turns in ").expect(line);
    assert!(turns.parse::<u64>().expect(line) > 0);
    assert_eq!(
        rest,
        "100000000 steps; budget reached (--budget 100000000), there are more"
    );
}
