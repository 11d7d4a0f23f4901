//! The pools contest in the browser (`#/contest`): the session that decides which laps run
//! where ([`session`], browser-free), the hosts that run a pilot on a circuit ([`runner`]: the
//! Racetrack worker for built-in pilots, a WASI worker for programs), what is kept across a
//! reload in IndexedDB ([`storage`]) and the progress and standings ([`view`]). The contest's
//! rules and report are `engine::racetrack::contest`'s, as for `quadrille contest`.

pub mod entrants;
pub mod form;
pub mod replay;
pub mod runner;
pub mod running;
pub mod session;
pub mod storage;
pub mod view;
