//! The serial protocol's messages (spec §4), encoded and decoded without any I/O.
//!
//! Two directions, two decoders:
//!
//! * referee → player messages ([`ToPlayer`]) are decoded by [`Decoder`], byte by byte, so data
//!   may arrive in chunks of any size. The sizes of `w`*W*`\n` and `l`*L*`\n` are **one raw
//!   byte** that may be `0x0A`, so the decoder never splits on `\n` first: the byte after `w` or
//!   `l` is always data.
//! * player → referee turns (`{digits}` plus an optional `\n`) are read by [`TurnScanner`], which
//!   applies the referee's byte filter: every byte other than `{`, `}` and `0`–`7` is ignored.
//!
//! Encoding is the `encode`/`to_bytes` methods of [`ToPlayer`] and [`Turn`].

use std::fmt;

use super::types::Side;

/// The most digits a turn may hold on the wire; one more is a fault (spec §4).
pub const MAX_DIGITS: usize = 65_535;

/// The contest referee's line rate (spec §4), the default of every serial setting that names
/// one: with 8 data bits, no parity, 2 stop bits and no flow control.
pub const BAUD: u32 = 115_200;

/// The contest referee's time per turn, in milliseconds (spec §4).
pub const TURN_MS: u64 = 1000;

/// One complete turn as it travels on the wire: 1 to [`MAX_DIGITS`] direction digits `0`–`7`.
///
/// Whether the steps are *legal* is the rules' business ([`super::game`]); this type only
/// guarantees the turn can be framed as `{digits}\n`.
/// Ordered by bytes, the order [`super::game::Game::legal_turns`] lists turns in.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Turn(Vec<u8>);

/// Why bytes are not a [`Turn`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TurnError {
    #[error("a turn needs at least one step")]
    Empty,
    #[error("a turn holds at most {MAX_DIGITS} steps, not {0}")]
    TooLong(usize),
    #[error("byte {index} of the turn is {byte:#04x}, not a direction digit 0-7")]
    NotADigit { index: usize, byte: u8 },
}

impl Turn {
    /// Checks `digits` (ASCII `0`–`7`, 1 to [`MAX_DIGITS`] of them).
    pub fn new(digits: &[u8]) -> Result<Turn, TurnError> {
        if digits.is_empty() {
            return Err(TurnError::Empty);
        }
        if digits.len() > MAX_DIGITS {
            return Err(TurnError::TooLong(digits.len()));
        }
        if let Some(index) = digits.iter().position(|b| !is_digit(*b)) {
            return Err(TurnError::NotADigit {
                index,
                byte: digits[index],
            });
        }
        Ok(Turn(digits.to_vec()))
    }

    /// A turn the rules produced (a walk of legal steps), so its digits need no check. Kept
    /// inside the crate: only [`super::game::Game`] and the searches build turns this way. The
    /// length is not checked either: a legal turn of more than [`MAX_DIGITS`] steps exists only
    /// in theory (a bounce chain through most of a 254×254 field), and the referee refuses its
    /// frame as it would any other.
    pub(crate) fn from_steps(digits: Vec<u8>) -> Turn {
        debug_assert!(!digits.is_empty() && digits.iter().all(|&b| is_digit(b)));
        Turn(digits)
    }

    /// The digits, e.g. `b"4452"`.
    pub fn digits(&self) -> &[u8] {
        &self.0
    }

    /// The digits as a string slice (always ASCII).
    pub fn as_str(&self) -> &str {
        // Only ASCII digits are ever stored.
        std::str::from_utf8(&self.0).unwrap_or_default()
    }

    /// Appends the wire form `{digits}\n` (the same in both directions).
    pub fn encode(&self, out: &mut Vec<u8>) {
        out.push(b'{');
        out.extend_from_slice(&self.0);
        out.extend_from_slice(b"}\n");
    }

