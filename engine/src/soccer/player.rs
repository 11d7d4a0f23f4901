//! A player's side of the serial protocol as a sans-IO state machine: what a board does.
//!
//! Feed it the bytes read from the referee with [`PlayerSession::handle_input`], take
//! [`PlayerEvent`]s out with [`PlayerSession::poll_event`], answer a
//! [`PlayerEvent::YourTurn`] with [`PlayerSession::send_turn`], and write whatever
//! [`PlayerSession::poll_transmit`] returns. The session knows the protocol, not the rules: the
//! caller keeps the [`super::game::Game`] and chooses turns.
//!
//! It resynchronises on `w` at any time: a new game may begin in the middle of anything,
//! including a game whose end the referee never announces (spec §4).

use std::collections::VecDeque;

use super::field::{Field, FieldError};
use super::protocol::{DecodeError, Decoder, ToPlayer, Turn};
use super::types::Side;

/// What the referee told us about the game about to start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSetup {
    pub width: u8,
    pub length: u8,
    /// The colour we play.
    pub colour: Side,
}

/// Something the caller must know or act on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerEvent {
    /// `w`, `l` and `c` arrived in order with a valid field: forget any game in progress.
    NewGame { width: u8, length: u8, colour: Side },
    /// Our clock is running: `None` means we start the game (`{}`), `Some` carries the
    /// opponent's turn, to be applied before choosing ours.
    YourTurn { opponent_turn: Option<Turn> },
    /// Bytes or a message that made no sense where they came; the session skipped them.
    Ignored(SessionError),
}

/// Why the session skipped something. None of these stop the session.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    #[error(transparent)]
    Decode(#[from] DecodeError),
    /// A well-formed message that does not fit the game's phase (e.g. `l` before `w`, or a
    /// turn while it is already our turn).
    #[error("unexpected {} ending at byte {offset} while {phase}", brief(message))]
    Unexpected {
        message: ToPlayer,
        offset: u64,
        phase: &'static str,
    },
    /// The sizes cannot make a field.
    #[error("no game on a {width}x{length} field: {error}")]
    BadField {
        width: u8,
        length: u8,
        error: FieldError,
    },
}

/// A message in a few words for an error: a turn of up to 65,535 digits is cut to its first
/// 20, so that a message about it stays a line long.
fn brief(message: &ToPlayer) -> String {
    const SHOWN: usize = 20;
    match message {
        ToPlayer::Turn(turn) if turn.digits().len() > SHOWN => format!(
            "turn {{{}…}} of {} digits",
            &turn.as_str()[..SHOWN],
            turn.digits().len()
        ),
        ToPlayer::Turn(turn) => format!("turn {{{turn}}}"),
        ToPlayer::Width(w) => format!("width {w}"),
        ToPlayer::Length(l) => format!("length {l}"),
        ToPlayer::Colour(side) => format!("colour {side}"),
        ToPlayer::Start => "start `{}`".to_string(),
    }
}

/// Why a turn could not be sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("it is not our turn")]
pub struct NotYourTurn;

/// Where the session stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Before the first `w` (or after a broken set-up).
    NoGame,
    /// `w` arrived.
    Width(u8),
    /// `w` and `l` arrived.
    Sizes(u8, u8),
    /// Set up; neither `{}` nor the opponent's first turn has arrived.
    Ready(GameSetup),
    /// Our clock is running.
    OnTurn(GameSetup),
    /// We sent our turn; waiting for the opponent's.
    Waiting(GameSetup),
}

impl Phase {
    fn describe(self) -> &'static str {
        match self {
            Phase::NoGame => "no game is set up",
            Phase::Width(_) => "waiting for the length",
            Phase::Sizes(..) => "waiting for the colour",
            Phase::Ready(_) => "waiting for the first turn",
            Phase::OnTurn(_) => "it is our turn",
            Phase::Waiting(_) => "waiting for the opponent",
        }
    }

    fn setup(self) -> Option<GameSetup> {
        match self {
            Phase::Ready(s) | Phase::OnTurn(s) | Phase::Waiting(s) => Some(s),
            _ => None,
        }
    }
}

/// A player's protocol state machine. See the module documentation.
#[derive(Clone, Debug)]
pub struct PlayerSession {
    decoder: Decoder,
    phase: Phase,
    events: VecDeque<PlayerEvent>,
    transmit: Vec<u8>,
}

impl Default for PlayerSession {
    fn default() -> Self {
        Self::new()
    }
}

impl PlayerSession {
    pub fn new() -> Self {
        Self {
            decoder: Decoder::new(),
            phase: Phase::NoGame,
            events: VecDeque::new(),
            transmit: Vec::new(),
        }
    }

    /// Consumes bytes read from the referee, in any chunking.
    pub fn handle_input(&mut self, bytes: &[u8]) {
        for &b in bytes {
            match self.decoder.push(b) {
                None => {}
                Some(Ok(message)) => self.on_message(message),
                Some(Err(e)) => {
                    // A broken message breaks the set-up it was part of.
                    if matches!(self.phase, Phase::Width(_) | Phase::Sizes(..)) {
                        self.phase = Phase::NoGame;
                    }
                    self.events.push_back(PlayerEvent::Ignored(e.into()));
                }
            }
        }
    }

