//! `quadrille soccer referee`: referee games between boards, bots and the engine.
//!
//! The rules and the protocol are [`engine::soccer::referee::Referee`]'s; this is its I/O shell:
//! it connects the players (see [`super::players`]), feeds the referee the bytes the wires
//! deliver with their arrival time, writes what it transmits, and prints one record line per
//! game — `8x10 red: 3/0/4452 # red goal` — on standard output (and appends it to `--record`).

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context;
use engine::rng::SplitMix64;
use engine::soccer::BySide;
use engine::soccer::Side;
use engine::soccer::game::Game;
use engine::soccer::record::Record;
use engine::soccer::referee::{End, Referee, RefereeEvent, Settings, Starter};

use super::players::{DEFAULT_BOT_MEMORY_MB, Launch, MAX_BOT_MEMORY_MB, PlayerSpec};
use crate::out::outln;
use crate::transport::serial::LineArgs;
use crate::transport::{Connection, Hub, Incoming};

#[derive(clap::Args)]
pub struct Args {
    /// The red player: a serial device path, `engine[:LEVEL]`, `exec:COMMAND`,
    /// `wasm:PATH.wasm` (a WASI bot, sandboxed: see docs/bots.md), or
    /// `sim[:NETLIST.json][@SW]` — a board emulated at 50 MHz, paced to the wall clock (the
    /// built-in reference player unless a yosys netlist is given; SW = slide switches, e.g.
    /// `sim@3`).
    #[arg(long)]
    red: PlayerSpec,
    /// The blue player, likewise.
    #[arg(long)]
    blue: PlayerSpec,
    /// The field's width (even, 2-254).
    #[arg(long, default_value_t = 8)]
    width: u32,
    /// The field's length (even, 2-254).
    #[arg(long, default_value_t = 10)]
    length: u32,
    #[arg(long, default_value = "random", value_parser = starter_parser())]
    starter: Starter,
    /// Each player's time per turn, in milliseconds.
    #[arg(long, default_value_t = engine::soccer::protocol::TURN_MS)]
    turn_ms: u64,
    /// How many games to play (the players keep their wires between games).
    #[arg(long, default_value_t = 1)]
    games: u32,
    /// The seed of the starters and of the engines (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// Append each game's record line to this file.
    #[arg(long)]
    record: Option<PathBuf>,
    #[command(flatten)]
    line: LineArgs,
    /// A `wasm:` bot's linear memory at most, in MiB (1-4096): a growth past it traps, and
    /// the bot loses by `disconnect`.
    #[arg(long, value_name = "MB", default_value_t = DEFAULT_BOT_MEMORY_MB,
          value_parser = clap::value_parser!(u64).range(1..=MAX_BOT_MEMORY_MB))]
    bot_memory_mb: u64,
    /// Write every byte exchanged, with its direction and time, to this file.
    #[arg(long)]
    log: Option<PathBuf>,
    /// Emulate `sim` boards with hdl-sim's interpreter instead of its compiled back end.
    #[arg(long)]
    interpret: bool,
}

/// After a game, input is read and dropped this long before the next game starts, so a late
/// answer to the last game cannot be taken for a turn of the next (after a time-out, the wait
/// is one turn's time, up to a second).
const SETTLE: Duration = Duration::from_millis(30);

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let field = engine::soccer::field::Field::from_sizes(args.width, args.length)
        .with_context(|| format!("--width {} --length {}", args.width, args.length))?;
    let settings = Settings {
        width: field.width(),
        length: field.length(),
        turn_ms: args.turn_ms,
    };
    let seed = args.seed.unwrap_or_else(clock_seed);
    let mut rng = SplitMix64::new(seed);
    crate::transport::sim::interpret_boards(args.interpret);
    let launch = Launch {
        line: args.line.settings(),
        bot_memory_mb: args.bot_memory_mb,
    };
    let mut log = Log::open(args.log.as_deref())?;
    let mut records = match &args.record {
        Some(path) => Some(
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .with_context(|| format!("{}: cannot open the record file", path.display()))?,
        ),
        None => None,
    };

    let t0 = Instant::now();
    let mut hub = Hub::new();
    for (side, spec) in [(Side::Red, &args.red), (Side::Blue, &args.blue)] {
        let connection = spec
            .connect(launch, rng.next_u64())
            .with_context(|| format!("{side} player `{spec}`"))?;
        hub.attach(connection)
            .with_context(|| format!("{side} player `{spec}`: cannot start its threads"))?;
    }
    let mut wires = Wires {
        hub,
        t0,
        closed: BySide::default(),
    };
    let mut wins = BySide::<u32>::default();
    for game in 1..=args.games {
        let starter = args.starter.pick(&mut rng);
        log.note(wires.now_ms(), &format!("game {game}: {starter} starts"));
        let end = play_game(&mut wires, &mut log, settings, starter)?;
        wins[end.end.outcome.winner] += 1;
        eprintln!("game {game}: {}", end.text);
        let line = end.record.to_string();
        outln!("{line}")?;
        if let Some(file) = &mut records {
            writeln!(file, "{line}").context("cannot write the record file")?;
        }
        log.note(wires.now_ms(), &format!("game {game}: {line}"));
        log.flush()?;
        if game < args.games {
            let settle = match end.end.outcome.reason {
                engine::soccer::Reason::Timeout => {
                    Duration::from_millis(args.turn_ms.min(engine::soccer::protocol::TURN_MS))
                }
                _ => SETTLE,
            };
            wires.settle(&mut log, settle);
        }
    }
    eprintln!(
        "{} {}: red ({}) {} - {} blue ({})",
        args.games,
        super::plural(args.games.into(), "game", "games"),
        args.red,
        wins.red,
        wins.blue,
        args.blue
    );
    log.flush()?;
    wires.hub.shutdown(Duration::from_millis(200));
    Ok(ExitCode::SUCCESS)
}

