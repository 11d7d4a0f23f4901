//! `cargo xtask serve | test | fuzz | setup | pilots`: the two commands that take a fresh machine (rustup, cargo
//! and node only) to a running app or a green test suite, installing whatever is missing first.
//!
//! Everything the project needs at build or test time is installed here, from package registries
//! only (crates.io, npm, apt): nothing is downloaded from GitHub, so the same steps work on the
//! offline CI machines.

mod cli;
mod fuzz;
mod lockfile;
mod pilots;
mod process;
mod serve;
mod setup;
mod stages;
mod static_server;
mod test;
mod workspace;

use std::process::ExitCode;

use cli::Command;

fn main() -> ExitCode {
    let command = match cli::parse(std::env::args().skip(1)) {
        Ok(command) => command,
        Err(err) => {
            eprintln!("error: {err}\n\n{}", cli::USAGE);
            return ExitCode::from(2);
        }
    };
    let result = match command {
        Command::Help => {
            println!("{}", cli::USAGE);
            Ok(())
        }
        Command::Setup => workspace::Workspace::locate()
            .and_then(|ws| setup::Setup::new(&ws)?.everything().map(drop)),
        Command::Pilots => workspace::Workspace::locate().and_then(|ws| {
            let setup = setup::Setup::new(&ws)?;
            setup.for_pilots()?;
            pilots::build(&ws, &setup).map(drop)
        }),
        Command::Serve(options) => serve::run_serve(&options),
        Command::Test(options) => test::run_tests(&options),
        Command::Fuzz(options) => workspace::Workspace::locate().and_then(|ws| {
            let setup = setup::Setup::new(&ws)?;
            let cargo_fuzz = setup.cargo_fuzz()?;
            fuzz::run_fuzz(&ws, setup.env(), &cargo_fuzz, &options)
        }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("\nxtask: error: {err:#}");
            ExitCode::FAILURE
        }
    }
}
