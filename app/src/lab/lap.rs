//! A lap loaded into the lab: what was read, and the judge's verdict on it.

use engine::racetrack::f1::{self, ResultFile};
use engine::racetrack::judge::{self, Fault, Verdict};
use engine::racetrack::physics::{self, CELL_METRES, Pos};
use engine::racetrack::pools::LapOutcome;
use engine::racetrack::program::{ProgramFault, RunVerdict};
use engine::racetrack::{Circuit, LineEnding, log};

/// One judged lap: a result file, or the lap of a built-in pilot.
#[derive(Clone, Debug, PartialEq)]
pub struct JudgedLap {
    /// Line 1 of the file (or the built-in pilot's name).
    pub pilot: String,
    /// The result file's name, as the log records it.
    pub file: String,
    /// The positions read, `p0..pn` (none when the file could not be read: the verdict is then
    /// a syntax fault, see [`JudgedLap::readable`]).
    pub positions: Vec<Pos>,
    /// Line 2 of the file: the circuit it was computed for (`None` for a built-in pilot's lap,
    /// which was driven on the lab's circuit).
    pub written_for: Option<String>,
    /// The judge's verdict on the positions read. For a pilot program that did something wrong
    /// before any lap could be judged ([`ProgramRun::fault`]), the verdict on no positions:
    /// the program's fault comes first everywhere.
    pub verdict: Verdict,
    /// The run of a pilot program that produced this lap (`None` for a file or a built-in).
    pub run: Option<ProgramRun>,
}

/// How a pilot program ran in the browser (`crate::wasi`).
#[derive(Clone, Debug, PartialEq)]
pub struct ProgramRun {
    /// The program's name: its file stem.
    pub name: String,
    /// What it did wrong before any lap could be judged, if anything.
    pub fault: Option<ProgramFault>,
    /// Its wall time, in milliseconds.
    pub millis: f64,
    /// What it printed.
    pub printed: String,
}

/// The verdict as the page's test hooks show it, mirroring `quadrille testf1 --json`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerdictHooks {
    /// `data-valid`.
    pub valid: bool,
    /// `data-fault`: the fault kind's word, `None` for a valid lap.
    pub fault: Option<&'static str>,
    /// `data-move`: the move `k` the fault names, or the line of a syntax error.
    pub at: Option<usize>,
    /// `data-line`: the line of a syntax error (the CLI's JSON says `line` for it, not `move`).
    pub line: Option<usize>,
    /// `data-time`: the official time to the hundredth, valid laps only.
    pub time: Option<String>,
}

impl JudgedLap {
    /// Reads and judges a result file's bytes on `circuit`.
    pub fn from_bytes(circuit: &Circuit, file: &str, bytes: &[u8]) -> JudgedLap {
        match ResultFile::parse(bytes) {
            Ok(parsed) => JudgedLap {
                verdict: judge::judge(circuit, &parsed),
                pilot: parsed.pilot,
                file: file.to_string(),
                positions: parsed.positions,
                written_for: Some(parsed.circuit),
                run: None,
            },
            Err(e) => JudgedLap {
                pilot: f1::header(bytes).0.unwrap_or_default(),
                file: file.to_string(),
                positions: Vec::new(),
                written_for: f1::header(bytes).1,
                verdict: Verdict::Invalid(Fault::Syntax(e)),
                run: None,
            },
        }
    }

    /// Judges positions driven by a built-in pilot (the judge, not the pilot, has the last word).
    pub fn from_positions(circuit: &Circuit, pilot: &str, positions: Vec<Pos>) -> JudgedLap {
        JudgedLap {
            verdict: judge::judge_positions(circuit, &positions),
            pilot: pilot.to_string(),
            file: f1::result_file_name(pilot),
            positions,
            written_for: None,
            run: None,
        }
    }

    /// The lap of a pilot program's run, judged by the engine's rules for runs
    /// ([`engine::racetrack::program::verdict`]): `name` is the program's file stem.
    pub fn from_run(
        circuit: &Circuit,
        name: &str,
        outcome: &crate::wasi::PilotOutcome,
    ) -> JudgedLap {
        let printed = String::from_utf8_lossy(&outcome.log).into_owned();
        let mut run = ProgramRun {
            name: name.to_string(),
            fault: None,
            millis: outcome.millis,
            printed,
        };
        let file = f1::result_file_name(name);
        match outcome.verdict(circuit) {
            RunVerdict::Judged(_) => {
                let bytes = match &outcome.found {
                    engine::racetrack::program::Found::Bytes(bytes) => bytes.as_slice(),
                    _ => &[],
                };
                let mut lap = JudgedLap::from_bytes(circuit, &file, bytes);
                lap.run = Some(run);
                lap
            }
            RunVerdict::Program(fault) => {
                run.fault = Some(fault);
                JudgedLap {
                    pilot: name.to_string(),
                    file,
                    positions: Vec::new(),
                    written_for: None,
                    verdict: judge::judge_positions(circuit, &[]),
                    run: Some(run),
                }
            }
        }
    }

