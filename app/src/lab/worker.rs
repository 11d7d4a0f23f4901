//! The lab's line to the Racetrack worker (`crate::workers::racetrack`, shared with the circuit
//! editor): one bridge per built-in pilot, so that asking the demo pilot does not supersede a
//! running optimal search (the worker drops a request superseded by a newer one *from the same
//! bridge*).
//!
//! Native builds (unit tests of the app lib) have no workers: there a request is answered on the
//! spot, by the same function the worker runs.

use engine::racetrack::pilot::Pilot;
use yew::Callback;

use crate::workers::racetrack::{Request, RequestId, Response};

/// Where trunk puts the worker's script, relative to the page.
pub const WORKER_SCRIPT: &str = "racetrack_worker.js";

/// Bridges to the worker, one per pilot.
pub struct PilotRunner {
    #[cfg(target_arch = "wasm32")]
    bridges: Vec<(
        Pilot,
        gloo_worker::WorkerBridge<crate::workers::racetrack::RacetrackWorker>,
    )>,
    #[cfg(not(target_arch = "wasm32"))]
    answer: Callback<(Pilot, Response)>,
}

impl PilotRunner {
    /// Spawns the worker; `answer` receives every response with the pilot it came for.
    pub fn new(answer: Callback<(Pilot, Response)>) -> PilotRunner {
        #[cfg(target_arch = "wasm32")]
        {
            use gloo_worker::Spawnable;
            let main = crate::workers::racetrack::RacetrackWorker::spawner().spawn(WORKER_SCRIPT);
            let bridges = Pilot::ALL
                .into_iter()
                .map(|pilot| {
                    let answer = answer.clone();
                    (pilot, main.fork(Some(move |r| answer.emit((pilot, r)))))
                })
                .collect();
            PilotRunner { bridges }
        }
        #[cfg(not(target_arch = "wasm32"))]
        PilotRunner { answer }
    }

    /// Withdraws request `id` of `pilot` (the circuit changed): dropped if it has not started;
    /// a search already running finishes and its answer is ignored by the page.
    pub fn cancel(&self, id: RequestId, pilot: Pilot) {
        #[cfg(target_arch = "wasm32")]
        if let Some((_, bridge)) = self.bridges.iter().find(|(p, _)| *p == pilot) {
            bridge.send(Request::Cancel { id });
        }
        #[cfg(not(target_arch = "wasm32"))]
        let _ = (id, pilot);
    }

    /// Asks `pilot` to drive a lap of the circuit whose `.cir` text is `circuit`.
    pub fn fly(&self, id: RequestId, pilot: Pilot, circuit: String) {
        let request = Request::Solve { id, circuit, pilot };
        #[cfg(target_arch = "wasm32")]
        if let Some((_, bridge)) = self.bridges.iter().find(|(p, _)| *p == pilot) {
            bridge.send(request);
        }
        #[cfg(not(target_arch = "wasm32"))]
        self.answer
            .emit((pilot, crate::workers::racetrack::handle(request, || 0.0)));
    }
}
