//! The native host of the compiled back end: the generated module run by wasmtime.

use std::sync::OnceLock;

use wasmtime::{Engine, Instance, Memory, Module, Store, TypedFunc};

use super::uart_link::{self, Loaded, UartLink};
use super::{InputSlot, Options, Unsupported, input_slot, module_with, probe_value, state_shape};
use crate::sim::{InputPin, Probe};
use crate::{Simulator, StampedByte};

/// Why a design could not be compiled or run natively.
#[derive(Debug, thiserror::Error)]
pub enum CompiledError {
    /// The generator does not cover the design yet: run it with the interpreter.
    #[error(transparent)]
    Unsupported(#[from] Unsupported),
    /// wasmtime refused or trapped on the generated module (a defect of the generator).
    #[error("the compiled design failed in wasmtime: {0}")]
    Runtime(String),
    /// [`Compiled::run`] was given a simulator of another design.
    #[error("this compiled design does not match the simulator's ({0})")]
    OtherDesign(String),
}

fn runtime(e: impl std::fmt::Display) -> CompiledError {
    CompiledError::Runtime(e.to_string())
}

/// One engine for the process: it holds the compiler's configuration and caches.
fn engine() -> &'static Engine {
    static ENGINE: OnceLock<Engine> = OnceLock::new();
    ENGINE.get_or_init(Engine::default)
}

/// A [`Simulator`]'s design compiled to machine code (through WebAssembly and wasmtime).
///
/// The simulator stays the owner of the state and of the pin API: [`Compiled::run`] moves the
/// state into the module, runs the cycles there, and moves it back, so the two back ends can
/// be interleaved (and compared) on the same simulator. A host that talks to the design
/// between cycles (a UART) keeps the state in the module meanwhile: [`Compiled::load`], then
/// [`Compiled::run_loaded`], [`Compiled::set_loaded`] and [`Compiled::get_loaded`] as often as
/// needed, then [`Compiled::store`].
pub struct Compiled {
    module: Module,
    store: Store<()>,
    run: TypedFunc<i64, i64>,
    memory: Memory,
    memory_bases: Vec<u32>,
    /// The shape of the state it was compiled for: arena words, then words per memory.
    shape: Vec<usize>,
    /// Cycles run since the last [`Compiled::load`].
    ran: u64,
}

impl std::fmt::Debug for Compiled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Compiled")
            .field("memory_bases", &self.memory_bases)
            .finish_non_exhaustive()
    }
}

/// A second instance of the same machine code, with its own memory (the state is always
/// loaded before a run, so nothing else is copied).
impl Clone for Compiled {
    fn clone(&self) -> Compiled {
        Compiled::instantiate(
            self.module.clone(),
            self.memory_bases.clone(),
            self.shape.clone(),
        )
        .expect("a module that instantiated once instantiates again")
    }
}

impl Compiled {
    /// Compiles `sim`'s design, or says why the generator does not cover it.
    pub fn new(sim: &Simulator) -> Result<Compiled, CompiledError> {
        Compiled::with_options(sim, &Options::default())
    }

    /// Compiles `sim`'s design with chosen [`Options`] (bits to watch, change tracking).
    pub fn with_options(sim: &Simulator, options: &Options) -> Result<Compiled, CompiledError> {
        let generated = module_with(sim, options)?;
        let module = Module::new(engine(), &generated.bytes).map_err(runtime)?;
        Compiled::instantiate(module, generated.memory_bases, state_shape(sim))
    }

    fn instantiate(
        module: Module,
        memory_bases: Vec<u32>,
        shape: Vec<usize>,
    ) -> Result<Compiled, CompiledError> {
        let mut store = Store::new(engine(), ());
        let instance = Instance::new(&mut store, &module, &[]).map_err(runtime)?;
        let run = instance
            .get_typed_func::<i64, i64>(&mut store, "run")
            .map_err(runtime)?;
        let memory = instance
            .get_memory(&mut store, "mem")
            .ok_or_else(|| runtime("the module exports no memory"))?;
        Ok(Compiled {
            module,
            store,
            run,
            memory,
            memory_bases,
            shape,
            ran: 0,
        })
    }

    /// Runs `n` clock cycles of `sim` (which must be the simulator this was compiled from),
    /// exactly as `sim.run(n)` would.
    pub fn run(&mut self, sim: &mut Simulator, n: u64) -> Result<(), CompiledError> {
        uart_link::run_stored(self, sim, n)
    }

    /// Copies `sim`'s state (which must be of the design this was compiled from) into the
    /// module.
    pub fn load(&mut self, sim: &Simulator) -> Result<(), CompiledError> {
        if state_shape(sim) != self.shape {
            return Err(CompiledError::OtherDesign(format!("top {}", sim.top())));
        }
        let (_, arena, mems) = sim.compiled_parts();
        let data = self.memory.data_mut(&mut self.store);
        put(data, 0, arena);
        for (m, rows) in mems.iter().enumerate() {
            put(data, self.memory_bases[m] as usize, rows);
        }
        self.ran = 0;
        Ok(())
    }

