//! A whole player on the wire, sans-IO: bytes from the referee in, our turns' bytes out.
//!
//! [`PlayerSession`] knows the protocol and not the rules; [`WirePlayer`] adds the rest of what
//! a board does — it follows the [`Game`] the referee sets up and answers every turn signal with
//! a turn from its [`ChooseTurn`] (the engine's search, a random walk, a closure). The same
//! player serves the engine as a board on a serial port, the referee's in-process engines, test
//! bots and the example WebAssembly bot; each of them only moves bytes.

use std::collections::VecDeque;
use std::fmt;

use super::field::Field;
use super::game::Game;
use super::player::{GameSetup, PlayerEvent, PlayerSession, SessionError};
use super::protocol::Turn;
use super::search::Engine;
use super::types::Outcome;

/// Whatever picks our turn in a position where we are to move.
pub trait ChooseTurn {
    /// A legal complete turn for the player to move in `game`, or `None` when there is none.
    fn choose_turn(&mut self, game: &Game) -> Option<Turn>;
}

impl ChooseTurn for Engine {
    fn choose_turn(&mut self, game: &Game) -> Option<Turn> {
        Engine::choose_turn(self, game)
    }
}

impl<F: FnMut(&Game) -> Option<Turn>> ChooseTurn for F {
    fn choose_turn(&mut self, game: &Game) -> Option<Turn> {
        self(game)
    }
}

/// What happened on the wire that the player's host may want to know or log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WireNote {
    /// The referee set up a new game (any game in progress is forgotten).
    NewGame(GameSetup),
    /// The opponent's turn ended the game, so there is nothing to answer.
    OpponentEnded {
        turn: Turn,
        outcome: Outcome,
        /// The number of the opponent's turn.
        turn_number: usize,
    },
    /// Our turn ended the game (the referee may not say so: a new game simply begins).
    OwnEnded {
        turn: Turn,
        outcome: Outcome,
        /// The number of our turn.
        turn_number: usize,
    },
    /// A turn signal came when the game (as we follow it) has the opponent to move or is over.
    OutOfTurn,
    /// Our chooser had no turn to give.
    NoTurn,
    /// The session skipped bytes or a message.
    Ignored(SessionError),
}

impl fmt::Display for WireNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WireNote::NewGame(s) => {
                write!(f, "a new game on {}x{} as {}", s.width, s.length, s.colour)
            }
            WireNote::OpponentEnded {
                turn,
                outcome,
                turn_number,
            } => write!(
                f,
                "the opponent's turn {turn} ended the game: {}",
                outcome.describe(*turn_number)
            ),
            WireNote::OwnEnded {
                turn,
                outcome,
                turn_number,
            } => write!(
                f,
                "our turn {turn} ended the game: {}",
                outcome.describe(*turn_number)
            ),
            WireNote::OutOfTurn => f.write_str("asked to play out of turn"),
            WireNote::NoTurn => write!(
                f,
                "the engine found no turn to send: {}",
                super::protocol::TurnError::Empty
            ),
            WireNote::Ignored(e) => write!(f, "skipped: {e}"),
        }
    }
}

/// A player that answers the referee by itself. See the module documentation.
///
/// Feed it what the referee sent with [`WirePlayer::handle_input`]; it chooses at once, so
/// [`WirePlayer::poll_transmit`] then holds our turn, if one was due. [`WirePlayer::poll_note`]
/// tells what happened besides.
#[derive(Clone, Debug)]
pub struct WirePlayer<C> {
    chooser: C,
    session: PlayerSession,
    /// The field and our colour of the game set up last.
    setup: Option<(Field, GameSetup)>,
    /// The game, from our first turn signal on (it tells who started).
    game: Option<Game>,
    notes: VecDeque<WireNote>,
}

impl<C: ChooseTurn> WirePlayer<C> {
    pub fn new(chooser: C) -> WirePlayer<C> {
        WirePlayer {
            chooser,
            session: PlayerSession::new(),
            setup: None,
            game: None,
            notes: VecDeque::new(),
        }
    }

    /// Consumes bytes read from the referee, in any chunking, and answers every turn signal.
    pub fn handle_input(&mut self, bytes: &[u8]) {
        self.session.handle_input(bytes);
        while let Some(event) = self.session.poll_event() {
            match event {
                PlayerEvent::NewGame {
                    width,
                    length,
                    colour,
                } => {
                    let setup = GameSetup {
                        width,
                        length,
                        colour,
                    };
                    self.game = None;
                    // The session only announces fields that exist.
                    self.setup = Field::new(width, length).ok().map(|f| (f, setup));
                    self.notes.push_back(WireNote::NewGame(setup));
                }
                PlayerEvent::YourTurn { opponent_turn } => {
                    // The session signalled our turn, and only a new game (which drops the
                    // signal) ends it, so sending cannot fail; were it to, say so.
                    if let Some(turn) = self.answer(opponent_turn)
                        && self.session.send_turn(&turn).is_err()
                    {
                        self.notes.push_back(WireNote::OutOfTurn);
                    }
                }
                PlayerEvent::Ignored(e) => self.notes.push_back(WireNote::Ignored(e)),
            }
        }
    }

