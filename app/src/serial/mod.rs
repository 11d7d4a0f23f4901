//! Boards on serial ports through the Web Serial API: the line settings ([`settings`]), the
//! API's bindings ([`api`]), an open port ([`port`]), and a board as a Paper Soccer side,
//! refereed by the engine's [`Referee`](engine::soccer::referee::Referee) ([`side`]).

pub mod api;
pub mod boards;
pub mod emulator;
pub mod link;
pub mod port;
pub mod settings;
pub mod side;

pub use api::SerialError;
pub use boards::{BoardConsole, BoardKind, BoardSetup, Boards};
pub use port::{Connection, PortEvent};
pub use settings::LineSettings;
