//! Racetrack ("F1 pilot"): see `../shared/spec/racetrack.md`.
//!
//! Layers: the circuit grid and its file formats, conformity (VERIFCIR), physics (collision,
//! finish line, timing), result files and the judge (TESTF1), pilots, and the pools contest.

pub mod circuit;
pub mod colour;
pub mod physics;
pub mod samples;
mod text;

pub use circuit::{Circuit, CircuitError, SetError};
pub use physics::{FinishLine, Pos};
pub use text::LineEnding;
