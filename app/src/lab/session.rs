//! The pilot lab's controller, free of browser types: the circuit, the laps loaded (from result
//! files, pasted text, built-in pilots — any source that ends in a [`JudgedLap`]), the replay,
//! the results log and the canvas' view. Inputs go in with the date (`now`, for the log), state
//! changes and [`Effect`]s come out; the page (`pages::pilots`) carries them out and draws.

use std::collections::HashMap;
use std::rc::Rc;

use engine::racetrack::Circuit;
use engine::racetrack::f1;
use engine::racetrack::pilot::Pilot;
use engine::racetrack::samples::SAMPLES;

use super::lap::JudgedLap;
use super::replay::Replay;
use super::results::ResultsLog;
use crate::gesture::{Gesture, PanStart, Pointer, WheelInput};
use crate::workers::racetrack::{RequestId, Response};
use crate::zoom::{Stage, View};

/// The closest zoom of the lab's canvas, in CSS pixels per cell.
pub const CLOSEST: f64 = 24.0;

/// Where a circuit came from, for the picker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    Sample,
    Editor,
    File,
}

/// The circuit laps are judged on.
#[derive(Clone, Debug, PartialEq)]
pub struct Track {
    /// The file stem: names the log (`ring` → `ring.log`).
    pub name: String,
    pub source: Source,
    /// The `.cir` text, sent to the worker.
    pub text: String,
    pub circuit: Rc<Circuit>,
}

impl Track {
    /// A track read from a `.cir` file (or the editor's work) named `file_name`.
    pub fn new(file_name: &str, source: Source, circuit: Circuit) -> Track {
        Track {
            name: stem(file_name),
            source,
            text: circuit.to_text(engine::racetrack::LineEnding::CrLf),
            circuit: Rc::new(circuit),
        }
    }

    /// The sample circuit `name`, if there is one and it can be read.
    pub fn sample(name: &str) -> Option<Track> {
        let sample = SAMPLES.iter().find(|s| s.name == name)?;
        let circuit = Circuit::parse(sample.text.as_bytes()).ok()?;
        Some(Track {
            name: sample.name.to_string(),
            source: Source::Sample,
            text: sample.text.to_string(),
            circuit: Rc::new(circuit),
        })
    }
}

/// `ring.cir` → `ring`; a path part (DOS or Unix) is dropped.
pub fn stem(file_name: &str) -> String {
    let base = file_name.rsplit(['/', '\\']).next().unwrap_or(file_name);
    match base.rsplit_once('.') {
        Some((stem, _)) if !stem.is_empty() => stem.to_string(),
        _ => base.to_string(),
    }
}

/// A lap on the page, with its colour.
#[derive(Clone, Debug, PartialEq)]
pub struct Loaded {
    pub colour: usize,
    pub lap: JudgedLap,
}

/// What the lab asks of the page.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// Ask the worker for `pilot`'s lap of the circuit whose `.cir` text is `circuit`.
    Fly {
        id: RequestId,
        pilot: Pilot,
        circuit: String,
    },
    /// Withdraw request `id` of `pilot`.
    Cancel { id: RequestId, pilot: Pilot },
    /// Store the results log of circuit `circuit` (the session's log).
    SaveLog { circuit: String },
    /// Offer a text file for download.
    Download { name: String, text: String },
}

/// What the page hands the lab.
#[derive(Clone, Debug, PartialEq)]
pub enum Input {
    /// A circuit to judge on, from a sample, the editor or a file.
    Track(Track),
    /// Why the chosen circuit cannot be used.
    CircuitError(String),
    /// A `.cir` file's bytes, by name.
    CirRead {
        name: String,
        bytes: Vec<u8>,
    },
    /// Result files' bytes, by name.
    F1Read(Vec<(String, Vec<u8>)>),
    /// Laps judged elsewhere (any other lap source).
    Laps(Vec<JudgedLap>),
    DragOver(bool),
    PasteInput(String),
    JudgePaste,
    Fly(Pilot),
    Worker(Pilot, Response),
    Focus(usize),
    Remove(usize),
    ClearLaps,
    Back,
    Forward,
    TogglePlay,
    Seek(usize),
    Delay(u32),
    /// The replay clock ticked.
    Tick,
    ExportLog,
    SaveLap,
    ClearLog,
    PointerDown(Pointer),
    PointerMove(Pointer),
    PointerUp(Pointer),
    /// A wheel event over the canvas.
    Wheel(WheelInput),
}

