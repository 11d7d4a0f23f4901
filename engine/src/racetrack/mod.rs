//! Racetrack ("F1 pilot"): see `../shared/spec/racetrack.md`.
//!
//! Layers: the circuit grid and its file formats, conformity (VERIFCIR), physics (collision,
//! finish line, timing), result files and the judge (TESTF1), pilots, and the pools contest.

pub mod bmp;
pub mod circuit;
pub mod colour;
pub mod conformity;
pub mod f1;
pub mod judge;
pub mod log;
pub mod physics;
pub mod pilot;
pub mod pools;
pub mod samples;
mod text;

pub use circuit::{Circuit, CircuitError, SetError};
pub use f1::{F1Error, ResultFile};
pub use judge::{Fault, FaultKind, Lap, Verdict, judge};
pub use physics::{FinishLine, Pos};
pub use text::LineEnding;
