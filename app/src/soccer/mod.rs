//! Paper Soccer in the browser: the game on screen with its record, the session that runs the
//! game flow and its clocks, the players that can take a side, the set-up form's meaning, the
//! keys that play, the field's zoom and pan, and the page's view components. The page itself
//! is `pages::soccer`; every rule is `engine::soccer`'s.

pub mod camera;
pub mod keys;
pub mod players;
pub mod recorded;
pub mod session;
pub mod setup;
pub mod view;
