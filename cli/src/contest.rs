//! `quadrille contest PLAN.toml [--json]`: run a pools contest (spec §8) from a plan (see
//! [`plan`] for the format), print every pool's table and the final ranking.
//!
//! Every pilot drives every circuit of its pool; a lap is judged by the same judge as
//! `testf1`, and a program's run by the same rules as `quadrille pilot`
//! ([`engine::racetrack::program::verdict`]). A pilot's result on a circuit is computed once and
//! reused in later rounds. `wasm` pilots run sandboxed; native `command` pilots run confined
//! by Landlock where Linux offers it, and the command says which when a plan has one.

#[cfg(target_os = "linux")]
mod confine;
mod plan;
mod runner;

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use engine::racetrack::Circuit;
use engine::racetrack::contest::{Contest, ContestJson, Entry, LapKey, LapRecord};
use engine::racetrack::pools::{self, EntrantId};
use engine::racetrack::program::{self, Stop};
use sandbox::files;

use crate::out::{out, outln};
use plan::{PilotSource, Plan};
use runner::RunEnd;

#[derive(clap::Args)]
pub struct Args {
    /// The contest plan (TOML).
    file: PathBuf,
    /// Print the whole contest as JSON.
    #[arg(long)]
    json: bool,
}

/// The WebAssembly sandbox and the entrants' checked programs, when the plan has any.
struct Programs {
    sandbox: sandbox::Sandbox,
    by_entrant: HashMap<EntrantId, sandbox::Program>,
}

impl Programs {
    /// Loads every `wasm` pilot of the plan, refusing the plan (before anything runs) when one
    /// is not a WASI command module.
    fn load(plan: &Plan) -> anyhow::Result<Option<Programs>> {
        let wasm: Vec<(EntrantId, &PathBuf)> = plan
            .entrants
            .iter()
            .enumerate()
            .filter_map(|(i, e)| match &e.pilot {
                PilotSource::Wasm(path) => Some((i, path)),
                _ => None,
            })
            .collect();
        if wasm.is_empty() {
            return Ok(None);
        }
        let sandbox = sandbox::Sandbox::new()?;
        let mut by_entrant = HashMap::new();
        for (i, path) in wasm {
            let here = format!("entrant {} ({:?})", i + 1, plan.entrants[i].name);
            let bytes = std::fs::read(path)
                .with_context(|| format!("{here}: {}: cannot read", path.display()))?;
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let program = sandbox
                .load(&bytes, &name)
                .with_context(|| format!("{here}: {}", path.display()))?;
            by_entrant.insert(i, program);
        }
        Ok(Some(Programs {
            sandbox,
            by_entrant,
        }))
    }
}

/// What the contest needs to run the entrants' pilots.
struct Runner {
    plan: Plan,
    circuits: Vec<Circuit>,
    /// Each circuit file's bytes, as programs are given them.
    circuit_files: Vec<Vec<u8>>,
    programs: Option<Programs>,
    /// Whether native pilots run confined.
    confine: bool,
}

