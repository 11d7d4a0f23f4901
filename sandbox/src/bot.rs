//! A Paper Soccer bot (spec §4 over standard streams): a WASI preview-1 command that runs as a
//! long-lived process on a thread of its own and speaks the wire protocol on its standard input
//! and output exactly as a board does on its serial line.
//!
//! The bot's world: `argv = ["<bot>.wasm"]`, no environment, no directory, no network,
//! `random_get` from the seed, linear memory up to a limit. Its standard input is a pipe the
//! caller writes (the bot's blocking `fd_read` waits for bytes; end of file when the caller
//! closes it); its standard output is a pipe the caller reads, bounded, so a bot that floods it
//! is made to wait until the caller reads instead of filling the host's memory. What it prints
//! on standard error is kept (the first 64 KiB) for the report of how it ended.
//!
//! There is no wall-time limit here: the referee's turn clock rules. The sandbox only has to be
//! killable: [`BotKiller::kill`] (also run when the caller's ends are dropped) closes both pipes
//! and stops the bot at its next epoch tick, so a hung bot never leaves a thread spinning.

use std::collections::VecDeque;
use std::io::{self, Read, Write};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use wasmtime_wasi::WasiCtxBuilder;
use wasmtime_wasi::cli::{IsTerminal, StdinStream, StdoutStream};

use crate::log::{DEFAULT_LOG_BYTES, Log};
use crate::random::SeededRandom;
use crate::wasi::{Ended, Limits, Program, Sandbox};

/// A bot's default linear-memory limit: 64 MiB.
pub const DEFAULT_BOT_MEMORY: u64 = 64 << 20;

/// How many bytes a bot's standard output holds before its writes wait for the reader.
pub const STDOUT_CAP: usize = 64 << 10;

/// How many bytes its standard input holds before the caller's writes wait for the bot.
const STDIN_CAP: usize = 64 << 10;

/// The "time limit" of a bot's run: none that matters (the referee's clock rules, and a killed
/// bot stops at the next tick), but the host's run loop wants one.
const NO_TIME_LIMIT: Duration = Duration::from_secs(30 * 24 * 3600);

/// The two ends of a bounded in-memory byte pipe: each side may be synchronous (a thread that
/// blocks) or asynchronous (the guest's WASI streams, which wait by registering a waker).
#[derive(Clone)]
struct Pipe(Arc<Shared>);

struct Shared {
    state: Mutex<PipeState>,
    changed: Condvar,
    cap: usize,
}

#[derive(Default)]
struct PipeState {
    bytes: VecDeque<u8>,
    writer_closed: bool,
    reader_closed: bool,
    reader_waker: Option<Waker>,
    writer_waker: Option<Waker>,
}

/// What a read or a write found.
enum Step {
    Done(usize),
    /// Nothing to read yet, or no room to write.
    Wait,
    /// The other end is gone (reading: end of file; writing: a broken pipe).
    Closed,
}

impl Pipe {
    fn new(cap: usize) -> Pipe {
        Pipe(Arc::new(Shared {
            state: Mutex::default(),
            changed: Condvar::new(),
            cap,
        }))
    }

    fn lock(&self) -> MutexGuard<'_, PipeState> {
        self.0.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Wakes whoever waits on either end.
    fn notify(&self, state: &mut PipeState) {
        for waker in [state.reader_waker.take(), state.writer_waker.take()]
            .into_iter()
            .flatten()
        {
            waker.wake();
        }
        self.0.changed.notify_all();
    }

    fn read_step(&self, state: &mut PipeState, buf: &mut [u8]) -> Step {
        if !state.bytes.is_empty() && !state.reader_closed {
            let n = buf.len().min(state.bytes.len());
            for (dst, src) in buf.iter_mut().zip(state.bytes.drain(..n)) {
                *dst = src;
            }
            self.notify(state);
            Step::Done(n)
        } else if state.writer_closed || state.reader_closed {
            Step::Closed
        } else {
            Step::Wait
        }
    }

    fn write_step(&self, state: &mut PipeState, buf: &[u8]) -> Step {
        if state.reader_closed || state.writer_closed {
            return Step::Closed;
        }
        let room = self.0.cap.saturating_sub(state.bytes.len());
        if room == 0 {
            return Step::Wait;
        }
        let n = room.min(buf.len());
        state.bytes.extend(&buf[..n]);
        self.notify(state);
        Step::Done(n)
    }

    fn close_reader(&self) {
        let mut state = self.lock();
        state.reader_closed = true;
        state.bytes.clear();
        self.notify(&mut state);
    }

    fn close_writer(&self) {
        let mut state = self.lock();
        state.writer_closed = true;
        self.notify(&mut state);
    }

    /// A blocking read: waits for bytes or for the writer to close.
    fn read_blocking(&self, buf: &mut [u8]) -> usize {
        if buf.is_empty() {
            return 0;
        }
        let mut state = self.lock();
        loop {
            match self.read_step(&mut state, buf) {
                Step::Done(n) => return n,
                Step::Closed => return 0,
                Step::Wait => {
                    state = self
                        .0
                        .changed
                        .wait(state)
                        .unwrap_or_else(|e| e.into_inner())
                }
            }
        }
    }