    /// The fault of the program that ran, if it did something wrong before any lap.
    pub fn program_fault(&self) -> Option<&ProgramFault> {
        self.run.as_ref().and_then(|r| r.fault.as_ref())
    }

    /// The name the page's hooks give the lap (`data-pilot`): the program's for a run, else
    /// line 1 of the file.
    pub fn pilot_name(&self) -> &str {
        self.run.as_ref().map_or(&self.pilot, |r| &r.name)
    }

    /// Whether line 2 names another circuit than `circuit` (a file stem such as `ring`):
    /// compared by file stem, case-insensitively, any DOS or Unix directory dropped, as the CLI
    /// looks the circuit up.
    pub fn written_for_another(&self, circuit: &str) -> bool {
        self.written_for.as_deref().is_some_and(|line| {
            let base = line.trim().rsplit(['/', '\\']).next().unwrap_or("");
            let stem = base.rsplit_once('.').map_or(base, |(stem, _)| stem);
            !stem.is_empty() && !stem.eq_ignore_ascii_case(circuit)
        })
    }

    /// The lap as a result file for `circuit_file` (CRLF, like the original tools), so that a
    /// built-in pilot's lap can be saved and compared with one's own; `None` when the file
    /// could not be read.
    pub fn to_f1(&self, circuit_file: &str) -> Option<String> {
        self.readable().then(|| {
            ResultFile {
                pilot: self.pilot.clone(),
                circuit: circuit_file.to_string(),
                positions: self.positions.clone(),
            }
            .to_text(LineEnding::CrLf)
        })
    }

    /// Whether the file could be read (its verdict is not a syntax fault).
    pub fn readable(&self) -> bool {
        self.program_fault().is_none() && !matches!(self.verdict.fault(), Some(Fault::Syntax(_)))
    }

    /// The number of moves in the file (`positions − 1`), `None` when it could not be read.
    pub fn moves(&self) -> Option<usize> {
        self.readable()
            .then(|| self.positions.len().saturating_sub(1))
    }

    /// The test hooks of the `verdict` element.
    pub fn hooks(&self) -> VerdictHooks {
        if let Some(fault) = self.program_fault() {
            return VerdictHooks {
                valid: false,
                fault: Some(fault.kind()),
                at: fault.line(),
                line: fault.line(),
                time: None,
            };
        }
        match &self.verdict {
            Verdict::Valid(lap) => VerdictHooks {
                valid: true,
                fault: None,
                at: None,
                line: None,
                time: Some(lap.time_shown()),
            },
            Verdict::Invalid(fault) => VerdictHooks {
                valid: false,
                fault: Some(fault.kind().as_str()),
                at: fault.step().or(fault.line()),
                line: fault.line(),
                time: None,
            },
        }
    }

    /// The lap's line in the circuit's results log, dated `date`.
    pub fn log_line(&self, date: &str) -> String {
        if let Some(fault) = self.program_fault() {
            let clean = |s: &str| s.replace(['\t', '\r', '\n'], " ");
            return [
                clean(&self.pilot),
                clean(&self.file),
                fault.kind().to_string(),
                "-".into(),
                "-".into(),
                "-".into(),
                date.to_string(),
            ]
            .join("\t");
        }
        log::line(&self.pilot, &self.file, self.moves(), &self.verdict, date)
    }

    /// The lap as the §5 ranking sees it.
    pub fn outcome(&self) -> LapOutcome {
        if self.program_fault().is_some() {
            return LapOutcome::Invalid;
        }
        match &self.verdict {
            Verdict::Valid(lap) => LapOutcome::Valid {
                time: lap.time,
                speed: lap.speed_kmh,
            },
            Verdict::Invalid(_) => LapOutcome::Invalid,
        }
    }

    /// The speed of each move `1..=n`, in km/h (a move lasts one second).
    pub fn speeds(&self) -> Vec<f64> {
        self.positions
            .windows(2)
            .map(|w| physics::speed_kmh(CELL_METRES * physics::move_length(w[0], w[1]), 1.0))
            .collect()
    }

