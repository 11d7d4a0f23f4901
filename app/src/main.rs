//! The trunk entry point: everything lives in the library so the browser tests can reach it.

fn main() {
    app::start();
}
