//! `quadrille soccer play`: the engine acting as a board on a serial port, so a PC can stand in
//! for a DE2-115 against any referee. [`serve`] is also how the referee runs its `engine`
//! players, over in-process pipes.

use std::io::{self, Read, Write};
use std::process::ExitCode;

use std::time::Instant;

use engine::soccer::game::Game;
use engine::soccer::protocol::Turn;
use engine::soccer::search::Engine;
use engine::soccer::wire::{ChooseTurn, WireNote, WirePlayer};

use crate::transport::serial::{self, LineArgs};

/// The engine's strength when none is given: well inside the contest's 1000 ms per turn.
pub const DEFAULT_LEVEL: u8 = 3;

#[derive(clap::Args)]
pub struct Args {
    /// The serial device, e.g. /dev/ttyUSB0.
    #[arg(long)]
    port: String,
    /// The engine's strength: 0-5 deterministic levels, 6 = 650 ms a turn (the contest's
    /// 1000 ms minus a safety margin).
    #[arg(long, default_value_t = DEFAULT_LEVEL)]
    engine_level: u8,
    /// Instead of a level: the engine's time per turn in milliseconds.
    #[arg(long)]
    engine_ms: Option<u32>,
    /// The seed of the engine's tie-breaking.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    #[command(flatten)]
    line: LineArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let settings = args.line.settings();
    let connection = serial::open(&args.port, settings)?;
    let engine = match args.engine_ms {
        Some(ms) => Engine::timed(ms, args.seed),
        None => Engine::at_level(args.engine_level, args.seed),
    };
    serve(connection.reader, connection.writer, engine, |note| {
        eprintln!("{}: {note}", args.port)
    })?;
    Ok(ExitCode::SUCCESS)
}

/// Plays every game the referee on the other end of `reader`/`writer` starts, until the wire
/// closes (end of file, a hung-up port), with `engine`'s turns. `note` hears about skipped
/// bytes and odd messages, and how long the engine thought in each game.
///
/// `writer` must not buffer (a serial port, a pipe): it is never flushed, because flushing a
/// serial port waits for the line to drain and fails once the other end has hung up.
pub fn serve(
    mut reader: impl Read,
    mut writer: impl Write,
    engine: Engine,
    mut note: impl FnMut(String),
) -> io::Result<()> {
    let mut player = WirePlayer::new(Timed {
        engine,
        times: Times::default(),
    });
    let mut buf = vec![0u8; 4096];
    loop {
        let n = match reader.read(&mut buf) {
            Ok(0) => return Ok(()),
            Ok(n) => n,
            Err(e) => match e.kind() {
                io::ErrorKind::TimedOut
                | io::ErrorKind::WouldBlock
                | io::ErrorKind::Interrupted => {
                    continue;
                }
                // A serial port whose other end went away.
                io::ErrorKind::BrokenPipe => return Ok(()),
                _ => return Err(e),
            },
        };
        player.handle_input(&buf[..n]);
        while let Some(n) = player.poll_note() {
            match n {
                // A game ended, or a new one forgets the last: time to say how long we thought.
                WireNote::NewGame(_) | WireNote::OwnEnded { .. } => {}
                _ => note(n.to_string()),
            }
            if let WireNote::NewGame(_)
            | WireNote::OwnEnded { .. }
            | WireNote::OpponentEnded { .. } = n
            {
                player.chooser_mut().report_times(&mut note);
            }
        }
        if let Some(bytes) = player.poll_transmit() {
            match writer.write_all(&bytes) {
                Ok(()) => {}
                // The referee hung up while we were thinking.
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(()),
                Err(e) => return Err(e),
            }
        }
    }
}

/// The time the engine took over one game's turns, reported when the game ends.
#[derive(Default)]
struct Times {
    turns: u32,
    total: f64,
    longest: f64,
}

/// The engine, timed on the wall clock.
struct Timed {
    engine: Engine,
    times: Times,
}

impl ChooseTurn for Timed {
    fn choose_turn(&mut self, game: &Game) -> Option<Turn> {
        let origin = Instant::now();
        let clock = move || origin.elapsed().as_secs_f64() * 1000.0;
        let analysis = self.engine.analyse_with_clock(game, &clock)?;
        let took = clock();
        self.times.turns += 1;
        self.times.total += took;
        self.times.longest = self.times.longest.max(took);
        Some(analysis.turn)
    }
}

impl Timed {
    /// Says how long the engine thought in the game just ended (once per game).
    fn report_times(&mut self, note: &mut impl FnMut(String)) {
        let t = std::mem::take(&mut self.times);
        if t.turns > 0 {
            note(format!(
                "engine time: {} turns, {:.0} ms a turn on average, {:.0} ms at most",
                t.turns,
                t.total / f64::from(t.turns),
                t.longest
            ));
        }
    }
}
