//! The WASI web worker (see `app::wasi`): runs one pilot or bot module, then is terminated.

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    app::wasi::worker::main();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("wasi_worker runs only in a browser, as a web worker");
}
