#![cfg(target_arch = "wasm32")]
//! The board emulator in the browser: the reference player's netlist answers a first turn.

use hdl_sim::{BoardConfig, BoardEmulator, Simulator};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

use hdl_sim::reference::NETLIST as PLAYER;
const LOOP: &str = include_str!("designs/loop.json");

#[wasm_bindgen_test]
fn loopback_board_echoes_bytes() {
    let mut board = BoardEmulator::from_json(LOOP, BoardConfig::default()).unwrap();
    board.send(b"w\n");
    let a = board.run_until_byte(10_000).expect("first byte");
    let b = board.run_until_byte(10_000).expect("second byte");
    assert_eq!((a.byte, b.byte), (b'w', b'\n'));
    assert_eq!(b.cycle - a.cycle, 4340);
}

#[wasm_bindgen_test]
fn player_answers_a_first_turn() {
    let mut board = BoardEmulator::from_json(PLAYER, BoardConfig::default()).unwrap();
    board.send(b"w\x08\nl\x0a\ncr\n{}\n");
    let mut msg = Vec::new();
    while msg.last() != Some(&b'\n') {
        msg.push(board.run_until_byte(50_000_000).expect("a byte").byte);
    }
    assert_eq!(msg.first(), Some(&b'{'));
    assert_eq!(msg[msg.len() - 2], b'}');
}

#[wasm_bindgen_test]
fn simulator_steps_a_counter() {
    let mut sim = Simulator::from_json(LOOP, Some("CLOCK_50")).unwrap();
    sim.set_by_name("KEY", 0xf).unwrap();
    sim.set_by_name("SW", 5).unwrap();
    sim.run(3);
    assert_eq!(sim.get_by_name("LEDG").unwrap(), 15);
}