    /// The wire form `{digits}\n`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.0.len() + 3);
        self.encode(&mut out);
        out
    }
}

impl std::str::FromStr for Turn {
    type Err = TurnError;

    /// The digits as text, e.g. `"4452"`.
    fn from_str(digits: &str) -> Result<Turn, TurnError> {
        Turn::new(digits.as_bytes())
    }
}

impl AsRef<[u8]> for Turn {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Turn({})", self.as_str())
    }
}

fn is_digit(b: u8) -> bool {
    (b'0'..=b'7').contains(&b)
}

/// A message from the referee to one player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ToPlayer {
    /// `w` *W* `\n`: the field's width, one raw byte (the decoder does not judge its value).
    Width(u8),
    /// `l` *L* `\n`: the field's length, one raw byte.
    Length(u8),
    /// `cr\n` or `cb\n`: the colour this player plays.
    Colour(Side),
    /// `{}\n`: you start the game.
    Start,
    /// `{digits}\n`: the opponent's turn; your clock is running.
    Turn(Turn),
}

impl ToPlayer {
    /// Appends the message's bytes to `out`.
    pub fn encode(&self, out: &mut Vec<u8>) {
        match self {
            ToPlayer::Width(w) => out.extend_from_slice(&[b'w', *w, b'\n']),
            ToPlayer::Length(l) => out.extend_from_slice(&[b'l', *l, b'\n']),
            ToPlayer::Colour(side) => out.extend_from_slice(&[b'c', side.letter(), b'\n']),
            ToPlayer::Start => out.extend_from_slice(b"{}\n"),
            ToPlayer::Turn(turn) => turn.encode(out),
        }
    }

    /// The message's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.encode(&mut out);
        out
    }
}

/// Bytes from the referee that did not form a message; the decoder skips them and goes on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("byte {offset} ({byte:#04x}): {kind}")]
pub struct DecodeError {
    /// Position in the stream (0-based) of the byte that broke the message.
    pub offset: u64,
    /// That byte.
    pub byte: u8,
    pub kind: DecodeErrorKind,
}

/// What was wrong at [`DecodeError::offset`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeErrorKind {
    #[error("no message starts with this byte")]
    NoMessage,
    #[error("the `{0}` message is not ended by a line feed")]
    Unterminated(char),
    #[error("the colour is neither `r` nor `b`")]
    BadColour,
    #[error("a turn holds only digits 0-7")]
    NotADigit,
    #[error("a turn holds at most {MAX_DIGITS} digits")]
    TooManyDigits,
}

/// Where the decoder stands inside a message.
#[derive(Clone, Debug, Default)]
enum DecodeState {
    /// Between messages.
    #[default]
    Idle,
    /// After `w` (`b'w'`) or `l`: the next byte is the raw size, whatever it is.
    Size(u8),
    /// After the size: a `\n` must follow.
    SizeEnd(u8, u8),
    /// After `c`.
    Colour,
    /// After `c` and the colour letter.
    ColourEnd(Side),
    /// Inside `{`…: the digits so far.
    Digits(Vec<u8>),
    /// After `}`.
    TurnEnd(Vec<u8>),
}

/// Incremental decoder of the referee → player byte stream.
///
/// Framing is strict (every message ends with `\n`) but recovery is eager: a broken message is
/// reported once as a [`DecodeError`] and the offending byte is decoded again from between
/// messages, so a `w` always starts a new game's first message, wherever it falls — except right
/// after `w` or `l`, where a byte is always the raw size. If that size is then not followed by
/// `\n`, the size byte itself is decoded again too, so a `w` swallowed as a size still counts.
/// Lone line feeds between messages are skipped silently.
#[derive(Clone, Debug, Default)]
pub struct Decoder {
    state: DecodeState,
    offset: u64,
}

impl Decoder {
    pub fn new() -> Self {
        Self::default()
    }

