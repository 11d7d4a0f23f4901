//! The compiled back end: the simulator's levelized program turned into a WebAssembly module
//! that runs clock cycles as straight-line code.
//!
//! [`module`] emits it (pure Rust, so the same bytes can be built natively and in the
//! browser); a host instantiates it. Natively that host is wasmtime ([`Compiled`], behind the
//! `compiled` feature); the browser host (js-sys' `WebAssembly`) is a later stage.
//!
//! The module's linear memory holds the simulator's state exactly as the interpreter lays it
//! out: the arena from byte 0 (word `k` at byte `8k`), then every memory's rows, then one
//! staging word per clocked element. A host copies the state in, calls `run(n)`, and copies it
//! back, so the interpreter stays the owner of the pin API and the reference.
//!
//! Every cycle evaluates every instruction in order (no change tracking): after a clock edge
//! the settled values are the same whichever instructions the interpreter skipped.
//!
//! Covered today (anything else is [`Unsupported`], and callers keep the interpreter): every
//! instruction whose operands and result fit in one 64-bit word: `$not $pos $neg`, the
//! reductions, `$logic_not`, `$and $or $xor $xnor $add $sub $mul $div $mod $divfloor
//! $modfloor`, the comparisons, `$logic_and $logic_or`, the shifts (`$shl $sshl $shr $sshr
//! $shift $shiftx`), signed or unsigned, `$mux $pmux $bwmux $bmux $demux`, asynchronous memory
//! reads and asynchronous register controls; bit gathers (slices, concatenations) of any
//! width; `$pmux`/`$bmux` choosing at most 64 bits among wider inputs; registers of every
//! flavour of at most 64 bits; memories of at most 64-bit words with synchronous read ports
//! (enable, reset, transparency) and write ports. Not yet: other values wider than 64 bits
//! and `$pow`.

pub(crate) mod codegen;
#[cfg(all(feature = "compiled", not(target_arch = "wasm32")))]
mod native;

pub use codegen::{Unsupported, WasmModule};

use crate::Simulator;

/// The compiled module of `sim`'s design, for any WebAssembly host, or why the generator does
/// not cover it yet.
pub fn module(sim: &Simulator) -> Result<WasmModule, Unsupported> {
    let (program, arena, _) = sim.compiled_parts();
    codegen::generate(program, arena.len())
}
#[cfg(all(feature = "compiled", not(target_arch = "wasm32")))]
pub use native::{Compiled, CompiledError};
