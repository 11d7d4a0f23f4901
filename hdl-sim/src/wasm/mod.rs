//! The compiled back end: the simulator's levelized program turned into a WebAssembly module
//! that runs clock cycles as straight-line code.
//!
//! [`module`] emits it (pure Rust, so the same bytes can be built natively and in the
//! browser); a host instantiates it. Natively that host is wasmtime ([`Compiled`], behind the
//! `compiled` feature); in the browser it is the page's own `WebAssembly` API (`BrowserHost`,
//! behind the `browser` feature, wasm32 only: the board worker's). Both follow the same
//! protocol, and share the loop that runs a design beside its UART transactors.
//!
//! # The module's interface (stable: hosts depend on it)
//!
//! * **Imports:** none.
//! * **Exports:** `mem`, its only memory, and `run(n: i64) -> i64`.
//! * **`run(n)`** first settles the logic from the state as it finds it in `mem` (so inputs the
//!   host wrote there take effect, exactly as [`crate::Simulator::set`] would), then runs up to
//!   `n` clock cycles exactly as [`crate::Simulator::step`] does, and returns how many it ran:
//!   `n`, or fewer when a [`Watch`]ed group of bits changed during the last cycle run (it
//!   returns right after that cycle, so the host can react — a UART byte starting, a LED). The
//!   first cycle always runs when `n > 0`; `run(0)` only settles.
//! * **`mem`** holds the simulator's state exactly as the interpreter lays it out: the arena
//!   from byte 0 (word `k` of the arena at byte `8k`, little-endian; [`WasmModule::arena_words`]
//!   words), then every memory's rows at [`WasmModule::memory_bases`] (one word per row), then
//!   the module's own scratch (staging words and change flags) up to
//!   [`WasmModule::state_bytes`]. A host copies the arena and the memories in
//!   ([`state_image`]), writes inputs
//!   ([`input_slot`] says where), calls `run`, and reads outputs ([`probe_value`]) or copies
//!   the state back. The scratch needs no initial value.
//!
//! # What is compiled
//!
//! Every instruction whose operands and result fit in one 64-bit word: `$not $pos $neg`, the
//! reductions, `$logic_not`, `$and $or $xor $xnor $add $sub $mul $div $mod $divfloor $modfloor
//! $pow`, the comparisons, `$logic_and $logic_or`, the shifts (`$shl $sshl $shr $sshr $shift
//! $shiftx`), signed or unsigned, `$mux $pmux $bwmux $bmux $demux`, asynchronous memory reads
//! and asynchronous register controls; bit gathers (slices, concatenations) of any width;
//! `$pmux`/`$bmux` choosing at most 64 bits among wider inputs; registers of every flavour of at
//! most 64 bits; memories of at most 64-bit words with synchronous read ports (enable, reset,
//! transparency) and write ports. Anything else (other values wider than 64 bits) is
//! [`Unsupported`], and callers keep the interpreter.
//!
//! By default the code skips blocks of logic whose inputs did not change (see
//! [`Options::tracking`]) and computes a multiplexer's inputs only when they are selected (see
//! [`Options::cones`]). The state `run` leaves in `mem` is the interpreter's either way: within
//! `run`, a skipped cone's values may be stale (nothing reads them then), and `run` recomputes
//! them all before it returns. (Hosts read `mem` only between calls, so the interface is
//! unchanged.)

#[cfg(all(feature = "browser", target_arch = "wasm32"))]
mod browser;
pub(crate) mod codegen;
mod cones;
#[cfg(all(feature = "compiled", not(target_arch = "wasm32")))]
mod native;
mod uart_link;

use crate::sim::{InputPin, Probe};
use crate::{Simulator, ops::mask};

/// Why a program cannot be compiled (yet): the caller runs it with the interpreter.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unsupported {
    /// A combinational instruction (numbered in evaluation order) of a kind or width the
    /// generator does not handle.
    #[error("instruction {index} ({what}) is not compiled yet")]
    Instruction { index: usize, what: String },
    /// A register, memory or port the generator does not handle.
    #[error("{0} is not compiled yet")]
    State(String),
    /// The state does not fit in a 32-bit WebAssembly memory.
    #[error("the design's state ({0} bytes) does not fit in a WebAssembly memory")]
    TooBig(u64),
}

/// A generated module and where its state lives in `mem` (see the module docs).
#[derive(Clone, Debug)]
pub struct WasmModule {
    /// The module: exports `mem` and `run(n: i64) -> i64`.
    pub bytes: Vec<u8>,
    /// Per memory of the design (in the simulator's order): the byte offset of its row 0 in
    /// `mem`, one little-endian word per row. The arena starts at byte 0.
    pub memory_bases: Vec<u32>,
    /// Words of the arena (bytes `0 .. 8 * arena_words`).
    pub arena_words: u32,
    /// Bytes of `mem` the module uses (the arena, the memories, its scratch).
    pub state_bytes: u32,
}

/// Bits of the arena `run` watches: it returns after a cycle in which `word & mask` changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Watch {
    /// Arena word (at byte `8 * word` of `mem`).
    pub word: u32,
    pub mask: u64,
}

