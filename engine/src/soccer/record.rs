//! Game records: the one-line form of spec §5, `<W>x<L> <starter>: <turn>/<turn>/…`, optionally
//! followed by ` # <winner> <reason>`.
//!
//! # The exact form
//!
//! ```text
//! 8x10 red: 3/0/4452                 three turns
//! 8x10 red: 3/0/4452 # red goal      … with the referee's verdict
//! 8x10 red:                          no turn yet (written with one trailing space: `8x10 red: `)
//! 8x10 blue: # red disconnect        no turn, with a verdict
//! 8x10 red: {}                       one empty turn (the message `{}`)
//! 8x10 red: 3//4                     an empty second turn: an empty string between slashes
//! ```
//!
//! **Decisions.** A record with no turn is written `<W>x<L> <starter>: ` (trailing space) and
//! parsed with or without that space. Because an empty list and a list of one empty turn would
//! otherwise look the same, a lone empty turn is written `{}`; the parser accepts `{}` for an
//! empty turn anywhere. One trailing line ending (`\n` or `\r\n`) is accepted; anything else out
//! of place is an error naming its 1-based byte column (and the turn, inside the turns).
//!
//! Replaying ([`Record::replay`]) judges the moves. A verdict suffix is checked against them:
//! when the moves end the game it must say the same. When they leave it open, the suffix can
//! only be a verdict given on the wire: `disconnect` (either side), or a fault of the player to
//! move that left no turn in the record (`timeout`, or a protocol fault such as a second `{`,
//! written as `illegal_step`, `incomplete_turn` or `after_end`), won by the opponent. `goal`,
//! `own_goal` and `stuck` always show in the moves. The returned game is then left unfinished,
//! because the moves cannot show the verdict.

use std::fmt;

use thiserror::Error;

use super::field::{Field, FieldError};
use super::game::Game;
use super::types::{Outcome, Reason, Side};

/// The protocol's limit on the digits of one turn (spec §4).
pub use super::protocol::MAX_DIGITS as MAX_TURN_DIGITS;

/// A game as written in a record. Fields are public so a referee can build one turn by turn;
/// [`Record::replay`] validates everything.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Record {
    pub width: u8,
    pub length: u8,
    pub starter: Side,
    /// The payload of each turn in order (digits `b'0'..=b'7'`), starting with the starter's.
    pub turns: Vec<Vec<u8>>,
    /// The verdict suffix, if the record has one.
    pub result: Option<Outcome>,
}

/// A record that cannot be parsed, with the 1-based byte column of the problem.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("column {column}: {kind}")]
pub struct RecordError {
    pub column: usize,
    pub kind: RecordErrorKind,
}

/// What is wrong at [`RecordError::column`].
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RecordErrorKind {
    #[error("expected the field size as `<W>x<L>`, e.g. `8x10`")]
    Size,
    #[error("{0}")]
    Field(FieldError),
    #[error("expected a space, then `red` or `blue`, then `:`")]
    Starter,
    #[error("expected a space after `:`")]
    SpaceAfterColon,
    #[error("turn {turn}: {found:?} is not a step digit 0-7")]
    NotADigit { turn: usize, found: char },
    #[error("turn {turn}: more than {MAX_TURN_DIGITS} digits")]
    TurnTooLong { turn: usize },
    #[error("expected a space before `#`")]
    SpaceBeforeHash,
    #[error("expected ` <winner> <reason>` after `#`, e.g. `# red goal`")]
    Verdict,
    #[error("unknown reason {0:?}")]
    UnknownReason(String),
}

/// A record whose moves contradict it.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ReplayError {
    #[error("{0}")]
    Field(FieldError),
    #[error("the game ended at turn {ended} ({outcome}) but the record has {turns} turns")]
    TurnsAfterEnd {
        ended: usize,
        outcome: Outcome,
        turns: usize,
    },
    #[error("the record says `{claimed}` but the moves show {}", shown.map_or("an unfinished game".to_string(), |o| format!("`{o}`")))]
    ResultMismatch {
        claimed: Outcome,
        shown: Option<Outcome>,
    },
}

