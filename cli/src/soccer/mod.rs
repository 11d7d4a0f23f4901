//! `quadrille soccer judge | moves | analyse | referee | play | league`.

use std::process::ExitCode;

mod analyse;
mod judge;
mod league;
mod moves;
mod play;
mod players;
mod referee;

#[derive(clap::Subcommand)]
pub enum Command {
    /// Judge a game record and print the outcome as JSON.
    Judge(judge::Args),
    /// List the legal complete turns of the player to move (at most `--limit`), or count them.
    Moves(moves::Args),
    /// The engine's turn for the player to move: depth, steps, time and chance to win.
    Analyse(analyse::Args),
    /// Referee games between boards, bots and the engine.
    Referee(referee::Args),
    /// Let the engine act as a board on a serial port.
    Play(play::Args),
    /// Run a league (spec §7) of boards, bots and engines from a plan.
    League(league::Args),
}

pub fn run(cmd: Command) -> anyhow::Result<ExitCode> {
    match cmd {
        Command::Judge(args) => judge::run(args),
        Command::Moves(args) => moves::run(args),
        Command::Analyse(args) => analyse::run(args),
        Command::Referee(args) => referee::run(args),
        Command::Play(args) => play::run(args),
        Command::League(args) => league::run(args),
    }
}

/// `one` for 1, `many` otherwise: "1 turn", "2 turns".
pub(crate) fn plural(n: u64, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 { one } else { many }
}
