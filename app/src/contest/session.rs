//! A pools contest in the browser, without the browser: the entrants from the form, which laps
//! to run next and on which worker slot, the verdicts so far and what to keep of them across a
//! reload. Which laps a round needs, the standings and the report are
//! [`engine::racetrack::contest`]'s (the CLI's `quadrille contest` runs on the same code); a
//! run's verdict is [`engine::racetrack::program::verdict`]'s. Inputs in, effects out.

use std::collections::BTreeMap;
use std::fmt;
use std::rc::Rc;

use engine::racetrack::contest::{self, Contest, Entry, EntryError, LapKey, LapRecord, Progress};
use engine::racetrack::f1::{self, ResultFile};
use engine::racetrack::pilot::Pilot;
use engine::racetrack::program::{self, Found, RunVerdict, Stop};
use engine::racetrack::{Circuit, LineEnding, Pos, conformity, samples};
use serde::{Deserialize, Serialize};

use crate::lab::lap::JudgedLap;
use crate::scheduler::Scheduler;

/// How an entrant's pilot runs.
#[derive(Clone, Debug, PartialEq)]
pub enum PilotChoice {
    /// A built-in pilot, in a Racetrack worker.
    Builtin(Pilot),
    /// A WASI pilot program (spec §7): its file name, whose stem names its result file, and
    /// the module's bytes.
    Wasm { file: String, bytes: Rc<Vec<u8>> },
}

impl PilotChoice {
    /// The name the pilot writes on line 1 of its result file and its result file's stem:
    /// the built-in pilot's name, or the program's file stem.
    pub fn stem(&self) -> String {
        match self {
            PilotChoice::Builtin(p) => p.name().to_owned(),
            PilotChoice::Wasm { file, .. } => stem(file).to_owned(),
        }
    }

    /// The result file's name (`greedy.F1`).
    pub fn result_file(&self) -> String {
        match self {
            PilotChoice::Builtin(p) => f1::result_file_name(p.name()),
            PilotChoice::Wasm { file, .. } => format!("{}.F1", stem(file)),
        }
    }

    /// What the form shows.
    pub fn label(&self) -> String {
        match self {
            PilotChoice::Builtin(p) => format!("built-in {}", p.name()),
            PilotChoice::Wasm { file, .. } => file.clone(),
        }
    }
}

/// A file name without its last extension.
pub fn stem(file: &str) -> &str {
    file.rsplit_once('.').map_or(file, |(s, _)| s)
}

/// A circuit file: its name (which names it in the tables) and bytes.
#[derive(Clone, Debug, PartialEq)]
pub struct CircuitFile {
    pub name: String,
    pub bytes: Rc<Vec<u8>>,
}

impl CircuitFile {
    /// The sample called `sample`, under the file name `name`.
    pub fn sample(sample: &str, name: String) -> Option<CircuitFile> {
        let s = samples::by_name(sample)?;
        Some(CircuitFile {
            name,
            bytes: Rc::new(s.text.as_bytes().to_vec()),
        })
    }
}

/// One entrant: its name in the tables, its pilot, its circuit and its advance estimate of its
/// pool's mean valid lap time (seconds).
#[derive(Clone, Debug, PartialEq)]
pub struct Entrant {
    pub name: String,
    pub pilot: PilotChoice,
    pub circuit: CircuitFile,
    pub estimate: Option<f64>,
}

/// A circuit for a new entrant: the first conforming sample no entrant has, then copies of the
/// samples (`ring-2.cir`, …), so that every entrant brings a circuit of its own name.
pub fn next_circuit(entrants: &[Entrant]) -> CircuitFile {
    let taken = |name: &str| entrants.iter().any(|e| e.circuit.name == name);
    let conforming: Vec<&str> = samples::SAMPLES
        .iter()
        .filter(|s| s.conforming)
        .map(|s| s.name)
        .collect();
    (1..)
        .flat_map(|copy| {
            conforming.iter().map(move |&s| {
                let name = if copy == 1 {
                    format!("{s}.cir")
                } else {
                    format!("{s}-{copy}.cir")
                };
                (s, name)
            })
        })
        .find(|(_, name)| !taken(name))
        .and_then(|(s, name)| CircuitFile::sample(s, name))
        .expect("a free name exists and samples are shipped")
}

