//! Quadrille in the browser: a yew shell over `engine` (the rules) and `hdl-sim` (the boards).
//!
//! The pages only turn engine state into pixels and user input into engine calls; no rule of
//! either game is written here. Geometry that decides where things land on a canvas is kept in
//! plain functions ([`geometry`]) so it is tested natively and in the browser alike.

pub mod contest;
pub mod editor;
pub mod geometry;
pub mod gesture;
pub mod lab;
pub mod league;
pub mod monitor;
pub mod route;
pub mod scheduler;
pub mod serial;
pub mod soccer;
pub mod synth;
pub mod wasi;
pub mod workers;
pub mod zoom;

mod browser_file;
mod canvas;
mod clipboard;
mod clock;
mod draw;
mod export;
mod hash;
mod icon;
mod idb;
mod names;
mod pages;
mod shell;

pub use shell::App;

/// Mounts the app on `<body>`. Panics are reported on the console with their message and
/// location instead of an opaque `unreachable` trap.
pub fn start() {
    console_error_panic_hook::set_once();
    yew::Renderer::<App>::new().render();
}
