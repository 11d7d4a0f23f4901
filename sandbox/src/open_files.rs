//! The open-file limit of a WASI program (spec §7 limits, `docs/pilots.md`): at most
//! [`MAX_OPEN_FILES`] descriptors of its own at once; a `path_open` past that fails with
//! `EMFILE`, as in the browser host (`app::wasi::world`), and the first refusal is noted in the
//! program's log with [`program::open_files_refused`].
//!
//! wasmtime-wasi has no such limit of its own, so `path_open`, `fd_close` and `fd_renumber` are
//! shadowed in the linker by wrappers that keep count and then call wasmtime-wasi's own
//! implementation of the same function *with the calling instance's memory*, as its generated
//! glue does. (Calling the linker's original host function instead, as a `Func`, gives it no
//! instance to find `memory` in: every WASI call through it failed.)

use std::collections::BTreeSet;

use engine::racetrack::program::{self, MAX_OPEN_FILES};
use wasmtime::{AsContextMut, Caller, Extern, Linker};
use wasmtime_wasi::p1::wasi_snapshot_preview1::{self as preview1, WasiSnapshotPreview1 as _};
use wiggle::GuestMemory;

use crate::wasi::State;

/// WASI's `EMFILE`: too many open files.
const ERRNO_MFILE: i32 = 33;

/// The descriptors a program was given before it ran: standard streams and its directory.
const GIVEN_FDS: u32 = 3;

/// The descriptors a program holds beyond those it was given.
#[derive(Debug, Default)]
pub(crate) struct OpenFiles {
    fds: BTreeSet<u32>,
    /// Whether a refusal was noted in the log already (once is enough to explain the rest).
    noted: bool,
}

impl OpenFiles {
    fn full(&self) -> bool {
        self.fds.len() >= MAX_OPEN_FILES
    }

    fn opened(&mut self, fd: u32) {
        if fd > GIVEN_FDS {
            self.fds.insert(fd);
        }
    }

    fn closed(&mut self, fd: u32) {
        self.fds.remove(&fd);
    }

    /// `fd_renumber(from, to)` succeeded: `to` (closed first) is now what `from` was.
    fn renumbered(&mut self, from: u32, to: u32) {
        self.fds.remove(&from);
        self.fds.remove(&to);
        self.opened(to);
    }
}

/// Calls wasmtime-wasi's implementation of WASI function `$func` with `$caller`'s memory and
/// the store's hostcall fuel, as `wasmtime_wasi::p1::add_to_linker_async` does.
macro_rules! call_wasi {
    ($caller:ident, $func:ident ( $($arg:expr),* $(,)? )) => {{
        let fuel = $caller.as_context_mut().hostcall_fuel();
        match $caller.get_export("memory") {
            Some(Extern::Memory(memory)) => {
                let (data, state) = memory.data_and_store_mut(&mut $caller);
                state.wasi.set_hostcall_fuel(fuel);
                let mut memory = GuestMemory::Unshared(data);
                preview1::$func(&mut state.wasi, &mut memory, $($arg),*).await
            }
            Some(Extern::SharedMemory(memory)) => {
                let state = $caller.data_mut();
                state.wasi.set_hostcall_fuel(fuel);
                let mut memory = GuestMemory::Shared(memory.data());
                preview1::$func(&mut state.wasi, &mut memory, $($arg),*).await
            }
            _ => Err(wasmtime::Error::msg("missing required memory export")),
        }
    }};
}

/// The fd a successful `path_open` wrote at `out`.
fn written_fd(caller: &mut Caller<'_, State>, out: i32) -> Option<u32> {
    let memory = caller.get_export("memory")?.into_memory()?;
    let mut bytes = [0u8; 4];
    memory
        .read(&mut *caller, out as u32 as usize, &mut bytes)
        .ok()?;
    Some(u32::from_le_bytes(bytes))
}

type OpenArgs = (i32, i32, i32, i32, i32, i64, i64, i32, i32);

/// Shadows `path_open`, `fd_close` and `fd_renumber` in `linker` (which must allow shadowing
/// and already hold wasmtime-wasi's preview 1) with the counting wrappers.
pub(crate) fn add_to_linker(linker: &mut Linker<State>) -> wasmtime::Result<()> {
    linker.func_wrap_async(
        crate::wasi::WASI_MODULE,
        "path_open",
        |mut caller: Caller<'_, State>, args: OpenArgs| {
            Box::new(async move {
                let (fd, flags, path, len, oflags, base, inheriting, fdflags, out) = args;
                if caller.data().open_files.full() {
                    let state = caller.data_mut();
                    if !state.open_files.noted {
                        state.open_files.noted = true;
                        if let Some(log) = &state.log {
                            log.append(program::open_files_refused().as_bytes());
                        }
                    }
                    return Ok(ERRNO_MFILE);
                }
                let errno = call_wasi!(
                    caller,
                    path_open(fd, flags, path, len, oflags, base, inheriting, fdflags, out)
                )?;
                if errno == 0
                    && let Some(new) = written_fd(&mut caller, out)
                {
                    caller.data_mut().open_files.opened(new);
                }
                Ok(errno)
            })
        },
    )?;
    linker.func_wrap_async(
        crate::wasi::WASI_MODULE,
        "fd_close",
        |mut caller: Caller<'_, State>, (fd,): (i32,)| {
            Box::new(async move {
                let errno = call_wasi!(caller, fd_close(fd))?;
                if errno == 0 {
                    caller.data_mut().open_files.closed(fd as u32);
                }
                Ok(errno)
            })
        },
    )?;
    linker.func_wrap_async(
        crate::wasi::WASI_MODULE,
        "fd_renumber",
        |mut caller: Caller<'_, State>, (from, to): (i32, i32)| {
            Box::new(async move {
                let errno = call_wasi!(caller, fd_renumber(from, to))?;
                if errno == 0 {
                    (caller.data_mut().open_files).renumbered(from as u32, to as u32);
                }
                Ok(errno)
            })
        },
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_programs_own_descriptors_count() {
        let mut open = OpenFiles::default();
        for fd in 0..=GIVEN_FDS {
            open.opened(fd);
        }
        assert_eq!(open.fds.len(), 0);
        for fd in 4..4 + MAX_OPEN_FILES as u32 {
            assert!(!open.full());
            open.opened(fd);
        }
        assert!(open.full());
        open.closed(4);
        assert!(!open.full());
        // 5 moves onto 4 (free) and then onto 6 (closing it): one fewer.
        open.renumbered(5, 4);
        assert_eq!(open.fds.len(), MAX_OPEN_FILES - 1);
        open.renumbered(4, 6);
        assert_eq!(open.fds.len(), MAX_OPEN_FILES - 2);
        assert!(open.fds.contains(&6) && !open.fds.contains(&4));
    }
}
