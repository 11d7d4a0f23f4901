//! A pools contest as it runs (spec §8), for every host: which laps the current round still
//! needs, the laps known so far, the rounds they decide, and the report both the CLI
//! (`quadrille contest --json`) and the browser (`#/contest`) print.
//!
//! The rules are [`super::pools`]'; this module keeps the state between them, sans I/O: a host
//! asks [`Contest::progress`] what is missing, runs those pilots however it can (a child
//! process, `wasmtime`, a web worker), hands each verdict back with [`Contest::record`], and
//! asks again until the final is played. A pilot's lap on a circuit is run once and reused in
//! later rounds, so the order the host runs laps in never changes the outcome.

use std::collections::{BTreeMap, HashSet};

use serde::{Deserialize, Serialize};

use super::Circuit;
use super::f1::ResultFile;
use super::judge::{self, Verdict};
use super::physics::Pos;
use super::pools::{
    self, ContestError, ContestReport, EntrantId, LapOutcome, PlayedPool, PoolResults, Separation,
};
use super::program::RunVerdict;

/// One pilot's lap on one circuit, as the contest saw it (and as the report prints it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LapRecord {
    /// The circuit's file name.
    pub circuit: String,
    pub valid: bool,
    /// Official time, seconds (valid laps).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<f64>,
    /// Average speed, km/h (valid laps).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed: Option<f64>,
    /// Moves of the lap (valid laps).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves: Option<usize>,
    /// What went wrong, as a kind: a program fault (`pilot_crash`, `pilot_timeout`,
    /// `pilot_memory`, `no_result`, `bad_result`) or the judge's fault kind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fault: Option<String>,
    /// `"valid"` or what went wrong.
    pub verdict: String,
}

impl LapRecord {
    /// The lap as the pool ranking sees it.
    pub fn outcome(&self) -> LapOutcome {
        match (self.valid, self.time, self.speed) {
            (true, Some(time), Some(speed)) => LapOutcome::Valid { time, speed },
            _ => LapOutcome::Invalid,
        }
    }

    /// The judge's verdict on a lap of the circuit called `circuit`.
    pub fn judged(circuit: &str, verdict: &Verdict) -> LapRecord {
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

    /// A program's run, judged by the rules every host shares ([`super::program::verdict`]).
    pub fn ran(circuit: &str, verdict: &RunVerdict) -> LapRecord {
        match verdict {
            RunVerdict::Judged(v) => LapRecord::judged(circuit, v),
            RunVerdict::Program(fault) => {
                LapRecord::failed(circuit, fault.kind(), fault.to_string())
            }
        }
    }

    /// A built-in pilot's lap on `on` (the circuit called `circuit`), or why it drove none.
    pub fn flown(circuit: &str, on: &Circuit, lap: Result<&[Pos], String>) -> LapRecord {
        match lap {
            Ok(positions) => LapRecord::judged(circuit, &judge::judge_positions(on, positions)),
            Err(why) => LapRecord::failed(circuit, "no_result", why),
        }
    }

    /// No lap, for the reason `why`, of kind `fault`.
    pub fn failed(circuit: &str, fault: &str, why: String) -> LapRecord {
        LapRecord {
            circuit: circuit.to_owned(),
            valid: false,
            time: None,
            speed: None,
            moves: None,
            fault: Some(fault.to_owned()),
            verdict: why,
        }
    }
}

/// An entrant as the contest knows it: its name in the tables, its circuit's file name and its
/// advance estimate of its pool's mean valid lap time (seconds). How its pilot runs is the
/// host's business.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    pub name: String,
    pub circuit: String,
    pub estimate: Option<f64>,
}

/// Why entries cannot make a contest.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EntryError {
    #[error(transparent)]
    Contest(#[from] ContestError),
    /// Names tell entrants apart in the tables.
    #[error("entrant {position} ({name:?}): the name is already taken")]
    DuplicateName { position: usize, name: String },
    /// Circuit file names tell circuits apart in the tables.
    #[error("entrant {position} ({name:?}): another entrant's circuit is also called {circuit}")]
    DuplicateCircuit {
        position: usize,
        name: String,
        circuit: String,
    },
}

/// A lap to run: entrant `pilot`'s pilot on entrant `owner`'s circuit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct LapKey {
    pub pilot: EntrantId,
    pub owner: EntrantId,
}

/// A contest's entries and the laps known so far.
#[derive(Clone, Debug, PartialEq)]
pub struct Contest {
    entries: Vec<Entry>,
    laps: BTreeMap<LapKey, LapRecord>,
}