fn err(column: usize, kind: RecordErrorKind) -> RecordError {
    RecordError { column, kind }
}

/// Parses an even size 1..=3 digits at `at`, returning it and the index after it.
fn parse_size(bytes: &[u8], at: usize) -> Result<(u8, usize), RecordError> {
    let digits = bytes[at..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    if digits == 0 || digits > 3 {
        return Err(err(at + 1, RecordErrorKind::Size));
    }
    let text = std::str::from_utf8(&bytes[at..at + digits]).expect("ASCII digits");
    let value: u16 = text.parse().expect("at most three digits");
    let value = u8::try_from(value).map_err(|_| err(at + 1, RecordErrorKind::Size))?;
    Ok((value, at + digits))
}

impl Record {
    /// A record of a game not yet started.
    pub fn new(field: Field, starter: Side) -> Record {
        Record {
            width: field.width(),
            length: field.length(),
            starter,
            turns: Vec::new(),
            result: None,
        }
    }

    /// Parses the one-line form (see the module docs).
    pub fn parse(s: &str) -> Result<Record, RecordError> {
        let s = s
            .strip_suffix("\r\n")
            .or_else(|| s.strip_suffix('\n'))
            .unwrap_or(s);
        let bytes = s.as_bytes();
        let (width, at) = parse_size(bytes, 0)?;
        if bytes.get(at) != Some(&b'x') {
            return Err(err(at + 1, RecordErrorKind::Size));
        }
        let (length, at) = parse_size(bytes, at + 1)?;
        Field::new(width, length).map_err(|e| err(1, RecordErrorKind::Field(e)))?;
        let rest = &s[at..];
        let (starter, after) = if let Some(r) = rest.strip_prefix(" red:") {
            (Side::Red, r)
        } else if let Some(r) = rest.strip_prefix(" blue:") {
            (Side::Blue, r)
        } else {
            return Err(err(at + 1, RecordErrorKind::Starter));
        };
        let mut at = s.len() - after.len();
        let mut record = Record {
            width,
            length,
            starter,
            turns: Vec::new(),
            result: None,
        };
        if after.is_empty() {
            return Ok(record);
        }
        let Some(after) = after.strip_prefix(' ') else {
            return Err(err(at + 1, RecordErrorKind::SpaceAfterColon));
        };
        at += 1;
        let (turns_text, verdict) = match after.find('#') {
            None => (after, None),
            Some(k) => {
                let before = &after[..k];
                let turns_text = if before.is_empty() {
                    before
                } else {
                    before
                        .strip_suffix(' ')
                        .ok_or_else(|| err(at + k + 1, RecordErrorKind::SpaceBeforeHash))?
                };
                (turns_text, Some((at + k + 1, &after[k + 1..])))
            }
        };
        record.turns = parse_turns(turns_text, at)?;
        if let Some((hash_at, text)) = verdict {
            record.result = Some(parse_verdict(text, hash_at)?);
        }
        Ok(record)
    }

    /// The field of this record.
    pub fn field(&self) -> Result<Field, FieldError> {
        Field::new(self.width, self.length)
    }

    /// Plays the turns from the kick-off and checks the verdict suffix (see the module docs).
    /// The game returned is the position after the last turn.
    pub fn replay(&self) -> Result<Game, ReplayError> {
        let field = self.field().map_err(ReplayError::Field)?;
        let mut game = Game::new(field, self.starter);
        for (i, turn) in self.turns.iter().enumerate() {
            if let Some(outcome) = game.play_turn(turn)
                && i + 1 < self.turns.len()
            {
                return Err(ReplayError::TurnsAfterEnd {
                    ended: i + 1,
                    outcome,
                    turns: self.turns.len(),
                });
            }
        }
        if let Some(claimed) = self.result {
            let shown = game.outcome();
            let consistent = match shown {
                Some(outcome) => outcome == claimed,
                None => match claimed.reason {
                    Reason::Goal | Reason::OwnGoal | Reason::Stuck => false,
                    Reason::Disconnect => true,
                    Reason::Timeout
                    | Reason::IllegalStep
                    | Reason::IncompleteTurn
                    | Reason::AfterEnd => claimed.winner == game.to_move().opponent(),
                },
            };
            if !consistent {
                return Err(ReplayError::ResultMismatch { claimed, shown });
            }
        }
        Ok(game)
    }
}

/// Parses the turns part (`text` starts at byte index `at` of the line).
fn parse_turns(text: &str, at: usize) -> Result<Vec<Vec<u8>>, RecordError> {
    if text.is_empty() {
        return Ok(Vec::new());
    }
    let mut turns = Vec::new();
    let mut start = at;
    for (i, piece) in text.split('/').enumerate() {
        let turn = i + 1;
        if piece == "{}" {
            turns.push(Vec::new());
        } else {
            if let Some((k, c)) = piece
                .char_indices()
                .find(|&(_, c)| !('0'..='7').contains(&c))
            {
                return Err(err(
                    start + k + 1,
                    RecordErrorKind::NotADigit { turn, found: c },
                ));
            }
            if piece.len() > MAX_TURN_DIGITS {
                return Err(err(
                    start + MAX_TURN_DIGITS + 1,
                    RecordErrorKind::TurnTooLong { turn },
                ));
            }
            turns.push(piece.as_bytes().to_vec());
        }
        start += piece.len() + 1;
    }
    Ok(turns)
}

/// Parses ` <winner> <reason>` (`text` starts at byte index `at` of the line).
fn parse_verdict(text: &str, at: usize) -> Result<Outcome, RecordError> {
    let verdict = || err(at + 1, RecordErrorKind::Verdict);
    let text = text.strip_prefix(' ').ok_or_else(verdict)?;
    let (winner, reason) = text.split_once(' ').ok_or_else(verdict)?;
    let winner = match winner {
        "red" => Side::Red,
        "blue" => Side::Blue,
        _ => return Err(verdict()),
    };
    let reason_at = at + 1 + winner.name().len() + 1;
    let reason = Reason::from_name(reason)
        .ok_or_else(|| err(reason_at + 1, RecordErrorKind::UnknownReason(reason.into())))?;
    Ok(Outcome { winner, reason })
}

impl fmt::Display for Record {
    /// The canonical one-line form (see the module docs), without a line ending.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{} {}:", self.width, self.length, self.starter)?;
        match self.turns.as_slice() {
            [] => {}
            [only] if only.is_empty() => f.write_str(" {}")?,
            turns => {
                for (i, turn) in turns.iter().enumerate() {
                    f.write_str(if i == 0 { " " } else { "/" })?;
                    f.write_str(&String::from_utf8_lossy(turn))?;
                }
            }
        }
        match self.result {
            Some(outcome) => write!(f, " # {outcome}"),
            None if self.turns.is_empty() => f.write_str(" "),
            None => Ok(()),
        }
    }
}

