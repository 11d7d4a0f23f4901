//! Runs the cpu test design for a while, for profilers: `cargo run --release -p hdl-sim
//! --example profile_cpu -- [cpu|player|think] CYCLES`.
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
        let text =
            std::fs::read_to_string(format!("{root}/../hdl/netlist/de2_115_top.json")).unwrap();
        let mut b =
            hdl_sim::BoardEmulator::from_json(&text, hdl_sim::BoardConfig::default()).unwrap();
        b.run(n);
        println!("{}", b.cycle());
    }
}
