//! The Racetrack worker: drives laps and judges result files off the page's thread, so painting
//! a circuit never waits for a solver.
//!
//! Every request carries a [`RequestId`] chosen by the page. Requests that arrive while the
//! worker is busy are queued; before running anything the worker drops each request that a
//! newer one of the same kind has superseded, or that the page explicitly cancelled, and answers
//! it with [`Response::Cancelled`]. The page, in turn, ignores answers to ids it no longer
//! waits for. Together this keeps the par time of the editor fresh while the user paints.

use engine::racetrack::pilot::{Lap, Pilot};
use engine::racetrack::{Circuit, Verdict, judge};
use serde::{Deserialize, Serialize};

/// The page's name for a request, echoed in its answer. Ids only grow.
pub type RequestId = u64;

/// What the page asks of the worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Request {
    /// Drive one lap of `circuit` (the `.cir` text) with `pilot`.
    Solve {
        id: RequestId,
        circuit: String,
        pilot: Pilot,
    },
    /// Judge result files (`.f1` bytes, by file name) on `circuit` (the `.cir` text).
    Judge {
        id: RequestId,
        circuit: String,
        files: Vec<NamedFile>,
    },
    /// Forget request `id` if it has not started.
    Cancel { id: RequestId },
}

impl Request {
    /// The id of the request this message is about.
    pub fn id(&self) -> RequestId {
        match *self {
            Request::Solve { id, .. } | Request::Judge { id, .. } | Request::Cancel { id } => id,
        }
    }

    /// Whether a newer `other` makes this request pointless: a newer request of the same kind
    /// (the page only ever wants the latest par time, or the latest judging), or a cancellation
    /// of this very id.
    pub fn superseded_by(&self, other: &Request) -> bool {
        match (self, other) {
            (Request::Solve { id, .. }, Request::Solve { id: newer, .. })
            | (Request::Judge { id, .. }, Request::Judge { id: newer, .. }) => newer > id,
            (_, Request::Cancel { id }) => *id == self.id(),
            _ => false,
        }
    }
}

/// A file handed to the worker: its name and bytes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NamedFile {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// What the worker answers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Response {
    /// The lap a pilot drove, or why there is none (the circuit does not parse, no lap exists),
    /// and how long the worker took, in milliseconds (0 where no clock is available).
    Solved {
        id: RequestId,
        outcome: Result<Lap, String>,
        millis: f64,
    },
    /// One verdict per file, in the order given.
    Judged {
        id: RequestId,
        circuit_error: Option<String>,
        verdicts: Vec<JudgedFile>,
    },
    /// The request was superseded or cancelled before it ran.
    Cancelled { id: RequestId },
}

impl Response {
    /// The id of the request answered.
    pub fn id(&self) -> RequestId {
        match *self {
            Response::Solved { id, .. }
            | Response::Judged { id, .. }
            | Response::Cancelled { id } => id,
        }
    }
}

/// The judge's verdict on one file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JudgedFile {
    pub name: String,
    /// `Ok` with the lap's figures, `Err` with the first fault in the spec's words.
    pub verdict: Result<judge::ValidLap, String>,
}

/// Runs one request to completion, reading the time with `clock` (milliseconds). `Cancel` has
/// nothing to run and answers `Cancelled`.
pub fn handle(request: Request, clock: impl Fn() -> f64) -> Response {
    match request {
        Request::Solve { id, circuit, pilot } => {
            let start = clock();
            let outcome = Circuit::parse(circuit.as_bytes())
                .map_err(|e| format!("the circuit cannot be read: {e}"))
                .and_then(|c| pilot.fly(&c).map_err(|e| e.to_string()));
            let millis = clock() - start;
            Response::Solved {
                id,
                outcome,
                millis,
            }
        }
        Request::Judge { id, circuit, files } => match Circuit::parse(circuit.as_bytes()) {
            Ok(c) => Response::Judged {
                id,
                circuit_error: None,
                verdicts: files
                    .into_iter()
                    .map(|file| JudgedFile {
                        verdict: match judge::judge_bytes(&c, &file.bytes) {
                            Verdict::Valid(lap) => Ok(lap),
                            Verdict::Invalid(fault) => Err(fault.to_string()),
                        },
                        name: file.name,
                    })
                    .collect(),
            },
            Err(e) => Response::Judged {
                id,
                circuit_error: Some(format!("the circuit cannot be read: {e}")),
                verdicts: Vec::new(),
            },
        },
        Request::Cancel { id } => Response::Cancelled { id },
    }
}

/// Requests waiting while the worker is busy, with the sender's handle `H`.
#[derive(Debug)]
pub struct Queue<H> {
    waiting: Vec<(H, Request)>,
}

impl<H> Default for Queue<H> {
    fn default() -> Self {
        Queue {
            waiting: Vec::new(),
        }
    }
}

/// What to do with one queued request.
#[derive(Debug, PartialEq)]
pub enum Next {
    /// Run it.
    Run(Request),
    /// Answer `Cancelled` without running it.
    Drop(RequestId),
}

impl<H: Clone + PartialEq> Queue<H> {
    /// Queues a request from `sender`.
    pub fn push(&mut self, sender: H, request: Request) {
        self.waiting.push((sender, request));
    }

    /// Whether nothing waits.
    pub fn is_empty(&self) -> bool {
        self.waiting.is_empty()
    }