/// Where a contest stands: the rounds played in full and, until the final is played, the pools
/// of the round being played and the laps it still needs.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    /// Rounds played in full, in order.
    pub played: Vec<Vec<PlayedPool>>,
    /// The pools of the round being played; `None` once the final is played.
    pub current: Option<Vec<Vec<EntrantId>>>,
    /// The laps the current round still needs, pool by pool, pilot by pilot.
    pub needed: Vec<LapKey>,
}

impl Progress {
    /// The whole contest, once the final is played.
    pub fn report(&self) -> Option<ContestReport> {
        self.current.is_none().then(|| ContestReport {
            rounds: self.played.clone(),
        })
    }

    /// Laps known and laps in all for each round dealt so far (the played rounds, then the
    /// current one): a round of pools of n₁, n₂, … pilots has n₁² + n₂² + … laps.
    pub fn rounds(&self) -> Vec<(usize, usize)> {
        let size = |pools: &mut dyn Iterator<Item = usize>| pools.map(|n| n * n).sum::<usize>();
        let mut out: Vec<(usize, usize)> = self
            .played
            .iter()
            .map(|r| {
                let total = size(&mut r.iter().map(|p| p.members.len()));
                (total, total)
            })
            .collect();
        if let Some(pools) = &self.current {
            let total = size(&mut pools.iter().map(Vec::len));
            out.push((total - self.needed.len(), total));
        }
        out
    }
}

impl Contest {
    /// A contest of `entries`, in order of first submission, with no lap run.
    pub fn new(entries: Vec<Entry>) -> Result<Contest, EntryError> {
        if entries.is_empty() {
            return Err(ContestError::NoEntrants.into());
        }
        let (mut names, mut circuits) = (HashSet::new(), HashSet::new());
        for (i, e) in entries.iter().enumerate() {
            if !names.insert(&e.name) {
                return Err(EntryError::DuplicateName {
                    position: i + 1,
                    name: e.name.clone(),
                });
            }
            if !circuits.insert(&e.circuit) {
                return Err(EntryError::DuplicateCircuit {
                    position: i + 1,
                    name: e.name.clone(),
                    circuit: e.circuit.clone(),
                });
            }
        }
        Ok(Contest {
            entries,
            laps: BTreeMap::new(),
        })
    }

    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Keeps the lap `key` (a later record of the same lap replaces it). A key naming no
    /// entrant is refused (`false`).
    pub fn record(&mut self, key: LapKey, lap: LapRecord) -> bool {
        let n = self.entries.len();
        if key.pilot >= n || key.owner >= n {
            return false;
        }
        self.laps.insert(key, lap);
        true
    }

    pub fn lap(&self, key: LapKey) -> Option<&LapRecord> {
        self.laps.get(&key)
    }

    /// Every lap known, by key.
    pub fn laps(&self) -> impl Iterator<Item = (LapKey, &LapRecord)> {
        self.laps.iter().map(|(&k, lap)| (k, lap))
    }

    /// The pool results of `members`, when every lap among them is known.
    fn results(&self, members: &[EntrantId]) -> Option<PoolResults> {
        let laps = members
            .iter()
            .map(|&pilot| {
                members
                    .iter()
                    .map(|&owner| Some(self.lap(LapKey { pilot, owner })?.outcome()))
                    .collect::<Option<Vec<_>>>()
            })
            .collect::<Option<Vec<_>>>()?;
        let estimates = members.iter().map(|&m| self.entries[m].estimate).collect();
        Some(PoolResults { laps, estimates })
    }

    /// Plays every round the known laps decide, and says what the next one needs.
    pub fn progress(&self) -> Progress {
        let mut played = Vec::new();
        let mut pools = pools::first_round(self.entries.len());
        loop {
            let needed: Vec<LapKey> = pools
                .iter()
                .flat_map(|members| {
                    members.iter().flat_map(move |&pilot| {
                        members.iter().map(move |&owner| LapKey { pilot, owner })
                    })
                })
                .filter(|key| !self.laps.contains_key(key))
                .collect();
            if !needed.is_empty() {
                return Progress {
                    played,
                    current: Some(pools),
                    needed,
                };
            }
            let last = pools.len() == 1;
            // Every lap is known, so every pool has its square table: this cannot fail.
            let round = pools::play_round(played.len() + 1, &pools, last, |_, members| {
                self.results(members).ok_or(ContestError::NoEntrants)
            });
            let Ok(round) = round else {
                return Progress {
                    played,
                    current: Some(pools),
                    needed,
                };
            };
            pools = pools::next_round(&round);
            played.push(round);
            if last {
                return Progress {
                    played,
                    current: None,
                    needed: Vec::new(),
                };
            }
        }
    }

    /// The report of a finished contest, as `quadrille contest --json` prints it.
    pub fn report(&self) -> Option<ContestJson> {
        Some(ContestJson::new(self, &self.progress().report()?))
    }
}

