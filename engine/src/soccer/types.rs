//! Vocabulary shared by the rules, the engine and the protocol.

use std::fmt;

/// A player. Red defends the top goal (y = -1) and attacks the bottom one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Red,
    Blue,
}

impl Side {
    /// The other player.
    pub fn opponent(self) -> Side {
        match self {
            Side::Red => Side::Blue,
            Side::Blue => Side::Red,
        }
    }

    /// The word used in records, JSON and the CLI: `red` or `blue`.
    pub fn name(self) -> &'static str {
        match self {
            Side::Red => "red",
            Side::Blue => "blue",
        }
    }

    /// The colour letter of the protocol's `c` message: `r` or `b`.
    pub fn letter(self) -> u8 {
        match self {
            Side::Red => b'r',
            Side::Blue => b'b',
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Side {
    /// Both sides, red first.
    pub const BOTH: [Side; 2] = [Side::Red, Side::Blue];
}

/// One value per side, indexed by [`Side`]: the shape of everything a game keeps twice (the
/// players, their wires, their clocks, their scores), so no caller maps sides to numbers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BySide<T> {
    pub red: T,
    pub blue: T,
}

impl<T> BySide<T> {
    pub const fn new(red: T, blue: T) -> BySide<T> {
        BySide { red, blue }
    }

    /// The value `f` gives each side.
    pub fn from_fn(mut f: impl FnMut(Side) -> T) -> BySide<T> {
        BySide {
            red: f(Side::Red),
            blue: f(Side::Blue),
        }
    }

    /// Applies `f` to each side's value.
    pub fn map<U>(self, mut f: impl FnMut(Side, T) -> U) -> BySide<U> {
        BySide {
            red: f(Side::Red, self.red),
            blue: f(Side::Blue, self.blue),
        }
    }

    /// References to both values.
    pub fn as_ref(&self) -> BySide<&T> {
        BySide {
            red: &self.red,
            blue: &self.blue,
        }
    }

    /// `(side, value)`, red first.
    pub fn iter(&self) -> impl Iterator<Item = (Side, &T)> {
        [(Side::Red, &self.red), (Side::Blue, &self.blue)].into_iter()
    }

    /// `(side, value)`, red first, mutably.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (Side, &mut T)> {
        [(Side::Red, &mut self.red), (Side::Blue, &mut self.blue)].into_iter()
    }
}

impl<T> std::ops::Index<Side> for BySide<T> {
    type Output = T;

    fn index(&self, side: Side) -> &T {
        match side {
            Side::Red => &self.red,
            Side::Blue => &self.blue,
        }
    }
}

impl<T> std::ops::IndexMut<Side> for BySide<T> {
    fn index_mut(&mut self, side: Side) -> &mut T {
        match side {
            Side::Red => &mut self.red,
            Side::Blue => &mut self.blue,
        }
    }
}

/// A point of the field in the spec's coordinates; goal points have y = -1 or y = L + 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    pub x: i16,
    pub y: i16,
}

impl Point {
    pub const fn new(x: i16, y: i16) -> Self {
        Self { x, y }
    }

    /// The neighbour one step away in `dir` (it may lie outside the field).
    pub fn step(self, dir: Dir) -> Point {
        let (dx, dy) = dir.delta();
        Point::new(self.x + dx, self.y + dy)
    }
}

impl fmt::Display for Point {
    /// `(x, y)` in the spec's coordinates.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// One of the eight step directions, coded like the protocol's digits: `0` = N, clockwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    N = 0,
    NE = 1,
    E = 2,
    SE = 3,
    S = 4,
    SW = 5,
    W = 6,
    NW = 7,
}

impl Dir {
    /// All directions in digit order.
    pub const ALL: [Dir; 8] = [
        Dir::N,
        Dir::NE,
        Dir::E,
        Dir::SE,
        Dir::S,
        Dir::SW,
        Dir::W,
        Dir::NW,
    ];

    /// The direction of a protocol digit `b'0'..=b'7'`.
    pub fn from_digit(b: u8) -> Option<Dir> {
        match b {
            b'0'..=b'7' => Some(Dir::ALL[(b - b'0') as usize]),
            _ => None,
        }
    }

    /// The protocol digit of this direction.
    pub fn digit(self) -> u8 {
        b'0' + self as u8
    }

    /// The step as (dx, dy), with y growing downwards (south, toward blue's goal).
    pub fn delta(self) -> (i16, i16) {
        match self {
            Dir::N => (0, -1),
            Dir::NE => (1, -1),
            Dir::E => (1, 0),
            Dir::SE => (1, 1),
            Dir::S => (0, 1),
            Dir::SW => (-1, 1),
            Dir::W => (-1, 0),
            Dir::NW => (-1, -1),
        }
    }

    /// The direction pointing back along the same segment.
    pub fn reverse(self) -> Dir {
        Dir::ALL[(self as usize + 4) % 8]
    }
}

impl fmt::Display for Dir {
    /// The protocol digit, e.g. `4` for south.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", char::from(self.digit()))
    }
}

