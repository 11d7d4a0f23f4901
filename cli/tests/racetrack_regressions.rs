//! What an independent probe of the racetrack commands found (issue 19), each kept fixed: log
//! lines of concurrent judges, laps on non-conforming circuits, and messages that name the place.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use common::{assert_success, code, quadrille, run, write_sample};
use engine::racetrack::physics::Pos;
use engine::racetrack::{Circuit, LineEnding, bmp};
use serde_json::Value;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

/// `circuit` written as `ring.cir`, and a lap on it found by search as `lap.f1`, by `pilot`.
fn lap_on(dir: &Path, circuit: &Circuit, pilot: &str) -> (PathBuf, PathBuf) {
    let cir = dir.join("ring.cir");
    fs::write(&cir, circuit.to_text(LineEnding::CrLf)).unwrap();
    let lap = testkit::racetrack::find_lap(circuit).expect("a lap");
    let f1 = dir.join("lap.f1");
    let file = testkit::racetrack::result_file(pilot, "ring.cir", &lap);
    fs::write(&f1, file.to_text(LineEnding::CrLf)).unwrap();
    (cir, f1)
}

fn ring() -> Circuit {
    Circuit::parse(
        engine::racetrack::samples::by_name("ring")
            .unwrap()
            .text
            .as_bytes(),
    )
    .unwrap()
}

/// Concurrent `testf1` runs once wrote each log line in two `write` calls, and 8 trials in 15
/// merged lines. Now each line is one append under a lock: every line of the log is whole.
/// (Processes start too far apart to tear lines often; the threads of
/// `racetrack::tests::concurrent_appends_keep_every_line_whole`, in the binary, catch the old
/// two-write append every time.)
#[test]
fn concurrent_judges_append_whole_log_lines() {
    let dir = testkit::scratch_dir("cli");
    // A long pilot name makes each line a few kilobytes, so torn writes would show.
    let pilot = "P".repeat(3000);
    let (_, f1) = lap_on(dir.path(), &ring(), &pilot);
    const RUNS: usize = 24;
    let children: Vec<_> = (0..RUNS)
        .map(|_| {
            quadrille(&["testf1", s(&f1), "-t"])
                .stdout(std::process::Stdio::null())
                .spawn()
                .expect("spawn quadrille")
        })
        .collect();
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    let log = fs::read_to_string(dir.path().join("ring.log")).unwrap();
    assert!(log.ends_with('\n'));
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(lines.len(), RUNS, "one line per run");
    for line in lines {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 7, "a whole line: {:.80}…", line);
        assert_eq!(fields[0], pilot);
        assert_eq!(&fields[1..3], ["lap.f1", "valid"]);
    }
}

