//! Players that are WebAssembly modules (WASI preview-1 commands) speaking the protocol on their
//! standard input and output, run sandboxed on a thread of this process ([`sandbox::bot`]).
//!
//! One sandbox serves the whole process, and each module is compiled once and kept: a league
//! connects the same bot for every game it plays, and compiling is by far the slowest part of
//! starting one.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use anyhow::Context;
use sandbox::bot::{BotEnd, spawn_bot};
use sandbox::wasi::{Ended, Program, Sandbox};

use super::Connection;

/// The process's sandbox, made on first use.
fn sandbox() -> anyhow::Result<Arc<Sandbox>> {
    static SANDBOX: OnceLock<Arc<Sandbox>> = OnceLock::new();
    if let Some(sandbox) = SANDBOX.get() {
        return Ok(sandbox.clone());
    }
    let made = Arc::new(Sandbox::new()?);
    Ok(SANDBOX.get_or_init(|| made).clone())
}

/// The compiled module at `path`, compiled on its first use.
fn program(sandbox: &Sandbox, path: &Path) -> anyhow::Result<Arc<Program>> {
    static PROGRAMS: OnceLock<Mutex<HashMap<PathBuf, Arc<Program>>>> = OnceLock::new();
    let programs = PROGRAMS.get_or_init(Mutex::default);
    // Held while compiling, so that two games starting at once compile the module once.
    let mut programs = programs.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(program) = programs.get(path) {
        return Ok(program.clone());
    }
    let bytes = std::fs::read(path).with_context(|| format!("wasm:{}", path.display()))?;
    let file_name = path
        .file_name()
        .map_or_else(|| "bot.wasm".into(), |n| n.to_string_lossy().into_owned());
    let program = Arc::new(
        sandbox
            .load(&bytes, &file_name)
            .with_context(|| format!("wasm:{}", path.display()))?,
    );
    programs.insert(path.to_path_buf(), program.clone());
    Ok(program)
}

/// Starts the bot at `path` with `seed` for its `random_get` and `memory_bytes` of linear
/// memory at most (a growth past it traps: the bot is gone, and loses by `disconnect`).
pub fn spawn(path: &Path, seed: u64, memory_bytes: u64) -> anyhow::Result<Connection> {
    let sandbox = sandbox()?;
    let program = program(&sandbox, path)?;
    let name = format!("wasm:{}", path.display());
    let label = name.clone();
    let bot = spawn_bot(
        sandbox,
        program,
        name.clone(),
        memory_bytes,
        seed,
        move |end| report(&label, &end),
    )
    .with_context(|| format!("{name}: cannot start"))?;
    let killer = bot.killer.clone();
    Ok(Connection {
        name,
        reader: Box::new(bot.output),
        writer: Box::new(bot.input),
        closer: Some(Box::new(move || killer.kill())),
    })
}

/// Says on standard error why a bot stopped, when it was not by exiting or by being stopped at
/// the end of its game: the referee rules on the wire (a disconnect), this says what happened.
fn report(name: &str, end: &BotEnd) {
    let why = match &end.ended {
        Ended::Exited(_) | Ended::BrokeRule(_) => return,
        Ended::Trapped(message) => message.clone(),
        Ended::TimedOut => "stopped".to_owned(),
        Ended::OutOfMemory => "stopped: linear memory past its limit".to_owned(),
    };
    let stderr = String::from_utf8_lossy(&end.stderr);
    match stderr.lines().rev().find(|l| !l.trim().is_empty()) {
        Some(last) => eprintln!("{name}: {why} (its last words: {})", last.trim()),
        None => eprintln!("{name}: {why}"),
    }
}
