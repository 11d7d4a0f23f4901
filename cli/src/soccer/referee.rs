//! `quadrille soccer referee`.

use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    input: String,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("{}: soccer referee is not built yet", args.input)
}