    /// Runs up to `n` cycles on the loaded state; returns how many ran (fewer than `n` when a
    /// watched bit changed in the last one, and always at least one when `n > 0`).
    pub fn run_loaded(&mut self, n: u64) -> Result<u64, CompiledError> {
        let ran = self
            .run
            .call(&mut self.store, n.min(i64::MAX as u64) as i64)
            .map_err(runtime)? as u64;
        self.ran += ran;
        Ok(ran)
    }

    /// Sets an input of the loaded state (`pin` of the simulator this was compiled from); the
    /// logic settles at the next [`Compiled::run_loaded`] (`run_loaded(0)` settles only).
    pub fn set_loaded(&mut self, sim: &Simulator, pin: InputPin, value: u64) {
        let InputSlot { byte, bit, width } = input_slot(sim, pin);
        let data = self.memory.data_mut(&mut self.store);
        let at = |data: &[u8], k: usize| {
            let mut b = [0u8; 8];
            b.copy_from_slice(&data[k..k + 8]);
            u64::from_le_bytes(b)
        };
        let (k, new) = match bit {
            Some(b) => {
                let k = byte as usize + (b / 64) as usize * 8;
                let old = at(data, k);
                let m = 1u64 << (b % 64);
                (k, if value & 1 == 1 { old | m } else { old & !m })
            }
            None => (byte as usize, value & crate::ops::mask(width.min(64))),
        };
        data[k..k + 8].copy_from_slice(&new.to_le_bytes());
    }

    /// The low 64 bits of `probe` in the loaded state.
    pub fn get_loaded(&self, probe: &Probe) -> u64 {
        let data = self.memory.data(&self.store);
        probe_value(probe, |w| {
            let k = w as usize * 8;
            let mut b = [0u8; 8];
            b.copy_from_slice(&data[k..k + 8]);
            u64::from_le_bytes(b)
        })
    }

    /// Runs up to `max` cycles of `sim` with UART transactors, exactly as a loop of `max`
    /// iterations of "drive the receive pin with the driver's next level; give the monitor
    /// the transmit pin at `sim.cycle()`; step" would, calling `byte` with every byte the
    /// monitor decodes; with `until_byte`, stops after the iteration that decodes one. Returns
    /// the cycles run.
    ///
    /// The state stays in the module meanwhile, which runs in chunks: until the receive line
    /// next changes level, the monitor next samples the transmit line, or the transmit line
    /// changes (watched).
    pub fn run_uart(
        &mut self,
        sim: &mut Simulator,
        link: UartLink<'_>,
        max: u64,
        until_byte: bool,
        byte: impl FnMut(StampedByte),
    ) -> Result<u64, CompiledError> {
        uart_link::run_uart_stored(self, sim, link, max, until_byte, byte)
    }

    /// Copies the loaded state back into `sim` and counts the cycles run since
    /// [`Compiled::load`] on its clock.
    pub fn store(&mut self, sim: &mut Simulator) {
        let data = self.memory.data(&self.store);
        let (arena, mems) = sim.compiled_state_mut();
        take(data, 0, arena);
        for (m, rows) in mems.iter_mut().enumerate() {
            take(data, self.memory_bases[m] as usize, rows);
        }
        sim.compiled_ran(std::mem::take(&mut self.ran));
    }
}

impl Loaded for Compiled {
    type Error = CompiledError;

    fn run_loaded(&mut self, n: u64) -> Result<u64, CompiledError> {
        Compiled::run_loaded(self, n)
    }

    fn set_loaded(&mut self, sim: &Simulator, pin: InputPin, value: u64) {
        Compiled::set_loaded(self, sim, pin, value);
    }

    fn get_loaded(&self, probe: &Probe) -> u64 {
        Compiled::get_loaded(self, probe)
    }

    fn load(&mut self, sim: &Simulator) -> Result<(), CompiledError> {
        Compiled::load(self, sim)
    }

    fn store(&mut self, sim: &mut Simulator) {
        Compiled::store(self, sim);
    }
}

fn put(data: &mut [u8], at: usize, words: &[u64]) {
    for (chunk, w) in data[at..at + words.len() * 8]
        .chunks_exact_mut(8)
        .zip(words)
    {
        chunk.copy_from_slice(&w.to_le_bytes());
    }
}

fn take(data: &[u8], at: usize, words: &mut [u64]) {
    let n = words.len();
    for (w, chunk) in words.iter_mut().zip(data[at..at + n * 8].chunks_exact(8)) {
        let mut b = [0u8; 8];
        b.copy_from_slice(chunk);
        *w = u64::from_le_bytes(b);
    }
}