    fn on_message(&mut self, message: ToPlayer) {
        let next = match (&message, self.phase) {
            (ToPlayer::Width(w), _) => {
                // A new game forgets the old one, including a turn signal of it that the
                // caller has not taken yet (it arrived in the same chunk): answering it now
                // would send the old game's turn into the new one.
                self.events
                    .retain(|e| !matches!(e, PlayerEvent::YourTurn { .. }));
                Some(Phase::Width(*w))
            }
            (ToPlayer::Length(l), Phase::Width(w)) => Some(Phase::Sizes(w, *l)),
            (ToPlayer::Colour(colour), Phase::Sizes(width, length)) => {
                match Field::new(width, length) {
                    Ok(_) => {
                        self.events.push_back(PlayerEvent::NewGame {
                            width,
                            length,
                            colour: *colour,
                        });
                        Some(Phase::Ready(GameSetup {
                            width,
                            length,
                            colour: *colour,
                        }))
                    }
                    Err(error) => {
                        self.phase = Phase::NoGame;
                        self.events
                            .push_back(PlayerEvent::Ignored(SessionError::BadField {
                                width,
                                length,
                                error,
                            }));
                        return;
                    }
                }
            }
            (ToPlayer::Start, Phase::Ready(setup)) => {
                self.events.push_back(PlayerEvent::YourTurn {
                    opponent_turn: None,
                });
                Some(Phase::OnTurn(setup))
            }
            (ToPlayer::Turn(turn), Phase::Ready(setup) | Phase::Waiting(setup)) => {
                self.events.push_back(PlayerEvent::YourTurn {
                    opponent_turn: Some(turn.clone()),
                });
                Some(Phase::OnTurn(setup))
            }
            _ => None,
        };
        match next {
            Some(phase) => self.phase = phase,
            None => {
                let phase = self.phase.describe();
                if matches!(self.phase, Phase::Width(_) | Phase::Sizes(..)) {
                    self.phase = Phase::NoGame;
                }
                self.events
                    .push_back(PlayerEvent::Ignored(SessionError::Unexpected {
                        message,
                        offset: self.decoder.offset() - 1,
                        phase,
                    }));
            }
        }
    }

    /// The next event, oldest first.
    pub fn poll_event(&mut self) -> Option<PlayerEvent> {
        self.events.pop_front()
    }

    /// Queues our turn `{digits}\n`; only while our clock runs.
    pub fn send_turn(&mut self, turn: &Turn) -> Result<(), NotYourTurn> {
        match self.phase {
            Phase::OnTurn(setup) => {
                turn.encode(&mut self.transmit);
                self.phase = Phase::Waiting(setup);
                Ok(())
            }
            _ => Err(NotYourTurn),
        }
    }

    /// Bytes to write to the referee, if any (all of them at once).
    pub fn poll_transmit(&mut self) -> Option<Vec<u8>> {
        (!self.transmit.is_empty()).then(|| std::mem::take(&mut self.transmit))
    }

    /// The game being played, once set up.
    pub fn setup(&self) -> Option<GameSetup> {
        self.phase.setup()
    }

    /// Whether we owe the referee a turn.
    pub fn is_on_turn(&self) -> bool {
        matches!(self.phase, Phase::OnTurn(_))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(s: &mut PlayerSession) -> Vec<PlayerEvent> {
        std::iter::from_fn(|| s.poll_event()).collect()
    }

    #[test]
    fn a_game_as_blue_then_a_new_game_mid_turn() {
        let mut s = PlayerSession::new();
        s.handle_input(b"w\n");
        s.handle_input(b"\nl\x0c\ncb");
        assert_eq!(events(&mut s), vec![]);
        s.handle_input(b"\n{35}\n");
        assert_eq!(
            events(&mut s),
            vec![
                PlayerEvent::NewGame {
                    width: 10,
                    length: 12,
                    colour: Side::Blue
                },
                PlayerEvent::YourTurn {
                    opponent_turn: Some(Turn::new(b"35").unwrap())
                }
            ]
        );
        assert!(s.is_on_turn());
        assert_eq!(s.poll_transmit(), None);
        s.send_turn(&Turn::new(b"1").unwrap()).unwrap();
        assert_eq!(s.send_turn(&Turn::new(b"1").unwrap()), Err(NotYourTurn));
        assert_eq!(s.poll_transmit(), Some(b"{1}\n".to_vec()));
        // The game ended silently; a new one starts, and this time we start.
        s.handle_input(b"w\x08\nl\x0a\ncr\n{}\n");
        assert_eq!(
            events(&mut s),
            vec![
                PlayerEvent::NewGame {
                    width: 8,
                    length: 10,
                    colour: Side::Red
                },
                PlayerEvent::YourTurn {
                    opponent_turn: None
                }
            ]
        );
    }

    #[test]
    fn a_new_game_in_the_same_chunk_drops_the_old_games_turn_signal() {
        // The opponent's turn of the old game, then a new game that we start, read at once:
        // the caller must not answer the old game's turn in the new game.
        let mut s = PlayerSession::new();
        s.handle_input(b"w\x08\nl\x0a\ncb\n{4}\nw\x08\nl\x0a\ncr\n{}\n");
        let setup = |colour| PlayerEvent::NewGame {
            width: 8,
            length: 10,
            colour,
        };
        assert_eq!(
            events(&mut s),
            vec![
                setup(Side::Blue),
                setup(Side::Red),
                PlayerEvent::YourTurn {
                    opponent_turn: None
                }
            ]
        );
        assert!(s.is_on_turn());
    }

    #[test]
    fn out_of_order_and_invalid_set_ups_are_skipped() {
        let mut s = PlayerSession::new();
        s.handle_input(b"l\x08\n{}\n");
        let ev = events(&mut s);
        assert_eq!(ev.len(), 2);
        assert!(
            ev.iter()
                .all(|e| matches!(e, PlayerEvent::Ignored(SessionError::Unexpected { .. })))
        );
        s.handle_input(b"w\x07\nl\x08\ncr\n");
        assert!(matches!(
            events(&mut s)[..],
            [PlayerEvent::Ignored(SessionError::BadField {
                width: 7,
                ..
            })]
        ));
        assert_eq!(s.setup(), None);
    }
}
