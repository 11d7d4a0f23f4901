//! Running one pilot program on one circuit under the contest limits (spec §7): a fresh
//! temporary directory holding a copy of the circuit, the circuit's file name as the one
//! argument, a wall-clock limit and a memory limit; past either, the program and everything it
//! started are killed (and when it exits, whatever it left running is killed too). What it
//! leaves behind is `<its own name>.F1`, read without trusting it ([`sandbox::files`]: no link
//! followed, regular files only, at most 1 MiB, never blocking).
//!
//! Where Linux's Landlock is there, the program is confined ([`super::confine`]): it writes only
//! in its directory and opens no TCP connection. Elsewhere it can read and write whatever the
//! organiser's user can; pilots that must be sandboxed everywhere are entered as WebAssembly.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::Context;
use engine::racetrack::program::{Found, Stop};
use sandbox::files;

use super::plan::Limits;

/// How a program run ended.
pub enum RunEnd {
    /// It ran: how it stopped, and what was found where its result file should be.
    Ran { stop: Stop, found: Found },
    /// It could not be started.
    NotStarted(String),
}

/// Runs `program args… circuit_name` in a fresh directory holding a copy of `circuit`,
/// confined when `confine` (see [`super::confine`]).
pub fn run_pilot(
    program: &Path,
    args: &[String],
    circuit: &Path,
    circuit_name: &str,
    limits: Limits,
    confine: bool,
) -> anyhow::Result<RunEnd> {
    let dir = TempDir::new()?;
    fs::copy(circuit, dir.path.join(circuit_name)).with_context(|| {
        format!(
            "{}: cannot copy into {}",
            circuit.display(),
            dir.path.display()
        )
    })?;
    let mut command = Command::new(program);
    command
        .args(args)
        .arg(circuit_name)
        .current_dir(&dir.path)
        // Its temporary file (spec §7) belongs in its own directory too.
        .env("TMPDIR", &dir.path)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        // Its own process group, so that everything it starts can be killed with it.
        command.process_group(0);
    }
    #[cfg(target_os = "linux")]
    if confine {
        use std::os::unix::process::CommandExt;
        let confinement = match super::confine::prepare(&dir.path) {
            Ok(confinement) => confinement,
            Err(why) => return Ok(RunEnd::NotStarted(format!("cannot confine it: {why}"))),
        };
        // SAFETY: the closure only makes system calls (prctl, landlock_restrict_self) on a
        // descriptor it owns: nothing that allocates or locks between fork and exec.
        unsafe {
            command.pre_exec(move || confinement.enforce());
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = confine;
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(e) => return Ok(RunEnd::NotStarted(format!("{}: {e}", program.display()))),
    };
    let started = Instant::now();
    let mut peak = 0u64;
    let stop = loop {
        if let Some(status) = child.try_wait().context("waiting for a pilot")? {
            // What it left running must not touch the directory while it is read.
            kill_group(&child);
            break exit_stop(status);
        }
        if started.elapsed() > limits.time {
            kill(&mut child);
            break Stop::TimedOut {
                limit_secs: limits.time.as_secs_f64(),
            };
        }
        peak = peak.max(group_memory(child.id()));
        if peak > limits.memory_bytes {
            kill(&mut child);
            break Stop::OutOfMemory {
                limit_bytes: limits.memory_bytes,
                used_bytes: Some(peak),
            };
        }
        thread::sleep(Duration::from_millis(5));
    };
    let stem = program
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let found = files::read_result(files::result_path_or_only_f1(&dir.path, &stem).as_deref());
    Ok(RunEnd::Ran { stop, found })
}

/// An exit of any status is the program's own end (its result file decides); death by a
/// signal it did not get from us is a crash.
fn exit_stop(status: std::process::ExitStatus) -> Stop {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return Stop::Crashed {
                message: format!("killed by signal {signal}"),
            };
        }
    }
    let _ = status;
    Stop::Exited
}

/// Kills the program's whole process group, then reaps it.
fn kill(child: &mut Child) {
    kill_group(child);
    let _ = child.kill();
    let _ = child.wait();
}

/// Kills every process left in the program's group.
fn kill_group(child: &Child) {
    #[cfg(unix)]
    {
        let pgid = child.id() as libc::pid_t;
        // SAFETY: kill(2) with a negative pid signals the process group we created for the
        // child; it touches no memory of ours.
        unsafe {
            libc::kill(-pgid, libc::SIGKILL);
        }
    }
    #[cfg(not(unix))]
    let _ = child;
}

/// Resident memory of every process in the group `pgid`, in bytes (Linux; 0 elsewhere).
fn group_memory(pgid: u32) -> u64 {
    #[cfg(target_os = "linux")]
    {
        let page = 4096u64;
        let Ok(entries) = fs::read_dir("/proc") else {
            return 0;
        };
        entries
            .filter_map(|e| e.ok())
            .filter(|e| {
                e.file_name()
                    .to_string_lossy()
                    .bytes()
                    .all(|b| b.is_ascii_digit())
            })
            .filter_map(|e| fs::read_to_string(e.path().join("stat")).ok())
            .filter_map(|stat| {
                // Fields after the command name in parentheses: state ppid pgrp … rss (24th).
                let rest = stat.get(stat.rfind(')')? + 1..)?;
                let fields: Vec<&str> = rest.split_whitespace().collect();
                let group: u32 = fields.get(2)?.parse().ok()?;
                let rss: u64 = fields.get(21)?.parse().ok()?;
                (group == pgid).then_some(rss * page)
            })
            .sum()
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = pgid;
        0
    }
}

/// A directory under the system temporary directory, removed when dropped.
struct TempDir {
    path: PathBuf,
}

impl TempDir {
    fn new() -> anyhow::Result<TempDir> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let path = std::env::temp_dir().join(format!(
            "quadrille-contest-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        fs::create_dir_all(&path).with_context(|| format!("{}: cannot create", path.display()))?;
        Ok(TempDir { path })
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.path);
    }
}
