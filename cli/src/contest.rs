//! `quadrille contest`.

use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    file: PathBuf,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("{}: contest is not built yet", args.file.display())
}
