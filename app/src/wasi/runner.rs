//! The page's side of a pilot run: a worker per run, its clock (the worker is terminated at the
//! time limit), and the run's outcome, which [`PilotOutcome::verdict`] judges with the engine's
//! [`program::verdict`] — the precedence the CLI applies to the same run natively.
//!
//! ```ignore
//! let handle = app::wasi::run_pilot(spec, Callback::from(|event| match event {
//!     PilotEvent::Started => { /* its clock runs */ }
//!     PilotEvent::Refused(why) => { /* not a WASI command: nothing ran */ }
//!     PilotEvent::Finished(outcome) => { let verdict = outcome.verdict(&circuit); }
//! }));
//! // Keep `handle` while the run matters: dropping it terminates the worker.
//! ```

use engine::racetrack::Circuit;
use engine::racetrack::program::{
    self, DEFAULT_MEMORY_LIMIT_MIB, DEFAULT_TIME_LIMIT_SECS, Found, RunVerdict, Stop,
};
use yew::Callback;

#[cfg(target_arch = "wasm32")]
use std::{cell::RefCell, rc::Rc};

#[cfg(target_arch = "wasm32")]
use super::protocol::Report;
use super::protocol::{Ended, Ending, Job, Mode};

/// How a pilot may use the machine (the contest's defaults: 120 s, 10 MiB).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PilotLimits {
    pub time_secs: f64,
    pub memory_bytes: u64,
}

impl Default for PilotLimits {
    fn default() -> PilotLimits {
        PilotLimits {
            time_secs: DEFAULT_TIME_LIMIT_SECS,
            memory_bytes: (DEFAULT_MEMORY_LIMIT_MIB * f64::from(1 << 20)) as u64,
        }
    }
}

/// One run of a pilot program on a circuit.
#[derive(Clone, Debug, PartialEq)]
pub struct PilotSpec {
    /// The module's file name (`vmax3.wasm`): its stem names the pilot and its result file.
    pub file_name: String,
    pub module: Vec<u8>,
    /// The circuit's file name as the pilot sees it (one plain name, `ring.cir`).
    pub circuit_name: String,
    pub circuit: Vec<u8>,
    pub limits: PilotLimits,
    /// The seed of its `random_get` (the CLI's `--seed`; 0 by default there too).
    pub seed: u64,
}

/// What a run produced: give it to [`PilotOutcome::verdict`].
#[derive(Clone, Debug, PartialEq)]
pub struct PilotOutcome {
    pub stop: Stop,
    pub found: Found,
    /// What it printed (standard output and error), as much as was kept.
    pub log: Vec<u8>,
    pub log_dropped: u64,
    /// Wall time of the run, in milliseconds.
    pub millis: f64,
}

impl PilotOutcome {
    /// The verdict, by the engine's rules (as `quadrille pilot --json` gives it).
    pub fn verdict(&self, circuit: &Circuit) -> RunVerdict {
        program::verdict(circuit, &self.stop, &self.found)
    }

    /// How the browser host's ending reads as a stop (as the native host reads its own).
    pub fn from_ending(ending: Ending, limits: PilotLimits) -> PilotOutcome {
        let stop = match ending.ended {
            Ended::Exited(_) => Stop::Exited,
            Ended::Trapped(message) => Stop::Crashed {
                message: program::crash_message(message, &ending.log),
            },
            Ended::BrokeRule(rule) => Stop::Crashed {
                message: format!("stopped by its sandbox: {rule}"),
            },
            Ended::OutOfMemory => Stop::OutOfMemory {
                limit_bytes: limits.memory_bytes,
                used_bytes: None,
            },
        };
        PilotOutcome {
            stop,
            found: ending.found,
            log: ending.log,
            log_dropped: ending.log_dropped,
            millis: ending.millis,
        }
    }
}

/// What a run says, in order: `Started` (unless refused), then one `Finished` or `Refused`.
#[derive(Clone, Debug, PartialEq)]
pub enum PilotEvent {
    /// The module is a WASI command and runs: its time limit counts from here.
    Started,
    /// Not a module, or not a WASI command: nothing ran (the reason, as the CLI words it).
    Refused(String),
    Finished(PilotOutcome),
}

/// A running (or finished) pilot. Dropping it terminates the worker.
pub struct PilotHandle {
    #[cfg(target_arch = "wasm32")]
    state: Rc<RefCell<RunState>>,
}

#[cfg(target_arch = "wasm32")]
#[derive(Default)]
struct RunState {
    worker: Option<spawn::Spawned>,
    timer: Option<gloo_timers::callback::Timeout>,
    done: bool,
}

