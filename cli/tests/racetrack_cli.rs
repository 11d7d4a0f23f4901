//! The racetrack commands as the acceptance tests use them: exit codes, JSON shapes, the log.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use common::{assert_success, code, run, write_sample};
use engine::racetrack::samples::{self, SAMPLES};
use engine::racetrack::{Circuit, LineEnding, Pos, judge};
use serde_json::Value;

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn verifcir_exit_codes_and_json() {
    let dir = testkit::scratch_dir("cli");
    let ring = write_sample(dir.path(), "ring", "ring.cir");
    let out = run(&["verifcir", s(&ring)]);
    assert_eq!(code(&out), 0);
    assert!(String::from_utf8_lossy(&out.stdout).contains("conforming"));
    let out = run(&["verifcir", s(&ring), "--json"]);
    assert_eq!(code(&out), 0);
    assert_eq!(
        json(&out),
        serde_json::json!({"conforming": true, "violations": []})
    );

    for (name, rule) in [
        ("bad_border", 2),
        ("bad_start", 3),
        ("bad_islands", 4),
        ("bad_width", 5),
    ] {
        let path = write_sample(dir.path(), name, &format!("{name}.cir"));
        let out = run(&["verifcir", "--json", s(&path)]);
        assert_eq!(code(&out), 1, "{name}");
        let v = json(&out);
        assert_eq!(v["conforming"], false);
        let violations = v["violations"].as_array().unwrap();
        let found = violations.iter().find(|x| x["rule"] == rule).expect(name);
        assert!(!found["message"].as_str().unwrap().is_empty());
        let cell = &found["cells"][0];
        assert!(cell[0].is_i64() && cell[1].is_i64(), "{name}: {cell}");
        // Text mode too.
        let out = run(&["verifcir", s(&path)]);
        assert_eq!(code(&out), 1);
        assert!(String::from_utf8_lossy(&out.stdout).contains(&format!("rule {rule}")));
    }
}

/// Rule 1 (size) is a conformity rule like the others: a file of the wrong shape is readable and
/// not conforming (exit 1, the rule-1 violation naming the line); only a file that cannot be
/// read at all is exit 2.
#[test]
fn verifcir_shape_errors_are_rule_1_and_only_io_errors_are_exit_2() {
    let dir = testkit::scratch_dir("cli");
    let bad = write_sample(dir.path(), "bad_size", "bad_size.cir");
    let out = run(&["verifcir", s(&bad), "--json"]);
    assert_eq!(code(&out), 1);
    let v = json(&out);
    assert_eq!(v["conforming"], false);
    assert_eq!(v["violations"][0]["rule"], 1);
    assert!(
        v["violations"][0]["message"]
            .as_str()
            .unwrap()
            .contains("99 lines")
    );
    // A short line names its line number, in text mode too.
    let mut text = samples::by_name("ring").unwrap().text.to_string();
    text.replace_range(152 * 9..152 * 9 + 1, "");
    let short = dir.path().join("short.cir");
    fs::write(&short, text).unwrap();
    let out = run(&["verifcir", s(&short)]);
    assert_eq!(code(&out), 1);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("NOT conforming"), "{stdout}");
    assert!(stdout.contains("rule 1"), "{stdout}");
    assert!(stdout.contains("line 10: 149 characters"), "{stdout}");
    // An empty file has the wrong size too.
    let empty = dir.path().join("empty.cir");
    fs::write(&empty, "").unwrap();
    let out = run(&["verifcir", "--json", s(&empty)]);
    assert_eq!(code(&out), 1);
    assert_eq!(json(&out)["violations"][0]["rule"], 1);
    let out = run(&["verifcir", s(&dir.path().join("missing.cir"))]);
    assert_eq!(code(&out), 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing.cir"));
}

/// Writes the sample `ring` as `ring.cir` and a lap found by search as `lap.f1`, with
/// `circuit_line` on line 2.
fn lap_setup(dir: &Path, circuit_line: &str) -> (PathBuf, PathBuf, Vec<Pos>) {
    let cir = write_sample(dir, "ring", "ring.cir");
    let circuit = Circuit::parse(&fs::read(&cir).unwrap()).unwrap();
    let lap = testkit::racetrack::find_lap(&circuit).unwrap();
    let f1 = dir.join("lap.f1");
    let file = testkit::racetrack::result_file("Test Pilot", circuit_line, &lap);
    fs::write(&f1, file.to_text(LineEnding::CrLf)).unwrap();
    (cir, f1, lap)
}

#[test]
fn testf1_valid_lap_json_and_no_log_with_l() {
    let dir = testkit::scratch_dir("cli");
    let (cir, f1, lap) = lap_setup(dir.path(), "ring.cir");
    let out = run(&["testf1", s(&f1), "--circuit", s(&cir), "-t", "-l", "--json"]);
    assert_success(&out);
    let v = json(&out);
    let circuit = Circuit::parse(&fs::read(&cir).unwrap()).unwrap();
    let expected = judge::judge_positions(&circuit, &lap);
    let lapv = expected.lap().unwrap();
    assert_eq!(v["valid"], true);
    assert_eq!(v["pilot"], "Test Pilot");
    assert_eq!(v["circuit"], "ring.cir");
    assert_eq!(v["moves"], lap.len() - 1);
    assert_eq!(v["time"].as_f64(), Some(lapv.time));
    assert_eq!(v["speed_kmh"].as_f64(), Some(lapv.speed_kmh));
    assert!(!dir.path().join("ring.log").exists());
}

