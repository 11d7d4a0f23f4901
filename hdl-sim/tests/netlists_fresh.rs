//! The committed netlists of the test designs are what yosys makes of their Verilog today
//! (`hdl/netlist.sh`, or `ffs.sh` for the flip-flop designs). Skipped, with a notice, when yosys
//! is not installed or is another version than the one that wrote them.

#![cfg(not(target_arch = "wasm32"))]

use std::path::Path;
use std::process::Command;

fn designs() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/designs"))
}

fn creator(json: &str) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(json).ok()?;
    v.get("creator")?.as_str().map(str::to_string)
}

#[test]
fn committed_netlists_match_yosys() {
    let Some(yosys) = testkit::tool("yosys") else {
        return;
    };
    let out = Command::new(yosys)
        .arg("-V")
        .output()
        .expect("run yosys -V");
    let version = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let scratch = testkit::scratch_dir("hdl-sim-fresh");
    let dir = scratch.path();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../hdl/netlist.sh");
    for (name, top) in [
        ("ops", "ops_top"),
        ("mem", "mem"),
        ("cpu", "cpu"),
        ("loop", "loop"),
        ("loops", "loops"),
        ("negedge", "negedge_count"),
        ("pow", "pow_mixed"),
        ("latch", "latch"),
    ] {
        let committed = std::fs::read_to_string(designs().join(format!("{name}.json"))).unwrap();
        if creator(&committed).as_deref() != Some(version.as_str()) {
            eprintln!(
                "NOTICE: {name}.json was written by another yosys than {version:?}, skipping it"
            );
            continue;
        }
        let out = dir.join(format!("{name}.json"));
        // Run from the designs directory with a relative file name, as the committed one was
        // made, so that the `src` attributes agree.
        let st = Command::new("bash")
            .arg(script)
            .arg(top)
            .arg(&out)
            .arg(format!("{name}.v"))
            .current_dir(designs())
            .status()
            .unwrap();
        assert!(st.success(), "netlist.sh failed on {name}");
        let fresh = std::fs::read_to_string(&out).unwrap();
        assert!(
            fresh == committed,
            "tests/designs/{name}.json is stale: regenerate it with hdl/netlist.sh {top} {name}.json {name}.v"
        );
    }
    let st = Command::new("bash")
        .arg(designs().join("ffs.sh"))
        .env("OUT_DIR", dir)
        .status()
        .unwrap();
    assert!(st.success());
    for name in ["ffs", "async"] {
        let committed = std::fs::read_to_string(designs().join(format!("{name}.json"))).unwrap();
        let fresh = std::fs::read_to_string(dir.join(format!("{name}.json"))).unwrap();
        assert!(
            fresh == committed,
            "tests/designs/{name}.json is stale: rerun tests/designs/ffs.sh"
        );
    }
}
