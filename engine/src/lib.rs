//! Quadrille's game rules and engines.
//!
//! Everything here is pure computation: no files, clocks, sockets or browser APIs. The CLI and
//! the web app are thin shells that feed bytes and events in and act on what comes out, so the
//! same code judges a lap or referees a game natively and in WebAssembly.

pub mod racetrack;
pub mod rng;
pub mod soccer;
