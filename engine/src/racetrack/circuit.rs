//! The circuit grid and its `.cir` text format (spec §1).

use std::fmt;

use super::physics::Pos;
use super::text::{self, LineEnding, NonAscii};

/// A 150 × 100 grid of ASCII characters: a space is track, anything else is decor.
///
/// The size is fixed by the format, so a `Circuit` can only be built at that size; a file of
/// another shape is refused by [`Circuit::parse`] rather than padded or cut. Cells never hold a
/// byte that would break the text format (a non-ASCII byte, CR or LF), so [`Circuit::to_text`]
/// always reads back to the same circuit.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Circuit {
    /// Row-major, `WIDTH * HEIGHT` bytes.
    cells: Vec<u8>,
}

/// Why a `.cir` file could not be read. Lines and columns are 1-based, as an editor shows them.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CircuitError {
    /// A byte outside ASCII.
    #[error(transparent)]
    NonAscii(#[from] NonAscii),
    /// A line that is not exactly 150 characters long.
    #[error(
        "line {line}: {}, a circuit line has exactly 150",
        text::count(*found, "character")
    )]
    LineLength { line: usize, found: usize },
    /// A file that does not have exactly 100 lines.
    #[error("{}, a circuit has exactly 100", text::count(*found, "line"))]
    LineCount { found: usize },
}

impl CircuitError {
    /// The grid cell where the shape first goes wrong (it may lie just outside the grid, e.g.
    /// the 151st character of a line), for pointing at it.
    pub fn cell(&self) -> Pos {
        match *self {
            CircuitError::NonAscii(NonAscii { line, column, .. }) => {
                Pos::new(column as i32 - 1, line as i32 - 1)
            }
            CircuitError::LineLength { line, found } => {
                Pos::new(found.min(Circuit::WIDTH as usize) as i32, line as i32 - 1)
            }
            CircuitError::LineCount { found } => {
                Pos::new(0, found.min(Circuit::HEIGHT as usize) as i32)
            }
        }
    }
}

/// Why [`Circuit::set`] refused a write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetError {
    #[error("{0} is outside the 150 × 100 grid")]
    OffGrid(Pos),
    #[error("byte 0x{0:02X} cannot be stored in a circuit (not ASCII, or a line terminator)")]
    BadByte(u8),
}

impl Circuit {
    /// Number of columns (`x` runs `0..WIDTH`).
    pub const WIDTH: i32 = 150;
    /// Number of rows (`y` runs `0..HEIGHT`, row 0 is the first line of the file).
    pub const HEIGHT: i32 = 100;
    /// The track character.
    pub const TRACK: u8 = b' ';
    /// The decor character [`Circuit::blank`] fills with (dark green, "grass").
    pub const GRASS: u8 = b'C';
    /// What [`Circuit::cell`] answers outside the grid: black decor, never track.
    pub const OUTSIDE: u8 = b'A';

    const LEN: usize = (Self::WIDTH * Self::HEIGHT) as usize;

    /// A fresh canvas for the editor: all grass ([`Circuit::GRASS`]) except the mandatory start
    /// zone (x 20..=59, y 2..=6), which is track. It is not conforming yet: it has no loop.
    pub fn blank() -> Circuit {
        let mut cells = vec![Self::GRASS; Self::LEN];
        for y in 2..=6 {
            for x in 20..=59 {
                cells[(y * Self::WIDTH + x) as usize] = Self::TRACK;
            }
        }
        Circuit { cells }
    }

    /// A circuit made entirely of the byte `ch` (which must be storable, see [`Circuit::set`]).
    pub fn filled(ch: u8) -> Result<Circuit, SetError> {
        check_byte(ch)?;
        Ok(Circuit {
            cells: vec![ch; Self::LEN],
        })
    }

    /// Reads a `.cir` file: 100 lines of exactly 150 ASCII characters, ended by LF, CRLF or CR
    /// (the last terminator is optional). Any other shape is an error naming its place.
    pub fn parse(bytes: &[u8]) -> Result<Circuit, CircuitError> {
        let lines = text::lines_at(bytes);
        // Report a bad byte or a bad line among the first 100 before a bad line count: it is the
        // more precise place.
        let mut cells = Vec::with_capacity(Self::LEN);
        for (i, &(start, line)) in lines.iter().take(Self::HEIGHT as usize).enumerate() {
            text::check_ascii(i + 1, start, line)?;
            if line.len() != Self::WIDTH as usize {
                return Err(CircuitError::LineLength {
                    line: i + 1,
                    found: line.len(),
                });
            }
            cells.extend_from_slice(line);
        }
        if lines.len() != Self::HEIGHT as usize {
            return Err(CircuitError::LineCount { found: lines.len() });
        }
        Ok(Circuit { cells })
    }

