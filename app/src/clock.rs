//! The page's monotonic clock (`performance.now()`), for whatever times or animates: game
//! clocks, serial wires, the editor's timings.

/// Milliseconds since the page loaded, with their fraction.
pub fn page_ms_f64() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Whole milliseconds since the page loaded.
pub fn page_ms() -> u64 {
    page_ms_f64().max(0.0) as u64
}