/// A lap on a circuit that `verifcir` refuses was reported valid without a word. The verdict
/// stands (the spec judges a lap on the circuit given), but a warning names the first problem.
#[test]
fn a_lap_on_a_non_conforming_circuit_is_judged_with_a_warning() {
    let dir = testkit::scratch_dir("cli");
    let mut circuit = ring();
    circuit.set(Pos::new(0, 50), b' ').unwrap(); // one track cell on the border, far from any lap
    let (cir, f1) = lap_on(dir.path(), &circuit, "Test Pilot");
    let problem = "rule 2 (closed border): 1 track cell on the edge of the grid (row 0, row 99, \
                   column 0 or column 149), first at (0,50): the border must be closed";

    let out = run(&["testf1", s(&f1), "-t", "-l"]);
    assert_success(&out);
    assert_eq!(
        stderr(&out),
        format!(
            "warning: {} is not a conforming circuit ({problem}); the lap is judged on it all \
             the same, but `quadrille verifcir` refuses it\n",
            cir.display()
        )
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Verdict     : valid lap"), "{text}");
    assert!(
        text.contains(&format!(
            "Warning     : the circuit is not conforming: {problem}"
        )),
        "{text}"
    );

    let out = run(&["testf1", s(&f1), "-l", "--json"]);
    assert_eq!(code(&out), 0);
    let v = json(&out);
    assert_eq!(v["valid"], true);
    assert_eq!(v["circuit_conforming"], false);
    assert_eq!(v["circuit_problem"], problem);

    // A conforming circuit says so, and a syntax fault (no circuit read) says nothing.
    let (_, f1) = lap_on(dir.path(), &ring(), "Test Pilot");
    let out = run(&["testf1", s(&f1), "-l", "--json"]);
    assert_eq!(stderr(&out), "");
    assert_eq!(json(&out)["circuit_conforming"], true);
    assert!(json(&out).get("circuit_problem").is_none());
    fs::write(&f1, "P\r\nring.cir\r\n40;4\r\n").unwrap();
    let v = json(&run(&["testf1", s(&f1), "-l", "--json"]));
    assert_eq!(v["fault"], "syntax");
    assert!(v.get("circuit_conforming").is_none());
}

/// BMP errors said "failed to fill whole buffer" or "More than one plane": now they name the
/// header field and its byte, or where a cut-short file ends.
#[test]
fn bmp2cir_names_the_field_and_the_byte() {
    let dir = testkit::scratch_dir("cli");
    let good = bmp::write(&ring());
    let input = dir.path().join("in.bmp");
    let output = dir.path().join("out.cir");
    let refused = |bytes: &[u8]| {
        fs::write(&input, bytes).unwrap();
        let out = run(&["bmp2cir", s(&input), s(&output)]);
        assert_eq!(code(&out), 2);
        stderr(&out)
    };
    let mut planes = good.clone();
    planes[26] = 2;
    assert_eq!(
        refused(&planes),
        format!(
            "quadrille: {}: BMP header: planes (byte 26) is 2, expected 1\n",
            input.display()
        )
    );
    assert_eq!(
        refused(&good[..500]),
        format!(
            "quadrille: {}: the BMP ends after 500 bytes, inside the pixel data of row 94 \
             (stored row 6 of 100)\n",
            input.display()
        )
    );
    assert!(!output.exists());
}

/// Non-ASCII bytes gave no place in a result file: now line, column and byte offset, worded as
/// for a circuit.
#[test]
fn non_ascii_bytes_are_placed_in_circuits_and_result_files() {
    let dir = testkit::scratch_dir("cli");
    let cir = write_sample(dir.path(), "ring", "ring.cir");
    let mut bytes = fs::read(&cir).unwrap();
    bytes[152 * 2 + 9] = 0xE9;
    fs::write(&cir, &bytes).unwrap();
    let out = run(&["verifcir", "--json", s(&cir)]);
    assert_eq!(code(&out), 1);
    assert_eq!(
        json(&out)["violations"][0]["message"],
        "line 3, column 10 (byte 313): byte 0xE9 is not ASCII"
    );

    let f1 = dir.path().join("lap.f1");
    fs::write(&f1, b"me\r\nring.cir\r\n40,4\r\n41,\xe94\r\n").unwrap();
    let v = json(&run(&["testf1", s(&f1), "-l", "--json"]));
    assert_eq!(
        v["message"],
        "syntax error: line 4, column 4 (byte 23): byte 0xE9 is not ASCII"
    );
    assert_eq!(v["line"], 4);
}

/// "1 lines": counts agree with their nouns.
#[test]
fn a_one_line_circuit_says_one_line() {
    let dir = testkit::scratch_dir("cli");
    let cir = dir.path().join("one.cir");
    fs::write(&cir, format!("{}\r\n", "A".repeat(150))).unwrap();
    let out = run(&["verifcir", s(&cir)]);
    assert_eq!(code(&out), 1);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!(
            "{}: NOT conforming\n  rule 1 (size): 1 line, a circuit has exactly 100\n",
            cir.display()
        )
    );
}

/// A result file whose second line is huge named its circuit whole in the error: now the name
/// is cut at 60 bytes.
#[test]
fn a_missing_circuit_is_quoted_short() {
    let dir = testkit::scratch_dir("cli");
    let f1 = dir.path().join("lap.f1");
    fs::write(&f1, format!("P\r\n{}.cir\r\n40,4\r\n", "n".repeat(100_000))).unwrap();
    let out = run(&["testf1", s(&f1), "-l"]);
    assert_eq!(code(&out), 2);
    assert_eq!(
        stderr(&out),
        format!(
            "quadrille: circuit \"{}…\" (line 2 of {}) not found in {}; give it with --circuit\n",
            "n".repeat(60),
            f1.display(),
            dir.path().display()
        )
    );
}
