//! The reference player's netlist (`hdl/netlist/de2_115_top.json`) in the board emulator,
//! refereed by the rules engine: every turn it answers over its simulated serial line must be
//! legal.

use engine::soccer::field::Field;
use engine::soccer::game::Game;
use engine::soccer::{Reason, Side};
use hdl_sim::{BoardConfig, BoardEmulator};

/// A generous bound: the contest allows 1000 ms per turn, i.e. 50 million cycles at 50 MHz.
const TURN_LIMIT: u64 = 50_000_000;

fn board() -> BoardEmulator {
    testkit::board::reference_board(BoardConfig::default())
}

/// Reads one `{digits}\n` message from the board; returns the digits.
fn read_turn(board: &mut BoardEmulator) -> Vec<u8> {
    let start = board.cycle();
    let mut msg = Vec::new();
    loop {
        let left = TURN_LIMIT.saturating_sub(board.cycle() - start);
        let b = board.run_until_byte(left).unwrap_or_else(|| {
            panic!(
                "no complete turn within {TURN_LIMIT} cycles; got {:?}",
                String::from_utf8_lossy(&msg)
            )
        });
        assert!(!b.framing_error, "framing error on byte {:#04x}", b.byte);
        msg.push(b.byte);
        if b.byte == b'\n' {
            break;
        }
    }
    assert!(
        msg.len() >= 3 && msg[0] == b'{' && msg[msg.len() - 2] == b'}',
        "not a turn message: {:?}",
        String::from_utf8_lossy(&msg)
    );
    let digits = msg[1..msg.len() - 2].to_vec();
    assert!(
        digits.iter().all(|d| (b'0'..=b'7').contains(d)),
        "bad digits {:?}",
        String::from_utf8_lossy(&digits)
    );
    digits
}

/// A legal turn for the side to move: the first legal step each time (deterministic, simple).
fn some_turn(game: &Game) -> Vec<u8> {
    let mut g = game.clone();
    let mut digits = Vec::new();
    let mover = g.to_move();
    while g.outcome().is_none() && g.to_move() == mover {
        let dirs = g.legal_steps();
        let Some(&d) = dirs.last() else { break };
        digits.push(b'0' + d as u8);
        let _ = g.step(d);
    }
    digits
}

fn assert_legal(game: &mut Game, digits: &[u8], board_side: Side) -> bool {
    match game.play_message(digits) {
        None => true,
        Some(outcome) => {
            assert!(
                outcome.winner == board_side
                    && matches!(
                        outcome.reason,
                        Reason::Goal | Reason::OwnGoal | Reason::Stuck
                    ),
                "the board's turn {:?} ended the game: {outcome}",
                String::from_utf8_lossy(digits)
            );
            false
        }
    }
}

fn play(colour: &[u8], board_side: Side, width: u8, length: u8, rounds: usize) {
    let mut board = board();
    let mut setup = vec![b'w', width, b'\n', b'l', length, b'\n', b'c'];
    setup.extend_from_slice(colour);
    setup.push(b'\n');
    board.send(&setup);
    let starter = if board_side == Side::Red {
        Side::Red
    } else {
        Side::Blue
    };
    let mut game = Game::new(Field::new(width, length).expect("valid field"), starter);
    board.send(b"{}\n");
    for round in 0..rounds {
        let before = board.cycle();
        let digits = read_turn(&mut board);
        eprintln!(
            "round {round}: board played {:?} after {} cycles",
            String::from_utf8_lossy(&digits),
            board.cycle() - before
        );
        if !assert_legal(&mut game, &digits, board_side) {
            return;
        }
        let reply = some_turn(&game);
        if game.play_message(&reply).is_some() {
            return;
        }
        let mut msg = vec![b'{'];
        msg.extend_from_slice(&reply);
        msg.extend_from_slice(b"}\n");
        board.send(&msg);
    }
}

#[test]
fn board_answers_legal_turns_as_red_on_8x10() {
    play(b"r", Side::Red, 8, 10, 4);
}

#[test]
fn board_answers_legal_turns_as_blue_on_10x10() {
    // W = 10 is the byte 0x0A, the line terminator: the board must take it as data.
    play(b"b", Side::Blue, 10, 10, 3);
}