    /// Takes every waiting request in arrival order, deciding for each whether it still needs
    /// running: a request superseded by a later one from the same sender is dropped, and a
    /// `Cancel` itself is never run (nor answered: the cancelled request is).
    pub fn drain(&mut self) -> Vec<(H, Next)> {
        let waiting = std::mem::take(&mut self.waiting);
        waiting
            .iter()
            .enumerate()
            .filter(|(_, (_, request))| !matches!(request, Request::Cancel { .. }))
            .map(|(i, (sender, request))| {
                let stale = waiting[i + 1..]
                    .iter()
                    .any(|(s, later)| s == sender && request.superseded_by(later));
                let next = if stale {
                    Next::Drop(request.id())
                } else {
                    Next::Run(request.clone())
                };
                (sender.clone(), next)
            })
            .collect()
    }
}

pub use self::agent::RacetrackWorker;

/// The gloo worker itself (it runs only in a browser, but builds everywhere).
mod agent {
    use gloo_worker::{HandlerId, Worker, WorkerScope};
    use wasm_bindgen::JsCast;
    use wasm_bindgen::closure::Closure;

    use super::{Next, Queue, Request, Response, handle};

    /// The worker: queues what arrives and drains the queue on the next task, so that requests
    /// posted while it was solving are seen together and stale ones are skipped.
    pub struct RacetrackWorker {
        queue: Queue<HandlerId>,
        drain_scheduled: bool,
    }

    /// The worker's only internal message: time to run what is queued.
    pub struct Drain;

    /// The worker's clock, in milliseconds.
    fn now() -> f64 {
        js_sys::global()
            .dyn_into::<web_sys::WorkerGlobalScope>()
            .ok()
            .and_then(|g| g.performance())
            .map_or(0.0, |p| p.now())
    }

    impl Worker for RacetrackWorker {
        type Message = Drain;
        type Input = Request;
        type Output = Response;

        fn create(_scope: &WorkerScope<Self>) -> Self {
            RacetrackWorker {
                queue: Queue::default(),
                drain_scheduled: false,
            }
        }

        fn update(&mut self, scope: &WorkerScope<Self>, _msg: Drain) {
            self.drain_scheduled = false;
            for (sender, next) in self.queue.drain() {
                let response = match next {
                    Next::Run(request) => handle(request, now),
                    Next::Drop(id) => Response::Cancelled { id },
                };
                scope.respond(sender, response);
            }
        }

        fn received(&mut self, scope: &WorkerScope<Self>, msg: Request, id: HandlerId) {
            self.queue.push(id, msg);
            if !self.drain_scheduled {
                self.drain_scheduled = true;
                // A timer task runs after the messages already posted to this worker.
                let scope = scope.clone();
                let later = Closure::once_into_js(move || scope.send_message(Drain));
                let global = js_sys::global().unchecked_into::<web_sys::WorkerGlobalScope>();
                if global
                    .set_timeout_with_callback_and_timeout_and_arguments_0(later.unchecked_ref(), 0)
                    .is_err()
                {
                    self.drain_scheduled = false;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::racetrack::samples;

    fn solve(id: RequestId, name: &str) -> Request {
        Request::Solve {
            id,
            circuit: samples::by_name(name).unwrap().text.to_owned(),
            pilot: Pilot::Optimal,
        }
    }

    #[test]
    fn solves_a_sample_and_reports_errors() {
        let Response::Solved { id, outcome, .. } = handle(solve(7, "ring"), || 0.0) else {
            panic!("not solved");
        };
        assert_eq!(id, 7);
        let lap = outcome.unwrap();
        assert_eq!(lap.positions()[0], engine::racetrack::Pos::new(40, 4));
        let seconds = lap.time().seconds();
        assert!(seconds > 0.0 && seconds <= lap.moves() as f64);
        let Response::Solved { outcome, .. } = handle(
            Request::Solve {
                id: 8,
                circuit: "no".into(),
                pilot: Pilot::Demo,
            },
            || 0.0,
        ) else {
            panic!("not solved");
        };
        assert!(outcome.unwrap_err().contains("cannot be read"));
    }

    #[test]
    fn judges_files_in_order() {
        let ring = samples::by_name("ring").unwrap().text;
        let lap = Pilot::Optimal
            .fly(&Circuit::parse(ring.as_bytes()).unwrap())
            .unwrap();
        let good = lap.to_f1("optimal", "ring.cir").into_bytes();
        let Response::Judged { verdicts, .. } = handle(
            Request::Judge {
                id: 1,
                circuit: ring.to_owned(),
                files: vec![
                    NamedFile {
                        name: "good.f1".into(),
                        bytes: good,
                    },
                    NamedFile {
                        name: "bad.f1".into(),
                        bytes: b"x\r\nring.cir\r\n41,4\r\n".to_vec(),
                    },
                ],
            },
            || 0.0,
        ) else {
            panic!("not judged");
        };
        assert_eq!(verdicts[0].name, "good.f1");
        let judged = verdicts[0].verdict.as_ref().unwrap();
        assert!((judged.time - lap.time().seconds()).abs() < 1e-9);
        assert!(verdicts[1].verdict.is_err());
    }

    #[test]
    fn stale_and_cancelled_requests_are_dropped() {
        let mut queue = Queue::default();
        queue.push(1, solve(1, "ring"));
        queue.push(2, solve(2, "ring")); // another page: not superseded by sender 1
        queue.push(1, solve(3, "ring"));
        queue.push(1, Request::Cancel { id: 3 });
        queue.push(1, solve(4, "ring"));
        let decided: Vec<_> = queue
            .drain()
            .into_iter()
            .map(|(sender, next)| {
                let id = match &next {
                    Next::Run(r) => r.id(),
                    Next::Drop(id) => *id,
                };
                (sender, id, matches!(next, Next::Run(_)))
            })
            .collect();
        assert_eq!(
            decided,
            vec![(1, 1, false), (2, 2, true), (1, 3, false), (1, 4, true)]
        );
        assert!(queue.is_empty());
    }
}
