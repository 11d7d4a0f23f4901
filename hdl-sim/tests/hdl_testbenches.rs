//! Runs the self-checking Icarus Verilog testbenches of the player (`hdl/tb/tb_*.v` except the
//! interactive `tb_player.v`, which `hdl_games.rs` drives) and asserts each prints PASS.
//!
//! Skipped, with a notice, when `iverilog`/`vvp` are not installed (`cargo xtask` installs them);
//! under CI (`CI=true`) that fails instead.

mod common;

use common::verilog::{compile_testbench, hdl_dir};

/// Compiles `hdl/tb/<top>.v` with the design and returns what the simulation printed.
fn run_testbench(top: &str) -> Option<String> {
    testkit::tools(&["iverilog", "vvp"])?;
    let dir = testkit::scratch_dir("hdl-tb");
    let out = dir.path().join(format!("{top}.vvp"));
    compile_testbench(top, &out);
    let run = std::process::Command::new("vvp")
        .arg("-n")
        .arg(&out)
        .output()
        .expect("run vvp");
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