#[test]
fn testf1_finds_the_circuit_case_insensitively_and_logs() {
    let dir = testkit::scratch_dir("cli");
    let (_, f1, lap) = lap_setup(dir.path(), "C:\\F1\\RING.CIR");
    // stdout is a pipe, not a terminal: no animation, text output, no hang.
    let out = run(&["testf1", s(&f1)]);
    assert_success(&out);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("valid lap"), "{text}");
    assert!(
        !text.contains('\x1b'),
        "no escape codes when not a terminal"
    );
    let log = fs::read_to_string(dir.path().join("ring.log")).unwrap();
    assert_eq!(log.lines().count(), 1);
    let fields: Vec<&str> = log.trim_end().split('\t').collect();
    assert_eq!(
        &fields[..4],
        &[
            "Test Pilot",
            "lap.f1",
            "valid",
            &(lap.len() - 1).to_string()
        ]
    );
    // -n0 would step on Enter: stdin is closed, so it must not wait.
    let out = run(&["testf1", s(&f1), "-n0"]);
    assert_eq!(code(&out), 0);
    assert_eq!(
        fs::read_to_string(dir.path().join("ring.log"))
            .unwrap()
            .lines()
            .count(),
        2
    );
}

#[test]
fn testf1_faults() {
    let dir = testkit::scratch_dir("cli");
    let (cir, f1, lap) = lap_setup(dir.path(), "ring.cir");
    let verdict = |body: &str| {
        fs::write(&f1, format!("P\r\nring.cir\r\n{body}")).unwrap();
        let out = run(&["testf1", s(&f1), "--circuit", s(&cir), "-l", "--json"]);
        (code(&out), json(&out))
    };
    // Straight up into the wall (row 0 is decor): collision at move 4.
    let (c, v) = verdict("40,4\r\n41,4\r\n41,3\r\n41,1\r\n41,0\r\n");
    assert_eq!(c, 1);
    assert_eq!(v["valid"], false);
    assert_eq!(v["fault"], "collision");
    assert_eq!(v["move"], 4);
    assert!(v["message"].as_str().unwrap().contains("(41,0)"));
    let (_, v) = verdict("40,4\r\n43,4\r\n");
    assert_eq!(
        (v["fault"].as_str(), v["move"].as_u64()),
        (Some("acceleration"), Some(1))
    );
    let (_, v) = verdict("40,4\r\n39,4\r\n");
    assert_eq!(v["fault"], "first_move");
    let (_, v) = verdict("41,4\r\n");
    assert_eq!(
        (v["fault"].as_str(), v["move"].as_u64()),
        (Some("start"), Some(0))
    );
    let (_, v) = verdict("40,4\r\n41,4\r\n42,4\r\n");
    assert_eq!(
        (v["fault"].as_str(), v["move"].as_u64()),
        (Some("did_not_finish"), Some(2))
    );
    let (c, v) = verdict("40,4\r\n41,4\r\nforty,4\r\n");
    assert_eq!(c, 1);
    assert_eq!(
        (v["fault"].as_str(), v["line"].as_u64()),
        (Some("syntax"), Some(5))
    );
    assert!(v.get("move").is_none());
    let mut body: String = lap.iter().map(|p| format!("{},{}\r\n", p.x, p.y)).collect();
    body.push_str("50,4\r\n");
    let (_, v) = verdict(&body);
    assert_eq!(
        (v["fault"].as_str(), v["move"].as_u64()),
        (Some("after_finish"), Some(lap.len() as u64))
    );
    // Text mode names the fault too.
    fs::write(
        &f1,
        "P\r\nring.cir\r\n40,4\r\n41,4\r\n41,3\r\n41,1\r\n41,0\r\n",
    )
    .unwrap();
    let out = run(&["testf1", s(&f1), "-t", "-l"]);
    assert_eq!(code(&out), 1);
    assert!(String::from_utf8_lossy(&out.stdout).contains("move 4: (41,1) → (41,0)"));
}

#[test]
fn testf1_unreadable_is_exit_2() {
    let dir = testkit::scratch_dir("cli");
    let f1 = dir.path().join("lap.f1");
    fs::write(&f1, "P\r\nnowhere.cir\r\n40,4\r\n").unwrap();
    let out = run(&["testf1", s(&f1), "--json"]);
    assert_eq!(code(&out), 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("nowhere.cir"));
    let out = run(&["testf1", s(&dir.path().join("none.f1"))]);
    assert_eq!(code(&out), 2);
}

#[test]
fn bmp_conversions_round_trip() {
    let dir = testkit::scratch_dir("cli");
    for sample in SAMPLES.iter().filter(|s| s.conforming).take(3) {
        let cir = write_sample(dir.path(), sample.name, "in.cir");
        let bmp = dir.path().join("out.bmp");
        let back = dir.path().join("back.cir");
        assert_eq!(code(&run(&["cir2bmp", s(&cir), s(&bmp)])), 0);
        assert_eq!(fs::read(&bmp).unwrap().len(), 7718);
        assert_eq!(code(&run(&["bmp2cir", s(&bmp), s(&back)])), 0);
        assert_eq!(
            fs::read_to_string(&back).unwrap(),
            sample.text,
            "{}",
            sample.name
        );
    }
    let junk = dir.path().join("junk.bmp");
    fs::write(&junk, b"not an image").unwrap();
    let out = run(&["bmp2cir", s(&junk), s(&dir.path().join("x.cir"))]);
    assert_eq!(code(&out), 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a BMP"));
}
