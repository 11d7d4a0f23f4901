//! Running external programs with a PATH that also sees the tools xtask installs.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail};

/// The environment every child process gets: the user's PATH, preceded by the e2e npm binaries
/// (wasm-opt from npm binaryen must win over an older distribution one) and cargo's install
/// directory (where `cargo install` puts trunk and wasm-bindgen, even if the user's shell does
/// not list it).
#[derive(Debug, Clone)]
pub struct Env {
    path: OsString,
}

impl Env {
    /// Prepends `first` directories to the inherited PATH.
    pub fn with_path_prefix(first: &[PathBuf]) -> Result<Self> {
        let inherited = std::env::var_os("PATH").unwrap_or_default();
        let dirs = first
            .iter()
            .cloned()
            .chain(std::env::split_paths(&inherited));
        let path = std::env::join_paths(dirs).context("a PATH entry contains a `:`")?;
        Ok(Self { path })
    }

    /// The first executable called `name` on this environment's PATH.
    pub fn which(&self, name: &str) -> Option<PathBuf> {
        std::env::split_paths(&self.path)
            .map(|dir| dir.join(name))
            .find(|candidate| is_executable(candidate))
    }

    /// A command for `program` that sees this PATH and no stdin (CI has none; nothing here may
    /// wait for an answer).
    pub fn command(&self, program: impl AsRef<OsStr>) -> Command {
        let mut command = Command::new(program);
        command.env("PATH", &self.path).stdin(Stdio::null());
        // The NO_COLOR convention is "any non-empty value", but trunk parses the variable as
        // its `--no-color` boolean and refuses `NO_COLOR=1`: hand children a value both accept.
        if let Some(value) = no_color(std::env::var_os("NO_COLOR")) {
            command.env("NO_COLOR", value);
        }
        command
    }

    /// The cargo that runs this xtask (cargo sets `CARGO` for `cargo run`), so child builds use
    /// the same toolchain.
    pub fn cargo(&self) -> Command {
        self.command(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
    }
}

/// The NO_COLOR value to give child processes: `true` when colour is switched off, nothing to
/// change otherwise (unset stays unset; an empty value means "not set" by the convention).
fn no_color(inherited: Option<OsString>) -> Option<&'static str> {
    inherited.filter(|v| !v.is_empty()).map(|_| "true")
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// cargo's install directory: `$CARGO_HOME/bin`, by default `~/.cargo/bin`.
pub fn cargo_bin_dir() -> Option<PathBuf> {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))?;
    Some(home.join("bin"))
}

/// Shows a command the way a shell user would type it.
pub fn display(command: &Command) -> String {
    let mut words = vec![command.get_program().to_string_lossy().into_owned()];
    words.extend(command.get_args().map(|a| a.to_string_lossy().into_owned()));
    words.join(" ")
}

/// Runs a command with its output going straight to the terminal; fails unless it exits 0.
pub fn run(command: &mut Command) -> Result<()> {
    let shown = display(command);
    println!("$ {shown}");
    let status = command
        .status()
        .with_context(|| format!("could not start `{shown}`"))?;
    if !status.success() {
        bail!("`{shown}` failed ({status})");
    }
    Ok(())
}

/// Runs a command quietly and returns its standard output, or `None` if it cannot run or fails.
pub fn output_of(command: &mut Command) -> Option<String> {
    let output = command.stderr(Stdio::null()).output().ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_color_is_passed_on_as_a_boolean_trunk_accepts() {
        assert_eq!(no_color(Some("1".into())), Some("true"));
        assert_eq!(no_color(Some("yes".into())), Some("true"));
        assert_eq!(no_color(Some("".into())), None);
        assert_eq!(no_color(None), None);
    }

    #[test]
    fn children_see_no_color_true() {
        let env = Env::with_path_prefix(&[]).unwrap();
        let command = env.command("true");
        let set: Vec<_> = command.get_envs().collect();
        if std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()) {
            assert!(set.contains(&(OsStr::new("NO_COLOR"), Some(OsStr::new("true")))));
        } else {
            assert!(!set.iter().any(|(k, _)| *k == "NO_COLOR"));
        }
    }
}
