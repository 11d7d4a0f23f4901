//! The circuit editor. Its model is free of browser types so it is tested natively: the document
//! with unlimited undo ([`document`]), the tools and their shortcuts ([`tool`]), the zoomed and
//! panned view ([`view`]), rectangular selections ([`selection`]) and the par times already
//! solved ([`laps`]). The page
//! (`pages::circuits`) turns pointer and keyboard events into calls on these, and the painting
//! operations themselves come from `engine::racetrack::paint`. [`render`] draws the canvas and
//! [`browser`] holds the autosave.

pub mod browser;
pub mod document;
pub mod laps;
pub mod panels;
pub mod render;
pub mod selection;
pub mod session;
pub mod tool;
pub mod toolbar;
pub mod view;
