//! `quadrille sim`: drive a netlist's clock and dump its ports to VCD.

use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    netlist: PathBuf,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("{}: sim is not built yet", args.netlist.display())
}
