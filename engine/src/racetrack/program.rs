//! Pilot *programs* (spec §7, Decision "pilot programs as WebAssembly"): from what a run
//! produced to the lap's verdict.
//!
//! Running a program is a host's business (natively `wasmtime` or a child process, in the
//! browser a worker); each host reports how the program stopped ([`Stop`]) and what it found
//! where the result file should be ([`Found`]), and [`verdict`] applies the spec's precedence.
//! Keeping that precedence and the result-file rules here, in one pure function, is what makes
//! every host give the same verdict for the same run.

use std::fmt;

use super::Circuit;
use super::f1::ResultFile;
use super::judge::{self, Verdict};

/// The largest result (or temporary) file a pilot may write: 1 MiB.
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// The default wall-time limit of a pilot, in seconds.
pub const DEFAULT_TIME_LIMIT_SECS: f64 = 120.0;

/// The default linear-memory limit of a pilot, in MiB (160 WebAssembly pages of 64 KiB).
pub const DEFAULT_MEMORY_LIMIT_MIB: f64 = 10.0;

/// The files a pilot may create in its directory: its result file and one other (spec §7).
pub const MAX_PILOT_FILES: usize = 2;

/// The files a pilot program may hold open at once (besides its standard streams and its
/// directory): enough for the circuit, the result file and its one other file several times
/// over, and a bound on what a program can make its host keep.
pub const MAX_OPEN_FILES: usize = 16;

/// What a host writes in a pilot's log the first time it refuses to open a file past
/// [`MAX_OPEN_FILES`] (the program itself gets `EMFILE` from `path_open`, each time): the same
/// words from every host, so that the log explains the crash or the missing result that usually
/// follows.
pub fn open_files_refused() -> String {
    format!(
        "quadrille: too many open files: a pilot may hold {MAX_OPEN_FILES} open at once \
         (besides its standard streams and its directory); path_open fails with EMFILE\n"
    )
}

/// Bytes of one WebAssembly page.
pub const WASM_PAGE_BYTES: u64 = 1 << 16;

/// How a pilot program stopped.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Stop {
    /// It returned or exited on its own (any exit status: the result file decides).
    Exited,
    /// It trapped, panicked, or (natively) was killed by a signal it did not ask for; or it
    /// broke a rule of its sandbox (more files than allowed, …). `message` says which.
    Crashed { message: String },
    /// It was stopped at its wall-time limit.
    TimedOut { limit_secs: f64 },
    /// It was stopped past its memory limit. `used_bytes` is what the host saw, when it knows.
    OutOfMemory {
        limit_bytes: u64,
        used_bytes: Option<u64>,
    },
}

/// The kind of a file system entry that is not a regular file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum EntryKind {
    SymbolicLink,
    Directory,
    Fifo,
    Socket,
    CharDevice,
    BlockDevice,
    Other,
}

impl EntryKind {
    fn describe(self) -> &'static str {
        match self {
            EntryKind::SymbolicLink => "a symbolic link",
            EntryKind::Directory => "a directory",
            EntryKind::Fifo => "a FIFO",
            EntryKind::Socket => "a socket",
            EntryKind::CharDevice => "a character device",
            EntryKind::BlockDevice => "a block device",
            EntryKind::Other => "not a regular file",
        }
    }
}

/// What a host found where the pilot's result file should be. Hosts read it without following
/// links and with a size cap, so that the verdict never depends on anything outside the
/// pilot's directory.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Found {
    /// No result file.
    Missing,
    /// Something that is not a regular file (never opened for reading, never followed).
    NotRegular(EntryKind),
    /// A regular file over [`MAX_FILE_BYTES`] (its size, or at least how much was seen).
    TooLarge { bytes: u64 },
    /// The file's bytes (at most [`MAX_FILE_BYTES`]).
    Bytes(Vec<u8>),
    /// The host could not read it (the I/O error, in words).
    Unreadable(String),
}

/// What a pilot program did wrong, before any lap could be judged.
#[derive(Clone, Debug, PartialEq)]
pub enum ProgramFault {
    /// `pilot_crash`: a trap, a panic, or a broken sandbox rule.
    Crash { message: String },
    /// `pilot_timeout`.
    Timeout { limit_secs: f64 },
    /// `pilot_memory`.
    Memory {
        limit_bytes: u64,
        used_bytes: Option<u64>,
    },
    /// `no_result`.
    NoResult,
    /// `bad_result`: the result file is not a readable `.F1` text; `line` is the line the
    /// problem is on, when it is on one.
    BadResult {
        message: String,
        line: Option<usize>,
    },
}

