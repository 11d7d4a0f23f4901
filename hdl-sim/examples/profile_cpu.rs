//! Runs a design for a while, for profilers (`valgrind --tool=callgrind` counts instructions
//! whatever the machine's load): `cargo run --release -p hdl-sim --example profile_cpu --
//! [cpu|player|think] CYCLES`. `cpu` is tests/designs/cpu.v, busy every cycle; `player` the
//! reference player idle; `think` the player searching (SW = 10, a game set up, board first).
//! Running it for N and 2N cycles and subtracting gives the cost of one cycle.
fn main() {
    let mut args = std::env::args().skip(1);
    let which = args.next().unwrap_or_else(|| "cpu".into());
    let n: u64 = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(2_000_000);
    let root = env!("CARGO_MANIFEST_DIR");
    if which == "cpu" {
        let text = std::fs::read_to_string(format!("{root}/tests/designs/cpu.json")).unwrap();
        let mut sim = hdl_sim::Simulator::from_json(&text, Some("clk")).unwrap();
        sim.run(n);
        println!("{}", sim.get_by_name("dout").unwrap());
    } else {
        let think = which == "think";
        let config = hdl_sim::BoardConfig {
            switch_value: if think { 10 } else { 0 },
            ..hdl_sim::BoardConfig::default()
        };
        let mut b = hdl_sim::BoardEmulator::from_json(hdl_sim::reference::NETLIST, config).unwrap();
        if think {
            // W = 8, L = 10, red: the board moves first and starts searching.
            b.send(b"w\x08\nl\x0a\ncr\n{}\n");
        }
        b.run(n);
        println!("{}", b.cycle());
    }
}
