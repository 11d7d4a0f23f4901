//! `quadrille soccer play`: the engine acting as a board on a serial port, so a PC can stand in
//! for a DE2-115 against any referee. [`serve`] is also how the referee runs its `engine`
//! players, over in-process pipes.

use std::io::{self, Read, Write};
use std::process::ExitCode;

use engine::soccer::field::Field;
use engine::soccer::game::Game;
use engine::soccer::player::{PlayerEvent, PlayerSession};
use engine::soccer::protocol::Turn;
use engine::soccer::search::{self, Engine};

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
        None => engine_at(args.engine_level, args.seed),
    };
    serve(connection.reader, connection.writer, engine, |note| {
        eprintln!("{}: {note}", args.port)
    })?;
    Ok(ExitCode::SUCCESS)
}

/// The engine of `engine:LEVEL`: levels below [`search::MAX_LEVEL`] search a fixed number of
/// nodes (the same games for the same seeds), with the top level's time as a safety cap; the
/// top level is timed, the contest's 1000 ms turn minus a safety margin.
pub fn engine_at(level: u8, seed: u64) -> Engine {
    let top = search::level_millis(search::MAX_LEVEL, engine::soccer::protocol::TURN_MS);
    if level >= search::MAX_LEVEL {
        Engine::timed(top, seed)
    } else {
        Engine::new(level, seed).with_time_cap(top)
    }
}

/// Plays every game the referee on the other end of `reader`/`writer` starts, until the wire
/// closes (end of file, a hung-up port). `note` hears about skipped bytes and odd messages.
///
/// `writer` must not buffer (a serial port, a pipe): it is never flushed, because flushing a
/// serial port waits for the line to drain and fails once the other end has hung up.
pub fn serve(
    mut reader: impl Read,
    mut writer: impl Write,
    engine: Engine,
    mut note: impl FnMut(String),
) -> io::Result<()> {
    let mut session = PlayerSession::new();
    let mut player = Player::new(engine);
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
        session.handle_input(&buf[..n]);
        while let Some(event) = session.poll_event() {
            if let Some(turn) = player.on_event(event, &mut note)
                && session.send_turn(&turn).is_err()
            {
                note("the session refused our turn".into());
            }
        }
        if let Some(bytes) = session.poll_transmit() {
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

/// The engine and the game it is playing.
struct Player {
    engine: Engine,
    times: Times,
    /// The set-up of the game announced last: (field, our colour).
    setup: Option<(Field, engine::soccer::Side)>,
    /// Created at the first turn signal, when the starter becomes known.
    game: Option<Game>,
}

impl Player {
    fn new(engine: Engine) -> Self {
        Player {
            engine,
            times: Times::default(),
            setup: None,
            game: None,
        }
    }

    /// Follows the session; returns our turn when one is due.
    fn on_event(&mut self, event: PlayerEvent, note: &mut impl FnMut(String)) -> Option<Turn> {
        match event {
            PlayerEvent::NewGame {
                width,
                length,
                colour,
            } => {
                self.report_times(note);
                self.game = None;
                self.setup = Field::new(width, length).ok().map(|f| (f, colour));
                None
            }
            PlayerEvent::YourTurn { opponent_turn } => {
                let (field, colour) = self.setup?;
                let game = self.game.get_or_insert_with(|| {
                    let starter = match opponent_turn {
                        None => colour,
                        Some(_) => colour.opponent(),
                    };
                    Game::new(field, starter)
                });
                if let Some(turn) = &opponent_turn
                    && let Some(outcome) = game.play_turn(turn)
                {
                    note(format!(
                        "the opponent's turn {turn} ended the game: {}",
                        outcome.describe(game.turn_number())
                    ));
                    self.report_times(note);
                    return None;
                }
                if game.to_move() != colour || game.outcome().is_some() {
                    note("asked to play out of turn".into());
                    return None;
                }
                let origin = std::time::Instant::now();
                let clock = move || origin.elapsed().as_secs_f64() * 1000.0;
                let Some(analysis) = self.engine.analyse_with_clock(game, &clock) else {
                    note(format!(
                        "the engine found no turn to send: {}",
                        engine::soccer::protocol::TurnError::Empty
                    ));
                    return None;
                };
                let took = clock();
                self.times.turns += 1;
                self.times.total += took;
                self.times.longest = self.times.longest.max(took);
                let turn = analysis.turn;
                if game.play_turn(&turn).is_some() {
                    self.report_times(note);
                }
                Some(turn)
            }
            PlayerEvent::Ignored(e) => {
                note(format!("skipped: {e}"));
                None
            }
        }
    }

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
