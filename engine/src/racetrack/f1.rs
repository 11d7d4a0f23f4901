//! Result files (`.f1`, spec §4): the pilot's name, the circuit's file name, then one position
//! per line.

use super::physics::Pos;
use super::text::{self, LineEnding, NonAscii};

/// A parsed result file. The positions are as written: whether they make a legal lap is the
/// judge's business ([`mod@super::judge`]), not the reader's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ResultFile {
    /// Line 1: free text naming the pilot.
    pub pilot: String,
    /// Line 2: the circuit file name the lap was computed for.
    pub circuit: String,
    /// Lines 3…: `p0, p1, …` (the first should be the start, (40,4)).
    pub positions: Vec<Pos>,
}

/// The name of the result file a pilot called `pilot` writes: the pilot's name with the
/// extension `.F1` (spec §7: "a result file named after itself with extension `.F1`"). The CLI's
/// default output, the lab's built-in laps and the pilots page's downloads all use it.
pub fn result_file_name(pilot: &str) -> String {
    format!("{pilot}.F1")
}

/// Why a result file could not be read. Line numbers are 1-based.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum F1Error {
    /// The file ends before its pilot line (1) or its circuit line (2).
    #[error("line {line}: missing the {what} line")]
    Missing { line: usize, what: &'static str },
    /// A line among the positions that is not `x,y` (`found` quotes at most 60 bytes of it).
    #[error("line {line}: {found} is not a position `x,y`")]
    NotAPosition { line: usize, found: String },
    /// A position whose number does not fit in 32 bits.
    #[error("line {line}: number out of range in {found}")]
    OutOfRange { line: usize, found: String },
    /// A byte outside ASCII among the positions.
    #[error(transparent)]
    NonAscii(#[from] NonAscii),
}

impl F1Error {
    /// The line the error is on.
    pub fn line(&self) -> usize {
        match *self {
            F1Error::Missing { line, .. }
            | F1Error::NotAPosition { line, .. }
            | F1Error::OutOfRange { line, .. }
            | F1Error::NonAscii(NonAscii { line, .. }) => line,
        }
    }
}

/// A free-text line: UTF-8 when it is, otherwise read as Latin-1 (DOS-era names), so that no
/// byte is lost or refused.
fn free_text(line: &[u8]) -> String {
    match std::str::from_utf8(line) {
        Ok(s) => s.to_string(),
        Err(_) => line.iter().map(|&b| b as char).collect(),
    }
}

fn is_blank(line: &[u8]) -> bool {
    line.iter().all(|&b| b == b' ' || b == b'\t')
}

enum Bad {
    Syntax,
    Range,
}

/// An optionally negative decimal integer, with spaces around it.
fn number(field: &[u8]) -> Result<i32, Bad> {
    let s = std::str::from_utf8(field)
        .map_err(|_| Bad::Syntax)?
        .trim_matches(' ');
    let digits = s.strip_prefix('-').unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Bad::Syntax);
    }
    s.parse::<i32>().map_err(|_| Bad::Range)
}

fn position(line: &[u8]) -> Result<Pos, Bad> {
    let comma = line.iter().position(|&b| b == b',').ok_or(Bad::Syntax)?;
    let x = number(&line[..comma]);
    let y = number(&line[comma + 1..]);
    match (x, y) {
        (Ok(x), Ok(y)) => {
            // A deliberate bug, compiled only by `cargo xtask fuzz --plant`: the fuzz stage must
            // find it within its CI time (README, Contributing). Never in any other build.
            #[cfg(quadrille_planted_panic)]
            if x < -9999 {
                panic!("planted panic: the fuzz stage found it");
            }
            Ok(Pos::new(x, y))
        }
        (Err(Bad::Syntax), _) | (_, Err(Bad::Syntax)) => Err(Bad::Syntax),
        _ => Err(Bad::Range),
    }
}

/// The pilot (line 1) and circuit (line 2) of a result file, read even when a later line is
/// malformed, so that a tool can still name them (and find the circuit) for a syntax fault.
pub fn header(bytes: &[u8]) -> (Option<String>, Option<String>) {
    let lines = text::lines(bytes);
    (
        lines.first().map(|l| free_text(l)),
        lines.get(1).map(|l| free_text(l)),
    )
}

impl ResultFile {
    /// Reads a result file. Lines end in CR, LF or CRLF; blank lines at the end are ignored;
    /// any other line after the second that is not `x,y` is an error naming its line.
    pub fn parse(bytes: &[u8]) -> Result<ResultFile, F1Error> {
        let lines = text::lines_at(bytes);
        let (_, pilot) = lines.first().ok_or(F1Error::Missing {
            line: 1,
            what: "pilot",
        })?;
        let (_, circuit) = lines.get(1).ok_or(F1Error::Missing {
            line: 2,
            what: "circuit",
        })?;
        let body = &lines[2..];
        let used = body
            .iter()
            .rposition(|(_, l)| !is_blank(l))
            .map_or(0, |i| i + 1);
        let mut positions = Vec::with_capacity(used);
        for (i, &(start, line)) in body[..used].iter().enumerate() {
            let line_no = i + 3;
            text::check_ascii(line_no, start, line)?;
            match position(line) {
                Ok(p) => positions.push(p),
                Err(Bad::Syntax) => {
                    return Err(F1Error::NotAPosition {
                        line: line_no,
                        found: text::quote(line),
                    });
                }
                Err(Bad::Range) => {
                    return Err(F1Error::OutOfRange {
                        line: line_no,
                        found: text::quote(line),
                    });
                }
            }
        }
        Ok(ResultFile {
            pilot: free_text(pilot),
            circuit: free_text(circuit),
            positions,
        })
    }

