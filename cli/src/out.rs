//! Standard output for every command, such that a reader that goes away early (`… | head`)
//! ends the command quietly with exit 0 instead of an error or a panic.
//!
//! `println!` panics when standard output is a closed pipe (Rust ignores `SIGPIPE`, so the
//! write fails with `EPIPE`). Commands print through [`outln!`] or [`stdout`] instead; both
//! mark a broken pipe with [`Closed`], which `main` recognises in the error chain (see
//! [`is_closed`]). Only standard output is marked: a broken pipe to a player's program or
//! anywhere else stays an error.

use std::io::{self, BufWriter, StdoutLock, Write};

/// The marker inside the `io::Error` of a write to a closed standard output.
#[derive(Debug, thiserror::Error)]
#[error("standard output is closed")]
pub struct Closed;

/// A writer whose broken-pipe errors carry [`Closed`].
pub struct Marked<W>(W);

fn mark(err: io::Error) -> io::Error {
    if err.kind() == io::ErrorKind::BrokenPipe {
        io::Error::new(io::ErrorKind::BrokenPipe, Closed)
    } else {
        err
    }
}

impl<W: Write> Write for Marked<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf).map_err(mark)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush().map_err(mark)
    }
}

/// Standard output, locked and unbuffered beyond the standard line buffer: for a few lines.
pub fn line() -> Marked<StdoutLock<'static>> {
    Marked(io::stdout().lock())
}

/// Standard output, locked and buffered: for long listings. Flush it before returning.
pub fn stdout() -> BufWriter<Marked<StdoutLock<'static>>> {
    BufWriter::new(line())
}

/// Whether `err` comes from writing to a closed standard output.
pub fn is_closed(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause.is::<Closed>()
            || cause
                .downcast_ref::<io::Error>()
                .and_then(|io| io.get_ref())
                .is_some_and(|inner| inner.is::<Closed>())
    })
}

/// `println!` that returns the write's `io::Result` instead of panicking (see the module docs).
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!($crate::out::line(), $($arg)*)
    }};
}

/// `print!` likewise.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        write!($crate::out::line(), $($arg)*)
    }};
}

pub(crate) use {out, outln};