    /// Follows the game through the opponent's turn (if any) and chooses ours.
    fn answer(&mut self, opponent_turn: Option<Turn>) -> Option<Turn> {
        let (field, setup) = self.setup?;
        let colour = setup.colour;
        let game = self.game.get_or_insert_with(|| {
            let starter = match opponent_turn {
                None => colour,
                Some(_) => colour.opponent(),
            };
            Game::new(field, starter)
        });
        if let Some(turn) = opponent_turn
            && let Some(outcome) = game.play_turn(&turn)
        {
            let turn_number = game.turn_number();
            self.notes.push_back(WireNote::OpponentEnded {
                turn,
                outcome,
                turn_number,
            });
            return None;
        }
        if game.to_move() != colour || game.outcome().is_some() {
            self.notes.push_back(WireNote::OutOfTurn);
            return None;
        }
        let Some(turn) = self.chooser.choose_turn(game) else {
            self.notes.push_back(WireNote::NoTurn);
            return None;
        };
        if let Some(outcome) = game.play_turn(&turn) {
            self.notes.push_back(WireNote::OwnEnded {
                turn: turn.clone(),
                outcome,
                turn_number: game.turn_number(),
            });
        }
        Some(turn)
    }

    /// Bytes to write to the referee, if any (all of them at once).
    pub fn poll_transmit(&mut self) -> Option<Vec<u8>> {
        self.session.poll_transmit()
    }

    /// The next note, oldest first.
    pub fn poll_note(&mut self) -> Option<WireNote> {
        self.notes.pop_front()
    }

    /// The game being played, from our first turn signal in it on.
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// What chooses our turns.
    pub fn chooser_mut(&mut self) -> &mut C {
        &mut self.chooser
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::soccer::types::Side;

    fn notes<C: ChooseTurn>(p: &mut WirePlayer<C>) -> Vec<WireNote> {
        std::iter::from_fn(|| p.poll_note()).collect()
    }

    #[test]
    fn answers_the_start_and_every_opponent_turn_with_its_choice() {
        let mut chosen = Vec::new();
        let mut p = WirePlayer::new(|game: &Game| {
            let turn = game.legal_turns().next();
            chosen.extend(turn.clone());
            turn
        });
        p.handle_input(b"w\x08\nl\x0a\ncr\n");
        assert_eq!(p.poll_transmit(), None);
        p.handle_input(b"{}\n");
        let first = p.poll_transmit().expect("our first turn");
        assert_eq!(p.game().unwrap().starter(), Side::Red);
        // The opponent answers with its own first legal turn; we follow and answer again.
        let reply = p.game().unwrap().legal_turns().next().unwrap();
        p.handle_input(format!("{{{reply}}}\n").as_bytes());
        let second = p.poll_transmit().expect("our second turn");
        assert_eq!(p.game().unwrap().turn_number(), 3);
        assert_eq!(
            notes(&mut p),
            vec![WireNote::NewGame(GameSetup {
                width: 8,
                length: 10,
                colour: Side::Red
            })]
        );
        drop(p);
        assert_eq!(chosen.len(), 2);
        assert_eq!(first, format!("{{{}}}\n", chosen[0]).into_bytes());
        assert_eq!(second, format!("{{{}}}\n", chosen[1]).into_bytes());
    }

    #[test]
    fn as_second_player_it_starts_its_game_from_the_opponents_turn() {
        let mut p = WirePlayer::new(Engine::new(0, 7));
        p.handle_input(b"w\x08\nl\x0a\ncb\n{4}\n");
        assert!(p.poll_transmit().is_some());
        let game = p.game().unwrap();
        assert_eq!(game.starter(), Side::Red);
        assert_eq!(game.turns()[0].digits(), b"4");
        assert_eq!(game.to_move(), Side::Red);
    }

    #[test]
    fn nonsense_and_an_empty_chooser_are_noted_not_answered() {
        // A start signal before any set-up, then a game whose chooser gives up.
        let mut p = WirePlayer::new(|_: &Game| None);
        p.handle_input(b"{}\nw\x08\nl\x0a\ncr\n{}\n");
        assert_eq!(p.poll_transmit(), None);
        let n = notes(&mut p);
        assert!(matches!(n[0], WireNote::Ignored(_)), "{n:?}");
        assert!(matches!(n[1], WireNote::NewGame(_)), "{n:?}");
        assert_eq!(n[2], WireNote::NoTurn);
        assert_eq!(
            n[2].to_string(),
            "the engine found no turn to send: a turn needs at least one step"
        );
    }

    #[test]
    fn an_opponent_turn_that_ends_the_game_is_not_answered() {
        // We are blue; red's first step from the centre ends its turn, so its second digit is
        // a step after the end: a fault, and the game is over.
        let mut p = WirePlayer::new(Engine::new(0, 1));
        p.handle_input(b"w\x08\nl\x0a\ncb\n{00}\n");
        assert_eq!(p.poll_transmit(), None);
        let n = notes(&mut p);
        assert!(
            matches!(
                n.last(),
                Some(WireNote::OpponentEnded { turn_number: 1, .. })
            ),
            "{n:?}"
        );
    }

    #[test]
    fn our_turn_that_ends_the_game_is_sent_and_noted() {
        // 2x2, red starts: 3 bounces off the side, 5 walks into blue's goal.
        let mut p = WirePlayer::new(|_: &Game| Turn::new(b"35").ok());
        p.handle_input(b"w\x02\nl\x02\ncr\n{}\n");
        assert_eq!(p.poll_transmit(), Some(b"{35}\n".to_vec()));
        let n = notes(&mut p);
        assert_eq!(
            n.last(),
            Some(&WireNote::OwnEnded {
                turn: Turn::new(b"35").unwrap(),
                outcome: Outcome {
                    winner: Side::Red,
                    reason: crate::soccer::types::Reason::Goal
                },
                turn_number: 1
            }),
            "{n:?}"
        );
    }
}