    /// The file's text: pilot, circuit, then `x,y` lines, each ended by `ending`. Line breaks
    /// inside the two names are written as spaces, so the text always reads back.
    pub fn to_text(&self, ending: LineEnding) -> String {
        let nl = ending.as_str();
        let one_line = |s: &str| s.replace(['\r', '\n'], " ");
        let mut out = format!(
            "{}{nl}{}{nl}",
            one_line(&self.pilot),
            one_line(&self.circuit)
        );
        for p in &self.positions {
            out.push_str(&format!("{},{}{nl}", p.x, p.y));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_files_are_named_after_the_pilot() {
        assert_eq!(result_file_name("optimal"), "optimal.F1");
        assert_eq!(result_file_name("vmax3"), "vmax3.F1");
    }

    #[test]
    fn reads_names_positions_and_tolerates_spaces_and_trailing_blanks() {
        let f = ResultFile::parse(b"DEMO 2CV\r\nRING.CIR\r\n40,4\r\n 41 , 5 \n42,-7\r\r\n  \r\n")
            .unwrap();
        assert_eq!(f.pilot, "DEMO 2CV");
        assert_eq!(f.circuit, "RING.CIR");
        assert_eq!(
            f.positions,
            vec![Pos::new(40, 4), Pos::new(41, 5), Pos::new(42, -7)]
        );
    }

    #[test]
    fn errors_name_their_line() {
        assert_eq!(
            ResultFile::parse(b""),
            Err(F1Error::Missing {
                line: 1,
                what: "pilot"
            })
        );
        assert_eq!(
            ResultFile::parse(b"me\n"),
            Err(F1Error::Missing {
                line: 2,
                what: "circuit"
            })
        );
        let err = ResultFile::parse(b"me\nc.cir\n40,4\n41;4\n").unwrap_err();
        assert_eq!(err.line(), 4);
        assert_eq!(err.to_string(), "line 4: \"41;4\" is not a position `x,y`");
        // A blank line followed by a position is not trailing.
        assert_eq!(
            ResultFile::parse(b"me\nc\n40,4\n\n41,4\n")
                .unwrap_err()
                .line(),
            4
        );
        for bad in [
            &b"4 1,4"[..],
            b"41,",
            b",4",
            b"41,4,5",
            b"+41,4",
            b"41,4x",
            b"\t41,4",
            b"-,4",
        ] {
            let mut text = b"me\nc\n40,4\n".to_vec();
            text.extend_from_slice(bad);
            assert_eq!(ResultFile::parse(&text).unwrap_err().line(), 4, "{bad:?}");
        }
        let err = ResultFile::parse(b"me\nc\n99999999999,4\n").unwrap_err();
        assert!(matches!(err, F1Error::OutOfRange { line: 3, .. }));
        assert_eq!(
            err.to_string(),
            "line 3: number out of range in \"99999999999,4\""
        );
    }

    #[test]
    fn bad_bytes_give_their_place_and_long_lines_are_cut() {
        let err = ResultFile::parse(b"me\r\nc\r\n40,4\r\n41,\xe94\r\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 4, column 4 (byte 16): byte 0xE9 is not ASCII"
        );
        assert_eq!(err.line(), 4);
        let mut text = b"me\nc\n".to_vec();
        text.extend_from_slice(&[b'7'; 10_000]);
        let err = ResultFile::parse(&text).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("line 3: \"{}…\" is not a position `x,y`", "7".repeat(60))
        );
    }

    #[test]
    fn header_survives_a_bad_body() {
        let bytes = b"me\r\nRING.CIR\r\n40;4\r\n";
        assert!(ResultFile::parse(bytes).is_err());
        assert_eq!(header(bytes), (Some("me".into()), Some("RING.CIR".into())));
        assert_eq!(header(b"me"), (Some("me".into()), None));
    }

    #[test]
    fn latin1_names_are_kept() {
        let f = ResultFile::parse(b"Ren\xe9\nc\n").unwrap();
        assert_eq!(f.pilot, "René");
        assert!(f.positions.is_empty());
    }

    #[test]
    fn writes_crlf_and_reads_back() {
        let f = ResultFile {
            pilot: "a\nb".into(),
            circuit: "ring.cir".into(),
            positions: vec![Pos::new(40, 4), Pos::new(41, 4)],
        };
        let t = f.to_text(LineEnding::default());
        assert_eq!(t, "a b\r\nring.cir\r\n40,4\r\n41,4\r\n");
        let back = ResultFile::parse(t.as_bytes()).unwrap();
        assert_eq!(back.positions, f.positions);
        assert_eq!(back.pilot, "a b");
    }
}
