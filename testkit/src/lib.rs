//! What the workspace's tests share, in one dev-only crate (never published, only ever a
//! dev-dependency), so no test reaches into another crate's `tests/` folder:
//!
//! * [`scratch_dir`]: a fresh directory, removed when dropped;
//! * [`Rng`]: the one pseudo-random generator of tests (the engine's own, so a seed means the
//!   same thing in a test and in the engine);
//! * [`tool`]: an external program (iverilog, yosys, verilator) — skipped with a notice where it
//!   is missing, a failure under CI;
//! * [`board`]: the reference player's netlist on an emulated board;
//! * [`soccer`]: bots, and a driver that plays a refereed match on a simulated clock;
//! * [`racetrack`]: a lap finder that owes nothing to the pilots.

pub mod board;
pub mod racetrack;
pub mod soccer;
mod tools;

pub use engine::rng::SplitMix64 as Rng;
pub use tempfile::TempDir;
pub use tools::{on_ci, tool, tools};

/// A fresh, empty directory whose name starts with `name`, removed with its contents when the
/// returned handle is dropped (keep the handle alive while the directory is used).
pub fn scratch_dir(name: &str) -> TempDir {
    tempfile::Builder::new()
        .prefix(&format!("{name}-"))
        .tempdir()
        .unwrap_or_else(|e| panic!("cannot create a scratch directory for {name}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scratch_dirs_are_fresh_and_removed_on_drop() {
        let a = scratch_dir("kit");
        let b = scratch_dir("kit");
        assert_ne!(a.path(), b.path());
        assert!(a.path().is_dir());
        assert_eq!(std::fs::read_dir(a.path()).unwrap().count(), 0);
        let kept = a.path().to_path_buf();
        std::fs::write(kept.join("f"), b"x").unwrap();
        drop(a);
        assert!(!kept.exists());
    }
}