#[cfg(target_arch = "wasm32")]
impl Drop for PilotHandle {
    fn drop(&mut self) {
        if let Ok(mut state) = self.state.try_borrow_mut() {
            state.timer = None;
            if let Some(worker) = &state.worker {
                worker.terminate();
            }
        }
    }
}

/// Runs `spec` in a worker of its own; `on_event` hears how it goes.
pub fn run_pilot(spec: PilotSpec, on_event: Callback<PilotEvent>) -> PilotHandle {
    let job = Job {
        file_name: spec.file_name.clone(),
        memory_bytes: spec.limits.memory_bytes,
        seed: spec.seed,
        mode: Mode::Pilot {
            circuit_name: spec.circuit_name.clone(),
        },
    };
    #[cfg(target_arch = "wasm32")]
    {
        let state: Rc<RefCell<RunState>> = Rc::default();
        let weak = Rc::downgrade(&state);
        let limits = spec.limits;
        let hear = on_event.clone();
        let on_report = move |report: Report| {
            let on_event = &hear;
            let Some(state) = weak.upgrade() else {
                return;
            };
            if state.borrow().done {
                return;
            }
            let finished = match report {
                Report::Ready | Report::Stdout(_) => return,
                Report::Started => {
                    let (weak, tell) = (Rc::downgrade(&state), on_event.clone());
                    let ms = (limits.time_secs * 1000.0).clamp(0.0, f64::from(u32::MAX)) as u32;
                    let timer = gloo_timers::callback::Timeout::new(ms, move || {
                        let Some(state) = weak.upgrade() else {
                            return;
                        };
                        let mut s = state.borrow_mut();
                        if s.done {
                            return;
                        }
                        s.done = true;
                        if let Some(worker) = &s.worker {
                            worker.terminate();
                        }
                        drop(s);
                        tell.emit(PilotEvent::Finished(PilotOutcome {
                            stop: Stop::TimedOut {
                                limit_secs: limits.time_secs,
                            },
                            found: Found::Missing,
                            log: Vec::new(),
                            log_dropped: 0,
                            millis: limits.time_secs * 1000.0,
                        }));
                    });
                    state.borrow_mut().timer = Some(timer);
                    on_event.emit(PilotEvent::Started);
                    return;
                }
                Report::Refused(why) => PilotEvent::Refused(why),
                Report::Ended(ending) => {
                    PilotEvent::Finished(PilotOutcome::from_ending(ending, limits))
                }
            };
            {
                let mut s = state.borrow_mut();
                s.done = true;
                s.timer = None;
                if let Some(worker) = &s.worker {
                    worker.terminate();
                }
            }
            on_event.emit(finished);
        };
        let extra = js_sys::Uint8Array::from(spec.circuit.as_slice()).into();
        match spawn::spawn(&job, &spec.module, extra, on_report) {
            Ok(worker) => state.borrow_mut().worker = Some(worker),
            Err(why) => {
                state.borrow_mut().done = true;
                on_event.emit(PilotEvent::Refused(why));
            }
        }
        PilotHandle { state }
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = (job, spec);
        on_event.emit(PilotEvent::Refused(
            "WebAssembly pilots run in a browser's web worker".into(),
        ));
        PilotHandle {}
    }
}

/// Starting `wasi_worker.js` and talking to it.
#[cfg(target_arch = "wasm32")]
pub(crate) mod spawn {
    use std::cell::Cell;
    use std::rc::Rc;

    use js_sys::Array;
    use wasm_bindgen::JsCast;
    use wasm_bindgen::prelude::*;
    use web_sys::{Blob, BlobPropertyBag, MessageEvent, Url, Worker};

    use super::super::WORKER_SCRIPT;
    use super::super::protocol::{Job, Report};

    /// A worker and its listener. The listener lives as long as this (dropping it while it
    /// runs would be an error), the worker until [`Spawned::terminate`].
    pub struct Spawned {
        worker: Worker,
        life: Rc<Life>,
        listener: Option<Closure<dyn FnMut(MessageEvent)>>,
    }

    /// Where a worker is in its life. A worker stopped while it still loads its script would
    /// abort that download (a failed request in the page, and a half-fetched script in the
    /// cache), which happens whenever a game ends before a bot's worker is up — a bot that
    /// faults at once, say. So a stop asked for before [`Report::Ready`] is carried out when
    /// the worker reports ready, or fails.
    #[derive(Clone, Copy, PartialEq, Eq)]
    enum Phase {
        Loading,
        /// Still loading, and to be stopped once up.
        LoadingThenStop,
        Up,
        Stopped,
    }

