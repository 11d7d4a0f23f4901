//! The Paper Soccer engine's web worker (built by trunk as `soccer_worker.js`): see
//! `app::workers::soccer`.

use app::workers::soccer::SoccerWorker;
use gloo_worker::Registrable;

fn main() {
    console_error_panic_hook::set_once();
    SoccerWorker::registrar().register();
}
