//! The emulated board's worker: `hdl-sim`'s [`BoardEmulator`] running a player's netlist (the
//! reference player's by default, or one the user uploads), fed through the UART transactors at
//! the chosen baud rate on a 50 MHz clock — the same byte stream as a real board's port.
//!
//! The board runs in simulated time and only when asked ([`BoardInput::RunUntil`]), in slices
//! that leave the worker free to hear the next message. The page's referee keeps the board's
//! clock in simulated milliseconds, so a slow emulator never loses on time and a fast one never
//! gains: the board is judged exactly as on real hardware.

use std::cell::Cell;

use hdl_sim::{BoardConfig, BoardEmulator, UartConfig, VcdSignal, VcdWriter};
use serde::{Deserialize, Serialize};

/// The pins of the design, by name (DE2-115 names by default).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pins {
    pub clock: String,
    pub rx: String,
    pub tx: String,
    /// Active-low reset push button; empty for none.
    pub reset: String,
    pub switches: String,
}

impl Default for Pins {
    fn default() -> Self {
        let board = BoardConfig::default();
        Pins {
            clock: board.clock,
            rx: board.rx,
            tx: board.tx,
            reset: board.reset.unwrap_or_default(),
            switches: board.switches,
        }
    }
}

/// The simulated board's clock (the DE2-115's `CLOCK_50`).
pub const CLOCK_HZ: u64 = 50_000_000;

/// What to load.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Load {
    /// A yosys JSON netlist; `None` for the reference player's.
    pub netlist: Option<String>,
    pub pins: Pins,
    pub baud: u32,
    pub stop_bits: u8,
    /// The slide switches' value (the reference player's think budget is `SW[3:0]`).
    pub switches: u64,
}

/// A message to the worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum BoardInput {
    /// Powers up a board (replacing any other).
    Load(Load),
    /// Bytes onto the board's receive line.
    Send(Vec<u8>),
    /// Run until this cycle at least (and until every sent byte is on the line); stops early
    /// once the board has sent a complete turn (`}` then a line feed).
    RunUntil(u64),
    /// Stop as soon as every sent byte is on the line.
    Hold,
    /// The waveform of the last turn.
    Waveform,
}

/// A message from the worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum BoardOutput {
    Loaded {
        top: String,
        cycle: u64,
    },
    Failed(String),
    /// The board ran to `cycle`; `bytes` came out meanwhile (with the cycle each was complete).
    Ran {
        bytes: Vec<(u8, u64)>,
        cycle: u64,
        /// Simulated MHz over the last slices.
        mhz: f64,
        /// Whether it goes on running.
        running: bool,
    },
    /// A VCD file of the last turn (the top-level ports).
    Waveform {
        vcd: String,
        from: u64,
        to: u64,
    },
    NoWaveform(String),
}

/// Cycles in one slice of running (a few milliseconds of work).
const SLICE: u64 = 25_000;
/// Most cycles a waveform covers (about 40 ms of board time).
const WAVEFORM_CYCLES: u64 = 2_000_000;

/// A board's stretch of running that started from `snapshot`: what to replay for a waveform.
#[derive(Clone)]
struct Stretch {
    snapshot: BoardEmulator,
    /// Bytes sent and the cycle they were sent at.
    sends: Vec<(u64, Vec<u8>)>,
    end: u64,
}

/// The emulated board and its run state, without any worker plumbing (tested in the browser
/// by `app/tests/wasm_board.rs`).
pub struct Bench {
    board: BoardEmulator,
    until: u64,
    /// Output since the last `}` (to stop at the end of a turn).
    after_brace: bool,
    stop_at_turn_end: bool,
    current: Option<Stretch>,
    last: Option<Stretch>,
}

impl Bench {
    /// Loads a netlist (the `reference` text when the request has none) and powers it up.
    pub fn load(request: &Load, reference: &str) -> Result<Bench, String> {
        let text = request.netlist.as_deref().unwrap_or(reference);
        let uart = UartConfig::new(CLOCK_HZ, u64::from(request.baud.max(1)))
            .with_stop_bits(request.stop_bits);
        let reset = request.pins.reset.trim();
        let config = BoardConfig {
            clock: request.pins.clock.trim().to_owned(),
            clock_hz: CLOCK_HZ,
            rx: request.pins.rx.trim().to_owned(),
            tx: request.pins.tx.trim().to_owned(),
            reset: (!reset.is_empty()).then(|| reset.to_owned()),
            switches: request.pins.switches.trim().to_owned(),
            switch_value: request.switches,
            uart,
            ..BoardConfig::default()
        };
        let board = BoardEmulator::from_json(text, config).map_err(|e| e.to_string())?;
        Ok(Bench {
            until: board.cycle(),
            board,
            after_brace: false,
            stop_at_turn_end: false,
            current: None,
            last: None,
        })
    }

