//! The contest plan: a TOML file listing the entrants in order of first submission.
//!
//! ```toml
//! # Optional limits for pilot programs (defaults: the contest's 120 s and 10 MB; for `wasm`
//! # pilots the memory limit is their linear memory, 10 MiB = 160 pages).
//! time_limit_secs = 120
//! memory_limit_mb = 10
//! seed = 0                     # optional: the seed of `wasm` pilots' random_get (default 0)
//!
//! [[entrant]]
//! name = "Ada"                 # shown in the tables
//! circuit = "circuits/ada.cir" # the entrant's circuit, relative to the plan's directory
//! estimate = 61.5              # optional: advance estimate of the pool's mean valid lap time (s)
//! command = ["pilots/ada.sh"]  # a pilot program (spec §7): run in a fresh temporary directory
//!                              # with the circuit's file name as its one argument; it writes
//!                              # `<its own name>.F1` there. Relative paths are from the plan.
//!
//! [[entrant]]
//! name = "Vmax"
//! circuit = "circuits/vmax.cir"
//! wasm = "pilots/vmax3.wasm"   # a WASI pilot program (spec §7), run in the sandbox; its name
//!                              # in logs is its file stem, its result file `vmax3.F1`
//!
//! [[entrant]]
//! name = "Demo"
//! circuit = "circuits/demo.cir"
//! builtin = "demo"             # or a built-in pilot: "optimal" | "demo"
//!
//! [[entrant]]
//! name = "Bea"
//! circuit = "circuits/bea.cir"
//! [entrant.results]            # or result files computed beforehand, by circuit file name;
//! "ada.cir" = "laps/bea-ada.F1" # a circuit without a file counts as "did not finish"
//! ```
//!
//! Each entrant has exactly one of `command`, `wasm`, `builtin` or `results`. Circuit file names must be
//! distinct, since they name the circuits in tables and in `results`.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, bail};
use engine::racetrack::pilot::Pilot;
use serde::Deserialize;

/// The plan file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlanFile {
    time_limit_secs: Option<f64>,
    memory_limit_mb: Option<f64>,
    seed: Option<u64>,
    #[serde(default)]
    entrant: Vec<EntrantFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EntrantFile {
    name: String,
    circuit: PathBuf,
    estimate: Option<f64>,
    command: Option<CommandLine>,
    wasm: Option<PathBuf>,
    builtin: Option<String>,
    results: Option<BTreeMap<String, PathBuf>>,
}

/// `command = "prog"` or `command = ["prog", "arg", …]`.
#[derive(Deserialize)]
#[serde(untagged)]
enum CommandLine {
    Program(String),
    Words(Vec<String>),
}

/// A checked plan, paths resolved against the plan's directory.
pub struct Plan {
    pub limits: Limits,
    /// The seed of every `wasm` pilot's `random_get`.
    pub seed: u64,
    pub entrants: Vec<Entrant>,
}

/// What a pilot program may use (spec §7).
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub time: Duration,
    pub memory_bytes: u64,
}

pub struct Entrant {
    pub name: String,
    pub circuit: PathBuf,
    /// The circuit's file name: its name in tables, in `results` and on line 2 of result files.
    pub circuit_name: String,
    pub estimate: Option<f64>,
    pub pilot: PilotSource,
}

pub enum PilotSource {
    Command {
        program: PathBuf,
        args: Vec<String>,
    },
    /// A WASI pilot program (its path).
    Wasm(PathBuf),
    Builtin(Pilot),
    Results(BTreeMap<String, PathBuf>),
}

