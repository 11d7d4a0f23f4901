//! `quadrille soccer analyse RECORD [--level L | --ms N] [--seed S] [--json]`: the engine's turn
//! for the player to move, with how deep it searched, how many steps it tried in how long, and
//! its estimate of the mover's chance to win.
//!
//! The engine is chosen exactly as the pages' engine worker chooses it (`Engine::at_level`, or
//! `Engine::timed` for `--ms`), and searched with the wall clock, so a level below the top gives
//! the same turn, depth and nodes here and in the browser for the same record and seed: that
//! is how the speed of the search in WebAssembly is compared with native code (the e2e file
//! `engine_speed.test.mjs`). A record that cannot be continued (malformed, contradicted by its
//! moves, or a game that is over) exits 2 with a message naming the problem, as `moves` does.

use std::ffi::OsString;
use std::process::ExitCode;
use std::time::Instant;

use engine::soccer::search::Engine;

use super::judge::open_position;
use super::play::DEFAULT_LEVEL;
use crate::out::outln;

#[derive(clap::Args)]
pub struct Args {
    /// The one-line record, e.g. `8x10 red: 3/4/4`, or `-` to read it from standard input.
    record: OsString,
    /// The engine's strength: 0-5 deterministic levels (a fixed number of steps), 6 = 650 ms
    /// (the contest's 1000 ms turn minus a safety margin).
    #[arg(long, default_value_t = DEFAULT_LEVEL)]
    level: u8,
    /// Instead of a level: search for this many milliseconds.
    #[arg(long, value_name = "N", conflicts_with = "level")]
    ms: Option<u32>,
    /// The seed of the engine's tie-breaking.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Print one JSON object: `{"turn":…,"depth":…,"nodes":…,"millis":…,"win":…}`.
    #[arg(long)]
    json: bool,
}

/// The JSON printed with `--json`; field order is part of the interface.
#[derive(serde::Serialize)]
struct Report {
    /// The digits of the turn.
    turn: String,
    /// Whole turns searched ahead.
    depth: u32,
    /// Steps tried.
    nodes: u64,
    /// Wall-clock time of the search.
    millis: f64,
    /// The probability that the player to move wins, by the search.
    win: f64,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let game = open_position(&args.record, "analyse")?;
    let mut engine = match args.ms {
        Some(ms) => Engine::timed(ms, args.seed),
        None => Engine::at_level(args.level, args.seed),
    };
    let origin = Instant::now();
    let clock = move || origin.elapsed().as_secs_f64() * 1000.0;
    let analysis = engine
        .analyse_with_clock(&game, &clock)
        .expect("an open game has a turn to play");
    let millis = analysis.millis.unwrap_or_default();
    let deterministic = args.ms.is_none() && engine.budget() != u64::MAX;
    if let (true, Some(cap)) = (deterministic, engine.millis())
        && millis >= cap
    {
        eprintln!(
            "quadrille: note: the search reached the level's time cap ({cap} ms) before its \
             step budget: another run may choose differently"
        );
    }
    let report = Report {
        turn: analysis.turn.to_string(),
        depth: analysis.depth,
        nodes: analysis.nodes,
        millis,
        win: analysis.score.win_probability(),
    };
    if args.json {
        outln!("{}", serde_json::to_string(&report)?)?;
    } else {
        let side = game.to_move();
        let speed = report.nodes as f64 / (millis / 1000.0).max(1e-9);
        outln!("{side} plays {}", report.turn)?;
        outln!(
            "searched {} {} ahead: {} {} in {millis:.1} ms ({:.2} M steps/s)",
            report.depth,
            super::plural(u64::from(report.depth), "turn", "turns"),
            report.nodes,
            super::plural(report.nodes, "step", "steps"),
            speed / 1e6
        )?;
        outln!(
            "{side}'s chance to win, by the search: {:.1} %",
            report.win * 100.0
        )?;
    }
    Ok(ExitCode::SUCCESS)
}
