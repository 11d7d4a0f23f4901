//! `cargo bench -p hdl-sim --bench sim`: simulated clock cycles per second of hdl-sim, natively
//! and compiled to WebAssembly (run by Node), beside Verilator on the same Verilog in the same run.
//! Designs: `cpu` (tests/designs/cpu.v, busy every cycle) and the reference player
//! (hdl/netlist/de2_115_top.json) idle, and thinking (a game set up, SW = 10: a 2^24-cycle search).
//!
//! The WebAssembly rows run the player with the same switches, input and cycle count as the
//! native rows: the bench first builds `examples/wasm_bench` for wasm32-unknown-unknown (a nested
//! `cargo build` into `<target dir>/wasm-bench`, before anything is timed), then times it with
//! `benches/wasm_speed.mjs`, and checks that both builds end in the same state. Verilator, Node
//! or the wasm32 target missing: a notice, and those figures are left out.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use hdl_sim::wasm::Compiled;
use hdl_sim::{BoardConfig, BoardEmulator, Simulator};

#[path = "../examples/wasm_bench/fingerprint.rs"]
mod fingerprint;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The setup of a game in which the board moves first (W = 8, L = 10, red).
const GAME: &[u8] = b"w\x08\nl\x0a\ncr\n{}\n";

/// Where hdl-sim ran.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Build {
    Native,
    /// Compiled to wasm32-unknown-unknown, run by Node.
    Wasm,
    /// The compiled back end (`hdl_sim::wasm`), run natively by wasmtime.
    Compiled,
}

impl Build {
    fn name(self) -> &'static str {
        match self {
            Build::Native => "native",
            Build::Wasm => "wasm",
            Build::Compiled => "compiled",
        }
    }
}

struct Row {
    design: &'static str,
    build: Build,
    cycles: u64,
    ours: f64,
    verilator: Option<f64>,
    /// The same rates over CPU time rather than wall time: on a loaded machine the wall figures
    /// mostly measure the other processes.
    ours_cpu: Option<f64>,
    verilator_cpu: Option<f64>,
}

impl Row {
    /// The native figures of `design` run for `cycles` cycles in `wall` seconds (`cpu` of them
    /// on the CPU), before any Verilator figure.
    fn native(design: &'static str, cycles: u64, wall: f64, cpu: Option<f64>) -> Row {
        Row {
            design,
            build: Build::Native,
            cycles,
            ours: cycles_per_second(cycles, wall),
            verilator: None,
            ours_cpu: cpu.map(|c| cycles_per_second(cycles, c)),
            verilator_cpu: None,
        }
    }

