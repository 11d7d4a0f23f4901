//! A simulated board: a netlist behind a serial line, with the same byte-stream interface as a
//! real board on a serial port (bytes in, run, bytes out with timestamps in clock cycles).

use std::collections::VecDeque;

use crate::error::{LoadError, PinError};
use crate::limits::Limits;
use crate::netlist::Module;
use crate::sim::{InputPin, Probe, Simulator};
use crate::uart::{StampedByte, UartConfig, UartDriver, UartMonitor};

/// Which pins the board's design uses. Defaults are the DE2-115 names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardConfig {
    /// Clock input (`CLOCK_50`).
    pub clock: String,
    /// Clock frequency, to turn cycles into time (50 MHz).
    pub clock_hz: u64,
    /// The design's receive input, driven by the emulator (`UART_RXD`).
    pub rx: String,
    /// The design's transmit output, decoded by the emulator (`UART_TXD`).
    pub tx: String,
    /// Reset input (`KEY[0]`); `None` for a design without one. Missing pins are skipped.
    pub reset: Option<String>,
    /// The reset is active when low (push buttons on the DE2-115 read 0 when pressed).
    pub reset_active_low: bool,
    /// Clock cycles the reset is held at power-up.
    pub reset_cycles: u64,
    /// Slide switches (`SW`) and their value.
    pub switches: String,
    pub switch_value: u64,
    /// Serial line timing (115200 baud on a 50 MHz clock, 8N1).
    pub uart: UartConfig,
    /// What loading the netlist may allocate (256 MiB of simulated state).
    pub limits: Limits,
}

impl Default for BoardConfig {
    fn default() -> Self {
        BoardConfig {
            clock: "CLOCK_50".into(),
            clock_hz: 50_000_000,
            rx: "UART_RXD".into(),
            tx: "UART_TXD".into(),
            reset: Some("KEY[0]".into()),
            reset_active_low: true,
            reset_cycles: 16,
            switches: "SW".into(),
            switch_value: 0,
            uart: UartConfig::new(50_000_000, 115_200),
            limits: Limits::default(),
        }
    }
}

/// The netlist of a board plus UART transactors on its serial pins.
#[derive(Clone, Debug)]
pub struct BoardEmulator {
    sim: Simulator,
    rx_pin: InputPin,
    tx: Probe,
    rx_level: bool,
    driver: UartDriver,
    monitor: UartMonitor,
    output: VecDeque<StampedByte>,
    config: BoardConfig,
    /// The compiled back end, once [`BoardEmulator::use_compiled`] chose it.
    #[cfg(all(feature = "compiled", not(target_arch = "wasm32")))]
    compiled: Option<crate::wasm::Compiled>,
}

