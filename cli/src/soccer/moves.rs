//! `quadrille soccer moves RECORD [--count] [--limit N] [--budget STEPS]`: the legal complete
//! turns of the player to move.
//!
//! One digit string per line in ascending byte order (see `engine::soccer::turns` for which
//! strings count: turn-ending, scoring in either goal, or walking into a dead end), or only
//! their number with `--count`. The list is streamed, so huge counts need no memory.
//! **Decision:** when the record's game is already over there is no player to move: exit 2
//! with a message naming the outcome (as for any other record that cannot be continued).
//!
//! **Decision:** the output is always bounded, because a position can have more turns than any
//! machine can list (a 12×2 field's kick-off) and turns thousands of steps long (254×2). The
//! list stops after `--limit` turns (default 10,000); `--count` stops after `--budget` steps of
//! the enumeration (default 100 million, a few seconds). Either way, when more turns exist the
//! output ends with one line starting with `…` (never a digit, so it cannot be taken for a
//! turn) that says so and how far it got, and the exit code is still 0: a cut list is an
//! answer to the question asked, not a failure.

use std::io::Write;
use std::process::ExitCode;

use engine::soccer::turns::count_turns_within;

use super::judge::open_position;
use crate::out;

/// Turns listed unless `--limit` says otherwise.
pub const DEFAULT_LIMIT: u64 = 10_000;

/// Steps of the enumeration `--count` may take unless `--budget` says otherwise: a few seconds
/// (about 2 s of CPU for a debug build on the development machine, 12×2's kick-off).
pub const DEFAULT_BUDGET: u64 = 100_000_000;

#[derive(clap::Args)]
pub struct Args {
    /// The one-line record, e.g. `8x10 red: 3/4/4`, or `-` to read it from standard input.
    record: std::ffi::OsString,
    /// Print only the number of legal turns.
    #[arg(long)]
    count: bool,
    /// List at most this many turns.
    #[arg(long, default_value_t = DEFAULT_LIMIT, conflicts_with = "count")]
    limit: u64,
    /// With `--count`: draw at most this many steps while counting.
    #[arg(long, value_name = "STEPS", default_value_t = DEFAULT_BUDGET, requires = "count")]
    budget: u64,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let game = open_position(&args.record, "list")?;
    let mut out = out::stdout();
    if args.count {
        let count = count_turns_within(&game, args.budget);
        if count.complete {
            writeln!(out, "{}", count.turns)?;
        } else {
            writeln!(
                out,
                "… counted {} {} in {} {}; budget reached (--budget {}), there are more",
                count.turns,
                super::plural(count.turns, "turn", "turns"),
                count.steps,
                super::plural(count.steps, "step", "steps"),
                args.budget
            )?;
        }
    } else {
        let mut turns = game.legal_turns();
        for turn in turns
            .by_ref()
            .take(usize::try_from(args.limit).unwrap_or(usize::MAX))
        {
            out.write_all(turn.digits())?;
            out.write_all(b"\n")?;
        }
        if turns.next().is_some() {
            let listed = args.limit;
            writeln!(
                out,
                "… listed {listed} {}; limit reached (--limit {listed}), there are more",
                super::plural(listed, "turn", "turns"),
            )?;
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
