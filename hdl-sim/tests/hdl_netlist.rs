//! The committed netlist `hdl/netlist/de2_115_top.json` (loaded by the simulator and the app,
//! which must build without yosys) must be what `hdl/netlist.sh` makes of `hdl/src/*.v` today.
//!
//! Skipped, with a notice, when yosys is not installed.

mod common;

use std::process::Command;

use common::run_ok;
use common::verilog::{hdl_dir, player_sources};

#[test]
fn committed_netlist_matches_the_verilog() {
    if testkit::tool("yosys").is_none() {
        return;
    }
    let hdl = hdl_dir();
    let dir = testkit::scratch_dir("hdl-netlist");
    let fresh = dir.path().join("de2_115_top.json");
    // The committed file is made at the repository's root from `hdl/src/*.v`, so the paths
    // yosys records in `src` attributes are the same.
    let rel: Vec<String> = player_sources()
        .iter()
        .map(|p| format!("hdl/src/{}", p.file_name().expect("name").to_string_lossy()))
        .collect();
    run_ok(
        Command::new("bash")
            .current_dir(hdl.join(".."))
            .arg("hdl/netlist.sh")
            .arg("de2_115_top")
            .arg(&fresh)
            .args(&rel),
        "hdl/netlist.sh",
    );
    let fresh_json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&fresh).expect("fresh netlist")).expect("JSON");
    let committed_json: serde_json::Value =
        serde_json::from_str(hdl_sim::reference::NETLIST).expect("committed netlist is JSON");
    assert!(
        fresh_json["modules"]["de2_115_top"] == committed_json["modules"]["de2_115_top"],
        "hdl/netlist/de2_115_top.json is stale: regenerate it with\n  \
         hdl/netlist.sh de2_115_top hdl/netlist/de2_115_top.json hdl/src/*.v"
    );
}
