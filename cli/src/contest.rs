//! `quadrille contest PLAN.toml [--json] [--log FILE | --no-log]`: run a pools contest (spec §8)
//! from a plan (see [`plan`] for the format), print every pool's table and the final ranking,
//! and write the contest's log (the judge's line of every lap, spec §5; by default beside the
//! plan, `PLAN.log`): the same text as the contest page's `.log` export
//! ([`engine::racetrack::contest::log_text`]).
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

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use engine::racetrack::contest::{self, Contest, ContestJson, Entry, LapKey, LapRecord};
use engine::racetrack::pools::{self, EntrantId};
use engine::racetrack::program::{self, Found, ProgramFault, RunVerdict, Stop};
use engine::racetrack::{Circuit, f1, judge};
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
    /// Where to write the contest's log (the judge's line of every lap, as the contest page
    /// exports it) [default: the plan's path with extension `.log`].
    #[arg(long, value_name = "FILE", conflicts_with = "no_log")]
    log: Option<PathBuf>,
    /// Do not write the contest's log.
    #[arg(long)]
    no_log: bool,
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
    /// Entrant `pilot`'s lap on entrant `owner`'s circuit, and its line in the contest's log.
    fn lap(&self, key: LapKey) -> anyhow::Result<(LapRecord, String)> {
        let LapKey { pilot, owner } = key;
        let circuit = &self.circuits[owner];
        let target = &self.plan.entrants[owner];
        let entrant = &self.plan.entrants[pilot];
        let name = target.circuit_name.as_str();
        let date = crate::racetrack::clock::now_utc();
        // The verdict, the result file's name and what it held, for the record and the log.
        let (verdict, result_file, file) = match &entrant.pilot {
            PilotSource::Builtin(p) => {
                let result_file = f1::result_file_name(p.name());
                match p.fly(circuit) {
                    Ok(lap) => {
                        let file = lap.to_f1(p.name(), name).into_bytes();
                        let verdict = judge::judge_positions(circuit, lap.positions());
                        (RunVerdict::Judged(verdict), result_file, Some(file))
                    }
                    Err(e) => {
                        let record = LapRecord::failed(name, "no_result", e.to_string());
                        let verdict = RunVerdict::Program(ProgramFault::NoResult);
                        let line =
                            contest::log_line(&entrant.name, &result_file, &verdict, None, &date);
                        return Ok((record, line));
                    }
                }
            }
            // Result files computed beforehand are read like a program's: a link, a FIFO or a
            // device is not a result file (spec §8).
            PilotSource::Results(given) => {
                let path = given.get(name).map(PathBuf::as_path);
                let found = files::read_result(path);
                let result_file = path
                    .and_then(|p| p.file_name())
                    .map_or_else(|| "-".to_owned(), |n| n.to_string_lossy().into_owned());
                let verdict = program::verdict(circuit, &Stop::Exited, &found);
                (verdict, result_file, bytes_of(found))
            }
            PilotSource::Command { program: exe, args } => {
                let stem = exe
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let result_file = f1::result_file_name(&stem);
                match runner::run_pilot(
                    exe,
                    args,
                    &target.circuit,
                    name,
                    self.plan.limits,
                    self.confine,
                )? {
                    RunEnd::Ran { stop, found } => {
                        let verdict = program::verdict(circuit, &stop, &found);
                        (verdict, result_file, bytes_of(found))
                    }
                    RunEnd::NotStarted(why) => {
                        let message = format!("cannot start: {why}");
                        let record = LapRecord::failed(name, "pilot_crash", message.clone());
                        let verdict = RunVerdict::Program(ProgramFault::Crash { message });
                        let line =
                            contest::log_line(&entrant.name, &result_file, &verdict, None, &date);
                        return Ok((record, line));
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
                let program = &programs.by_entrant[&pilot];
                let run = sandbox::run_pilot(
                    &programs.sandbox,
                    program,
                    &self.circuit_files[owner],
                    name,
                    limits,
                    self.plan.seed,
                )?;
                let verdict = program::verdict(circuit, &run.stop, &run.found);
                let result_file = f1::result_file_name(program.stem());
                (verdict, result_file, bytes_of(run.found))
            }
        };
        let line = contest::log_line(
            &entrant.name,
            &result_file,
            &verdict,
            file.as_deref(),
            &date,
        );
        Ok((LapRecord::ran(name, &verdict), line))
    }
}

/// The bytes of a result file that was read.
fn bytes_of(found: Found) -> Option<Vec<u8>> {
    match found {
        Found::Bytes(bytes) => Some(bytes),
        _ => None,
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
    let mut lines = BTreeMap::new();
    let played = (|| loop {
        let progress = contest.progress();
        if progress.current.is_none() {
            return contest
                .report()
                .context("internal error: a finished contest has a report");
        }
        for key in progress.needed {
            let (lap, line) = runner.lap(key)?;
            contest.record(key, lap);
            lines.insert(key, line);
        }
    })();
    // The laps run so far are logged even when the contest could not go on.
    if !args.no_log {
        let path = args
            .log
            .clone()
            .unwrap_or_else(|| args.file.with_extension("log"));
        let text = contest::log_text(lines.iter().map(|(&key, line)| (key, line.as_str())));
        std::fs::write(&path, text)
            .with_context(|| format!("{}: cannot write the contest's log", path.display()))?;
    }
    let json = played?;
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
