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
use super::protocol::Turn;
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
    /// Each turn in order as it was sent, starting with the starter's.
    pub turns: Vec<RecordTurn>,
    /// The verdict suffix, if the record has one.
    pub result: Option<Outcome>,
}

/// One turn as a record holds it: the payload of a `{…}` message, exactly as it was judged.
///
/// Most payloads are [`Turn`]s, legal by the rules or not (a replay judges them). A record must
/// also keep the payloads that ended a game and that no `Turn` can hold: the empty message `{}`
/// (an incomplete turn) and, from callers that skip the protocol's byte filter (a page that
/// plays what a player typed), bytes other than the digits `0`–`7`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RecordTurn {
    /// 1 to [`MAX_TURN_DIGITS`] digits `0`–`7`: a turn the wire can carry.
    Turn(Turn),
    /// Anything else: always a fault of the player who sent it.
    Faulty(FaultyPayload),
}

/// A payload that is not a [`Turn`] (empty, too long, or with bytes other than `0`–`7`). Only
/// [`RecordTurn::new`] makes one, so that one payload has one form.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FaultyPayload(Vec<u8>);

impl FaultyPayload {
    /// The bytes as they were sent.
    pub fn bytes(&self) -> &[u8] {
        &self.0
    }
}

impl RecordTurn {
    /// The turn a payload is: a [`Turn`] when it can be one, faulty otherwise.
    pub fn new(payload: &[u8]) -> RecordTurn {
        match Turn::new(payload) {
            Ok(turn) => RecordTurn::Turn(turn),
            Err(_) => RecordTurn::Faulty(FaultyPayload(payload.to_vec())),
        }
    }

    /// The payload as sent, e.g. `b"4452"`, or `b""` for `{}`.
    pub fn payload(&self) -> &[u8] {
        match self {
            RecordTurn::Turn(turn) => turn.digits(),
            RecordTurn::Faulty(faulty) => faulty.bytes(),
        }
    }

    /// The turn, unless the payload is faulty.
    pub fn turn(&self) -> Option<&Turn> {
        match self {
            RecordTurn::Turn(turn) => Some(turn),
            RecordTurn::Faulty(_) => None,
        }
    }
}

impl From<Turn> for RecordTurn {
    fn from(turn: Turn) -> RecordTurn {
        RecordTurn::Turn(turn)
    }
}

impl fmt::Display for RecordTurn {
    /// The payload as it stands between slashes in a record (bytes that are not UTF-8 shown
    /// as `U+FFFD`); empty for `{}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&String::from_utf8_lossy(self.payload()))
    }
}

/// A record that cannot be parsed: where (the 1-based byte column, and the turn inside the
/// turns), what, and a short quote of the input around that place, so that a message about a
/// 50 MB record stays a line long.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("column {column}: {kind} (near `{near}`)")]
pub struct RecordError {
    pub column: usize,
    pub kind: RecordErrorKind,
    /// At most [`QUOTE_CHARS`] characters of the input around `column` (escaped, `…` where
    /// cut), starting up to half of that before it.
    pub near: String,
}

/// How many characters of the input a [`RecordError`] quotes.
pub const QUOTE_CHARS: usize = 60;

/// What is wrong at [`RecordError::column`].
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RecordErrorKind {
    #[error("the record is not UTF-8 text (byte {byte:#04x})")]
    NotUtf8 { byte: u8 },
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
    /// The word as written, cut to a few characters.
    #[error("unknown reason `{0}`")]
    UnknownReason(String),
}

/// A record whose moves contradict it.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ReplayError {
    #[error("{0}")]
    Field(FieldError),
    #[error("{}, but the record goes on to turn {turns}", outcome.describe(*ended))]
    TurnsAfterEnd {
        ended: usize,
        outcome: Outcome,
        turns: usize,
    },
    #[error("the record says `{claimed}`, but {}", match shown {
        Some(o) => format!("the moves show that {}", o.describe(*turns)),
        None => format!("the moves leave the game open after turn {turns}, {to_move} to move"),
    })]
    ResultMismatch {
        claimed: Outcome,
        /// What the moves show, ended during turn `turns`.
        shown: Option<Outcome>,
        /// Turns in the record.
        turns: usize,
        /// Who is to move when the moves leave the game open.
        to_move: Side,
    },
}