/// Referees one game between two players just connected (red's wire first), then lets go of
/// them: the league's way to play a game, with the same loop as `soccer referee`. With `board`
/// (a serial port is one of the wires) input is first read and dropped for a moment, so bytes
/// a board still sends for its previous game cannot count in this one, and after a time-out for
/// as long as `soccer referee` waits between games, before the port is let go.
pub(super) fn play_one(
    connections: [Connection; 2],
    settings: Settings,
    starter: Side,
    board: bool,
) -> anyhow::Result<(Record, String)> {
    let mut hub = Hub::new();
    for (side, connection) in [Side::Red, Side::Blue].into_iter().zip(connections) {
        let name = connection.name.clone();
        hub.attach(connection)
            .with_context(|| format!("{side} player `{name}`: cannot start its threads"))?;
    }
    let mut wires = Wires {
        hub,
        t0: Instant::now(),
        closed: BySide::default(),
    };
    let mut log = Log { out: None };
    if board {
        wires.settle(&mut log, SETTLE);
    }
    let end = play_game(&mut wires, &mut log, settings, starter)?;
    if board && end.end.outcome.reason == engine::soccer::Reason::Timeout {
        let wait = settings.turn_ms.min(engine::soccer::protocol::TURN_MS);
        wires.settle(&mut log, Duration::from_millis(wait));
    }
    wires.hub.shutdown(Duration::from_millis(200));
    Ok((end.record, end.text))
}

/// A finished game: how it ended, in words too, and its record.
struct GameEnd {
    end: End,
    text: String,
    record: Record,
}

/// The players' wires and the time base.
struct Wires {
    hub: Hub,
    t0: Instant,
    /// Wires known to be closed: their players lose every later game at once.
    closed: BySide<bool>,
}

impl Wires {
    fn now_ms(&self) -> u64 {
        self.ms(Instant::now())
    }

    fn ms(&self, at: Instant) -> u64 {
        u64::try_from(at.saturating_duration_since(self.t0).as_millis()).unwrap_or(u64::MAX)
    }

    /// Reads and drops input for `wait` (and what is already queued, within reason: a player
    /// that never stops talking must not stall the series).
    fn settle(&mut self, log: &mut Log, wait: Duration) {
        let until = Instant::now() + wait;
        let mut late = 0;
        while let Some(delivery) = self.hub.receive(Some(until)) {
            if Instant::now() >= until {
                late += 1;
                if late > 256 {
                    break;
                }
            }
            let side = side_of(delivery.id);
            let t = self.ms(delivery.at);
            match delivery.incoming {
                Incoming::Data(bytes) => log.bytes(t, side, "from", &bytes, " (between games)"),
                Incoming::Closed(why) => {
                    self.closed[side] = true;
                    let name = self.hub.name(delivery.id);
                    log.note(t, &format!("{side} ({name}) closed: {why}"));
                }
            }
        }
    }
}

/// The hub's wire ids: red's wire is attached first.
const WIRE: BySide<usize> = BySide::new(0, 1);

fn side_of(id: usize) -> Side {
    if id == WIRE.red {
        Side::Red
    } else {
        Side::Blue
    }
}