impl ProgramFault {
    /// The fault's kind as the CLI's JSON and the page name it: `"pilot_crash"`, …
    pub fn kind(&self) -> &'static str {
        match self {
            ProgramFault::Crash { .. } => "pilot_crash",
            ProgramFault::Timeout { .. } => "pilot_timeout",
            ProgramFault::Memory { .. } => "pilot_memory",
            ProgramFault::NoResult => "no_result",
            ProgramFault::BadResult { .. } => "bad_result",
        }
    }

    /// The line of a `bad_result` that names one.
    pub fn line(&self) -> Option<usize> {
        match self {
            ProgramFault::BadResult { line, .. } => *line,
            _ => None,
        }
    }
}

fn mib(bytes: u64) -> f64 {
    bytes as f64 / (1u64 << 20) as f64
}

impl fmt::Display for ProgramFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProgramFault::Crash { message } => write!(f, "the pilot crashed: {message}"),
            ProgramFault::Timeout { limit_secs } => {
                write!(f, "killed after {limit_secs:.1} s (its time limit)")
            }
            ProgramFault::Memory {
                limit_bytes,
                used_bytes: Some(used),
            } => write!(
                f,
                "killed at {:.1} MB of memory (its limit is {:.1} MiB)",
                *used as f64 / 1e6,
                mib(*limit_bytes)
            ),
            ProgramFault::Memory {
                limit_bytes,
                used_bytes: None,
            } => write!(
                f,
                "killed past its memory limit of {:.1} MiB",
                mib(*limit_bytes)
            ),
            ProgramFault::NoResult => f.write_str("no result file"),
            ProgramFault::BadResult { message, .. } => {
                write!(f, "unreadable result file: {message}")
            }
        }
    }
}

/// The verdict on one run of a pilot program: a fault of the program, or the judge's verdict
/// on the lap it wrote (spec §5).
#[derive(Clone, Debug, PartialEq)]
pub enum RunVerdict {
    Program(ProgramFault),
    Judged(Verdict),
}

impl RunVerdict {
    /// Whether the run gave a valid lap.
    pub fn is_valid(&self) -> bool {
        matches!(self, RunVerdict::Judged(v) if v.is_valid())
    }

    /// The fault's kind (a program fault, or the judge's `FaultKind`), `None` for a valid lap.
    pub fn fault_kind(&self) -> Option<&'static str> {
        match self {
            RunVerdict::Program(fault) => Some(fault.kind()),
            RunVerdict::Judged(v) => v.fault().map(|f| f.kind().as_str()),
        }
    }
}

impl fmt::Display for RunVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunVerdict::Program(fault) => fault.fmt(f),
            RunVerdict::Judged(Verdict::Valid(_)) => f.write_str("valid"),
            RunVerdict::Judged(Verdict::Invalid(fault)) => fault.fmt(f),
        }
    }
}

/// The verdict on a run (spec §7): a crash, then the time limit, then the memory limit, then no
/// result file, then a result file that is not a readable `.F1` text (not a regular file, over
/// 1 MiB, not text, or refused by the `.F1` reader), and only then the judge. A pilot that
/// crashes after writing a valid lap has still crashed.
pub fn verdict(circuit: &Circuit, stop: &Stop, found: &Found) -> RunVerdict {
    let fault = match stop {
        Stop::Crashed { message } => Some(ProgramFault::Crash {
            message: message.clone(),
        }),
        Stop::TimedOut { limit_secs } => Some(ProgramFault::Timeout {
            limit_secs: *limit_secs,
        }),
        Stop::OutOfMemory {
            limit_bytes,
            used_bytes,
        } => Some(ProgramFault::Memory {
            limit_bytes: *limit_bytes,
            used_bytes: *used_bytes,
        }),
        Stop::Exited => None,
    };
    if let Some(fault) = fault {
        return RunVerdict::Program(fault);
    }
    match read_result(found) {
        Ok(file) => RunVerdict::Judged(judge::judge(circuit, &file)),
        Err(fault) => RunVerdict::Program(fault),
    }
}

