//! The referee of one game between two players, as a sans-IO state machine (spec §4).
//!
//! The caller owns the wires and the clock. It hands the referee every chunk of bytes a player
//! sent with [`Referee::handle_input`], a closed wire with [`Referee::handle_disconnect`], and
//! the passing of time with [`Referee::poll`] (at [`Referee::next_deadline`] at the latest). It
//! writes what [`Referee::poll_transmit`] returns and reads [`RefereeEvent`]s from
//! [`Referee::poll_event`]. Times are milliseconds on any monotonic scale the caller likes.
//!
//! The rules are never judged here: every frame goes to [`Game::play_message`].
//!
//! Policies the spec leaves open, decided here:
//!
//! * **Framing faults** — a `}` with no `{`, a second `{`, more than 65,535 digits — are
//!   [`Reason::IllegalStep`] for the player on turn, decided at the byte that makes them certain.
//!   No turn enters the record for them (a record holds digit strings only), so its verdict
//!   suffix is the only trace of the fault.
//! * **Bytes from the player not on turn** are discarded, whatever they are: a board cannot know
//!   its next turn before it has seen the opponent's, and buffering early bytes would let it
//!   start its turn before its clock. Discarded `{`, `}` and digits are reported as
//!   [`RefereeEvent::OutOfTurn`] for the log, and a partial frame never carries over into the
//!   player's turn. A board that really sent its turn early will then lose on time.
//! * **Time**: a turn counts if its `}` arrives strictly before `start + turn_ms`, where `start`
//!   is the time the referee queued the `{}` or the opponent's turn for that player.
//! * **Disconnection** of either player, on turn or not, loses the game at once — unless the
//!   player on turn was already out of time, which is checked first.

use std::collections::VecDeque;

use crate::rng::SplitMix64;

use super::field::{Field, FieldError};
use super::game::Game;
use super::protocol::{FrameFault, ToPlayer, Turn, TurnScanner};
use super::record::{Record, RecordTurn};
use super::types::{BySide, Outcome, Reason, Side};

/// The game's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    pub width: u8,
    pub length: u8,
    /// Each player's time for one turn, from the moment its signal is queued.
    pub turn_ms: u64,
}

impl Default for Settings {
    /// The contest's: an 8x10 field and 1000 ms per turn.
    fn default() -> Self {
        Settings {
            width: 8,
            length: 10,
            turn_ms: super::protocol::TURN_MS,
        }
    }
}

/// Who kicks off (spec §4: random by default, settable). The one choice the CLI's `--starter`
/// and the soccer page's form both offer, under the names of [`Starter::name`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Starter {
    /// A fair coin from the caller's generator, so a seed fixes a whole series of games.
    #[default]
    Random,
    Fixed(Side),
}

impl Starter {
    /// Every choice, in the order a form lists them.
    pub const ALL: [Starter; 3] = [
        Starter::Random,
        Starter::Fixed(Side::Red),
        Starter::Fixed(Side::Blue),
    ];

    /// The starter of the next game.
    pub fn pick(self, rng: &mut SplitMix64) -> Side {
        self.pick_with(|| rng.coin())
    }

    /// The starter of the next game, tossing `coin` (true: red) only when random: for callers
    /// with their own source of chance, such as the browser's.
    pub fn pick_with(self, coin: impl FnOnce() -> bool) -> Side {
        match self {
            Starter::Random if coin() => Side::Red,
            Starter::Random => Side::Blue,
            Starter::Fixed(side) => side,
        }
    }

    /// The word the CLI and the page use: `random`, `red` or `blue`.
    pub fn name(self) -> &'static str {
        match self {
            Starter::Random => "random",
            Starter::Fixed(side) => side.name(),
        }
    }

    /// The choice called `name` (see [`Starter::name`]).
    pub fn from_name(name: &str) -> Option<Starter> {
        Starter::ALL.into_iter().find(|s| s.name() == name)
    }
}