/// Why a board cannot be emulated.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum BoardError {
    #[error(transparent)]
    Load(#[from] LoadError),
    #[error("board pin: {0}")]
    Pin(#[from] PinError),
}

impl BoardEmulator {
    /// Loads a netlist and powers the board up: other inputs at their idle levels (RX high,
    /// switches as configured, every `KEY` released), reset held for `reset_cycles` cycles.
    pub fn from_json(text: &str, config: BoardConfig) -> Result<BoardEmulator, BoardError> {
        BoardEmulator::new(&Module::from_json(text)?, config)
    }

    /// Same, from a parsed netlist.
    pub fn new(module: &Module, config: BoardConfig) -> Result<BoardEmulator, BoardError> {
        let mut sim = Simulator::with_limits(module, Some(&config.clock), config.limits)?;
        let rx_pin = sim.input(&config.rx)?;
        let tx = sim.probe(&config.tx)?;
        sim.set(rx_pin, 1)?;
        if let Ok(pin) = sim.input(&config.switches) {
            sim.set(pin, config.switch_value)?;
        }
        // Release every push button (active-low KEYs read 1 when up).
        let reset = match &config.reset {
            Some(name) => match sim.input(name) {
                Ok(pin) => Some(pin),
                Err(PinError::NoSuchInput(_)) => None,
                Err(e) => return Err(e.into()),
            },
            None => None,
        };
        if let (Some(name), true) = (&config.reset, config.reset_active_low) {
            let base = name.split('[').next().unwrap_or(name);
            if let Ok(pin) = sim.input(base) {
                let w = sim.input_width(pin);
                let ones: Vec<u64> = (0..w.div_ceil(64))
                    .map(|i| {
                        if (i + 1) * 64 <= w {
                            u64::MAX
                        } else {
                            (1u64 << (w % 64)) - 1
                        }
                    })
                    .collect();
                sim.set_wide(pin, &ones)?;
            }
        }
        let mut board = BoardEmulator {
            sim,
            rx_pin,
            tx,
            rx_level: true,
            driver: UartDriver::new(config.uart),
            monitor: UartMonitor::new(config.uart),
            output: VecDeque::new(),
            config,
            #[cfg(all(feature = "compiled", not(target_arch = "wasm32")))]
            compiled: None,
        };
        if let Some(pin) = reset {
            let active = u64::from(!board.config.reset_active_low);
            board.sim.set(pin, active)?;
            board.run(board.config.reset_cycles);
            board.sim.set(pin, 1 - active)?;
        }
        Ok(board)
    }

    /// Queues bytes on the board's receive line; they go out back to back as the board runs.
    pub fn send(&mut self, bytes: &[u8]) {
        self.driver.send(bytes);
    }

    /// True when every sent byte has been fully shifted onto the line.
    pub fn send_idle(&self) -> bool {
        self.driver.idle()
    }

    /// Runs `cycles` clock cycles; returns how many bytes came out meanwhile (see
    /// [`BoardEmulator::take_output`]).
    pub fn run(&mut self, cycles: u64) -> usize {
        let before = self.output.len();
        let done = self.run_compiled(cycles, false);
        for _ in done..cycles {
            self.tick();
        }
        self.output.len() - before
    }

    /// Runs until the board sends a byte or `max_cycles` have passed; returns that byte (it is
    /// not kept in the output queue).
    pub fn run_until_byte(&mut self, max_cycles: u64) -> Option<StampedByte> {
        if let Some(b) = self.output.pop_front() {
            return Some(b);
        }
        let done = self.run_compiled(max_cycles, true);
        if let Some(b) = self.output.pop_front() {
            return Some(b);
        }
        for _ in done..max_cycles {
            self.tick();
            if let Some(b) = self.output.pop_front() {
                return Some(b);
            }
        }
        None
    }

    /// Bytes the board sent since the last call, oldest first.
    pub fn take_output(&mut self) -> Vec<StampedByte> {
        self.output.drain(..).collect()
    }

    /// Clock cycles since power-up (including the reset).
    pub fn cycle(&self) -> u64 {
        self.sim.cycle()
    }

    /// Simulated time since power-up in nanoseconds.
    pub fn elapsed_ns(&self) -> u64 {
        (u128::from(self.sim.cycle()) * 1_000_000_000 / u128::from(self.config.clock_hz.max(1)))
            as u64
    }

    /// Clock cycles per millisecond of board time (50,000 at 50 MHz), to turn a time limit into a cycle budget.
    pub fn cycles_per_ms(&self) -> u64 {
        self.config.clock_hz / 1000
    }

    pub fn config(&self) -> &BoardConfig {
        &self.config
    }

    /// The simulator inside, to probe signals or dump a VCD.
    pub fn simulator(&self) -> &Simulator {
        &self.sim
    }

    /// Runs the board on the compiled back end from now on (natively, through wasmtime): the
    /// same cycles, the same bytes at the same cycles, many times faster on most designs.
    /// An error (a design the generator does not cover yet) leaves the interpreter in charge.
    #[cfg(all(feature = "compiled", not(target_arch = "wasm32")))]
    pub fn use_compiled(&mut self) -> Result<(), crate::wasm::CompiledError> {
        let options = crate::wasm::Options::default().watching(&[&self.tx]);
        self.compiled = Some(crate::wasm::Compiled::with_options(&self.sim, &options)?);
        Ok(())
    }

    /// Whether the compiled back end runs the board (see [`BoardEmulator::use_compiled`]).
    #[cfg(all(feature = "compiled", not(target_arch = "wasm32")))]
    pub fn is_compiled(&self) -> bool {
        self.compiled.is_some()
    }

    /// Whether the compiled back end runs the board: never in this build.
    #[cfg(not(all(feature = "compiled", not(target_arch = "wasm32"))))]
    pub fn is_compiled(&self) -> bool {
        false
    }

    /// Runs up to `max` cycles on the compiled back end, as many [`BoardEmulator::tick`]s
    /// would (stopping after the cycle that completes a byte when `until_byte`); returns the
    /// cycles run: 0 without a compiled back end. The state stays in the module while it runs
    /// in chunks: until the receive line next changes level, the monitor next samples the
    /// transmit line, or the transmit line changes (the module watches it).
    #[cfg(all(feature = "compiled", not(target_arch = "wasm32")))]
    fn run_compiled(&mut self, max: u64, until_byte: bool) -> u64 {
        let Some(c) = &mut self.compiled else {
            return 0;
        };
        let output = &mut self.output;
        let link = crate::wasm::UartLink {
            rx: Some((self.rx_pin, &mut self.driver, &mut self.rx_level)),
            tx: Some((&self.tx, &mut self.monitor)),
        };
        match c.run_uart(&mut self.sim, link, max, until_byte, |b| {
            output.push_back(b)
        }) {
            Ok(done) => done,
            Err(_) => {
                // A trap is a defect of the generator: the interpreter takes over.
                self.compiled = None;
                0
            }
        }
    }

    #[cfg(not(all(feature = "compiled", not(target_arch = "wasm32"))))]
    fn run_compiled(&mut self, _max: u64, _until_byte: bool) -> u64 {
        0
    }

    #[inline]
    fn tick(&mut self) {
        let level = self.driver.next_level();
        if level != self.rx_level {
            self.rx_level = level;
            // The pin was resolved at construction and is one bit wide: this cannot fail.
            let _ = self.sim.set(self.rx_pin, u64::from(level));
        }
        let cycle = self.sim.cycle();
        let tx = self.sim.get(&self.tx) & 1 == 1;
        if let Some(b) = self.monitor.sample(tx, cycle) {
            self.output.push_back(b);
        }
        self.sim.step();
    }
}