    /// Bytes consumed so far.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Decodes `bytes`, calling `emit` for each complete message or error, in stream order.
    pub fn decode(&mut self, bytes: &[u8], mut emit: impl FnMut(Result<ToPlayer, DecodeError>)) {
        for &b in bytes {
            if let Some(item) = self.push(b) {
                emit(item);
            }
        }
    }

    /// Decodes `bytes` into a list of messages and errors.
    pub fn decode_all(&mut self, bytes: &[u8]) -> Vec<Result<ToPlayer, DecodeError>> {
        let mut out = Vec::new();
        self.decode(bytes, |item| out.push(item));
        out
    }

    /// Feeds one byte; returns a message or an error when this byte completes or breaks one.
    ///
    /// At most one item comes out per byte: when a byte both breaks a message and starts a new
    /// one, only the error is reported and the new message goes on.
    pub fn push(&mut self, byte: u8) -> Option<Result<ToPlayer, DecodeError>> {
        let offset = self.offset;
        self.offset += 1;
        let fail = |kind| Some(Err(DecodeError { offset, byte, kind }));
        match std::mem::take(&mut self.state) {
            DecodeState::Idle => self.start(byte).and_then(fail),
            DecodeState::Size(which) => {
                self.state = DecodeState::SizeEnd(which, byte);
                None
            }
            DecodeState::SizeEnd(which, size) => {
                if byte == b'\n' {
                    return Some(Ok(if which == b'w' {
                        ToPlayer::Width(size)
                    } else {
                        ToPlayer::Length(size)
                    }));
                }
                // The "size" may have been the start of the next message: decode it again.
                let _ = self.start(size);
                self.resume(byte);
                fail(DecodeErrorKind::Unterminated(which as char))
            }
            DecodeState::Colour => match byte {
                b'r' => self.then(DecodeState::ColourEnd(Side::Red)),
                b'b' => self.then(DecodeState::ColourEnd(Side::Blue)),
                _ => {
                    let _ = self.start(byte);
                    fail(DecodeErrorKind::BadColour)
                }
            },
            DecodeState::ColourEnd(side) => {
                if byte == b'\n' {
                    return Some(Ok(ToPlayer::Colour(side)));
                }
                let _ = self.start(byte);
                fail(DecodeErrorKind::Unterminated('c'))
            }
            DecodeState::Digits(mut digits) => match byte {
                b'}' => self.then(DecodeState::TurnEnd(digits)),
                b if is_digit(b) && digits.len() < MAX_DIGITS => {
                    digits.push(b);
                    self.then(DecodeState::Digits(digits))
                }
                b if is_digit(b) => fail(DecodeErrorKind::TooManyDigits),
                _ => {
                    let _ = self.start(byte);
                    fail(DecodeErrorKind::NotADigit)
                }
            },
            DecodeState::TurnEnd(digits) => {
                if byte == b'\n' {
                    return Some(Ok(match Turn::new(&digits) {
                        Ok(turn) => ToPlayer::Turn(turn),
                        Err(_) => ToPlayer::Start,
                    }));
                }
                let _ = self.start(byte);
                fail(DecodeErrorKind::Unterminated('{'))
            }
        }
    }

    fn then(&mut self, state: DecodeState) -> Option<Result<ToPlayer, DecodeError>> {
        self.state = state;
        None
    }

    /// Handles `byte` between messages; returns the error kind when it starts none.
    fn start(&mut self, byte: u8) -> Option<DecodeErrorKind> {
        self.state = match byte {
            b'w' | b'l' => DecodeState::Size(byte),
            b'c' => DecodeState::Colour,
            b'{' => DecodeState::Digits(Vec::new()),
            b'\n' => DecodeState::Idle,
            _ => {
                self.state = DecodeState::Idle;
                return Some(DecodeErrorKind::NoMessage);
            }
        };
        None
    }

