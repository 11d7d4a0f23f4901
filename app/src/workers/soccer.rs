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
    /// A game this engine plays from start to end (a league's), named by the page: the worker
    /// keeps one engine per key for the game's length, made with `seed` at the first request,
    /// exactly as a player process of the CLI keeps one (`quadrille soccer league`), so the
    /// same seeds play the same game in both. `None`: a fresh engine for this request alone.
    #[serde(default)]
    pub game: Option<u64>,
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
        /// The probability that the player to move wins, by the search (for the bar beside
        /// the field).
        win: f64,
    },
    /// The request could not be answered (a bad record, or a game that is over).
    Refused { id: u64, reason: String },
}

/// Answers one request with a fresh engine: the engine's analysis of the record's final
/// position.
pub fn answer(ask: &Ask, now: impl Fn() -> f64) -> Answer {
    answer_with(ask, &mut Engine::at_level(ask.level, ask.seed), now)
}

/// Answers one request with `engine` (which keeps its state for the next request).
pub fn answer_with(ask: &Ask, engine: &mut Engine, now: impl Fn() -> f64) -> Answer {
    let refused = |reason: String| Answer::Refused { id: ask.id, reason };
    let record = match Record::parse(&ask.record) {
        Ok(record) => record,
        Err(err) => return refused(format!("bad record: {err}")),
    };
    let game = match record.replay() {
        Ok(game) => game,
        Err(err) => return refused(format!("record refused: {err}")),
    };
    match engine.analyse_with_clock(&game, &now) {
        Some(analysis) => Answer::Turn {
            id: ask.id,
            turn: analysis.turn.to_string(),
            depth: analysis.depth,
            nodes: analysis.nodes,
            millis: analysis.millis.unwrap_or_default(),
            win: analysis.score.win_probability(),
        },
        None => refused("the game is over".into()),
    }
}

/// How many games' engines the worker keeps (the oldest is dropped first): more than a page
/// ever plays at once on one worker.
const KEPT_GAMES: usize = 64;

/// Engines kept for whole games, by the page's key, oldest first.
#[derive(Default)]
pub struct GameEngines {
    engines: std::collections::VecDeque<(u64, Engine)>,
}

impl GameEngines {
    /// Answers `ask` with the engine of its game (made on first sight), or a fresh one.
    pub fn answer(&mut self, ask: &Ask, now: impl Fn() -> f64) -> Answer {
        let Some(key) = ask.game else {
            return answer(ask, now);
        };
        let at = match self.engines.iter().position(|(k, _)| *k == key) {
            Some(at) => at,
            None => {
                if self.engines.len() >= KEPT_GAMES {
                    self.engines.pop_front();
                }
                self.engines
                    .push_back((key, Engine::at_level(ask.level, ask.seed)));
                self.engines.len() - 1
            }
        };
        answer_with(ask, &mut self.engines[at].1, now)
    }
}

/// The worker itself: one answer per request, in order; engines of whole games are kept.
pub struct SoccerWorker {
    games: GameEngines,
}

impl Worker for SoccerWorker {
    type Message = ();
    type Input = Ask;
    type Output = Answer;

    fn create(_scope: &WorkerScope<Self>) -> Self {
        SoccerWorker {
            games: GameEngines::default(),
        }
    }

    fn update(&mut self, _scope: &WorkerScope<Self>, _msg: ()) {}

    fn connected(&mut self, scope: &WorkerScope<Self>, id: HandlerId) {
        scope.respond(id, Answer::Ready);
    }

    fn received(&mut self, scope: &WorkerScope<Self>, ask: Ask, id: HandlerId) {
        scope.respond(id, self.games.answer(&ask, now));
    }
}

/// The worker's clock, in milliseconds: `performance.now()` (finer than `Date.now()`'s whole
/// milliseconds, which would blur the search's speed on short searches).
fn now() -> f64 {
    use wasm_bindgen::JsCast;
    js_sys::global()
        .dyn_into::<web_sys::WorkerGlobalScope>()
        .ok()
        .and_then(|g| g.performance())
        .map_or_else(js_sys::Date::now, |p| p.now())
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
            game: None,
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
        let outcome = game.play_message(turn.as_bytes());
        assert!(
            outcome.is_none_or(|o| o.winner == before.to_move()),
            "{turn}"
        );
    }

    #[test]
    fn a_games_engine_keeps_its_state_as_a_cli_player_does() {
        // Level 0 draws from the engine's generator at every turn: a kept engine plays the
        // turns of one engine made at kick-off (as a CLI player), whatever else the worker
        // answers in between.
        use engine::soccer::Side;
        use engine::soccer::field::Field;
        use engine::soccer::game::Game;
        let field = Field::new(6, 6).unwrap();
        let mut cli = [Engine::new(0, 42), Engine::new(0, 43)];
        let mut games = GameEngines::default();
        let mut game = Game::new(field, Side::Red);
        let mut record = Record::new(field, Side::Red);
        let mut fresh_differs = false;
        while game.outcome().is_none() {
            let side = usize::from(game.to_move() == Side::Blue);
            let expected = cli[side]
                .choose_turn(&game)
                .expect("an open game")
                .to_string();
            let ask = Ask {
                id: record.turns.len() as u64,
                record: record.to_string(),
                level: 0,
                seed: 42 + side as u64,
                game: Some(side as u64),
            };
            let _ = games.answer(
                &Ask {
                    game: Some(99),
                    ..ask.clone()
                },
                || 0.0,
            );
            match games.answer(&ask, || 0.0) {
                Answer::Turn { turn, .. } => assert_eq!(turn, expected, "{record}"),
                other => panic!("{record}: {other:?}"),
            }
            if let Answer::Turn { turn, .. } = answer(&ask, || 0.0) {
                fresh_differs |= turn != expected;
            }
            game.play_message(expected.as_bytes());
            record
                .turns
                .push(engine::soccer::record::RecordTurn::new(expected.as_bytes()));
        }
        assert!(
            fresh_differs,
            "the test needs a game where the state matters"
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
