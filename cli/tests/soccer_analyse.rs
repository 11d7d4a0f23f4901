//! `quadrille soccer analyse`: the engine's turn for the player to move, with its search's
//! figures, chosen as the pages' engine worker chooses it.

mod common;

use std::process::Output;

use common::{assert_success, code, run};

fn analyse(args: &[&str]) -> Output {
    run(&[&["soccer", "analyse"], args].concat())
}

fn json(args: &[&str]) -> serde_json::Value {
    let out = analyse(&[args, &["--json"]].concat());
    assert_success(&out);
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    // One line, with the fields in the documented order.
    let at: Vec<Option<usize>> = [
        "\"turn\":",
        "\"depth\":",
        "\"nodes\":",
        "\"millis\":",
        "\"win\":",
    ]
    .iter()
    .map(|key| text.find(key))
    .collect();
    assert!(at.iter().all(Option::is_some) && at.is_sorted(), "{text}");
    assert_eq!(text.lines().count(), 1, "{text}");
    serde_json::from_str(&text).expect("JSON")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The judge's verdict on `record` followed by `turn`.
fn judged(record: &str, turn: &str) -> serde_json::Value {
    let next = if record.ends_with(' ') {
        format!("{record}{turn}")
    } else {
        format!("{record}/{turn}")
    };
    let out = run(&["soccer", "judge", &next]);
    assert_success(&out);
    serde_json::from_slice(&out.stdout).expect("JSON")
}

#[test]
fn the_turn_is_legal_and_the_figures_are_those_of_a_search() {
    for (record, mover) in [("8x10 red: 3/3", "red"), ("10x12 blue: 1/7/5", "red")] {
        let v = json(&[record, "--level", "4", "--seed", "5"]);
        assert_eq!(v.as_object().unwrap().len(), 5, "{v}");
        let turn = v["turn"].as_str().unwrap();
        assert!(
            !turn.is_empty() && turn.bytes().all(|b| (b'0'..=b'7').contains(&b)),
            "{v}"
        );
        let verdict = judged(record, turn);
        // A complete turn: either the other side moves next, or the game ended in the mover's
        // favour (the engine never scores against itself with another turn available here).
        if verdict["over"] == true {
            assert_eq!(verdict["winner"], mover, "{record}/{turn}: {verdict}");
        } else {
            assert_ne!(verdict["to_move"], mover, "{record}/{turn}: {verdict}");
        }
        assert!(v["depth"].as_u64().unwrap() >= 1, "{v}");
        // Level 4 searches 5,000 steps: the budget is used, and not overrun by much.
        let nodes = v["nodes"].as_u64().unwrap();
        assert!((4_000..=10_000).contains(&nodes), "{v}");
        assert!(v["millis"].as_f64().unwrap() >= 0.0, "{v}");
        let win = v["win"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&win), "{v}");
    }
}

#[test]
fn the_same_seed_gives_the_same_turn_depth_and_nodes() {
    let record = "8x10 red: 3/3/5";
    let a = json(&[record, "--level", "3", "--seed", "11"]);
    let b = json(&[record, "--level", "3", "--seed", "11"]);
    for key in ["turn", "depth", "nodes", "win"] {
        assert_eq!(a[key], b[key], "{key}: {a} vs {b}");
    }
    // A bigger budget searches more steps in the same position.
    let c = json(&[record, "--level", "2", "--seed", "11"]);
    assert!(c["nodes"].as_u64() < a["nodes"].as_u64(), "{c} vs {a}");
}

#[test]
fn the_text_names_the_mover_turn_depth_and_chance() {
    let out = analyse(&["8x10 blue: 3", "--level", "1", "--seed", "2"]);
    assert_success(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    let v = json(&["8x10 blue: 3", "--level", "1", "--seed", "2"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert_eq!(
        lines[0],
        format!("red plays {}", v["turn"].as_str().unwrap())
    );
    assert!(
        lines[1].starts_with(&format!("searched {} turn", v["depth"]))
            && lines[1].contains(&format!(": {} steps in ", v["nodes"])),
        "{text}"
    );
    assert!(
        lines[2].starts_with("red's chance to win, by the search: "),
        "{text}"
    );
}

#[test]
fn a_timed_search_plays_a_legal_turn() {
    let v = json(&["6x8 red: ", "--ms", "30", "--seed", "1"]);
    let verdict = judged("6x8 red: ", v["turn"].as_str().unwrap());
    assert!(
        verdict["over"] == false || verdict["winner"] == "red",
        "{verdict}"
    );
    // Either a level or a time, not both.
    let out = analyse(&["6x8 red: ", "--ms", "30", "--level", "2"]);
    assert_eq!(code(&out), 2);
}

#[test]
fn a_bad_record_exits_2_naming_its_column() {
    let out = analyse(&["8x10 red: 3/9"]);
    assert_eq!(code(&out), 2);
    assert!(out.stdout.is_empty());
    let err = stderr(&out);
    assert!(
        err.starts_with("quadrille: bad record: column 13: "),
        "{err}"
    );
    let out = analyse(&["8x11 red: 3"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("column 3"), "{}", stderr(&out));
}

#[test]
fn a_game_that_is_over_is_refused() {
    let out = analyse(&["2x2 red: 35", "--json"]);
    assert_eq!(code(&out), 2);
    assert!(out.stdout.is_empty());
    assert_eq!(
        stderr(&out),
        "quadrille: the game is over (red wins at turn 1: red scored in blue's goal): no turn \
         to analyse\n"
    );
}