/// Adds an entrant with `pilot`, named by its stem (with `-2`, `-3`… when taken), and the next
/// free circuit.
pub fn add_entrant(entrants: &mut Vec<Entrant>, pilot: PilotChoice) {
    let base = pilot.stem();
    let name = crate::names::first_free(
        &base,
        |base, k| format!("{base}-{k}"),
        |n| entrants.iter().any(|e| e.name == n),
    );
    let circuit = next_circuit(entrants);
    entrants.push(Entrant {
        name,
        pilot,
        circuit,
        estimate: None,
    });
}

/// The limits of every pilot program (spec §7): wall time and linear memory.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Limits {
    pub time_secs: f64,
    pub memory_mib: f64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            time_secs: program::DEFAULT_TIME_LIMIT_SECS,
            memory_mib: program::DEFAULT_MEMORY_LIMIT_MIB,
        }
    }
}

/// Why the form does not make a contest.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    #[error("entrant {position} ({name:?}): {circuit} cannot be read: {why}")]
    Circuit {
        position: usize,
        name: String,
        circuit: String,
        why: String,
    },
    #[error("entrant {position} ({name:?}): {circuit} is not a conforming circuit: {why}")]
    NotConforming {
        position: usize,
        name: String,
        circuit: String,
        why: String,
    },
    /// Refused before anything runs, as `quadrille contest` refuses it.
    #[error("entrant {position} ({name:?}): {file}: {why}")]
    Program {
        position: usize,
        name: String,
        file: String,
        why: String,
    },
    #[error("the {0} limit must be a positive number")]
    Limit(&'static str),
    #[error(transparent)]
    Entries(#[from] EntryError),
}

/// What the form sets: the entrants in order of submission, the limits and the seed of the
/// programs' `random_get`.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    pub entrants: Vec<Entrant>,
    pub limits: Limits,
    pub seed: u64,
}

impl Plan {
    /// The circuits, read and checked (spec §2), or what is wrong with the plan.
    pub fn check(&self) -> Result<(Contest, Vec<Circuit>), PlanError> {
        let positive = |v: f64| v.is_finite() && v > 0.0;
        if !positive(self.limits.time_secs) || self.limits.time_secs > 1e6 {
            return Err(PlanError::Limit("time"));
        }
        if !positive(self.limits.memory_mib) || self.limits.memory_mib > 4096.0 {
            return Err(PlanError::Limit("memory"));
        }
        let contest = Contest::new(
            self.entrants
                .iter()
                .map(|e| Entry {
                    name: e.name.clone(),
                    circuit: e.circuit.name.clone(),
                    estimate: e.estimate,
                })
                .collect(),
        )?;
        for (i, e) in self.entrants.iter().enumerate() {
            if let PilotChoice::Wasm { file, bytes } = &e.pilot
                && let Err(why) = crate::wasi::module::prepare(bytes)
            {
                return Err(PlanError::Program {
                    position: i + 1,
                    name: e.name.clone(),
                    file: file.clone(),
                    why: why.to_string(),
                });
            }
        }
        let circuits = self
            .entrants
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let here = |why: String| (i + 1, e.name.clone(), e.circuit.name.clone(), why);
                let circuit = Circuit::parse(&e.circuit.bytes).map_err(|err| {
                    let (position, name, circuit, why) = here(err.to_string());
                    PlanError::Circuit {
                        position,
                        name,
                        circuit,
                        why,
                    }
                })?;
                if let Some(v) = conformity::check(&circuit).violations.into_iter().next() {
                    let (position, name, circuit, why) = here(v.to_string());
                    return Err(PlanError::NotConforming {
                        position,
                        name,
                        circuit,
                        why,
                    });
                }
                Ok(circuit)
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok((contest, circuits))
    }

    /// A fingerprint of what decides the results (names, pilots' and circuits' bytes,
    /// estimates, limits, seed): results kept under another fingerprint are not this plan's.
    pub fn fingerprint(&self) -> String {
        // No security needed, only "same plan or not".
        let mut h = crate::hash::Fnv::default();
        let mut eat = |bytes: &[u8]| h.field(bytes);
        eat(format!(
            "{:?} {:?} {}",
            self.limits.time_secs, self.limits.memory_mib, self.seed
        )
        .as_bytes());
        for e in &self.entrants {
            eat(e.name.as_bytes());
            eat(format!("{:?}", e.estimate).as_bytes());
            match &e.pilot {
                PilotChoice::Builtin(p) => eat(p.name().as_bytes()),
                PilotChoice::Wasm { file, bytes } => {
                    eat(file.as_bytes());
                    eat(bytes);
                }
            }
            eat(e.circuit.name.as_bytes());
            eat(&e.circuit.bytes);
        }
        format!("{:016x}", h.finish())
    }
}

