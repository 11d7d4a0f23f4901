//! `cargo xtask fuzz` and the `fuzz` stage of `cargo xtask test`: libFuzzer, through cargo-fuzz,
//! on every reader of untrusted bytes (`fuzz/`: `.cir`, `.F1`, BMP, game records, the serial
//! protocol, yosys netlists).
//!
//! Each target starts from the repository's own inputs (samples, test fixtures, `fuzz/seeds/`)
//! and every crash ever kept (`fuzz/regressions/<target>/`), and grows a corpus of its own in
//! `target/fuzz/corpus/<target>` that later runs on the same machine go on from. A crash, hang
//! or runaway allocation is copied into `fuzz/regressions/<target>/`, where
//! `cli/tests/fuzz_regressions.rs` replays it in every `cargo test` once committed.
//!
//! The build uses `--sanitizer none`: the address sanitizer needs a nightly compiler, and the
//! readers are safe Rust, where a panic (overflow checks are on) is what there is to find.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use anyhow::{Context, Result, bail};

use crate::process::{self, Env};
use crate::workspace::Workspace;

/// One fuzz target: its name (a binary of `fuzz/Cargo.toml`), the longest input worth trying,
/// and where in the repository its seed inputs are (directory, file extension).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Target {
    pub name: &'static str,
    max_len: usize,
    seeds: &'static [(&'static str, &'static str)],
}

/// Every target, in the order the stage runs them.
pub const TARGETS: [Target; 6] = [
    Target {
        name: "cir",
        max_len: 20_000,
        seeds: &[("engine/samples", "cir")],
    },
    Target {
        name: "f1",
        max_len: 4_096,
        seeds: &[("e2e/tests/pilots-fixtures", "f1")],
    },
    Target {
        name: "bmp",
        max_len: 48_000,
        seeds: &[],
    },
    Target {
        name: "record",
        max_len: 4_096,
        seeds: &[],
    },
    Target {
        name: "protocol",
        max_len: 1_024,
        seeds: &[],
    },
    Target {
        name: "netlist",
        max_len: 65_536,
        seeds: &[("hdl-sim/tests/designs", "json")],
    },
];

/// The target that holds the planted panic of `--plant` (the `.F1` reader, behind
/// `cfg(quadrille_planted_panic)`).
const PLANTED: &str = "f1";

/// Seconds per target in the `fuzz` stage of `cargo xtask test`: six targets, about 2.5 min.
pub const STAGE_SECONDS: u64 = 25;

/// Seconds per target of `cargo xtask fuzz` without `--seconds`.
pub const DEFAULT_SECONDS: u64 = 300;

/// What to fuzz and for how long.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FuzzOptions {
    pub seconds: u64,
    /// Target names; empty means all.
    pub targets: Vec<String>,
    /// Instead of fuzzing: build with the planted panic and check it is found in `seconds`.
    pub plant: bool,
    /// libFuzzer's random seed; `None` lets it pick one. The stage fixes it, so that a fresh
    /// clone (CI) mutates the same way from the same seeds, as far as the time allows.
    pub seed: Option<u64>,
}

impl Default for FuzzOptions {
    fn default() -> Self {
        Self {
            seconds: DEFAULT_SECONDS,
            targets: Vec::new(),
            plant: false,
            seed: None,
        }
    }
}

/// The target called `name`.
pub fn target(name: &str) -> Option<Target> {
    TARGETS.into_iter().find(|t| t.name == name)
}

/// How runs of one target went.
struct Outcome {
    executions: Option<u64>,
    /// The files libFuzzer wrote for a failing input (crash, timeout, out of memory).
    findings: Vec<PathBuf>,
    log: PathBuf,
    succeeded: bool,
}

