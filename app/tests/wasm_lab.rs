//! The pilot lab's logic in a real browser (wasm-bindgen-test, headless Chromium via
//! `cargo xtask test`): judging the shipped fixtures with the engine compiled to WebAssembly
//! gives the CLI's verdicts, and the results log survives a trip through `localStorage`.
#![cfg(target_arch = "wasm32")]

use app::lab::lap::JudgedLap;
use app::lab::results::ResultsLog;
use app::lab::storage;
use engine::racetrack::Circuit;
use engine::racetrack::samples;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn ring() -> Circuit {
    Circuit::parse(samples::by_name("ring").unwrap().text.as_bytes()).unwrap()
}

/// The fixtures of the e2e suite, with what `quadrille testf1 --json` said of them
/// (`../../e2e/tests/pilots-fixtures/expected.json`).
const FANGIO: &str = include_str!("../../e2e/tests/pilots-fixtures/fangio.f1");
const CRASH: &str = include_str!("../../e2e/tests/pilots-fixtures/crash.f1");
const TYPO: &str = include_str!("../../e2e/tests/pilots-fixtures/typo.f1");

#[wasm_bindgen_test]
fn the_fixtures_get_the_clis_verdicts() {
    let c = ring();
    let fangio = JudgedLap::from_bytes(&c, "fangio.f1", FANGIO.as_bytes()).hooks();
    assert!(fangio.valid);
    assert_eq!(fangio.time.as_deref(), Some("52.38"));
    let crash = JudgedLap::from_bytes(&c, "crash.f1", CRASH.as_bytes()).hooks();
    assert_eq!((crash.fault, crash.at), (Some("collision"), Some(18)));
    let typo = JudgedLap::from_bytes(&c, "typo.f1", TYPO.as_bytes()).hooks();
    assert_eq!((typo.fault, typo.at), (Some("syntax"), Some(10)));
}

#[wasm_bindgen_test]
fn the_log_round_trips_through_local_storage() {
    let c = ring();
    let name = "wasm-lab-test";
    let mut log = ResultsLog::default();
    for (file, text) in [("crash.f1", CRASH), ("fangio.f1", FANGIO)] {
        log.push(JudgedLap::from_bytes(&c, file, text.as_bytes()).log_line("2026-11-29 23:00:00"));
    }
    assert!(storage::save_log(name, &log));
    let back = storage::load_log(name);
    assert_eq!(back, log);
    let ranking = back.ranking();
    assert_eq!(ranking[0].entry.pilot, "Fangio");
    assert_eq!(ranking[0].place, Some(1));
    assert_eq!(ranking[1].place, None);
    // An empty log removes the key.
    assert!(storage::save_log(name, &ResultsLog::default()));
    assert!(storage::load_log(name).is_empty());
}
