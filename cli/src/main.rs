//! `quadrille`: the organisers' command line over the `engine` and `hdl-sim` crates.
//!
//! Exit codes follow the original DOS tools: 0 success / valid, 1 a negative verdict
//! (not conforming, invalid lap, no lap), 2 unreadable input or a usage error. A reader that
//! closes standard output early (`… | head`) ends any command quietly with 0 (see [`out`]).

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod contest;
mod out;
mod pilot;
mod racetrack;
mod sim;
mod soccer;
mod transport;

#[derive(Parser)]
#[command(
    name = "quadrille",
    version,
    about = "Racetrack and Paper Soccer tools for organisers"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    #[command(flatten)]
    Racetrack(racetrack::Command),
    /// Run a built-in pilot, or a WASI pilot program (sandboxed), on a circuit and write its
    /// result file.
    Pilot(pilot::Args),
    /// Run a pools contest from a plan (spec §8).
    Contest(contest::Args),
    /// Paper Soccer: judge records, list moves, referee boards, play as a board.
    #[command(subcommand)]
    Soccer(soccer::Command),
    /// Simulate a yosys JSON netlist and write a VCD.
    Sim(sim::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Racetrack(cmd) => racetrack::run(cmd),
        Command::Pilot(args) => pilot::run(args),
        Command::Contest(args) => contest::run(args),
        Command::Soccer(cmd) => soccer::run(cmd),
        Command::Sim(args) => sim::run(args),
    };
    match result {
        Ok(code) => code,
        Err(err) if out::is_closed(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("quadrille: {err:#}");
            ExitCode::from(2)
        }
    }
}
