//! The pilot lab (`#/pilots`): TESTF1 in the browser. Result files and built-in pilots are
//! judged by `engine::racetrack::judge`; this module only holds what the page needs around the
//! verdicts: the controller ([`session`]: track, laps, replay, log, the canvas' view), the
//! judged laps ([`lap`]), the replay clock ([`replay`]), the per-circuit results log and its
//! ranking ([`results`]), the drawings ([`draw`], [`plot`]) and the page's components
//! ([`panels`]).

pub mod draw;
pub mod lap;
pub mod panels;
pub mod plot;
pub mod programs;
pub mod replay;
pub mod results;
pub mod session;
pub mod storage;
pub mod worker;
