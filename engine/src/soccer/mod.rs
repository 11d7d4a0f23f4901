//! Paper Soccer (FPGA Challenge): the rules are in `docs/rules/paper-soccer.md`.
//!
//! Layers, bottom up: [`types`] (sides, directions, points, outcomes), the rules (`field`,
//! `game`, `turns`, `record`), the engine player (`search`), and the wire protocol as sans-IO
//! state machines (`protocol`, `player`, `referee`); on top, the league of many games (`league`).

pub mod field;
pub mod game;
pub mod league;
pub mod line;
pub mod player;
pub mod protocol;
pub mod record;
pub mod referee;
pub mod search;
pub mod turns;
pub mod types;

pub use types::{Dir, Outcome, Point, Reason, Side};
