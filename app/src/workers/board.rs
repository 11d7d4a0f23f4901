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
        /// What runs the cycles, in words for the page (and why not compiled, when it is not).
        back_end: String,
        /// Milliseconds from the netlist's text to a board ready to run its first cycle
        /// (reading, power-up, and compiling when compiled).
        load_ms: f64,
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

/// Cycles in one slice of running: a few milliseconds of work on the interpreter, and on the
/// compiled back end. Both are multiples of [`CHUNK`], so slices end where chunks do.
const SLICE: u64 = 25_000;
const COMPILED_SLICE: u64 = 500_000;
/// The board's turn ends at the first multiple of this many cycles (from the slice's start)
/// after its `}` and line feed: where the interpreter first looks at its output.
const CHUNK: u64 = 1_000;
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

/// What runs the board's cycles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackEnd {
    /// The design compiled to WebAssembly (by the browser in wasm32, wasmtime natively), or the
    /// interpreter when the generator does not cover it.
    Compiled,
    /// The interpreter: the reference, and the fallback.
    Interpreter,
}

/// The emulated board and its run state, without any worker plumbing (tested in the browser
/// by `app/tests/wasm_board.rs`).
pub struct Bench {
    board: BoardEmulator,
    /// What runs the cycles, for the page.
    back_end: String,
    until: u64,
    /// Output since the last `}` (to stop at the end of a turn).
    after_brace: bool,
    stop_at_turn_end: bool,
    current: Option<Stretch>,
    last: Option<Stretch>,
}

impl Bench {
    /// Loads a netlist (the `reference` text when the request has none), powers it up and
    /// compiles it, or keeps the interpreter when the compiled back end does not cover it.
    pub fn load(request: &Load, reference: &str) -> Result<Bench, String> {
        Bench::load_with(request, reference, BackEnd::Compiled)
    }

    /// [`Bench::load`] on a chosen back end.
    pub fn load_with(request: &Load, reference: &str, back: BackEnd) -> Result<Bench, String> {
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
        let mut board = BoardEmulator::from_json(text, config).map_err(|e| e.to_string())?;
        let back_end = match back {
            BackEnd::Interpreter => "interpreter".to_owned(),
            BackEnd::Compiled => match board.use_compiled() {
                Ok(()) => "compiled to WebAssembly".to_owned(),
                Err(why) => format!("interpreter: {why}"),
            },
        };
        Ok(Bench {
            until: board.cycle(),
            board,
            back_end,
            after_brace: false,
            stop_at_turn_end: false,
            current: None,
            last: None,
        })
    }

    pub fn top(&self) -> String {
        self.board.simulator().top().to_owned()
    }

    /// What runs the cycles: "compiled to WebAssembly", or "interpreter" and why.
    pub fn back_end(&self) -> &str {
        &self.back_end
    }

    /// Whether the compiled back end runs the cycles (the board falls back to the
    /// interpreter for good if the compiled design ever fails).
    pub fn is_compiled(&self) -> bool {
        self.board.is_compiled()
    }

    pub fn cycle(&self) -> u64 {
        self.board.cycle()
    }

    /// Whether there is running to do.
    pub fn wants_to_run(&self) -> bool {
        self.board.cycle() < self.until || !self.board.send_idle()
    }

    /// The board as it is now, for replaying a stretch (on the interpreter: a waveform
    /// samples every cycle).
    fn snapshot(&mut self) -> BoardEmulator {
        let mut board = self.board.clone();
        board.use_interpreter();
        board
    }

    /// The stretch being recorded, begun here (with a snapshot of the board) if none is.
    fn stretch(&mut self) -> &mut Stretch {
        let stretch = match self.current.take() {
            Some(stretch) => stretch,
            None => Stretch {
                snapshot: self.snapshot(),
                sends: Vec::new(),
                end: self.board.cycle(),
            },
        };
        self.current.insert(stretch)
    }

    pub fn send(&mut self, bytes: &[u8]) {
        let cycle = self.board.cycle();
        self.stretch().sends.push((cycle, bytes.to_vec()));
        self.board.send(bytes);
    }

    pub fn run_until(&mut self, cycle: u64) {
        self.until = self.until.max(cycle);
        self.stop_at_turn_end = true;
        self.stretch();
    }

    pub fn hold(&mut self) {
        self.until = self.board.cycle();
    }

