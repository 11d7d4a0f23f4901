//! The Racetrack web worker (see `app::workers::racetrack`): trunk builds it as its own wasm
//! module, loaded by the pages that drive or judge laps.

#[cfg(target_arch = "wasm32")]
fn main() {
    use gloo_worker::Registrable;
    console_error_panic_hook::set_once();
    app::workers::racetrack::RacetrackWorker::registrar().register();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("racetrack_worker runs only in a browser, as a web worker");
}
