//! Players that are child processes speaking the protocol on their standard input and output,
//! so a bot in any language can play.

use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::Context;

use super::Connection;

/// How long a child may take to exit by itself once its input is closed, before it is killed.
const EXIT_GRACE: Duration = Duration::from_millis(500);

/// Starts `command` with `sh -c`; its standard error goes to ours.
pub fn spawn(command: &str) -> anyhow::Result<Connection> {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(command)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        // Its own process group, so the shell's children can be killed with it.
        .process_group(0)
        .spawn()
        .with_context(|| format!("exec:{command}: cannot start"))?;
    let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        let _ = child.kill();
        anyhow::bail!("exec:{command}: no pipes to the child");
    };
    Ok(Connection {
        name: format!("exec:{command}"),
        reader: Box::new(stdout),
        writer: Box::new(stdin),
        closer: Some(Box::new(move || reap(child))),
    })
}

/// Waits a little for the child to finish, then kills its whole process group: the referee
/// never hangs on a bot, nor leaves one behind.
fn reap(mut child: Child) {
    let until = Instant::now() + EXIT_GRACE;
    while Instant::now() < until {
        if let Ok(Some(_)) = child.try_wait() {
            kill_group(&child);
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    kill_group(&child);
    let _ = child.kill();
    let _ = child.wait();
}

/// SIGKILL to the child's process group (its id, see `process_group(0)` above).
fn kill_group(child: &Child) {
    if let Ok(pgid) = libc::pid_t::try_from(child.id()) {
        // SAFETY: kill(2) with a negative pid only sends a signal; no memory is involved.
        unsafe {
            libc::kill(-pgid, libc::SIGKILL);
        }
    }
}