impl std::fmt::Display for Starter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Bytes to write to one player, in the order given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transmit {
    pub to: Side,
    pub bytes: Vec<u8>,
}

/// What happened, for the caller's display and log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RefereeEvent {
    /// A legal turn that did not end the game, forwarded to the opponent.
    Played { side: Side, turn: Turn },
    /// Protocol bytes (`{`, `}`, digits) from the player not on turn, discarded.
    OutOfTurn { side: Side, bytes: usize },
    /// The game is over; nothing more is sent for it.
    Ended(End),
}

/// How a game ended, with the protocol detail the [`Outcome`] alone cannot say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct End {
    pub outcome: Outcome,
    /// Set when the loser's bytes could not be framed as a turn.
    pub frame_fault: Option<FrameFault>,
}

/// One player's clock for one turn: the turn counts if it is complete strictly before
/// `start + turn_ms`, so at the deadline itself the player is out of time. Every clock that
/// judges a turn (this referee's, the browser's) asks this type, so the boundary is one rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnClock {
    side: Side,
    deadline: u64,
}

impl TurnClock {
    /// `side`'s clock, started at `now_ms` with `turn_ms` to play.
    pub fn start(side: Side, now_ms: u64, turn_ms: u64) -> TurnClock {
        TurnClock {
            side,
            deadline: now_ms.saturating_add(turn_ms),
        }
    }

    /// Whose turn it times.
    pub fn side(&self) -> Side {
        self.side
    }

    /// The first moment the player is out of time.
    pub fn deadline(&self) -> u64 {
        self.deadline
    }

    /// Whether the player is out of time at `now_ms`: a turn completed then no longer counts.
    pub fn expired(&self, now_ms: u64) -> bool {
        now_ms >= self.deadline
    }

    /// The time left at `now_ms` (zero once expired).
    pub fn left(&self, now_ms: u64) -> u64 {
        self.deadline.saturating_sub(now_ms)
    }
}

/// Referee of one game. See the module documentation.
#[derive(Clone, Debug)]
pub struct Referee {
    game: Game,
    record: Record,
    turn_ms: u64,
    scanners: BySide<TurnScanner>,
    /// `None` once the game is over.
    clock: Option<TurnClock>,
    end: Option<End>,
    transmit: VecDeque<Transmit>,
    events: VecDeque<RefereeEvent>,
}

impl Referee {
    /// Starts a game at time `now_ms`: queues `w`, `l`, `c` for each player, then `{}` for the
    /// starter, whose clock starts now.
    pub fn new(settings: Settings, starter: Side, now_ms: u64) -> Result<Referee, FieldError> {
        let field = Field::new(settings.width, settings.length)?;
        let mut transmit = VecDeque::new();
        for side in [Side::Red, Side::Blue] {
            let mut bytes = Vec::new();
            ToPlayer::Width(settings.width).encode(&mut bytes);
            ToPlayer::Length(settings.length).encode(&mut bytes);
            ToPlayer::Colour(side).encode(&mut bytes);
            if side == starter {
                ToPlayer::Start.encode(&mut bytes);
            }
            transmit.push_back(Transmit { to: side, bytes });
        }
        Ok(Referee {
            record: Record::new(field, starter),
            game: Game::new(field, starter),
            turn_ms: settings.turn_ms,
            scanners: Default::default(),
            clock: Some(TurnClock::start(starter, now_ms, settings.turn_ms)),
            end: None,
            transmit,
            events: VecDeque::new(),
        })
    }

