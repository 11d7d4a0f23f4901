//! Running one pilot program on one circuit under the contest limits (spec §7): a fresh
//! temporary directory holding a copy of the circuit, the circuit's file name as the one
//! argument, a wall-clock limit and a memory limit; past either, the program and everything it
//! started are killed. What it leaves behind is `<its own name>.F1`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::Context;

use super::plan::Limits;

/// How a program run ended.
pub enum RunEnd {
    /// It exited (with any status) and left this result file, if it found one.
    Finished { result: Option<Vec<u8>> },
    /// Killed after the time limit.
    TimedOut,
    /// Killed past the memory limit (peak bytes seen).
    OutOfMemory(u64),
    /// It could not be started.
    NotStarted(String),
}

/// Runs `program args… circuit_name` in a fresh directory holding a copy of `circuit`.
pub fn run_pilot(
    program: &Path,
    args: &[String],
    circuit: &Path,
    circuit_name: &str,
    limits: Limits,
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
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        // Its own process group, so that everything it starts can be killed with it.
        command.process_group(0);
    }
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(e) => return Ok(RunEnd::NotStarted(format!("{}: {e}", program.display()))),
    };
    let started = Instant::now();
    let mut peak = 0u64;
    loop {
        if child.try_wait().context("waiting for a pilot")?.is_some() {
            break;
        }
        if started.elapsed() > limits.time {
            kill(&mut child);
            return Ok(RunEnd::TimedOut);
        }
        peak = peak.max(group_memory(child.id()));
        if peak > limits.memory_bytes {
            kill(&mut child);
            return Ok(RunEnd::OutOfMemory(peak));
        }
        thread::sleep(Duration::from_millis(5));
    }
    let stem = program
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    Ok(RunEnd::Finished {
        result: find_result(&dir.path, &stem),
    })
}

/// `<stem>.F1` (any case), or else the only `.f1` file the program left.
fn find_result(dir: &Path, stem: &str) -> Option<Vec<u8>> {
    let files: Vec<PathBuf> = fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("f1")))
        .collect();
    let named = files.iter().find(|p| {
        p.file_stem()
            .is_some_and(|s| s.to_string_lossy().eq_ignore_ascii_case(stem))
    });
    let pick = named.or(if files.len() == 1 {
        files.first()
    } else {
        None
    })?;
    fs::read(pick).ok()
}

/// Kills the program's whole process group, then reaps it.
fn kill(child: &mut Child) {
    #[cfg(unix)]
    {
        let pgid = child.id() as libc::pid_t;
        // SAFETY: kill(2) with a negative pid signals the process group we created for the
        // child; it touches no memory of ours.
        unsafe {
            libc::kill(-pgid, libc::SIGKILL);
        }
    }
    let _ = child.kill();
    let _ = child.wait();
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
