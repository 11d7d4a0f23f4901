//! `cargo bench -p hdl-sim --bench sim`: simulated clock cycles per second of hdl-sim, beside
//! Verilator on the same Verilog in the same run (skipped with a notice when verilator is not
//! installed). Designs: `cpu` (tests/designs/cpu.v, busy every cycle) and the reference player
//! (hdl/netlist/de2_115_top.json) idle, and thinking (a game set up, SW = 10: a 2^24-cycle search).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use hdl_sim::{BoardConfig, BoardEmulator, Simulator};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The setup of a game in which the board moves first (W = 8, L = 10, red).
const GAME: &[u8] = b"w\x08\nl\x0a\ncr\n{}\n";

struct Row {
    design: &'static str,
    cycles: u64,
    ours: f64,
    verilator: Option<f64>,
}

fn cycles_per_second(cycles: u64, seconds: f64) -> f64 {
    cycles as f64 / seconds.max(1e-9)
}

fn bench_cpu(cycles: u64) -> (f64, u64) {
    let text = std::fs::read_to_string(Path::new(ROOT).join("tests/designs/cpu.json")).unwrap();
    let mut sim = Simulator::from_json(&text, Some("clk")).unwrap();
    sim.set_by_name("din", 0x1234).unwrap();
    let t = Instant::now();
    sim.run(cycles);
    let s = t.elapsed().as_secs_f64();
    (
        s,
        sim.get_by_name("dout").unwrap() * 256 + sim.get_by_name("pc_out").unwrap(),
    )
}

fn bench_player(text: &str, cycles: u64, sw: u64, input: &[u8]) -> f64 {
    let config = BoardConfig {
        switch_value: sw,
        ..BoardConfig::default()
    };
    let mut board = BoardEmulator::from_json(text, config).unwrap();
    board.send(input);
    let t = Instant::now();
    board.run(cycles);
    t.elapsed().as_secs_f64()
}

