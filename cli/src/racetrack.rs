//! `quadrille verifcir | testf1 | cir2bmp | bmp2cir`: the original DOS tools of the Racetrack
//! contest, as thin shells over `engine::racetrack`.

mod animate;
mod clock;

use std::fs;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use engine::racetrack::conformity::{self, Report, Violation};
use engine::racetrack::judge::{self, Fault, Verdict};
use engine::racetrack::{Circuit, LineEnding, ResultFile, bmp, f1, log};
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
                eprintln!(
                    "note: {} is not conforming ({} violation(s)); `quadrille verifcir` tells why",
                    output.display(),
                    report.violations.len()
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
        "circuit {base:?} (line 2 of {}) not found in {}; give it with --circuit",
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
            })?,
            Verdict::Invalid(fault) => serde_json::to_string(&InvalidJson {
                valid: false,
                fault: fault.kind().as_str(),
                step: fault.step(),
                line: fault.line(),
                message: fault.to_string(),
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

fn append_log(path: &Path, line: &str) -> anyhow::Result<()> {
    let mut f = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("{}: cannot open the log", path.display()))?;
    writeln!(f, "{line}").with_context(|| format!("{}: cannot write the log", path.display()))
}
