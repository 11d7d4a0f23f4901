#![cfg(target_arch = "wasm32")]
//! Simulated cycles per second in the browser, printed (not asserted): ignored by default, run
//! it with `--include-ignored` to read the figure next to the native benchmark's.

use hdl_sim::{BoardConfig, BoardEmulator};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = Date)]
    fn now() -> f64;
    #[wasm_bindgen(js_namespace = console)]
    fn log(s: &str);
}

const PLAYER: &str = include_str!("../../hdl/netlist/de2_115_top.json");

#[wasm_bindgen_test]
#[ignore]
fn player_cycles_per_second() {
    for (name, sw, input) in [
        ("idle", 0, &b""[..]),
        ("thinking (SW=10)", 10, &b"w\x08\nl\x0a\ncr\n{}\n"[..]),
    ] {
        let config = BoardConfig {
            switch_value: sw,
            ..BoardConfig::default()
        };
        let mut board = BoardEmulator::from_json(PLAYER, config).unwrap();
        board.send(input);
        let n = 2_000_000;
        let t = now();
        board.run(n);
        let ms = now() - t;
        log(&format!(
            "player {name}: {:.2} Mcycles/s in wasm",
            n as f64 / ms / 1000.0
        ));
    }
}
