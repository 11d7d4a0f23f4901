//! A simulated board as a player: a netlist in [`hdl_sim::BoardEmulator`], on the far end of an
//! in-process wire, with its UART at the referee's line settings.
//!
//! # Time
//!
//! The emulator runs as fast as it can, but it is **paced to the wall clock**: a simulated cycle
//! never runs ahead of the moment it would happen on the real board (50 MHz), give or take a
//! millisecond, and every byte the board sends is handed to the referee no earlier than the
//! board would have sent it. So a fast host gives the board no advantage — its answers arrive
//! when the hardware's would — and the referee's own wall-clock turn timer judges it as it
//! judges a real board. A host slower than the hardware cannot be hidden: the board then answers
//! as late as the emulator finds its answer, and that lateness counts against its clock
//! (`--turn-ms` can compensate). While the board has nothing to do — its input line is idle and
//! it owes no turn — the emulator sleeps instead of simulating idle cycles, and the next input
//! re-anchors simulated time to the wall clock; a board's behaviour does not depend on how long
//! it has idled.
//!
//! "Owes a turn" is the protocol's: the board has received a `}` (the start signal `{}` or the
//! opponent's turn) and has not yet finished a line of its own; a `w` (a new game) clears it.
//! An owed turn is simulated for at most [`GIVE_UP_CYCLES`]; a board that has not answered by
//! then has lost on time anyway.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use hdl_sim::{BoardConfig, BoardEmulator, UartConfig};

use super::serial::LineSettings;
use super::{Connection, Inbox, Mail, in_process_polled};

/// The DE2-115's `CLOCK_50`.
pub const CLOCK_HZ: u64 = 50_000_000;

/// Cycles simulated per slice between looks at the inbox (1 ms of board time).
const SLICE: u64 = CLOCK_HZ / 1000;

/// How long the board keeps running after its input line falls idle when it owes no turn
/// (enough to clear a 254 x 254 field: 65,025 cycles).
const SETTLE_CYCLES: u64 = 1 << 18;

/// How long an owed turn is simulated at most (2^26 cycles, 1.34 s of board time).
pub const GIVE_UP_CYCLES: u64 = 1 << 26;

/// How far simulated time may run ahead of the wall clock.
const SLACK: Duration = Duration::from_millis(1);

/// Whether boards run on hdl-sim's interpreter (`--interpret`) rather than its compiled back end.
static INTERPRET: AtomicBool = AtomicBool::new(false);

/// Makes every board loaded from now on run on the interpreter (`true`) or compiled (`false`,
/// the default).
pub fn interpret_boards(interpret: bool) {
    INTERPRET.store(interpret, Ordering::Relaxed);
}

/// Loads `netlist` (yosys JSON) as a board with slide switches `switches` and the line settings
/// `line`, ready for [`serve`]: compiled to machine code unless [`interpret_boards`] said
/// otherwise or the compiler does not cover the design (a note on stderr then says so).
pub fn board(netlist: &str, switches: u64, line: LineSettings) -> anyhow::Result<BoardEmulator> {
    let config = BoardConfig {
        clock_hz: CLOCK_HZ,
        switch_value: switches,
        uart: UartConfig::new(CLOCK_HZ, u64::from(line.baud))
            .with_stop_bits(line.stop_bits.count()),
        ..BoardConfig::default()
    };
    let mut board = BoardEmulator::from_json(netlist, config)?;
    if !INTERPRET.load(Ordering::Relaxed)
        && let Err(why) = board.use_compiled()
    {
        eprintln!("note: the board's design runs on the interpreter: {why}");
    }
    Ok(board)
}

/// Serves `board` on an in-process wire until the referee closes it.
pub fn serve(name: String, board: BoardEmulator) -> io::Result<Connection> {
    in_process_polled(name, move |inbox, output| run(board, &inbox, output))
}

/// Protocol state the pacing depends on: does the board owe a turn?
#[derive(Default)]
struct Duty {
    owed_since: Option<u64>,
    /// The byte before was `w` or `l`: the next one is a size, whatever its value.
    size_next: bool,
}

impl Duty {
    /// Bytes the referee sent the board, at `cycle`.
    fn received(&mut self, bytes: &[u8], cycle: u64) {
        for &b in bytes {
            if std::mem::take(&mut self.size_next) {
                continue;
            }
            match b {
                b'w' => {
                    self.owed_since = None;
                    self.size_next = true;
                }
                b'l' => self.size_next = true,
                b'}' => self.owed_since = self.owed_since.or(Some(cycle)),
                _ => {}
            }
        }
    }

    /// A byte the board sent.
    fn sent(&mut self, byte: u8) {
        if byte == b'\n' {
            self.owed_since = None;
        }
    }
}

/// The board's loop: feed it what arrives, run it paced to the wall clock, forward what it sends.
fn run(mut board: BoardEmulator, inbox: &Inbox, mut output: io::PipeWriter) {
    let mut duty = Duty::default();
    // Simulated time `anchor.1` happened at wall time `anchor.0`.
    let mut anchor = (Instant::now(), board.cycle());
    let mut quiet_since = board.cycle();
    let mut asleep = true;
    loop {
        let wall_of = |anchor: (Instant, u64), cycle: u64| {
            anchor.0
                + Duration::from_nanos(cycle.saturating_sub(anchor.1) * 1_000_000_000 / CLOCK_HZ)
        };
        // Sleep when idle; otherwise wait only as long as simulated time is ahead of the wall.
        let wait = if asleep {
            Duration::from_millis(100)
        } else {
            wall_of(anchor, board.cycle()).saturating_duration_since(Instant::now() + SLACK)
        };
        match inbox.poll(wait) {
            Mail::Closed => return,
            Mail::Bytes(bytes) => {
                if asleep {
                    anchor = (Instant::now(), board.cycle());
                    asleep = false;
                }
                duty.received(&bytes, board.cycle());
                board.send(&bytes);
            }
            Mail::Empty if asleep => continue,
            Mail::Empty => {}
        }
        board.run(SLICE);
        let sent = board.take_output();
        for b in &sent {
            duty.sent(b.byte);
            let due = wall_of(anchor, b.cycle);
            let now = Instant::now();
            if due > now {
                thread::sleep(due - now);
            }
            if output
                .write_all(&[b.byte])
                .and_then(|()| output.flush())
                .is_err()
            {
                return;
            }
        }
        if !sent.is_empty() || !board.send_idle() {
            quiet_since = board.cycle();
        }
        let idle = match duty.owed_since {
            Some(since) => board.cycle() - since > GIVE_UP_CYCLES,
            None => board.cycle() - quiet_since > SETTLE_CYCLES,
        };
        if idle && board.send_idle() {
            duty.owed_since = None;
            asleep = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duty_follows_the_protocol() {
        let mut d = Duty::default();
        // A width of `}` (125 is odd, but the byte after `w` is data whatever it is).
        d.received(b"w}\nl\x7d\ncr\n", 5);
        assert_eq!(d.owed_since, None);
        d.received(b"{}\n", 7);
        assert_eq!(d.owed_since, Some(7));
        d.sent(b'{');
        assert_eq!(d.owed_since, Some(7));
        d.sent(b'\n');
        assert_eq!(d.owed_since, None);
        d.received(b"{45}", 9);
        d.received(b"w\x08\n", 10);
        assert_eq!(d.owed_since, None);
    }
}
