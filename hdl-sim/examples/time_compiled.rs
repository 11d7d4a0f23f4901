//! Times the compiled back end natively (wasmtime) on the bench's busy designs and the thinking
//! player, in CPU time of this thread (steady whatever the machine's load), for comparing two
//! builds of the generator back to back without the whole `sim` bench:
//! `cargo run --release -p hdl-sim --example time_compiled -- [pico|cpu|think ...] [ROUNDS]`.
//! Prints the best of `ROUNDS` (default 3) in millions of cycles per second.
use hdl_sim::wasm::{Compiled, Options};
use hdl_sim::{BoardConfig, BoardEmulator, Simulator};

fn thread_cpu_seconds() -> f64 {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").expect("schedstat");
    let ns: u64 = text
        .split_whitespace()
        .next()
        .and_then(|w| w.parse().ok())
        .expect("schedstat's first field");
    ns as f64 / 1e9
}

fn design(name: &str) -> (Simulator, u64) {
    let root = env!("CARGO_MANIFEST_DIR");
    let load = |file: &str| {
        let text = std::fs::read_to_string(format!("{root}/tests/designs/{file}")).expect(file);
        Simulator::from_json(&text, Some("clk")).expect("the design loads")
    };
    match name {
        "pico" => {
            let mut sim = load("picorv32_soc.json");
            sim.set_by_name("rst", 1).expect("rst");
            sim.run(4);
            sim.set_by_name("rst", 0).expect("rst");
            (sim, 1_000_000)
        }
        "cpu" => {
            let mut sim = load("cpu.json");
            sim.set_by_name("din", 0x1234).expect("din");
            (sim, 5_000_000)
        }
        _ => {
            let config = BoardConfig {
                switch_value: 10,
                ..BoardConfig::default()
            };
            let mut board = BoardEmulator::from_json(hdl_sim::reference::NETLIST, config)
                .expect("the reference player loads");
            board.send(b"w\x08\nl\x0a\ncr\n{}\n");
            while !board.send_idle() {
                board.run(1000);
            }
            (board.simulator().clone(), 20_000_000)
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rounds: usize = args.iter().find_map(|a| a.parse().ok()).unwrap_or(3);
    let mut names: Vec<&str> = args
        .iter()
        .filter(|a| a.parse::<usize>().is_err())
        .map(String::as_str)
        .collect();
    if names.is_empty() {
        names = vec!["pico", "cpu", "think"];
    }
    for name in names {
        let (start, cycles) = design(name);
        let mut best = 0f64;
        for _ in 0..rounds {
            let mut sim = start.clone();
            let mut compiled = Compiled::with_options(&sim, &Options::default()).expect("compiles");
            compiled.run(&mut sim, cycles / 20).expect("runs"); // warm up
            let t = thread_cpu_seconds();
            compiled.run(&mut sim, cycles).expect("runs");
            let s = thread_cpu_seconds() - t;
            best = best.max(cycles as f64 / s / 1e6);
        }
        println!("{name}: {best:.2} M cycles/s (CPU time, best of {rounds})");
    }
}
