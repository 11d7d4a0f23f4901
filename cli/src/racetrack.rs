//! `quadrille verifcir | testf1 | cir2bmp | bmp2cir`: the original DOS tools of the Racetrack
//! contest, as thin shells over `engine::racetrack`.

mod animate;
pub(crate) mod clock;

use std::fs;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use engine::racetrack::conformity::{self, Report, Violation};
use engine::racetrack::judge::{self, Fault, Verdict};
use engine::racetrack::{self, Circuit, LineEnding, ResultFile, bmp, f1, log};
use serde::Serialize;

use crate::out::outln;

#[derive(clap::Subcommand)]
pub enum Command {
    /// Check a circuit's conformity (VERIFCIR). Exit 0 conforming, 1 not, 2 unreadable.
    ///
    /// A file of the wrong shape (not 100 lines of 150 ASCII characters) breaks rule 1 (size):
    /// exit 1, the violation naming the line. Exit 2 is a file that cannot be read at all.
    Verifcir {
        /// The `.cir` file.
        file: PathBuf,
        /// Print `{"conforming":…,"violations":[{"rule":N,"message":"…","cells":[[x,y],…]}]}`.
        #[arg(long)]
        json: bool,
    },
    /// Judge a lap and time it (TESTF1). Exit 0 valid, 1 invalid, 2 unreadable.
    Testf1 {
        /// The result file (`.f1`).
        file: PathBuf,
        /// The circuit; by default the one named on line 2, looked up next to the result file
        /// (case-insensitively).
        #[arg(long, value_name = "FILE.cir")]
        circuit: Option<PathBuf>,
        /// Text only: no animation.
        #[arg(short = 't')]
        text: bool,
        /// Do not append to the circuit's log.
        #[arg(short = 'l')]
        no_log: bool,
        /// Hundredths of a second between points of the animation; 0 steps on Enter.
        #[arg(short = 'n', value_name = "XXX", default_value_t = 10)]
        delay: u32,
        /// Print the verdict as JSON (no animation).
        #[arg(long)]
        json: bool,
    },
    /// Convert a circuit to a 16-colour 150 × 100 BMP (CIR2BMP).
    Cir2bmp { input: PathBuf, output: PathBuf },
    /// Convert a 150 × 100 BMP to a circuit, each pixel to the nearest colour (BMP2CIR).
    Bmp2cir { input: PathBuf, output: PathBuf },
}

