//! `quadrille soccer judge RECORD`: replays a game record and prints the verdict as JSON.
//!
//! **Decision:** the verdict comes from the moves alone. A ` # <winner> <reason>` suffix is
//! checked against them (see `engine::soccer::record`): when the moves end the game, the suffix
//! must say the same; when they leave it open, only a verdict given on the wire fits (a
//! `timeout` or another fault of the player to move that left no turn in the record, or a
//! `disconnect`), and the JSON still describes the open game, as the moves cannot show it,
//! with a note on standard error. Exit 2 for a malformed record, turns after the end of the
//! game, or a suffix the moves contradict; 0 otherwise.

use std::ffi::{OsStr, OsString};
use std::io::Read;
use std::process::ExitCode;

use anyhow::Context;
use engine::soccer::game::Game;
use engine::soccer::record::Record;
use engine::soccer::{Reason, Side};

use crate::out::outln;

#[derive(clap::Args)]
pub struct Args {
    /// The one-line record, e.g. `8x10 red: 3/4/4`, or `-` to read it from standard input.
    record: OsString,
}

/// Reads a record given on the command line, or from standard input for `-`. The bytes go to
/// the engine's parser as they are, so that bytes that are not UTF-8 are named by column.
pub(super) fn load(arg: &OsStr) -> anyhow::Result<Record> {
    let bytes = if arg == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .context("reading the record from standard input")?;
        bytes
    } else {
        arg.as_encoded_bytes().to_vec()
    };
    Record::parse_bytes(&bytes).context("bad record")
}

/// Replays a record, turning a contradiction into an error that names it.
pub(super) fn replay(record: &Record) -> anyhow::Result<Game> {
    record.replay().context("the moves contradict the record")
}

/// The position of the record `arg` (as [`load`] reads it) with a turn still to play, for the
/// commands that look at that turn (`doing`, e.g. `list`, says what they would have done).
pub(super) fn open_position(arg: &OsStr, doing: &str) -> anyhow::Result<Game> {
    let game = replay(&load(arg)?)?;
    if let Some(outcome) = game.outcome() {
        anyhow::bail!(
            "the game is over ({}): no turn to {doing}",
            outcome.describe(game.turn_number())
        );
    }
    Ok(game)
}

/// The JSON printed by the judge; field order is part of the interface.
#[derive(serde::Serialize)]
struct Verdict {
    over: bool,
    winner: Option<Side>,
    reason: Option<Reason>,
    /// The 1-based turn during which the game ended.
    turn: Option<usize>,
    /// How many turns the record holds.
    turns: usize,
    to_move: Option<Side>,
    ball: [i16; 2],
}

impl Verdict {
    fn of(game: &Game, turns: usize) -> Verdict {
        let outcome = game.outcome();
        let ball = game.ball();
        Verdict {
            over: outcome.is_some(),
            winner: outcome.map(|o| o.winner),
            reason: outcome.map(|o| o.reason),
            turn: outcome.map(|_| game.turn_number()),
            turns,
            to_move: outcome.is_none().then(|| game.to_move()),
            ball: [ball.x, ball.y],
        }
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let record = load(&args.record)?;
    let game = replay(&record)?;
    if let (Some(claimed), None) = (record.result, game.outcome()) {
        eprintln!(
            "quadrille: note: the record says `{claimed}` ({}), which the moves cannot show; \
             judging the moves alone",
            claimed.describe(game.turn_number() + 1)
        );
    }
    let verdict = Verdict::of(&game, record.turns.len());
    outln!("{}", serde_json::to_string(&verdict)?)?;
    Ok(ExitCode::SUCCESS)
}