    /// Adds the Verilator model's run of the same cycles: `wall` seconds, `cpu` on the CPU.
    fn set_verilator(&mut self, wall: f64, cpu: Option<f64>) {
        self.verilator = Some(cycles_per_second(self.cycles, wall));
        self.verilator_cpu = cpu.map(|c| cycles_per_second(self.cycles, c));
    }
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

/// [`bench_cpu`] on the compiled back end (compiling is not timed).
fn bench_cpu_compiled(cycles: u64) -> (f64, Option<f64>, u64) {
    let text = std::fs::read_to_string(Path::new(ROOT).join("tests/designs/cpu.json")).unwrap();
    let mut sim = Simulator::from_json(&text, Some("clk")).unwrap();
    sim.set_by_name("din", 0x1234).unwrap();
    let mut compiled = Compiled::new(&sim).expect("cpu compiles");
    let (t, c) = (Instant::now(), thread_cpu_seconds());
    compiled.run(&mut sim, cycles).unwrap();
    let s = t.elapsed().as_secs_f64();
    (
        s,
        spent(c, thread_cpu_seconds()),
        sim.get_by_name("dout").unwrap() * 256 + sim.get_by_name("pc_out").unwrap(),
    )
}

/// The idle reference player as a bare simulator (RX high, keys up, switches 0), on the
/// interpreter (`compiled` false) or the compiled back end: wall seconds, CPU seconds, and
/// every output's value after the run.
fn bench_player_sim(text: &str, cycles: u64, compiled: bool) -> (f64, Option<f64>, Vec<u64>) {
    let mut sim = Simulator::from_json(text, Some("CLOCK_50")).unwrap();
    sim.set_by_name("UART_RXD", 1).unwrap();
    sim.set_by_name("KEY", 0xf).unwrap();
    let mut back_end = compiled.then(|| Compiled::new(&sim).expect("the player compiles"));
    let (t, c) = (Instant::now(), thread_cpu_seconds());
    match &mut back_end {
        Some(b) => b.run(&mut sim, cycles).unwrap(),
        None => sim.run(cycles),
    }
    let (s, cpu) = (t.elapsed().as_secs_f64(), spent(c, thread_cpu_seconds()));
    let outputs = sim
        .ports()
        .iter()
        .filter(|p| p.direction == hdl_sim::Direction::Output)
        .map(|p| sim.get_by_name(&p.name).unwrap())
        .collect();
    (s, cpu, outputs)
}

/// Wall seconds, CPU seconds and the board's fingerprint after the run.
fn bench_player(text: &str, cycles: u64, sw: u64, input: &[u8]) -> (f64, Option<f64>, u64) {
    let config = BoardConfig {
        switch_value: sw,
        ..BoardConfig::default()
    };
    let mut board = BoardEmulator::from_json(text, config).unwrap();
    board.send(input);
    let (t, c) = (Instant::now(), thread_cpu_seconds());
    board.run(cycles);
    let (s, cpu) = (t.elapsed().as_secs_f64(), spent(c, thread_cpu_seconds()));
    (s, cpu, fingerprint::fingerprint(&board))
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

/// The board emulator built for wasm32-unknown-unknown, and the Node that runs it.
struct WasmBuild {
    module: PathBuf,
    node_version: String,
}

/// Builds `examples/wasm_bench` for wasm32-unknown-unknown with a nested cargo, into its own
/// target dir beside this bench's (`<target dir>/wasm-bench`: the outer cargo may still hold its
/// own dir's lock, and a separate dir keeps the wasm build's artefacts between runs).
fn build_wasm() -> Result<WasmBuild, String> {
    let node = Command::new("node")
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .ok_or("node not installed")?;
    let node_version = String::from_utf8_lossy(&node.stdout).trim().to_string();
    // This executable is `<target dir>/release/deps/sim-<hash>`.
    let target_dir = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.ancestors().nth(3).map(|dir| dir.join("wasm-bench")))
        .unwrap_or_else(|| std::env::temp_dir().join("hdl-sim-wasm-bench"));
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "build",
            "--release",
            "--quiet",
            "--target",
            "wasm32-unknown-unknown",
        ])
        .args([
            "-p",
            "hdl-sim",
            "--example",
            "wasm_bench",
            "--manifest-path",
        ])
        .arg(Path::new(ROOT).join("Cargo.toml"))
        .arg("--target-dir")
        .arg(&target_dir)
        .output()
        .map_err(|e| format!("cargo: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "building examples/wasm_bench for wasm32-unknown-unknown failed (target missing? \
             `rustup target add wasm32-unknown-unknown`):\n{}",
            String::from_utf8_lossy(&out.stderr).trim_end()
        ));
    }
    Ok(WasmBuild {
        module: target_dir.join("wasm32-unknown-unknown/release/examples/wasm_bench.wasm"),
        node_version,
    })
}

/// One run timed by `benches/wasm_speed.mjs`.
struct WasmRun {
    wall: f64,
    cpu: f64,
    fingerprint: u64,
}

