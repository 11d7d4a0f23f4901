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
use engine::racetrack::judge::{self, Verdict};
use engine::racetrack::pools::{self, ContestReport, EntrantId, LapOutcome, PoolResults};
use engine::racetrack::program::{self, RunVerdict, Stop};
use sandbox::files;
use serde::Serialize;

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

/// One pilot's lap on one circuit, as the contest saw it.
#[derive(Clone, Debug, Serialize)]
struct LapRecord {
    circuit: String,
    valid: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    time: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    speed: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<usize>,
    /// What went wrong, as a kind: a program fault (`pilot_crash`, `pilot_timeout`,
    /// `pilot_memory`, `no_result`, `bad_result`) or the judge's fault kind.
    #[serde(skip_serializing_if = "Option::is_none")]
    fault: Option<&'static str>,
    /// `"valid"` or what went wrong.
    verdict: String,
}

impl LapRecord {
    fn outcome(&self) -> LapOutcome {
        match (self.valid, self.time, self.speed) {
            (true, Some(time), Some(speed)) => LapOutcome::Valid { time, speed },
            _ => LapOutcome::Invalid,
        }
    }

    fn judged(circuit: &str, verdict: Verdict) -> LapRecord {
        match verdict {
            Verdict::Valid(lap) => LapRecord {
                circuit: circuit.to_owned(),
                valid: true,
                time: Some(lap.time),
                speed: Some(lap.speed_kmh),
                moves: Some(lap.moves),
                fault: None,
                verdict: "valid".into(),
            },
            Verdict::Invalid(fault) => {
                LapRecord::failed(circuit, fault.kind().as_str(), fault.to_string())
            }
        }
    }

    /// A program's run, judged by the rules every host shares.
    fn ran(circuit: &str, verdict: RunVerdict) -> LapRecord {
        match verdict {
            RunVerdict::Judged(v) => LapRecord::judged(circuit, v),
            RunVerdict::Program(fault) => {
                LapRecord::failed(circuit, fault.kind(), fault.to_string())
            }
        }
    }

    fn failed(circuit: &str, fault: &'static str, why: String) -> LapRecord {
        LapRecord {
            circuit: circuit.to_owned(),
            valid: false,
            time: None,
            speed: None,
            moves: None,
            fault: Some(fault),
            verdict: why,
        }
    }
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

struct Contest {
    plan: Plan,
    circuits: Vec<Circuit>,
    /// Each circuit file's bytes, as programs are given them.
    circuit_files: Vec<Vec<u8>>,
    programs: Option<Programs>,
    /// Whether native pilots run confined.
    confine: bool,
    laps: HashMap<(EntrantId, EntrantId), LapRecord>,
}

impl Contest {
    /// Entrant `pilot`'s lap on entrant `owner`'s circuit, run or read once.
    fn lap(&mut self, pilot: EntrantId, owner: EntrantId) -> anyhow::Result<LapRecord> {
        if let Some(lap) = self.laps.get(&(pilot, owner)) {
            return Ok(lap.clone());
        }
        let circuit = &self.circuits[owner];
        let target = &self.plan.entrants[owner];
        let name = target.circuit_name.as_str();
        let lap = match &self.plan.entrants[pilot].pilot {
            PilotSource::Builtin(p) => match p.fly(circuit) {
                Ok(lap) => {
                    LapRecord::judged(name, judge::judge_positions(circuit, lap.positions()))
                }
                Err(e) => LapRecord::failed(name, "no_result", e.to_string()),
            },
            // Result files computed beforehand are read like a program's: a link, a FIFO or a
            // device is not a result file (spec §8).
            PilotSource::Results(given) => {
                let found = files::read_result(given.get(name).map(PathBuf::as_path));
                LapRecord::ran(name, program::verdict(circuit, &Stop::Exited, &found))
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
                        LapRecord::ran(name, program::verdict(circuit, &stop, &found))
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
                LapRecord::ran(name, program::verdict(circuit, &run.stop, &run.found))
            }
        };
        self.laps.insert((pilot, owner), lap.clone());
        Ok(lap)
    }