/// At most [`QUOTE_CHARS`] characters of `line` around the 0-based byte `at`, escaped.
fn quote(line: &[u8], at: usize) -> String {
    let at = at.min(line.len());
    let is_start = |i: usize| i >= line.len() || line[i] & 0xC0 != 0x80;
    let mut from = at.saturating_sub(QUOTE_CHARS / 2);
    while !is_start(from) {
        from += 1;
    }
    let mut text = String::new();
    if from > 0 {
        text.push('…');
    }
    let rest = String::from_utf8_lossy(&line[from..line.len().min(from + 4 * QUOTE_CHARS)]);
    let mut chars = rest.chars();
    for c in chars.by_ref().take(QUOTE_CHARS) {
        text.extend(c.escape_debug());
    }
    if chars.next().is_some() || from + 4 * QUOTE_CHARS < line.len() {
        text.push('…');
    }
    text
}

fn err(line: &[u8], column: usize, kind: RecordErrorKind) -> RecordError {
    RecordError {
        column,
        kind,
        near: quote(line, column.saturating_sub(1)),
    }
}

/// Parses a size, a run of decimal digits at `at`, returning it and the index after it.
/// Any number of digits is read, so that 256 or 1000 is reported as a size out of range, like
/// 255 (values beyond `u32` saturate).
fn parse_size(bytes: &[u8], at: usize) -> Result<(u32, usize), RecordError> {
    let digits = bytes[at..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    if digits == 0 {
        return Err(err(bytes, at + 1, RecordErrorKind::Size));
    }
    let value = bytes[at..at + digits].iter().fold(0u32, |v, d| {
        v.saturating_mul(10).saturating_add(u32::from(d - b'0'))
    });
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
        Record::parse_bytes(s.as_bytes())
    }

    /// Parses the one-line form from raw bytes, as read from a file, a pipe or a wire: never
    /// panics, whatever the bytes; bytes that are not UTF-8 are an error naming their column.
    pub fn parse_bytes(line: &[u8]) -> Result<Record, RecordError> {
        let line = line
            .strip_suffix(b"\r\n")
            .or_else(|| line.strip_suffix(b"\n"))
            .unwrap_or(line);
        let s = match std::str::from_utf8(line) {
            Ok(s) => s,
            Err(e) => {
                let at = e.valid_up_to();
                return Err(err(
                    line,
                    at + 1,
                    RecordErrorKind::NotUtf8 { byte: line[at] },
                ));
            }
        };
        let bytes = s.as_bytes();
        let (width, at) = parse_size(bytes, 0)?;
        if bytes.get(at) != Some(&b'x') {
            return Err(err(bytes, at + 1, RecordErrorKind::Size));
        }
        let (length, at) = parse_size(bytes, at + 1)?;
        let field = Field::from_sizes(width, length).map_err(|e| {
            let column = match e {
                FieldError::Width(_) => 1,
                FieldError::Length(_) => s.find('x').map_or(1, |x| x + 2),
            };
            err(bytes, column, RecordErrorKind::Field(e))
        })?;
        let (width, length) = (field.width(), field.length());
        let rest = &s[at..];
        let (starter, after) = if let Some(r) = rest.strip_prefix(" red:") {
            (Side::Red, r)
        } else if let Some(r) = rest.strip_prefix(" blue:") {
            (Side::Blue, r)
        } else {
            return Err(err(bytes, at + 1, RecordErrorKind::Starter));
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
            return Err(err(bytes, at + 1, RecordErrorKind::SpaceAfterColon));
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
                        .ok_or_else(|| err(bytes, at + k + 1, RecordErrorKind::SpaceBeforeHash))?
                };
                (turns_text, Some((at + k + 1, &after[k + 1..])))
            }
        };
        record.turns = parse_turns(bytes, turns_text, at)?;
        if let Some((hash_at, text)) = verdict {
            record.result = Some(parse_verdict(bytes, text, hash_at)?);
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
            if let Some(outcome) = game.play_message(turn.payload())
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
                return Err(ReplayError::ResultMismatch {
                    claimed,
                    shown,
                    turns: self.turns.len(),
                    to_move: game.to_move(),
                });
            }
        }
        Ok(game)
    }
}

