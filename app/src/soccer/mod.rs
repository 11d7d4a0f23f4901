//! Paper Soccer in the browser: the referee of a game on screen, the players that can take a
//! side, the set-up form's meaning, the keys that play and the field's zoom and pan. The page
//! itself is `pages::soccer`; every rule is `engine::soccer`'s.

pub mod camera;
pub mod keys;
pub mod players;
pub mod referee;
pub mod setup;
