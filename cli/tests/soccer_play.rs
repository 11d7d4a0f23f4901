//! `quadrille soccer play`: the engine as a board on a serial port (a pseudo-terminal here).

mod common;

use std::io::{Read, Write};
use std::process::Child;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use common::soccer::*;
use engine::soccer::Side;
use engine::soccer::field::Field;
use engine::soccer::game::Game;
use serialport::SerialPort;

const LIMIT: Duration = Duration::from_secs(60);
const READ: Duration = Duration::from_secs(10);

fn spawn_play(port: &str) -> Child {
    spawn(quadrille(&[
        "soccer",
        "play",
        "--port",
        port,
        "--engine-level",
        "1",
    ]))
}

/// The digits of a `{digits}\n` message.
fn digits(message: &[u8]) -> Vec<u8> {
    assert!(
        message.len() >= 3 && message[0] == b'{' && message.ends_with(b"}\n"),
        "not a turn: {}",
        message.escape_ascii()
    );
    message[1..message.len() - 2].to_vec()
}

#[test]
fn the_engine_answers_legal_turns_and_resynchronises_on_a_new_game() {
    let mut referee = Pty::new();
    let player = spawn_play(&referee.path);
    // Game 1: 10x10 (sizes of byte 0x0A), the engine plays blue and red opens with 4.
    referee.write(b"w\x0a\nl\x0a\ncb\n{4}\n");
    let answer = digits(&referee.read_until(b"}\n", READ));
    let mut game = Game::new(Field::new(10, 10).unwrap(), Side::Red);
    assert_eq!(game.play_message(b"4"), None);
    assert_eq!(game.to_move(), Side::Blue);
    let end = game.play_message(&answer);
    assert!(
        end.is_none() || end.unwrap().winner == Side::Blue,
        "{end:?}"
    );
    // Game 2 starts without a word about game 1; the engine is red and starts.
    referee.write(b"w\x08\nl\x08\ncr\n{}\n");
    let answer = digits(&referee.read_until(b"}\n", READ));
    let mut game = Game::new(Field::new(8, 8).unwrap(), Side::Red);
    let end = game.play_message(&answer);
    assert!(end.is_none(), "{end:?}");
    assert_eq!(game.to_move(), Side::Blue);
    // Hanging up ends the player.
    drop(referee);
    let out = wait(player, LIMIT);
    assert_success(&out);
}

/// Copies bytes between two masters until `stop`.
fn relay(mut from: serialport::TTYPort, mut to: serialport::TTYPort, stop: Arc<AtomicBool>) {
    std::thread::spawn(move || {
        from.set_timeout(Duration::from_millis(20)).unwrap();
        let mut buf = [0u8; 256];
        while !stop.load(Ordering::Relaxed) {
            match from.read(&mut buf) {
                Ok(0) => return,
                Ok(n) => {
                    if to.write_all(&buf[..n]).is_err() {
                        return;
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {}
                Err(_) => return,
            }
        }
    });
}

#[test]
fn the_play_command_on_one_port_against_the_referee_on_another() {
    let board = Pty::new();
    let referee_port = Pty::new();
    let player = spawn_play(&board.path);
    let stop = Arc::new(AtomicBool::new(false));
    relay(
        board.master.try_clone_native().unwrap(),
        referee_port.master.try_clone_native().unwrap(),
        stop.clone(),
    );
    relay(
        referee_port.master.try_clone_native().unwrap(),
        board.master.try_clone_native().unwrap(),
        stop.clone(),
    );
    let out = run(
        quadrille(&[
            "soccer",
            "referee",
            "--red",
            &referee_port.path,
            "--blue",
            "engine:1",
            "--games",
            "2",
            "--seed",
            "9",
            "--turn-ms",
            "3000",
        ]),
        LIMIT,
    );
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), 2);
    for line in &lines {
        assert_ended_on_the_field(line);
    }
    stop.store(true, Ordering::Relaxed);
    drop(board);
    drop(referee_port);
    let out = wait(player, LIMIT);
    assert_success(&out);
}

#[test]
fn the_line_settings_reach_the_port() {
    let mut referee = Pty::new();
    let player = spawn(quadrille(&[
        "soccer",
        "play",
        "--port",
        &referee.path,
        "--engine-level",
        "0",
        "--data-bits",
        "7",
        "--parity",
        "odd",
        "--stop-bits",
        "1",
        "--flow-control",
        "hardware",
    ]));
    referee.write(b"w\x08\nl\x0a\ncr\n{}\n");
    digits(&referee.read_until(b"}\n", READ));
    // A Linux pseudo-terminal reports 8 data bits and no parity whatever it is asked for.
    assert_eq!(
        referee.slave.stop_bits().unwrap(),
        serialport::StopBits::One
    );
    assert_eq!(
        referee.slave.flow_control().unwrap(),
        serialport::FlowControl::Hardware
    );
    drop(referee);
    assert_success(&wait(player, LIMIT));
}
