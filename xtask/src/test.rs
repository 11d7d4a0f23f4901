//! `cargo xtask test`: every check CI runs, in order, stopping at the first failure.

use std::process::Command;

use anyhow::{Context, Result, bail};

use crate::cli::TestOptions;
use crate::fuzz;
use crate::process::run;
use crate::setup::{Setup, Tools, WASI_TARGET, WASM_TARGET};
use crate::stages::Report;
use crate::static_server::StaticServer;
use crate::workspace::{WASM_TEST_CRATES, Workspace};

/// The stages of `cargo xtask test`, in the order they run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StageName {
    Fmt,
    Clippy,
    Doc,
    Test,
    Fuzz,
    Wasm,
    Build,
    E2e,
}

impl StageName {
    pub const ALL: [StageName; 8] = [
        Self::Fmt,
        Self::Clippy,
        Self::Doc,
        Self::Test,
        Self::Fuzz,
        Self::Wasm,
        Self::Build,
        Self::E2e,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Fmt => "fmt",
            Self::Clippy => "clippy",
            Self::Doc => "doc",
            Self::Test => "test",
            Self::Fuzz => "fuzz",
            Self::Wasm => "wasm",
            Self::Build => "build",
            Self::E2e => "e2e",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.as_str() == name)
    }

    fn what(self) -> &'static str {
        match self {
            Self::Fmt => "cargo fmt --check",
            Self::Clippy => {
                "cargo clippy --workspace --all-targets -- -D warnings, and the app for wasm32"
            }
            Self::Doc => "cargo doc --workspace --no-deps with RUSTDOCFLAGS=-D warnings",
            Self::Test => {
                "example pilots (cargo xtask pilots), then cargo test --workspace (native)"
            }
            Self::Fuzz => "cargo fuzz: 25 s of libFuzzer on each reader",
            Self::Wasm => "wasm-bindgen tests in headless Chromium",
            Self::Build => "trunk build --release",
            Self::E2e => "Playwright e2e suite against the release build on loopback",
        }
    }
}

pub fn run_tests(options: &TestOptions) -> Result<()> {
    let ws = Workspace::locate()?;
    let setup = Setup::new(&ws)?;
    let mut report = Report::new();
    let result = run_stages(&ws, &setup, options, &mut report);
    report.print_summary();
    result
}

fn run_stages(
    ws: &Workspace,
    setup: &Setup,
    options: &TestOptions,
    report: &mut Report,
) -> Result<()> {
    let mut tools = None;
    report.stage("setup", "install what is missing", || {
        tools = Some(setup.everything()?);
        Ok(())
    })?;
    let tools = tools.expect("setup succeeded");
    let wanted = |stage: StageName| {
        options
            .only
            .as_ref()
            .is_none_or(|only| only.contains(&stage))
    };
    for stage in StageName::ALL.into_iter().filter(|s| wanted(*s)) {
        report.stage(stage.as_str(), stage.what(), || match stage {
            StageName::Fmt => fmt(ws, setup),
            StageName::Clippy => clippy(ws, setup),
            StageName::Doc => doc(ws, setup),
            StageName::Test => {
                // The CLI tests run the example pilot programs.
                crate::pilots::build(ws, setup)?;
                run(cargo(ws, setup).args(["test", "--workspace"]))
            }
            StageName::Fuzz => fuzz::run_fuzz(
                ws,
                setup.env(),
                tools
                    .cargo_fuzz
                    .as_deref()
                    .context("cargo-fuzz is not installed")?,
                &fuzz::FuzzOptions {
                    seconds: fuzz::STAGE_SECONDS,
                    seed: Some(1),
                    ..fuzz::FuzzOptions::default()
                },
            ),
            StageName::Wasm => wasm_tests(ws, setup, &tools),
            StageName::Build => release_build(ws, setup, &tools),
            StageName::E2e => e2e(ws, setup, &tools),
        })?;
    }
    Ok(())
}

/// Clippy natively over the whole workspace, then the app again for the browser: the app's
/// `cfg(target_arch = "wasm32")` code (workers, Web Serial, canvases) is only seen there.
fn clippy(ws: &Workspace, setup: &Setup) -> Result<()> {
    let deny = ["--", "-D", "warnings"];
    run(cargo(ws, setup)
        .args(["clippy", "--workspace", "--all-targets"])
        .args(deny))?;
    run(cargo(ws, setup)
        .args([
            "clippy",
            "--package",
            "app",
            "--all-targets",
            "--target",
            WASM_TARGET,
        ])
        .args(deny))?;
    // The example pilots: a workspace of their own, for WASI (`cargo xtask pilots`).
    run(cargo(ws, setup)
        .args(["clippy", "--target", WASI_TARGET, "--manifest-path"])
        .arg(ws.root().join("pilots").join("Cargo.toml"))
        .arg("--target-dir")
        .arg(ws.target_dir().join("pilots"))
        .args(deny))
}

/// Formatting of the workspace and of the example pilots' own workspace.
fn fmt(ws: &Workspace, setup: &Setup) -> Result<()> {
    run(cargo(ws, setup).args(["fmt", "--all", "--", "--check"]))?;
    // The example pilots and the fuzz targets are workspaces of their own.
    for dir in ["pilots", "fuzz"] {
        run(cargo(ws, setup)
            .args(["fmt", "--all", "--manifest-path"])
            .arg(ws.root().join(dir).join("Cargo.toml"))
            .args(["--", "--check"]))?;
    }
    Ok(())
}

