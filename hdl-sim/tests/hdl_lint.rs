//! `verilator --lint-only -Wall` must be clean on the player's synthesizable Verilog.
//!
//! Skipped, with a notice, when verilator is not installed.

mod common;

use std::process::Command;

use common::verilog::player_sources;

#[test]
fn verilator_lint_is_clean() {
    if testkit::tool("verilator").is_none() {
        return;
    }
    let out = Command::new("verilator")
        .args(["--lint-only", "-Wall", "--top-module", "de2_115_top"])
        .args(player_sources())
        .output()
        .expect("run verilator");
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "verilator reports:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