/// Runs the targets of `options`, each for its time; fails naming every target that crashed,
/// with the inputs kept in `fuzz/regressions/`.
pub fn run_fuzz(ws: &Workspace, env: &Env, cargo_fuzz: &Path, options: &FuzzOptions) -> Result<()> {
    if options.plant {
        return planted(ws, env, cargo_fuzz, options);
    }
    let targets = chosen(&options.targets)?;
    build(ws, env, cargo_fuzz, &build_dir(ws), None)?;
    let mut failed = Vec::new();
    for target in targets {
        let started = Instant::now();
        let outcome = fuzz_one(ws, env, cargo_fuzz, target, options, &build_dir(ws), None)?;
        let runs = outcome
            .executions
            .map_or_else(|| "? runs".to_owned(), |n| format!("{n} runs"));
        if outcome.succeeded {
            println!(
                "fuzz {:<9} {runs} in {:.0} s, corpus {} inputs: no crash",
                target.name,
                started.elapsed().as_secs_f64(),
                count_files(&corpus_dir(ws, target))
            );
            continue;
        }
        let kept = keep(ws, target, &outcome.findings)?;
        println!("{}", finding(&outcome.log));
        println!(
            "fuzz {:<9} FAILED after {runs}: {} (log: {})",
            target.name,
            if kept.is_empty() {
                "libFuzzer stopped without leaving an input".to_owned()
            } else {
                format!(
                    "kept {} — fix the reader, then commit it: `cargo test -p cli --test \
                     fuzz_regressions` replays it",
                    kept.iter()
                        .map(|p| p.display().to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            },
            outcome.log.display()
        );
        failed.push(target.name);
    }
    if !failed.is_empty() {
        bail!("the fuzzers found failing inputs in: {}", failed.join(", "));
    }
    Ok(())
}

fn chosen(names: &[String]) -> Result<Vec<Target>> {
    if names.is_empty() {
        return Ok(TARGETS.to_vec());
    }
    names
        .iter()
        .map(|n| {
            target(n).with_context(|| {
                format!(
                    "no fuzz target `{n}` (targets: {})",
                    TARGETS.map(|t| t.name).join(", ")
                )
            })
        })
        .collect()
}

fn fuzz_root(ws: &Workspace) -> PathBuf {
    ws.target_dir().join("fuzz")
}
fn build_dir(ws: &Workspace) -> PathBuf {
    fuzz_root(ws).join("build")
}
fn corpus_dir(ws: &Workspace, target: Target) -> PathBuf {
    fuzz_root(ws).join("corpus").join(target.name)
}

/// `cargo fuzz` with the options every call shares: the project's fuzz directory, no
/// sanitizer (stable Rust), debug assertions and overflow checks on, its own target directory.
fn cargo_fuzz_command(
    ws: &Workspace,
    env: &Env,
    cargo_fuzz: &Path,
    verb: &str,
    target_dir: &Path,
) -> Command {
    let mut command = env.command(cargo_fuzz);
    command
        .args(["fuzz", verb, "--fuzz-dir"])
        .arg(ws.root().join("fuzz"))
        .args(["--sanitizer", "none", "--debug-assertions", "--target-dir"])
        .arg(target_dir)
        .current_dir(ws.root());
    // cargo-fuzz runs cargo as `cargo`: make it the toolchain that runs this xtask.
    if let Some(cargo) = std::env::var_os("CARGO") {
        command.env("CARGO", cargo);
    }
    command
}

/// Builds every target (`rustflags` adds to cargo-fuzz's own, for the planted panic).
fn build(
    ws: &Workspace,
    env: &Env,
    cargo_fuzz: &Path,
    target_dir: &Path,
    rustflags: Option<&str>,
) -> Result<()> {
    let mut command = cargo_fuzz_command(ws, env, cargo_fuzz, "build", target_dir);
    if let Some(flags) = rustflags {
        command.env("RUSTFLAGS", flags);
    }
    process::run(&mut command).context("building the fuzz targets failed")
}

/// Copies the repository's seed inputs of `target` into `dir`, each no longer than the target
/// takes (libFuzzer would cut the rest off anyway).
fn gather_seeds(ws: &Workspace, target: Target, dir: &Path) -> Result<()> {
    fresh_dir(dir)?;
    for (source, extension) in target.seeds {
        let source = ws.root().join(source);
        let entries =
            fs::read_dir(&source).with_context(|| format!("reading {}", source.display()))?;
        for entry in entries {
            let path = entry?.path();
            let fits = path
                .metadata()
                .is_ok_and(|m| m.is_file() && m.len() as usize <= target.max_len);
            if fits && path.extension().is_some_and(|e| e == *extension) {
                fs::copy(&path, dir.join(path.file_name().expect("a file name")))
                    .with_context(|| format!("copying {}", path.display()))?;
            }
        }
    }
    Ok(())
}

/// One libFuzzer run of `target` for `seconds`.
fn fuzz_one(
    ws: &Workspace,
    env: &Env,
    cargo_fuzz: &Path,
    target: Target,
    options: &FuzzOptions,
    target_dir: &Path,
    rustflags: Option<&str>,
) -> Result<Outcome> {
    let seconds = options.seconds;
    let root = fuzz_root(ws);
    let planted = rustflags.is_some();
    let (corpus, artifacts, log) = if planted {
        let base = root.join("plant");
        (
            base.join("corpus"),
            base.join("artifacts"),
            base.join("run.log"),
        )
    } else {
        (
            corpus_dir(ws, target),
            root.join("artifacts").join(target.name),
            root.join("logs").join(format!("{}.log", target.name)),
        )
    };
    if planted {
        fresh_dir(&corpus)?; // the plant must be found from the seeds alone
    }
    fs::create_dir_all(&corpus).with_context(|| format!("creating {}", corpus.display()))?;
    fresh_dir(&artifacts)?;
    fs::create_dir_all(log.parent().expect("a log directory"))?;
    let seeds = root.join("seeds").join(target.name);
    gather_seeds(ws, target, &seeds)?;

    let mut command = cargo_fuzz_command(ws, env, cargo_fuzz, "run", target_dir);
    if let Some(flags) = rustflags {
        command.env("RUSTFLAGS", flags);
    }
    command.arg(target.name).arg(&corpus).arg(&seeds);
    for kept in ["seeds", "regressions"] {
        let dir = ws.root().join("fuzz").join(kept).join(target.name);
        if dir.is_dir() {
            command.arg(dir);
        }
    }
    command.arg("--");
    // A dictionary of the format's words, where one helps the mutations (JSON keys, cell types).
    let dict = ws
        .root()
        .join("fuzz/dict")
        .join(format!("{}.dict", target.name));
    if dict.is_file() {
        command.arg(format!("-dict={}", dict.display()));
    }
    command
        .arg(format!("-max_total_time={seconds}"))
        .arg(format!("-max_len={}", target.max_len))
        .arg("-timeout=10")
        .arg("-rss_limit_mb=2048")
        .arg(format!("-artifact_prefix={}/", artifacts.display()))
        .arg("-print_final_stats=1");
    if let Some(seed) = options.seed {
        command.arg(format!("-seed={seed}"));
    }
    let log_file = fs::File::create(&log).with_context(|| format!("creating {}", log.display()))?;
    command.stdout(log_file.try_clone()?).stderr(log_file);
    println!("fuzz {}: {}", target.name, process::display(&command));
    let status = command
        .status()
        .with_context(|| format!("could not start {}", cargo_fuzz.display()))?;
    let text = fs::read_to_string(&log).unwrap_or_default();
    let mut findings: Vec<PathBuf> = fs::read_dir(&artifacts)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    findings.sort();
    Ok(Outcome {
        executions: executions(&text),
        findings,
        log,
        succeeded: status.success(),
    })
}

/// The number of inputs run, from libFuzzer's final statistics.
fn executions(log: &str) -> Option<u64> {
    log.lines()
        .filter_map(|l| l.strip_prefix("stat::number_of_executed_units:"))
        .filter_map(|n| n.trim().parse().ok())
        .next_back()
}

/// Copies the failing inputs into `fuzz/regressions/<target>/`, where the replay test finds them.
fn keep(ws: &Workspace, target: Target, findings: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let dir = ws.root().join("fuzz/regressions").join(target.name);
    fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut kept = Vec::new();
    for file in findings {
        let to = dir.join(file.file_name().expect("a file name"));
        fs::copy(file, &to).with_context(|| format!("copying {}", file.display()))?;
        kept.push(to);
    }
    Ok(kept)
}

/// Builds the targets with the planted panic and checks that fuzzing its target from the seeds
/// alone finds it within `seconds`: the proof that the stage's time finds a real reader bug.
fn planted(ws: &Workspace, env: &Env, cargo_fuzz: &Path, options: &FuzzOptions) -> Result<()> {
    let seconds = options.seconds;
    let target = target(PLANTED).expect("the planted target exists");
    let dir = fuzz_root(ws).join("plant-build");
    build(ws, env, cargo_fuzz, &dir, Some(PLANT_FLAGS))?;
    let started = Instant::now();
    let outcome = fuzz_one(
        ws,
        env,
        cargo_fuzz,
        target,
        options,
        &dir,
        Some(PLANT_FLAGS),
    )?;
    let elapsed = started.elapsed().as_secs_f64();
    let log = fs::read_to_string(&outcome.log).unwrap_or_default();
    let found = !outcome.succeeded && log.contains("planted panic: the fuzz stage found it");
    if !found {
        println!("{}", finding(&outcome.log));
        bail!(
            "the planted panic in the `{}` reader was NOT found in {seconds} s (log: {})",
            target.name,
            outcome.log.display()
        );
    }
    let input = outcome
        .findings
        .first()
        .and_then(|f| fs::read(f).ok())
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default();
    println!(
        "fuzz plant: the planted panic in the `{}` reader was found after {} runs, {elapsed:.1} s \
         (limit {seconds} s, including start-up), with the input {input:?}",
        target.name,
        outcome
            .executions
            .map_or_else(|| "?".to_owned(), |n| n.to_string()),
    );
    Ok(())
}

/// The extra compiler flags of the planted build.
const PLANT_FLAGS: &str = "--cfg quadrille_planted_panic";

fn fresh_dir(dir: &Path) -> Result<()> {
    if dir.exists() {
        fs::remove_dir_all(dir).with_context(|| format!("removing {}", dir.display()))?;
    }
    fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))
}

