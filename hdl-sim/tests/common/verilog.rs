//! The player's Verilog in `hdl/` and the tools that read it: where the sources are, which
//! tools are installed, and compiling an Icarus Verilog testbench around the player.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::have;

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

/// Whether every one of `tools` is installed; if not, prints a notice that `what` is skipped.
pub fn have_all(tools: &[&str], what: &str) -> bool {
    let missing: Vec<&str> = tools.iter().copied().filter(|t| !have(t)).collect();
    if !missing.is_empty() {
        eprintln!(
            "NOTICE: {} not installed; skipping {what}",
            missing.join("/")
        );
    }
    missing.is_empty()
}

/// A scratch directory for this test binary, `<target tmp>/<name>-<pid>`, created if needed.
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// Compiles the testbench `hdl/tb/<top>.v` (top module `top`) with the player's sources into
/// the `vvp` program `out`, with `hdl/tb` on the include path; panics with iverilog's errors.
pub fn compile_testbench(top: &str, out: &Path) {
    let tb = hdl_dir().join("tb");
    let compile = Command::new("iverilog")
        .args(["-g2005", "-s", top, "-o"])
        .arg(out)
        .arg("-I")
        .arg(&tb)
        .arg(tb.join(format!("{top}.v")))
        .args(player_sources())
        .output()
        .expect("run iverilog");
    assert!(
        compile.status.success(),
        "iverilog failed on {top}:\n{}",
        String::from_utf8_lossy(&compile.stderr)
    );
}
