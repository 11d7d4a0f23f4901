//! The page's handle on an emulated board: the board worker's bridge, its simulated clock and
//! its figures (speed, turn latency), seen as a wire.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use gloo_worker::{Spawnable, WorkerBridge};
use yew::Callback;

use super::link::{WireEvent, page_ms};
use crate::workers::board::{BoardInput, BoardOutput, BoardWorker, CLOCK_HZ, Load};

/// Simulated milliseconds of `cycle` on the 50 MHz clock.
pub fn cycle_ms(cycle: u64) -> u64 {
    cycle / (CLOCK_HZ / 1000)
}

/// Figures of an emulated board, for display and the tests' report.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EmulatorStats {
    /// Simulated MHz in the browser (the real board runs at 50).
    pub mhz: f64,
    /// Simulated time from the board's signal to its `}`, per turn (µs).
    pub latencies_us: Vec<u64>,
    /// Page time the same took, per turn (ms).
    pub wall_ms: Vec<u64>,
    pub cycle: u64,
}

#[derive(Default)]
struct Shared {
    loaded: Cell<bool>,
    cycle: Cell<u64>,
    stats: RefCell<EmulatorStats>,
    /// The board's turn started at this cycle and page time.
    turn_from: Cell<Option<(u64, u64)>>,
    status: RefCell<String>,
    waveform: RefCell<Option<Callback<Result<String, String>>>>,
}

/// An emulated board. Cloning shares it.
#[derive(Clone)]
pub struct Emulator {
    bridge: Rc<WorkerBridge<BoardWorker>>,
    shared: Rc<Shared>,
}

impl PartialEq for Emulator {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.shared, &other.shared)
    }
}

impl Emulator {
    /// Starts `board_worker.js` and loads `load` into it. Bytes and the clock go to `inlet`;
    /// `changed` is called whenever the status or figures change.
    pub fn spawn(load: Load, inlet: Callback<WireEvent>, changed: Callback<()>) -> Emulator {
        let shared = Rc::new(Shared::default());
        *shared.status.borrow_mut() = "loading the netlist…".into();
        let bridge = {
            let shared = shared.clone();
            BoardWorker::spawner()
                .callback(move |output| on_output(&shared, &inlet, &changed, output))
                .spawn("board_worker.js")
        };
        bridge.send(BoardInput::Load(load));
        Emulator {
            bridge: Rc::new(bridge),
            shared,
        }
    }

    pub fn send(&self, bytes: &[u8]) {
        self.bridge.send(BoardInput::Send(bytes.to_vec()));
    }

    /// The board's simulated time.
    pub fn now_ms(&self) -> u64 {
        cycle_ms(self.shared.cycle.get())
    }

    /// Runs the board until `deadline_ms` of simulated time (its turn).
    pub fn run_until(&self, deadline_ms: u64) {
        if self.shared.turn_from.get().is_none() {
            self.shared
                .turn_from
                .set(Some((self.shared.cycle.get(), page_ms())));
        }
        self.bridge
            .send(BoardInput::RunUntil(deadline_ms * (CLOCK_HZ / 1000)));
    }

    pub fn hold(&self) {
        self.shared.turn_from.set(None);
        self.bridge.send(BoardInput::Hold);
    }

    pub fn is_loaded(&self) -> bool {
        self.shared.loaded.get()
    }

    /// What the emulator is doing, for the set-up panel.
    pub fn status(&self) -> String {
        self.shared.status.borrow().clone()
    }

    pub fn stats(&self) -> EmulatorStats {
        self.shared.stats.borrow().clone()
    }

    /// Asks for the last turn's waveform; `done` gets the VCD text or why there is none.
    pub fn waveform(&self, done: Callback<Result<String, String>>) {
        *self.shared.waveform.borrow_mut() = Some(done);
        self.bridge.send(BoardInput::Waveform);
    }
}

fn on_output(
    shared: &Shared,
    inlet: &Callback<WireEvent>,
    changed: &Callback<()>,
    output: BoardOutput,
) {
    match output {
        BoardOutput::Loaded {
            top,
            cycle,
            back_end,
            load_ms,
        } => {
            shared.loaded.set(true);
            shared.cycle.set(cycle);
            *shared.status.borrow_mut() =
                format!("{top} powered up ({back_end}; ready in {load_ms:.0} ms)");
        }
        BoardOutput::Failed(error) => {
            shared.loaded.set(false);
            *shared.status.borrow_mut() = format!("cannot emulate this netlist: {error}");
            // Also when it never powered up: a game waiting for it (a league's) then loses it
            // by `disconnect` instead of waiting for ever.
            inlet.emit(WireEvent::Closed {
                reason: error,
                at_ms: cycle_ms(shared.cycle.get()),
            });
        }
        BoardOutput::Ran {
            bytes,
            cycle,
            mhz,
            running,
        } => {
            for (byte, at) in bytes {
                shared.cycle.set(at.max(shared.cycle.get()));
                if byte == b'}'
                    && let Some((from, wall)) = shared.turn_from.take()
                {
                    let mut stats = shared.stats.borrow_mut();
                    stats
                        .latencies_us
                        .push(at.saturating_sub(from) / (CLOCK_HZ / 1_000_000));
                    stats.wall_ms.push(page_ms().saturating_sub(wall));
                }
                inlet.emit(WireEvent::Data {
                    bytes: vec![byte],
                    at_ms: cycle_ms(at),
                });
            }
            shared.cycle.set(cycle.max(shared.cycle.get()));
            {
                let mut stats = shared.stats.borrow_mut();
                if mhz > 0.0 {
                    stats.mhz = mhz;
                }
                stats.cycle = cycle;
            }
            *shared.status.borrow_mut() = if running { "running" } else { "waiting" }.into();
            inlet.emit(WireEvent::Time {
                at_ms: cycle_ms(cycle),
            });
        }
        BoardOutput::Waveform { vcd, .. } => {
            if let Some(done) = shared.waveform.borrow_mut().take() {
                done.emit(Ok(vcd));
            }
        }
        BoardOutput::NoWaveform(why) => {
            if let Some(done) = shared.waveform.borrow_mut().take() {
                done.emit(Err(why));
            }
        }
    }
    changed.emit(());
}