/// Why a game ended, in the judge's words (spec §5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    Goal,
    OwnGoal,
    Stuck,
    IllegalStep,
    IncompleteTurn,
    AfterEnd,
    Timeout,
    Disconnect,
}

impl Reason {
    /// Every reason, in the order of spec §5.
    pub const ALL: [Reason; 8] = [
        Reason::Goal,
        Reason::OwnGoal,
        Reason::Stuck,
        Reason::IllegalStep,
        Reason::IncompleteTurn,
        Reason::AfterEnd,
        Reason::Timeout,
        Reason::Disconnect,
    ];

    /// The word used in records and JSON, e.g. `own_goal`.
    pub fn name(self) -> &'static str {
        match self {
            Reason::Goal => "goal",
            Reason::OwnGoal => "own_goal",
            Reason::Stuck => "stuck",
            Reason::IllegalStep => "illegal_step",
            Reason::IncompleteTurn => "incomplete_turn",
            Reason::AfterEnd => "after_end",
            Reason::Timeout => "timeout",
            Reason::Disconnect => "disconnect",
        }
    }

    /// Whether the loser lost by a fault (spec §3.3: illegal step, incomplete turn, a step after
    /// the end, timeout) or by leaving the game (disconnect), rather than by play (goal, own
    /// goal, stuck).
    pub fn is_fault(self) -> bool {
        !matches!(self, Reason::Goal | Reason::OwnGoal | Reason::Stuck)
    }

    /// Whether the moves of a record alone can show this reason (everything but `timeout` and
    /// `disconnect`, which happen on the wire).
    pub fn shown_by_moves(self) -> bool {
        !matches!(self, Reason::Timeout | Reason::Disconnect)
    }

    /// Parses a reason word as written by [`Reason::name`].
    pub fn from_name(s: &str) -> Option<Reason> {
        Reason::ALL.into_iter().find(|r| r.name() == s)
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The end of a game: who won and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    pub winner: Side,
    pub reason: Reason,
}

impl Outcome {
    /// The outcome in words for people, naming both who won and who did what, e.g. `blue wins
    /// at turn 2: red made an incomplete turn`; `turn` is the 1-based turn during which the
    /// game ended. (The record's terse `red goal` names only the winner, which reads wrongly
    /// for faults; records and JSON keep that form, spec §5.)
    pub fn describe(self, turn: usize) -> String {
        let winner = self.winner;
        let loser = winner.opponent();
        let what = match self.reason {
            Reason::Goal => format!("{winner} scored in {loser}'s goal"),
            Reason::OwnGoal => format!("{loser} scored in its own goal"),
            Reason::Stuck => format!("{loser} is stuck on a bounce point with no legal step"),
            Reason::IllegalStep => format!("{loser} made an illegal step"),
            Reason::IncompleteTurn => format!("{loser} made an incomplete turn"),
            Reason::AfterEnd => format!("{loser} stepped on after its turn had ended"),
            Reason::Timeout => format!("{loser} did not complete a turn in time"),
            Reason::Disconnect => format!("{loser} disconnected"),
        };
        format!("{winner} wins at turn {turn}: {what}")
    }
}

impl fmt::Display for Outcome {
    /// The winner and the reason as a record's suffix writes them, e.g. `red goal`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.winner, self.reason)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_round_trip_and_reverse_is_opposite() {
        for d in Dir::ALL {
            assert_eq!(Dir::from_digit(d.digit()), Some(d));
            let (dx, dy) = d.delta();
            let (rx, ry) = d.reverse().delta();
            assert_eq!((dx + rx, dy + ry), (0, 0));
        }
        assert_eq!(Dir::from_digit(b'8'), None);
        assert_eq!(Dir::S.delta(), (0, 1));
        assert_eq!(Dir::NE.delta(), (1, -1));
    }

    #[test]
    fn descriptions_name_the_winner_and_the_side_that_acted() {
        for (winner, reason, turn, text) in [
            (
                Side::Blue,
                Reason::IncompleteTurn,
                2,
                "blue wins at turn 2: red made an incomplete turn",
            ),
            (
                Side::Red,
                Reason::Goal,
                7,
                "red wins at turn 7: red scored in blue's goal",
            ),
            (
                Side::Red,
                Reason::OwnGoal,
                1,
                "red wins at turn 1: blue scored in its own goal",
            ),
            (
                Side::Blue,
                Reason::Stuck,
                1,
                "blue wins at turn 1: red is stuck on a bounce point with no legal step",
            ),
            (
                Side::Red,
                Reason::AfterEnd,
                4,
                "red wins at turn 4: blue stepped on after its turn had ended",
            ),
            (
                Side::Red,
                Reason::Disconnect,
                3,
                "red wins at turn 3: blue disconnected",
            ),
        ] {
            assert_eq!(Outcome { winner, reason }.describe(turn), text);
        }
    }

    #[test]
    fn reason_names_round_trip() {
        for name in [
            "goal",
            "own_goal",
            "stuck",
            "illegal_step",
            "incomplete_turn",
            "after_end",
            "timeout",
            "disconnect",
        ] {
            assert_eq!(Reason::from_name(name).map(Reason::name), Some(name));
        }
        assert_eq!(Reason::from_name("draw"), None);
    }
}
