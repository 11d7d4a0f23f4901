//! VCD of a window of cycles, with every port and named wire.

use hdl_sim::{Simulator, all_signals, dump_window};

#[test]
fn a_window_starts_at_its_first_cycle_and_holds_ports_and_wires() {
    let text = include_str!("designs/mem.json");
    let mut sim = Simulator::from_json(text, Some("clk")).unwrap();
    let signals = all_signals(&sim);
    let out = dump_window(&mut sim, signals, 3, 2, Vec::new()).unwrap();
    let vcd = String::from_utf8(out).unwrap();
    assert!(vcd.contains(" cnt_async [7:0] $end"), "ports: {vcd}");
    assert!(vcd.contains(" wra [2:0] $end"), "named wires too");
    assert!(!vcd.contains(" $auto$"), "not yosys' internal names");
    let times: Vec<&str> = vcd.lines().filter(|l| l.starts_with('#')).collect();
    assert_eq!(times, ["#30", "#35", "#40", "#45", "#50"]);
    // cnt_async counts down from 200 at each rising edge: 197 after 3 cycles, 196 at t = 35.
    let after = |t: &str| vcd.split(&format!("{t}\n")).nth(1).unwrap().to_string();
    assert!(after("#30").contains(&format!("b{:b} ", 197)));
    assert!(after("#35").starts_with("1") || after("#35").contains(&format!("b{:b} ", 196)));
    assert_eq!(sim.cycle(), 5);
}