    /// Runs at most `cycles` cycles while there is running to do; returns the bytes sent.
    ///
    /// The board runs in chunks of `CHUNK` cycles from here, and whether to go on is decided
    /// between chunks (a turn ends at the end of the chunk in which its line feed came out).
    /// The compiled back end runs many chunks in one call but stops at the same cycle as the
    /// interpreter, so the board plays the same game on either.
    pub fn run_slice(&mut self, cycles: u64) -> Vec<(u8, u64)> {
        let mut out = Vec::new();
        let start = self.board.cycle();
        let stop = start + cycles;
        // The end of the chunk that the cycle before `cycle` belongs to.
        let chunk_end = |cycle: u64| (start + (cycle - start).div_ceil(CHUNK) * CHUNK).min(stop);
        let mut cycle = start;
        while cycle < stop && (chunk_end(cycle) != cycle || self.wants_to_run()) {
            let mut to = chunk_end(cycle + 1);
            let compiled = self.board.is_compiled();
            if compiled && self.board.send_idle() && self.until > to {
                // Nothing is decided before the chunk that reaches `until`, or a byte (the
                // compiled run stops at each).
                to = chunk_end(self.until.min(stop));
            }
            let mut bytes = Vec::new();
            if compiled {
                // Stops right after a byte, to look at it where the interpreter would.
                bytes.extend(self.board.run_until_byte(to - cycle));
            } else {
                self.board.run(to - cycle);
            }
            bytes.extend(self.board.take_output());
            cycle = self.board.cycle();
            for b in bytes {
                out.push((b.byte, b.cycle));
                if self.after_brace && b.byte == b'\n' && self.stop_at_turn_end {
                    self.until = chunk_end(cycle);
                    self.stop_at_turn_end = false;
                }
                self.after_brace = b.byte == b'}';
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

/// Milliseconds of running per macrotask of the worker: between two, it hears the page (a
/// stop, new bytes, a waveform request), so this is how long the page may wait for an answer.
const TASK_MS: f64 = 20.0;

mod worker {
    use gloo_timers::callback::Timeout;
    use gloo_worker::{HandlerId, Worker, WorkerScope};
    use wasm_bindgen::JsCast;
    use wasm_bindgen::closure::Closure;
    use web_sys::MessageChannel;

    use super::*;

    /// How the worker yields between macrotasks of running: a message to itself through a
    /// `MessageChannel`, which the browser delivers as soon as the messages already queued
    /// (the page's) are handled. A `setTimeout(0)` would do the same but is clamped to 4 ms
    /// once timers nest, which cost a fifth of the running time at 20 ms a task.
    struct Yield {
        channel: MessageChannel,
        _on_message: Closure<dyn FnMut()>,
    }

    impl Yield {
        fn new(scope: &WorkerScope<BoardWorker>) -> Option<Yield> {
            let channel = MessageChannel::new().ok()?;
            let scope = scope.clone();
            let on_message = Closure::<dyn FnMut()>::new(move || scope.send_message(Tick::Slice));
            channel
                .port1()
                .set_onmessage(Some(on_message.as_ref().unchecked_ref()));
            Some(Yield {
                channel,
                _on_message: on_message,
            })
        }

        /// Asks for a [`Tick::Slice`] in a new macrotask; false if it could not.
        fn post(&self) -> bool {
            self.channel
                .port2()
                .post_message(&wasm_bindgen::JsValue::NULL)
                .is_ok()
        }
    }

    /// The worker: one board at a time, answering the last bridge that spoke.
    pub struct BoardWorker {
        bench: Option<Bench>,
        to: Option<HandlerId>,
        scheduled: bool,
        /// Cycles and milliseconds of the recent slices, for the speed.
        speed: (u64, f64),
        yielder: Option<Yield>,
        /// The fallback when there is no `MessageChannel`.
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
            // A macrotask, so messages from the page are heard between slices.
            if self.yielder.as_ref().is_some_and(Yield::post) {
                return;
            }
            let scope = scope.clone();
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

        fn create(scope: &WorkerScope<Self>) -> Self {
            BoardWorker {
                bench: None,
                to: None,
                scheduled: false,
                speed: (0, 0.0),
                yielder: Yield::new(scope),
                _timer: None,
            }
        }

        fn update(&mut self, scope: &WorkerScope<Self>, _tick: Tick) {
            self.scheduled = false;
            let Some(bench) = &mut self.bench else { return };
            let started = js_sys::Date::now();
            let before = bench.cycle();
            let mut bytes = Vec::new();
            let slice = if bench.is_compiled() {
                COMPILED_SLICE
            } else {
                SLICE
            };
            // About `TASK_MS` of work per macrotask. The bytes the board sends meanwhile wait for
            // its end: the page judges the board by their cycles, not by when they arrive, and a
            // turn's end stops the running anyway.
            while bench.wants_to_run() && js_sys::Date::now() - started < TASK_MS {
                bytes.extend(bench.run_slice(slice));
            }
            if slice == COMPILED_SLICE && !bench.is_compiled() {
                web_sys::console::error_1(
                    &"emulated board: the compiled design failed; the interpreter goes on".into(),
                );
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
                    let started = js_sys::Date::now();
                    match Bench::load(&load, reference) {
                        Ok(bench) => {
                            let load_ms = js_sys::Date::now() - started;
                            let output = BoardOutput::Loaded {
                                top: bench.top(),
                                cycle: bench.cycle(),
                                back_end: bench.back_end().to_owned(),
                                load_ms,
                            };
                            web_sys::console::log_1(
                                &format!(
                                    "emulated board {}: {}, ready in {load_ms:.0} ms",
                                    bench.top(),
                                    bench.back_end()
                                )
                                .into(),
                            );
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
