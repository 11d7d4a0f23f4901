//! A program's standard output and error, kept for the user to read: one buffer for both
//! streams (in the order written), capped so that a chatty program cannot fill the host's
//! memory. Writes past the cap are counted and dropped, never refused: a pilot that prints too
//! much does not crash for it.

use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use tokio::io::AsyncWrite;
use wasmtime_wasi::cli::{IsTerminal, StdoutStream};

/// How much of a program's output is kept by default: 64 KiB.
pub const DEFAULT_LOG_BYTES: usize = 64 << 10;

#[derive(Default)]
struct Kept {
    bytes: Vec<u8>,
    dropped: u64,
}

/// The shared, capped log. Clones write to the same buffer.
#[derive(Clone)]
pub struct Log {
    kept: Arc<Mutex<Kept>>,
    cap: usize,
}

impl Log {
    pub fn new(cap: usize) -> Log {
        Log {
            kept: Arc::default(),
            cap,
        }
    }

    /// What was kept, and how many bytes were dropped past the cap.
    pub fn contents(&self) -> (Vec<u8>, u64) {
        let kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        (kept.bytes.clone(), kept.dropped)
    }

    /// Adds `buf` (a program's output, or a note of the host's) to the log.
    pub(crate) fn append(&self, buf: &[u8]) {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        let room = self.cap.saturating_sub(kept.bytes.len());
        let take = room.min(buf.len());
        kept.bytes.extend_from_slice(&buf[..take]);
        kept.dropped += (buf.len() - take) as u64;
    }
}

impl AsyncWrite for Log {
    fn poll_write(
        self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.append(buf);
        Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

impl IsTerminal for Log {
    fn is_terminal(&self) -> bool {
        false
    }
}

impl StdoutStream for Log {
    fn async_stream(&self) -> Box<dyn AsyncWrite + Send + Sync> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn past_the_cap_bytes_are_counted_not_kept() {
        let log = Log::new(5);
        log.append(b"abc");
        log.clone().append(b"defg");
        assert_eq!(log.contents(), (b"abcde".to_vec(), 2));
    }
}
