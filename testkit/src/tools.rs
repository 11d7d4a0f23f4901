//! External programs some tests need (Icarus Verilog, yosys, Verilator).
//!
//! On a developer's machine a missing tool skips the test that needs it, with a notice on
//! standard error. Under CI (`CI=true`, as GitHub Actions and most CI services set it) the tools
//! are part of the set-up (`cargo xtask setup`), so a missing one fails the test instead of
//! letting it pass without checking anything.

use std::path::{Path, PathBuf};

/// Whether the tests run under CI: `CI` is set to `true` or `1` (any case).
pub fn on_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v.eq_ignore_ascii_case("true") || v == "1")
}

/// The path of the program `name` on `PATH`, or `None` (with a notice) when it is not installed.
///
/// # Panics
/// Under CI ([`on_ci`]) when the program is missing: the test needing it must not pass silently.
pub fn tool(name: &str) -> Option<PathBuf> {
    match find(name, std::env::var_os("PATH").as_deref().map(Path::new)) {
        Some(path) => Some(path),
        None => missing(&[name], on_ci()),
    }
}

/// Every program of `names`, or `None` (with one notice naming the missing ones). Panics under
/// CI like [`tool`].
pub fn tools(names: &[&str]) -> Option<Vec<PathBuf>> {
    let path = std::env::var_os("PATH");
    let found: Vec<Option<PathBuf>> = names
        .iter()
        .map(|n| find(n, path.as_deref().map(Path::new)))
        .collect();
    let absent: Vec<&str> = names
        .iter()
        .zip(&found)
        .filter(|(_, f)| f.is_none())
        .map(|(n, _)| *n)
        .collect();
    if absent.is_empty() {
        Some(found.into_iter().flatten().collect())
    } else {
        missing(&absent, on_ci())
    }
}

fn missing<T>(names: &[&str], ci: bool) -> Option<T> {
    let names = names.join("/");
    if ci {
        panic!(
            "{names} not installed, but CI=true: under CI the external tools are required \
             (install them with `cargo xtask setup`)"
        );
    }
    eprintln!("NOTICE: {names} not installed; skipping the test that needs it");
    None
}

/// The first executable file called `name` in the `PATH`-style list `path`.
fn find(name: &str, path: Option<&Path>) -> Option<PathBuf> {
    let path = path?;
    std::env::split_paths(path.as_os_str())
        .map(|dir| dir.join(name))
        .find(|candidate| is_executable(candidate))
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(path: &Path) -> bool {
    path.is_file()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_executables_on_the_path_only() {
        let dir = crate::scratch_dir("tools");
        let exe = dir.path().join("fake-tool");
        std::fs::write(&exe, "#!/bin/sh\n").unwrap();
        let plain = dir.path().join("plain-file");
        std::fs::write(&plain, "").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
            assert_eq!(find("plain-file", Some(dir.path())), None);
        }
        assert_eq!(find("fake-tool", Some(dir.path())), Some(exe));
        assert_eq!(find("no-such-tool", Some(dir.path())), None);
        assert_eq!(find("fake-tool", None), None);
    }

    #[test]
    fn a_missing_tool_is_skipped_off_ci() {
        assert_eq!(missing::<()>(&["no-such-tool"], false), None);
    }

    #[test]
    #[should_panic(expected = "no-such-tool not installed, but CI=true")]
    fn a_missing_tool_fails_under_ci() {
        let _ = missing::<()>(&["no-such-tool"], true);
    }
}
