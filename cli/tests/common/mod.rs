//! Shared by the CLI tests: running the `quadrille` binary and writing the files it reads.
//! (The soccer tests' bots, pseudo-terminals and time limits are in [`soccer`].)

#![allow(
    dead_code,
    reason = "each test binary that includes this module uses only some of it"
)]

pub mod soccer;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use engine::racetrack::samples;

/// `quadrille` with `args`, its standard input closed: no test types at it.
pub fn quadrille(args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_quadrille"));
    cmd.args(args).stdin(Stdio::null());
    cmd
}

/// Runs `quadrille args` to completion.
pub fn run(args: &[&str]) -> Output {
    quadrille(args).output().expect("run quadrille")
}

/// Runs `quadrille args` to completion in `dir`, where relative file names are looked up.
pub fn run_in(dir: &Path, args: &[&str]) -> Output {
    quadrille(args)
        .current_dir(dir)
        .output()
        .expect("run quadrille")
}

/// Runs `quadrille args` with standard output a pipe whose reading end is already closed
/// (standard error captured).
pub fn run_with_closed_stdout(args: &[&str]) -> Output {
    let mut child = quadrille(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run quadrille");
    drop(child.stdout.take());
    child.wait_with_output().expect("wait")
}

/// The exit code (`quadrille` is never killed by a signal in a passing test).
pub fn code(out: &Output) -> i32 {
    out.status.code().expect("exit code")
}

/// Fails, showing the error output, unless `quadrille` exited 0.
pub fn assert_success(out: &Output) {
    assert!(
        out.status.success(),
        "quadrille failed: {}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Writes the sample circuit `sample` as `dir/file`, returning its path.
pub fn write_sample(dir: &Path, sample: &str, file: &str) -> PathBuf {
    let path = dir.join(file);
    fs::write(&path, samples::by_name(sample).unwrap().text).unwrap();
    path
}
