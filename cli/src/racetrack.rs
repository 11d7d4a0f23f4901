//! `quadrille verifcir | testf1 | pilot | cir2bmp | bmp2cir | contest`.

use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Subcommand)]
pub enum Command {
    /// Check a circuit's conformity (VERIFCIR).
    Verifcir {
        file: PathBuf,
        #[arg(long)]
        json: bool,
    },
}

pub fn run(cmd: Command) -> anyhow::Result<ExitCode> {
    match cmd {
        Command::Verifcir { file, .. } => {
            anyhow::bail!("{}: verifcir is not built yet", file.display())
        }
    }
}