    fn play(&mut self, members: &[EntrantId]) -> anyhow::Result<PoolResults> {
        let mut laps = Vec::with_capacity(members.len());
        for &pilot in members {
            let mut row = Vec::with_capacity(members.len());
            for &owner in members {
                row.push(self.lap(pilot, owner)?.outcome());
            }
            laps.push(row);
        }
        let estimates = members
            .iter()
            .map(|&m| self.plan.entrants[m].estimate)
            .collect();
        Ok(PoolResults { laps, estimates })
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
    let mut contest = Contest {
        plan,
        circuits,
        circuit_files,
        programs,
        confine,
        laps: HashMap::new(),
    };
    let entrants = contest.plan.entrants.len();
    let report = pools::run_contest(entrants, |_, _, members| contest.play(members))?;
    let json = ContestJson::new(&contest, &report);
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

#[derive(Serialize)]
struct ContestJson {
    rounds: Vec<RoundJson>,
    ranking: Vec<RankJson>,
    pilots: Vec<PilotJson>,
}

#[derive(Serialize)]
struct RoundJson {
    round: usize,
    #[serde(rename = "final")]
    is_final: bool,
    pools: Vec<PoolJson>,
}

#[derive(Serialize)]
struct PoolJson {
    pool: usize,
    circuits: Vec<String>,
    mean_valid_time: Option<f64>,
    standings: Vec<StandingJson>,
}

#[derive(Serialize)]
struct StandingJson {
    place: usize,
    name: String,
    points: u32,
    circuit_points: Vec<u32>,
    separation: pools::Separation,
    qualified: bool,
    laps: Vec<LapRecord>,
}

#[derive(Serialize)]
struct RankJson {
    place: usize,
    name: String,
    points: u32,
}

#[derive(Serialize)]
struct PilotJson {
    name: String,
    valid: usize,
    given: usize,
    operational: bool,
}

impl ContestJson {
    fn new(contest: &Contest, report: &ContestReport) -> ContestJson {
        let name = |e: EntrantId| contest.plan.entrants[e].name.clone();
        let last = report.rounds.len();
        let rounds = report
            .rounds
            .iter()
            .enumerate()
            .map(|(r, pools)| RoundJson {
                round: r + 1,
                is_final: r + 1 == last,
                pools: pools
                    .iter()
                    .enumerate()
                    .map(|(p, pool)| PoolJson {
                        pool: p + 1,
                        circuits: pool
                            .members
                            .iter()
                            .map(|&m| contest.plan.entrants[m].circuit_name.clone())
                            .collect(),
                        mean_valid_time: pool.results.mean_valid_time(),
                        standings: pool
                            .standings
                            .iter()
                            .map(|s| {
                                let e = pool.members[s.member];
                                StandingJson {
                                    place: s.place,
                                    name: name(e),
                                    points: s.points,
                                    circuit_points: s.circuit_points.clone(),
                                    separation: s.separation,
                                    qualified: pool.qualified.contains(&e),
                                    laps: pool
                                        .members
                                        .iter()
                                        .map(|&owner| contest.laps[&(e, owner)].clone())
                                        .collect(),
                                }
                            })
                            .collect(),
                    })
                    .collect(),
            })
            .collect();
        let fin = report.final_pool();
        let ranking = fin
            .standings
            .iter()
            .map(|s| RankJson {
                place: s.place,
                name: name(fin.members[s.member]),
                points: s.points,
            })
            .collect();
        let pilots = (0..contest.plan.entrants.len())
            .map(|e| {
                let mine: Vec<&LapRecord> = contest
                    .laps
                    .iter()
                    .filter(|((pilot, _), _)| *pilot == e)
                    .map(|(_, lap)| lap)
                    .collect();
                let valid = mine.iter().filter(|l| l.valid).count();
                PilotJson {
                    name: name(e),
                    valid,
                    given: mine.len(),
                    operational: pools::is_operational(valid, mine.len()),
                }
            })
            .collect();
        ContestJson {
            rounds,
            ranking,
            pilots,
        }
    }
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