    /// The `.cir` text: 100 lines of 150 characters, each ended by `ending` (CRLF by default).
    pub fn to_text(&self, ending: LineEnding) -> String {
        let w = Self::WIDTH as usize;
        let mut out = String::with_capacity(Self::LEN + Self::HEIGHT as usize * 2);
        for row in self.cells.chunks(w) {
            // Every stored byte is ASCII (an invariant of `parse` and `set`).
            out.extend(row.iter().map(|&b| b as char));
            out.push_str(ending.as_str());
        }
        out
    }

    /// Whether `p` is inside the grid.
    pub fn contains(p: Pos) -> bool {
        (0..Self::WIDTH).contains(&p.x) && (0..Self::HEIGHT).contains(&p.y)
    }

    fn index(p: Pos) -> Option<usize> {
        Self::contains(p).then(|| (p.y * Self::WIDTH + p.x) as usize)
    }

    /// The character at `p`, or `None` outside the grid.
    pub fn get(&self, p: Pos) -> Option<u8> {
        Self::index(p).map(|i| self.cells[i])
    }

    /// The character at `p`; outside the grid everything is decor ([`Circuit::OUTSIDE`]).
    pub fn cell(&self, p: Pos) -> u8 {
        self.get(p).unwrap_or(Self::OUTSIDE)
    }

    /// Whether `p` is a track cell (a space). Outside the grid: never.
    pub fn is_track(&self, p: Pos) -> bool {
        self.get(p) == Some(Self::TRACK)
    }

    /// Writes `ch` at `p`. Refuses a cell outside the grid and a byte the text format cannot
    /// hold (non-ASCII, CR, LF), so the circuit always writes back out unchanged.
    pub fn set(&mut self, p: Pos, ch: u8) -> Result<(), SetError> {
        check_byte(ch)?;
        let i = Self::index(p).ok_or(SetError::OffGrid(p))?;
        self.cells[i] = ch;
        Ok(())
    }

    /// One row, `WIDTH` bytes (`y` must be in `0..HEIGHT`, else `None`).
    pub fn row(&self, y: i32) -> Option<&[u8]> {
        let w = Self::WIDTH as usize;
        (0..Self::HEIGHT)
            .contains(&y)
            .then(|| &self.cells[y as usize * w..(y as usize + 1) * w])
    }

    /// All cells, row-major (`y * WIDTH + x`).
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// Number of track cells.
    pub fn track_cells(&self) -> usize {
        self.cells.iter().filter(|&&b| b == Self::TRACK).count()
    }
}

fn check_byte(ch: u8) -> Result<(), SetError> {
    if ch.is_ascii() && ch != b'\r' && ch != b'\n' {
        Ok(())
    } else {
        Err(SetError::BadByte(ch))
    }
}

impl Default for Circuit {
    fn default() -> Self {
        Circuit::blank()
    }
}

