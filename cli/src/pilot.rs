//! `quadrille pilot FILE.cir [--pilot optimal|demo] [-o OUT.f1] [--name NAME] [--json]`: run a
//! built-in pilot on a circuit and write its result file, which `quadrille testf1` accepts.
//!
//! Exit 0 with a lap written, 1 when no lap exists, 2 when the circuit is unreadable or not
//! conforming (the pilots are only promised conforming circuits, like the contest's).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, bail};
use engine::racetrack::pilot::{Lap, Pilot, PilotError};
use engine::racetrack::{Circuit, conformity, f1, judge};

use crate::out::outln;

#[derive(clap::Args)]
pub struct Args {
    /// The circuit (`.cir`).
    file: PathBuf,
    /// Which pilot drives.
    #[arg(long, value_enum, default_value_t = PilotName::Optimal)]
    pilot: PilotName,
    /// Where to write the result file; by default `<pilot>.F1` in the current directory.
    #[arg(short = 'o', long = "output", value_name = "OUT.f1")]
    output: Option<PathBuf>,
    /// The pilot name written on the first line (default: the pilot's own name).
    #[arg(long)]
    name: Option<String>,
    /// Print `{"moves":N,"time":T,"millis":solve_time_ms}` instead of a sentence.
    #[arg(long)]
    json: bool,
}

/// `--json` output, fields in this order.
#[derive(serde::Serialize)]
struct PilotJson {
    moves: usize,
    time: f64,
    millis: f64,
}

/// The `--pilot` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum PilotName {
    Optimal,
    Demo,
}

impl From<PilotName> for Pilot {
    fn from(name: PilotName) -> Pilot {
        match name {
            PilotName::Optimal => Pilot::Optimal,
            PilotName::Demo => Pilot::Demo,
        }
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let pilot = Pilot::from(args.pilot);
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
    let circuit_name = args
        .file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| args.file.display().to_string());
    let name = args.name.as_deref().unwrap_or(pilot.name());
    if name.contains(['\r', '\n']) {
        bail!("--name: a pilot name is one line");
    }
    let output = args
        .output
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