    pub fn top(&self) -> String {
        self.board.simulator().top().to_owned()
    }

    pub fn cycle(&self) -> u64 {
        self.board.cycle()
    }

    /// Whether there is running to do.
    pub fn wants_to_run(&self) -> bool {
        self.board.cycle() < self.until || !self.board.send_idle()
    }

    pub fn send(&mut self, bytes: &[u8]) {
        let cycle = self.board.cycle();
        let stretch = self.current.get_or_insert_with(|| Stretch {
            snapshot: self.board.clone(),
            sends: Vec::new(),
            end: cycle,
        });
        stretch.sends.push((cycle, bytes.to_vec()));
        self.board.send(bytes);
    }

    pub fn run_until(&mut self, cycle: u64) {
        self.until = self.until.max(cycle);
        self.stop_at_turn_end = true;
        if self.current.is_none() {
            self.current = Some(Stretch {
                snapshot: self.board.clone(),
                sends: Vec::new(),
                end: self.board.cycle(),
            });
        }
    }

    pub fn hold(&mut self) {
        self.until = self.board.cycle();
    }

    /// Runs at most `cycles` cycles while there is running to do; returns the bytes sent.
    pub fn run_slice(&mut self, cycles: u64) -> Vec<(u8, u64)> {
        let mut out = Vec::new();
        let stop = self.board.cycle() + cycles;
        while self.wants_to_run() && self.board.cycle() < stop {
            let chunk = (stop - self.board.cycle()).min(1_000);
            if self.board.run(chunk) > 0 {
                for b in self.board.take_output() {
                    out.push((b.byte, b.cycle));
                    if self.after_brace && b.byte == b'\n' && self.stop_at_turn_end {
                        self.until = self.board.cycle();
                        self.stop_at_turn_end = false;
                    }
                    self.after_brace = b.byte == b'}';
                }
            }
        }
        if !self.wants_to_run()
            && let Some(mut stretch) = self.current.take()
        {
            stretch.end = self.board.cycle();
            self.last = Some(stretch);
        }
        out
    }

    /// The waveform of the last finished stretch of running (top-level ports, one sample per
    /// cycle, `timescale` 1 ns at 20 ns per cycle).
    pub fn waveform(&self) -> Result<(String, u64, u64), String> {
        let stretch = self
            .last
            .as_ref()
            .ok_or_else(|| "the board has not played a turn yet".to_owned())?;
        let mut board = stretch.snapshot.clone();
        let from = board.cycle();
        let to = stretch.end.min(from + WAVEFORM_CYCLES);
        let sim = board.simulator();
        let signals: Vec<VcdSignal> = sim
            .ports()
            .iter()
            .filter_map(|p| {
                sim.probe(&p.name)
                    .ok()
                    .map(|probe| VcdSignal::with_range(probe, p.offset, p.upto))
            })
            .collect();
        let ns_per_cycle = 1_000_000_000 / CLOCK_HZ;
        let mut vcd =
            VcdWriter::new(Vec::new(), sim.top(), "1ns", signals).map_err(|e| e.to_string())?;
        let mut sends = stretch.sends.iter().peekable();
        while board.cycle() < to {
            while let Some((_, bytes)) = sends.next_if(|(at, _)| *at <= board.cycle()) {
                board.send(bytes);
            }
            vcd.sample(board.cycle() * ns_per_cycle, board.simulator())
                .map_err(|e| e.to_string())?;
            board.run(1);
        }
        let out = vcd.finish(to * ns_per_cycle).map_err(|e| e.to_string())?;
        Ok((String::from_utf8_lossy(&out).into_owned(), from, to))
    }
}

thread_local! {
    static REFERENCE: Cell<&'static str> = const { Cell::new("") };
}