/// The result file's text, or why it is `no_result` / `bad_result`.
pub fn read_result(found: &Found) -> Result<ResultFile, ProgramFault> {
    let bytes = match found {
        Found::Missing => return Err(ProgramFault::NoResult),
        Found::NotRegular(kind) => {
            return Err(ProgramFault::BadResult {
                message: format!("the result file is {}, not a regular file", kind.describe()),
                line: None,
            });
        }
        Found::TooLarge { bytes } => {
            return Err(ProgramFault::BadResult {
                message: format!(
                    "the result file has {bytes} bytes, more than the {MAX_FILE_BYTES} allowed"
                ),
                line: None,
            });
        }
        Found::Bytes(bytes) if bytes.len() as u64 > MAX_FILE_BYTES => {
            return Err(ProgramFault::BadResult {
                message: format!(
                    "the result file has {} bytes, more than the {MAX_FILE_BYTES} allowed",
                    bytes.len()
                ),
                line: None,
            });
        }
        Found::Unreadable(why) => {
            return Err(ProgramFault::BadResult {
                message: format!("the result file cannot be read: {why}"),
                line: None,
            });
        }
        Found::Bytes(bytes) => bytes,
    };
    if let Some((line, column, byte)) = first_non_text(bytes) {
        return Err(ProgramFault::BadResult {
            message: format!("line {line}: byte 0x{byte:02x} at column {column} is not text"),
            line: Some(line),
        });
    }
    ResultFile::parse(bytes).map_err(|e| ProgramFault::BadResult {
        message: e.to_string(),
        line: Some(e.line()),
    })
}

/// The first byte that no text file holds (a control character other than tab, CR and LF, or
/// DEL), with its 1-based line and column. Lines end as the `.F1` reader ends them (CR, LF,
/// CRLF), so the line number is the reader's.
fn first_non_text(bytes: &[u8]) -> Option<(usize, usize, u8)> {
    let (mut line, mut column) = (1, 0);
    let mut after_cr = false;
    for &b in bytes {
        match b {
            b'\n' if after_cr => after_cr = false,
            b'\n' | b'\r' => {
                line += 1;
                column = 0;
                after_cr = b == b'\r';
            }
            _ => {
                after_cr = false;
                column += 1;
                if (b < 0x20 && b != b'\t') || b == 0x7f {
                    return Some((line, column, b));
                }
            }
        }
    }
    None
}

/// A trap's message, with the panic message a Rust pilot printed just before it (its last line
/// mentioning `panicked`, at most 200 characters), if any: what a crash says, from any host.
pub fn crash_message(trap: String, log: &[u8]) -> String {
    let text = String::from_utf8_lossy(log);
    match text
        .lines()
        .rev()
        .find(|l| l.contains("panicked"))
        .map(str::trim)
    {
        Some(panic) => {
            let panic: String = panic.chars().take(200).collect();
            format!("{trap} ({panic})")
        }
        None => trap,
    }
}

