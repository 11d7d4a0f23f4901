//! `quadrille pilot FILE.cir [--pilot optimal|demo|PATH.wasm] [-o OUT.f1] [--name NAME]
//! [--json] [--time-limit SECS] [--memory-limit MIB] [--seed N | --random]`: run a built-in pilot, or a
//! pilot program compiled to WebAssembly (a WASI preview-1 command, spec §7), on a circuit,
//! write its result file (which `quadrille testf1` accepts) and, for a program, judge its lap.
//!
//! Exit 0 with a valid lap, 1 when no lap exists or the program's run or lap is faulty, 2 when
//! the circuit is unreadable or not conforming (the pilots are only promised conforming
//! circuits, like the contest's) or the program is not a WASI command module.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use engine::racetrack::pilot::{Lap, Pilot, PilotError};
use engine::racetrack::program::{self, Found, RunVerdict};
use engine::racetrack::{Circuit, Verdict, conformity, f1, judge};

use crate::out::outln;

#[derive(clap::Args)]
pub struct Args {
    /// The circuit (`.cir`).
    file: PathBuf,
    /// Which pilot drives: `optimal`, `demo`, or a WASI pilot program (`PATH.wasm`).
    #[arg(long, default_value = "optimal", value_parser = parse_pilot)]
    pilot: PilotChoice,
    /// Where to write the result file; by default `<pilot>.F1` in the current directory.
    #[arg(short = 'o', long = "output", value_name = "OUT.f1")]
    output: Option<PathBuf>,
    /// The pilot name written on the first line (default: the pilot's own name; built-in
    /// pilots only).
    #[arg(long)]
    name: Option<String>,
    /// Print JSON instead of a sentence: `{"moves":N,"time":T,"millis":solve_time_ms}` for a
    /// built-in pilot, `{"valid":…,"fault":…,"moves":…,"time":…,"millis":run_ms,"message":…}`
    /// for a program.
    #[arg(long)]
    json: bool,
    /// A program's wall-time limit, in seconds [default: 120].
    #[arg(long, value_name = "SECS")]
    time_limit: Option<f64>,
    /// A program's linear-memory limit, in MiB [default: 10, i.e. 160 pages].
    #[arg(long, value_name = "MIB")]
    memory_limit: Option<f64>,
    /// The seed of a program's `random_get` [default: 0].
    #[arg(long, value_name = "N", conflicts_with = "random")]
    seed: Option<u64>,
    /// Real randomness for a program's `random_get`: a seed drawn from the operating system,
    /// told on standard error (and as `"seed"` with `--json`) so that the run can be repeated
    /// with `--seed`.
    #[arg(long)]
    random: bool,
}

/// `--json` output of a built-in pilot, fields in this order.
#[derive(serde::Serialize)]
struct PilotJson {
    moves: usize,
    time: f64,
    millis: f64,
}

/// `--json` output of a program's run, fields in this order (absent where they do not apply).
#[derive(serde::Serialize)]
struct ProgramJson {
    valid: bool,
    fault: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    time: Option<f64>,
    millis: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<usize>,
    /// The seed drawn for `--random`.
    #[serde(skip_serializing_if = "Option::is_none")]
    seed: Option<u64>,
}

/// The `--pilot` values.
#[derive(Clone, Debug, PartialEq, Eq)]
enum PilotChoice {
    Builtin(Pilot),
    Program(PathBuf),
}