fn count_files(dir: &Path) -> usize {
    fs::read_dir(dir).map_or(0, |entries| entries.count())
}

/// What a libFuzzer log says went wrong: from the panic (or libFuzzer's own report of a
/// timeout or out-of-memory) on, 20 lines; else the log's last 20 lines.
fn finding(path: &Path) -> String {
    let text = fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.contains("panicked at") || (l.starts_with("==") && l.contains("ERROR")))
        .unwrap_or(lines.len().saturating_sub(20));
    lines[start..]
        .iter()
        .take(20)
        .copied()
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_target_is_a_binary_of_the_fuzz_crate_and_has_a_replay_directory_name() {
        let manifest = include_str!("../../fuzz/Cargo.toml");
        for t in TARGETS {
            assert!(
                manifest.contains(&format!(
                    "name = \"{}\"\npath = \"fuzz_targets/{}.rs\"",
                    t.name, t.name
                )),
                "{} is not a [[bin]] of fuzz/Cargo.toml",
                t.name
            );
        }
        assert_eq!(target("f1").map(|t| t.name), Some(PLANTED));
        assert_eq!(target("nope"), None);
    }

    #[test]
    fn final_statistics_give_the_runs() {
        let log = "#2\tINITED\nDone 1234 runs in 25 second(s)\nstat::number_of_executed_units: 1234\nstat::average_exec_per_sec:     49\n";
        assert_eq!(executions(log), Some(1234));
        assert_eq!(executions("crash"), None);
    }

    #[test]
    fn a_finding_is_shown_from_the_panic_on() {
        let log = std::env::temp_dir().join(format!("xtask-finding-{}.log", std::process::id()));
        let mut text = String::from("INFO: Seed: 1\n#2\tINITED\n");
        text.push_str("thread '<unnamed>' panicked at src/lib.rs:1:1:\nboom\n");
        text.push_str(&"noise\n".repeat(40));
        fs::write(&log, &text).unwrap();
        let shown = finding(&log);
        assert!(shown.starts_with("thread '<unnamed>' panicked at src/lib.rs:1:1:\nboom\n"));
        assert_eq!(shown.lines().count(), 20);
        fs::write(
            &log,
            "a\nb\n==1== ERROR: libFuzzer: timeout after 10 seconds\nc\n",
        )
        .unwrap();
        assert_eq!(
            finding(&log),
            "==1== ERROR: libFuzzer: timeout after 10 seconds\nc"
        );
        fs::remove_file(&log).unwrap();
    }

    #[test]
    fn unknown_targets_are_named() {
        let err = chosen(&["bmp".into(), "png".into()]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "no fuzz target `png` (targets: cir, f1, bmp, record, protocol, netlist)"
        );
        assert_eq!(chosen(&[]).unwrap().len(), 6);
    }
}
