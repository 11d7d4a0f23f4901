//! The page's side of a WebAssembly Paper Soccer bot (issue 16): a WASI command in a worker of
//! its own, speaking the wire protocol on its standard streams — bytes in with
//! [`WasmBot::send`], bytes out as [`BotEvent::Bytes`], like a board on its serial line. Its
//! blocking `fd_read` waits on a `SharedArrayBuffer` (`Atomics.wait`), which browsers only give
//! cross-origin-isolated pages (the COOP/COEP headers of `cargo xtask serve`; README).
//!
//! The bot has no clock of its own: the referee's turn clock rules it, and [`WasmBot::kill`]
//! (or dropping it) terminates the worker.

use std::cell::Cell;
use std::rc::Rc;

use yew::Callback;

use super::protocol::{Ended, Job, Mode};
#[cfg(target_arch = "wasm32")]
use super::protocol::{Report, STDIN_CLOSED, STDIN_HEADER, STDIN_READ, STDIN_RING, STDIN_WRITTEN};

/// A bot's default linear-memory limit: 64 MiB.
pub const DEFAULT_BOT_MEMORY: u64 = 64 << 20;

/// What a bot does.
#[derive(Clone, Debug, PartialEq)]
pub enum BotEvent {
    /// It was checked and runs.
    Started,
    /// Not a WASI command, or this page cannot run bots (not cross-origin isolated).
    Refused(String),
    /// It wrote these bytes on its standard output.
    Bytes(Vec<u8>),
    /// It stopped on its own (exit, trap, memory): the referee rules it disconnected.
    Ended { ended: Ended, stderr: Vec<u8> },
}

/// Why bytes could not reach a bot.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SendError {
    #[error("the bot has not read {0} bytes sent before: its input is full")]
    Full(u32),
    #[error("the bot is not running")]
    Gone,
}

/// A running bot. Dropping it terminates it.
pub struct WasmBot {
    #[cfg(target_arch = "wasm32")]
    worker: super::runner::spawn::Spawned,
    #[cfg(target_arch = "wasm32")]
    control: js_sys::Int32Array,
    #[cfg(target_arch = "wasm32")]
    ring: js_sys::Uint8Array,
    written: Cell<u32>,
    alive: Rc<Cell<bool>>,
}

/// Whether this page can run bots (it is cross-origin isolated, so `SharedArrayBuffer` exists).
pub fn available() -> bool {
    #[cfg(target_arch = "wasm32")]
    {
        js_sys::Reflect::get(&js_sys::global(), &"crossOriginIsolated".into())
            .is_ok_and(|v| v.is_truthy())
    }
    #[cfg(not(target_arch = "wasm32"))]
    false
}

impl WasmBot {
    /// Starts the bot `module` (file `file_name`, its `argv[0]`) with `memory_bytes` of linear
    /// memory and `seed` for `random_get`; `on_event` hears what it does. `Err` when this page
    /// cannot run bots at all.
    pub fn spawn(
        file_name: &str,
        module: &[u8],
        memory_bytes: u64,
        seed: u64,
        on_event: Callback<BotEvent>,
    ) -> Result<WasmBot, String> {
        let job = Job {
            file_name: file_name.to_owned(),
            memory_bytes,
            seed,
            mode: Mode::Bot,
        };
        if !available() {
            return Err("WebAssembly bots need a cross-origin-isolated page (the \
                        Cross-Origin-Opener-Policy and Cross-Origin-Embedder-Policy headers)"
                .into());
        }
        let alive = Rc::new(Cell::new(true));
        #[cfg(target_arch = "wasm32")]
        {
            let buffer = js_sys::SharedArrayBuffer::new(STDIN_HEADER + STDIN_RING);
            let control = js_sys::Int32Array::new_with_byte_offset_and_length(&buffer, 0, 4);
            let ring = js_sys::Uint8Array::new(&buffer);
            let flag = alive.clone();
            let on_report = move |report: Report| {
                let event = match report {
                    Report::Ready => return,
                    Report::Started => BotEvent::Started,
                    Report::Refused(why) => {
                        flag.set(false);
                        BotEvent::Refused(why)
                    }
                    Report::Stdout(bytes) => BotEvent::Bytes(bytes),
                    Report::Ended(ending) => {
                        flag.set(false);
                        BotEvent::Ended {
                            ended: ending.ended,
                            stderr: ending.log,
                        }
                    }
                };
                on_event.emit(event);
            };
            let worker = super::runner::spawn::spawn(&job, module, buffer.into(), on_report)?;
            Ok(WasmBot {
                worker,
                control,
                ring,
                written: Cell::new(0),
                alive,
            })
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            let _ = (job, module, on_event);
            Ok(WasmBot {
                written: Cell::new(0),
                alive,
            })
        }
    }

    /// Gives the bot `bytes` on its standard input.
    pub fn send(&self, bytes: &[u8]) -> Result<(), SendError> {
        if !self.alive.get() {
            return Err(SendError::Gone);
        }
        #[cfg(target_arch = "wasm32")]
        {
            use js_sys::Atomics;
            let read = Atomics::load(&self.control, STDIN_READ).unwrap_or(0) as u32;
            let written = self.written.get();
            let pending = written.wrapping_sub(read);
            if pending as usize + bytes.len() > STDIN_RING as usize {
                return Err(SendError::Full(pending));
            }
            for (i, &b) in bytes.iter().enumerate() {
                let at = written.wrapping_add(i as u32) % STDIN_RING + STDIN_HEADER;
                self.ring.set_index(at, b);
            }
            let written = written.wrapping_add(bytes.len() as u32);
            self.written.set(written);
            let _ = Atomics::store(&self.control, STDIN_WRITTEN, written as i32);
            let _ = Atomics::notify(&self.control, STDIN_WRITTEN);
        }
        #[cfg(not(target_arch = "wasm32"))]
        self.written
            .set(self.written.get().wrapping_add(bytes.len() as u32));
        Ok(())
    }

    /// Ends the bot's input: its next read past what it has is the end of the stream.
    pub fn close_input(&self) {
        #[cfg(target_arch = "wasm32")]
        {
            let _ = js_sys::Atomics::store(&self.control, STDIN_CLOSED, 1);
            let _ = js_sys::Atomics::notify(&self.control, STDIN_WRITTEN);
        }
    }

    /// Stops the bot at once (the referee ruled on it, or the game is over).
    pub fn kill(&self) {
        self.alive.set(false);
        #[cfg(target_arch = "wasm32")]
        self.worker.terminate();
    }

    /// Whether it still runs.
    pub fn is_alive(&self) -> bool {
        self.alive.get()
    }
}