    /// Feeds `byte` in whatever state [`Self::start`] left, without reporting (used when a
    /// swallowed size byte turned out to start a message and `byte` belongs to it).
    fn resume(&mut self, byte: u8) {
        match std::mem::take(&mut self.state) {
            DecodeState::Idle => {
                let _ = self.start(byte);
            }
            DecodeState::Size(which) => self.state = DecodeState::SizeEnd(which, byte),
            DecodeState::Colour => {
                self.state = match byte {
                    b'r' => DecodeState::ColourEnd(Side::Red),
                    b'b' => DecodeState::ColourEnd(Side::Blue),
                    _ => {
                        let _ = self.start(byte);
                        return;
                    }
                }
            }
            DecodeState::Digits(mut digits) => {
                if is_digit(byte) {
                    digits.push(byte);
                    self.state = DecodeState::Digits(digits);
                } else if byte == b'}' {
                    self.state = DecodeState::TurnEnd(digits);
                } else {
                    let _ = self.start(byte);
                }
            }
            state @ (DecodeState::SizeEnd(..)
            | DecodeState::ColourEnd(_)
            | DecodeState::TurnEnd(_)) => self.state = state,
        }
    }
}

/// Why the bytes of the player on turn cannot be a turn (spec §4). The referee counts each as an
/// illegal step: the player sent something that is not a sequence of steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FrameFault {
    #[error("`}}` without a preceding `{{`")]
    CloseWithoutOpen,
    #[error("a second `{{` before `}}`")]
    SecondOpen,
    #[error("more than {MAX_DIGITS} digits")]
    TooManyDigits,
}

/// The referee's reader of one player's turn: the byte filter of spec §4.
///
/// Every byte other than `{`, `}` and `0`–`7` is ignored, and so are digits before the `{`
/// (the spec lists the faults exhaustively, and stray digits outside a frame are not one). The
/// scanner reports as soon as a byte decides the matter: the turn at `}`, a fault at the byte
/// that makes it one (a `}` with no `{`, a second `{`, the 65,536th digit).
#[derive(Clone, Debug, Default)]
pub struct TurnScanner {
    /// `Some(digits so far)` once `{` arrived.
    frame: Option<Vec<u8>>,
}