pub fn run(cmd: Command) -> anyhow::Result<ExitCode> {
    match cmd {
        Command::Verifcir { file, json } => verifcir(&file, json),
        Command::Testf1 {
            file,
            circuit,
            text,
            no_log,
            delay,
            json,
        } => {
            let opts = Testf1 {
                circuit,
                text,
                log: !no_log,
                delay,
                json,
            };
            testf1(&file, &opts)
        }
        Command::Cir2bmp { input, output } => {
            let circuit = read_circuit(&input)?;
            fs::write(&output, bmp::write(&circuit))
                .with_context(|| format!("{}: cannot write", output.display()))?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Bmp2cir { input, output } => {
            let bytes = read(&input)?;
            let circuit = bmp::read(&bytes).with_context(|| input.display().to_string())?;
            fs::write(&output, circuit.to_text(LineEnding::CrLf))
                .with_context(|| format!("{}: cannot write", output.display()))?;
            let report = conformity::check(&circuit);
            if !report.is_conforming() {
                let n = report.violations.len();
                eprintln!(
                    "note: {} is not conforming ({n} violation{}); `quadrille verifcir` tells why",
                    output.display(),
                    if n == 1 { "" } else { "s" }
                );
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn read(path: &Path) -> anyhow::Result<Vec<u8>> {
    fs::read(path).with_context(|| format!("{}: cannot read", path.display()))
}

fn read_circuit(path: &Path) -> anyhow::Result<Circuit> {
    let bytes = read(path)?;
    Circuit::parse(&bytes).with_context(|| path.display().to_string())
}

// ---------------------------------------------------------------------------------------------
// verifcir

#[derive(Serialize)]
struct ReportJson<'a> {
    conforming: bool,
    violations: Vec<ViolationJson<'a>>,
}

#[derive(Serialize)]
struct ViolationJson<'a> {
    rule: u8,
    message: &'a str,
    cells: Vec<[i32; 2]>,
}

impl<'a> From<&'a Violation> for ViolationJson<'a> {
    fn from(v: &'a Violation) -> Self {
        ViolationJson {
            rule: v.rule.number(),
            message: &v.message,
            cells: v.cells.iter().map(|p| [p.x, p.y]).collect(),
        }
    }
}

fn print_report_json(report: &Report) -> anyhow::Result<()> {
    let json = ReportJson {
        conforming: report.is_conforming(),
        violations: report.violations.iter().map(ViolationJson::from).collect(),
    };
    outln!("{}", serde_json::to_string(&json)?)?;
    Ok(())
}

fn verifcir(file: &Path, json: bool) -> anyhow::Result<ExitCode> {
    // Only a file that cannot be read at all is exit 2: one of the wrong shape breaks rule 1
    // (size), a conformity rule like the others, so it is "not conforming" (exit 1).
    let report = conformity::check_bytes(&read(file)?);
    if json {
        print_report_json(&report)?;
    } else if report.is_conforming() {
        outln!("{}: conforming", file.display())?;
    } else {
        outln!("{}: NOT conforming", file.display())?;
        for v in &report.violations {
            outln!("  {v}")?;
        }
    }
    Ok(if report.is_conforming() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

// ---------------------------------------------------------------------------------------------
// testf1

struct Testf1 {
    circuit: Option<PathBuf>,
    text: bool,
    log: bool,
    delay: u32,
    json: bool,
}

#[derive(Serialize)]
struct ValidJson<'a> {
    valid: bool,
    pilot: &'a str,
    circuit: &'a str,
    moves: usize,
    time: f64,
    speed_kmh: f64,
    #[serde(flatten)]
    conformity: ConformityJson,
}

#[derive(Serialize)]
struct InvalidJson<'a> {
    valid: bool,
    fault: &'a str,
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    step: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<usize>,
    message: String,
    #[serde(flatten)]
    conformity: ConformityJson,
}

/// Whether the circuit the lap was judged on passes `verifcir`: the verdict stands either way
/// (the spec judges a lap on the circuit given), but a lap on a non-conforming circuit must not
/// look like an ordinary one. Absent when the circuit was not read (a syntax fault).
#[derive(Serialize)]
struct ConformityJson {
    #[serde(skip_serializing_if = "Option::is_none")]
    circuit_conforming: Option<bool>,
    /// The first violation, as `verifcir` words it.
    #[serde(skip_serializing_if = "Option::is_none")]
    circuit_problem: Option<String>,
}

/// Finds the circuit named on line 2 of a result file, next to it. The name may carry a DOS or
/// Unix directory part, which is dropped; the match is case-insensitive (DOS names were
/// upper-case).
fn find_circuit(result_file: &Path, name: &str) -> anyhow::Result<PathBuf> {
    let base = name.trim().rsplit(['/', '\\']).next().unwrap_or("").trim();
    if base.is_empty() {
        bail!(
            "{}: line 2 names no circuit; give one with --circuit",
            result_file.display()
        );
    }
    let dir = match result_file.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let exact = dir.join(base);
    if exact.is_file() {
        return Ok(exact);
    }
    let entries = fs::read_dir(&dir).with_context(|| format!("{}: cannot list", dir.display()))?;
    for entry in entries.flatten() {
        if entry
            .file_name()
            .to_string_lossy()
            .eq_ignore_ascii_case(base)
            && entry.path().is_file()
        {
            return Ok(entry.path());
        }
    }
    bail!(
        "circuit {} (line 2 of {}) not found in {}; give it with --circuit",
        racetrack::quote(base.as_bytes()),
        result_file.display(),
        dir.display()
    )
}

fn testf1(file: &Path, opts: &Testf1) -> anyhow::Result<ExitCode> {
    let bytes = read(file)?;
    let parsed = ResultFile::parse(&bytes);
    let circuit_path = match (&opts.circuit, &parsed) {
        (Some(p), _) => Some(p.clone()),
        (None, Ok(f)) => Some(find_circuit(file, &f.circuit)?),
        // A syntax error: the verdict does not need the circuit; find it for the log if we can.
        (None, Err(_)) => f1::header(&bytes)
            .1
            .and_then(|name| find_circuit(file, &name).ok()),
    };
    let (verdict, circuit) = match &parsed {
        Err(e) => (Verdict::Invalid(Fault::Syntax(e.clone())), None),
        Ok(f) => {
            let path = circuit_path.as_deref().context("no circuit to judge on")?;
            let circuit = read_circuit(path)?;
            (judge::judge(&circuit, f), Some(circuit))
        }
    };
    let (pilot, circuit_name) = match &parsed {
        Ok(f) => (f.pilot.clone(), f.circuit.clone()),
        Err(_) => {
            let (pilot, circuit) = f1::header(&bytes);
            (pilot.unwrap_or_default(), circuit.unwrap_or_default())
        }
    };
    let (pilot, circuit_name) = (pilot.as_str(), circuit_name.as_str());
    // The first conformity problem of the circuit judged on, if it has one.
    let problem = circuit
        .as_ref()
        .and_then(|c| conformity::check(c).violations.into_iter().next());
    if let (Some(v), Some(path)) = (&problem, &circuit_path) {
        eprintln!(
            "warning: {} is not a conforming circuit ({v}); the lap is judged on it all the \
             same, but `quadrille verifcir` refuses it",
            path.display()
        );
    }
    let conformity_json = || ConformityJson {
        circuit_conforming: circuit.as_ref().map(|_| problem.is_none()),
        circuit_problem: problem.as_ref().map(|v| v.to_string()),
    };

    if opts.log
        && let Some(path) = &circuit_path
    {
        let moves = parsed
            .as_ref()
            .ok()
            .map(|f| f.positions.len().saturating_sub(1));
        let result_name = file.file_name().map_or_else(
            || file.display().to_string(),
            |n| n.to_string_lossy().into(),
        );
        let line = log::line(pilot, &result_name, moves, &verdict, &clock::now_utc());
        append_log(&path.with_extension("log"), &line)?;
    }

    if opts.json {
        let out = match &verdict {
            Verdict::Valid(lap) => serde_json::to_string(&ValidJson {
                valid: true,
                pilot,
                circuit: circuit_name,
                moves: lap.moves,
                time: lap.time,
                speed_kmh: lap.speed_kmh,
                conformity: conformity_json(),
            })?,
            Verdict::Invalid(fault) => serde_json::to_string(&InvalidJson {
                valid: false,
                fault: fault.kind().as_str(),
                step: fault.step(),
                line: fault.line(),
                message: fault.to_string(),
                conformity: conformity_json(),
            })?,
        };
        outln!("{out}")?;
    } else {
        let mut animated = !opts.text && std::io::stdout().is_terminal();
        if animated && !animate::fits() {
            eprintln!("note: the terminal is smaller than 150 × 51, showing the verdict only");
            animated = false;
        }
        if let (true, Some(circuit), Ok(f)) = (animated, &circuit, &parsed) {
            animate::play(circuit, &f.positions, &verdict, opts.delay)?;
        }
        print_text(file, pilot, circuit_name, &verdict)?;
        if let Some(v) = &problem {
            outln!("Warning     : the circuit is not conforming: {v}")?;
        }
    }
    Ok(if verdict.is_valid() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn print_text(file: &Path, pilot: &str, circuit: &str, verdict: &Verdict) -> std::io::Result<()> {
    outln!("Result file : {}", file.display())?;
    outln!("Pilot       : {pilot}")?;
    outln!("Circuit     : {circuit}")?;
    match verdict {
        Verdict::Valid(lap) => {
            outln!("Verdict     : valid lap")?;
            outln!("Moves       : {}", lap.moves)?;
            outln!("Time        : {} s", lap.time_shown())?;
            outln!("Distance    : {:.1} m", lap.distance_m)?;
            outln!("Avg speed   : {} km/h", lap.speed_shown())?;
        }
        Verdict::Invalid(fault) => {
            outln!("Verdict     : INVALID ({})", fault.kind())?;
            outln!("Reason      : {fault}")?;
        }
    }
    Ok(())
}

/// Appends one line to the judge's log so that concurrent judges never interleave: the file is
/// opened `O_APPEND`, held under an exclusive lock, and the whole line, terminator included, is
/// handed to the kernel in one `write` (an append of that size is not split on a local file
/// system; the lock covers the others).
fn append_log(path: &Path, line: &str) -> anyhow::Result<()> {
    let mut f = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("{}: cannot open the log", path.display()))?;
    match f.lock() {
        Err(e) if e.kind() != std::io::ErrorKind::Unsupported => {
            return Err(e).with_context(|| format!("{}: cannot lock the log", path.display()));
        }
        _ => {}
    }
    let whole = format!("{line}\n");
    f.write_all(whole.as_bytes())
        .with_context(|| format!("{}: cannot write the log", path.display()))
    // Closing the file releases the lock.
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Threads appending to one log (as concurrent `testf1` runs do): every line comes out
    /// whole, none lost, none merged with another.
    #[test]
    fn concurrent_appends_keep_every_line_whole() {
        const THREADS: usize = 8;
        const LINES: usize = 3000;
        let dir = testkit::scratch_dir("cli");
        let log = dir.path().join("ring.log");
        let writers: Vec<_> = (0..THREADS)
            .map(|t| {
                let log = log.clone();
                std::thread::spawn(move || {
                    for i in 0..LINES {
                        let line = format!("{t}\t{i}\t{}", "x".repeat(1 + t * 20));
                        append_log(&log, &line).unwrap();
                    }
                })
            })
            .collect();
        for w in writers {
            w.join().unwrap();
        }
        let text = fs::read_to_string(&log).unwrap();
        let mut seen = vec![0; THREADS];
        for line in text.lines() {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 3, "a torn line: {line:.60}");
            let t: usize = fields[0].parse().unwrap();
            assert_eq!(fields[2].len(), 1 + t * 20, "a torn line: {line:.60}");
            seen[t] += 1;
        }
        assert_eq!(seen, vec![LINES; THREADS]);
    }
}
