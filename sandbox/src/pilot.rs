//! A pilot run (spec §7, Decision "pilot programs as WebAssembly"): `argv = [pilot file name,
//! circuit file name]`, its current directory `.` a fresh directory holding only the circuit,
//! no environment, no network, `random_get` from the run's seed, the time and memory limits,
//! and the file allowance (its result file and one other, each ≤ 1 MiB) watched while it runs.
//! Afterwards the result file `<stem>.F1` is read without trusting it ([`files`]).

use std::path::Path;
use std::time::Instant;

use engine::racetrack::program::{self, Found, Stop};
use wasmtime_wasi::{FsPerms, WasiCtxBuilder};

use crate::files;
use crate::log::{DEFAULT_LOG_BYTES, Log};
use crate::random::SeededRandom;
use crate::wasi::{Ended, Limits, Program, Sandbox};

/// What one pilot run produced: give `stop` and `found` to
/// [`engine::racetrack::program::verdict`] for the verdict.
#[derive(Clone, Debug)]
pub struct PilotRun {
    pub stop: Stop,
    pub found: Found,
    /// Wall time of the run, in milliseconds.
    pub millis: f64,
    /// What it printed (standard output and error together), as much as was kept.
    pub log: Vec<u8>,
    /// Bytes it printed past what was kept.
    pub log_dropped: u64,
}

/// The run could not be set up (the host's fault, not the pilot's).
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("a circuit file name is one plain name, not {0:?}")]
    CircuitName(String),
    #[error("cannot prepare the pilot's directory: {0}")]
    Directory(#[from] std::io::Error),
    #[error("cannot give the pilot its directory: {0}")]
    Preopen(String),
}

/// Runs `program` on the circuit `circuit` (its file's bytes), which it sees as `circuit_name`.
pub fn run_pilot(
    sandbox: &Sandbox,
    program: &Program,
    circuit: &[u8],
    circuit_name: &str,
    limits: Limits,
    seed: u64,
) -> Result<PilotRun, RunError> {
    let plain = Path::new(circuit_name)
        .file_name()
        .is_some_and(|n| n == circuit_name);
    if !plain || circuit_name.is_empty() {
        return Err(RunError::CircuitName(circuit_name.to_owned()));
    }
    let dir = tempfile::Builder::new()
        .prefix("quadrille-pilot-")
        .tempdir()?;
    std::fs::write(dir.path().join(circuit_name), circuit)?;
    let log = Log::new(DEFAULT_LOG_BYTES);
    let mut builder = WasiCtxBuilder::new();
    builder
        .args(&[program.file_name(), circuit_name])
        .stdout(log.clone())
        .stderr(log.clone())
        .secure_random(SeededRandom::new(seed))
        .insecure_random(SeededRandom::new(seed))
        .insecure_random_seed(u128::from(seed))
        .preopened_dir(dir.path(), ".", FsPerms::ReadWrite)
        .map_err(|e| RunError::Preopen(e.to_string()))?;
    let wasi = builder.build_p1();
    let watched = dir.path().to_path_buf();
    let keep = circuit_name.to_owned();
    let watch = Box::new(move || files::check_allowance(&watched, &keep));
    let started = Instant::now();
    let ended = sandbox.run(program, wasi, seed, limits, Some(watch), Some(log.clone()));
    let millis = started.elapsed().as_secs_f64() * 1e3;
    let (log, log_dropped) = log.contents();
    // The allowance is checked once more at the end, so that the verdict does not depend on
    // whether a tick fell inside a short run.
    let ended = match (ended, files::check_allowance(dir.path(), circuit_name)) {
        (Ended::Exited(_), Err(rule)) => Ended::BrokeRule(rule),
        (ended, _) => ended,
    };
    let stop = match ended {
        Ended::Exited(_) => Stop::Exited,
        Ended::Trapped(message) => Stop::Crashed {
            message: program::crash_message(message, &log),
        },
        Ended::BrokeRule(rule) => Stop::Crashed {
            message: format!("stopped by its sandbox: {rule}"),
        },
        Ended::TimedOut => Stop::TimedOut {
            limit_secs: limits.time.as_secs_f64(),
        },
        Ended::OutOfMemory => Stop::OutOfMemory {
            limit_bytes: limits.memory_bytes,
            used_bytes: None,
        },
    };
    // Whatever the program did to its own directory, the allowance holds for what is read.
    let found = files::read_result(files::result_path(dir.path(), program.stem()).as_deref());
    Ok(PilotRun {
        stop,
        found,
        millis,
        log,
        log_dropped,
    })
}