impl fmt::Debug for Circuit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Circuit({} track cells)", self.track_cells())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(lines: usize, width: usize, nl: &str) -> Vec<u8> {
        let mut s = String::new();
        for _ in 0..lines {
            s.push_str(&"A".repeat(width));
            s.push_str(nl);
        }
        s.into_bytes()
    }

    #[test]
    fn reads_all_three_line_endings_and_a_missing_last_one() {
        for nl in ["\n", "\r\n", "\r"] {
            let c = Circuit::parse(&text(100, 150, nl)).unwrap();
            assert_eq!(c.cell(Pos::new(149, 99)), b'A');
            let mut bytes = text(100, 150, nl);
            bytes.truncate(bytes.len() - nl.len());
            assert_eq!(Circuit::parse(&bytes).unwrap(), c);
        }
    }

    #[test]
    fn shape_errors_name_the_place() {
        assert_eq!(
            Circuit::parse(&text(99, 150, "\n")),
            Err(CircuitError::LineCount { found: 99 })
        );
        assert_eq!(
            Circuit::parse(&text(101, 150, "\n")),
            Err(CircuitError::LineCount { found: 101 })
        );
        let mut bytes = text(100, 150, "\r\n");
        bytes.extend_from_slice(b"\r\n"); // an empty 101st line is not silently dropped
        assert_eq!(
            Circuit::parse(&bytes),
            Err(CircuitError::LineCount { found: 101 })
        );

        let mut bytes = text(100, 150, "\n");
        bytes.remove(151 * 6 + 3); // line 7 loses a character
        let err = Circuit::parse(&bytes).unwrap_err();
        assert_eq!(
            err,
            CircuitError::LineLength {
                line: 7,
                found: 149
            }
        );
        assert_eq!(
            err.to_string(),
            "line 7: 149 characters, a circuit line has exactly 150"
        );
        assert_eq!(err.cell(), Pos::new(149, 6));

        let mut bytes = text(100, 150, "\n");
        bytes[151 * 2 + 9] = 0xE9;
        let err = Circuit::parse(&bytes).unwrap_err();
        assert_eq!(
            err,
            CircuitError::NonAscii(NonAscii {
                line: 3,
                column: 10,
                offset: 311,
                byte: 0xE9
            })
        );
        assert_eq!(
            err.to_string(),
            "line 3, column 10 (byte 311): byte 0xE9 is not ASCII"
        );
        assert_eq!(err.cell(), Pos::new(9, 2));
        // The first bad place wins: line 1 is short before line 2 has a bad byte.
        let mut bytes = text(1, 5, "\r\n");
        bytes.push(0x80);
        assert_eq!(
            Circuit::parse(&bytes).unwrap_err().to_string(),
            "line 1: 5 characters, a circuit line has exactly 150"
        );
        assert_eq!(
            Circuit::parse(&text(1, 150, "\n")).unwrap_err().to_string(),
            "1 line, a circuit has exactly 100"
        );
        assert_eq!(
            Circuit::parse(&text(100, 1, "\n")).unwrap_err().to_string(),
            "line 1: 1 character, a circuit line has exactly 150"
        );
    }

    #[test]
    fn writes_crlf_by_default_and_round_trips() {
        let mut c = Circuit::blank();
        c.set(Pos::new(0, 0), b'P').unwrap();
        c.set(Pos::new(149, 99), b'x').unwrap();
        let t = c.to_text(LineEnding::default());
        assert_eq!(t.len(), 100 * 152);
        assert!(t.starts_with('P'));
        assert_eq!(&t[150..152], "\r\n");
        assert_eq!(Circuit::parse(t.as_bytes()).unwrap(), c);
        let lf = c.to_text(LineEnding::Lf);
        assert_eq!(lf.len(), 100 * 151);
        assert_eq!(Circuit::parse(lf.as_bytes()).unwrap(), c);
    }

    #[test]
    fn cells_outside_the_grid_are_decor_and_cannot_be_set() {
        let mut c = Circuit::blank();
        assert!(c.is_track(Pos::new(40, 4)));
        assert!(c.is_track(Pos::new(20, 2)) && c.is_track(Pos::new(59, 6)));
        assert!(
            !c.is_track(Pos::new(19, 2))
                && !c.is_track(Pos::new(60, 6))
                && !c.is_track(Pos::new(40, 7))
        );
        assert!(
            !c.is_track(Pos::new(-1, 4))
                && !c.is_track(Pos::new(150, 4))
                && !c.is_track(Pos::new(40, 100))
        );
        assert_eq!(c.cell(Pos::new(-1, -1)), Circuit::OUTSIDE);
        assert_eq!(c.get(Pos::new(150, 0)), None);
        assert_eq!(
            c.set(Pos::new(150, 0), b' '),
            Err(SetError::OffGrid(Pos::new(150, 0)))
        );
        assert_eq!(c.set(Pos::new(1, 1), b'\n'), Err(SetError::BadByte(b'\n')));
        assert_eq!(c.set(Pos::new(1, 1), 0xC3), Err(SetError::BadByte(0xC3)));
        assert_eq!(c.cell(Pos::new(1, 1)), Circuit::GRASS);
    }
}
