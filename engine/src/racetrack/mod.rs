//! Racetrack ("F1 pilot"): the rules are in `docs/rules/racetrack.md`.
//!
//! Layers: the circuit grid and its file formats ([`circuit`], [`colour`], [`bmp`]), conformity
//! ([`conformity`], VERIFCIR), the physics ([`physics`]: motion, the referee's collision test,
//! the finish line, the stopwatch), result files ([`f1`]) and the judge ([`mod@judge`], TESTF1, with
//! its [`log`] line), the shipped [`samples`], then pilots, pilot programs ([`program`]: the
//! verdict on a run), the pools contest's rules ([`pools`]) and its
//! state as it runs ([`contest`]).

pub mod bmp;
pub mod circuit;
pub mod colour;
pub mod conformity;
pub mod contest;
pub mod f1;
pub mod judge;
pub mod log;
pub mod paint;
pub mod physics;
pub mod pilot;
pub mod pools;
pub mod program;
pub mod samples;
mod text;

pub use circuit::{Circuit, CircuitError, SetError};
pub use f1::{F1Error, ResultFile};
pub use judge::{Fault, FaultKind, ValidLap, Verdict, judge};
pub use physics::{FinishLine, Pos};
pub use text::{LineEnding, NonAscii, QUOTE_MAX, quote};
