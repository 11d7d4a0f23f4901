//! `cargo bench -p hdl-sim --bench sim`: simulated clock cycles per second of hdl-sim, natively
//! and compiled to WebAssembly (run by Node), beside Verilator on the same Verilog in the same run.
//! Both back ends: the interpreter (`native`; `wasm` is the interpreter built for wasm32), and
//! the compiled back end (`compiled`: its generated module run by wasmtime, with change tracking;
//! `comp-full`: without; `no-cones`: with tracking but without multiplexer cones;
//! `wasm-comp`: the same generated module run by Node, as a browser would;
//! `wasm-nocn`: Node without cones).
//! Then the time from a 10,000-cell netlist to its first compiled cycle, and issue 14's targets.
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

use hdl_sim::wasm::{Compiled, Options, module, module_with, state_image};
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
    /// The same without change tracking: every instruction every cycle.
    CompiledFull,
    /// With change tracking but computing every multiplexer input, selected or not (the
    /// compiled back end before multiplexer cones): what the cones buy, in the same run.
    CompiledNoCones,
    /// The compiled back end's module run by Node.
    WasmCompiled,
    /// The same module without multiplexer cones, run by Node.
    WasmNoCones,
}

impl Build {
    fn name(self) -> &'static str {
        match self {
            Build::Native => "native",
            Build::Wasm => "wasm",
            Build::Compiled => "compiled",
            Build::CompiledFull => "comp-full",
            Build::CompiledNoCones => "no-cones",
            Build::WasmCompiled => "wasm-comp",
            Build::WasmNoCones => "wasm-nocn",
        }
    }
}

#[derive(Clone, Copy)]
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

/// The compiled back end's options for a row of `build`.
fn options_for(build: Build) -> Options {
    Options {
        tracking: build != Build::CompiledFull,
        cones: !matches!(build, Build::CompiledNoCones | Build::WasmNoCones),
        ..Options::default()
    }
}

/// The compiled rows natively: tracked, untracked, tracked without cones.
const COMPILED_BUILDS: [Build; 3] = [Build::Compiled, Build::CompiledFull, Build::CompiledNoCones];

/// The cpu design at its start state.
fn cpu_sim() -> Simulator {
    let text = std::fs::read_to_string(Path::new(ROOT).join("tests/designs/cpu.json")).unwrap();
    let mut sim = Simulator::from_json(&text, Some("clk")).unwrap();
    sim.set_by_name("din", 0x1234).unwrap();
    sim
}

/// PicoRV32 running its program, after 4 cycles of reset.
fn pico_sim() -> Simulator {
    let path = Path::new(ROOT).join("tests/designs/picorv32_soc.json");
    let text = std::fs::read_to_string(path).unwrap();
    let mut sim = Simulator::from_json(&text, Some("clk")).unwrap();
    sim.set_by_name("rst", 1).unwrap();
    sim.run(4);
    sim.set_by_name("rst", 0).unwrap();
    sim
}

/// PicoRV32 for `cycles` cycles on the interpreter (`None`) or the compiled back end (with or
/// without tracking): wall seconds, CPU seconds, the output port after the run.
fn bench_pico(cycles: u64, compiled: Option<Build>) -> (f64, Option<f64>, u64) {
    let mut sim = pico_sim();
    let mut back_end = compiled
        .map(|build| Compiled::with_options(&sim, &options_for(build)).expect("picorv32 compiles"));
    let (t, c) = (Instant::now(), thread_cpu_seconds());
    match &mut back_end {
        Some(b) => b.run(&mut sim, cycles).unwrap(),
        None => sim.run(cycles),
    }
    let s = t.elapsed().as_secs_f64();
    (
        s,
        spent(c, thread_cpu_seconds()),
        sim.get_by_name("out").unwrap(),
    )
}

