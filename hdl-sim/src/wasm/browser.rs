//! The browser host of the compiled back end: the generated module instantiated with the
//! browser's own `WebAssembly` API (through js-sys), in the board worker. wasmtime does not
//! exist in wasm32: the browser compiles the module itself, from the same generator as the
//! native host ([`super::Compiled`]), and the host follows the same protocol: the simulator's
//! state is loaded into the module, runs there (with the UART transactors beside it, see
//! [`BrowserHost::run_uart`]) and is stored back, so the interpreter keeps the pin API and
//! stays the reference.

use js_sys::{BigUint64Array, Function, Object, Reflect, Uint8Array, WebAssembly};
use wasm_bindgen::{JsCast, JsValue};

use super::uart_link::{Loaded, UartLink, run_stored, run_uart_stored};
use super::{InputSlot, Options, Unsupported, input_slot, module_with, probe_value, state_shape};
use crate::sim::{InputPin, Probe};
use crate::{Simulator, StampedByte};

/// Why a design cannot be run by the browser host.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BrowserError {
    /// The generator does not cover the design yet: run it with the interpreter.
    #[error(transparent)]
    Unsupported(#[from] Unsupported),
    /// The browser refused to compile or instantiate the module, or it trapped (a defect of
    /// the generator, never of the design).
    #[error("the compiled design failed in the browser: {0}")]
    Runtime(String),
    /// The host was given a simulator of another design.
    #[error("this compiled design does not match the simulator's (top {0})")]
    OtherDesign(String),
}

/// A [`Simulator`]'s design compiled by the browser. Clones share the instance: the state is
/// loaded before every run and stored after it, so they never see each other's.
///
/// Its bookkeeping (memory bases, state shape, cycles run) is the native host's
/// (`Compiled`, with wasmtime) field for field: both run the same module through
/// `uart_link`'s `Loaded`, over a different engine's types.
#[derive(Clone)]
pub struct BrowserHost {
    memory: WebAssembly::Memory,
    run: Function,
    memory_bases: Vec<u32>,
    /// The shape of the state it was compiled for: arena words, then words per memory.
    shape: Vec<usize>,
    /// Cycles run since the last [`BrowserHost::load`].
    ran: u64,
}

impl std::fmt::Debug for BrowserHost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BrowserHost")
            .field("memory_bases", &self.memory_bases)
            .field("shape", &self.shape)
            .finish_non_exhaustive()
    }
}

/// The text of a JavaScript exception.
fn describe(e: &JsValue) -> String {
    if let Some(error) = e.dyn_ref::<js_sys::Error>() {
        return String::from(error.message());
    }
    e.as_string().unwrap_or_else(|| format!("{e:?}"))
}

fn failed(e: JsValue) -> BrowserError {
    BrowserError::Runtime(describe(&e))
}

fn export<T: JsCast>(exports: &Object, name: &str) -> Result<T, BrowserError> {
    Reflect::get(exports, &JsValue::from_str(name))
        .ok()
        .and_then(|v| v.dyn_into::<T>().ok())
        .ok_or_else(|| BrowserError::Runtime(format!("the module exports no `{name}`")))
}

impl BrowserHost {
    /// Compiles `sim`'s design in the browser with the default [`Options`].
    pub fn new(sim: &Simulator) -> Result<BrowserHost, BrowserError> {
        BrowserHost::with_options(sim, &Options::default())
    }

    /// Compiles `sim`'s design in the browser with chosen [`Options`] (bits to watch…).
    pub fn with_options(sim: &Simulator, options: &Options) -> Result<BrowserHost, BrowserError> {
        let generated = module_with(sim, options)?;
        // Synchronous compilation: fine in a worker, where the board runs.
        let module = WebAssembly::Module::new(Uint8Array::from(&generated.bytes[..]).as_ref())
            .map_err(failed)?;
        let instance = WebAssembly::Instance::new(&module, &Object::new()).map_err(failed)?;
        let exports = instance.exports();
        Ok(BrowserHost {
            memory: export(&exports, "mem")?,
            run: export(&exports, "run")?,
            memory_bases: generated.memory_bases,
            shape: state_shape(sim),
            ran: 0,
        })
    }

