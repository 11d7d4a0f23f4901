//! hdl-sim: runs a yosys JSON netlist cycle by cycle, natively and in WebAssembly.
//!
//! * [`Module::from_json`] reads a netlist flattened by `hdl/netlist.sh` (yosys `write_json`).
//! * [`Simulator`] compiles it into a levelized evaluator over a `u64` arena and offers a pin
//!   API: set inputs, read outputs and wires, step clock cycles.
//! * [`VcdWriter`] dumps chosen signals; [`UartDriver`]/[`UartMonitor`] drive and decode serial
//!   pins bit by bit; [`BoardEmulator`] puts them together behind a byte-stream interface like a
//!   real board's serial port.
//!
//! The simulator is two-valued: `x` and `z` bits (in constants, `init` values, memory `INIT`,
//! and results yosys defines as `x` such as division by zero) are 0, and so is every register
//! without an `init` value at power-up. There is one clock, the top-level input that clocks the
//! flip-flops and memories; a cycle is its rising edge then its falling edge.
//!
//! Nothing here touches the operating system: no files, threads or clocks.

mod board;
mod compile;
mod error;
pub mod netlist;
mod ops;
mod sim;
mod split;
mod uart;
mod vcd;

pub use board::{BoardConfig, BoardEmulator, BoardError};
pub use error::{LoadError, PinError};
pub use netlist::{Direction, Module};
pub use sim::{InputPin, PortDesc, Probe, Simulator};
pub use uart::{StampedByte, UartConfig, UartDriver, UartMonitor};
pub use vcd::{TIME_PER_CYCLE, VcdSignal, VcdWriter, all_signals, dump_window};