/// Whether `file_name` is the result file of the pilot whose file stem is `stem`: `<stem>.F1`,
/// the extension in any case.
pub fn is_result_file_name(file_name: &str, stem: &str) -> bool {
    file_name
        .strip_prefix(stem)
        .and_then(|rest| rest.strip_prefix('.'))
        .is_some_and(|ext| ext.eq_ignore_ascii_case("f1"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::racetrack::samples;

    fn ring() -> Circuit {
        Circuit::parse(samples::by_name("ring").unwrap().text.as_bytes()).unwrap()
    }

    fn valid_lap(circuit: &Circuit) -> Vec<u8> {
        let lap = crate::racetrack::pilot::Pilot::Demo.fly(circuit).unwrap();
        lap.to_f1("demo", "ring.cir").into_bytes()
    }

    #[test]
    fn precedence_crash_time_memory_then_result() {
        let c = ring();
        let good = Found::Bytes(valid_lap(&c));
        let crash = Stop::Crashed {
            message: "unreachable".into(),
        };
        // A crash after writing a valid lap is still a crash.
        assert_eq!(verdict(&c, &crash, &good).fault_kind(), Some("pilot_crash"));
        let time = Stop::TimedOut { limit_secs: 2.0 };
        assert_eq!(
            verdict(&c, &time, &good).fault_kind(),
            Some("pilot_timeout")
        );
        let memory = Stop::OutOfMemory {
            limit_bytes: 10 << 20,
            used_bytes: None,
        };
        assert_eq!(
            verdict(&c, &memory, &Found::Missing).fault_kind(),
            Some("pilot_memory")
        );
        assert_eq!(
            verdict(&c, &Stop::Exited, &Found::Missing).fault_kind(),
            Some("no_result")
        );
        let v = verdict(&c, &Stop::Exited, &good);
        assert!(v.is_valid(), "{v}");
        assert_eq!(v.fault_kind(), None);
        assert_eq!(v.to_string(), "valid");
    }

    #[test]
    fn result_files_that_are_not_regular_small_text_are_bad_results() {
        let c = ring();
        for kind in [
            EntryKind::SymbolicLink,
            EntryKind::Fifo,
            EntryKind::CharDevice,
        ] {
            let v = verdict(&c, &Stop::Exited, &Found::NotRegular(kind));
            assert_eq!(v.fault_kind(), Some("bad_result"));
            assert!(v.to_string().contains("not a regular file"), "{v}");
        }
        let big = verdict(
            &c,
            &Stop::Exited,
            &Found::TooLarge {
                bytes: 5_000_000_000,
            },
        );
        assert_eq!(big.fault_kind(), Some("bad_result"));
        assert!(big.to_string().contains("5000000000 bytes"), "{big}");
        let over = Found::Bytes(vec![b'1'; MAX_FILE_BYTES as usize + 1]);
        assert_eq!(
            verdict(&c, &Stop::Exited, &over).fault_kind(),
            Some("bad_result")
        );
    }

    #[test]
    fn binary_and_malformed_files_name_their_line() {
        let c = ring();
        let binary = Found::Bytes(b"pilot\r\nring.cir\r\n40,4\r\n4\x001,4\r\n".to_vec());
        match verdict(&c, &Stop::Exited, &binary) {
            RunVerdict::Program(fault) => {
                assert_eq!(fault.kind(), "bad_result");
                assert_eq!(fault.line(), Some(4));
                assert!(
                    fault.to_string().contains("byte 0x00 at column 2"),
                    "{fault}"
                );
            }
            other => panic!("{other:?}"),
        }
        // Two binary lines only: the reader alone would see a header and no position.
        let header_only = Found::Bytes(vec![0xff, 0x00, 0x01, b'\n', 0x02]);
        assert_eq!(
            verdict(&c, &Stop::Exited, &header_only)
                .fault_kind()
                .unwrap(),
            "bad_result"
        );
        let junk = Found::Bytes(b"junk\nring.cir\n40,4\n12;34\n".to_vec());
        match verdict(&c, &Stop::Exited, &junk) {
            RunVerdict::Program(fault) => {
                assert_eq!(fault.line(), Some(4));
                assert!(fault.to_string().contains("line 4"), "{fault}");
            }
            other => panic!("{other:?}"),
        }
        // Latin-1 names are text.
        let latin = Found::Bytes(b"Andr\xe9\r\nring.cir\r\n40,4\r\n".to_vec());
        assert_eq!(
            verdict(&c, &Stop::Exited, &latin).fault_kind(),
            Some("did_not_finish")
        );
    }

    #[test]
    fn a_readable_file_gets_the_judges_verdict() {
        let c = ring();
        let wrong_start = Found::Bytes(b"p\nring.cir\n41,4\n".to_vec());
        assert_eq!(
            verdict(&c, &Stop::Exited, &wrong_start).fault_kind(),
            Some("start")
        );
    }

    #[test]
    fn result_file_names_match_the_stem_and_any_case_of_f1() {
        assert!(is_result_file_name("vmax3.F1", "vmax3"));
        assert!(is_result_file_name("vmax3.f1", "vmax3"));
        assert!(!is_result_file_name("VMAX3.F1", "vmax3"));
        assert!(!is_result_file_name("vmax3.F12", "vmax3"));
        assert!(!is_result_file_name("vmax.F1", "vmax3"));
        assert!(!is_result_file_name("vmax3F1", "vmax3"));
    }

    #[test]
    fn messages_say_what_happened() {
        assert_eq!(
            ProgramFault::Timeout { limit_secs: 2.0 }.to_string(),
            "killed after 2.0 s (its time limit)"
        );
        let m = ProgramFault::Memory {
            limit_bytes: 10 << 20,
            used_bytes: Some(400_000_000),
        };
        assert!(m.to_string().contains("400.0 MB of memory"), "{m}");
    }
}
