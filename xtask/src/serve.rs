//! `cargo xtask serve`: build the app with trunk and serve it on loopback, rebuilding on change.

use anyhow::{Context, Result};

use crate::cli::ServeOptions;
use crate::process::run;
use crate::setup::Setup;
use crate::workspace::Workspace;

pub fn run_serve(options: &ServeOptions) -> Result<()> {
    let ws = Workspace::locate()?;
    let setup = Setup::new(&ws)?;
    let tools = setup.for_build()?;
    let port = options.port.to_string();
    println!(
        "\nserve: building the app, then serving it on http://127.0.0.1:{port}/ (Ctrl-C stops)"
    );
    let mut trunk = setup.env().command(&tools.trunk);
    trunk
        .args(["serve", "--address", "127.0.0.1", "--port", &port])
        .env("TRUNK_SKIP_VERSION_CHECK", "true")
        .current_dir(ws.root());
    if options.release {
        trunk.arg("--release");
    }
    run(&mut trunk).context("trunk serve stopped")
}