impl std::str::FromStr for Record {
    type Err = RecordError;

    fn from_str(s: &str) -> Result<Record, RecordError> {
        Record::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(s: &str) -> Record {
        Record::parse(s).unwrap_or_else(|e| panic!("{s:?}: {e}"))
    }

    #[test]
    fn parses_the_spec_examples() {
        let r = rec("8x10 red: 3/0/4452");
        assert_eq!((r.width, r.length, r.starter), (8, 10, Side::Red));
        assert_eq!(
            r.turns,
            vec![b"3".to_vec(), b"0".to_vec(), b"4452".to_vec()]
        );
        assert_eq!(r.result, None);
        let r = rec("8x10 red: 3/0/4452 # red goal");
        assert_eq!(
            r.result,
            Some(Outcome {
                winner: Side::Red,
                reason: Reason::Goal
            })
        );
    }

    #[test]
    fn empty_games_and_empty_turns() {
        for s in ["8x10 red:", "8x10 red: ", "8x10 red:\n", "8x10 red: \r\n"] {
            assert!(rec(s).turns.is_empty(), "{s:?}");
        }
        assert_eq!(rec("8x10 red:").to_string(), "8x10 red: ");
        assert_eq!(rec("8x10 red: {}").turns, vec![Vec::<u8>::new()]);
        assert_eq!(rec("8x10 red: {}").to_string(), "8x10 red: {}");
        assert_eq!(rec("8x10 red: 3//4").turns.len(), 3);
        assert_eq!(rec("8x10 red: /").turns, vec![Vec::<u8>::new(); 2]);
        assert_eq!(rec("8x10 red: 3/{}").to_string(), "8x10 red: 3/");
        let r = rec("8x10 blue: # red disconnect");
        assert!(r.turns.is_empty());
        assert_eq!(r.to_string(), "8x10 blue: # red disconnect");
    }

    #[test]
    fn errors_name_the_column_and_turn() {
        let e = |s: &str| Record::parse(s).unwrap_err();
        assert_eq!(e("").column, 1);
        assert_eq!(e("8y10 red:").column, 2);
        assert_eq!(
            e("9x10 red:").kind,
            RecordErrorKind::Field(FieldError::Width(9))
        );
        assert_eq!(e("8x300 red:").kind, RecordErrorKind::Size);
        assert_eq!(e("8x10 green:").column, 5);
        assert_eq!(e("8x10 red:3").kind, RecordErrorKind::SpaceAfterColon);
        assert_eq!(
            e("8x10 red: 3/0/4482"),
            RecordError {
                column: 17,
                kind: RecordErrorKind::NotADigit {
                    turn: 3,
                    found: '8'
                }
            }
        );
        assert_eq!(
            e("8x10 red: 3# red goal").kind,
            RecordErrorKind::SpaceBeforeHash
        );
        assert_eq!(e("8x10 red: 3 # red").kind, RecordErrorKind::Verdict);
        assert_eq!(
            e("8x10 red: 3 # red draw"),
            RecordError {
                column: 19,
                kind: RecordErrorKind::UnknownReason("draw".into())
            }
        );
    }

    #[test]
    fn replay_checks_turns_after_the_end_and_the_verdict() {
        let g = rec("8x10 red: 3/4/4").replay().unwrap();
        assert_eq!(g.turn_number(), 3);
        assert_eq!(g.ball(), crate::soccer::Point::new(5, 8));
        // The spec's format example is not a legal game: blue's `0` stops on the centre line.
        assert!(matches!(
            rec("8x10 red: 3/0/4452").replay(),
            Err(ReplayError::TurnsAfterEnd {
                ended: 2,
                turns: 3,
                ..
            })
        ));
        assert!(g.outcome().is_none());
        assert!(matches!(
            rec("8x10 red: 44/3").replay(),
            Err(ReplayError::TurnsAfterEnd {
                ended: 1,
                turns: 2,
                ..
            })
        ));
        assert!(rec("8x10 red: 44 # blue after_end").replay().is_ok());
        assert!(matches!(
            rec("8x10 red: 44 # red goal").replay(),
            Err(ReplayError::ResultMismatch { .. })
        ));
        // Red is to move after two turns: only red can time out.
        assert!(rec("8x10 red: 3/4 # blue timeout").replay().is_ok());
        assert!(rec("8x10 red: 3/4 # red timeout").replay().is_err());
        assert!(rec("8x10 red: 3/4 # red disconnect").replay().is_ok());
        assert!(rec("8x10 red: 3/4 # red goal").replay().is_err());
        assert!(rec("8x10 red: 3/4 # blue stuck").replay().is_err());
        // A protocol fault by red (to move) that left no turn in the record.
        assert!(rec("8x10 red: 3/4 # blue illegal_step").replay().is_ok());
        assert!(rec("8x10 red: 3/4 # red illegal_step").replay().is_err());
    }

    #[test]
    fn a_turn_longer_than_the_protocol_allows_is_refused() {
        let long = format!("8x10 red: 3/{}", "0".repeat(MAX_TURN_DIGITS + 1));
        assert_eq!(
            Record::parse(&long).unwrap_err(),
            RecordError {
                column: 13 + MAX_TURN_DIGITS,
                kind: RecordErrorKind::TurnTooLong { turn: 2 }
            }
        );
        let fits = format!("8x10 red: {}", "0".repeat(MAX_TURN_DIGITS));
        assert_eq!(rec(&fits).turns[0].len(), MAX_TURN_DIGITS);
    }
}