    /// A view of `len` words of the module's memory from byte `at` (made afresh: a view of a
    /// memory that grew would be detached).
    fn words(&self, at: u32, len: usize) -> BigUint64Array {
        BigUint64Array::new_with_byte_offset_and_length(&self.memory.buffer(), at, len as u32)
    }

    /// Copies `sim`'s state (of the design this was compiled from) into the module.
    pub fn load(&mut self, sim: &Simulator) -> Result<(), BrowserError> {
        if state_shape(sim) != self.shape {
            return Err(BrowserError::OtherDesign(sim.top().to_owned()));
        }
        let (_, arena, mems) = sim.compiled_parts();
        self.words(0, arena.len()).copy_from(arena);
        for (rows, &base) in mems.iter().zip(&self.memory_bases) {
            self.words(base, rows.len()).copy_from(rows);
        }
        self.ran = 0;
        Ok(())
    }

    /// Copies the loaded state back into `sim` and counts the cycles run since
    /// [`BrowserHost::load`] on its clock.
    pub fn store(&mut self, sim: &mut Simulator) {
        let (arena, mems) = sim.compiled_state_mut();
        self.words(0, arena.len()).copy_to(arena);
        for (rows, &base) in mems.iter_mut().zip(&self.memory_bases) {
            self.words(base, rows.len()).copy_to(rows);
        }
        sim.compiled_ran(std::mem::take(&mut self.ran));
    }

    /// Runs `n` clock cycles of `sim` exactly as `sim.run(n)` would.
    pub fn run(&mut self, sim: &mut Simulator, n: u64) -> Result<(), BrowserError> {
        run_stored(self, sim, n)
    }

    /// [`super::Compiled::run_uart`] in the browser: up to `max` cycles of `sim` with UART
    /// transactors, the state staying in the module meanwhile.
    pub fn run_uart(
        &mut self,
        sim: &mut Simulator,
        link: UartLink<'_>,
        max: u64,
        until_byte: bool,
        byte: impl FnMut(StampedByte),
    ) -> Result<u64, BrowserError> {
        run_uart_stored(self, sim, link, max, until_byte, byte)
    }
}

impl Loaded for BrowserHost {
    type Error = BrowserError;

    fn run_loaded(&mut self, n: u64) -> Result<u64, BrowserError> {
        let n = n.min(i64::MAX as u64);
        let ran = self
            .run
            .call1(&JsValue::UNDEFINED, &JsValue::from(n))
            .map_err(failed)?;
        let ran = u64::try_from(ran).map_err(failed)?;
        if ran > n || (ran == 0 && n > 0) {
            return Err(BrowserError::Runtime(format!(
                "`run` ran {ran} of {n} cycles"
            )));
        }
        self.ran += ran;
        Ok(ran)
    }

    fn set_loaded(&mut self, sim: &Simulator, pin: InputPin, value: u64) {
        let InputSlot { byte, bit, width } = input_slot(sim, pin);
        let (at, new) = match bit {
            Some(b) => {
                let at = byte + (b / 64) * 8;
                let old = self.words(at, 1).get_index(0);
                let m = 1u64 << (b % 64);
                (at, if value & 1 == 1 { old | m } else { old & !m })
            }
            None => (byte, value & crate::ops::mask(width.min(64))),
        };
        self.words(at, 1).set_index(0, new);
    }

    fn get_loaded(&self, probe: &Probe) -> u64 {
        probe_value(probe, |w| self.words(w * 8, 1).get_index(0))
    }

    fn load(&mut self, sim: &Simulator) -> Result<(), BrowserError> {
        BrowserHost::load(self, sim)
    }

    fn store(&mut self, sim: &mut Simulator) {
        BrowserHost::store(self, sim);
    }
}