    /// A blocking write: waits for room or for the reader to close.
    fn write_blocking(&self, buf: &[u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        let mut state = self.lock();
        loop {
            match self.write_step(&mut state, buf) {
                Step::Done(n) => return Ok(n),
                Step::Closed => return Err(io::ErrorKind::BrokenPipe.into()),
                Step::Wait => {
                    state = self
                        .0
                        .changed
                        .wait(state)
                        .unwrap_or_else(|e| e.into_inner())
                }
            }
        }
    }
}

/// The guest's standard input: the reading end of a [`Pipe`].
struct GuestIn(Pipe);

impl AsyncRead for GuestIn {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let pipe = &self.0;
        let mut state = pipe.lock();
        let mut chunk = vec![0u8; buf.remaining().min(STDIN_CAP)];
        match pipe.read_step(&mut state, &mut chunk) {
            Step::Done(n) => {
                buf.put_slice(&chunk[..n]);
                Poll::Ready(Ok(()))
            }
            Step::Closed => Poll::Ready(Ok(())),
            Step::Wait => {
                state.reader_waker = Some(cx.waker().clone());
                Poll::Pending
            }
        }
    }
}

impl IsTerminal for GuestIn {
    fn is_terminal(&self) -> bool {
        false
    }
}

impl StdinStream for GuestIn {
    fn async_stream(&self) -> Box<dyn AsyncRead + Send + Sync> {
        Box::new(GuestIn(self.0.clone()))
    }
}

/// The guest's standard output: the writing end of a [`Pipe`].
struct GuestOut(Pipe);

impl AsyncWrite for GuestOut {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        if buf.is_empty() {
            return Poll::Ready(Ok(0));
        }
        let pipe = &self.0;
        let mut state = pipe.lock();
        match pipe.write_step(&mut state, buf) {
            Step::Done(n) => Poll::Ready(Ok(n)),
            Step::Closed => Poll::Ready(Err(io::ErrorKind::BrokenPipe.into())),
            Step::Wait => {
                state.writer_waker = Some(cx.waker().clone());
                Poll::Pending
            }
        }
    }

    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

impl IsTerminal for GuestOut {
    fn is_terminal(&self) -> bool {
        false
    }
}

impl StdoutStream for GuestOut {
    fn async_stream(&self) -> Box<dyn AsyncWrite + Send + Sync> {
        Box::new(GuestOut(self.0.clone()))
    }
}

/// Stops a running bot: closes its pipes and interrupts it at its next epoch tick. Cloneable,
/// idempotent.
#[derive(Clone)]
pub struct BotKiller {
    killed: Arc<AtomicBool>,
    stdin: Pipe,
    stdout: Pipe,
}

impl BotKiller {
    pub fn kill(&self) {
        self.killed.store(true, Ordering::Relaxed);
        self.stdin.close_writer();
        self.stdout.close_reader();
    }
}

/// The caller's end of the bot's standard output. Dropping it kills the bot.
pub struct BotOutput {
    pipe: Pipe,
    killer: BotKiller,
}

impl Read for BotOutput {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        Ok(self.pipe.read_blocking(buf))
    }
}

impl Drop for BotOutput {
    fn drop(&mut self) {
        self.killer.kill();
    }
}

/// The caller's end of the bot's standard input. Dropping it closes the bot's input (end of
/// file, after which a well-behaved bot exits by itself).
pub struct BotInput {
    pipe: Pipe,
}