/// [`bench_cpu`] on the compiled back end (compiling is not timed).
fn bench_cpu_compiled(cycles: u64, build: Build) -> (f64, Option<f64>, u64) {
    let mut sim = cpu_sim();
    let mut compiled = Compiled::with_options(&sim, &options_for(build)).expect("cpu compiles");
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
fn bench_player_sim(
    text: &str,
    cycles: u64,
    compiled: Option<Build>,
) -> (f64, Option<f64>, Vec<u64>) {
    let mut sim = Simulator::from_json(text, Some("CLOCK_50")).unwrap();
    sim.set_by_name("UART_RXD", 1).unwrap();
    sim.set_by_name("KEY", 0xf).unwrap();
    let mut back_end = compiled.map(|build| {
        Compiled::with_options(&sim, &options_for(build)).expect("the player compiles")
    });
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

/// Wall seconds, CPU seconds and the board's fingerprint after the run, on the interpreter or
/// (`compiled`) the compiled back end.
fn bench_player(
    text: &str,
    cycles: u64,
    sw: u64,
    input: &[u8],
    compiled: bool,
) -> (f64, Option<f64>, u64) {
    let config = BoardConfig {
        switch_value: sw,
        ..BoardConfig::default()
    };
    let mut board = BoardEmulator::from_json(text, config).unwrap();
    if compiled {
        board.use_compiled().expect("the player compiles");
    }
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

/// The compiled back end's module for `sim` run by Node (`benches/wasm_compiled.mjs`) for
/// `cycles` cycles from `sim`'s state: wall seconds, CPU seconds, and milliseconds from the module's
/// bytes to its first cycle. The state after the run must equal wasmtime's on the same module.
fn node_compiled(
    sim: &Simulator,
    cycles: u64,
    tag: &str,
    options: &Options,
) -> Result<(f64, f64, f64), String> {
    let generated = module_with(sim, options).map_err(|e| e.to_string())?;
    let image = state_image(sim, &generated);
    let dir = std::env::temp_dir().join(format!("hdl-sim-bench-node-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let (wasm, start, end) = (
        dir.join(format!("{tag}.wasm")),
        dir.join(format!("{tag}.bin")),
        dir.join(format!("{tag}.out")),
    );
    std::fs::write(&wasm, &generated.bytes).map_err(|e| e.to_string())?;
    std::fs::write(&start, &image).map_err(|e| e.to_string())?;
    let out = Command::new("node")
        .arg(Path::new(ROOT).join("benches/wasm_compiled.mjs"))
        .args([&wasm, &start])
        .arg(cycles.to_string())
        .arg(&end)
        .output()
        .map_err(|e| format!("node: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "benches/wasm_compiled.mjs failed:\n{}",
            String::from_utf8_lossy(&out.stderr).trim_end()
        ));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let fields: Vec<f64> = text
        .lines()
        .find_map(|l| l.strip_prefix("row "))
        .map(|f| {
            f.split_whitespace()
                .filter_map(|x| x.parse().ok())
                .collect()
        })
        .unwrap_or_default();
    let [wall, cpu, compile_ms] = fields[..] else {
        return Err(format!("benches/wasm_compiled.mjs printed:\n{text}"));
    };
    let got = std::fs::read(&end).map_err(|e| e.to_string())?;
    let mut native = sim.clone();
    Compiled::with_options(&native, options)
        .and_then(|mut c| c.run(&mut native, cycles))
        .map_err(|e| e.to_string())?;
    assert!(
        got == state_image(&native, &generated),
        "Node and wasmtime disagree on {tag} after {cycles} cycles"
    );
    let _ = std::fs::remove_dir_all(&dir);
    Ok((wall, cpu, compile_ms))
}

/// A synthetic netlist of `cells` word-level cells (32 bits: arithmetic, logic, comparisons,
/// multiplexers, shifts) reading earlier cells and 64 registers that close the loops.
fn big_netlist(cells: usize) -> String {
    use serde_json::{Value, json};
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let bits = |base: usize| -> Value { json!((base..base + 32).collect::<Vec<_>>()) };
    let p = |v: u64| Value::String(format!("{v:032b}"));
    let regs = 64;
    // Nets: 2 = clk; signal k occupies bits 10 + 32k ..; registers are signals 0..64.
    let sig = |k: usize| 10 + 32 * k;
    let mut all = serde_json::Map::new();
    let kinds = [
        "$add", "$sub", "$xor", "$and", "$or", "$mux", "$eq", "$lt", "$shl", "$mul",
    ];
    for c in 0..cells {
        let y = regs + c;
        let (a, b, s) = (next(y), next(y), next(y));
        let kind = kinds[next(kinds.len())];
        let cell = match kind {
            "$mux" => json!({"type": kind, "parameters": {"WIDTH": p(32)},
                "connections": {"A": bits(sig(a)), "B": bits(sig(b)),
                    "S": [sig(s)], "Y": bits(sig(y))}}),
            "$shl" => json!({"type": kind, "parameters": {"A_SIGNED": p(0), "B_SIGNED": p(0),
                "A_WIDTH": p(32), "B_WIDTH": p(5), "Y_WIDTH": p(32)},
                "connections": {"A": bits(sig(a)), "B": (sig(b)..sig(b) + 5).collect::<Vec<_>>(),
                    "Y": bits(sig(y))}}),
            _ => json!({"type": kind, "parameters": {"A_SIGNED": p(0), "B_SIGNED": p(0),
                "A_WIDTH": p(32), "B_WIDTH": p(32), "Y_WIDTH": p(32)},
                "connections": {"A": bits(sig(a)), "B": bits(sig(b)), "Y": bits(sig(y))}}),
        };
        all.insert(format!("c{c}"), cell);
    }
    for r in 0..regs {
        let d = regs + cells - 1 - next(cells.min(256));
        all.insert(
            format!("r{r}"),
            json!({"type": "$dff",
            "parameters": {"WIDTH": p(32), "CLK_POLARITY": p(1)},
            "connections": {"CLK": [2], "D": bits(sig(d)), "Q": bits(sig(r))}}),
        );
    }
    json!({"modules": {"top": {
        "attributes": {"top": p(1)},
        "ports": {
            "clk": {"direction": "input", "bits": [2]},
            "y": {"direction": "output", "bits": bits(sig(regs + cells - 1))}
        },
        "cells": all,
        "netnames": {}
    }}})
    .to_string()
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
    let mut cpu_rows = Vec::new();
    for build in COMPILED_BUILDS {
        let _ = bench_cpu_compiled(100_000, build); // warm up
        let (cs, ccpu, compiled_sum) = bench_cpu_compiled(n, build);
        assert_eq!(
            compiled_sum, ours_sum,
            "the compiled back end and the interpreter disagree on cpu after {n} cycles"
        );
        cpu_rows.push(Row {
            build,
            ours: cycles_per_second(n, cs),
            ours_cpu: ccpu.map(|c| cycles_per_second(n, c)),
            ..row
        });
    }
    let node_row_with = |row: &Row, sim: &Simulator, tag: &str, build: Build| match node_compiled(
        sim,
        row.cycles,
        tag,
        &options_for(build),
    ) {
        Ok((wall, cpu, compile_ms)) => Some((
            Row {
                build,
                ours: cycles_per_second(row.cycles, wall),
                ours_cpu: Some(cycles_per_second(row.cycles, cpu)),
                ..*row
            },
            compile_ms,
        )),
        Err(why) => {
            println!(
                "NOTICE: no {} figure for {}: {why}",
                build.name(),
                row.design
            );
            None
        }
    };
    let node_row = |row: &Row, sim: &Simulator, tag: &str| -> Option<(Row, f64)> {
        node_row_with(row, sim, tag, Build::WasmCompiled)
    };
    let cpu_node = node_row(&row, &cpu_sim(), "cpu");
    let cpu_node_no_cones = node_row_with(&row, &cpu_sim(), "cpu", Build::WasmNoCones);
    rows.push(row);
    rows.extend(cpu_rows);
    rows.extend(cpu_node.map(|(r, _)| r));
    rows.extend(cpu_node_no_cones.map(|(r, _)| r));

    // PicoRV32 running its program: a public soft-CPU core, busy every cycle.
    let n = 1_000_000;
    let (s, cpu, pico_out) = bench_pico(n, None);
    let mut row = Row::native("picorv32 (busy)", n, s, cpu);
    let pico_v = [
        Path::new(ROOT).join("tests/designs/picorv32_soc.v"),
        Path::new(ROOT).join("tests/designs/picorv32/picorv32.v"),
    ];
    if have_verilator
        && let Some(exe) = verilate("pico", "picorv32_soc", &pico_v, Some("PICO"))
        && let Some((vs, vout, vcpu)) = run_model(&exe, &[n.to_string()])
    {
        assert_eq!(
            vout, pico_out,
            "hdl-sim and Verilator disagree on picorv32 after {n} cycles"
        );
        row.set_verilator(vs, vcpu);
    }
    let mut pico_rows = vec![row];
    for build in COMPILED_BUILDS {
        let (cs, ccpu, out) = bench_pico(n, Some(build));
        assert_eq!(out, pico_out, "the back ends disagree on picorv32");
        pico_rows.push(Row {
            build,
            ours: cycles_per_second(n, cs),
            ours_cpu: ccpu.map(|c| cycles_per_second(n, c)),
            ..row
        });
    }
    pico_rows.extend(node_row(&row, &pico_sim(), "pico").map(|(r, _)| r));
    rows.extend(pico_rows);

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
                let (s, cpu, print) = bench_player(&text, n, sw, input, false);
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
                // The board on the compiled back end: the same bytes, the same state.
                let (_, sw, input, _) = runs[i];
                let (cs, ccpu, cprint) = bench_player(&text, row.cycles, sw, input, true);
                assert_eq!(
                    cprint, print,
                    "the compiled board and the interpreter disagree on {} after {} cycles",
                    row.design, row.cycles
                );
                let compiled_row = Row {
                    build: Build::Compiled,
                    ours: cycles_per_second(row.cycles, cs),
                    ours_cpu: ccpu.map(|c| cycles_per_second(row.cycles, c)),
                    ..row
                };
                // In Node: the generated module alone, from the state the board reached once
                // its input was sent (the serial line then idles; the player thinks and answers).
                let mut board = BoardEmulator::from_json(
                    &text,
                    BoardConfig {
                        switch_value: sw,
                        ..BoardConfig::default()
                    },
                )
                .unwrap();
                board.send(input);
                while !board.send_idle() {
                    board.run(1000);
                }
                let tag = if i == 0 { "idle" } else { "thinking" };
                let node = node_row(&row, board.simulator(), tag);
                let node_no_cones = node_row_with(&row, board.simulator(), tag, Build::WasmNoCones);
                let idle = row.design == "player idle";
                let (verilator, verilator_cpu) = (row.verilator, row.verilator_cpu);
                rows.push(row);
                rows.extend(wasm_row);
                rows.push(compiled_row);
                rows.extend(node.map(|(r, _)| r));
                rows.extend(node_no_cones.map(|(r, _)| r));
                if idle {
                    // The same idle board as a bare simulator, each back end, beside the
                    // board's Verilator figure: what change tracking buys when little happens.
                    let n = 2_000_000;
                    let (is, icpu, iout) = bench_player_sim(&text, n, None);
                    let mut bare = vec![(Build::Native, is, icpu)];
                    for build in COMPILED_BUILDS {
                        let (cs, ccpu, cout) = bench_player_sim(&text, n, Some(build));
                        assert_eq!(iout, cout, "the back ends disagree on the idle player");
                        bare.push((build, cs, ccpu));
                    }
                    for (build, s, cpu) in bare {
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

    // Netlist to first cycle, for a 10,000-cell netlist.
    let big = big_netlist(10_000);
    let started = Instant::now();
    let mut big_sim = Simulator::from_json(&big, Some("clk")).expect("the synthetic netlist loads");
    let loaded = started.elapsed().as_secs_f64();
    let generated = module(&big_sim).expect("the synthetic netlist compiles");
    let generated_at = started.elapsed().as_secs_f64();
    let mut compiled = Compiled::new(&big_sim).expect("the synthetic netlist compiles");
    compiled.run(&mut big_sim, 1).expect("one cycle");
    let native_first = started.elapsed().as_secs_f64();
    let cells = 10_000 + 64;
    let node_first = node_compiled(&big_sim, 1000, "big", &Options::default())
        .map(|(_, _, ms)| ms / 1e3)
        .inspect_err(|why| println!("NOTICE: no Node compile time: {why}"))
        .ok();
    // The Verilator builds live in temp dirs named after this process.
    for name in ["cpu", "pico", "player"] {
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

    // Issue 14's targets, on CPU time (what an unloaded machine gives) where there is one.
    println!();
    let find = |design: &str, build: Build| {
        rows.iter()
            .find(|r| r.design.starts_with(design) && r.build == build)
    };
    let versus_verilator = |r: Option<&Row>| {
        r.and_then(|r| Some(r.ours_cpu? / r.verilator_cpu?))
            .or_else(|| r.and_then(|r| Some(r.ours / r.verilator?)))
    };
    println!(
        "{}",
        target_line(
            "busy design (cpu), compiled, natively: >= 1x Verilator",
            versus_verilator(find("cpu", Build::Compiled)),
            1.0,
            "x"
        )
    );
    println!(
        "{}",
        target_line(
            "busy design (picorv32), compiled, natively: >= 1x Verilator",
            versus_verilator(find("picorv32", Build::Compiled)),
            1.0,
            "x"
        )
    );
    println!(
        "{}",
        target_line(
            "busy design (cpu), compiled, in WebAssembly (Node): >= 0.5x Verilator",
            versus_verilator(find("cpu", Build::WasmCompiled)),
            0.5,
            "x"
        )
    );
    println!(
        "{}",
        target_line(
            "busy design (picorv32), compiled, in WebAssembly (Node): >= 0.5x Verilator",
            versus_verilator(find("picorv32", Build::WasmCompiled)),
            0.5,
            "x"
        )
    );
    println!(
        "{}",
        target_line(
            "reference player thinking, compiled, in WebAssembly (Node): >= 50 Mcyc/s",
            find("player thinking", Build::WasmCompiled)
                .map(|r| r.ours_cpu.unwrap_or(r.ours) / 1e6),
            50.0,
            " Mcyc/s"
        )
    );
    println!(
        "10,000-cell netlist ({cells} cells) to first cycle: natively {native_first:.3} s \
         (load {loaded:.3} s, generate {:.3} s, wasmtime {:.3} s; module {} KiB)",
        generated_at - loaded,
        native_first - generated_at,
        generated.bytes.len() / 1024
    );
    println!(
        "{}",
        target_line(
            "  load + generate natively, then Node compiles to the first cycle: <= 1 s",
            node_first.map(|n| generated_at + n),
            1.0,
            " s"
        )
    );
}

/// `what: MET` or `what: MISSED by N%` for a figure `got` against `want` (higher is better,
/// except for seconds, where `unit` is " s" and lower is better).
fn target_line(what: &str, got: Option<f64>, want: f64, unit: &str) -> String {
    let lower_better = unit == " s";
    match got {
        None => format!("{what}: not measured"),
        Some(g) if (g >= want) != lower_better || g == want => {
            format!("{what}: MET ({g:.2}{unit})")
        }
        Some(g) => {
            let by = if lower_better {
                (g / want - 1.0) * 100.0
            } else {
                (1.0 - g / want) * 100.0
            };
            format!("{what}: MISSED by {by:.0}% ({g:.2}{unit})")
        }
    }
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
        other => other.name(),
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
