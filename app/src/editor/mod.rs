//! The circuit editor. Its controller ([`session`]) and model are free of browser types so they
//! are tested natively: the document with unlimited undo ([`document`]), the tools and their
//! shortcuts ([`tool`]), the cell view over the shared zoom ([`view`]), rectangular selections
//! ([`selection`]) and the par times already solved ([`laps`]). The page (`pages::circuits`)
//! turns browser events into the session's inputs and carries out its effects; the painting
//! operations themselves come from `engine::racetrack::paint`. The view is small components
//! ([`toolbar`], [`panels`]); [`render`] draws the canvas and [`browser`] holds the autosave.

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