/// Builds a Verilator model with the C++ harness; returns the executable.
fn verilate(name: &str, top: &str, sources: &[PathBuf], define: Option<&str>) -> Option<PathBuf> {
    let dir = std::env::temp_dir().join(format!("hdl-sim-bench-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).ok()?;
    let mut cmd = Command::new("verilator");
    cmd.args([
        "--cc",
        "--exe",
        "--build",
        "-O3",
        "-Wno-fatal",
        "-Wno-lint",
        "-Wno-style",
        "--top-module",
        top,
    ])
    .args([
        "-CFLAGS",
        &format!(
            "-O2 {}",
            define.map(|d| format!("-D{d}")).unwrap_or_default()
        ),
    ])
    .arg("-Mdir")
    .arg(&dir)
    .arg("-o")
    .arg(format!("V{top}"))
    .args(sources)
    .arg(Path::new(ROOT).join("benches/verilator_harness.cpp"));
    let out = cmd.output().ok()?;
    if !out.status.success() {
        eprintln!(
            "verilator failed on {name}:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        return None;
    }
    Some(dir.join(format!("V{top}")))
}

fn run_model(exe: &Path, args: &[String]) -> Option<(f64, u64)> {
    let out = Command::new(exe).args(args).output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let mut it = text.split_whitespace();
    Some((it.next()?.parse().ok()?, it.next()?.parse().ok()?))
}

fn main() {
    let have_verilator = Command::new("verilator").arg("--version").output().is_ok();
    if !have_verilator {
        println!("NOTICE: verilator not installed: hdl-sim figures only");
    }
    let mut rows = Vec::new();

    // cpu: busy every cycle.
    let n = 5_000_000;
    let _ = bench_cpu(100_000); // warm up
    let (s, ours_sum) = bench_cpu(n);
    let mut row = Row {
        design: "cpu (busy)",
        cycles: n,
        ours: cycles_per_second(n, s),
        verilator: None,
    };
    let cpu_v = [Path::new(ROOT).join("tests/designs/cpu.v")];
    if have_verilator
        && let Some(exe) = verilate("cpu", "cpu", &cpu_v, None)
        && let Some((vs, vsum)) = run_model(&exe, &[n.to_string()])
    {
        assert_eq!(
            vsum, ours_sum,
            "hdl-sim and Verilator disagree on cpu after {n} cycles"
        );
        row.verilator = Some(cycles_per_second(n, vs));
    }
    rows.push(row);

    // The reference player.
    let player = Path::new(ROOT).join("../hdl/netlist/de2_115_top.json");
    match std::fs::read_to_string(&player) {
        Err(_) => println!("NOTICE: {} not found: no player figures", player.display()),
        Ok(text) => {
            let exe = if have_verilator {
                let src = Path::new(ROOT).join("../hdl/src");
                let mut sources: Vec<PathBuf> = std::fs::read_dir(&src)
                    .map(|d| {
                        d.filter_map(|e| e.ok().map(|e| e.path()))
                            .filter(|p| p.extension().is_some_and(|x| x == "v"))
                            .collect()
                    })
                    .unwrap_or_default();
                sources.sort();
                verilate("player", "de2_115_top", &sources, Some("PLAYER"))
            } else {
                None
            };
            let hex: String = GAME.iter().map(|b| format!("{b:02x}")).collect();
            for (design, sw, input, n) in [
                ("player idle", 0u64, &[][..], 20_000_000u64),
                ("player thinking (SW=10)", 10, GAME, 10_000_000),
            ] {
                let s = bench_player(&text, n, sw, input);
                let mut row = Row {
                    design,
                    cycles: n,
                    ours: cycles_per_second(n, s),
                    verilator: None,
                };
                if let Some(exe) = &exe {
                    let args = [
                        n.to_string(),
                        sw.to_string(),
                        if input.is_empty() {
                            String::new()
                        } else {
                            hex.clone()
                        },
                    ];
                    if let Some((vs, _)) = run_model(exe, &args) {
                        row.verilator = Some(cycles_per_second(n, vs));
                    }
                }
                rows.push(row);
            }
        }
    }

    // The Verilator builds live in temp dirs named after this process.
    for name in ["cpu", "player"] {
        let _ = std::fs::remove_dir_all(
            std::env::temp_dir().join(format!("hdl-sim-bench-{name}-{}", std::process::id())),
        );
    }
    println!();
    println!(
        "{:<26} {:>12} {:>16} {:>16} {:>14}",
        "design", "cycles", "hdl-sim Mcyc/s", "Verilator Mcyc/s", "hdl-sim/Verilator"
    );
    for r in &rows {
        let v = r
            .verilator
            .map(|v| format!("{:.2}", v / 1e6))
            .unwrap_or_else(|| "-".into());
        let ratio = r
            .verilator
            .map(|v| format!("{:.2}", r.ours / v))
            .unwrap_or_else(|| "-".into());
        println!(
            "{:<26} {:>12} {:>16.2} {:>16} {:>14}",
            r.design,
            r.cycles,
            r.ours / 1e6,
            v,
            ratio
        );
    }
    println!();
    // Issue 7's target: the emulated board must answer a turn within a second of wall time.
    let slowest = rows
        .iter()
        .filter(|r| r.design.starts_with("player"))
        .map(|r| r.ours)
        .reduce(f64::min);
    let target = format!("native target (>= {TARGET_NATIVE_MCPS} Mcyc/s on the reference player)");
    match slowest {
        None => println!("{target}: not measured"),
        Some(s) => println!(
            "{target}: {} (slowest player row {:.2} Mcyc/s; wall time, so depressed on a loaded machine)",
            if s >= TARGET_NATIVE_MCPS * 1e6 {
                "MET"
            } else {
                "NOT MET"
            },
            s / 1e6
        ),
    }
    println!(
        "WASM figures (target >= 2.5 Mcyc/s): CHROMEDRIVER=/usr/bin/chromedriver \
         CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
         cargo test --release -p hdl-sim --target wasm32-unknown-unknown --test wasm_speed \
         -- --include-ignored --nocapture"
    );
}

/// Issue 7's native target, in millions of simulated cycles per second.
const TARGET_NATIVE_MCPS: f64 = 5.0;
