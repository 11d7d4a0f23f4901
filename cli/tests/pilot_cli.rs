//! `quadrille pilot` as the acceptance tests use it.

mod common;

use std::fs;
use std::process::Output;

use common::{assert_success, code, run_in, write_sample};

/// A temporary directory holding the sample `name` as `<name>.cir`.
fn with_sample(name: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write_sample(dir.path(), name, &format!("{name}.cir"));
    dir
}

#[test]
fn the_default_result_file_is_judged_valid_by_testf1() {
    let dir = with_sample("ring");
    let out = run_in(dir.path(), &["pilot", "ring.cir"]);
    assert_success(&out);
    let text = fs::read_to_string(dir.path().join("optimal.F1")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[..3], ["optimal", "ring.cir", "40,4"]);
    let judged = run_in(dir.path(), &["testf1", "-t", "-l", "optimal.F1"]);
    assert_eq!(
        code(&judged),
        0,
        "{}",
        String::from_utf8_lossy(&judged.stdout)
    );
}

#[test]
fn json_reports_moves_time_and_solve_time_in_that_order() {
    let dir = with_sample("narrow");
    let out = run_in(
        dir.path(),
        &["pilot", "narrow.cir", "--json", "-o", "lap.f1"],
    );
    assert_eq!(code(&out), 0);
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.starts_with("{\"moves\":"), "{stdout}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    assert_eq!(keys.len(), 3);
    let moves = v["moves"].as_u64().unwrap();
    let time = v["time"].as_f64().unwrap();
    assert!(v["millis"].as_f64().unwrap() >= 0.0);
    assert!(time > (moves - 1) as f64 && time <= moves as f64);
    let written = fs::read_to_string(dir.path().join("lap.f1")).unwrap();
    assert_eq!(written.lines().count() as u64, 2 + moves + 1);
    let judged = run_in(dir.path(), &["testf1", "--json", "-l", "lap.f1"]);
    let verdict: serde_json::Value = serde_json::from_slice(&judged.stdout).unwrap();
    assert_eq!(code(&judged), 0);
    assert_eq!(verdict["moves"].as_u64(), Some(moves), "{verdict}");
}

#[test]
fn the_demo_pilot_is_valid_and_slower() {
    let dir = with_sample("ring");
    let demo = run_in(
        dir.path(),
        &[
            "pilot", "ring.cir", "--pilot", "demo", "--name", "2CV", "--json",
        ],
    );
    assert_eq!(code(&demo), 0);
    let text = fs::read_to_string(dir.path().join("demo.F1")).unwrap();
    assert!(text.starts_with("2CV\r\nring.cir\r\n40,4\r\n"));
    let best = run_in(dir.path(), &["pilot", "ring.cir", "--json"]);
    let time = |o: &Output| {
        serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap()["time"]
            .as_f64()
            .unwrap()
    };
    assert!(time(&demo) > 2.0 * time(&best));
    assert_eq!(
        code(&run_in(dir.path(), &["testf1", "-t", "-l", "demo.F1"])),
        0
    );
}

#[test]
fn unreadable_and_non_conforming_circuits_exit_2() {
    let dir = with_sample("bad_width");
    let out = run_in(dir.path(), &["pilot", "bad_width.cir"]);
    assert_eq!(code(&out), 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a conforming circuit"));
    assert!(!dir.path().join("optimal.F1").exists());
    assert_eq!(code(&run_in(dir.path(), &["pilot", "missing.cir"])), 2);
    fs::write(dir.path().join("short.cir"), "   \r\n").unwrap();
    let out = run_in(dir.path(), &["pilot", "short.cir"]);
    assert_eq!(code(&out), 2);
    assert_eq!(
        code(&run_in(dir.path(), &["pilot", "x.cir", "--pilot", "2cv"])),
        2
    );
}
