//! Replays every input the fuzzers ever crashed on (`fuzz/regressions/<target>/`), and the seed
//! inputs (`fuzz/seeds/<target>/`), through the fuzz targets' own checks: a crash, once found
//! and fixed, stays fixed in every `cargo test`, without libFuzzer.

#[path = "../../fuzz/src/lib.rs"]
mod targets;

use std::fs;
use std::path::{Path, PathBuf};

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz")
}

/// The files under `dir` (none when it does not exist), in name order; dot files (`.gitkeep`)
/// and `README.md` are not inputs.
fn inputs(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            !name.starts_with('.') && name != "README.md"
        })
        .collect();
    files.sort();
    files
}

#[test]
fn every_kept_crash_and_seed_passes_its_target() {
    let mut replayed = 0;
    for (name, target) in targets::TARGETS {
        for kind in ["regressions", "seeds"] {
            for file in inputs(&fuzz_dir().join(kind).join(name)) {
                let data = fs::read(&file).unwrap();
                eprintln!("{name}: {}", file.display());
                target(&data);
                replayed += 1;
            }
        }
    }
    assert!(
        replayed > 0,
        "no input under fuzz/regressions or fuzz/seeds"
    );
}

/// The directories the fuzz stage reads are named after the targets, so none is silently
/// skipped.
#[test]
fn every_input_directory_names_a_target() {
    for kind in ["regressions", "seeds"] {
        for entry in fs::read_dir(fuzz_dir().join(kind)).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                assert!(
                    targets::TARGETS.iter().any(|(t, _)| *t == name),
                    "{} is not a fuzz target's directory",
                    path.display()
                );
            }
        }
    }
}