/// `--starter`: the engine's names, listed in `--help` and in clap's error for any other word.
fn starter_parser() -> impl clap::builder::TypedValueParser<Value = Starter> {
    use clap::builder::TypedValueParser;
    let listed = Starter::ALL.map(|starter| {
        let value = clap::builder::PossibleValue::new(starter.name());
        match starter {
            Starter::Random => value.help("A fair coin per game, from `--seed`"),
            Starter::Fixed(_) => value,
        }
    });
    clap::builder::PossibleValuesParser::new(listed)
        // Only the listed names get here, and each is a starter's.
        .map(|name: String| Starter::from_name(&name).unwrap_or_default())
}

/// Referees one game to its end.
fn play_game(
    wires: &mut Wires,
    log: &mut Log,
    settings: Settings,
    starter: Side,
) -> anyhow::Result<GameEnd> {
    let mut referee = Referee::new(settings, starter, wires.now_ms())?;
    for side in [Side::Red, Side::Blue] {
        if wires.closed[side] {
            referee.handle_disconnect(side, wires.now_ms());
        }
    }
    loop {
        while let Some(transmit) = referee.poll_transmit() {
            log.bytes(wires.now_ms(), transmit.to, "to", &transmit.bytes, "");
            wires.hub.send(WIRE[transmit.to], transmit.bytes);
        }
        while let Some(event) = referee.poll_event() {
            let t = wires.now_ms();
            match event {
                RefereeEvent::Played { side, turn } => {
                    log.note(t, &format!("{side} played {turn}"))
                }
                RefereeEvent::OutOfTurn { side, bytes } => log.note(
                    t,
                    &format!(
                        "{side}: {bytes} protocol {} out of turn, dropped",
                        super::plural(bytes as u64, "byte", "bytes")
                    ),
                ),
                RefereeEvent::Ended(end) => log.note(t, &describe(end, referee.game())),
            }
        }
        if let Some(end) = referee.end() {
            return Ok(GameEnd {
                end,
                text: describe(end, referee.game()),
                record: referee.record().clone(),
            });
        }
        let deadline = referee
            .next_deadline()
            .map(|ms| wires.t0 + Duration::from_millis(ms));
        match wires.hub.receive(deadline) {
            None => referee.poll(wires.now_ms()),
            Some(delivery) => {
                let side = side_of(delivery.id);
                let t = wires.ms(delivery.at);
                match delivery.incoming {
                    Incoming::Data(bytes) => {
                        log.bytes(t, side, "from", &bytes, "");
                        referee.handle_input(side, &bytes, t);
                    }
                    Incoming::Closed(why) => {
                        wires.closed[side] = true;
                        let name = wires.hub.name(delivery.id);
                        log.note(t, &format!("{side} ({name}) closed: {why}"));
                        referee.handle_disconnect(side, t);
                    }
                }
            }
        }
    }
}

/// The end of a game in words: who won, at which turn, and what the other side did (or what
/// the winner did, for a goal), with the framing fault when there was one.
fn describe(end: End, game: &Game) -> String {
    // A verdict given on the wire (timeout, disconnect, a framing fault) leaves the moves open:
    // it falls in the turn after the last one played.
    let turn = game.turn_number() + usize::from(game.outcome().is_none());
    let text = end.outcome.describe(turn);
    match end.frame_fault {
        Some(fault) => format!("{text} ({fault})"),
        None => text,
    }
}

/// A seed that differs from run to run when none is given.
pub(super) fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0)
        ^ u64::from(std::process::id())
}

/// The `--log` file: one line per chunk of bytes, `<ms> to|from <side> <bytes>`, with the bytes
/// escaped (`w\x08\n`), and `#` lines for what the referee decided.
struct Log {
    out: Option<BufWriter<File>>,
}

impl Log {
    fn open(path: Option<&std::path::Path>) -> anyhow::Result<Log> {
        let out = match path {
            Some(path) => Some(BufWriter::new(File::create(path).with_context(|| {
                format!("{}: cannot create the log file", path.display())
            })?)),
            None => None,
        };
        Ok(Log { out })
    }

    fn bytes(&mut self, t_ms: u64, side: Side, direction: &str, bytes: &[u8], suffix: &str) {
        if let Some(out) = &mut self.out {
            let _ = writeln!(
                out,
                "{t_ms:>8} {direction:<4} {:<4} {}{suffix}",
                side.name(),
                bytes.escape_ascii()
            );
        }
    }

    fn note(&mut self, t_ms: u64, text: &str) {
        if let Some(out) = &mut self.out {
            let _ = writeln!(out, "{t_ms:>8} # {text}");
        }
    }

    fn flush(&mut self) -> anyhow::Result<()> {
        if let Some(out) = &mut self.out {
            out.flush().context("cannot write the log file")?;
        }
        Ok(())
    }
}