/// Parses the turns part (`text` starts at byte index `at` of `line`).
fn parse_turns(line: &[u8], text: &str, at: usize) -> Result<Vec<RecordTurn>, RecordError> {
    if text.is_empty() {
        return Ok(Vec::new());
    }
    let mut turns = Vec::new();
    let mut start = at;
    for (i, piece) in text.split('/').enumerate() {
        let turn = i + 1;
        if piece == "{}" {
            turns.push(RecordTurn::new(b""));
        } else {
            if let Some((k, c)) = piece
                .char_indices()
                .find(|&(_, c)| !('0'..='7').contains(&c))
            {
                return Err(err(
                    line,
                    start + k + 1,
                    RecordErrorKind::NotADigit { turn, found: c },
                ));
            }
            if piece.len() > MAX_TURN_DIGITS {
                return Err(err(
                    line,
                    start + MAX_TURN_DIGITS + 1,
                    RecordErrorKind::TurnTooLong { turn },
                ));
            }
            turns.push(RecordTurn::new(piece.as_bytes()));
        }
        start += piece.len() + 1;
    }
    Ok(turns)
}

/// How many characters of an unknown reason word an error keeps.
const REASON_CHARS: usize = 20;

/// Parses ` <winner> <reason>` (`text` starts at byte index `at` of `line`).
fn parse_verdict(line: &[u8], text: &str, at: usize) -> Result<Outcome, RecordError> {
    let verdict = || err(line, at + 1, RecordErrorKind::Verdict);
    let text = text.strip_prefix(' ').ok_or_else(verdict)?;
    let (winner, reason) = text.split_once(' ').ok_or_else(verdict)?;
    let winner = match winner {
        "red" => Side::Red,
        "blue" => Side::Blue,
        _ => return Err(verdict()),
    };
    let reason_at = at + 1 + winner.name().len() + 1;
    let reason = Reason::from_name(reason).ok_or_else(|| {
        let mut shown: String = reason.chars().take(REASON_CHARS).collect();
        if shown.len() < reason.len() {
            shown.push('…');
        }
        err(
            line,
            reason_at + 1,
            RecordErrorKind::UnknownReason(shown.escape_debug().to_string()),
        )
    })?;
    Ok(Outcome { winner, reason })
}

