//! The emulated board's web worker (built by trunk as `board_worker.js`): see
//! `app::workers::board`. It embeds the reference player's netlist, so only this worker carries
//! it.

use app::workers::board::{BoardWorker, set_reference};
use gloo_worker::Registrable;

fn main() {
    console_error_panic_hook::set_once();
    set_reference(hdl_sim::reference::NETLIST);
    BoardWorker::registrar().register();
}
