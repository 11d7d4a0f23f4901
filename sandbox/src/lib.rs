//! Running programs that nobody vouches for: entrants' pilots and Paper Soccer bots.
//!
//! * [`wasi`] — the WebAssembly host: one `wasmtime` engine with an epoch ticker, checks that a
//!   module is a WASI preview-1 command, and runs it under a wall-time and a linear-memory limit
//!   with nothing but what the caller gives it (arguments, a directory, standard streams, a
//!   seeded random source). The pilot and bot entry points ([`pilot`], [`bot`]) are built on it.
//! * [`pilot`] — a pilot run (spec §7): a fresh directory holding only the circuit, the pilot's
//!   file allowance watched while it runs, its result file read afterwards.
//! * [`bot`] — a Paper Soccer bot: a long-lived command speaking the wire protocol on streaming
//!   standard input and output, on a thread of its own, killable at any time.
//! * [`files`] — reading what any program (WebAssembly or native) left behind without trusting
//!   it: no link followed, regular files only, at most 1 MiB, never blocking.
//!
//! What the run *means* (the verdict and its precedence) is not decided here but in
//! [`engine::racetrack::program`], so that a browser host gives the same verdicts.

pub mod bot;
pub mod files;
pub mod log;
mod open_files;
pub mod pilot;
pub mod random;
pub mod wasi;

pub use bot::{Bot, BotEnd, DEFAULT_BOT_MEMORY, spawn_bot};
pub use pilot::{PilotRun, run_pilot};
pub use wasi::{Limits, LoadError, Program, Sandbox};
