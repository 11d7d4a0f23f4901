//! The player's Verilog in `hdl/` and the tools that read it: where the sources are, and
//! compiling an Icarus Verilog testbench around the player (whether the tools are installed is
//! `testkit::tools`).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository's `hdl/` directory.
pub fn hdl_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../hdl")
}

/// The synthesizable sources `hdl/src/*.v`, sorted: what yosys, verilator and Quartus read.
pub fn player_sources() -> Vec<PathBuf> {
    let mut sources: Vec<PathBuf> = std::fs::read_dir(hdl_dir().join("src"))
        .expect("hdl/src")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "v"))
        .collect();
    sources.sort();
    sources
}

/// Compiles the testbench `hdl/tb/<top>.v` (top module `top`) with the player's sources into
/// the `vvp` program `out`, with `hdl/tb` on the include path; panics with iverilog's errors.
pub fn compile_testbench(top: &str, out: &Path) {
    let tb = hdl_dir().join("tb");
    super::run_ok(
        Command::new("iverilog")
            .args(["-g2005", "-s", top, "-o"])
            .arg(out)
            .arg("-I")
            .arg(&tb)
            .arg(tb.join(format!("{top}.v")))
            .args(player_sources()),
        &format!("iverilog on {top}"),
    );
}
