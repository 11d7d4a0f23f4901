//! The Paper Soccer rules, records and engine inside a browser: the same answers as natively.

#![cfg(target_arch = "wasm32")]

use engine::soccer::field::Field;
use engine::soccer::game::{Game, StepEffect};
use engine::soccer::protocol::Turn;
use engine::soccer::record::Record;
use engine::soccer::search::Engine;
use engine::soccer::{Dir, Reason, Side};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn kick_off_turns_and_a_goal_in_a_bounce_chain() {
    let game = Game::new(Field::new(8, 10).unwrap(), Side::Red);
    let turns: Vec<Turn> = game.legal_turns().collect();
    assert_eq!(turns.len(), 6);
    let mut small = Game::new(Field::new(2, 2).unwrap(), Side::Red);
    assert_eq!(small.step(Dir::SE), Ok(StepEffect::Bounce));
    small.undo_step();
    let out = small.play_turn(&"35".parse().unwrap()).unwrap();
    assert_eq!((out.winner, out.reason), (Side::Red, Reason::Goal));
}

#[wasm_bindgen_test]
fn records_parse_replay_and_write_back() {
    let record = Record::parse("8x10 red: 3/4/4").unwrap();
    let game = record.replay().unwrap();
    assert_eq!(game.to_move(), Side::Blue);
    assert_eq!(record.to_string(), "8x10 red: 3/4/4");
    assert!(
        Record::parse("8x10 red: 3/0/4452")
            .unwrap()
            .replay()
            .is_err()
    );
}

#[wasm_bindgen_test]
fn the_engine_plays_legal_turns_without_a_clock() {
    for (w, l) in [(8, 10), (254, 2), (2, 254)] {
        let game = Game::new(Field::new(w, l).unwrap(), Side::Blue);
        let turn = Engine::new(2, 1).choose_turn(&game).expect("an open game");
        let out = game.clone().play_turn(&turn);
        assert!(out.is_none_or(|o| !o.reason.is_fault()), "{w}x{l}");
    }
}