/// The lab's answer to an input.
#[derive(Debug, Default, PartialEq)]
#[must_use]
pub struct Reply {
    /// Whether what the page shows changed.
    pub redraw: bool,
    pub effects: Vec<Effect>,
}

/// The lab's state.
pub struct Lab {
    track: Option<Track>,
    circuit_error: Option<String>,
    laps: Rc<Vec<Loaded>>,
    next_colour: usize,
    focus: Option<usize>,
    replay: Replay,
    log: ResultsLog,
    /// Reads a circuit's stored results log.
    stored_log: fn(&str) -> ResultsLog,
    next_id: RequestId,
    flying: HashMap<Pilot, RequestId>,
    pilot_error: Option<String>,
    paste: String,
    drag_over: bool,
    gesture: Gesture,
    effects: Vec<Effect>,
}

impl Lab {
    /// A lab on the first conforming sample; `stored_log` reads a circuit's results log.
    pub fn new(stored_log: fn(&str) -> ResultsLog) -> Lab {
        let mut lab = Lab {
            track: None,
            circuit_error: None,
            laps: Rc::default(),
            next_colour: 0,
            focus: None,
            replay: Replay::default(),
            log: ResultsLog::default(),
            stored_log,
            next_id: 1,
            flying: HashMap::new(),
            pilot_error: None,
            paste: String::new(),
            drag_over: false,
            gesture: Gesture::new(PanStart::AfterMoving),
            effects: Vec::new(),
        };
        let first = SAMPLES
            .iter()
            .find(|s| s.conforming)
            .and_then(|s| Track::sample(s.name));
        if let Some(track) = first {
            lab.set_track(track);
        }
        lab
    }

    /// Handles one input; `now` is the UTC date and time the log records (`2026-11-29
    /// 22:30:00`).
    pub fn handle(&mut self, input: Input, now: &str) -> Reply {
        let redraw = self.apply(input, now);
        Reply {
            redraw,
            effects: std::mem::take(&mut self.effects),
        }
    }

    /// A key pressed on the replay: answers whether it was the replay's.
    pub fn key(&mut self, key: &str) -> bool {
        match key {
            "ArrowRight" | "Enter" => self.replay.forward(),
            "ArrowLeft" => self.replay.back(),
            " " => self.replay.toggle(),
            "Home" => self.replay.seek(0),
            "End" => self.replay.seek(usize::MAX),
            _ => return false,
        }
        true
    }

    /// Lays the canvas out on a buffer of `width` × `height` at pixel ratio `ratio`.
    pub fn lay_out(&mut self, width: u32, height: u32, ratio: f64) -> bool {
        self.gesture.lay_out(Stage {
            width,
            height,
            ratio,
            cols: Circuit::WIDTH as u32,
            rows: Circuit::HEIGHT as u32,
            closest: CLOSEST,
            farthest: 1.0,
        })
    }

