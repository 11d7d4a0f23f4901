//! Enumerating the legal complete turns of a position.
//!
//! # What counts as a legal turn
//!
//! Every digit string that the referee accepts without a fault and that stops exactly where the
//! turn stops: it ends on a fresh point (the opponent moves next), or enters a goal (either
//! goal: an own goal is a legal, losing turn), or arrives at a bounce point with no legal step
//! (the mover is stuck: legal, losing). Longer strings that merely add ignored bytes after a
//! goal are not listed, so no listed turn is a prefix of another. Once the game is over there
//! are none.
//!
//! The count can explode (on a 254×2 field every point is a bounce point and one turn may wind
//! through the whole field), so enumeration is a depth-first walk over the steps with an
//! explicit stack: [`LegalTurns`] yields turns one by one in ascending byte order using memory
//! proportional to the longest turn, [`count_turns`] counts up to a cap without allocating
//! a string per turn, and [`count_turns_within`] counts within a budget of steps, for callers
//! that must answer in bounded time whatever the position.

use super::game::{Game, StepEffect};
use super::protocol::Turn;
use super::types::Dir;

/// The legal complete turns of a position, in ascending byte order (see the module docs).
/// Created by [`Game::legal_turns`].
#[derive(Clone, Debug)]
pub struct LegalTurns {
    walk: Walk,
}

/// The depth-first walk shared by [`LegalTurns`] and [`count_turns_within`]: the position with
/// the current path drawn on it, and where to go on from each point of the path.
#[derive(Clone, Debug)]
struct Walk {
    game: Game,
    /// For each step of the current path (plus the root): the next direction to try.
    next: Vec<u8>,
    /// The digits of the current path.
    path: Vec<u8>,
    /// Steps drawn so far (each is taken back once): the walk's measure of work.
    steps: u64,
}

/// Where [`Walk::advance`] stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    /// A complete turn is drawn, its digits in `path`; call [`Walk::retreat`] before going on.
    Turn,
    /// Every turn has been visited.
    Exhausted,
    /// The step budget ran out; the walk can go on later with a larger budget.
    Budget,
}

impl Walk {
    fn new(game: &Game) -> Walk {
        let next = if game.outcome().is_none() {
            vec![0]
        } else {
            Vec::new()
        };
        Walk {
            game: game.clone(),
            next,
            path: Vec::new(),
            steps: 0,
        }
    }

    /// Advances to the next complete turn, or stops before the walk's total of steps would
    /// exceed `max_steps`.
    fn advance(&mut self, max_steps: u64) -> Stop {
        while let Some(top) = self.next.last_mut() {
            let mask = self
                .game
                .legal_step_mask()
                .checked_shr(u32::from(*top))
                .unwrap_or(0);
            if mask == 0 {
                self.next.pop();
                if self.next.is_empty() {
                    return Stop::Exhausted;
                }
                self.game.undo_step();
                self.path.pop();
                continue;
            }
            if self.steps >= max_steps {
                return Stop::Budget;
            }
            let d = *top + mask.trailing_zeros() as u8;
            *top = d + 1;
            let dir = Dir::ALL[usize::from(d)];
            let effect = self
                .game
                .step(dir)
                .expect("a step from the legal mask is legal");
            self.steps += 1;
            self.path.push(dir.digit());
            match effect {
                StepEffect::Bounce => self.next.push(0),
                StepEffect::TurnOver | StepEffect::GameOver(_) => return Stop::Turn,
            }
        }
        Stop::Exhausted
    }

    /// Takes back the last step of the turn that [`Walk::advance`] just produced.
    fn retreat(&mut self) {
        self.game.undo_step();
        self.path.pop();
    }
}

impl Iterator for LegalTurns {
    type Item = Turn;

    fn next(&mut self) -> Option<Turn> {
        match self.walk.advance(u64::MAX) {
            Stop::Turn => {
                let turn = Turn::from_steps(self.walk.path.clone());
                self.walk.retreat();
                Some(turn)
            }
            Stop::Exhausted | Stop::Budget => None,
        }
    }
}

/// How many legal complete turns the position has, stopping at `cap` (so the answer is
/// `min(count, cap)`). Allocates nothing per turn.
pub fn count_turns(game: &Game, cap: u64) -> u64 {
    let mut walk = Walk::new(game);
    let mut n = 0;
    while n < cap && walk.advance(u64::MAX) == Stop::Turn {
        walk.retreat();
        n += 1;
    }
    n
}

/// What [`count_turns_within`] found before it finished or ran out of steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TurnCount {
    /// Turns counted: the exact number when `complete`, a lower bound otherwise.
    pub turns: u64,
    /// Steps drawn by the walk (each also taken back): the work done.
    pub steps: u64,
    /// Whether every turn was counted.
    pub complete: bool,
}

/// Counts the legal complete turns, drawing at most `max_steps` steps in all: the count of a
/// position can be astronomically large (a 12×2 field's kick-off), and the work per turn
/// unbounded by the number of turns alone, so a caller that must answer in bounded time gives
/// a budget and learns whether the count is complete.
pub fn count_turns_within(game: &Game, max_steps: u64) -> TurnCount {
    let mut walk = Walk::new(game);
    let mut turns = 0;
    let complete = loop {
        match walk.advance(max_steps) {
            Stop::Turn => {
                walk.retreat();
                turns += 1;
            }
            Stop::Exhausted => break true,
            Stop::Budget => break false,
        }
    };
    TurnCount {
        turns,
        steps: walk.steps,
        complete,
    }
}

