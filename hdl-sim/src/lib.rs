//! hdl-sim: runs a yosys JSON netlist cycle by cycle, natively and in WebAssembly.
//!
//! * [`Module::from_json`] reads a netlist flattened by `hdl/netlist.sh` (yosys `write_json`).
//! * [`Simulator`] compiles it into a levelized evaluator over one `u64` arena and offers a pin
//!   API: set inputs, read outputs and wires, step clock cycles.
//! * [`VcdWriter`] dumps chosen signals ([`all_signals`], [`dump_window`] for a window of
//!   cycles); [`UartDriver`]/[`UartMonitor`] drive and decode serial pins bit by bit;
//!   [`BoardEmulator`] puts them together behind the byte-stream interface of a real board's
//!   serial port.
//! * [`flow::VerilogFlow`] is the yosys script that makes such a netlist from Verilog
//!   (`hdl/netlist.ys`), for the places that run yosys themselves, like the browser app.
//!
//! ```
//! use hdl_sim::{BoardConfig, BoardEmulator, Simulator};
//!
//! // A DE2-115-style design whose UART_TXD echoes UART_RXD and whose LEDG adds SW each cycle.
//! let json = include_str!("../tests/designs/loop.json");
//! let mut sim = Simulator::from_json(json, Some("CLOCK_50"))?;
//! sim.set_by_name("KEY", 0xf)?;
//! sim.set_by_name("SW", 3)?;
//! sim.run(4);
//! assert_eq!(sim.get_by_name("LEDG")?, 12);
//!
//! let mut board = BoardEmulator::from_json(json, BoardConfig::default())?;
//! board.send(b"w");
//! let echoed = board.run_until_byte(10 * 434 * 2).expect("a byte");
//! assert_eq!(echoed.byte, b'w');
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Semantics
//!
//! * Two-valued: `x` and `z` bits (in constants, `init` values, memory `INIT`, and results yosys
//!   defines as `x`: division by zero, a `$shiftx` or `$bmux` reading out of range, an
//!   out-of-range memory read) are 0, and so is every register without an `init` value at
//!   power-up. `$pmux` with several select bits set takes the lowest one (as yosys'
//!   `write_verilog` does).
//! * One clock: the top-level input that clocks every flip-flop and memory port (given, or
//!   inferred). A cycle is its rising edge then its falling edge; falling-edge elements update
//!   on the second half. Asynchronous resets, loads and set/reset act at once (`$adff`,
//!   `$aldff`, `$dffsr` keep yosys' level-sensitive meaning).
//! * Cells: every word-level cell of the `hdl/netlist.sh` flow and the flip-flop flavours it
//!   removes (`$dffe $sdff $sdffe $sdffce $adff $adffe $aldff $aldffe $dffsr $dffsre`), `$mem_v2`
//!   with synchronous (enable, reset, transparency) and asynchronous read ports, `$bmux
//!   $demux $bwmux $slice $concat $pow $divfloor $modfloor`, and single-bit gates `$_AND_ $_OR_
//!   $_XOR_ $_XNOR_ $_NOT_ $_BUF_ $_MUX_ $_DFF_P_ $_DFF_N_`. Anything else is an error naming the
//!   cell, as is a combinational loop (after splitting bitwise cells caught in word-level false
//!   loops into bits), a net with two drivers, or flip-flops on two clocks.
//!
//! # Untrusted netlists
//!
//! A netlist is read as hostile input: every parameter is checked in 64-bit arithmetic against
//! explicit limits before it sizes anything, the state it asks for is checked against a budget
//! ([`Limits`], 256 MiB by default) before it is allocated, loops are found in linear time,
//! and an arithmetic cell whose every evaluation would take more than 2^28 word operations (a
//! million-bit division) is refused rather than left to hang the first settle. Messages quote
//! at most 60 characters of a value and 160 of a name.
//! [`Simulator::from_json_with`] answers a simulator or an error for any text, never a panic.
//!
//! Nothing here touches the operating system: no files, threads or clocks.

mod board;
mod compile;
mod error;
mod fast;
pub mod flow;
mod limits;
pub mod netlist;
mod ops;
pub mod reference;
mod sim;
mod split;
mod uart;
mod vcd;
pub mod wasm;

pub use board::{BoardConfig, BoardEmulator, BoardError};
pub use error::{LOOP_NAMES_SHOWN, LoadError, PinError};
pub use limits::Limits;
pub use netlist::{Direction, Module};
pub use sim::{InputPin, PortDesc, Probe, Simulator};
pub use uart::{StampedByte, UartConfig, UartDriver, UartMonitor};
pub use vcd::{TIME_PER_CYCLE, VcdSignal, VcdWriter, all_signals, dump_window};