    fn apply(&mut self, input: Input, now: &str) -> bool {
        match input {
            Input::Track(track) => self.set_track(track),
            Input::CircuitError(e) => self.circuit_error = Some(e),
            Input::CirRead { name, bytes } => match Circuit::parse(&bytes) {
                Ok(circuit) => self.set_track(Track::new(&name, Source::File, circuit)),
                Err(e) => self.circuit_error = Some(format!("{name}: {e}")),
            },
            Input::F1Read(files) => {
                self.drag_over = false;
                let Some(track) = &self.track else {
                    return false;
                };
                let circuit = Rc::clone(&track.circuit);
                let laps = files
                    .iter()
                    .map(|(name, bytes)| JudgedLap::from_bytes(&circuit, name, bytes))
                    .collect();
                self.add_laps(laps, now);
            }
            Input::Laps(laps) => self.add_laps(laps, now),
            Input::DragOver(over) => {
                if self.drag_over == over {
                    return false;
                }
                self.drag_over = over;
            }
            Input::PasteInput(text) => {
                self.paste = text;
                return false;
            }
            Input::JudgePaste => {
                let Some(track) = &self.track else {
                    return false;
                };
                if self.paste.trim().is_empty() {
                    return false;
                }
                let lap = JudgedLap::from_bytes(&track.circuit, "pasted.f1", self.paste.as_bytes());
                self.add_laps(vec![lap], now);
            }
            Input::Fly(pilot) => {
                let Some(track) = &self.track else {
                    return false;
                };
                let id = self.next_id;
                self.next_id += 1;
                self.flying.insert(pilot, id);
                self.pilot_error = None;
                self.effects.push(Effect::Fly {
                    id,
                    pilot,
                    circuit: track.text.clone(),
                });
            }
            Input::Worker(pilot, response) => return self.worker_answer(pilot, response, now),
            Input::Focus(i) => {
                if i >= self.laps.len() {
                    return false;
                }
                self.focus = Some(i);
            }
            Input::Remove(i) => {
                if i >= self.laps.len() {
                    return false;
                }
                Rc::make_mut(&mut self.laps).remove(i);
                self.focus = (!self.laps.is_empty()).then(|| self.laps.len() - 1);
                self.reset_replay();
            }
            Input::ClearLaps => {
                Rc::make_mut(&mut self.laps).clear();
                self.focus = None;
                self.reset_replay();
            }
            Input::Back => self.replay.back(),
            Input::Forward | Input::Tick => self.replay.forward(),
            Input::TogglePlay => self.replay.toggle(),
            Input::Seek(step) => self.replay.seek(step),
            Input::Delay(d) => self.replay.set_delay(d),
            Input::ExportLog => {
                if let Some(track) = &self.track {
                    self.effects.push(Effect::Download {
                        name: format!("{}.log", track.name),
                        text: self.log.to_text(),
                    });
                }
                return false;
            }
            Input::SaveLap => {
                if let (Some(track), Some(lap)) = (&self.track, self.focused())
                    && let Some(text) = lap.to_f1(&format!("{}.cir", track.name))
                {
                    self.effects.push(Effect::Download {
                        name: f1::result_file_name(&stem(&lap.file)),
                        text,
                    });
                }
                return false;
            }
            Input::ClearLog => {
                self.log = ResultsLog::default();
                if let Some(track) = &self.track {
                    self.effects.push(Effect::SaveLog {
                        circuit: track.name.clone(),
                    });
                }
            }
            Input::PointerDown(p) => {
                self.gesture.down(p, true);
                return false;
            }
            Input::PointerMove(p) => {
                return self.gesture.moved(p.id, p.at) == crate::gesture::Moved::Changed;
            }
            Input::PointerUp(p) => {
                self.gesture.up(p.id);
                return false;
            }
            Input::Wheel(wheel) => return self.gesture.wheel_input(wheel),
        }
        true
    }

    fn set_track(&mut self, track: Track) {
        self.log = (self.stored_log)(&track.name);
        self.track = Some(track);
        self.circuit_error = None;
        Rc::make_mut(&mut self.laps).clear();
        self.focus = None;
        let mut flying: Vec<_> = self.flying.drain().collect();
        flying.sort_by_key(|&(_, id)| id);
        for (pilot, id) in flying {
            self.effects.push(Effect::Cancel { id, pilot });
        }
        self.pilot_error = None;
        self.replay.reset(0);
        self.gesture.zoom(0);
    }

    fn worker_answer(&mut self, pilot: Pilot, response: Response, now: &str) -> bool {
        if self.flying.get(&pilot) != Some(&response.id()) {
            return false;
        }
        self.flying.remove(&pilot);
        match (response, &self.track) {
            (
                Response::Solved {
                    outcome: Ok(lap), ..
                },
                Some(track),
            ) => {
                let circuit = Rc::clone(&track.circuit);
                let lap = JudgedLap::from_positions(&circuit, pilot.name(), lap.into());
                self.add_laps(vec![lap], now);
            }
            (
                Response::Solved {
                    outcome: Err(e), ..
                },
                _,
            ) => self.pilot_error = Some(format!("{pilot}: {e}")),
            // Superseded by a newer request of ours (which is still awaited), or not ours.
            _ => {}
        }
        true
    }