impl Plan {
    pub fn read(path: &Path) -> anyhow::Result<Plan> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("{}: cannot read", path.display()))?;
        Plan::parse(&text, path)
    }

    /// Parses the text of the plan file at `path` (paths in it are relative to its directory).
    fn parse(text: &str, path: &Path) -> anyhow::Result<Plan> {
        let file: PlanFile = toml::from_str(text)
            .with_context(|| format!("{}: not a contest plan", path.display()))?;
        let base = path.parent().unwrap_or(Path::new("."));
        let positive = |v: Option<f64>, default: f64, what: &str| -> anyhow::Result<f64> {
            let v = v.unwrap_or(default);
            if !(v.is_finite() && v > 0.0) {
                bail!("{}: {what} must be a positive number", path.display());
            }
            Ok(v)
        };
        let limits = Limits {
            time: Duration::try_from_secs_f64(positive(
                file.time_limit_secs,
                120.0,
                "time_limit_secs",
            )?)
            .with_context(|| format!("{}: time_limit_secs is too large", path.display()))?,
            memory_bytes: (positive(file.memory_limit_mb, 10.0, "memory_limit_mb")?
                * 1024.0
                * 1024.0) as u64,
        };
        if file.entrant.is_empty() {
            bail!("{}: no [[entrant]]", path.display());
        }
        let mut names = HashSet::new();
        let mut circuits = HashSet::new();
        let mut entrants = Vec::new();
        for (i, e) in file.entrant.into_iter().enumerate() {
            let here = format!("{}: entrant {} ({:?})", path.display(), i + 1, e.name);
            if !names.insert(e.name.clone()) {
                bail!("{here}: the name is already taken");
            }
            let circuit = base.join(&e.circuit);
            let circuit_name = circuit
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .with_context(|| format!("{here}: circuit has no file name"))?;
            if !circuits.insert(circuit_name.clone()) {
                bail!("{here}: another entrant's circuit is also called {circuit_name}");
            }
            let pilot = match (e.command, e.wasm, e.builtin, e.results) {
                (Some(command), None, None, None) => {
                    let mut words = match command {
                        CommandLine::Program(p) => vec![p],
                        CommandLine::Words(w) => w,
                    }
                    .into_iter();
                    let program = words
                        .next()
                        .with_context(|| format!("{here}: empty command"))?;
                    // A path with a directory is the plan's; a bare name is looked up in PATH.
                    let program = if program.contains('/') {
                        std::path::absolute(base.join(&program))
                            .with_context(|| format!("{here}: {program}"))?
                    } else {
                        PathBuf::from(program)
                    };
                    PilotSource::Command {
                        program,
                        args: words.collect(),
                    }
                }
                (None, Some(wasm), None, None) => PilotSource::Wasm(base.join(wasm)),
                (None, None, Some(name), None) => {
                    PilotSource::Builtin(Pilot::from_name(&name).with_context(|| {
                        format!("{here}: no built-in pilot {name:?} (optimal, demo)")
                    })?)
                }
                (None, None, None, Some(results)) => PilotSource::Results(
                    results
                        .into_iter()
                        .map(|(k, v)| (k, base.join(v)))
                        .collect(),
                ),
                _ => bail!("{here}: give exactly one of command, wasm, builtin or results"),
            };
            entrants.push(Entrant {
                name: e.name,
                circuit,
                circuit_name,
                estimate: e.estimate,
                pilot,
            });
        }
        Ok(Plan {
            limits,
            seed: file.seed.unwrap_or(0),
            entrants,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::rng::SplitMix64;

    const PLAN: &str = r#"
time_limit_secs = 2.5
memory_limit_mb = 10

[[entrant]]
name = "Ada"
circuit = "c/ada.cir"
estimate = 61.5
command = ["pilots/ada.sh", "--fast"]

[[entrant]]
name = "Bob"
circuit = "c/bob.cir"
builtin = "demo"

[[entrant]]
name = "Cy"
circuit = "cy.cir"
[entrant.results]
"ada.cir" = "laps/cy-ada.F1"

[[entrant]]
name = "Di"
circuit = "di.cir"
wasm = "pilots/di.wasm"
"#;

    #[test]
    fn a_plan_reads_with_paths_from_its_directory() {
        let plan = Plan::parse(PLAN, Path::new("/contest/plan.toml")).unwrap();
        assert_eq!(plan.limits.time, Duration::from_millis(2500));
        assert_eq!(plan.limits.memory_bytes, 10 * 1024 * 1024);
        let names: Vec<&str> = plan
            .entrants
            .iter()
            .map(|e| e.circuit_name.as_str())
            .collect();
        assert_eq!(names, ["ada.cir", "bob.cir", "cy.cir", "di.cir"]);
        assert_eq!(plan.seed, 0);
        match &plan.entrants[3].pilot {
            PilotSource::Wasm(path) => assert_eq!(path, Path::new("/contest/pilots/di.wasm")),
            _ => panic!("a wasm pilot"),
        }
        assert_eq!(plan.entrants[0].estimate, Some(61.5));
        match &plan.entrants[0].pilot {
            PilotSource::Command { program, args } => {
                assert_eq!(program, Path::new("/contest/pilots/ada.sh"));
                assert_eq!(args, &["--fast"]);
            }
            _ => panic!("a command"),
        }
        assert!(matches!(
            plan.entrants[1].pilot,
            PilotSource::Builtin(Pilot::Demo)
        ));
        match &plan.entrants[2].pilot {
            PilotSource::Results(r) => {
                assert_eq!(r["ada.cir"], Path::new("/contest/laps/cy-ada.F1"))
            }
            _ => panic!("results"),
        }
    }

    #[test]
    fn duplicate_names_and_bad_limits_are_refused() {
        let dup = PLAN.replace("name = \"Bob\"", "name = \"Ada\"");
        let err = Plan::parse(&dup, Path::new("p.toml")).err().unwrap();
        assert!(format!("{err:#}").contains("already taken"), "{err:#}");
        let clash = PLAN.replace("cy.cir", "x/bob.cir");
        assert!(Plan::parse(&clash, Path::new("p.toml")).is_err());
        let zero = PLAN.replace("2.5", "0");
        assert!(Plan::parse(&zero, Path::new("p.toml")).is_err());
        let huge = PLAN.replace("2.5", "1e300");
        assert!(Plan::parse(&huge, Path::new("p.toml")).is_err());
        let nan = PLAN.replace("2.5", "nan");
        assert!(Plan::parse(&nan, Path::new("p.toml")).is_err());
        let both = PLAN.replace(
            "builtin = \"demo\"",
            "builtin = \"demo\"\nwasm = \"b.wasm\"",
        );
        let err = Plan::parse(&both, Path::new("p.toml")).err().unwrap();
        assert!(format!("{err:#}").contains("exactly one of"), "{err:#}");
    }

    /// Mutated plans (bytes flipped, cut, TOML punctuation inserted) are refused or read,
    /// never a panic.
    #[test]
    fn mutated_plans_never_panic() {
        let mut rng = SplitMix64::new(0x5eed);
        let alphabet = b"[]{}=\"'#,. \n0123456789-eEnamecircuitcommandbuiltinresults";
        for _ in 0..3000 {
            let mut bytes = PLAN.as_bytes().to_vec();
            for _ in 0..=rng.below(6) {
                let at = rng.below(bytes.len() as u64) as usize;
                match rng.below(3) {
                    0 => bytes[at] = alphabet[rng.below(alphabet.len() as u64) as usize],
                    1 => {
                        bytes.remove(at);
                    }
                    _ => bytes.insert(at, alphabet[rng.below(alphabet.len() as u64) as usize]),
                }
            }
            let text = String::from_utf8_lossy(&bytes);
            let _ = Plan::parse(&text, Path::new("/p/plan.toml"));
        }
    }
}
