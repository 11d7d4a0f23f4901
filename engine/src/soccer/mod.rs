//! Paper Soccer (FPGA Challenge): see `../shared/spec/paper-soccer.md`.
//!
//! Layers, bottom up: [`types`] (sides, directions, points, outcomes), the rules (`field`,
//! `game`, `turns`, `record`), the engine player (`search`), and the wire protocol as sans-IO
//! state machines (`protocol`, `player`, `referee`).

pub mod protocol;
pub mod types;

pub use types::{Dir, Outcome, Point, Reason, Side};
