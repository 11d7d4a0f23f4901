//! The messages between a page and `wasi_worker.js`: a job goes in (its description as JSON,
//! the module's bytes, and the circuit's bytes or a bot's input buffer), reports come out (JSON).

use engine::racetrack::program::Found;
use serde::{Deserialize, Serialize};

/// What a worker runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Job {
    /// The module's file name: its `argv[0]`, and by its stem the pilot's name.
    pub file_name: String,
    /// The linear-memory limit, in bytes.
    pub memory_bytes: u64,
    /// The seed of `random_get`.
    pub seed: u64,
    pub mode: Mode,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Mode {
    /// A pilot (spec §7): the circuit alone in its directory, as `circuit_name`.
    Pilot { circuit_name: String },
    /// A Paper Soccer bot: standard input from the shared buffer, standard output streamed.
    Bot,
}

/// How a run ended, as the worker saw it (the page adds the time limit: it terminates the
/// worker).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Ended {
    /// `_start` returned (status 0) or the program called `proc_exit(status)`.
    Exited(i32),
    /// A trap, or an error of the JavaScript engine; the words say which.
    Trapped(String),
    /// A growth of its memory past the limit (or an initial memory over it).
    OutOfMemory,
    /// It broke a rule of its sandbox; the words say which.
    BrokeRule(String),
}

/// What a worker says.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Report {
    /// The worker is up and waits for its job.
    Ready,
    /// The module was checked and is about to be instantiated: its clock starts.
    Started,
    /// The module is not a WASI command (the reason, in the native host's words).
    Refused(String),
    /// A bot wrote these bytes on its standard output.
    Stdout(Vec<u8>),
    /// The run is over.
    Ended(Ending),
}

/// The end of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ending {
    pub ended: Ended,
    /// A pilot's result file (for a bot, always `Missing`).
    pub found: Found,
    /// Standard output and error (a bot's: error only), as much as was kept.
    pub log: Vec<u8>,
    pub log_dropped: u64,
    /// Wall time of `_start`, in milliseconds.
    pub millis: f64,
}

/// The layout of a bot's standard input, a `SharedArrayBuffer`: three `i32` words (bytes
/// written in all, bytes read in all, closed), a spare word, then a ring of [`STDIN_RING`] bytes.
pub const STDIN_HEADER: u32 = 16;
pub const STDIN_RING: u32 = 64 << 10;
pub const STDIN_WRITTEN: u32 = 0;
pub const STDIN_READ: u32 = 1;
pub const STDIN_CLOSED: u32 = 2;
