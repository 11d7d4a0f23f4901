//! `cargo xtask pilots`: builds the example pilot programs of `pilots/` into
//! `<target>/pilots/wasm/<name>.wasm`, where the CLI tests and the docs find them — the Rust ones
//! (a workspace of their own) for `wasm32-wasip1`, each C file of `pilots/c/` with clang and
//! Debian's wasi-libc, and the faulty pilots of `pilots/faults/` (WebAssembly text) into
//! `<target>/pilots/wasm/faults/`.

use std::path::PathBuf;

use anyhow::{Context, Result};

use crate::process::run;
use crate::setup::{Setup, WASI_TARGET};
use crate::workspace::Workspace;

/// The Rust example pilots and bots (binaries of the `pilots/` workspace).
const RUST_PILOTS: [&str; 3] = ["demo", "greedy", "random-bot"];

/// Builds every example pilot; returns the directory holding the `.wasm` files.
pub fn build(ws: &Workspace, setup: &Setup) -> Result<PathBuf> {
    let target = ws.target_dir().join("pilots");
    let out = target.join("wasm");
    std::fs::create_dir_all(&out).with_context(|| format!("creating {}", out.display()))?;
    let mut cargo = setup.env().cargo();
    cargo
        .args([
            "build",
            "--release",
            "--target",
            WASI_TARGET,
            "--manifest-path",
        ])
        .arg(ws.root().join("pilots").join("Cargo.toml"))
        .arg("--target-dir")
        .arg(&target)
        .current_dir(ws.root());
    run(&mut cargo)?;
    for name in RUST_PILOTS {
        let built = target
            .join(WASI_TARGET)
            .join("release")
            .join(format!("{name}.wasm"));
        let dest = out.join(format!("{name}.wasm"));
        std::fs::copy(&built, &dest)
            .with_context(|| format!("copying {} to {}", built.display(), dest.display()))?;
    }
    let c_dir = ws.root().join("pilots").join("c");
    let mut sources: Vec<PathBuf> = std::fs::read_dir(&c_dir)
        .with_context(|| format!("reading {}", c_dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    sources.sort();
    for source in sources {
        let stem = source.file_stem().context("a C file without a name")?;
        let dest = out.join(stem).with_extension("wasm");
        let mut clang = setup.env().command("clang");
        clang
            .args([
                "--target=wasm32-wasi",
                "--sysroot=/usr",
                "-O2",
                "-Wall",
                "-Werror",
                "-Wl,--strip-all",
                "-o",
            ])
            .arg(&dest)
            .arg(&source);
        run(&mut clang)?;
    }
    assemble_faults(ws, &out.join("faults"))?;
    println!("example pilots in {}", out.display());
    Ok(out)
}

/// Assembles the faulty pilots of `pilots/faults/*.wat` (WebAssembly text) into `out`, where
/// the e2e suite runs them in the browser and through the CLI.
fn assemble_faults(ws: &Workspace, out: &std::path::Path) -> Result<()> {
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let dir = ws.root().join("pilots").join("faults");
    let mut sources: Vec<PathBuf> = std::fs::read_dir(&dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "wat"))
        .collect();
    sources.sort();
    for source in sources {
        let bytes =
            wat::parse_file(&source).with_context(|| format!("assembling {}", source.display()))?;
        let stem = source.file_stem().context("a .wat file without a name")?;
        let dest = out.join(stem).with_extension("wasm");
        std::fs::write(&dest, bytes).with_context(|| format!("writing {}", dest.display()))?;
    }
    Ok(())
}