    struct Life(Cell<Phase>);

    impl Life {
        fn stop(&self, worker: &Worker) {
            match self.0.get() {
                Phase::Loading => self.0.set(Phase::LoadingThenStop),
                Phase::Up => {
                    self.0.set(Phase::Stopped);
                    worker.terminate();
                }
                Phase::LoadingThenStop | Phase::Stopped => {}
            }
        }

        /// The worker is up (or will never be): carries out a stop asked for meanwhile.
        /// Whether the worker is stopped.
        fn up(&self, worker: &Worker) -> bool {
            match self.0.get() {
                Phase::Loading => self.0.set(Phase::Up),
                Phase::LoadingThenStop => {
                    self.0.set(Phase::Stopped);
                    worker.terminate();
                }
                Phase::Up | Phase::Stopped => {}
            }
            self.0.get() == Phase::Stopped
        }

        fn loading(&self) -> bool {
            matches!(self.0.get(), Phase::Loading | Phase::LoadingThenStop)
        }
    }

    impl Spawned {
        pub fn terminate(&self) {
            self.life.stop(&self.worker);
        }
    }

    impl Drop for Spawned {
        fn drop(&mut self) {
            self.life.stop(&self.worker);
            if self.life.loading() {
                // The listener must outlive this to hear the worker come up and stop it:
                // a few bytes kept for each worker dropped while loading.
                if let Some(listener) = self.listener.take() {
                    listener.forget();
                }
            }
        }
    }

    /// Starts a worker and gives it `job`, `module` and `extra` once it is ready.
    pub fn spawn(
        job: &Job,
        module: &[u8],
        extra: JsValue,
        on_report: impl FnMut(Report) + 'static,
    ) -> Result<Spawned, String> {
        let on_report: std::rc::Rc<std::cell::RefCell<dyn FnMut(Report)>> =
            std::rc::Rc::new(std::cell::RefCell::new(on_report));
        let cannot = |e: JsValue| format!("cannot start a web worker: {e:?}");
        let href = web_sys::window()
            .and_then(|w| w.location().href().ok())
            .ok_or("no page to start a worker from")?;
        let script = Url::new_with_base(WORKER_SCRIPT, &href)
            .map_err(cannot)?
            .to_string();
        let wasm = String::from(script.clone()).replace(".js", "_bg.wasm");
        let loader =
            Array::of1(&format!("importScripts({script:?});wasm_bindgen({wasm:?});").into());
        let options = BlobPropertyBag::new();
        options.set_type("application/javascript");
        let blob = Blob::new_with_str_sequence_and_options(&loader, &options).map_err(cannot)?;
        let url = Url::create_object_url_with_blob(&blob).map_err(cannot)?;
        let worker = Worker::new(&url).map_err(cannot)?;
        let message = Array::of3(
            &serde_json::to_string(job).unwrap_or_default().into(),
            &js_sys::Uint8Array::from(module).into(),
            &extra,
        );
        let mut pending = Some(message);
        let sender = worker.clone();
        let hear = on_report.clone();
        let life = Rc::new(Life(Cell::new(Phase::Loading)));
        let listening = life.clone();
        let listener = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            let Some(report) = event
                .data()
                .as_string()
                .and_then(|t| serde_json::from_str::<Report>(&t).ok())
            else {
                return;
            };
            if report == Report::Ready {
                if listening.up(&sender) {
                    return;
                }
                if let Some(message) = pending.take() {
                    let _ = sender.post_message(&message);
                }
            }
            if let Ok(mut hear) = hear.try_borrow_mut() {
                hear(report);
            }
        });
        worker.set_onmessage(Some(listener.as_ref().unchecked_ref()));
        // A worker that cannot load (or whose host code fails) would otherwise never answer.
        let failing = life.clone();
        let failed = worker.clone();
        let onerror =
            Closure::<dyn FnMut(web_sys::ErrorEvent)>::new(move |e: web_sys::ErrorEvent| {
                if failing.up(&failed) {
                    return;
                }
                if let Ok(mut hear) = on_report.try_borrow_mut() {
                    hear(Report::Refused(format!(
                        "the worker failed: {}",
                        e.message()
                    )));
                }
            });
        worker.set_onerror(Some(onerror.as_ref().unchecked_ref()));
        onerror.forget();
        Ok(Spawned {
            worker,
            life,
            listener: Some(listener),
        })
    }
}