impl TurnScanner {
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets any partial frame (the referee does this whenever a player's turn begins).
    pub fn reset(&mut self) {
        self.frame = None;
    }

    /// Whether a `{` has arrived and its `}` not yet.
    pub fn is_open(&self) -> bool {
        self.frame.is_some()
    }

    /// Feeds one byte; `Some` when it completes a turn (the digits, possibly none) or faults.
    /// After either, the scanner starts afresh.
    pub fn push(&mut self, byte: u8) -> Option<Result<Vec<u8>, FrameFault>> {
        match (byte, &mut self.frame) {
            (b'{', None) => {
                self.frame = Some(Vec::new());
                None
            }
            (b'{', Some(_)) => {
                self.frame = None;
                Some(Err(FrameFault::SecondOpen))
            }
            (b'}', frame) => Some(frame.take().ok_or(FrameFault::CloseWithoutOpen)),
            (b, Some(digits)) if is_digit(b) => {
                if digits.len() == MAX_DIGITS {
                    self.frame = None;
                    return Some(Err(FrameFault::TooManyDigits));
                }
                digits.push(b);
                None
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(bytes: &[u8]) -> Vec<Result<ToPlayer, DecodeErrorKind>> {
        Decoder::new()
            .decode_all(bytes)
            .into_iter()
            .map(|r| r.map_err(|e| e.kind))
            .collect()
    }

    #[test]
    fn sizes_are_raw_bytes_even_a_line_feed() {
        assert_eq!(
            decode(b"w\n\nl\x0c\ncb\n{}\n"),
            vec![
                Ok(ToPlayer::Width(10)),
                Ok(ToPlayer::Length(12)),
                Ok(ToPlayer::Colour(Side::Blue)),
                Ok(ToPlayer::Start)
            ]
        );
        assert_eq!(decode(b"ll\n"), vec![Ok(ToPlayer::Length(b'l'))]);
    }

    #[test]
    fn every_message_round_trips_through_one_byte_chunks() {
        let msgs = vec![
            ToPlayer::Width(10),
            ToPlayer::Length(254),
            ToPlayer::Colour(Side::Red),
            ToPlayer::Start,
            ToPlayer::Turn(Turn::new(b"4452").unwrap()),
        ];
        let bytes: Vec<u8> = msgs.iter().flat_map(ToPlayer::to_bytes).collect();
        assert_eq!(bytes, b"w\n\nl\xfe\ncr\n{}\n{4452}\n");
        let mut d = Decoder::new();
        let mut got = Vec::new();
        for b in &bytes {
            got.extend(d.push(*b));
        }
        assert_eq!(got, msgs.into_iter().map(Ok).collect::<Vec<_>>());
    }

    #[test]
    fn a_w_resynchronises_in_the_middle_of_anything() {
        assert_eq!(
            decode(b"{44w\x08\n"),
            vec![Err(DecodeErrorKind::NotADigit), Ok(ToPlayer::Width(8))]
        );
        assert_eq!(
            decode(b"cw\x08\n"),
            vec![Err(DecodeErrorKind::BadColour), Ok(ToPlayer::Width(8))]
        );
        // A `w` swallowed as the size of a broken `w` message still starts the next one.
        assert_eq!(
            decode(b"ww\x08\n"),
            vec![
                Err(DecodeErrorKind::Unterminated('w')),
                Ok(ToPlayer::Width(8))
            ]
        );
        assert_eq!(decode(b"x\n"), vec![Err(DecodeErrorKind::NoMessage)]);
    }

    #[test]
    fn errors_name_the_offset() {
        let errs = Decoder::new().decode_all(b"w\x08\nq");
        assert_eq!(
            errs[1],
            Err(DecodeError {
                offset: 3,
                byte: b'q',
                kind: DecodeErrorKind::NoMessage
            })
        );
        assert_eq!(
            errs[1].as_ref().unwrap_err().to_string(),
            "byte 3 (0x71): no message starts with this byte"
        );
    }

    #[test]
    fn turns_are_checked() {
        assert_eq!(Turn::new(b""), Err(TurnError::Empty));
        assert_eq!(
            Turn::new(b"48"),
            Err(TurnError::NotADigit {
                index: 1,
                byte: b'8'
            })
        );
        assert_eq!(
            Turn::new(&vec![b'1'; MAX_DIGITS + 1]),
            Err(TurnError::TooLong(MAX_DIGITS + 1))
        );
        assert_eq!(Turn::new(b"07").unwrap().to_bytes(), b"{07}\n");
    }

    fn scan(bytes: &[u8]) -> Vec<Result<Vec<u8>, FrameFault>> {
        let mut s = TurnScanner::new();
        bytes.iter().filter_map(|b| s.push(*b)).collect()
    }

    #[test]
    fn scanner_filters_and_faults() {
        assert_eq!(scan(b"hello 9{4 4x5\r2}\n"), vec![Ok(b"4452".to_vec())]);
        assert_eq!(scan(b"12{}"), vec![Ok(vec![])]);
        assert_eq!(scan(b"3}"), vec![Err(FrameFault::CloseWithoutOpen)]);
        assert_eq!(scan(b"{3{"), vec![Err(FrameFault::SecondOpen)]);
        let mut long = vec![b'{'];
        long.extend(vec![b'0'; MAX_DIGITS]);
        long.push(b'}');
        assert_eq!(scan(&long), vec![Ok(vec![b'0'; MAX_DIGITS])]);
        long.insert(1, b'1');
        assert_eq!(
            scan(&long),
            vec![
                Err(FrameFault::TooManyDigits),
                Err(FrameFault::CloseWithoutOpen)
            ]
        );
    }
}
