//! The editor's browser glue: the autosave in `localStorage`. (Downloads and reading files are
//! every page's, in `crate::browser_file`.)

use engine::racetrack::{Circuit, LineEnding};
use web_sys::Storage;

/// The `localStorage` key of the work in progress.
const AUTOSAVE_KEY: &str = "quadrille.circuit-editor.v1";

fn storage() -> Option<Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// Saves the work in progress: the circuit's name on the first line, then its `.cir` text.
/// Answers whether the browser accepted it.
pub fn autosave(name: &str, circuit: &Circuit) -> bool {
    let text = format!("{name}\n{}", circuit.to_text(LineEnding::Lf));
    storage().is_some_and(|s| s.set_item(AUTOSAVE_KEY, &text).is_ok())
}

/// The autosaved work, if any and readable.
pub fn restore() -> Option<(String, Circuit)> {
    let text = storage()?.get_item(AUTOSAVE_KEY).ok()??;
    let (name, cir) = text.split_once('\n')?;
    Some((name.to_owned(), Circuit::parse(cir.as_bytes()).ok()?))
}