/// The API docs of every crate, with broken intra-doc links and malformed doc comments as
/// errors: a doc link that names a moved item fails here instead of rotting silently.
fn doc(ws: &Workspace, setup: &Setup) -> Result<()> {
    let mut command = cargo(ws, setup);
    command
        .args(["doc", "--workspace", "--no-deps"])
        .env("RUSTDOCFLAGS", "-D warnings");
    run(&mut command)
}

fn cargo(ws: &Workspace, setup: &Setup) -> Command {
    let mut command = setup.env().cargo();
    command.current_dir(ws.root());
    command
}

/// Runs each crate's `tests/wasm_*.rs` in headless Chromium through wasm-bindgen-test-runner.
fn wasm_tests(ws: &Workspace, setup: &Setup, tools: &Tools) -> Result<()> {
    let chromedriver = tools
        .chromedriver
        .as_ref()
        .context("chromedriver is not installed")?;
    // chromedriver makes a ~50 MB browser profile in the temporary directory for every test
    // binary and leaves it behind when the runner ends the session: keep them in the target
    // directory and remove them afterwards, so that repeated runs do not fill the disk.
    let profiles = ws.target_dir().join("browser-profiles");
    fresh_dir(&profiles)?;
    let result = run_wasm_tests(ws, setup, tools, chromedriver, &profiles);
    let cleaned = std::fs::remove_dir_all(&profiles)
        .with_context(|| format!("removing {}", profiles.display()));
    result.and(cleaned)
}

/// An empty directory at `dir`, whatever was there before.
fn fresh_dir(dir: &std::path::Path) -> Result<()> {
    if dir.exists() {
        std::fs::remove_dir_all(dir).with_context(|| format!("removing {}", dir.display()))?;
    }
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))
}

fn run_wasm_tests(
    ws: &Workspace,
    setup: &Setup,
    tools: &Tools,
    chromedriver: &std::path::Path,
    profiles: &std::path::Path,
) -> Result<()> {
    let mut ran = 0;
    for krate in WASM_TEST_CRATES {
        let tests = ws.wasm_tests(krate)?;
        if tests.is_empty() {
            println!("{krate}: no tests/wasm_*.rs");
            continue;
        }
        let mut command = cargo(ws, setup);
        command.args(["test", "--target", WASM_TARGET, "-p", krate]);
        for test in &tests {
            command.args(["--test", test]);
        }
        command
            .env(
                "CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER",
                &tools.wasm_bindgen_test_runner,
            )
            .env("CHROMEDRIVER", chromedriver)
            .env("TMPDIR", profiles)
            .env("WASM_BINDGEN_TEST_TIMEOUT", "180");
        run(&mut command)?;
        ran += tests.len();
    }
    if ran == 0 {
        bail!("no crate has browser tests (tests/wasm_*.rs): nothing was checked in Chromium");
    }
    Ok(())
}

/// The release build that the e2e suite serves.
fn release_build(ws: &Workspace, setup: &Setup, tools: &Tools) -> Result<()> {
    let mut trunk = setup.env().command(&tools.trunk);
    trunk
        .args(["build", "--release"])
        .env("TRUNK_SKIP_VERSION_CHECK", "true")
        .current_dir(ws.root());
    run(&mut trunk)?;
    let index = ws.dist().join("index.html");
    anyhow::ensure!(
        index.is_file(),
        "trunk finished but {} is missing",
        index.display()
    );
    Ok(())
}

/// Serves `dist/` on loopback and runs the Playwright suite (node's test runner) against it.
fn e2e(ws: &Workspace, setup: &Setup, tools: &Tools) -> Result<()> {
    let index = ws.dist().join("index.html");
    anyhow::ensure!(
        index.is_file(),
        "no release build in dist/: run the `build` stage first"
    );
    let chromium = tools
        .chromium
        .as_ref()
        .context("chromium is not installed")?;
    // Some suites judge what the app did with the real CLI; `test` has built it already.
    run(cargo(ws, setup).args(["build", "--quiet", "-p", "cli", "--bin", "quadrille"]))?;
    // The pilot programs the lab runs (`test` has built them already too).
    let pilots = crate::pilots::build(ws, setup)?;
    let quadrille = ws.target_dir().join("debug").join("quadrille");
    let server = StaticServer::start(ws.dist(), 0).context("could not start the static server")?;
    println!("serving {} on {}", ws.dist().display(), server.url());
    let mut node = setup.env().command(&tools.node);
    node.args(["--test", "--test-reporter=spec", "--test-concurrency=1"])
        .env("QUADRILLE_URL", server.url())
        .env("CHROMIUM", chromium)
        .env("QUADRILLE_BIN", quadrille)
        .env("QUADRILLE_PILOTS", pilots)
        .current_dir(ws.e2e());
    // `E2E_FILES="tests/league.test.mjs tests/pilots.test.mjs"` runs only those files (a developer
    // working on one page); CI leaves it unset and runs the whole suite.
    if let Ok(files) = std::env::var("E2E_FILES") {
        node.args(files.split_whitespace());
    }
    run(&mut node)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stage_names_round_trip() {
        for stage in StageName::ALL {
            assert_eq!(StageName::parse(stage.as_str()), Some(stage));
        }
        assert_eq!(StageName::parse("lint"), None);
    }
}