impl fmt::Display for Plan {
    /// The plan as `quadrille contest` reads it, with programs in `pilots/` and circuits in
    /// `circuits/` beside it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "time_limit_secs = {:?}", self.limits.time_secs)?;
        writeln!(f, "memory_limit_mb = {:?}", self.limits.memory_mib)?;
        writeln!(f, "seed = {}", self.seed)?;
        for e in &self.entrants {
            writeln!(f, "\n[[entrant]]\nname = {:?}", e.name)?;
            writeln!(f, "circuit = {:?}", format!("circuits/{}", e.circuit.name))?;
            if let Some(estimate) = e.estimate {
                writeln!(f, "estimate = {estimate:?}")?;
            }
            match &e.pilot {
                PilotChoice::Builtin(p) => writeln!(f, "builtin = {:?}", p.name())?,
                PilotChoice::Wasm { file, .. } => {
                    writeln!(f, "wasm = {:?}", format!("pilots/{file}"))?
                }
            }
        }
        Ok(())
    }
}

/// What a run produced, as its host saw it.
#[derive(Clone, Debug, PartialEq)]
pub enum RunOutput {
    /// A built-in pilot's lap (positions), or why it drove none.
    Flown(Result<Vec<Pos>, String>),
    /// A program's run: how it stopped and what was where its result file should be.
    Program { stop: Stop, found: Found },
}

/// A lap to run now.
#[derive(Clone, Debug, PartialEq)]
pub struct RunStart {
    pub key: LapKey,
    /// The worker slot it runs on.
    pub slot: usize,
    pub pilot: PilotChoice,
    pub circuit: CircuitFile,
    pub limits: Limits,
    pub seed: u64,
}

/// One lap as kept across a reload: the contest's record, its log line and the result file
/// (for the replay).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredLap {
    pub key: LapKey,
    pub record: LapRecord,
    pub log: String,
    pub file: Option<Vec<u8>>,
}

/// What the page must do: start a run, keep a lap, or nothing more (the final is played).
pub type Effect = crate::scheduler::Effect<RunStart, StoredLap>;

/// A running or finished contest.
pub struct Session {
    plan: Plan,
    circuits: Vec<Circuit>,
    contest: Contest,
    /// Log lines and result files, by lap.
    kept: BTreeMap<LapKey, StoredLap>,
    /// Laps running, on their slots.
    scheduler: Scheduler<LapKey>,
}

impl Session {
    /// A contest of `plan` running up to `slots` pilots at once, with the laps kept by an
    /// earlier visit (laps naming no entrant are ignored; unfinished runs start again).
    pub fn new(plan: Plan, slots: usize, stored: Vec<StoredLap>) -> Result<Session, PlanError> {
        let (mut contest, circuits) = plan.check()?;
        let mut kept = BTreeMap::new();
        for lap in stored {
            if contest.record(lap.key, lap.record.clone()) {
                kept.insert(lap.key, lap);
            }
        }
        Ok(Session {
            plan,
            circuits,
            contest,
            kept,
            scheduler: Scheduler::new(slots),
        })
    }

    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    pub fn contest(&self) -> &Contest {
        &self.contest
    }

    pub fn progress(&self) -> Progress {
        self.contest.progress()
    }

