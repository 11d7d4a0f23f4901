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
//! proportional to the longest turn, and [`count_turns`] counts up to a cap without allocating
//! a string per turn.

use super::game::{Game, StepEffect};
use super::types::Dir;

/// The legal complete turns of a position, in ascending byte order (see the module docs).
/// Created by [`Game::legal_turns`].
#[derive(Clone, Debug)]
pub struct LegalTurns {
    game: Game,
    /// For each step of the current path (plus the root): the next direction to try.
    next: Vec<u8>,
    /// The digits of the current path.
    path: Vec<u8>,
}

impl LegalTurns {
    fn new(game: &Game) -> LegalTurns {
        let next = if game.outcome().is_none() {
            vec![0]
        } else {
            Vec::new()
        };
        LegalTurns {
            game: game.clone(),
            next,
            path: Vec::new(),
        }
    }
}

/// One move of the depth-first walk shared by [`LegalTurns`] and [`count_turns`]: advances to
/// the next complete turn (drawn on `game`, digits in `path`) and returns true, or returns
/// false when the walk is exhausted. The caller undoes the turn's last step before calling
/// again (see [`retreat`]).
fn advance(game: &mut Game, next: &mut Vec<u8>, path: &mut Vec<u8>) -> bool {
    while let Some(top) = next.last_mut() {
        let mask = game
            .legal_step_mask()
            .checked_shr(u32::from(*top))
            .unwrap_or(0);
        if mask == 0 {
            next.pop();
            if next.is_empty() {
                return false;
            }
            game.undo_step();
            path.pop();
            continue;
        }
        let d = *top + mask.trailing_zeros() as u8;
        *top = d + 1;
        let dir = Dir::ALL[usize::from(d)];
        let effect = game.step(dir).expect("a step from the legal mask is legal");
        path.push(dir.digit());
        match effect {
            StepEffect::Bounce => next.push(0),
            StepEffect::TurnOver | StepEffect::GameOver(_) => return true,
        }
    }
    false
}

/// Takes back the last step of the turn that [`advance`] just produced.
fn retreat(game: &mut Game, path: &mut Vec<u8>) {
    game.undo_step();
    path.pop();
}

impl Iterator for LegalTurns {
    type Item = Vec<u8>;

    fn next(&mut self) -> Option<Vec<u8>> {
        if advance(&mut self.game, &mut self.next, &mut self.path) {
            let turn = self.path.clone();
            retreat(&mut self.game, &mut self.path);
            Some(turn)
        } else {
            None
        }
    }
}

/// How many legal complete turns the position has, stopping at `cap` (so the answer is
/// `min(count, cap)`). Allocates nothing per turn.
pub fn count_turns(game: &Game, cap: u64) -> u64 {
    let mut walk = LegalTurns::new(game);
    let mut n = 0;
    while n < cap && advance(&mut walk.game, &mut walk.next, &mut walk.path) {
        retreat(&mut walk.game, &mut walk.path);
        n += 1;
    }
    n
}

impl Game {
    /// Every legal complete turn of the player to move, streamed in ascending byte order (see
    /// [`crate::soccer::turns`] for exactly which strings are listed).
    pub fn legal_turns(&self) -> LegalTurns {
        LegalTurns::new(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::soccer::field::Field;
    use crate::soccer::types::Side;

    #[test]
    fn kick_off_turns_on_8x10() {
        let g = Game::new(Field::new(8, 10).unwrap(), Side::Red);
        let turns: Vec<Vec<u8>> = g.legal_turns().collect();
        let expected: Vec<Vec<u8>> = ["0", "1", "3", "4", "5", "7"]
            .iter()
            .map(|s| s.as_bytes().to_vec())
            .collect();
        assert_eq!(turns, expected);
        assert_eq!(count_turns(&g, 100), 6);
        assert_eq!(count_turns(&g, 4), 4);
    }

    #[test]
    fn turns_are_sorted_prefix_free_and_replay_cleanly() {
        let g = Game::new(Field::new(2, 4).unwrap(), Side::Blue);
        let turns: Vec<Vec<u8>> = g.legal_turns().collect();
        assert!(!turns.is_empty());
        assert!(turns.windows(2).all(|w| w[0] < w[1]));
        for (i, a) in turns.iter().enumerate() {
            for b in &turns[i + 1..] {
                assert!(!b.starts_with(a), "{a:?} is a prefix of {b:?}");
            }
            let mut h = g.clone();
            let out = h.play_turn(a);
            assert!(out.is_none_or(|o| !o.reason.is_fault()), "{a:?}: {out:?}");
        }
        assert_eq!(count_turns(&g, u64::MAX), turns.len() as u64);
    }

    #[test]
    fn a_finished_game_has_no_turns() {
        let mut g = Game::new(Field::new(2, 2).unwrap(), Side::Red);
        g.play_turn(b"");
        assert_eq!(g.legal_turns().count(), 0);
    }
}
