//! The native host of the compiled back end: the generated module run by wasmtime.

use std::sync::OnceLock;

use wasmtime::{Engine, Instance, Memory, Module, Store, TypedFunc};

use super::{Unsupported, module};
use crate::Simulator;

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
/// be interleaved (and compared) on the same simulator.
pub struct Compiled {
    store: Store<()>,
    run: TypedFunc<i64, ()>,
    memory: Memory,
    memory_bases: Vec<u32>,
    /// The shape of the state it was compiled for: arena words, then words per memory.
    shape: Vec<usize>,
}

impl std::fmt::Debug for Compiled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Compiled")
            .field("memory_bases", &self.memory_bases)
            .finish_non_exhaustive()
    }
}

impl Compiled {
    /// Compiles `sim`'s design, or says why the generator does not cover it.
    pub fn new(sim: &Simulator) -> Result<Compiled, CompiledError> {
        let generated = module(sim)?;
        let shape = state_shape(sim);
        let module = Module::new(engine(), &generated.bytes).map_err(runtime)?;
        let mut store = Store::new(engine(), ());
        let instance = Instance::new(&mut store, &module, &[]).map_err(runtime)?;
        let run = instance
            .get_typed_func::<i64, ()>(&mut store, "run")
            .map_err(runtime)?;
        let memory = instance
            .get_memory(&mut store, "mem")
            .ok_or_else(|| runtime("the module exports no memory"))?;
        Ok(Compiled {
            store,
            run,
            memory,
            memory_bases: generated.memory_bases,
            shape,
        })
    }

    /// Runs `n` clock cycles of `sim` (which must be the simulator this was compiled from),
    /// exactly as `sim.run(n)` would.
    pub fn run(&mut self, sim: &mut Simulator, n: u64) -> Result<(), CompiledError> {
        if n == 0 {
            return Ok(());
        }
        if state_shape(sim) != self.shape {
            return Err(CompiledError::OtherDesign(format!("top {}", sim.top())));
        }
        {
            let (_, arena, mems) = sim.compiled_parts();
            let data = self.memory.data_mut(&mut self.store);
            put(data, 0, arena);
            for (m, rows) in mems.iter().enumerate() {
                put(data, self.memory_bases[m] as usize, rows);
            }
        }
        let result = self.run.call(&mut self.store, n as i64).map_err(runtime);
        let data = self.memory.data(&self.store);
        let (arena, mems) = sim.compiled_state_mut();
        take(data, 0, arena);
        for (m, rows) in mems.iter_mut().enumerate() {
            take(data, self.memory_bases[m] as usize, rows);
        }
        sim.compiled_ran(n);
        result
    }
}

fn state_shape(sim: &Simulator) -> Vec<usize> {
    let (_, arena, mems) = sim.compiled_parts();
    std::iter::once(arena.len())
        .chain(mems.iter().map(Vec::len))
        .collect()
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
