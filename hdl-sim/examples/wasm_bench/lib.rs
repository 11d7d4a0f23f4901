//! The board emulator as a bare WebAssembly module, so that `cargo bench -p hdl-sim --bench sim`
//! can time it under Node (`benches/wasm_speed.mjs`) beside the native build and Verilator. The
//! bench builds it itself:
//! `cargo build --release --target wasm32-unknown-unknown -p hdl-sim --example wasm_bench`.
//!
//! No wasm-bindgen, so no generated glue and no imports: plain `extern "C"` functions over
//! numbers, and one byte buffer that JavaScript fills directly in the module's memory.
//!
//! 1. `buffer(len)` makes room for `len` bytes and returns where JavaScript writes them;
//! 2. `board_load(sw)` powers up a board from the netlist JSON in the buffer, switches at `sw`;
//! 3. `board_send()` queues the buffer's bytes on the board's serial input;
//! 4. `board_run(cycles)` runs the clock;
//! 5. `board_fingerprint()` hashes the board's state (see `fingerprint.rs`), to compare with the
//!    native run of the same inputs.
//!
//! The functions that can fail return a [`Status`] (0 = done); the reason of the last failure is
//! the UTF-8 text of `message_len()` bytes at `message_ptr()`.

mod fingerprint;

use std::cell::RefCell;

use hdl_sim::{BoardConfig, BoardEmulator};

/// What a call did, as the number JavaScript receives.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Done = 0,
    /// The netlist in the buffer is not UTF-8.
    NotUtf8 = 1,
    /// The netlist does not load as a board (the message says why).
    BadNetlist = 2,
    /// `board_send` or `board_run` before a successful `board_load`.
    NoBoard = 3,
}

/// Everything the exported functions share: the module runs on one thread.
#[derive(Default)]
struct State {
    buffer: Vec<u8>,
    board: Option<BoardEmulator>,
    message: String,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::default();
}

/// Empties the buffer, makes it `len` zero bytes long and returns its address: valid until the
/// next call into the module.
#[unsafe(no_mangle)]
pub extern "C" fn buffer(len: usize) -> *mut u8 {
    STATE.with_borrow_mut(|s| {
        s.buffer.clear();
        s.buffer.resize(len, 0);
        s.buffer.as_mut_ptr()
    })
}

/// Loads the netlist JSON in the buffer as a DE2-115 board with the slide switches at `sw`,
/// replacing any board loaded before.
#[unsafe(no_mangle)]
pub extern "C" fn board_load(sw: u64) -> Status {
    STATE.with_borrow_mut(|s| {
        s.board = None;
        let text = match std::str::from_utf8(&s.buffer) {
            Ok(text) => text,
            Err(e) => {
                s.message = format!("netlist: {e}");
                return Status::NotUtf8;
            }
        };
        let config = BoardConfig {
            switch_value: sw,
            ..BoardConfig::default()
        };
        match BoardEmulator::from_json(text, config) {
            Ok(board) => {
                s.board = Some(board);
                Status::Done
            }
            Err(e) => {
                s.message = format!("netlist: {e}");
                Status::BadNetlist
            }
        }
    })
}

/// Queues the buffer's bytes on the board's serial input (sent at 115200 baud while it runs).
#[unsafe(no_mangle)]
pub extern "C" fn board_send() -> Status {
    STATE.with_borrow_mut(|s| match &mut s.board {
        Some(board) => {
            board.send(&s.buffer);
            Status::Done
        }
        None => no_board(&mut s.message),
    })
}

/// Runs the board's clock for `cycles` cycles.
#[unsafe(no_mangle)]
pub extern "C" fn board_run(cycles: u64) -> Status {
    STATE.with_borrow_mut(|s| match &mut s.board {
        Some(board) => {
            board.run(cycles);
            Status::Done
        }
        None => no_board(&mut s.message),
    })
}

/// The loaded board's fingerprint, 0 when no board is loaded.
#[unsafe(no_mangle)]
pub extern "C" fn board_fingerprint() -> u64 {
    STATE.with_borrow(|s| s.board.as_ref().map_or(0, fingerprint::fingerprint))
}

/// Where the last failure's message starts.
#[unsafe(no_mangle)]
pub extern "C" fn message_ptr() -> *const u8 {
    STATE.with_borrow(|s| s.message.as_ptr())
}

/// The last failure's message length in bytes.
#[unsafe(no_mangle)]
pub extern "C" fn message_len() -> usize {
    STATE.with_borrow(|s| s.message.len())
}

fn no_board(message: &mut String) -> Status {
    *message = "no board loaded: call board_load first".into();
    Status::NoBoard
}
