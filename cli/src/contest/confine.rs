//! Confining native `command` pilots with Landlock (Linux ≥ 5.13): a pilot may read and run
//! anything, but write only inside its own fresh directory (and to `/dev/null`), open no TCP
//! connection nor listen on a port (Landlock ABI ≥ 4), and signal no process outside its own
//! group of processes (ABI ≥ 6). The rules are built in the organiser's process; the child only
//! makes the two system calls that put them in force, between `fork` and `exec`.
//!
//! Where the kernel has no Landlock (or another system), [`prepare`] says why, and the contest
//! says plainly that its native pilots run unconfined.

use std::os::fd::{AsRawFd, OwnedFd};
use std::path::Path;

use landlock::{
    ABI, Access, AccessFs, AccessNet, CompatLevel, Compatible, PathBeneath, PathFd, Ruleset,
    RulesetAttr, RulesetCreatedAttr, Scope,
};

/// The newest Landlock ABI whose rights the rules name (the kernel may grant fewer).
const TARGET: ABI = ABI::V6;

/// A Landlock ruleset for one run, ready to be enforced in the child.
pub struct Confinement {
    ruleset: OwnedFd,
}

impl Confinement {
    /// Puts the rules in force on the calling process: meant for `pre_exec`, so it only makes
    /// async-signal-safe system calls.
    pub fn enforce(&self) -> std::io::Result<()> {
        // SAFETY: prctl and landlock_restrict_self take integer arguments and touch no memory
        // of ours; the ruleset descriptor stays open for the call.
        unsafe {
            if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            if libc::syscall(
                libc::SYS_landlock_restrict_self,
                self.ruleset.as_raw_fd(),
                0u32,
            ) != 0
            {
                return Err(std::io::Error::last_os_error());
            }
        }
        Ok(())
    }
}

/// The rules for a pilot running in `dir`, or why it cannot be confined.
pub fn prepare(dir: &Path) -> Result<Confinement, String> {
    let fail = |e: &dyn std::fmt::Display| format!("Landlock: {e}");
    let ruleset = Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(AccessFs::from_all(TARGET))
        .and_then(|r| r.handle_access(AccessNet::from_all(TARGET)))
        .and_then(|r| r.scope(Scope::from_all(TARGET)))
        .and_then(|r| r.create())
        .map_err(|e| fail(&e))?;
    let path = |p: &Path| PathFd::new(p).map_err(|e| fail(&e));
    let (root, null, own) = (
        path(Path::new("/"))?,
        path(Path::new("/dev/null"))?,
        path(dir)?,
    );
    let ruleset = ruleset
        .add_rule(PathBeneath::new(root, AccessFs::from_read(TARGET)))
        .and_then(|r| {
            r.add_rule(PathBeneath::new(
                null,
                AccessFs::ReadFile | AccessFs::WriteFile,
            ))
        })
        .and_then(|r| r.add_rule(PathBeneath::new(own, AccessFs::from_all(TARGET))))
        .map_err(|e| fail(&e))?;
    let fd: Option<OwnedFd> = ruleset.into();
    fd.map(|ruleset| Confinement { ruleset })
        .ok_or_else(|| "this kernel does not offer Landlock".to_owned())
}

/// Whether native pilots can be confined here: `Err` says why not.
pub fn available() -> Result<(), String> {
    prepare(&std::env::temp_dir()).map(drop)
}
