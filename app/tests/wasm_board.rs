#![cfg(target_arch = "wasm32")]
//! The emulated board's bench in the browser: the reference player's netlist powers up behind
//! the UART transactors at 115200 8N2, answers a kick-off with a framed turn, stops at the end
//! of its turn, and replays that turn into a VCD.

use app::workers::board::{BackEnd, Bench, Load, Pins};
use hdl_sim::Simulator;
use hdl_sim::wasm::BrowserHost;
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

#[wasm_bindgen_test]
fn the_reference_player_is_compiled_by_the_browser() {
    let bench = Bench::load(&load(), PLAYER).unwrap();
    assert!(bench.is_compiled(), "{}", bench.back_end());
    assert_eq!(bench.back_end(), "compiled to WebAssembly");
    let bench = Bench::load_with(&load(), PLAYER, BackEnd::Interpreter).unwrap();
    assert!(!bench.is_compiled());
}

/// Bytes with their cycles, the cycles the board stopped at, and the last turn's waveform.
type Played = (Vec<(u8, u64)>, Vec<u64>, (String, u64, u64));

/// Plays the kick-off and two further turns of the opponent (whatever the board answers),
/// returning every byte with its cycle, the cycle at which the board stopped each time, and
/// the last turn's waveform (replayed from a snapshot: the memories must have come back from
/// the compiled module).
fn play(mut bench: Bench, slice: u64) -> Played {
    let mut out = Vec::new();
    let mut stops = Vec::new();
    for message in [&b"w\x08\nl\x0a\ncr\n{}\n"[..], b"{5}\n", b"{1}\n"] {
        bench.send(message);
        bench.run_until(bench.cycle() + 50_000_000);
        while bench.wants_to_run() {
            out.extend(bench.run_slice(slice));
        }
        stops.push(bench.cycle());
    }
    let waveform = bench.waveform().expect("a waveform");
    (out, stops, waveform)
}

#[wasm_bindgen_test]
fn the_compiled_board_plays_the_same_bytes_at_the_same_cycles_as_the_interpreter() {
    let interpreted = Bench::load_with(&load(), PLAYER, BackEnd::Interpreter).unwrap();
    let compiled = Bench::load_with(&load(), PLAYER, BackEnd::Compiled).unwrap();
    assert!(compiled.is_compiled());
    let want = play(interpreted, 25_000);
    let got = play(compiled, 500_000);
    assert!(
        want.0.iter().filter(|(b, _)| *b == b'}').count() >= 1,
        "{want:?}"
    );
    assert_eq!(got, want);
}

/// The `cpu` test design (a small processor running from its ROM, with a RAM) for 200,000
/// cycles in random stretches, on the browser's compiled module and on the interpreter,
/// compared after every stretch.
#[wasm_bindgen_test]
fn the_browser_runs_the_cpu_design_as_the_interpreter_does() {
    let text = include_str!("../../hdl-sim/tests/designs/cpu.json");
    let mut reference = Simulator::from_json(text, Some("clk")).unwrap();
    reference.set_by_name("din", 0x1234).unwrap();
    let mut sim = reference.clone();
    let mut browser = BrowserHost::new(&sim).expect("the cpu design compiles");
    let outputs: Vec<String> = sim
        .ports()
        .into_iter()
        .filter(|p| p.direction == hdl_sim::Direction::Output)
        .map(|p| p.name)
        .collect();
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    while sim.cycle() < 200_000 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let n = 1 + seed % 5_000;
        browser.run(&mut sim, n).expect("runs");
        reference.run(n);
        for name in &outputs {
            assert_eq!(
                sim.get_by_name(name).unwrap(),
                reference.get_by_name(name).unwrap(),
                "{name} at cycle {}",
                sim.cycle()
            );
        }
        assert_eq!(sim.cycle(), reference.cycle());
    }
}
