//! Writes a module of the compiled back end and its start state, for timing or profiling the
//! generated code under Node alone (no wasmtime):
//! `cargo run --release -p hdl-sim --no-default-features --example dump_module -- OUT_DIR`
//! writes `thinking`, `idle`, `setup` (the reference player searching with SW = 10 after a
//! game's set-up, waiting: the `sim` bench's player rows, and waiting for the rest of a set-up
//! message) and `pico` (PicoRV32 running its program), each
//! as `NAME.wasm` and `NAME.bin`; then time one with
//! `node hdl-sim/benches/wasm_compiled.mjs OUT_DIR/NAME.wasm OUT_DIR/NAME.bin CYCLES OUT.bin`.
use hdl_sim::{BoardConfig, BoardEmulator, Simulator};

fn write(dir: &std::path::Path, name: &str, sim: &Simulator) {
    let module = hdl_sim::wasm::module(sim).expect("the design compiles");
    let image = hdl_sim::wasm::state_image(sim, &module);
    std::fs::write(dir.join(format!("{name}.wasm")), &module.bytes).expect("writing the module");
    std::fs::write(dir.join(format!("{name}.bin")), &image).expect("writing the state");
    println!(
        "{name}: {} bytes of module, {} bytes of state",
        module.bytes.len(),
        image.len()
    );
}

fn main() {
    let dir = std::path::PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| ".".into()));
    std::fs::create_dir_all(&dir).expect("the output directory");
    for (name, sw, input) in [
        ("thinking", 10, &b"w\x08\nl\x0a\ncr\n{}\n"[..]),
        ("idle", 0, b""),
        // Half a set-up message, as e2e/tests/board_speed.test.mjs sends it: the player waits.
        ("setup", 0, b"w\x08\n"),
    ] {
        let config = BoardConfig {
            switch_value: sw,
            ..BoardConfig::default()
        };
        let mut board = BoardEmulator::from_json(hdl_sim::reference::NETLIST, config)
            .expect("the reference player loads");
        board.send(input);
        while !board.send_idle() {
            board.run(1000);
        }
        write(&dir, name, board.simulator());
        // As the board runs it: watching the transmit pin.
        let sim = board.simulator();
        let tx = sim.probe(&board.config().tx).expect("the transmit pin");
        let options = hdl_sim::wasm::Options::default().watching(&[&tx]);
        let module = hdl_sim::wasm::module_with(sim, &options).expect("the design compiles");
        std::fs::write(dir.join(format!("{name}-tx.wasm")), &module.bytes).expect("writing");
        std::fs::write(
            dir.join(format!("{name}-tx.bin")),
            hdl_sim::wasm::state_image(sim, &module),
        )
        .expect("writing the state");
    }
    let root = env!("CARGO_MANIFEST_DIR");
    let text = std::fs::read_to_string(format!("{root}/tests/designs/picorv32_soc.json"))
        .expect("tests/designs/picorv32_soc.json");
    let mut sim = Simulator::from_json(&text, Some("clk")).expect("PicoRV32 loads");
    sim.set_by_name("rst", 1).expect("a reset input");
    sim.run(4);
    sim.set_by_name("rst", 0).expect("a reset input");
    write(&dir, "pico", &sim);
}
