//! The committed netlist `hdl/netlist/de2_115_top.json` (loaded by the simulator and the app,
//! which must build without yosys) must be what `hdl/netlist.sh` makes of `hdl/src/*.v` today.
//!
//! Skipped, with a notice, when yosys is not installed.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn hdl_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../hdl")
}

#[test]
fn committed_netlist_matches_the_verilog() {
    let installed = Command::new("yosys")
        .arg("-V")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok();
    if !installed {
        eprintln!("NOTICE: yosys not installed; skipping the netlist freshness check");
        return;
    }
    let hdl = hdl_dir();
    let mut sources: Vec<PathBuf> = std::fs::read_dir(hdl.join("src"))
        .expect("hdl/src")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "v"))
        .collect();
    sources.sort();
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("hdl-netlist-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let fresh = dir.join("de2_115_top.json");
    // The committed file is made at the repository's root from `hdl/src/*.v`, so the paths
    // yosys records in `src` attributes are the same.
    let rel: Vec<String> = sources
        .iter()
        .map(|p| format!("hdl/src/{}", p.file_name().expect("name").to_string_lossy()))
        .collect();
    let out = Command::new("bash")
        .current_dir(hdl.join(".."))
        .arg("hdl/netlist.sh")
        .arg("de2_115_top")
        .arg(&fresh)
        .args(&rel)
        .output()
        .expect("run hdl/netlist.sh");
    assert!(
        out.status.success(),
        "netlist.sh failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let fresh_json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&fresh).expect("fresh netlist")).expect("JSON");
    let committed_json: serde_json::Value = serde_json::from_slice(
        &std::fs::read(hdl.join("netlist/de2_115_top.json")).expect("committed netlist"),
    )
    .expect("committed netlist is JSON");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        fresh_json["modules"]["de2_115_top"] == committed_json["modules"]["de2_115_top"],
        "hdl/netlist/de2_115_top.json is stale: regenerate it with\n  \
         hdl/netlist.sh de2_115_top hdl/netlist/de2_115_top.json hdl/src/*.v"
    );
}
