//! WebAssembly programs in the browser: WASI (preview 1) command modules — pilots (spec §7)
//! and Paper Soccer bots — each in a web worker of its own (`wasi_worker.js`), under the same
//! rules as the native host (`sandbox`), judged by the same code
//! ([`engine::racetrack::program::verdict`]).
//!
//! * [`module`] — the checks that make a module a WASI command, and its memory limit (every
//!   `memory.grow` re-encoded into a guarded call).
//! * [`world`] — the program's world: arguments, in-memory directory and file allowance, open
//!   files, standard streams, the seeded random stream.
//! * [`protocol`] — the messages between page and worker.
//! * [`runner`] — the page's side of a pilot run: [`runner::run_pilot`] (the pilot lab and the
//!   contest use it).
//! * [`bot`] — the page's side of a bot: [`bot::WasmBot`], bytes in and out like a board.
//! * `worker` (browser only) — the worker's side.

pub mod bot;
pub mod module;
pub mod protocol;
pub mod runner;
#[cfg(target_arch = "wasm32")]
pub mod worker;
pub mod world;

pub use bot::{BotEvent, WasmBot};
pub use runner::{PilotEvent, PilotHandle, PilotLimits, PilotOutcome, PilotSpec, run_pilot};

/// Where trunk puts the worker's script, relative to the page.
pub const WORKER_SCRIPT: &str = "wasi_worker.js";
