//! TESTF1's animation in a terminal: the circuit in its colours (two cells per character with
//! half blocks, so 150 × 50 characters), then the car's positions one by one.

use std::io::{self, BufRead, Write};
use std::thread;
use std::time::Duration;

use engine::racetrack::colour;
use engine::racetrack::{Circuit, Pos, Verdict};

const TRAIL: [u8; 3] = [255, 255, 0];
const CAR: [u8; 3] = [255, 255, 255];
const CRASH: [u8; 3] = [255, 0, 0];

struct Screen {
    /// The colour of every cell, as currently drawn.
    cells: Vec<[u8; 3]>,
    out: io::BufWriter<io::Stdout>,
}

impl Screen {
    fn colour(&self, x: i32, y: i32) -> [u8; 3] {
        if Circuit::contains(Pos::new(x, y)) {
            self.cells[(y * Circuit::WIDTH + x) as usize]
        } else {
            [0, 0, 0]
        }
    }

    /// Draws the character holding rows `2·row` and `2·row + 1` of column `x`, at the cursor.
    fn glyph(&mut self, x: i32, row: i32) -> io::Result<()> {
        let [r, g, b] = self.colour(x, 2 * row);
        let [r2, g2, b2] = self.colour(x, 2 * row + 1);
        write!(
            self.out,
            "\x1b[38;2;{r};{g};{b}m\x1b[48;2;{r2};{g2};{b2}m\u{2580}"
        )
    }

    fn paint(&mut self, p: Pos, rgb: [u8; 3]) -> io::Result<()> {
        if !Circuit::contains(p) {
            return Ok(());
        }
        self.cells[(p.y * Circuit::WIDTH + p.x) as usize] = rgb;
        // Terminal rows and columns are 1-based.
        write!(self.out, "\x1b[{};{}H", p.y / 2 + 1, p.x + 1)?;
        self.glyph(p.x, p.y / 2)?;
        write!(self.out, "\x1b[0m")?;
        self.out.flush()
    }
}

/// Waits between two points: `delay` hundredths of a second, or, for 0, until Enter. Once stdin
/// is closed (or unreadable) there is nothing to wait for, so the rest plays without pausing.
fn pause(delay: u32, stdin_open: &mut bool) {
    if delay > 0 {
        thread::sleep(Duration::from_millis(u64::from(delay) * 10));
    } else if *stdin_open {
        let mut line = String::new();
        *stdin_open = matches!(io::stdin().lock().read_line(&mut line), Ok(n) if n > 0);
    }
}

/// The terminal's size in characters (columns, rows), when stdout is one and says so.
#[cfg(unix)]
fn terminal_size() -> Option<(u16, u16)> {
    let mut size = libc::winsize {
        ws_row: 0,
        ws_col: 0,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    // SAFETY: TIOCGWINSZ only writes a `winsize` through the pointer, which is valid and
    // exclusively borrowed for the call; a failure leaves it untouched and returns −1.
    let rc = unsafe { libc::ioctl(libc::STDOUT_FILENO, libc::TIOCGWINSZ, &mut size) };
    (rc == 0 && size.ws_col > 0).then_some((size.ws_col, size.ws_row))
}

#[cfg(not(unix))]
fn terminal_size() -> Option<(u16, u16)> {
    None
}

/// Whether the picture (150 × 50 characters, plus a line for the cursor) fits the terminal.
/// An unknown size is taken to fit.
pub fn fits() -> bool {
    terminal_size().is_none_or(|(cols, rows)| {
        i32::from(cols) >= Circuit::WIDTH && i32::from(rows) > Circuit::HEIGHT / 2
    })
}

/// Plays the lap up to its verdict: every position of a valid lap; up to the fault otherwise,
/// the offending move's target drawn in red.
pub fn play(circuit: &Circuit, positions: &[Pos], verdict: &Verdict, delay: u32) -> io::Result<()> {
    let cells = (0..Circuit::HEIGHT)
        .flat_map(|y| (0..Circuit::WIDTH).map(move |x| (x, y)))
        .map(|(x, y)| colour::rgb(circuit.cell(Pos::new(x, y))))
        .collect();
    let mut screen = Screen {
        cells,
        out: io::BufWriter::new(io::stdout()),
    };
    // Clear, hide the cursor, draw the circuit.
    write!(screen.out, "\x1b[2J\x1b[H\x1b[?25l")?;
    for row in 0..Circuit::HEIGHT / 2 {
        for x in 0..Circuit::WIDTH {
            screen.glyph(x, row)?;
        }
        writeln!(screen.out, "\x1b[0m")?;
    }
    screen.out.flush()?;

    let (shown, crash) = match verdict.fault().and_then(|f| f.step()) {
        Some(step)
            if verdict
                .fault()
                .is_some_and(|f| f.kind().as_str() != "did_not_finish") =>
        {
            (step.min(positions.len()), positions.get(step).copied())
        }
        _ => (positions.len(), None),
    };
    let mut stdin_open = true;
    let mut previous: Option<Pos> = None;
    for &p in &positions[..shown] {
        if let Some(prev) = previous {
            screen.paint(prev, TRAIL)?;
        }
        screen.paint(p, CAR)?;
        previous = Some(p);
        pause(delay, &mut stdin_open);
    }
    if let Some(p) = crash {
        screen.paint(p, CRASH)?;
    }
    // Below the picture, cursor back.
    write!(
        screen.out,
        "\x1b[{};1H\x1b[0m\x1b[?25h",
        Circuit::HEIGHT / 2 + 1
    )?;
    screen.out.flush()
}