impl Game {
    /// Every legal complete turn of the player to move, streamed in ascending byte order (see
    /// [`crate::soccer::turns`] for exactly which strings are listed).
    pub fn legal_turns(&self) -> LegalTurns {
        LegalTurns {
            walk: Walk::new(self),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::soccer::field::Field;
    use crate::soccer::record::Record;
    use crate::soccer::types::{Point, Reason, Side};

    #[test]
    fn kick_off_turns_on_8x10() {
        let g = Game::new(Field::new(8, 10).unwrap(), Side::Red);
        let turns: Vec<Turn> = g.legal_turns().collect();
        let expected: Vec<Turn> = ["0", "1", "3", "4", "5", "7"]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
        assert_eq!(turns, expected);
        assert_eq!(count_turns(&g, 100), 6);
        assert_eq!(count_turns(&g, 4), 4);
    }

    #[test]
    fn turns_are_sorted_prefix_free_and_replay_cleanly() {
        let g = Game::new(Field::new(2, 4).unwrap(), Side::Blue);
        let turns: Vec<Turn> = g.legal_turns().collect();
        assert!(!turns.is_empty());
        assert!(turns.windows(2).all(|w| w[0] < w[1]));
        for (i, a) in turns.iter().enumerate() {
            for b in &turns[i + 1..] {
                assert!(
                    !b.digits().starts_with(a.digits()),
                    "{a:?} is a prefix of {b:?}"
                );
            }
            let mut h = g.clone();
            let out = h.play_turn(a);
            assert!(out.is_none_or(|o| !o.reason.is_fault()), "{a:?}: {out:?}");
        }
        assert_eq!(count_turns(&g, u64::MAX), turns.len() as u64);
    }

    /// The spec's Decision (§2), checked by hand on a small position: the list holds the
    /// step sequences that end on a fresh point, in a goal, or stuck on a bounce point, and
    /// nothing else.
    ///
    /// 2×4 (m = 1, the whole end line is the mouth, no end-line segment is pre-drawn) after
    /// red `52` (1,2)→(0,3)→(1,3), blue `4` →(1,4), red `16017` →(2,3)→(1,3)→(1,2)→(2,1)→(1,0).
    /// Blue is at (1,0), whose only line is the one from (2,1):
    /// * `0`, `1`, `7`: into red's goal at once;
    /// * `2` →(2,0) corner, bounce: `5` →(1,1) fresh, `7` →(1,-1) goal; N, S are drawn;
    /// * `3` →(2,1): drawn;  `4` →(1,1): fresh;
    /// * `5` →(0,1) side, bounce: `2` →(1,1) fresh, `3` →(1,2) centre, bounce, from which
    ///   only `0` →(1,1) fresh and `3` →(2,3) are open; (2,3) has every way out drawn or off
    ///   the field: `533` leaves blue stuck, a listed (losing) turn;
    /// * `6` →(0,0) corner, bounce: `1` →(1,-1) goal, `3` →(1,1) fresh.
    #[test]
    fn the_list_holds_fresh_goal_and_stuck_endings_hand_checked() {
        let record = Record::parse("2x4 red: 52/4/16017").unwrap();
        let g = record.replay().unwrap();
        assert_eq!((g.to_move(), g.ball()), (Side::Blue, Point::new(1, 0)));
        let turns: Vec<String> = g.legal_turns().map(|t| t.to_string()).collect();
        assert_eq!(
            turns,
            [
                "0", "1", "25", "27", "4", "52", "530", "533", "61", "63", "7"
            ]
        );
        assert_eq!(count_turns(&g, u64::MAX), 11);
        assert_eq!(
            count_turns_within(&g, u64::MAX),
            TurnCount {
                turns: 11,
                // One step per node of the list's prefix tree: 20 digits, less the 5
                // repeated prefix steps (`2` once, `5` twice, `53` once, `6` once).
                steps: 20 - 5,
                complete: true
            }
        );
        let ending = |t: &str| {
            g.clone()
                .play_message(t.as_bytes())
                .map(|o| (o.winner, o.reason))
        };
        assert_eq!(ending("533"), Some((Side::Red, Reason::Stuck)));
        assert_eq!(ending("27"), Some((Side::Blue, Reason::Goal)));
        assert_eq!(ending("530"), None);
        // A bounce point with a step left is not the end of a turn, so `53` is not listed.
        assert_eq!(ending("53"), Some((Side::Red, Reason::IncompleteTurn)));
    }

    #[test]
    fn a_budget_stops_the_count_and_says_so() {
        // 12x2: the kick-off has astronomically many turns.
        let g = Game::new(Field::new(12, 2).unwrap(), Side::Red);
        let count = count_turns_within(&g, 10_000);
        assert!(!count.complete);
        assert_eq!(count.steps, 10_000);
        assert!(count.turns > 0 && count.turns < 10_000, "{count:?}");
        // The turns counted are the first ones the list streams.
        assert_eq!(count_turns(&g, count.turns), count.turns);
        // A budget that suffices gives the exact count.
        let g = Game::new(Field::new(8, 10).unwrap(), Side::Red);
        assert_eq!(
            count_turns_within(&g, 6),
            TurnCount {
                turns: 6,
                steps: 6,
                complete: true
            }
        );
        let short = count_turns_within(&g, 5);
        assert_eq!((short.turns, short.complete), (5, false));
    }

    #[test]
    fn a_finished_game_has_no_turns() {
        let mut g = Game::new(Field::new(2, 2).unwrap(), Side::Red);
        g.play_message(b"");
        assert_eq!(g.legal_turns().count(), 0);
    }
}
