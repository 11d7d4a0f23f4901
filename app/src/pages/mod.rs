//! One module per route.

pub mod board;
pub mod circuits;
pub mod contest;
pub mod home;
pub mod league;
pub mod not_found;
pub mod pilots;
pub mod soccer;
