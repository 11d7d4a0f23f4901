//! Issue 19's findings on the Paper Soccer commands' messages and output, each with its exact
//! expected outcome: bounded quotes with a position, one wording per kind of problem, outcomes
//! that name winner and faulty side, and quiet ends on a closed pipe.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Output, Stdio};

use common::{code, quadrille, run, run_with_closed_stdout};

/// Runs `quadrille args` with `input` on standard input.
fn run_with_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = quadrille(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run quadrille");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    // Written from a thread: the command may refuse the input before reading all of it.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("wait");
    writer.join().expect("writer");
    out
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).expect("UTF-8 message")
}

/// A 1.2 MB record with a bad digit at its end used to echo the whole record.
#[test]
fn a_huge_record_gives_a_short_message_with_turn_and_column() {
    let mut record = b"8x10 red: ".to_vec();
    for _ in 0..150_000 {
        record.extend_from_slice(b"3/4/");
    }
    record.extend_from_slice(b"48\n");
    let column = record.len() - 1;
    let out = run_with_stdin(&["soccer", "judge", "-"], &record);
    assert_eq!(code(&out), 2);
    assert_eq!(
        stderr(&out),
        format!(
            "quadrille: bad record: column {column}: turn 300001: '8' is not a step digit 0-7 \
             (near `…/3/4/3/4/3/4/3/4/3/4/3/4/3/4/48`)\n"
        )
    );
}

#[test]
fn bytes_that_are_not_utf8_are_named_by_column() {
    let out = run_with_stdin(&["soccer", "moves", "-"], b"8x10 red: 3/\xc3\x284\n");
    assert_eq!(code(&out), 2);
    assert_eq!(
        stderr(&out),
        "quadrille: bad record: column 13: the record is not UTF-8 text (byte 0xc3) \
         (near `8x10 red: 3/\u{fffd}(4`)\n"
    );
}

/// The same on the command line, where the bytes reach the parser as they are.
#[cfg(unix)]
#[test]
fn an_argument_that_is_not_utf8_is_named_by_column() {
    use std::os::unix::ffi::OsStrExt;
    let arg = std::ffi::OsStr::from_bytes(b"8x10 \xffred: 3");
    let out = quadrille(&["soccer", "judge"])
        .arg(arg)
        .output()
        .expect("run");
    assert_eq!(code(&out), 2);
    assert_eq!(
        stderr(&out),
        "quadrille: bad record: column 6: the record is not UTF-8 text (byte 0xff) \
         (near `8x10 \u{fffd}red: 3`)\n"
    );
}

/// 255 and 256 used to get different kinds of message (a field error, a syntax error).
#[test]
fn every_size_out_of_range_reads_alike() {
    for (size, width) in [("255", 255), ("256", 256), ("0", 0), ("1", 1), ("300", 300)] {
        let record = format!("{size}x10 red: ");
        let out = run(&["soccer", "judge", &record]);
        assert_eq!(code(&out), 2);
        assert_eq!(
            stderr(&out),
            format!(
                "quadrille: bad record: column 1: width {width} is not an even number from 2 \
                 to 254 (near `{record}`)\n"
            )
        );
        // The referee's --width says it in the same words, before connecting anyone.
        let out = run(&[
            "soccer", "referee", "--red", "engine", "--blue", "engine", "--width", size,
        ]);
        assert_eq!(code(&out), 2);
        assert_eq!(
            stderr(&out),
            format!(
                "quadrille: --width {width} --length 10: width {width} is not an even number \
                 from 2 to 254\n"
            )
        );
    }
    let out = run(&["soccer", "judge", "8x256 red: "]);
    assert_eq!(
        stderr(&out),
        "quadrille: bad record: column 3: length 256 is not an even number from 2 to 254 \
         (near `8x256 red: `)\n"
    );
}

/// `the game ended at turn 2 (red incomplete_turn)` named the winner where a reader expects
/// the faulty side.
#[test]
fn contradictions_name_winner_and_faulty_side() {
    let out = run(&["soccer", "judge", "8x10 red: 3/0/4452"]);
    assert_eq!(code(&out), 2);
    assert_eq!(
        stderr(&out),
        "quadrille: the moves contradict the record: red wins at turn 2: blue made an \
         incomplete turn, but the record goes on to turn 3\n"
    );
    let out = run(&["soccer", "judge", "8x10 red: 3/0 # blue goal"]);
    assert_eq!(
        stderr(&out),
        "quadrille: the moves contradict the record: the record says `blue goal`, but the moves \
         show that red wins at turn 2: blue made an incomplete turn\n"
    );
    let out = run(&["soccer", "judge", "8x10 red: 3/4 # red stuck"]);
    assert_eq!(
        stderr(&out),
        "quadrille: the moves contradict the record: the record says `red stuck`, but the moves \
         leave the game open after turn 2, red to move\n"
    );
    // A verdict the moves cannot show is explained in the note.
    let out = run(&["soccer", "judge", "8x10 red: 3/4 # blue timeout"]);
    assert_eq!(code(&out), 0);
    assert_eq!(
        stderr(&out),
        "quadrille: note: the record says `blue timeout` (blue wins at turn 3: red did not \
         complete a turn in time), which the moves cannot show; judging the moves alone\n"
    );
    // The record's own suffix keeps the spec's form: winner and reason.
    let out = run(&["soccer", "judge", "8x10 red: 3/0 # red incomplete_turn"]);
    assert_eq!(code(&out), 0);
}

/// `soccer moves … | head` ended with `Broken pipe (os error 32)` and exit 2.
#[test]
fn a_reader_that_stops_early_ends_the_listing_quietly() {
    let mut child = quadrille(&["soccer", "moves", "254x2 red: "])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run quadrille");
    let mut reader = BufReader::new(child.stdout.take().expect("stdout"));
    let mut first = String::new();
    reader.read_line(&mut first).expect("a first line");
    assert!(first.starts_with('0'), "{first:?}");
    drop(reader);
    let mut err = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut err)
        .expect("stderr");
    let status = child.wait().expect("wait");
    assert_eq!((status.code(), err.as_str()), (Some(0), ""));
}

/// The same for a command that prints one line: its output closed before it writes.
#[test]
fn a_closed_output_ends_a_one_line_command_quietly() {
    for args in [
        &["soccer", "judge", "8x10 red: 3"][..],
        &["soccer", "moves", "8x10 red: 3", "--count"][..],
    ] {
        let out = run_with_closed_stdout(args);
        assert_eq!(code(&out), 0, "{args:?}: {}", stderr(&out));
        assert_eq!(stderr(&out), "", "{args:?}");
    }
}
