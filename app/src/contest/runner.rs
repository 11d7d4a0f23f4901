//! Running one pilot on one circuit for the contest, whatever the pilot is: "run this, tell me
//! what came out" ([`Runners::start`] → [`RunOutput`]). Built-in pilots fly in a Racetrack
//! worker (`crate::workers::racetrack`), one per slot so that slots run in parallel; pilot
//! programs run in a WASI worker of their own ([`wasm`]).
//!
//! Native builds (unit tests of the app lib) have no workers: a built-in pilot's lap is flown
//! on the spot, by the same function the worker runs.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use engine::racetrack::contest::LapKey;
use yew::Callback;

use super::session::{PilotChoice, RunOutput, RunStart};
use crate::workers::racetrack::{Request, RequestId, Response};

/// Where trunk puts the Racetrack worker's script, relative to the page.
pub const WORKER_SCRIPT: &str = crate::lab::worker::WORKER_SCRIPT;

/// The hosts of one contest's runs; dropping it stops every worker.
pub struct Runners {
    #[cfg(target_arch = "wasm32")]
    racetrack: Vec<Option<gloo_worker::WorkerBridge<crate::workers::racetrack::RacetrackWorker>>>,
    /// Program runs going on, by slot (dropping one stops its worker).
    programs: HashMap<usize, wasm::Run>,
    /// Built-in requests waiting for their answer.
    waiting: Rc<RefCell<HashMap<RequestId, LapKey>>>,
    next_id: RequestId,
    done: Callback<(LapKey, RunOutput)>,
}

impl Runners {
    /// Hosts for `slots` runs at once; `done` receives every run's output.
    pub fn new(slots: usize, done: Callback<(LapKey, RunOutput)>) -> Runners {
        #[cfg(not(target_arch = "wasm32"))]
        let _ = slots;
        Runners {
            #[cfg(target_arch = "wasm32")]
            racetrack: (0..slots).map(|_| None).collect(),
            programs: HashMap::new(),
            waiting: Rc::default(),
            next_id: 1,
            done,
        }
    }

    /// Starts a run on its slot.
    pub fn start(&mut self, start: RunStart) {
        match &start.pilot {
            PilotChoice::Builtin(pilot) => {
                let id = self.next_id;
                self.next_id += 1;
                self.waiting.borrow_mut().insert(id, start.key);
                let request = Request::Solve {
                    id,
                    circuit: String::from_utf8_lossy(&start.circuit.bytes).into_owned(),
                    pilot: *pilot,
                };
                self.send(start.slot, request);
            }
            PilotChoice::Wasm { .. } => {
                let (key, slot, done) = (start.key, start.slot, self.done.clone());
                let run =
                    wasm::Run::start(&start, Callback::from(move |out| done.emit((key, out))));
                self.programs.insert(slot, run);
            }
        }
    }

    #[cfg(target_arch = "wasm32")]
    fn send(&mut self, slot: usize, request: Request) {
        use gloo_worker::Spawnable;
        let Some(place) = self.racetrack.get_mut(slot) else {
            return;
        };
        let bridge = place.get_or_insert_with(|| {
            let (waiting, done) = (self.waiting.clone(), self.done.clone());
            crate::workers::racetrack::RacetrackWorker::spawner()
                .callback(move |response| answer(&waiting, &done, response))
                .spawn(WORKER_SCRIPT)
        });
        bridge.send(request);
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn send(&mut self, _slot: usize, request: Request) {
        let response = crate::workers::racetrack::handle(request, || 0.0);
        answer(&self.waiting, &self.done, response);
    }
}

/// Hands a built-in pilot's answer on as the run's output.
fn answer(
    waiting: &RefCell<HashMap<RequestId, LapKey>>,
    done: &Callback<(LapKey, RunOutput)>,
    response: Response,
) {
    let Some(key) = waiting.borrow_mut().remove(&response.id()) else {
        return;
    };
    let output = match response {
        Response::Solved { outcome, .. } => {
            RunOutput::Flown(outcome.map(|lap| lap.positions().to_vec()))
        }
        // The contest never cancels nor asks for judging: an answer of another kind means the
        // worker lost the request, which the pilot did not cause.
        Response::Cancelled { .. } | Response::Judged { .. } => {
            RunOutput::Flown(Err("the worker dropped the run".into()))
        }
    };
    done.emit((key, output));
}

/// WASI pilot programs in the browser, each in a worker of its own ([`crate::wasi`]): the same
/// runner as the pilot lab's, under the plan's limits and seed.
pub mod wasm {
    use engine::racetrack::program::{Found, Stop};
    use yew::Callback;

    use crate::contest::session::{PilotChoice, RunOutput, RunStart};
    use crate::wasi::{PilotEvent, PilotHandle, PilotLimits, PilotSpec, run_pilot};

    /// A program running in its worker; dropping it stops the worker.
    pub struct Run {
        _handle: Option<PilotHandle>,
    }

    impl Run {
        /// Starts the program of `start` on its circuit; `done` gets how it ended. A module
        /// that is not a WASI command ran nothing: it crashed, in the contest's words.
        pub fn start(start: &RunStart, done: Callback<RunOutput>) -> Run {
            let PilotChoice::Wasm { file, bytes } = &start.pilot else {
                return Run { _handle: None };
            };
            let spec = PilotSpec {
                file_name: file.clone(),
                module: bytes.to_vec(),
                circuit_name: start.circuit.name.clone(),
                circuit: start.circuit.bytes.to_vec(),
                limits: PilotLimits {
                    time_secs: start.limits.time_secs,
                    // As `quadrille contest` reads `memory_limit_mb`.
                    memory_bytes: (start.limits.memory_mib * 1024.0 * 1024.0) as u64,
                },
                seed: start.seed,
            };
            let handle = run_pilot(
                spec,
                Callback::from(move |event| match event {
                    PilotEvent::Started => {}
                    PilotEvent::Refused(message) => done.emit(RunOutput::Program {
                        stop: Stop::Crashed { message },
                        found: Found::Missing,
                    }),
                    PilotEvent::Finished(outcome) => done.emit(RunOutput::Program {
                        stop: outcome.stop,
                        found: outcome.found,
                    }),
                }),
            );
            Run {
                _handle: Some(handle),
            }
        }
    }
}
