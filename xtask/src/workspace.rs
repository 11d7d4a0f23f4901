//! Where things are in the repository.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// The crates whose `tests/wasm_*.rs` files run in headless Chromium.
pub const WASM_TEST_CRATES: [&str; 3] = ["engine", "hdl-sim", "app"];

/// The repository checkout xtask works on.
#[derive(Debug, Clone)]
pub struct Workspace {
    root: PathBuf,
}

impl Workspace {
    /// The workspace this xtask binary was built from (its parent directory).
    pub fn locate() -> Result<Self> {
        let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
        let root = manifest_dir
            .parent()
            .context("the xtask crate has no parent directory")?
            .to_path_buf();
        anyhow::ensure!(
            root.join("Cargo.lock").is_file(),
            "{} has no Cargo.lock: run xtask from the Quadrille workspace",
            root.display()
        );
        Ok(Self { root })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn lock_file(&self) -> PathBuf {
        self.root.join("Cargo.lock")
    }

    /// The Playwright suite and its npm packages.
    pub fn e2e(&self) -> PathBuf {
        self.root.join("e2e")
    }

    /// Executables installed by `npm ci` in `e2e/` (wasm-opt from binaryen among them).
    pub fn node_bin(&self) -> PathBuf {
        self.e2e().join("node_modules").join(".bin")
    }

    /// cargo's target directory: `CARGO_TARGET_DIR` if set (relative to the workspace), else
    /// `target/`.
    pub fn target_dir(&self) -> PathBuf {
        match std::env::var_os("CARGO_TARGET_DIR") {
            Some(dir) => self.root.join(dir),
            None => self.root.join("target"),
        }
    }

    /// trunk's output directory (see `Trunk.toml`).
    pub fn dist(&self) -> PathBuf {
        self.root.join("dist")
    }

    /// The `--test` target names of a crate's browser tests: `tests/wasm_*.rs`, sorted.
    pub fn wasm_tests(&self, krate: &str) -> Result<Vec<String>> {
        let dir = self.root.join(krate).join("tests");
        if !dir.is_dir() {
            return Ok(Vec::new());
        }
        let mut names = Vec::new();
        for entry in
            std::fs::read_dir(&dir).with_context(|| format!("reading {}", dir.display()))?
        {
            let path = entry?.path();
            let is_rust = path.extension().is_some_and(|e| e == "rs");
            if let Some(stem) = path.file_stem().and_then(|s| s.to_str())
                && is_rust
                && stem.starts_with("wasm_")
            {
                names.push(stem.to_owned());
            }
        }
        names.sort();
        Ok(names)
    }
}
