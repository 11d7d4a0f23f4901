//! `quadrille soccer play`.

use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    input: String,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("{}: soccer play is not built yet", args.input)
}