impl Runner {
    /// Entrant `pilot`'s lap on entrant `owner`'s circuit.
    fn lap(&self, LapKey { pilot, owner }: LapKey) -> anyhow::Result<LapRecord> {
        let circuit = &self.circuits[owner];
        let target = &self.plan.entrants[owner];
        let name = target.circuit_name.as_str();
        Ok(match &self.plan.entrants[pilot].pilot {
            PilotSource::Builtin(p) => LapRecord::flown(
                name,
                circuit,
                p.fly(circuit)
                    .as_ref()
                    .map(|lap| lap.positions())
                    .map_err(|e| e.to_string()),
            ),
            // Result files computed beforehand are read like a program's: a link, a FIFO or a
            // device is not a result file (spec §8).
            PilotSource::Results(given) => {
                let found = files::read_result(given.get(name).map(PathBuf::as_path));
                LapRecord::ran(name, &program::verdict(circuit, &Stop::Exited, &found))
            }
            PilotSource::Command { program: exe, args } => {
                match runner::run_pilot(
                    exe,
                    args,
                    &target.circuit,
                    name,
                    self.plan.limits,
                    self.confine,
                )? {
                    RunEnd::Ran { stop, found } => {
                        LapRecord::ran(name, &program::verdict(circuit, &stop, &found))
                    }
                    RunEnd::NotStarted(why) => {
                        LapRecord::failed(name, "pilot_crash", format!("cannot start: {why}"))
                    }
                }
            }
            PilotSource::Wasm(_) => {
                let programs = self
                    .programs
                    .as_ref()
                    .context("internal error: wasm pilots were not loaded")?;
                let limits = sandbox::Limits {
                    time: self.plan.limits.time,
                    memory_bytes: self.plan.limits.memory_bytes,
                };
                let run = sandbox::run_pilot(
                    &programs.sandbox,
                    &programs.by_entrant[&pilot],
                    &self.circuit_files[owner],
                    name,
                    limits,
                    self.plan.seed,
                )?;
                LapRecord::ran(name, &program::verdict(circuit, &run.stop, &run.found))
            }
        })
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let plan = Plan::read(&args.file)?;
    let circuits = plan
        .entrants
        .iter()
        .map(|e| {
            crate::pilot::read_conforming(&e.circuit)
                .with_context(|| format!("entrant {:?}", e.name))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let circuit_files = plan
        .entrants
        .iter()
        .map(|e| {
            std::fs::read(&e.circuit)
                .with_context(|| format!("entrant {:?}: {}", e.name, e.circuit.display()))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let programs = Programs::load(&plan)?;
    let has_commands = plan
        .entrants
        .iter()
        .any(|e| matches!(e.pilot, PilotSource::Command { .. }));
    let confine = has_commands && can_confine().is_ok();
    if has_commands {
        match can_confine() {
            Ok(()) => eprintln!(
                "quadrille: native `command` pilots run confined by Landlock: they write only in \
                 their own directory and open no TCP connection"
            ),
            Err(why) => eprintln!(
                "quadrille: warning: cannot confine native `command` pilots ({why}): they run \
                 unconfined and can read and write whatever this user can (enter pilots as \
                 `wasm` to run them in the sandbox)"
            ),
        }
    }
    let entries = plan
        .entrants
        .iter()
        .map(|e| Entry {
            name: e.name.clone(),
            circuit: e.circuit_name.clone(),
            estimate: e.estimate,
        })
        .collect();
    let mut contest = Contest::new(entries)?;
    let runner = Runner {
        plan,
        circuits,
        circuit_files,
        programs,
        confine,
    };
    // The engine says which laps each round still needs; a lap is run once.
    let json = loop {
        let progress = contest.progress();
        if progress.current.is_none() {
            break contest
                .report()
                .context("internal error: a finished contest has a report")?;
        }
        for key in progress.needed {
            let lap = runner.lap(key)?;
            contest.record(key, lap);
        }
    };
    if args.json {
        outln!("{}", serde_json::to_string(&json)?)?;
    } else {
        print_text(&json)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Whether native pilots can be confined on this system; `Err` says why not.
fn can_confine() -> Result<(), String> {
    #[cfg(target_os = "linux")]
    return confine::available();
    #[cfg(not(target_os = "linux"))]
    Err("confinement needs Linux's Landlock".into())
}

fn print_text(c: &ContestJson) -> std::io::Result<()> {
    for round in &c.rounds {
        for pool in &round.pools {
            let title = if round.is_final {
                "Final pool".to_owned()
            } else {
                format!("Round {}, pool {}", round.round, pool.pool)
            };
            outln!("{title}")?;
            let width = pool
                .circuits
                .iter()
                .map(|c| c.len())
                .max()
                .unwrap_or(0)
                .max(8);
            let names = pool
                .standings
                .iter()
                .map(|s| s.name.len())
                .max()
                .unwrap_or(0)
                .max(5);
            out!("  {:>5}  {:<names$}", "place", "pilot")?;
            for circuit in &pool.circuits {
                out!("  {circuit:>width$}")?;
            }
            outln!("  {:>6}", "points")?;
            for s in &pool.standings {
                out!("  {:>5}  {:<names$}", s.place, s.name)?;
                for (lap, pts) in s.laps.iter().zip(&s.circuit_points) {
                    let cell = match lap.time {
                        Some(t) => format!("{t:.2}s {pts:>2}"),
                        None => format!("-- {pts:>2}"),
                    };
                    out!("  {cell:>width$}")?;
                }
                let mut note = String::new();
                if s.qualified {
                    note.push_str("  qualified");
                }
                match s.separation {
                    pools::Separation::DroppedScores(n) => {
                        note.push_str(&format!("  (tie broken after dropping {n} score(s))"))
                    }
                    pools::Separation::Estimate => note.push_str("  (tie broken by estimate)"),
                    pools::Separation::Tied => note.push_str("  (tied)"),
                    pools::Separation::Points => {}
                }
                outln!("  {:>6}{note}", s.points)?;
            }
            if let Some(mean) = pool.mean_valid_time {
                outln!("  mean valid lap time {mean:.2} s")?;
            }
            outln!()?;
        }
    }
    outln!("Final ranking")?;
    for r in &c.ranking {
        outln!("  {:>3}. {} ({} points)", r.place, r.name, r.points)?;
    }
    outln!()?;
    outln!("Pilots")?;
    for p in &c.pilots {
        let status = if p.operational {
            "operational"
        } else {
            "not operational"
        };
        outln!("  {}: {}/{} valid laps, {status}", p.name, p.valid, p.given)?;
    }
    Ok(())
}
