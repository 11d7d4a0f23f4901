//! The Paper Soccer engine's web worker: the page sends a position as a game record and gets
//! the engine's turn back, so the page stays responsive while the engine thinks.
//!
//! The messages are shared by both sides (the page and `bin/soccer_worker.rs`). A position
//! travels as its record (spec §5): short, and judged again by the engine on arrival.

use engine::soccer::record::Record;
use engine::soccer::search::Engine;
use gloo_worker::{HandlerId, Worker, WorkerScope};
use serde::{Deserialize, Serialize};

/// A request for the engine's turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ask {
    /// Echoed in the answer so the page can drop answers it no longer wants.
    pub id: u64,
    /// The position: a record of complete turns.
    pub record: String,
    /// The engine's strength (0 = random, up to `engine::soccer::search::MAX_LEVEL`).
    pub level: u8,
    pub seed: u64,
}

/// What the worker says.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Answer {
    /// The worker has loaded and takes requests (sent to each new bridge).
    Ready,
    /// The engine's turn for request `id`.
    Turn {
        id: u64,
        /// The digits of the turn.
        turn: String,
        /// Turns searched ahead, steps tried, and the time it took.
        depth: u32,
        nodes: u64,
        millis: f64,
    },
    /// The request could not be answered (a bad record, or a game that is over).
    Refused { id: u64, reason: String },
}

/// Answers one request: the engine's analysis of the record's final position.
pub fn answer(ask: &Ask, now: impl Fn() -> f64) -> Answer {
    let refused = |reason: String| Answer::Refused { id: ask.id, reason };
    let record = match Record::parse(&ask.record) {
        Ok(record) => record,
        Err(err) => return refused(format!("bad record: {err}")),
    };
    let game = match record.replay() {
        Ok(game) => game,
        Err(err) => return refused(format!("record refused: {err}")),
    };
    let started = now();
    match Engine::new(ask.level, ask.seed).analyse(&game) {
        Some(analysis) => Answer::Turn {
            id: ask.id,
            turn: String::from_utf8_lossy(&analysis.turn).into_owned(),
            depth: analysis.depth,
            nodes: analysis.nodes,
            millis: now() - started,
        },
        None => refused("the game is over".into()),
    }
}

/// The worker itself: stateless, one answer per request, in order.
pub struct SoccerWorker;

impl Worker for SoccerWorker {
    type Message = ();
    type Input = Ask;
    type Output = Answer;

    fn create(_scope: &WorkerScope<Self>) -> Self {
        SoccerWorker
    }

    fn update(&mut self, _scope: &WorkerScope<Self>, _msg: ()) {}

    fn connected(&mut self, scope: &WorkerScope<Self>, id: HandlerId) {
        scope.respond(id, Answer::Ready);
    }

    fn received(&mut self, scope: &WorkerScope<Self>, ask: Ask, id: HandlerId) {
        scope.respond(id, answer(&ask, js_sys::Date::now));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(record: &str) -> Ask {
        Ask {
            id: 7,
            record: record.into(),
            level: 2,
            seed: 1,
        }
    }

    #[test]
    fn the_answer_is_a_legal_complete_turn() {
        let Answer::Turn { id, turn, .. } = answer(&ask("8x10 red: 3/3"), || 0.0) else {
            panic!("no turn");
        };
        assert_eq!(id, 7);
        let mut game = Record::parse("8x10 red: 3/3").unwrap().replay().unwrap();
        let before = game.clone();
        let outcome = game.play_turn(turn.as_bytes());
        assert!(
            outcome.is_none_or(|o| o.winner == before.to_move()),
            "{turn}"
        );
    }

    #[test]
    fn bad_and_finished_records_are_refused_with_their_id() {
        for record in ["8x10 purple: 3", "8x10 red: 3/44", "2x2 red: 35"] {
            match answer(&ask(record), || 0.0) {
                Answer::Refused { id, reason } => {
                    assert_eq!(id, 7);
                    assert!(!reason.is_empty());
                }
                other => panic!("{record}: {other:?}"),
            }
        }
    }
}