    /// The number of moves the replay shows: all of them (a faulty move included, so it can
    /// be seen).
    pub fn replay_moves(&self) -> usize {
        self.positions.len().saturating_sub(1)
    }

    /// Where the car is after move `step` (it stays at its last position once the file ends).
    pub fn position_at(&self, step: usize) -> Option<Pos> {
        let last = self.positions.len().checked_sub(1)?;
        Some(self.positions[step.min(last)])
    }

    /// The fault's move `k` (`p_{k−1} → p_k`), for highlighting, when it is a real move.
    pub fn fault_move(&self) -> Option<usize> {
        if self.program_fault().is_some() {
            return None;
        }
        match self.verdict.fault()? {
            Fault::Syntax(_) | Fault::Start { .. } => None,
            fault => fault.step().filter(|&k| k >= 1 && k < self.positions.len()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::racetrack::pilot::Pilot;
    use engine::racetrack::samples;

    fn ring() -> Circuit {
        Circuit::parse(samples::by_name("ring").unwrap().text.as_bytes()).unwrap()
    }

    fn optimal_f1(circuit: &Circuit) -> String {
        Pilot::Optimal
            .fly(circuit)
            .unwrap()
            .to_f1("Fangio", "RING.CIR")
    }

    #[test]
    fn a_valid_file_shows_time_and_no_fault() {
        let c = ring();
        let lap = JudgedLap::from_bytes(&c, "fangio.f1", optimal_f1(&c).as_bytes());
        let hooks = lap.hooks();
        assert!(hooks.valid);
        assert_eq!((hooks.fault, hooks.at), (None, None));
        let time = lap.verdict.lap().unwrap().time;
        assert_eq!(hooks.time, Some(format!("{time:.2}")));
        assert_eq!(lap.pilot, "Fangio");
        assert!(!lap.written_for_another("ring"));
        assert!(lap.written_for_another("street"));
        assert_eq!(lap.moves(), Some(lap.positions.len() - 1));
        assert_eq!(lap.speeds().len(), lap.positions.len() - 1);
        assert!(lap.log_line("d").starts_with("Fangio\tfangio.f1\tvalid\t"));
        assert!(lap.outcome().is_valid());
        let saved = lap.to_f1("RING.CIR").unwrap();
        let again = JudgedLap::from_bytes(&c, "again.f1", saved.as_bytes());
        assert_eq!(again.positions, lap.positions);
        assert_eq!(again.verdict, lap.verdict);
    }

    #[test]
    fn a_syntax_error_names_its_line_and_keeps_the_pilot() {
        let c = ring();
        let mut text = optimal_f1(&c);
        text.push_str("oops\r\n");
        let lap = JudgedLap::from_bytes(&c, "x.f1", text.as_bytes());
        let hooks = lap.hooks();
        assert_eq!(hooks.fault, Some("syntax"));
        let lines = text.lines().count();
        assert_eq!(hooks.at, Some(lines));
        assert_eq!(hooks.line, Some(lines));
        assert_eq!(lap.pilot, "Fangio");
        assert_eq!(lap.moves(), None);
        assert_eq!(lap.fault_move(), None);
        assert_eq!(lap.to_f1("RING.CIR"), None);
        assert!(lap.log_line("d").contains("\tsyntax at line"));
    }

    #[test]
    fn a_short_file_did_not_finish_at_its_last_move() {
        let c = ring();
        let text = optimal_f1(&c);
        let cut: Vec<&str> = text.lines().collect();
        let cut = cut[..cut.len() - 1].join("\n");
        let lap = JudgedLap::from_bytes(&c, "x.f1", cut.as_bytes());
        let hooks = lap.hooks();
        assert_eq!(hooks.fault, Some("did_not_finish"));
        assert_eq!(hooks.at, Some(lap.positions.len() - 1));
        assert_eq!(hooks.line, None);
        assert_eq!(lap.fault_move(), Some(lap.positions.len() - 1));
        assert_eq!(hooks.time, None);
    }

    #[test]
    fn positions_past_the_end_stay_at_the_last_one() {
        let c = ring();
        let positions = Pilot::Demo.fly(&c).unwrap().positions().to_vec();
        let lap = JudgedLap::from_positions(&c, "demo", positions.clone());
        assert!(lap.verdict.is_valid());
        assert_eq!(lap.file, "demo.F1");
        assert!(!lap.written_for_another("anything"));
        assert_eq!(lap.position_at(0), Some(positions[0]));
        assert_eq!(lap.position_at(usize::MAX), positions.last().copied());
        let empty = JudgedLap::from_bytes(&c, "e.f1", b"");
        assert_eq!(empty.position_at(3), None);
    }
}