    /// Laps running now.
    pub fn running(&self) -> impl Iterator<Item = LapKey> + '_ {
        self.scheduler.running()
    }

    pub fn is_done(&self) -> bool {
        self.progress().current.is_none()
    }

    /// Seconds since the start (or resumption), or what the whole took once done.
    pub fn elapsed_s(&self, now_ms: f64) -> f64 {
        self.scheduler.elapsed_s(now_ms)
    }

    /// The report as `quadrille contest --json` prints it, once the final is played.
    pub fn report_json(&self) -> Option<String> {
        serde_json::to_string(&self.contest.report()?).ok()
    }

    /// The judge's log of every lap run: one line per lap (`engine::racetrack::log`), circuit
    /// by circuit in order of submission, pilots in the same order.
    pub fn log(&self) -> String {
        contest::log_text(self.kept.iter().map(|(&key, lap)| (key, lap.log.as_str())))
    }

    /// Every lap known on entrant `owner`'s circuit, with the pilot's entrant index, judged
    /// again from its result file for the replay.
    pub fn laps_on(&self, owner: usize) -> Vec<(usize, JudgedLap)> {
        let Some(circuit) = self.circuits.get(owner) else {
            return Vec::new();
        };
        self.kept
            .values()
            .filter(|lap| lap.key.owner == owner)
            .filter_map(|lap| {
                let file = lap.file.as_ref()?;
                let mut judged = JudgedLap::from_bytes(circuit, &lap.record.circuit, file);
                judged.pilot = self.plan.entrants.get(lap.key.pilot)?.name.clone();
                Some((lap.key.pilot, judged))
            })
            .collect()
    }

    pub fn circuit(&self, owner: usize) -> Option<&Circuit> {
        self.circuits.get(owner)
    }

    /// Starts (or resumes) the contest at `now_ms`: the first laps to run.
    pub fn start(&mut self, now_ms: f64) -> Vec<Effect> {
        self.scheduler.start(now_ms);
        self.fill(now_ms)
    }

    /// Lap `key` ended with `output` at `date` (the log's `YYYY-MM-DD HH:MM:SS`). A lap that is
    /// not running (a stale answer) is ignored.
    pub fn finished(
        &mut self,
        key: LapKey,
        output: RunOutput,
        date: &str,
        now_ms: f64,
    ) -> Vec<Effect> {
        if !self.scheduler.release(key) {
            return Vec::new();
        }
        let lap = self.judge(key, output, date);
        self.contest.record(key, lap.record.clone());
        self.kept.insert(key, lap.clone());
        let mut effects = vec![Effect::Save(lap)];
        effects.extend(self.fill(now_ms));
        effects
    }

    /// The verdict on a run, its log line and its result file.
    fn judge(&self, key: LapKey, output: RunOutput, date: &str) -> StoredLap {
        let entrant = &self.plan.entrants[key.pilot];
        let circuit = &self.circuits[key.owner];
        let circuit_name = &self.plan.entrants[key.owner].circuit.name;
        let result_file = entrant.pilot.result_file();
        let (record, log, file) = match output {
            RunOutput::Flown(lap) => {
                let record = LapRecord::flown(
                    circuit_name,
                    circuit,
                    lap.as_ref().map(Vec::as_slice).map_err(Clone::clone),
                );
                let file = lap.as_ref().ok().map(|positions| {
                    ResultFile {
                        pilot: entrant.pilot.stem(),
                        circuit: circuit_name.clone(),
                        positions: positions.clone(),
                    }
                    .to_text(LineEnding::CrLf)
                    .into_bytes()
                });
                let verdict = match &lap {
                    Ok(positions) => RunVerdict::Judged(engine::racetrack::judge::judge_positions(
                        circuit, positions,
                    )),
                    Err(_) => RunVerdict::Program(program::ProgramFault::NoResult),
                };
                let log =
                    contest::log_line(&entrant.name, &result_file, &verdict, file.as_deref(), date);
                (record, log, file)
            }
            RunOutput::Program { stop, found } => {
                let verdict = program::verdict(circuit, &stop, &found);
                let file = match found {
                    Found::Bytes(bytes) => Some(bytes),
                    _ => None,
                };
                let log =
                    contest::log_line(&entrant.name, &result_file, &verdict, file.as_deref(), date);
                (LapRecord::ran(circuit_name, &verdict), log, file)
            }
        };
        StoredLap {
            key,
            record,
            log,
            file,
        }
    }

    /// Starts the laps the current round still needs, in the engine's order, on free slots.
    fn fill(&mut self, now_ms: f64) -> Vec<Effect> {
        let progress = self.progress();
        if progress.current.is_none() {
            self.scheduler.end(now_ms);
            return vec![Effect::Done];
        }
        let placed = self.scheduler.fill(progress.needed, |_, _| true);
        placed
            .into_iter()
            .map(|(key, slot)| {
                Effect::Start(RunStart {
                    key,
                    slot,
                    pilot: self.plan.entrants[key.pilot].pilot.clone(),
                    circuit: self.plan.entrants[key.owner].circuit.clone(),
                    limits: self.plan.limits,
                    seed: self.plan.seed,
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(pilots: &[Pilot]) -> Plan {
        let mut entrants = Vec::new();
        for &p in pilots {
            add_entrant(&mut entrants, PilotChoice::Builtin(p));
        }
        Plan {
            entrants,
            limits: Limits::default(),
            seed: 0,
        }
    }

    /// Runs what a start asks, as the Racetrack worker would.
    fn run(session: &Session, start: &RunStart) -> RunOutput {
        let _ = session;
        let PilotChoice::Builtin(pilot) = start.pilot else {
            panic!("built-in pilots only here")
        };
        let circuit = Circuit::parse(&start.circuit.bytes).unwrap();
        RunOutput::Flown(
            pilot
                .fly(&circuit)
                .map(|lap| lap.positions().to_vec())
                .map_err(|e| e.to_string()),
        )
    }

    fn starts(effects: &[Effect]) -> Vec<RunStart> {
        effects
            .iter()
            .filter_map(Effect::started)
            .cloned()
            .collect()
    }

    /// Plays `session` to its end (or `stop_after` laps), answering the newest start first.
    fn play(session: &mut Session, stop_after: Option<usize>) -> Vec<StoredLap> {
        let mut queue = starts(&session.start(0.0));
        let mut saved = Vec::new();
        while let Some(start) = queue.pop() {
            if stop_after == Some(saved.len()) {
                break;
            }
            let output = run(session, &start);
            let effects = session.finished(start.key, output, "2026-12-02 00:00:00", 1.0);
            for e in &effects {
                if let Effect::Save(lap) = e {
                    saved.push(lap.clone());
                }
            }
            queue.extend(starts(&effects));
        }
        saved
    }

    #[test]
    fn entrants_get_their_stem_as_name_and_a_circuit_of_their_own() {
        let mut entrants = Vec::new();
        for _ in 0..11 {
            add_entrant(&mut entrants, PilotChoice::Builtin(Pilot::Demo));
        }
        let names: Vec<&str> = entrants.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(&names[..3], ["demo", "demo-2", "demo-3"]);
        let circuits: Vec<&str> = entrants.iter().map(|e| e.circuit.name.as_str()).collect();
        assert_eq!(circuits[0], "ring.cir");
        assert_eq!(circuits[9], "ring-2.cir");
        assert_eq!(circuits[10], "street-2.cir");
        let wasm = PilotChoice::Wasm {
            file: "vmax3.wasm".into(),
            bytes: Rc::new(b"\0asm\x01\0\0\0".to_vec()),
        };
        assert_eq!(wasm.stem(), "vmax3");
        assert_eq!(wasm.result_file(), "vmax3.F1");
        add_entrant(&mut entrants, wasm);
        assert_eq!(entrants[11].name, "vmax3");
        let p = Plan {
            entrants,
            limits: Limits::default(),
            seed: 3,
        };
        let toml = p.to_string();
        assert!(toml.starts_with("time_limit_secs = 120.0\nmemory_limit_mb = 10.0\nseed = 3\n"));
        assert!(
            toml.contains(
                "name = \"vmax3\"\ncircuit = \"circuits/hairpins-2.cir\"\nwasm = \"pilots/vmax3.wasm\""
            ),
            "{toml}"
        );
        // An empty module is no WASI command: the plan is refused, naming the program.
        match p.check() {
            Err(PlanError::Program {
                position: 12,
                file,
                why,
                ..
            }) => {
                assert_eq!(file, "vmax3.wasm");
                assert!(why.contains("not a WASI preview-1 command"), "{why}");
            }
            other => panic!("{:?}", other.err()),
        }
    }

    #[test]
    fn bad_plans_name_the_entrant_at_fault() {
        let mut p = plan(&[Pilot::Demo, Pilot::Demo]);
        p.entrants[1].circuit = CircuitFile::sample("bad_start", "x.cir".into()).unwrap();
        match p.check() {
            Err(PlanError::NotConforming { position: 2, .. }) => {}
            other => panic!("{:?}", other.err()),
        }
        p.entrants[1].circuit = CircuitFile {
            name: "y.cir".into(),
            bytes: Rc::new(b"nonsense".to_vec()),
        };
        assert!(matches!(
            p.check(),
            Err(PlanError::Circuit { position: 2, .. })
        ));
        let mut twice = plan(&[Pilot::Demo, Pilot::Optimal]);
        twice.entrants[1].name = "demo".into();
        assert!(matches!(twice.check(), Err(PlanError::Entries(_))));
        let mut slow = plan(&[Pilot::Demo]);
        slow.limits.time_secs = 0.0;
        assert_eq!(slow.check().err(), Some(PlanError::Limit("time")));
    }

    #[test]
    fn a_reload_keeps_the_laps_and_plays_the_rest_to_the_engines_report() {
        // 13 entrants: two pools, then a final.
        let pilots: Vec<Pilot> = (0..13)
            .map(|i| {
                if i % 3 == 0 {
                    Pilot::Optimal
                } else {
                    Pilot::Demo
                }
            })
            .collect();
        let p = plan(&pilots);
        let mut whole = Session::new(p.clone(), 3, Vec::new()).unwrap();
        let all = play(&mut whole, None);
        assert!(whole.is_done());
        assert_eq!(all.len(), 85 + 24);
        let report = whole.report_json().unwrap();
        let parsed: serde_json::Value = serde_json::from_str(&report).unwrap();
        assert_eq!(parsed["rounds"].as_array().unwrap().len(), 2);
        assert_eq!(parsed["ranking"].as_array().unwrap().len(), 7);
        // The optimal pilots win: the first is entrant 0.
        assert_eq!(parsed["ranking"][0]["name"], "optimal");
        // The log has a line per lap, in the judge's format.
        let log = whole.log();
        assert_eq!(log.lines().count(), 109);
        let first = log.lines().next().unwrap();
        let fields: Vec<&str> = first.split('\t').collect();
        assert_eq!(fields.len(), 7, "{first}");
        assert_eq!(fields[0], "optimal");
        assert_eq!(fields[1], "optimal.F1");
        assert_eq!(fields[2], "valid");
        assert_eq!(fields[6], "2026-12-02 00:00:00");
        // Interrupted after 30 laps, resumed with what was kept: the same report.
        let mut half = Session::new(p.clone(), 3, Vec::new()).unwrap();
        let kept = play(&mut half, Some(30));
        assert_eq!(kept.len(), 30);
        assert!(!half.is_done());
        let mut resumed = Session::new(p.clone(), 2, kept.clone()).unwrap();
        assert_eq!(resumed.progress().rounds()[0].0, 30);
        let rest = play(&mut resumed, None);
        assert_eq!(rest.len(), 109 - 30, "kept laps are not run again");
        assert_eq!(resumed.report_json().unwrap(), report);
        // The replay of a circuit shows every pilot that drove it, judged again.
        let on_ring = resumed.laps_on(0);
        assert_eq!(on_ring.len(), 7 + 3, "{}", on_ring.len());
        assert!(on_ring.iter().all(|(_, lap)| lap.verdict.is_valid()));
    }

    #[test]
    fn stale_answers_are_ignored_and_slots_are_reused() {
        let p = plan(&[Pilot::Demo, Pilot::Demo, Pilot::Optimal]);
        let mut s = Session::new(p, 2, Vec::new()).unwrap();
        let first = starts(&s.start(0.0));
        assert_eq!(first.len(), 2);
        assert_ne!(first[0].slot, first[1].slot);
        let stale = LapKey { pilot: 2, owner: 2 };
        assert!(
            s.finished(stale, RunOutput::Flown(Err("x".into())), "d", 1.0)
                .is_empty()
        );
        let effects = s.finished(
            first[1].key,
            RunOutput::Program {
                stop: Stop::TimedOut { limit_secs: 1.0 },
                found: Found::Missing,
            },
            "d",
            1.0,
        );
        let Effect::Save(lap) = &effects[0] else {
            panic!("{effects:?}")
        };
        assert_eq!(lap.record.fault.as_deref(), Some("pilot_timeout"));
        assert!(lap.log.contains("\tpilot_timeout\t"), "{}", lap.log);
        let next = starts(&effects);
        assert_eq!(next.len(), 1);
        assert_eq!(next[0].slot, first[1].slot);
    }
}