    /// Bytes read from `side`'s wire at `now_ms`, in any chunking.
    pub fn handle_input(&mut self, side: Side, bytes: &[u8], now_ms: u64) {
        self.poll(now_ms);
        let mut rest = bytes;
        while let Some(clock) = self.clock {
            if clock.side != side {
                break;
            }
            let Some((&b, tail)) = rest.split_first() else {
                return;
            };
            rest = tail;
            match self.scanners[side].push(b) {
                None => {}
                Some(Err(fault)) => self.finish(
                    Outcome {
                        winner: side.opponent(),
                        reason: Reason::IllegalStep,
                    },
                    Some(fault),
                ),
                Some(Ok(digits)) => self.judge(side, digits, now_ms),
            }
        }
        // Whatever is left came from a player not on turn (or after the end).
        let significant = rest
            .iter()
            .filter(|b| matches!(b, b'{' | b'}' | b'0'..=b'7'))
            .count();
        if significant > 0 && self.end.is_none() {
            self.events.push_back(RefereeEvent::OutOfTurn {
                side,
                bytes: significant,
            });
        }
    }

    /// `side`'s wire closed (end of file, hang-up, write error) at `now_ms`.
    pub fn handle_disconnect(&mut self, side: Side, now_ms: u64) {
        self.poll(now_ms);
        if self.end.is_none() {
            self.finish(
                Outcome {
                    winner: side.opponent(),
                    reason: Reason::Disconnect,
                },
                None,
            );
        }
    }

    /// Lets time pass: ends the game if the player on turn ran out of time by `now_ms`.
    pub fn poll(&mut self, now_ms: u64) {
        if let Some(clock) = self.clock
            && clock.expired(now_ms)
        {
            self.finish(
                Outcome {
                    winner: clock.side.opponent(),
                    reason: Reason::Timeout,
                },
                None,
            );
        }
    }

    /// When [`Self::poll`] must be called at the latest (the running clock's end), if ever.
    pub fn next_deadline(&self) -> Option<u64> {
        self.clock.map(|c| c.deadline)
    }

    /// The next bytes to send, oldest first.
    pub fn poll_transmit(&mut self) -> Option<Transmit> {
        self.transmit.pop_front()
    }

    /// The next event, oldest first.
    pub fn poll_event(&mut self) -> Option<RefereeEvent> {
        self.events.pop_front()
    }

    /// The player whose clock is running, while the game goes on.
    pub fn on_turn(&self) -> Option<Side> {
        self.clock.map(|c| c.side)
    }

    /// How the game ended, once it has.
    pub fn end(&self) -> Option<End> {
        self.end
    }

    /// The game so far: every complete turn received (a faulty one included), and the result
    /// once the game is over.
    pub fn record(&self) -> &Record {
        &self.record
    }

    /// The position, for display.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// A complete frame from the player on turn.
    fn judge(&mut self, side: Side, digits: Vec<u8>, now_ms: u64) {
        let outcome = self.game.play_message(&digits);
        let recorded = RecordTurn::new(&digits);
        let turn = recorded.turn().cloned();
        self.record.turns.push(recorded);
        match (outcome, turn) {
            (Some(outcome), _) => self.finish(outcome, None),
            (None, Some(turn)) => {
                let opponent = side.opponent();
                self.transmit.push_back(Transmit {
                    to: opponent,
                    bytes: turn.to_bytes(),
                });
                self.events.push_back(RefereeEvent::Played { side, turn });
                self.scanners[opponent].reset();
                self.clock = Some(TurnClock::start(opponent, now_ms, self.turn_ms));
            }
            // The rules accepted something that cannot be framed: impossible for an empty
            // turn (it stops on the start point, which is a bounce point by then), but if it
            // ever happened the turn could not be forwarded, so it is the mover's fault.
            (None, None) => self.finish(
                Outcome {
                    winner: side.opponent(),
                    reason: Reason::IncompleteTurn,
                },
                None,
            ),
        }
    }

    fn finish(&mut self, outcome: Outcome, frame_fault: Option<FrameFault>) {
        let end = End {
            outcome,
            frame_fault,
        };
        self.clock = None;
        self.end = Some(end);
        self.record.result = Some(outcome);
        self.events.push_back(RefereeEvent::Ended(end));
    }
}
