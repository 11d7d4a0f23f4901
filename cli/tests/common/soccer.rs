//! Shared by the `soccer_referee*` and `soccer_play*` tests: running `quadrille` with a time
//! limit, the scripted bot, engine self-play, checking recorded games, and pseudo-terminals
//! standing in for serial ports.
#![allow(
    dead_code,
    reason = "each test binary that includes this module uses only some of it"
)]

use std::io::{Read, Write};
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use engine::soccer::record::Record;
use engine::soccer::{Reason, Side};
use serialport::{SerialPort, TTYPort};

// Not every test that includes this file uses all of them.
#[allow(
    unused_imports,
    reason = "each test binary that includes this module uses only some of it"
)]
pub use super::{assert_success, code, quadrille};

/// Held while a pseudo-terminal is opened and marked close-on-exec, and while a child is
/// spawned, so no child of a parallel test inherits another test's terminal (which would keep
/// it open after the test hangs up).
static FD_LOCK: Mutex<()> = Mutex::new(());

/// Spawns `cmd` with null input and piped output.
pub fn spawn(mut cmd: Command) -> Child {
    let _guard = FD_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("quadrille starts")
}

/// Runs `cmd` to completion, killing it and failing if it takes longer than `limit`.
pub fn run(cmd: Command, limit: Duration) -> Output {
    wait(spawn(cmd), limit)
}

/// Waits for a spawned child with piped output, killing it and failing after `limit`.
pub fn wait(mut child: Child, limit: Duration) -> Output {
    let until = Instant::now() + limit;
    loop {
        if child.try_wait().expect("try_wait").is_some() {
            return child.wait_with_output().expect("output");
        }
        if Instant::now() > until {
            let _ = child.kill();
            let out = child.wait_with_output().expect("output");
            panic!(
                "still running after {limit:?}; stdout:\n{}\nstderr:\n{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The lines `quadrille` printed, after it exited 0.
pub fn stdout_lines(out: &Output) -> Vec<String> {
    assert_success(out);
    String::from_utf8(out.stdout.clone())
        .expect("utf-8")
        .lines()
        .map(str::to_string)
        .collect()
}

/// The `exec:` player running `bots/scripted.py` with `args`.
pub fn bot(args: &[&str]) -> String {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/bots/scripted.py");
    let mut spec = format!("exec:python3 {}", script.display());
    for a in args {
        spec.push(' ');
        spec.push_str(a);
    }
    spec
}

/// A whole game of the level-1 engine against itself (the starter's seeded `seed`), as a
/// record with its result.
pub fn self_play(width: u8, length: u8, starter: Side, seed: u64) -> Record {
    testkit::soccer::self_play(width, length, starter, 1, seed)
}

/// Parses a game the referee printed and checks it ended on the field (a goal or a stuck
/// ball, not a player's fault) with the verdict its replay reaches.
pub fn assert_ended_on_the_field(line: &str) -> Record {
    let record = Record::parse(line).unwrap_or_else(|e| panic!("{line}: {e}"));
    let result = record.result.expect("a verdict");
    assert!(
        matches!(
            result.reason,
            Reason::Goal | Reason::OwnGoal | Reason::Stuck
        ),
        "the game must end on the field, not by a fault: {line}"
    );
    let game = record.replay().unwrap_or_else(|e| panic!("{line}: {e:?}"));
    assert_eq!(game.outcome(), Some(result), "{line}");
    record
}

/// The turns of `record` played by `side`, as bot arguments.
pub fn turns_of(record: &Record, side: Side) -> Vec<String> {
    let first = usize::from(record.starter != side);
    record
        .turns
        .iter()
        .skip(first)
        .step_by(2)
        .map(|t| t.to_string())
        .collect()
}

/// A pseudo-terminal: the test holds the master end (and keeps the slave open so reads of the
/// master wait instead of failing), a program opens `path` as its serial port.
pub struct Pty {
    pub master: TTYPort,
    pub slave: TTYPort,
    pub path: String,
}

impl Pty {
    pub fn new() -> Pty {
        let _guard = FD_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        let (mut master, slave) = TTYPort::pair().expect("a pseudo-terminal");
        for fd in [master.as_raw_fd(), slave.as_raw_fd()] {
            // SAFETY: fcntl on a descriptor we own, setting a flag; no memory is involved.
            let status = unsafe { libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC) };
            assert_eq!(status, 0);
        }
        let path = slave.name().expect("the slave's path");
        master.set_timeout(Duration::from_millis(20)).unwrap();
        Pty {
            master,
            slave,
            path,
        }
    }

    /// Reads from the master until `want` bytes arrived or `limit` passed.
    pub fn read_exactly(&mut self, want: usize, limit: Duration) -> Vec<u8> {
        let until = Instant::now() + limit;
        let mut got = Vec::new();
        let mut buf = [0u8; 256];
        while got.len() < want && Instant::now() < until {
            let n = want - got.len();
            if let Ok(k) = self.master.read(&mut buf[..n.min(256)]) {
                got.extend_from_slice(&buf[..k]);
            }
        }
        got
    }

    pub fn write(&mut self, bytes: &[u8]) {
        self.master.write_all(bytes).unwrap();
    }
}

impl Pty {
    /// Reads from the master until a byte sequence ending with `end` arrived (or `limit`).
    pub fn read_until(&mut self, end: &[u8], limit: Duration) -> Vec<u8> {
        let until = Instant::now() + limit;
        let mut got = Vec::new();
        let mut byte = [0u8; 1];
        while !got.ends_with(end) && Instant::now() < until {
            if let Ok(1) = self.master.read(&mut byte) {
                got.push(byte[0]);
            }
        }
        got
    }
}

/// How long a whole test league may take before the test gives up on it.
const LEAGUE_LIMIT: Duration = Duration::from_secs(300);

/// Runs the league of `plan` with `jobs` workers: its JSON text, the JSON, and its records file.
pub fn league(dir: &Path, plan: &str, jobs: &str) -> (String, serde_json::Value, String) {
    league_with(dir, plan, jobs, &[])
}

/// [`league`] with more options (`extra`) on the command line.
pub fn league_with(
    dir: &Path,
    plan: &str,
    jobs: &str,
    extra: &[&str],
) -> (String, serde_json::Value, String) {
    let records = dir.join(format!("records-{jobs}.txt"));
    let mut args = vec![
        "soccer",
        "league",
        plan,
        "--json",
        "--jobs",
        jobs,
        "--records",
        records.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let out = run(quadrille(&args), LEAGUE_LIMIT);
    assert_success(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    let json: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    (text, json, std::fs::read_to_string(records).unwrap())
}