/// Gives the worker the reference player's netlist (the worker binary embeds it, so the page's
/// own code does not carry it).
pub fn set_reference(netlist: &'static str) {
    REFERENCE.with(|r| r.set(netlist));
}

mod worker {
    use gloo_timers::callback::Timeout;
    use gloo_worker::{HandlerId, Worker, WorkerScope};

    use super::*;

    /// The worker: one board at a time, answering the last bridge that spoke.
    pub struct BoardWorker {
        bench: Option<Bench>,
        to: Option<HandlerId>,
        scheduled: bool,
        /// Cycles and milliseconds of the recent slices, for the speed.
        speed: (u64, f64),
        _timer: Option<Timeout>,
    }

    pub enum Tick {
        Slice,
    }

    impl BoardWorker {
        fn schedule(&mut self, scope: &WorkerScope<Self>) {
            if self.scheduled || !self.bench.as_ref().is_some_and(Bench::wants_to_run) {
                return;
            }
            self.scheduled = true;
            let scope = scope.clone();
            // A macrotask, so messages from the page are heard between slices.
            self._timer = Some(Timeout::new(0, move || scope.send_message(Tick::Slice)));
        }

        fn respond(&self, scope: &WorkerScope<Self>, output: BoardOutput) {
            if let Some(id) = self.to {
                scope.respond(id, output);
            }
        }
    }

    impl Worker for BoardWorker {
        type Message = Tick;
        type Input = BoardInput;
        type Output = BoardOutput;

        fn create(_scope: &WorkerScope<Self>) -> Self {
            BoardWorker {
                bench: None,
                to: None,
                scheduled: false,
                speed: (0, 0.0),
                _timer: None,
            }
        }

        fn update(&mut self, scope: &WorkerScope<Self>, _tick: Tick) {
            self.scheduled = false;
            let Some(bench) = &mut self.bench else { return };
            let started = js_sys::Date::now();
            let before = bench.cycle();
            let mut bytes = Vec::new();
            // About 20 ms of work per macrotask.
            while bench.wants_to_run() && js_sys::Date::now() - started < 20.0 {
                bytes.extend(bench.run_slice(SLICE));
                if !bytes.is_empty() {
                    break;
                }
            }
            let ran = bench.cycle() - before;
            let ms = js_sys::Date::now() - started;
            // A decaying average over the recent slices.
            self.speed = (self.speed.0 / 2 + ran, self.speed.1 / 2.0 + ms);
            let mhz = if self.speed.1 > 0.0 {
                self.speed.0 as f64 / self.speed.1 / 1000.0
            } else {
                0.0
            };
            let output = BoardOutput::Ran {
                bytes,
                cycle: bench.cycle(),
                mhz,
                running: bench.wants_to_run(),
            };
            self.respond(scope, output);
            self.schedule(scope);
        }

        fn received(&mut self, scope: &WorkerScope<Self>, input: BoardInput, id: HandlerId) {
            self.to = Some(id);
            match input {
                BoardInput::Load(load) => {
                    let reference = REFERENCE.with(Cell::get);
                    match Bench::load(&load, reference) {
                        Ok(bench) => {
                            let output = BoardOutput::Loaded {
                                top: bench.top(),
                                cycle: bench.cycle(),
                            };
                            self.bench = Some(bench);
                            self.respond(scope, output);
                        }
                        Err(error) => {
                            self.bench = None;
                            self.respond(scope, BoardOutput::Failed(error));
                        }
                    }
                }
                BoardInput::Send(bytes) => {
                    if let Some(bench) = &mut self.bench {
                        bench.send(&bytes);
                    }
                }
                BoardInput::RunUntil(cycle) => {
                    if let Some(bench) = &mut self.bench {
                        bench.run_until(cycle);
                    }
                }
                BoardInput::Hold => {
                    if let Some(bench) = &mut self.bench {
                        bench.hold();
                    }
                }
                BoardInput::Waveform => {
                    let output = match self.bench.as_ref().map(Bench::waveform) {
                        Some(Ok((vcd, from, to))) => BoardOutput::Waveform { vcd, from, to },
                        Some(Err(why)) => BoardOutput::NoWaveform(why),
                        None => BoardOutput::NoWaveform("no board is loaded".into()),
                    };
                    self.respond(scope, output);
                }
            }
            self.schedule(scope);
        }
    }
}

pub use worker::BoardWorker;
