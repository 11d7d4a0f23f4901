//! What the lab keeps in the browser's `localStorage`: one results log per circuit, and how it
//! runs pilot programs ([`PROGRAMS_KEY`]). Storage that is missing or refuses (private mode,
//! quota) only loses the persistence, never a verdict.

use super::results::ResultsLog;

/// The storage key of a circuit's results log. Circuits are known by their file stem
/// (`ring` for `ring.cir`), like TESTF1's `ring.log`.
pub fn log_key(circuit: &str) -> String {
    format!("quadrille.lab.log.{circuit}")
}

#[cfg(target_arch = "wasm32")]
fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

#[cfg(not(target_arch = "wasm32"))]
fn storage() -> Option<NoStorage> {
    None
}

/// Native builds (unit tests) have no browser storage.
#[cfg(not(target_arch = "wasm32"))]
struct NoStorage;

#[cfg(not(target_arch = "wasm32"))]
impl NoStorage {
    fn get_item(&self, _key: &str) -> Result<Option<String>, ()> {
        Ok(None)
    }
    fn set_item(&self, _key: &str, _value: &str) -> Result<(), ()> {
        Ok(())
    }
    fn remove_item(&self, _key: &str) -> Result<(), ()> {
        Ok(())
    }
}

/// The storage key of the pilot programs' settings (time limit, seed, randomness).
pub const PROGRAMS_KEY: &str = "quadrille.lab.programs";

/// The text stored under `key`, if any.
pub fn load_text(key: &str) -> Option<String> {
    storage()?.get_item(key).ok().flatten()
}

/// Stores `text` under `key`; `false` when the browser refused.
pub fn save_text(key: &str, text: &str) -> bool {
    storage().is_some_and(|s| s.set_item(key, text).is_ok())
}

/// The stored log of `circuit` (empty when there is none).
pub fn load_log(circuit: &str) -> ResultsLog {
    storage()
        .and_then(|s| s.get_item(&log_key(circuit)).ok().flatten())
        .map(|text| ResultsLog::from_text(&text))
        .unwrap_or_default()
}

/// Stores the log of `circuit`; `false` when the browser refused.
pub fn save_log(circuit: &str, log: &ResultsLog) -> bool {
    let Some(s) = storage() else { return false };
    if log.is_empty() {
        s.remove_item(&log_key(circuit)).is_ok()
    } else {
        s.set_item(&log_key(circuit), &log.to_text()).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_circuit_has_its_own_key() {
        assert_eq!(log_key("ring"), "quadrille.lab.log.ring");
        assert_ne!(log_key("ring"), log_key("street"));
    }
}