    /// Adds judged laps: each is logged; the last one is focused and the replay shows it.
    fn add_laps(&mut self, laps: Vec<JudgedLap>, now: &str) {
        let Some(track) = &self.track else { return };
        if laps.is_empty() {
            return;
        }
        let name = track.name.clone();
        for lap in laps {
            self.log.push(lap.log_line(now));
            Rc::make_mut(&mut self.laps).push(Loaded {
                colour: self.next_colour,
                lap,
            });
            self.next_colour += 1;
        }
        self.effects.push(Effect::SaveLog { circuit: name });
        self.focus = Some(self.laps.len() - 1);
        self.reset_replay();
    }

    /// Shows every lap whole; a faulty focused lap is shown at its fault.
    fn reset_replay(&mut self) {
        let last = self
            .laps
            .iter()
            .map(|l| l.lap.replay_moves())
            .max()
            .unwrap_or(0);
        self.replay.reset(last);
        if let Some(k) = self
            .focused()
            .and_then(|l| l.verdict.fault().and_then(|f| f.step()))
        {
            self.replay.seek(k);
        }
    }

    // What the page shows.

    pub fn track(&self) -> Option<&Track> {
        self.track.as_ref()
    }

    pub fn circuit_error(&self) -> Option<&str> {
        self.circuit_error.as_deref()
    }

    pub fn laps(&self) -> &[Loaded] {
        &self.laps
    }

    /// The same laps, shared with the panel that lists them.
    pub fn shared_laps(&self) -> Rc<Vec<Loaded>> {
        Rc::clone(&self.laps)
    }

    /// The index of the focused lap.
    pub fn focus(&self) -> Option<usize> {
        self.focus
    }

    /// The focused lap.
    pub fn focused(&self) -> Option<&JudgedLap> {
        self.focus.and_then(|i| self.laps.get(i)).map(|l| &l.lap)
    }

    pub fn replay(&self) -> Replay {
        self.replay
    }

    pub fn log(&self) -> &ResultsLog {
        &self.log
    }

    /// Whether `pilot` is driving.
    pub fn flying(&self, pilot: Pilot) -> bool {
        self.flying.contains_key(&pilot)
    }

    pub fn pilot_error(&self) -> Option<&str> {
        self.pilot_error.as_deref()
    }

    pub fn drag_over(&self) -> bool {
        self.drag_over
    }

    /// The canvas' view, once laid out.
    pub fn view(&self) -> Option<View> {
        self.gesture.view()
    }