/// Times the player in Node, one run per `(sw, input, cycles)`, in one Node process (one module
/// compilation, one warm-up).
fn run_wasm(
    build: &WasmBuild,
    netlist: &Path,
    runs: &[(u64, &[u8], u64)],
) -> Result<Vec<WasmRun>, String> {
    let out = Command::new("node")
        .arg(Path::new(ROOT).join("benches/wasm_speed.mjs"))
        .arg(&build.module)
        .arg(netlist)
        .arg(WASM_WARMUP_CYCLES.to_string())
        .args(
            runs.iter()
                .map(|(sw, input, cycles)| format!("{sw}:{}:{cycles}", hex(input))),
        )
        .output()
        .map_err(|e| format!("node: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "benches/wasm_speed.mjs failed:\n{}",
            String::from_utf8_lossy(&out.stderr).trim_end()
        ));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let parsed: Option<Vec<WasmRun>> = text
        .lines()
        .filter_map(|line| line.strip_prefix("row "))
        .map(|fields| {
            let mut it = fields.split_whitespace();
            Some(WasmRun {
                wall: it.next()?.parse().ok()?,
                cpu: it.next()?.parse().ok()?,
                fingerprint: it.next()?.parse().ok()?,
            })
        })
        .collect();
    match parsed {
        Some(results) if results.len() == runs.len() => Ok(results),
        _ => Err(format!("benches/wasm_speed.mjs printed:\n{text}")),
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Cycles Node runs before the timed runs, so that V8's optimising tier has compiled the module.
const WASM_WARMUP_CYCLES: u64 = 500_000;

fn main() {
    let have_verilator = Command::new("verilator").arg("--version").output().is_ok();
    if !have_verilator {
        println!("NOTICE: verilator not installed: no Verilator figures");
    }
    // Built before anything is timed (a minute or two the first time, then cached).
    println!("Building examples/wasm_bench for wasm32-unknown-unknown");
    let wasm = match build_wasm() {
        Ok(build) => Some(build),
        Err(why) => {
            println!("NOTICE: no WebAssembly figures: {why}");
            None
        }
    };
    let mut rows = Vec::new();

    // cpu: busy every cycle.
    let n = 5_000_000;
    let _ = bench_cpu(100_000); // warm up
    let (s, cpu, ours_sum) = bench_cpu(n);
    let mut row = Row::native("cpu (busy)", n, s, cpu);
    let cpu_v = [Path::new(ROOT).join("tests/designs/cpu.v")];
    if have_verilator
        && let Some(exe) = verilate("cpu", "cpu", &cpu_v, None)
        && let Some((vs, vsum, vcpu)) = run_model(&exe, &[n.to_string()])
    {
        assert_eq!(
            vsum, ours_sum,
            "hdl-sim and Verilator disagree on cpu after {n} cycles"
        );
        row.set_verilator(vs, vcpu);
    }
    let (cs, ccpu, compiled_sum) = bench_cpu_compiled(n);
    assert_eq!(
        compiled_sum, ours_sum,
        "the compiled back end and the interpreter disagree on cpu after {n} cycles"
    );
    let compiled_row = Row {
        build: Build::Compiled,
        ours: cycles_per_second(n, cs),
        ours_cpu: ccpu.map(|c| cycles_per_second(n, c)),
        ..row
    };
    rows.push(row);
    rows.push(compiled_row);

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
            let runs: [(&str, u64, &[u8], u64); 2] = [
                ("player idle", 0, &[], 20_000_000),
                ("player thinking (SW=10)", 10, GAME, 10_000_000),
            ];
            let mut native = Vec::new();
            for (design, sw, input, n) in runs {
                let (s, cpu, print) = bench_player(&text, n, sw, input);
                let mut row = Row::native(design, n, s, cpu);
                if let Some(exe) = &exe {
                    let args = [n.to_string(), sw.to_string(), hex(input)];
                    if let Some((vs, _, vcpu)) = run_model(exe, &args) {
                        row.set_verilator(vs, vcpu);
                    }
                }
                native.push((row, print));
            }
            let in_node = wasm.as_ref().and_then(|build| {
                let plan: Vec<_> = runs.iter().map(|&(_, sw, inp, n)| (sw, inp, n)).collect();
                run_wasm(build, &player, &plan)
                    .inspect_err(|why| println!("NOTICE: no WebAssembly figures: {why}"))
                    .ok()
            });
            for (i, (row, print)) in native.into_iter().enumerate() {
                let in_node = in_node.as_ref().map(|runs| &runs[i]);
                let wasm_row = in_node.map(|run| {
                    assert_eq!(
                        run.fingerprint, print,
                        "hdl-sim native and WebAssembly disagree on {} after {} cycles",
                        row.design, row.cycles
                    );
                    Row {
                        build: Build::Wasm,
                        ours: cycles_per_second(row.cycles, run.wall),
                        ours_cpu: Some(cycles_per_second(row.cycles, run.cpu)),
                        ..row
                    }
                });
                let idle = row.design == "player idle";
                let (verilator, verilator_cpu) = (row.verilator, row.verilator_cpu);
                rows.push(row);
                rows.extend(wasm_row);
                if idle {
                    // The same idle board as a bare simulator, both back ends (the compiled
                    // one cannot drive the UART between cycles yet), beside the board's
                    // Verilator figure. Fewer cycles: the compiled back end evaluates every
                    // instruction each cycle and is far slower than the interpreter here.
                    let n = 2_000_000;
                    let (is, icpu, iout) = bench_player_sim(&text, n, false);
                    let (cs, ccpu, cout) = bench_player_sim(&text, n, true);
                    assert_eq!(iout, cout, "the back ends disagree on the idle player");
                    for (build, s, cpu) in [(Build::Native, is, icpu), (Build::Compiled, cs, ccpu)]
                    {
                        rows.push(Row {
                            design: "player idle (bare sim)",
                            build,
                            cycles: n,
                            ours: cycles_per_second(n, s),
                            verilator,
                            ours_cpu: cpu.map(|c| cycles_per_second(n, c)),
                            verilator_cpu,
                        });
                    }
                }
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
    if let Some(build) = &wasm {
        println!(
            "(wasm: hdl-sim built for wasm32-unknown-unknown, run by Node {})",
            build.node_version
        );
    }
    println!(
        "{:<24} {:<8} {:>9} | {:>8} {:>9} {:>6} | {:>8} {:>9} {:>6}",
        "design",
        "build",
        "cycles",
        "hdl-sim",
        "Verilator",
        "ratio",
        "hdl-sim",
        "Verilator",
        "ratio"
    );
    for r in &rows {
        println!(
            "{:<24} {:<8} {:>9} | {:>8} {:>9} {:>6} | {:>8} {:>9} {:>6}",
            r.design,
            r.build.name(),
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
    // Issue 7's targets: the emulated board must answer a turn within a second of wall time.
    println!("{}", verdict(&rows, Build::Native, TARGET_NATIVE_MCPS));
    println!("{}", verdict(&rows, Build::Wasm, TARGET_WASM_MCPS));
}

/// Issue 7's target line for one build: met when its slowest player row reaches the target.
fn verdict(rows: &[Row], build: Build, target_mcps: f64) -> String {
    let players = || {
        rows.iter()
            .filter(|r| r.build == build && r.design.starts_with("player"))
    };
    let label = match build {
        Build::Native => "native",
        Build::Wasm => "WASM",
        Build::Compiled => "compiled",
    };
    let target = format!("{label} target (>= {target_mcps} Mcyc/s on the reference player)");
    let met = |v: f64| {
        if v >= target_mcps * 1e6 {
            "MET"
        } else {
            "NOT MET"
        }
    };
    let Some(wall) = players().map(|r| r.ours).reduce(f64::min) else {
        return format!("{target}: not measured");
    };
    let cpu = players().filter_map(|r| r.ours_cpu).reduce(f64::min);
    format!(
        "{target}: {} on wall time (slowest player row {:.2} Mcyc/s){}",
        met(wall),
        wall / 1e6,
        cpu.map(|c| format!(
            "; {} on CPU time ({:.2} Mcyc/s: what an unloaded machine gives)",
            met(c),
            c / 1e6
        ))
        .unwrap_or_default()
    )
}

/// Issue 7's native target, in millions of simulated cycles per second.
const TARGET_NATIVE_MCPS: f64 = 5.0;
/// Issue 7's WebAssembly target, in millions of simulated cycles per second.
const TARGET_WASM_MCPS: f64 = 2.5;