fn parse_pilot(value: &str) -> Result<PilotChoice, String> {
    if let Some(pilot) = Pilot::from_name(value) {
        return Ok(PilotChoice::Builtin(pilot));
    }
    let path = PathBuf::from(value);
    if path
        .extension()
        .is_some_and(|x| x.eq_ignore_ascii_case("wasm"))
    {
        return Ok(PilotChoice::Program(path));
    }
    Err(format!(
        "no built-in pilot {value:?} (optimal, demo), and not a pilot program (PATH.wasm)"
    ))
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let pilot = match &args.pilot {
        PilotChoice::Builtin(pilot) => *pilot,
        PilotChoice::Program(path) => return run_program(&args, path),
    };
    if args.time_limit.is_some()
        || args.memory_limit.is_some()
        || args.seed.is_some()
        || args.random
    {
        bail!(
            "--time-limit, --memory-limit, --seed and --random are for pilot programs \
             (--pilot PATH.wasm)"
        );
    }
    let circuit = read_conforming(&args.file)?;
    let started = Instant::now();
    let lap = match pilot.fly(&circuit) {
        Ok(lap) => lap,
        Err(PilotError::NoLap) => {
            eprintln!(
                "quadrille: {}: no lap exists on this circuit",
                args.file.display()
            );
            return Ok(ExitCode::from(1));
        }
        Err(e @ PilotError::NoFinishLine) => bail!("{}: {e}", args.file.display()),
    };
    let millis = started.elapsed().as_secs_f64() * 1e3;
    check_with_the_judge(&circuit, &lap)?;
    let circuit_name = file_name(&args.file);
    let name = args.name.as_deref().unwrap_or(pilot.name());
    if name.contains(['\r', '\n']) {
        bail!("--name: a pilot name is one line");
    }
    let output = args
        .output
        .clone()
        .unwrap_or_else(|| PathBuf::from(f1::result_file_name(pilot.name())));
    fs::write(&output, lap.to_f1(name, &circuit_name))
        .with_context(|| format!("{}: cannot write", output.display()))?;
    let time = lap.time().seconds();
    if args.json {
        let json = PilotJson {
            moves: lap.moves(),
            time,
            millis,
        };
        outln!("{}", serde_json::to_string(&json)?)?;
    } else {
        outln!(
            "{pilot}: {} moves, {time:.2} s, solved in {millis:.1} ms; wrote {}",
            lap.moves(),
            output.display()
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// A program's limits from the command line, the spec's defaults for what is not given.
fn limits(args: &Args) -> anyhow::Result<sandbox::Limits> {
    let secs = args.time_limit.unwrap_or(program::DEFAULT_TIME_LIMIT_SECS);
    let mib = args
        .memory_limit
        .unwrap_or(program::DEFAULT_MEMORY_LIMIT_MIB);
    if !(secs.is_finite() && secs > 0.0) {
        bail!("--time-limit must be a positive number of seconds");
    }
    if !(mib.is_finite() && mib > 0.0 && mib <= 4096.0) {
        bail!("--memory-limit must be a positive number of MiB, at most 4096");
    }
    Ok(sandbox::Limits {
        time: Duration::try_from_secs_f64(secs).context("--time-limit is too large")?,
        memory_bytes: (mib * 1024.0 * 1024.0) as u64,
    })
}

/// Runs a WASI pilot program and judges what it wrote.
fn run_program(args: &Args, path: &Path) -> anyhow::Result<ExitCode> {
    if args.name.is_some() {
        bail!("--name is for built-in pilots: a program writes its own name");
    }
    let limits = limits(args)?;
    let circuit = read_conforming(&args.file)?;
    let circuit_bytes =
        fs::read(&args.file).with_context(|| format!("{}: cannot read", args.file.display()))?;
    let circuit_name = file_name(&args.file);
    let wasm = fs::read(path).with_context(|| format!("{}: cannot read", path.display()))?;
    let sandbox = sandbox::Sandbox::new()?;
    let program = sandbox
        .load(&wasm, &file_name(path))
        .with_context(|| path.display().to_string())?;
    let seed = if args.random {
        let seed = random_seed();
        eprintln!("quadrille: random seed {seed} (--seed {seed} repeats this run)");
        seed
    } else {
        args.seed.unwrap_or(0)
    };
    let run = sandbox::run_pilot(
        &sandbox,
        &program,
        &circuit_bytes,
        &circuit_name,
        limits,
        seed,
    )?;
    let stem = program.stem();
    if !run.log.is_empty() {
        eprintln!("quadrille: {stem} printed:");
        eprint!("{}", String::from_utf8_lossy(&run.log));
        if !run.log.ends_with(b"\n") {
            eprintln!();
        }
        if run.log_dropped > 0 {
            eprintln!("quadrille: … and {} more bytes, not kept", run.log_dropped);
        }
    }
    let verdict = program::verdict(&circuit, &run.stop, &run.found);
    let written = match &run.found {
        Found::Bytes(bytes) => {
            let output = args
                .output
                .clone()
                .unwrap_or_else(|| PathBuf::from(f1::result_file_name(stem)));
            fs::write(&output, bytes)
                .with_context(|| format!("{}: cannot write", output.display()))?;
            Some(output)
        }
        _ => None,
    };
    let lap = match &verdict {
        RunVerdict::Judged(Verdict::Valid(lap)) => Some(*lap),
        _ => None,
    };
    let line = match &verdict {
        RunVerdict::Program(fault) => fault.line(),
        RunVerdict::Judged(v) => v.fault().and_then(|f| f.line()),
    };
    if args.json {
        let json = ProgramJson {
            valid: verdict.is_valid(),
            fault: verdict.fault_kind(),
            moves: lap.map(|l| l.moves),
            time: lap.map(|l| l.time),
            millis: run.millis,
            message: (!verdict.is_valid()).then(|| verdict.to_string()),
            line,
            seed: args.random.then_some(seed),
        };
        outln!("{}", serde_json::to_string(&json)?)?;
    } else {
        let wrote = written
            .map(|p| format!("; wrote {}", p.display()))
            .unwrap_or_default();
        match (lap, verdict.fault_kind()) {
            (Some(lap), _) => outln!(
                "{stem}: valid lap, {} moves, {} s, {} km/h; ran {:.1} ms{wrote}",
                lap.moves,
                lap.time_shown(),
                lap.speed_shown(),
                run.millis
            )?,
            (None, kind) => outln!(
                "{stem}: {}: {verdict}; ran {:.1} ms{wrote}",
                kind.unwrap_or("invalid"),
                run.millis
            )?,
        }
    }
    Ok(if verdict.is_valid() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// 64 bits from the operating system's random source: a hash under the keys of this process's
/// first [`RandomState`], which the standard library draws from that source.
///
/// [`RandomState`]: std::hash::RandomState
fn random_seed() -> u64 {
    use std::hash::{BuildHasher, RandomState};
    RandomState::new().hash_one(())
}

/// The last component of `path`, as the program sees it.
fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

/// Reads a circuit the pilots are promised: readable and conforming (else an error, exit 2).
pub fn read_conforming(path: &Path) -> anyhow::Result<Circuit> {
    let bytes = fs::read(path).with_context(|| format!("{}: cannot read", path.display()))?;
    let circuit = Circuit::parse(&bytes).with_context(|| path.display().to_string())?;
    let report = conformity::check(&circuit);
    if let Some(first) = report.violations.first() {
        bail!(
            "{}: not a conforming circuit ({} violation(s); first: {first})",
            path.display(),
            report.violations.len()
        );
    }
    Ok(circuit)
}

/// A pilot's lap is always judged before it is written: a fault here is a bug, not a verdict.
fn check_with_the_judge(circuit: &Circuit, lap: &Lap) -> anyhow::Result<()> {
    match judge::judge_positions(circuit, lap.positions()) {
        judge::Verdict::Invalid(fault) => {
            bail!("internal error: the pilot's lap is invalid: {fault}")
        }
        judge::Verdict::Valid(_) => Ok(()),
    }
}
