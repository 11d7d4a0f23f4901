//! Quadrille's game rules and engines.
//!
//! Everything here is pure computation: no files, clocks, sockets or browser APIs. The CLI and
//! the web app are thin shells that feed bytes and events in and act on what comes out, so the
//! same code judges a lap or referees a game natively and in WebAssembly.
//!
//! ```
//! use engine::racetrack::{Circuit, Pos, judge, pilot::Pilot, samples};
//! use engine::soccer::{Side, field::Field, game::Game, search::Engine};
//!
//! // Paper Soccer: the engine picks a turn at kick-off on the contest's 8×10 field; the rules
//! // take it, and the turn passes to blue.
//! let mut game = Game::new(Field::new(8, 10)?, Side::Red);
//! let turn = Engine::new(2, 7).choose_turn(&game).expect("an open game has a turn");
//! assert_eq!(game.play_turn(&turn), None);
//! assert_eq!(game.to_move(), Side::Blue);
//!
//! // Racetrack: the optimal pilot drives a shipped circuit and the judge times its lap.
//! let circuit = Circuit::parse(samples::by_name("ring").expect("a sample").text.as_bytes())?;
//! assert!(circuit.is_track(Pos::new(40, 4)));
//! let lap = Pilot::Optimal.fly(&circuit)?;
//! let verdict = judge::judge_positions(&circuit, lap.positions());
//! assert_eq!(verdict.lap().map(|timed| timed.moves), Some(lap.moves()));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod racetrack;
pub mod rng;
pub mod soccer;
