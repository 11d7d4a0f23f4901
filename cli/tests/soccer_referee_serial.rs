//! `quadrille soccer referee` with a player on a serial port: a pseudo-terminal, which the
//! program opens exactly like a USB-to-RS232 adapter, while the test plays the board on the
//! other end byte by byte.

mod common;

use std::process::Child;
use std::time::Duration;

use common::soccer::*;
use engine::soccer::record::Record;
use engine::soccer::{Reason, Side};

const LIMIT: Duration = Duration::from_secs(30);
const READ: Duration = Duration::from_secs(10);

fn spawn_referee(args: &[&str]) -> Child {
    let mut full = vec!["soccer", "referee"];
    full.extend_from_slice(args);
    spawn(quadrille(&full))
}

/// Referees a board (red, which starts) against the engine at level 1 (blue) with 3-second
/// turns and the other `settings` given; the board has received `set_up` when this returns.
fn board_against_engine(board: &mut Pty, settings: &[&str], set_up: &[u8]) -> Child {
    let mut args = vec![
        "--red",
        &board.path,
        "--blue",
        "engine:1",
        "--starter",
        "red",
        "--turn-ms",
        "3000",
    ];
    args.extend_from_slice(settings);
    let referee = spawn_referee(&args);
    assert_eq!(board.read_exactly(set_up.len(), READ), set_up);
    referee
}

#[test]
fn a_board_on_a_10x10_field_plays_through_garbage_then_hangs_up() {
    let mut board = Pty::new();
    // The sizes are single raw bytes, here 0x0A, the same byte as the line ends.
    let referee = board_against_engine(
        &mut board,
        &["--width", "10", "--length", "10"],
        b"w\x0a\nl\x0a\ncr\n{}\n",
    );
    board.write(b"garbage 9\r\n{ 4 ");
    board.write(b"}\r\n");
    let reply = board.read_until(b"}\n", READ);
    assert!(
        reply.len() > 3 && reply[0] == b'{',
        "{:?}",
        reply.escape_ascii().to_string()
    );
    let blue_turn = String::from_utf8(reply[1..reply.len() - 2].to_vec()).unwrap();
    drop(board);
    let lines = stdout_lines(&wait(referee, LIMIT));
    assert_eq!(
        lines,
        vec![format!("10x10 red: 4/{blue_turn} # blue disconnect")]
    );
    let record = Record::parse(&lines[0]).unwrap();
    assert!(record.replay().is_ok());
}

/// Referees the engine (red) against a board (blue) that starts and never answers, over a
/// 9600-baud line with the other `settings` given; the board has received the set-up when this
/// returns. The game ends `8x10 blue: # red timeout` (see [`assert_silent_board_lost`]).
fn silent_board_game(board: &mut Pty, settings: &[&str]) -> Child {
    let mut args = vec![
        "--red",
        "engine:0",
        "--blue",
        &board.path,
        "--starter",
        "blue",
        "--turn-ms",
        "250",
        "--baud",
        "9600",
    ];
    args.extend_from_slice(settings);
    let referee = spawn_referee(&args);
    let set_up = b"w\x08\nl\x0a\ncb\n{}\n";
    assert_eq!(board.read_exactly(set_up.len(), READ), set_up);
    referee
}

fn assert_silent_board_lost(referee: Child) {
    let lines = stdout_lines(&wait(referee, LIMIT));
    assert_eq!(lines, vec!["8x10 blue: # red timeout".to_string()]);
}

#[test]
fn a_silent_board_loses_on_time_at_any_line_settings() {
    let mut board = Pty::new();
    let referee = silent_board_game(&mut board, &["--stop-bits", "1"]);
    assert_silent_board_lost(referee);
}

#[test]
fn a_board_sending_a_closing_brace_first_loses_by_illegal_step_and_the_log_shows_it() {
    let dir = testkit::scratch_dir("cli");
    let log = dir.path().join("bytes.log");
    let mut board = Pty::new();
    let referee = board_against_engine(
        &mut board,
        &["--log", log.to_str().unwrap()],
        b"w\x08\nl\x0a\ncr\n{}\n",
    );
    board.write(b"4}\n");
    let lines = stdout_lines(&wait(referee, LIMIT));
    let record = Record::parse(&lines[0]).unwrap();
    let result = record.result.unwrap();
    assert_eq!(
        (result.winner, result.reason),
        (Side::Blue, Reason::IllegalStep)
    );
    assert!(record.turns.is_empty());
    let log = std::fs::read_to_string(&log).unwrap();
    assert!(log.contains("from red  4}\\n"), "{log}");
    assert!(log.contains("`}` without a preceding `{`"), "{log}");
}

#[test]
fn every_line_setting_of_the_spec_reaches_the_serial_port() {
    let mut board = Pty::new();
    let referee = silent_board_game(
        &mut board,
        &[
            "--data-bits",
            "7",
            "--parity",
            "even",
            "--stop-bits",
            "1",
            "--flow-control",
            "software",
        ],
    );
    // The referee configured the terminal; its other end (held by the test) sees the settings.
    // A Linux pseudo-terminal always reports 8 data bits and no parity whatever it is asked
    // for, so only the stop bits and the flow control can be read back here.
    use serialport::SerialPort;
    let slave = &board.slave;
    assert_eq!(slave.stop_bits().unwrap(), serialport::StopBits::One);
    assert_eq!(
        slave.flow_control().unwrap(),
        serialport::FlowControl::Software
    );
    assert_silent_board_lost(referee);
}
