//! `quadrille soccer moves RECORD [--count]`: the legal complete turns of the player to move.
//!
//! One digit string per line in ascending byte order (see `engine::soccer::turns` for which
//! strings count: turn-ending, scoring in either goal, or walking into a dead end), or only
//! their number with `--count`. The list is streamed, so huge counts need no memory.
//! **Decision:** when the record's game is already over there is no player to move: exit 2
//! with a message naming the outcome (as for any other record that cannot be continued).

use std::io::{BufWriter, Write};
use std::process::ExitCode;

use engine::soccer::turns::count_turns;

use super::judge::{load, replay};

#[derive(clap::Args)]
pub struct Args {
    /// The one-line record, e.g. `8x10 red: 3/4/4`, or `-` to read it from standard input.
    record: String,
    /// Print only the number of legal turns.
    #[arg(long)]
    count: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let record = load(&args.record)?;
    let game = replay(&record)?;
    if let Some(outcome) = game.outcome() {
        anyhow::bail!(
            "the game is over ({outcome} at turn {}): no turn to list",
            game.turn_number()
        );
    }
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    if args.count {
        writeln!(out, "{}", count_turns(&game, u64::MAX))?;
    } else {
        for turn in game.legal_turns() {
            out.write_all(&turn)?;
            out.write_all(b"\n")?;
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
