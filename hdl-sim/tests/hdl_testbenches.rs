//! Runs the self-checking Icarus Verilog testbenches of the player (`hdl/tb/tb_*.v` except the
//! interactive `tb_player.v`, which `hdl_games.rs` drives) and asserts each prints PASS.
//!
//! Skipped, with a notice, when `iverilog`/`vvp` are not installed (`cargo xtask` installs them).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn hdl_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../hdl")
}

fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("-V")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok()
}

fn design_sources() -> Vec<PathBuf> {
    let mut sources: Vec<PathBuf> = std::fs::read_dir(hdl_dir().join("src"))
        .expect("hdl/src")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "v"))
        .collect();
    sources.sort();
    sources
}

/// Compiles `hdl/tb/<top>.v` with the design and returns what the simulation printed.
fn run_testbench(top: &str) -> Option<String> {
    if !have("iverilog") || !have("vvp") {
        eprintln!("NOTICE: iverilog/vvp not installed; skipping testbench {top}");
        return None;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("hdl-tb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let out = dir.join(format!("{top}.vvp"));
    let compile = Command::new("iverilog")
        .args(["-g2005", "-s", top, "-o"])
        .arg(&out)
        .arg(hdl_dir().join(format!("tb/{top}.v")))
        .args(design_sources())
        .output()
        .expect("run iverilog");
    assert!(
        compile.status.success(),
        "iverilog failed on {top}:\n{}",
        String::from_utf8_lossy(&compile.stderr)
    );
    let run = Command::new("vvp")
        .arg("-n")
        .arg(&out)
        .output()
        .expect("run vvp");
    let _ = std::fs::remove_file(&out);
    Some(String::from_utf8_lossy(&run.stdout).into_owned())
}

fn assert_pass(top: &str) {
    let Some(output) = run_testbench(top) else {
        return;
    };
    println!("{output}");
    assert!(
        output.lines().any(|l| l.trim() == "PASS"),
        "{top} did not pass:\n{output}"
    );
}

#[test]
fn uart_loopback_at_115200_baud_from_50_mhz() {
    assert_pass("tb_uart");
}

#[test]
fn protocol_parser_takes_raw_sizes_and_resynchronises_on_w() {
    assert_pass("tb_proto");
}

#[test]
fn whole_board_answers_at_the_real_divisor_with_two_stop_bits() {
    assert_pass("tb_top");
}

#[test]
fn every_testbench_is_run_by_this_file_or_the_game_tests() {
    let mut benches: Vec<String> = std::fs::read_dir(hdl_dir().join("tb"))
        .expect("hdl/tb")
        .map(|e| {
            e.expect("dir entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| n.ends_with(".v"))
        .collect();
    benches.sort();
    assert_eq!(
        benches,
        ["tb_player.v", "tb_proto.v", "tb_top.v", "tb_uart.v"],
        "a testbench was added or removed: run it from a test"
    );
}