/// The whole contest: every round's pools with their standings and laps, the final ranking and
/// whether each pilot is operational (spec §8). `quadrille contest --json` prints it, and the
/// browser's contest page exports it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ContestJson {
    pub rounds: Vec<RoundJson>,
    pub ranking: Vec<RankJson>,
    pub pilots: Vec<PilotJson>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RoundJson {
    pub round: usize,
    #[serde(rename = "final")]
    pub is_final: bool,
    pub pools: Vec<PoolJson>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PoolJson {
    pub pool: usize,
    /// The pool's circuits, in pool order (the columns of `circuit_points` and `laps`).
    pub circuits: Vec<String>,
    pub mean_valid_time: Option<f64>,
    /// In rank order.
    pub standings: Vec<StandingJson>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StandingJson {
    pub place: usize,
    pub name: String,
    pub points: u32,
    pub circuit_points: Vec<u32>,
    pub separation: Separation,
    pub qualified: bool,
    pub laps: Vec<LapRecord>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RankJson {
    pub place: usize,
    pub name: String,
    pub points: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PilotJson {
    pub name: String,
    /// Valid laps, and circuits driven.
    pub valid: usize,
    pub given: usize,
    /// At least 70 % of its laps valid.
    pub operational: bool,
}

/// A pool's standings with the entrants' names and laps, as the report shows them.
pub fn pool_json(contest: &Contest, pool: &PlayedPool, number: usize) -> PoolJson {
    let entries = contest.entries();
    PoolJson {
        pool: number,
        circuits: pool
            .members
            .iter()
            .map(|&m| entries[m].circuit.clone())
            .collect(),
        mean_valid_time: pool.results.mean_valid_time(),
        standings: pool
            .standings
            .iter()
            .map(|s| {
                let e = pool.members[s.member];
                StandingJson {
                    place: s.place,
                    name: entries[e].name.clone(),
                    points: s.points,
                    circuit_points: s.circuit_points.clone(),
                    separation: s.separation,
                    qualified: pool.qualified.contains(&e),
                    laps: pool
                        .members
                        .iter()
                        .filter_map(|&owner| contest.lap(LapKey { pilot: e, owner }).cloned())
                        .collect(),
                }
            })
            .collect(),
    }
}

impl ContestJson {
    /// The report of `contest`, whose rounds are `report`.
    pub fn new(contest: &Contest, report: &ContestReport) -> ContestJson {
        let entries = contest.entries();
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
                    .map(|(p, pool)| pool_json(contest, pool, p + 1))
                    .collect(),
            })
            .collect();
        let fin = report.final_pool();
        let ranking = fin
            .standings
            .iter()
            .map(|s| RankJson {
                place: s.place,
                name: entries[fin.members[s.member]].name.clone(),
                points: s.points,
            })
            .collect();
        let pilots = entries
            .iter()
            .enumerate()
            .map(|(e, entry)| {
                let mine: Vec<&LapRecord> = contest
                    .laps()
                    .filter(|(k, _)| k.pilot == e)
                    .map(|(_, lap)| lap)
                    .collect();
                let valid = mine.iter().filter(|l| l.valid).count();
                PilotJson {
                    name: entry.name.clone(),
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

/// A lap's line in the contest's log: the judge's line (spec §5, [`super::log::run_line`]) of
/// `pilot`'s run, whose result file `result_file` held `file` (its moves are counted when the
/// file is readable), judged at `date`.
pub fn log_line(
    pilot: &str,
    result_file: &str,
    verdict: &RunVerdict,
    file: Option<&[u8]>,
    date: &str,
) -> String {
    let moves = file
        .and_then(|bytes| ResultFile::parse(bytes).ok())
        .map(|f| f.positions.len().saturating_sub(1));
    super::log::run_line(pilot, result_file, moves, verdict, date)
}

/// The contest's log, as `quadrille contest` writes it and the contest page exports it: the line
/// of every lap run ([`log_line`]), circuit by circuit in order of submission, the pilots in the
/// same order on each circuit, each line ending in `\n`. The standings are the report's
/// ([`ContestJson`]); the log is the judge's record of each lap.
pub fn log_text<'a>(lines: impl IntoIterator<Item = (LapKey, &'a str)>) -> String {
    let mut lines: Vec<(LapKey, &str)> = lines.into_iter().collect();
    lines.sort_by_key(|(key, _)| (key.owner, key.pilot));
    lines
        .into_iter()
        .map(|(_, line)| format!("{line}\n"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::racetrack::program::ProgramFault;

    #[test]
    fn the_log_has_a_judges_line_per_lap_circuit_by_circuit() {
        let valid = b"alice\r\nc0.cir\r\n40,4\r\n41,4\r\n".to_vec();
        let line = log_line(
            "Alice",
            "alice.F1",
            &RunVerdict::Program(ProgramFault::NoResult),
            Some(&valid),
            "2026-12-02 04:00:00",
        );
        assert_eq!(
            line,
            "Alice\talice.F1\tno_result\t1\t-\t-\t2026-12-02 04:00:00"
        );
        let crashed = log_line(
            "Bob",
            "bob.F1",
            &RunVerdict::Program(ProgramFault::Crash {
                message: "unreachable".into(),
            }),
            None,
            "d",
        );
        assert_eq!(crashed, "Bob\tbob.F1\tpilot_crash\t-\t-\t-\td");
        let key = |pilot, owner| LapKey { pilot, owner };
        let text = log_text([
            (key(0, 1), "p0 on c1"),
            (key(1, 0), "p1 on c0"),
            (key(0, 0), "p0 on c0"),
        ]);
        assert_eq!(text, "p0 on c0\np1 on c0\np0 on c1\n");
        assert_eq!(log_text([]), "");
    }

    fn entries(n: usize) -> Vec<Entry> {
        (0..n)
            .map(|i| Entry {
                name: format!("P{i}"),
                circuit: format!("c{i}.cir"),
                estimate: (i % 3 != 0).then_some(40.0 + i as f64),
            })
            .collect()
    }

    /// Entrant `pilot` drives every circuit in `10 + pilot` seconds, except that pilot 2 only
    /// finishes on its own circuit.
    fn lap(key: LapKey) -> LapRecord {
        if key.pilot == 2 && key.owner != 2 {
            return LapRecord::failed(&format!("c{}.cir", key.owner), "no_result", "none".into());
        }
        LapRecord {
            circuit: format!("c{}.cir", key.owner),
            valid: true,
            time: Some(10.0 + key.pilot as f64),
            speed: Some(100.0),
            moves: Some(10),
            fault: None,
            verdict: "valid".into(),
        }
    }

    #[test]
    fn laps_are_asked_round_by_round_until_the_final_which_matches_run_contest() {
        let mut contest = Contest::new(entries(13)).unwrap();
        let mut asked = Vec::new();
        loop {
            let progress = contest.progress();
            if progress.current.is_none() {
                break;
            }
            let rounds = progress.rounds();
            asked.push((progress.played.len(), progress.needed.len(), rounds));
            for key in progress.needed {
                assert!(contest.lap(key).is_none(), "a lap is asked once");
                assert!(contest.record(key, lap(key)));
            }
        }
        // 13 entrants: pools of 7 and 6 (49 + 36 laps), then a final of 4 + 3 = 7, of whose 49
        // laps those within one first-round pool are known: 4² + 3² = 25.
        assert_eq!(
            asked,
            vec![(0, 85, vec![(0, 85)]), (1, 24, vec![(85, 85), (25, 49)]),]
        );
        let report = contest.progress().report().unwrap();
        let expected = pools::run_contest(13, |_, _, members| {
            Ok::<_, ContestError>(contest.results(members).unwrap())
        })
        .unwrap();
        assert_eq!(report, expected);
        let json = contest.report().unwrap();
        assert_eq!(json.rounds.len(), 2);
        assert!(json.rounds[1].is_final && !json.rounds[0].is_final);
        assert_eq!(json.ranking[0].name, "P0");
        assert_eq!(json.ranking.len(), 7);
        let p2 = json.pilots.iter().find(|p| p.name == "P2").unwrap();
        assert!(!p2.operational, "{p2:?}");
        assert_eq!(json.pilots.iter().map(|p| p.given).sum::<usize>(), 85 + 24);
        let text = serde_json::to_string(&json).unwrap();
        let back: ContestJson = serde_json::from_str(&text).unwrap();
        assert_eq!(back, json);
        assert!(text.contains("\"final\":true"), "{text}");
    }

    #[test]
    fn bad_entries_and_keys_are_refused() {
        assert!(matches!(
            Contest::new(Vec::new()),
            Err(EntryError::Contest(ContestError::NoEntrants))
        ));
        let mut twice = entries(3);
        twice[2].name = "P0".into();
        assert!(matches!(
            Contest::new(twice),
            Err(EntryError::DuplicateName { position: 3, .. })
        ));
        let mut same = entries(3);
        same[1].circuit = "c0.cir".into();
        assert!(matches!(
            Contest::new(same),
            Err(EntryError::DuplicateCircuit { position: 2, .. })
        ));
        let mut contest = Contest::new(entries(2)).unwrap();
        let key = LapKey { pilot: 2, owner: 0 };
        assert!(!contest.record(key, lap(key)));
        assert!(contest.report().is_none());
    }
}
