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
    /// The same rates over CPU time rather than wall time: on a loaded machine the wall figures
    /// mostly measure the other processes.
    ours_cpu: Option<f64>,
    verilator_cpu: Option<f64>,
}

/// CPU time this thread has run, in seconds (Linux: `/proc/thread-self/schedstat`).
fn thread_cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 / 1e9)
}

/// CPU time of this process' waited-for children, in seconds (Linux: `cutime` + `cstime` of
/// `/proc/self/stat`, in clock ticks of 1/100 s).
fn children_cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/self/stat").ok()?;
    let fields: Vec<&str> = text.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(13)?.parse::<u64>().ok()? + fields.get(14)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

/// CPU seconds spent between two readings, when both exist.
fn spent(before: Option<f64>, after: Option<f64>) -> Option<f64> {
    Some(after? - before?).filter(|s| *s > 0.0)
}

fn cycles_per_second(cycles: u64, seconds: f64) -> f64 {
    cycles as f64 / seconds.max(1e-9)
}

fn bench_cpu(cycles: u64) -> (f64, Option<f64>, u64) {
    let text = std::fs::read_to_string(Path::new(ROOT).join("tests/designs/cpu.json")).unwrap();
    let mut sim = Simulator::from_json(&text, Some("clk")).unwrap();
    sim.set_by_name("din", 0x1234).unwrap();
    let (t, c) = (Instant::now(), thread_cpu_seconds());
    sim.run(cycles);
    let s = t.elapsed().as_secs_f64();
    (
        s,
        spent(c, thread_cpu_seconds()),
        sim.get_by_name("dout").unwrap() * 256 + sim.get_by_name("pc_out").unwrap(),
    )
}

fn bench_player(text: &str, cycles: u64, sw: u64, input: &[u8]) -> (f64, Option<f64>) {
    let config = BoardConfig {
        switch_value: sw,
        ..BoardConfig::default()
    };
    let mut board = BoardEmulator::from_json(text, config).unwrap();
    board.send(input);
    let (t, c) = (Instant::now(), thread_cpu_seconds());
    board.run(cycles);
    (t.elapsed().as_secs_f64(), spent(c, thread_cpu_seconds()))
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

/// Runs a Verilator model: its wall seconds (as it measured them), its checksum, and the CPU
/// seconds the whole process took (a slight overestimate: it includes the model's start-up).
fn run_model(exe: &Path, args: &[String]) -> Option<(f64, u64, Option<f64>)> {
    let c = children_cpu_seconds();
    let out = Command::new(exe).args(args).output().ok()?;
    let cpu = spent(c, children_cpu_seconds());
    let text = String::from_utf8_lossy(&out.stdout);
    let mut it = text.split_whitespace();
    Some((it.next()?.parse().ok()?, it.next()?.parse().ok()?, cpu))
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
    let (s, cpu, ours_sum) = bench_cpu(n);
    let mut row = Row {
        design: "cpu (busy)",
        cycles: n,
        ours: cycles_per_second(n, s),
        verilator: None,
        ours_cpu: cpu.map(|c| cycles_per_second(n, c)),
        verilator_cpu: None,
    };
    let cpu_v = [Path::new(ROOT).join("tests/designs/cpu.v")];
    if have_verilator
        && let Some(exe) = verilate("cpu", "cpu", &cpu_v, None)
        && let Some((vs, vsum, vcpu)) = run_model(&exe, &[n.to_string()])
    {
        assert_eq!(
            vsum, ours_sum,
            "hdl-sim and Verilator disagree on cpu after {n} cycles"
        );
        row.verilator = Some(cycles_per_second(n, vs));
        row.verilator_cpu = vcpu.map(|c| cycles_per_second(n, c));
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
                let (s, cpu) = bench_player(&text, n, sw, input);
                let mut row = Row {
                    design,
                    cycles: n,
                    ours: cycles_per_second(n, s),
                    verilator: None,
                    ours_cpu: cpu.map(|c| cycles_per_second(n, c)),
                    verilator_cpu: None,
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
                    if let Some((vs, _, vcpu)) = run_model(exe, &args) {
                        row.verilator = Some(cycles_per_second(n, vs));
                        row.verilator_cpu = vcpu.map(|c| cycles_per_second(n, c));
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
    let mcps = |v: Option<f64>| v.map_or_else(|| "-".to_string(), |v| format!("{:.2}", v / 1e6));
    let ratio = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) => format!("{:.2}", a / b),
        _ => "-".to_string(),
    };
    println!();
    println!("Simulated cycles per second (M = 10^6): wall time, then CPU time");
    println!(
        "{:<24} {:>9} | {:>8} {:>9} {:>6} | {:>8} {:>9} {:>6}",
        "design", "cycles", "hdl-sim", "Verilator", "ratio", "hdl-sim", "Verilator", "ratio"
    );
    for r in &rows {
        println!(
            "{:<24} {:>9} | {:>8} {:>9} {:>6} | {:>8} {:>9} {:>6}",
            r.design,
            r.cycles,
            mcps(Some(r.ours)),
            mcps(r.verilator),
            ratio(Some(r.ours), r.verilator),
            mcps(r.ours_cpu),
            mcps(r.verilator_cpu),
            ratio(r.ours_cpu, r.verilator_cpu),
        );
    }
    println!();
    // Issue 7's target: the emulated board must answer a turn within a second of wall time.
    let players = || rows.iter().filter(|r| r.design.starts_with("player"));
    let slowest = players().map(|r| r.ours).reduce(f64::min);
    let slowest_cpu = players().filter_map(|r| r.ours_cpu).reduce(f64::min);
    let target = format!("native target (>= {TARGET_NATIVE_MCPS} Mcyc/s on the reference player)");
    let verdict = |v: f64| {
        if v >= TARGET_NATIVE_MCPS * 1e6 {
            "MET"
        } else {
            "NOT MET"
        }
    };
    match (slowest, slowest_cpu) {
        (None, _) => println!("{target}: not measured"),
        (Some(w), cpu) => println!(
            "{target}: {} on wall time (slowest player row {:.2} Mcyc/s){}",
            verdict(w),
            w / 1e6,
            cpu.map(|c| format!(
                "; {} on CPU time ({:.2} Mcyc/s: what an unloaded machine gives)",
                verdict(c),
                c / 1e6
            ))
            .unwrap_or_default()
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