    /// The canvas' cursor: `data-pan` as the style sheet reads it.
    pub fn cursor(&self) -> &'static str {
        match self.gesture.cursor(true) {
            crate::gesture::Cursor::Grabbing => "active",
            _ => "ready",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workers::racetrack::{Request, handle};

    fn no_log(_: &str) -> ResultsLog {
        ResultsLog::default()
    }

    fn ring() -> Track {
        Track::sample("ring").expect("ring is a sample")
    }

    fn optimal_f1(track: &Track) -> Vec<u8> {
        Pilot::Optimal
            .fly(&track.circuit)
            .unwrap()
            .to_f1("Fangio", "RING.CIR")
            .into_bytes()
    }

    fn lab_on_ring() -> Lab {
        let mut lab = Lab::new(no_log);
        let _ = lab.handle(Input::Track(ring()), "d");
        lab
    }

    #[test]
    fn stems_drop_paths_and_extensions() {
        assert_eq!(stem("ring.cir"), "ring");
        assert_eq!(stem("C:\\F1\\RING.CIR"), "RING");
        assert_eq!(stem("a/b/track.v2.cir"), "track.v2");
        assert_eq!(stem(".cir"), ".cir");
        assert_eq!(stem("plain"), "plain");
    }

    #[test]
    fn every_parseable_sample_is_a_track_and_the_first_conforming_one_is_shown() {
        for s in SAMPLES {
            assert_eq!(
                Track::sample(s.name).is_some(),
                Circuit::parse(s.text.as_bytes()).is_ok()
            );
        }
        assert!(Track::sample("nope").is_none());
        let lab = Lab::new(no_log);
        let first = SAMPLES.iter().find(|s| s.conforming).unwrap();
        assert_eq!(lab.track().map(|t| t.name.as_str()), Some(first.name));
    }

    #[test]
    fn files_are_judged_logged_and_focused() {
        let mut lab = lab_on_ring();
        let good = optimal_f1(&ring());
        let reply = lab.handle(
            Input::F1Read(vec![
                ("fangio.f1".into(), good),
                ("typo.f1".into(), b"x\r\nring.cir\r\n4O,4\r\n".to_vec()),
            ]),
            "2026-12-01 21:00:00",
        );
        assert!(reply.redraw);
        assert_eq!(
            reply.effects,
            vec![Effect::SaveLog {
                circuit: "ring".into()
            }]
        );
        assert_eq!(lab.laps().len(), 2);
        assert_eq!(lab.focus(), Some(1));
        assert_eq!(lab.focused().unwrap().hooks().fault, Some("syntax"));
        assert_eq!(lab.log().len(), 2);
        let ranking = lab.log().ranking();
        assert_eq!(ranking[0].entry.pilot, "Fangio");
        assert_eq!(ranking[0].entry.date, "2026-12-01 21:00:00");
        // The valid lap is replayed whole.
        let _ = lab.handle(Input::Focus(0), "d");
        assert!(lab.focused().unwrap().verdict.is_valid());
        let _ = lab.handle(Input::Remove(1), "d");
        assert_eq!(lab.laps().len(), 1);
        assert_eq!(lab.replay().step, lab.replay().last);
        assert!(!lab.handle(Input::Focus(5), "d").redraw);
    }

    #[test]
    fn a_faulty_lap_is_shown_at_its_fault_and_keys_step_the_replay() {
        let mut lab = lab_on_ring();
        let good = String::from_utf8(optimal_f1(&ring())).unwrap();
        let cut: Vec<&str> = good.lines().collect();
        let short = cut[..cut.len() - 1].join("\r\n");
        let _ = lab.handle(Input::PasteInput(short), "d");
        let _ = lab.handle(Input::JudgePaste, "d");
        let lap = lab.focused().unwrap();
        assert_eq!(lap.file, "pasted.f1");
        let fault = lap.verdict.fault().and_then(|f| f.step()).unwrap();
        assert_eq!(lab.replay().step, fault);
        assert!(lab.key("Home"));
        assert_eq!(lab.replay().step, 0);
        assert!(lab.key("ArrowRight"));
        assert_eq!(lab.replay().step, 1);
        assert!(lab.key("End"));
        assert_eq!(lab.replay().step, lab.replay().last);
        assert!(!lab.key("q"));
        // Nothing pasted: nothing judged.
        let _ = lab.handle(Input::PasteInput("  ".into()), "d");
        assert!(!lab.handle(Input::JudgePaste, "d").redraw);
    }

    #[test]
    fn a_pilot_flies_in_the_worker_and_a_new_circuit_cancels_it() {
        let mut lab = lab_on_ring();
        let reply = lab.handle(Input::Fly(Pilot::Demo), "d");
        let [Effect::Fly { id, pilot, circuit }] = reply.effects.as_slice() else {
            panic!("{:?}", reply.effects);
        };
        assert!(lab.flying(Pilot::Demo));
        let answer = handle(
            Request::Solve {
                id: *id,
                circuit: circuit.clone(),
                pilot: *pilot,
            },
            || 0.0,
        );
        // An answer to another request is ignored.
        let stale = Response::Cancelled { id: id + 7 };
        assert!(!lab.handle(Input::Worker(Pilot::Demo, stale), "d").redraw);
        let _ = lab.handle(Input::Worker(Pilot::Demo, answer), "d");
        assert!(!lab.flying(Pilot::Demo));
        let lap = lab.focused().unwrap();
        assert_eq!((lap.pilot.as_str(), lap.file.as_str()), ("demo", "demo.F1"));
        assert!(lap.verdict.is_valid());
        // Saved under the result file name the CLI uses.
        let saved = lab.handle(Input::SaveLap, "d").effects;
        let [Effect::Download { name, text }] = saved.as_slice() else {
            panic!("{saved:?}");
        };
        assert_eq!(name, &f1::result_file_name("demo"));
        assert!(text.starts_with("demo\r\nring.cir\r\n"));

        let flying = lab.handle(Input::Fly(Pilot::Optimal), "d").effects;
        let Effect::Fly { id, .. } = flying[0] else {
            panic!("{flying:?}");
        };
        let street = Track::sample("street").unwrap();
        let reply = lab.handle(Input::Track(street), "d");
        assert_eq!(
            reply.effects,
            vec![Effect::Cancel {
                id,
                pilot: Pilot::Optimal
            }]
        );
        assert!(lab.laps().is_empty());
        assert_eq!(lab.track().unwrap().name, "street");
    }

    #[test]
    fn unreadable_circuits_are_reported_and_the_log_is_per_circuit() {
        fn one_line(circuit: &str) -> ResultsLog {
            let mut log = ResultsLog::default();
            log.push(format!("{circuit}\t-\tvalid\t1\t1.00\t1.0\td"));
            log
        }
        let mut lab = Lab::new(one_line);
        let _ = lab.handle(
            Input::CirRead {
                name: "bad.cir".into(),
                bytes: b"nope".to_vec(),
            },
            "d",
        );
        assert!(lab.circuit_error().unwrap().starts_with("bad.cir: "));
        let _ = lab.handle(
            Input::CirRead {
                name: "C:\\F1\\RING.CIR".into(),
                bytes: ring().text.into_bytes(),
            },
            "d",
        );
        assert_eq!(lab.circuit_error(), None);
        let track = lab.track().unwrap();
        assert_eq!(
            (track.name.as_str(), &track.source),
            ("RING", &Source::File)
        );
        assert_eq!(lab.log().ranking()[0].entry.pilot, "RING");
        let exported = lab.handle(Input::ExportLog, "d").effects;
        assert!(matches!(&exported[..], [Effect::Download { name, .. }] if name == "RING.log"));
        let _ = lab.handle(Input::ClearLog, "d");
        assert!(lab.log().is_empty());
    }

    #[test]
    fn the_canvas_zooms_and_pans_but_never_below_the_fit() {
        let mut lab = lab_on_ring();
        assert!(lab.lay_out(900, 600, 1.0));
        let fit = lab.view().unwrap();
        assert_eq!(fit.scale, 6);
        let wheel = |delta_y| {
            Input::Wheel(WheelInput {
                delta_y,
                mode: 0,
                ctrl: false,
                at: (450.0, 300.0),
            })
        };
        assert!(
            !lab.handle(wheel(120.0), "d").redraw,
            "already the farthest"
        );
        assert!(lab.handle(wheel(-120.0), "d").redraw);
        assert!(lab.view().unwrap().scale > 6);
        let press = |at| Pointer {
            id: 1,
            at,
            button: 0,
            touch: false,
        };
        let _ = lab.handle(Input::PointerDown(press((100.0, 100.0))), "d");
        assert!(
            !lab.handle(Input::PointerMove(press((101.0, 100.0))), "d")
                .redraw
        );
        assert!(
            lab.handle(Input::PointerMove(press((150.0, 100.0))), "d")
                .redraw
        );
        assert_eq!(lab.cursor(), "active");
        let _ = lab.handle(Input::PointerUp(press((150.0, 100.0))), "d");
        assert_eq!(lab.cursor(), "ready");
        // A new circuit is shown whole again.
        let _ = lab.handle(Input::Track(Track::sample("street").unwrap()), "d");
        assert_eq!(lab.view(), Some(fit));
    }
}