/// How to generate a module.
#[derive(Clone, Debug)]
pub struct Options {
    /// Bits whose change ends a `run` early (none: `run(n)` always runs `n` cycles).
    pub watch: Vec<Watch>,
    /// Skip blocks of logic and chunks of registers whose inputs did not change (flags in the
    /// module's scratch). Pays on designs that do little per cycle (a player waiting for its
    /// input); costs a compare per instruction with readers elsewhere on busy ones, so a
    /// module (of a design of up to 4,096 instructions) also holds an untracked copy of its
    /// logic, which `run` switches to while nearly every block runs every cycle. On by
    /// default: see the README for the measured trade.
    pub tracking: bool,
    /// Compute what a multiplexer discards only when it is selected (the instructions whose
    /// results are used only through one input of one `$mux`, or one case of one `$pmux`).
    /// On by default; off only to measure what it pays.
    pub cones: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            watch: Vec::new(),
            tracking: true,
            cones: true,
        }
    }
}

impl Options {
    /// Watches every arena bit the probes read (a UART transmit pin, say).
    pub fn watching(mut self, probes: &[&Probe]) -> Options {
        for probe in probes {
            for s in &Simulator::probe_gather(probe).segments {
                let mut bit = s.src_bit;
                let end = s.src_bit + s.len;
                while bit < end {
                    let in_word = (64 - bit % 64).min(end - bit);
                    let m = mask(in_word) << (bit % 64);
                    let word = s.src_off + bit / 64;
                    match self.watch.iter_mut().find(|w| w.word == word) {
                        Some(w) => w.mask |= m,
                        None => self.watch.push(Watch { word, mask: m }),
                    }
                    bit += in_word;
                }
            }
        }
        self
    }
}

/// The compiled module of `sim`'s design, for any WebAssembly host, with the default
/// [`Options`], or why the generator does not cover it yet.
pub fn module(sim: &Simulator) -> Result<WasmModule, Unsupported> {
    module_with(sim, &Options::default())
}

/// [`module`] with chosen [`Options`].
pub fn module_with(sim: &Simulator, options: &Options) -> Result<WasmModule, Unsupported> {
    let (program, arena, _) = sim.compiled_parts();
    let opts = codegen::Options {
        watch: options.watch.clone(),
        tracking: options.tracking,
        cones: options.cones,
    };
    codegen::generate(program, arena, &opts)
}

/// The first `8 * arena_words + memories` bytes of `mem` for `sim`'s current state: what a
/// host copies in (at byte 0) before its first `run`. `module` must be `sim`'s.
pub fn state_image(sim: &Simulator, module: &WasmModule) -> Vec<u8> {
    let (_, arena, mems) = sim.compiled_parts();
    let end = module
        .memory_bases
        .iter()
        .zip(mems)
        .map(|(&base, rows)| base as usize + rows.len() * 8)
        .fold(arena.len() * 8, usize::max);
    let mut image = vec![0u8; end];
    for (k, w) in arena.iter().enumerate() {
        image[k * 8..k * 8 + 8].copy_from_slice(&w.to_le_bytes());
    }
    for (&base, rows) in module.memory_bases.iter().zip(mems) {
        for (k, w) in rows.iter().enumerate() {
            let at = base as usize + k * 8;
            image[at..at + 8].copy_from_slice(&w.to_le_bytes());
        }
    }
    image
}

/// Where a host writes input `pin` in `mem`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputSlot {
    /// Byte offset of the input's first word.
    pub byte: u32,
    /// For a one-bit handle (`KEY[0]`): the bit within the input (word `bit / 64` from `byte`,
    /// bit `bit % 64` of it); the host changes only that bit.
    pub bit: Option<u32>,
    /// The whole input's width (little-endian words from `byte`, bits above it zero).
    pub width: u32,
}

/// The sizes of `sim`'s state (the arena, then each memory): a module loads the state of a
/// design of this shape only.
pub fn state_shape(sim: &Simulator) -> Vec<usize> {
    let (_, arena, mems) = sim.compiled_parts();
    std::iter::once(arena.len())
        .chain(mems.iter().map(Vec::len))
        .collect()
}

/// Where `pin` of `sim`'s design lives in the module's `mem`.
pub fn input_slot(sim: &Simulator, pin: InputPin) -> InputSlot {
    let (off, bit, width) = sim.input_location(pin);
    InputSlot {
        byte: off * 8,
        bit,
        width,
    }
}

/// The low 64 bits of `probe` in a module's state, given a reader of arena words (word `k`
/// is the little-endian i64 at byte `8k` of `mem`).
pub fn probe_value(probe: &Probe, word: impl Fn(u32) -> u64) -> u64 {
    let g = Simulator::probe_gather(probe);
    let mut v = g.constant[0];
    for s in &g.segments {
        if s.dst_bit >= 64 || s.len == 0 {
            continue;
        }
        let w = s.src_off + s.src_bit / 64;
        let sh = s.src_bit % 64;
        let mut x = word(w) >> sh;
        if sh != 0 && sh + s.len > 64 {
            x |= word(w + 1) << (64 - sh);
        }
        v |= (x & mask(s.len)) << s.dst_bit;
    }
    v
}

#[cfg(all(feature = "browser", target_arch = "wasm32"))]
pub use browser::{BrowserError, BrowserHost};
#[cfg(all(feature = "compiled", not(target_arch = "wasm32")))]
pub use native::{Compiled, CompiledError};
pub use uart_link::UartLink;
