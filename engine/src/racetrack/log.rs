//! The judge's log (spec §5): one line per judged lap, appended to `<circuit>.log` by the CLI.
//! The line is built here, from a date the caller supplies, so it is the same everywhere.

use super::judge::Verdict;
use super::program::RunVerdict;

/// One log line, without its terminator: pilot, result file, verdict, moves, time, speed and
/// date, separated by tabs (easy to read, and to split in a spreadsheet).
///
/// A valid lap: `DEMO 2CV\tdemo.f1\tvalid\t57\t56.42\t123.4\t2026-11-29 22:30:00`.
/// An invalid one: `DEMO 2CV\tdemo.f1\tcollision at move 12\t57\t-\t-\t…`, where the moves are
/// those of the file (`positions − 1`, or `-` when it could not be read) and the fault names its
/// move, or its line for a syntax error. Tabs and line breaks inside the names become spaces.
pub fn line(
    pilot: &str,
    result_file: &str,
    moves: Option<usize>,
    verdict: &Verdict,
    date: &str,
) -> String {
    let clean = |s: &str| s.replace(['\t', '\r', '\n'], " ");
    let moves = moves.map_or_else(|| "-".to_string(), |n| n.to_string());
    let (verdict, time, speed) = match verdict {
        Verdict::Valid(lap) => ("valid".to_string(), lap.time_shown(), lap.speed_shown()),
        Verdict::Invalid(fault) => {
            let place = match (fault.step(), fault.line()) {
                (Some(k), _) => format!(" at move {k}"),
                (None, Some(l)) => format!(" at line {l}"),
                (None, None) => String::new(),
            };
            (
                format!("{}{place}", fault.kind()),
                "-".to_string(),
                "-".to_string(),
            )
        }
    };
    [
        clean(pilot),
        clean(result_file),
        verdict,
        moves,
        time,
        speed,
        clean(date),
    ]
    .join("\t")
}

/// The log line of a pilot program's run ([`super::program::verdict`]): as [`line()`] for a judged
/// lap; a program fault writes its kind (`pilot_timeout`, `bad_result at line 4`, …) where the
/// judge writes the fault, with no time and no speed.
pub fn run_line(
    pilot: &str,
    result_file: &str,
    moves: Option<usize>,
    verdict: &RunVerdict,
    date: &str,
) -> String {
    match verdict {
        RunVerdict::Judged(v) => line(pilot, result_file, moves, v, date),
        RunVerdict::Program(fault) => {
            let clean = |s: &str| s.replace(['\t', '\r', '\n'], " ");
            let place = fault
                .line()
                .map(|l| format!(" at line {l}"))
                .unwrap_or_default();
            let moves = moves.map_or_else(|| "-".to_string(), |n| n.to_string());
            [
                clean(pilot),
                clean(result_file),
                format!("{}{place}", fault.kind()),
                moves,
                "-".into(),
                "-".into(),
                clean(date),
            ]
            .join("\t")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::racetrack::judge::{Fault, ValidLap};
    use crate::racetrack::{F1Error, Pos};

    #[test]
    fn valid_and_invalid_lines() {
        let lap = ValidLap {
            moves: 57,
            fraction: 0.42,
            time: 56.42,
            distance_m: 1000.0,
            speed_kmh: 63.8,
        };
        assert_eq!(
            line(
                "DEMO 2CV",
                "demo.f1",
                Some(57),
                &Verdict::Valid(lap),
                "2026-11-29 22:30"
            ),
            "DEMO 2CV\tdemo.f1\tvalid\t57\t56.42\t63.8\t2026-11-29 22:30"
        );
        let crash = Fault::Collision {
            step: 12,
            from: Pos::new(1, 1),
            to: Pos::new(2, 2),
            hit: Pos::new(2, 2),
        };
        assert_eq!(
            line("a\tb", "x.f1", Some(20), &Verdict::Invalid(crash), "d"),
            "a b\tx.f1\tcollision at move 12\t20\t-\t-\td"
        );
        let syntax = Fault::Syntax(F1Error::Missing {
            line: 2,
            what: "circuit",
        });
        assert_eq!(
            line("", "x.f1", None, &Verdict::Invalid(syntax), "d"),
            "\tx.f1\tsyntax at line 2\t-\t-\t-\td"
        );
    }

    #[test]
    fn program_faults_name_their_kind_and_line() {
        use crate::racetrack::program::ProgramFault;
        let bad = RunVerdict::Program(ProgramFault::BadResult {
            message: "x".into(),
            line: Some(4),
        });
        assert_eq!(
            run_line("greedy", "greedy.F1", None, &bad, "d"),
            "greedy\tgreedy.F1\tbad_result at line 4\t-\t-\t-\td"
        );
        let slow = RunVerdict::Program(ProgramFault::Timeout { limit_secs: 2.0 });
        assert_eq!(
            run_line("a", "a.F1", None, &slow, "d"),
            "a\ta.F1\tpilot_timeout\t-\t-\t-\td"
        );
    }
}