impl Write for BotInput {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.pipe.write_blocking(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Drop for BotInput {
    fn drop(&mut self) {
        self.pipe.close_writer();
    }
}

/// How a bot's run ended, and the last of what it printed on standard error.
#[derive(Clone, Debug)]
pub struct BotEnd {
    pub ended: Ended,
    pub stderr: Vec<u8>,
}

/// A running bot: the caller's two ends and its killer.
pub struct Bot {
    pub input: BotInput,
    pub output: BotOutput,
    pub killer: BotKiller,
}

/// Starts `program` as a bot on a thread named `name`, with `memory_bytes` of linear memory and
/// `seed` for its randomness. `on_end` is called on that thread when the bot has stopped, after
/// its output was closed (the caller has read everything it wrote by the time its reads end).
pub fn spawn_bot(
    sandbox: Arc<Sandbox>,
    program: Arc<Program>,
    name: String,
    memory_bytes: u64,
    seed: u64,
    on_end: impl FnOnce(BotEnd) + Send + 'static,
) -> io::Result<Bot> {
    let stdin = Pipe::new(STDIN_CAP);
    let stdout = Pipe::new(STDOUT_CAP);
    let killer = BotKiller {
        killed: Arc::new(AtomicBool::new(false)),
        stdin: stdin.clone(),
        stdout: stdout.clone(),
    };
    let (guest_in, guest_out) = (stdin.clone(), stdout.clone());
    let killed = killer.killed.clone();
    std::thread::Builder::new().name(name).spawn(move || {
        let log = Log::new(DEFAULT_LOG_BYTES);
        let mut builder = WasiCtxBuilder::new();
        builder
            .args(&[program.file_name()])
            .stdin(GuestIn(guest_in.clone()))
            .stdout(GuestOut(guest_out.clone()))
            .stderr(log.clone())
            .secure_random(SeededRandom::new(seed))
            .insecure_random(SeededRandom::new(seed))
            .insecure_random_seed(u128::from(seed));
        let wasi = builder.build_p1();
        let watch = Box::new(move || {
            if killed.load(Ordering::Relaxed) {
                Err("stopped by the referee".to_owned())
            } else {
                Ok(())
            }
        });
        let limits = Limits {
            time: NO_TIME_LIMIT,
            memory_bytes,
        };
        let ended = sandbox.run(&program, wasi, seed, limits, Some(watch), Some(log.clone()));
        guest_in.close_reader();
        guest_out.close_writer();
        let (stderr, _) = log.contents();
        on_end(BotEnd { ended, stderr });
    })?;
    Ok(Bot {
        input: BotInput { pipe: stdin },
        output: BotOutput {
            pipe: stdout,
            killer: killer.clone(),
        },
        killer,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    /// A bot that echoes the bytes it reads until `!`, then floods its output with `x`
    /// forever, ignoring failed writes: it never stops by itself.
    const ECHO_THEN_FLOOD: &str = r#"(module
      (import "wasi_snapshot_preview1" "fd_read" (func $fd_read (param i32 i32 i32 i32) (result i32)))
      (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
      (memory (export "memory") 1)
      (func $write (param $len i32)
        (i32.store (i32.const 112) (i32.const 200))
        (i32.store (i32.const 116) (local.get $len))
        (drop (call $fd_write (i32.const 1) (i32.const 112) (i32.const 1) (i32.const 120))))
      (func (export "_start")
        (loop $echo
          (i32.store (i32.const 100) (i32.const 200))
          (i32.store (i32.const 104) (i32.const 1))
          (drop (call $fd_read (i32.const 0) (i32.const 100) (i32.const 1) (i32.const 108)))
          (if (i32.ne (i32.load8_u (i32.const 200)) (i32.const 33))
            (then (call $write (i32.const 1)) (br $echo))))
        (memory.fill (i32.const 200) (i32.const 120) (i32.const 4096))
        (loop $flood (call $write (i32.const 4096)) (br $flood))))"#;

    #[test]
    fn a_bot_streams_its_output_is_capped_and_a_kill_stops_it() {
        let sandbox = Arc::new(Sandbox::new().unwrap());
        let module = wat::parse_str(ECHO_THEN_FLOOD).unwrap();
        let program = Arc::new(sandbox.load(&module, "flood.wasm").unwrap());
        let (ended_tx, ended) = mpsc::channel();
        let mut bot = spawn_bot(sandbox, program, "flood".into(), 1 << 20, 0, move |end| {
            let _ = ended_tx.send(end.ended);
        })
        .unwrap();
        // Streaming both ways: each byte comes back before the next is sent.
        for byte in *b"ab" {
            bot.input.write_all(&[byte]).unwrap();
            let mut got = [0u8; 1];
            bot.output.read_exact(&mut got).unwrap();
            assert_eq!(got[0], byte);
        }
        bot.input.write_all(b"!").unwrap();
        // The flood fills the pipe up to its cap, then waits for the reader.
        let mut buf = vec![0u8; STDOUT_CAP];
        bot.output.read_exact(&mut buf).unwrap();
        assert!(buf.iter().all(|&b| b == b'x'));
        std::thread::sleep(Duration::from_millis(200));
        assert!(bot.output.pipe.lock().bytes.len() <= STDOUT_CAP);
        assert!(ended.try_recv().is_err(), "still flooding");
        // Dropping the caller's ends kills it: it stops within a few ticks.
        drop(bot.output);
        let end = ended
            .recv_timeout(Duration::from_secs(20))
            .expect("the bot stops once killed");
        assert!(matches!(end, Ended::BrokeRule(_)), "{end:?}");
    }

    #[test]
    fn a_full_pipe_makes_the_writer_wait_and_a_closed_reader_breaks_it() {
        let pipe = Pipe::new(4);
        assert_eq!(pipe.write_blocking(b"abcdef").unwrap(), 4);
        let writer = {
            let pipe = pipe.clone();
            std::thread::spawn(move || pipe.write_blocking(b"ef"))
        };
        let mut buf = [0u8; 3];
        assert_eq!(pipe.read_blocking(&mut buf), 3);
        assert_eq!(&buf, b"abc");
        assert_eq!(writer.join().unwrap().unwrap(), 2);
        assert_eq!(pipe.read_blocking(&mut buf), 3);
        assert_eq!(&buf, b"def");
        pipe.close_writer();
        assert_eq!(pipe.read_blocking(&mut buf), 0, "end of file once closed");
        let other = Pipe::new(4);
        other.close_reader();
        assert_eq!(
            other.write_blocking(b"x").unwrap_err().kind(),
            io::ErrorKind::BrokenPipe
        );
    }
}
