#![cfg(target_arch = "wasm32")]
//! The soccer screen's logic in the browser: the game on screen driven by the worker's answers
//! (the engine compiled to WebAssembly), judged again from the record alone.

use app::soccer::keys::{KeyAction, key_action};
use app::soccer::recorded::RecordedGame;
use app::workers::soccer::{Answer, Ask, answer};
use engine::soccer::field::Field;
use engine::soccer::record::Record;
use engine::soccer::{BySide, Dir, Side};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// Plays engine against engine through the worker's message handler until the game ends.
fn engine_game(width: u8, length: u8, starter: Side) -> RecordedGame {
    let mut recorded = RecordedGame::new(Field::new(width, length).unwrap(), starter);
    for id in 0..10_000 {
        if recorded.outcome().is_some() {
            return recorded;
        }
        let ask = Ask {
            id,
            record: recorded.record().to_string(),
            level: 1,
            seed: id,
            game: None,
        };
        match answer(&ask, js_sys::Date::now) {
            Answer::Turn { id: got, turn, .. } => {
                assert_eq!(got, id);
                recorded.play_turn(turn.as_bytes());
            }
            other => panic!("no turn for {}: {other:?}", ask.record),
        }
    }
    panic!("the game did not end");
}

#[wasm_bindgen_test]
fn engine_games_end_and_their_records_say_the_same() {
    for (w, l, starter) in [
        (8, 10, Side::Red),
        (2, 2, Side::Blue),
        (254, 2, Side::Red),
        (10, 8, Side::Blue),
    ] {
        let recorded = engine_game(w, l, starter);
        let outcome = recorded.outcome().expect("over");
        assert!(
            !outcome.reason.is_fault(),
            "the engine never faults: {outcome}"
        );
        let text = recorded.record().to_string();
        let judged = Record::parse(&text).unwrap().replay().unwrap();
        assert_eq!(judged.outcome(), Some(outcome), "{text}");
        assert_eq!(recorded.lines().len(), judged.step_segments().len());
    }
}

#[wasm_bindgen_test]
fn a_record_with_a_timeout_reloads_with_it() {
    let mut recorded = RecordedGame::new(Field::new(8, 10).unwrap(), Side::Red);
    recorded.step(Dir::SE).unwrap();
    recorded.time_out();
    let text = recorded.record_with_verdict().to_string();
    assert_eq!(text, "8x10 red: 3 # red timeout");
    let reloaded = RecordedGame::from_record(&Record::parse(&text).unwrap()).unwrap();
    assert_eq!(reloaded.outcome(), recorded.outcome());
}

#[wasm_bindgen_test]
fn digit_keys_are_protocol_directions() {
    assert_eq!(key_action("4", "Digit4"), Some(KeyAction::Step(Dir::S)));
    assert_eq!(
        key_action("Backspace", "Backspace"),
        Some(KeyAction::TakeBack)
    );
}

/// Plays engine against engine through the page's session: every `Ask` it queues answered by
/// the worker's handler, every delivery animated by ticks, until the game ends.
#[wasm_bindgen_test]
fn the_session_runs_an_engine_game_to_the_end() {
    use app::soccer::players::PlayerKind;
    use app::soccer::session::{Effect, Moment, Session};

    let engine = PlayerKind::Engine { level: 1 };
    let mut session = Session::default();
    let mut now = 0;
    let at = |now| Moment {
        now,
        ready: BySide::new(true, true),
    };
    let recorded = RecordedGame::new(Field::new(8, 10).unwrap(), Side::Blue);
    session.start(
        recorded,
        BySide::new(engine, engine),
        BySide::new(Some(60_000), Some(60_000)),
        at(now),
    );
    for _ in 0..100_000 {
        if session.result().is_some() {
            break;
        }
        now += 40;
        while let Some(effect) = session.poll_effect() {
            if let Effect::Ask {
                side,
                token,
                record,
            } = effect
            {
                let ask = Ask {
                    id: token,
                    record: record.to_string(),
                    level: 1,
                    seed: token,
                    game: None,
                };
                match answer(&ask, js_sys::Date::now) {
                    Answer::Turn { turn, .. } => {
                        session.delivered(token, side, turn.as_bytes(), now)
                    }
                    other => panic!("no turn for {}: {other:?}", ask.record),
                }
            }
        }
        session.tick(at(now));
    }
    let outcome = session.result().expect("the game ended");
    assert!(!outcome.reason.is_fault(), "{outcome}");
    let text = session.export().unwrap();
    let judged = Record::parse(&text).unwrap().replay().unwrap();
    assert_eq!(judged.outcome(), Some(outcome), "{text}");
}
