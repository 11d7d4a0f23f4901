//! The script the browser app runs in yosys (`hdl_sim::flow`) is the project's netlist flow:
//! run by the system's yosys on the reference player's sources, laid out under their bare names
//! as the page lays out picked files, it makes exactly the committed netlist (which
//! `hdl/netlist.sh` made), and a syntax error comes back with its file and line.
//!
//! Skipped, with a notice, when yosys is not installed (a failure under CI).

#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::process::Command;

use common::verilog::player_sources;
use hdl_sim::flow::{NETLIST_FILE, VerilogFlow};
use hdl_sim::{BoardConfig, BoardEmulator};

/// Runs `flow`'s script with yosys in `dir`; yosys's output and whether it succeeded.
fn run_yosys(yosys: &std::path::Path, dir: &std::path::Path, flow: &VerilogFlow) -> (bool, String) {
    std::fs::write(dir.join("synth.ys"), flow.script()).expect("write the script");
    let out = Command::new(yosys)
        .args(["-q", "-s", "synth.ys"])
        .current_dir(dir)
        .output()
        .expect("run yosys");
    let log = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), log)
}

#[test]
fn the_browser_script_makes_the_committed_netlist() {
    let Some(yosys) = testkit::tool("yosys") else {
        return;
    };
    let scratch = testkit::scratch_dir("verilog-flow");
    let dir = scratch.path();
    let mut names = Vec::new();
    for source in player_sources() {
        let name = source
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        std::fs::copy(&source, dir.join(&name)).expect("copy a source");
        names.push(name);
    }
    let flow = VerilogFlow::new(&names, "de2_115_top").expect("the player's names are fine");
    let (ok, log) = run_yosys(&yosys, dir, &flow);
    assert!(ok, "yosys failed:\n{log}");
    let fresh = std::fs::read_to_string(dir.join(NETLIST_FILE)).expect("the netlist");
    // The committed netlist was made from `hdl/src/NAME.v`: yosys writes those paths into
    // `src` attributes and cell names.
    let committed = hdl_sim::reference::NETLIST.replace("hdl/src/", "");
    let fresh: serde_json::Value = serde_json::from_str(&fresh).expect("JSON");
    let committed: serde_json::Value = serde_json::from_str(&committed).expect("JSON");
    assert!(
        fresh["modules"] == committed["modules"],
        "the browser's flow and hdl/netlist.sh disagree on the reference player"
    );
    // And the top is found without being named.
    let auto = VerilogFlow::new(&names, "").expect("names");
    let (ok, log) = run_yosys(&yosys, dir, &auto);
    assert!(ok, "yosys -auto-top failed:\n{log}");
    let json = std::fs::read_to_string(dir.join(NETLIST_FILE)).expect("the netlist");
    let board = BoardEmulator::from_json(&json, BoardConfig::default());
    assert!(
        board.is_ok(),
        "the auto-top netlist loads: {:?}",
        board.err()
    );
}

#[test]
fn a_syntax_error_names_its_file_and_line() {
    let Some(yosys) = testkit::tool("yosys") else {
        return;
    };
    let scratch = testkit::scratch_dir("verilog-flow-error");
    let dir = scratch.path();
    std::fs::write(
        dir.join("good.v"),
        "module good(input a, output b);\n  assign b = a;\nendmodule\n",
    )
    .expect("write");
    std::fs::write(
        dir.join("broken.v"),
        "module broken(input CLOCK_50, output y);\n  good g(.a(CLOCK_50), .b(y))\nendmodule\n",
    )
    .expect("write");
    let flow = VerilogFlow::new(&["good.v", "broken.v"], "broken").expect("names");
    let (ok, log) = run_yosys(&yosys, dir, &flow);
    assert!(!ok, "a syntax error fails:\n{log}");
    assert!(log.contains("broken.v:3: ERROR"), "{log}");
    assert!(!dir.join(NETLIST_FILE).exists(), "no netlist is written");
}
