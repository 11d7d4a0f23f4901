//! Web workers: the messages each worker understands, shared by the page that sends them and the
//! worker binary (`app/src/bin/<name>_worker.rs`) that answers.

pub mod board;
pub mod racetrack;
pub mod soccer;
