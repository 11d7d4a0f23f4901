//! Paper Soccer (FPGA Challenge): the rules are in `docs/rules/paper-soccer.md`.
//!
//! Layers, bottom up: [`types`] (sides, directions, points, outcomes), the rules (`field`,
//! `game`, `turns`, `record`), the engine player (`search`), and the wire protocol as sans-IO
//! state machines (`protocol`, `player`, `referee`, and `wire`: a player that answers by itself); on top, the league of many games (`league`).
//!
//! Readers of untrusted bytes, which take any input without panicking and answer with errors
//! of a line (the fuzz targets' entry points): [`record::Record::parse_bytes`],
//! [`protocol::Decoder::push`], [`protocol::TurnScanner::push`], [`protocol::Turn::new`],
//! [`player::PlayerSession::handle_input`] and [`referee::Referee::handle_input`].

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
pub mod wire;

pub use types::{BySide, Dir, Outcome, Point, Reason, Side};
