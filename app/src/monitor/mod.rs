//! The serial monitor: the bytes each way between this page and its boards, with their
//! protocol meaning ([`log`]), and the panel that shows them ([`view`]).

pub mod console;
pub mod log;
pub mod view;

pub use log::{Direction, Entry, Log};
pub use view::{SerialMonitor, SharedLog};
