//! `quadrille soccer league PLAN.toml [--json] [--jobs N] [--records FILE]`: a round robin of
//! boards, emulated designs, bots and engines (spec §7).
//!
//! The league's rules — schedule, colours, standings, tie-breaks — are
//! [`engine::soccer::league`]'s; the games are refereed by `soccer referee`'s loop
//! ([`mod@run`]); this module reads the plan ([`plan`]) and prints the tables.

mod plan;
mod run;

use std::fmt::Write as _;
use std::io::Write as _;
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use engine::soccer::league::{self, League, Report};

use crate::soccer::players::{DEFAULT_BOT_MEMORY_MB, Launch, MAX_BOT_MEMORY_MB};
use crate::transport::serial::LineArgs;
use plan::Plan;
use run::{Played, Setup};

const PLAN_HELP: &str = "\
The plan (TOML):

  seed = 7                  # optional: the league's seed (default: from the clock, printed)
  turn_ms = 1000            # optional: each player's time per turn, ms (default 1000)
  sizes = [\"8x10\", \"10x8\"]  # optional: field sizes WxL, even, 2-254 (default [\"8x10\"])
  bot_memory_mb = 64        # optional: a wasm: bot's linear memory at most, MiB (default 64;
                            # --bot-memory-mb overrides it)

  [[player]]                # two or more; the order decides colours
  name = \"eng2\"             # optional (default: the spec); unique
  spec = \"engine:2\"         # as `soccer referee --red`: engine[:LEVEL], sim[:NETLIST.json][@SW],
                            # exec:COMMAND, wasm:PATH.wasm, or a serial port path

Relative paths in specs are the plan's: the league runs in the plan's directory, and `exec:`
commands start there.

Every pair meets twice on each size: first the player listed first is red and starts, then
the other. Games are numbered sizes first, then pairs in list order, each pair's two games
back to back, and each game's players are seeded from the seed and the game's number: games
play the same whatever --jobs is (time-outs aside, which depend on the machine's load).
A win is 1 point. Ties on points are broken by head-to-head (once, over the whole tied
group), then wins by goal, then fewer faults, then lots drawn from the seed (spec §7).
Games without a serial port run in parallel; a board plays one game at a time. Each game
starts its players afresh (a new process for exec:, a new sandboxed instance for wasm: (each
module compiled once), a new emulator for sim, the port opened again for a board): an exec: bot's start-up counts against its first turn. A player that
cannot be started loses each of its games by `disconnect`, and the reason is printed.

Output: the standings, the crosstable, the places 1-3 and every game's record with its
verdict; --json prints {\"seed\", \"standings\": [{\"place\", \"name\", \"played\", \"won\",
\"lost\", \"points\", \"goal_wins\", \"faults\", \"tie_break\", \"lots\"?}], \"games\": [{\"red\",
\"blue\", \"record\", \"winner\", \"reason\", …}], \"crosstable\"}.";

#[derive(clap::Args)]
#[command(after_help = PLAN_HELP)]
pub struct Args {
    /// The league plan (TOML, see below).
    plan: PathBuf,
    /// Print standings, games and crosstable as JSON.
    #[arg(long)]
    json: bool,
    /// How many games to play at once (default: the machine's cores). Games with a serial
    /// port still take turns on it.
    #[arg(long)]
    jobs: Option<NonZeroUsize>,
    /// Write every game's record line with its verdict (spec §5) to this file, in schedule
    /// order.
    #[arg(long)]
    records: Option<PathBuf>,
    #[command(flatten)]
    line: LineArgs,
    /// A `wasm:` bot's linear memory at most, in MiB (1-4096), over the plan's `bot_memory_mb`
    /// (default 64): a growth past it traps, and the bot loses by `disconnect`.
    #[arg(long, value_name = "MB",
          value_parser = clap::value_parser!(u64).range(1..=MAX_BOT_MEMORY_MB))]
    bot_memory_mb: Option<u64>,
    /// Emulate `sim` boards with hdl-sim's interpreter instead of its compiled back end (the
    /// same games: the two back ends agree cycle for cycle).
    #[arg(long)]
    interpret: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let plan = Plan::read(&args.plan)?;
    crate::transport::sim::interpret_boards(args.interpret);
    // Paths in the plan are the plan's, as in a contest plan: the league runs in its directory
    // (so `exec:` commands start there too). The records file is the caller's.
    let records = match &args.records {
        Some(path) => Some(
            std::path::absolute(path)
                .with_context(|| format!("{}: cannot resolve the path", path.display()))?,
        ),
        None => None,
    };
    if let Some(dir) = args.plan.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::env::set_current_dir(dir)
            .with_context(|| format!("{}: cannot work in this directory", dir.display()))?;
    }
    let seed = plan.seed.unwrap_or_else(super::referee::clock_seed);
    let names = plan.players.iter().map(|p| p.name.clone()).collect();
    let mut league = League::new(names, &plan.sizes, seed)
        .with_context(|| format!("{}", args.plan.display()))?;
    let jobs = args
        .jobs
        .or_else(|| std::thread::available_parallelism().ok())
        .map_or(1, NonZeroUsize::get);
    let total = league.schedule().len();
    eprintln!(
        "league: {} players, {} ({}), {} games, {} ms per turn, seed {seed}, {jobs} at once",
        plan.players.len(),
        plural(plan.sizes.len(), "size"),
        plan.sizes
            .iter()
            .map(|&f| league::size_name(f))
            .collect::<Vec<_>>()
            .join(", "),
        total,
        plan.turn_ms,
    );
    let specs: Vec<_> = plan.players.iter().map(|p| p.spec.clone()).collect();
    let player_seeds = |index| league::player_seeds(seed, index);
    let setup = Setup {
        players: &specs,
        turn_ms: plan.turn_ms,
        launch: Launch {
            line: args.line.settings(),
            bot_memory_mb: args
                .bot_memory_mb
                .or(plan.bot_memory_mb)
                .unwrap_or(DEFAULT_BOT_MEMORY_MB),
        },
        player_seeds: &player_seeds,
    };
    let schedule = league.schedule().to_vec();
    let mut finished = 0;
    let played = run::play_all(&schedule, &setup, jobs, |game| {
        finished += 1;
        let pairing = &schedule[game.index];
        for (side, why) in &game.not_started {
            eprintln!("game {}: {side} {why}", game.index + 1);
        }
        eprintln!(
            "[{finished}/{total}] game {}: {} v {}: {}",
            game.index + 1,
            plan.players[pairing.red].name,
            plan.players[pairing.blue].name,
            game.verdict
        );
    })?;
    for game in &played {
        league
            .report_game(game.index, game.record.clone())
            .context("the referee's record")?;
    }
    if let Some(path) = &records {
        let mut text = String::new();
        for game in &played {
            let _ = writeln!(text, "{}", game.record);
        }
        std::fs::write(path, text)
            .with_context(|| format!("{}: cannot write the records", path.display()))?;
    }
    let report = league.report();
    let mut out = crate::out::line();
    if args.json {
        let json = json(seed, report, &played)?;
        writeln!(out, "{json}")?;
    } else {
        write!(out, "{}", text(&league, &report, &played))?;
    }
    Ok(ExitCode::SUCCESS)
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// The engine's report, with the seed and, on games a player could not start, why.
fn json(seed: u64, report: Report, played: &[Played]) -> anyhow::Result<String> {
    let mut value = serde_json::to_value(report)?;
    value["seed"] = seed.into();
    if let Some(games) = value["games"].as_array_mut() {
        for (row, game) in games.iter_mut().zip(played) {
            if !game.not_started.is_empty() {
                let why: Vec<String> = game
                    .not_started
                    .iter()
                    .map(|(side, why)| format!("{side}: {why}"))
                    .collect();
                row["not_started"] = why.into();
            }
        }
    }
    Ok(serde_json::to_string(&value)?)
}

/// The standings, the crosstable, the places and the games, as text.
fn text(league: &League, report: &Report, played: &[Played]) -> String {
    let names = league.players();
    let width = names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "place  {:<width$}  played  won  lost  points  goal wins  faults  tie-break",
        "name"
    );
    for row in &report.standings {
        let _ = writeln!(
            s,
            "{:>5}  {:<width$}  {:>6}  {:>3}  {:>4}  {:>6}  {:>9}  {:>6}  {}",
            row.place,
            row.name,
            row.played,
            row.won,
            row.lost,
            row.points,
            row.goal_wins,
            row.faults,
            match row.tie_break {
                Some(t) if row.lots => format!("{} (drawn from the seed)", t.name()),
                Some(t) => t.name().to_string(),
                None => String::new(),
            }
        );
    }
    let _ = writeln!(
        s,
        "\nCrosstable: the row's player's wins-losses against the column's"
    );
    let _ = write!(s, "{:>3}  {:<width$}", "", "");
    for row in &report.standings {
        let _ = write!(s, "  {:>5}", row.place);
    }
    let _ = writeln!(s);
    for (row, cells) in report.standings.iter().zip(&report.crosstable) {
        let _ = write!(s, "{:>3}  {:<width$}", row.place, row.name);
        for (column, cell) in report.standings.iter().zip(cells) {
            if column.player == row.player {
                let _ = write!(s, "  {:>5}", "-");
            } else {
                let _ = write!(s, "  {:>5}", format!("{}-{}", cell.won, cell.lost));
            }
        }
        let _ = writeln!(s);
    }
    let _ = write!(s, "\nPlaces:");
    for row in report.standings.iter().take(3) {
        let _ = write!(s, "  {}. {}", row.place, row.name);
    }
    let _ = writeln!(s, "\n\nGames:");
    for (pairing, game) in league.schedule().iter().zip(played) {
        let _ = write!(
            s,
            "{:>4}  {} v {}  {}",
            pairing.index + 1,
            names[pairing.red],
            names[pairing.blue],
            game.record
        );
        for (side, why) in &game.not_started {
            let _ = write!(s, "  ({side} {why})");
        }
        let _ = writeln!(s);
    }
    s
}
