#![cfg(target_arch = "wasm32")]
//! The emulated board's bench in the browser: the reference player's netlist powers up behind
//! the UART transactors at 115200 8N2, answers a kick-off with a framed turn, stops at the end
//! of its turn, and replays that turn into a VCD.

use app::workers::board::{Bench, Load, Pins};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

use hdl_sim::reference::NETLIST as PLAYER;

fn load() -> Load {
    Load {
        netlist: None,
        pins: Pins::default(),
        baud: 115_200,
        stop_bits: 2,
        switches: 0,
    }
}

#[wasm_bindgen_test]
fn the_reference_player_answers_a_kick_off_and_stops_after_its_turn() {
    let mut bench = Bench::load(&load(), PLAYER).expect("the reference netlist loads");
    assert_eq!(bench.top(), "de2_115_top");
    bench.send(b"w\x08\nl\x0a\ncr\n{}\n");
    // One simulated second is the turn's limit.
    let deadline = bench.cycle() + 50_000_000;
    bench.run_until(deadline);
    let mut out = Vec::new();
    while bench.wants_to_run() {
        out.extend(bench.run_slice(100_000).into_iter().map(|(b, _)| b));
    }
    assert!(
        bench.cycle() < deadline,
        "it stopped at the end of its turn, not at the deadline"
    );
    assert_eq!(out.first(), Some(&b'{'), "{out:?}");
    assert_eq!(&out[out.len() - 2..], b"}\n", "{out:?}");
    assert!(
        out[1..out.len() - 2]
            .iter()
            .all(|b| (b'0'..=b'7').contains(b))
    );

    let (vcd, from, to) = bench.waveform().expect("a waveform of that turn");
    assert!(to > from);
    assert!(
        vcd.contains(" UART_TXD $end"),
        "the serial pins are in the dump"
    );
    assert!(vcd.contains("$enddefinitions $end"));
}

#[wasm_bindgen_test]
fn a_netlist_without_the_pins_is_refused_with_their_name() {
    let mut request = load();
    request.pins.rx = "SERIAL_IN".into();
    let error = Bench::load(&request, PLAYER).err().expect("no such pin");
    assert!(error.contains("SERIAL_IN"), "{error}");
    request.netlist = Some("{ not json".into());
    assert!(Bench::load(&request, PLAYER).is_err());
}

#[wasm_bindgen_test]
fn holding_stops_once_the_bytes_are_on_the_line() {
    let mut bench = Bench::load(&load(), PLAYER).unwrap();
    let start = bench.cycle();
    bench.send(b"w\x08\n");
    bench.hold();
    while bench.wants_to_run() {
        bench.run_slice(10_000);
    }
    // Three bytes of 11 bits at 434 cycles per bit.
    let ran = bench.cycle() - start;
    assert!(
        (3 * 11 * 434..3 * 11 * 434 + 10_000).contains(&ran),
        "{ran}"
    );
}