impl fmt::Display for Record {
    /// The canonical one-line form (see the module docs), without a line ending.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{} {}:", self.width, self.length, self.starter)?;
        match self.turns.as_slice() {
            [] => {}
            [only] if only.payload().is_empty() => f.write_str(" {}")?,
            turns => {
                for (i, turn) in turns.iter().enumerate() {
                    f.write_str(if i == 0 { " " } else { "/" })?;
                    write!(f, "{turn}")?;
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

    fn payloads(r: &Record) -> Vec<&[u8]> {
        r.turns.iter().map(RecordTurn::payload).collect()
    }

    #[test]
    fn parses_the_spec_examples() {
        let r = rec("8x10 red: 3/0/4452");
        assert_eq!((r.width, r.length, r.starter), (8, 10, Side::Red));
        assert_eq!(payloads(&r), [&b"3"[..], b"0", b"4452"]);
        assert!(r.turns.iter().all(|t| t.turn().is_some()));
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
        assert_eq!(payloads(&rec("8x10 red: {}")), [b""]);
        assert!(matches!(
            rec("8x10 red: {}").turns[0],
            RecordTurn::Faulty(_)
        ));
        assert_eq!(rec("8x10 red: {}").to_string(), "8x10 red: {}");
        assert_eq!(rec("8x10 red: 3//4").turns.len(), 3);
        assert_eq!(rec("8x10 red: /").turns, vec![RecordTurn::new(b""); 2]);
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
        assert_eq!(
            e("8x300 red:").kind,
            RecordErrorKind::Field(FieldError::Length(300))
        );
        assert_eq!(e("8x300 red:").column, 3);
        assert_eq!(e("8x10 green:").column, 5);
        assert_eq!(e("8x10 red:3").kind, RecordErrorKind::SpaceAfterColon);
        assert_eq!(
            e("8x10 red: 3/0/4482"),
            RecordError {
                column: 17,
                kind: RecordErrorKind::NotADigit {
                    turn: 3,
                    found: '8'
                },
                near: "8x10 red: 3/0/4482".into()
            }
        );
        assert_eq!(
            e("8x10 red: 3# red goal").kind,
            RecordErrorKind::SpaceBeforeHash
        );
        assert_eq!(e("8x10 red: 3 # red").kind, RecordErrorKind::Verdict);
        let draw = e("8x10 red: 3 # red draw");
        assert_eq!(draw.column, 19);
        assert_eq!(draw.kind, RecordErrorKind::UnknownReason("draw".into()));
    }

    #[test]
    fn messages_quote_a_bounded_excerpt_of_the_input() {
        // A 1 MB record with a bad digit near its end: the message names the turn and the
        // column and quotes 60 characters around the place, not the whole line.
        let mut line = "8x10 red: ".to_string();
        for _ in 0..200_000 {
            line.push_str("3/4/");
        }
        line.push_str("48");
        let error = Record::parse(&line).unwrap_err();
        assert_eq!(error.column, line.len());
        let text = error.to_string();
        assert_eq!(
            text,
            format!(
                "column {}: turn 400001: '8' is not a step digit 0-7 (near `…{}48`)",
                line.len(),
                "/3/4".repeat(7) + "/"
            )
        );
        // A long unknown reason is cut too.
        let long = format!("8x10 red: 3 # red {}", "x".repeat(1_000_000));
        let text = Record::parse(&long).unwrap_err().to_string();
        assert!(text.len() < 200, "{text}");
        assert!(text.starts_with("column 19: unknown reason `xxxxxxxxxxxxxxxxxxxx…` (near `"));
    }

    #[test]
    fn sizes_out_of_range_get_one_wording() {
        for (record, column, message) in [
            (
                "255x10 red:",
                1,
                "width 255 is not an even number from 2 to 254",
            ),
            (
                "256x10 red:",
                1,
                "width 256 is not an even number from 2 to 254",
            ),
            (
                "0x10 red:",
                1,
                "width 0 is not an even number from 2 to 254",
            ),
            (
                "1x10 red:",
                1,
                "width 1 is not an even number from 2 to 254",
            ),
            (
                "300x10 red:",
                1,
                "width 300 is not an even number from 2 to 254",
            ),
            (
                "8x255 red:",
                3,
                "length 255 is not an even number from 2 to 254",
            ),
            (
                "8x1000 red:",
                3,
                "length 1000 is not an even number from 2 to 254",
            ),
        ] {
            let error = Record::parse(record).unwrap_err();
            assert_eq!(error.column, column, "{record}");
            assert_eq!(error.kind.to_string(), message, "{record}");
        }
    }

    #[test]
    fn bytes_that_are_not_utf8_are_named_by_column() {
        let error = Record::parse_bytes(b"8x10 red: 3/\xff4").unwrap_err();
        assert_eq!(error.column, 13);
        assert_eq!(error.kind, RecordErrorKind::NotUtf8 { byte: 0xff });
        assert_eq!(
            error.to_string(),
            "column 13: the record is not UTF-8 text (byte 0xff) (near `8x10 red: 3/\u{fffd}4`)"
        );
        assert_eq!(
            Record::parse_bytes(b"8x10 red: 3/4\n"),
            Ok(rec("8x10 red: 3/4"))
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
    fn payloads_no_turn_can_hold_are_kept_as_faulty_and_written_as_sent() {
        for payload in [&b""[..], b"09", b"3x"] {
            let turn = RecordTurn::new(payload);
            assert_eq!(turn.turn(), None);
            assert_eq!(turn.payload(), payload);
        }
        let turn = RecordTurn::new(b"44");
        assert_eq!(turn, RecordTurn::from(Turn::new(b"44").unwrap()));
        let mut record = Record::new(Field::new(8, 10).unwrap(), Side::Red);
        record.turns = vec![RecordTurn::new(b"3"), RecordTurn::new(b"09")];
        assert_eq!(record.to_string(), "8x10 red: 3/09");
        // The replay judges the faulty payload as the referee did: `0` is a legal step from
        // blue's position, `9` is no step at all.
        let game = record.replay().unwrap();
        assert_eq!(
            game.outcome(),
            Some(Outcome {
                winner: Side::Red,
                reason: Reason::IllegalStep
            })
        );
    }

    #[test]
    fn a_turn_longer_than_the_protocol_allows_is_refused() {
        let long = format!("8x10 red: 3/{}", "0".repeat(MAX_TURN_DIGITS + 1));
        let error = Record::parse(&long).unwrap_err();
        assert_eq!(error.column, 13 + MAX_TURN_DIGITS);
        assert_eq!(error.kind, RecordErrorKind::TurnTooLong { turn: 2 });
        let fits = format!("8x10 red: {}", "0".repeat(MAX_TURN_DIGITS));
        assert_eq!(rec(&fits).turns[0].payload().len(), MAX_TURN_DIGITS);
    }
}
