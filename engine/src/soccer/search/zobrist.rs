//! Zobrist keys of Paper Soccer positions: one random 64-bit key per segment that a step can
//! draw, per point the ball can stand on, and for blue to move. A position's hash is the XOR
//! of the keys of its drawn steps, its ball and (when blue moves) the side key, so one step
//! updates it with three XORs and two different step orders that draw the same lines and stop
//! at the same point get the same hash — which is what lets the search see them as one.
//!
//! The pre-drawn lines are the same in every position of a field, so they are left out.

use std::fmt;

use crate::rng::SplitMix64;
use crate::soccer::field::Field;
use crate::soccer::game::Game;
use crate::soccer::types::{Dir, Point, Side};

/// The keys of one field. About 5 × 8 bytes per point: 2.6 MB on 254×254.
#[derive(Clone)]
pub(super) struct Keys {
    field: Field,
    /// By `index(lower end) * 4 + k`, `k` = the step from the lower end: E, SE, S or SW.
    segments: Vec<u64>,
    /// By [`Field::index`].
    balls: Vec<u64>,
    /// XORed in when blue is to move.
    pub blue: u64,
}

impl fmt::Debug for Keys {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Keys({})", self.field)
    }
}

impl Keys {
    /// The keys of `field`; the same on every machine and for every engine seed.
    pub fn new(field: Field) -> Keys {
        let mut rng = SplitMix64::new(0x5eed_0f50_cce4);
        let n = field.index_len();
        let segments = (0..4 * n).map(|_| rng.next_u64()).collect();
        let balls = (0..n).map(|_| rng.next_u64()).collect();
        Keys {
            field,
            segments,
            balls,
            blue: rng.next_u64(),
        }
    }

    pub fn field(&self) -> Field {
        self.field
    }

    fn ball(&self, p: Point) -> u64 {
        self.balls[self.field.index(p).expect("the ball is on the grid")]
    }

    /// What a step from `from` in `dir` XORs into the hash: its segment and the ball's move.
    pub fn step(&self, from: Point, dir: Dir) -> u64 {
        let to = from.step(dir);
        let d = dir as usize;
        // E, SE, S, SW are 2..=5: keyed at the segment's start; the others at its end.
        let slot = if (2..=5).contains(&d) {
            self.field.index(from).expect("on the grid") * 4 + d - 2
        } else {
            self.field.index(to).expect("on the grid") * 4 + dir.reverse() as usize - 2
        };
        self.segments[slot] ^ self.ball(from) ^ self.ball(to)
    }

    /// The hash of a whole position, computed from scratch.
    pub fn position(&self, game: &Game) -> u64 {
        let mut h = self.ball(self.field.centre());
        let mut at = self.field.centre();
        for (a, b) in game.step_segments() {
            debug_assert_eq!(a, at);
            let dir = crate::soccer::field::dir_between(a, b).expect("steps join neighbours");
            h ^= self.step(a, dir);
            at = b;
        }
        if game.to_move() == Side::Blue {
            h ^= self.blue;
        }
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn different_lines_differ_and_a_redrawn_step_restores_the_hash() {
        let field = Field::new(8, 10).unwrap();
        let keys = Keys::new(field);
        let mut a = Game::new(field, Side::Red);
        let mut b = Game::new(field, Side::Red);
        // (4,5) -S-> (4,6) fresh: turn over. Blue: (4,6) -E-> (5,6) fresh.
        assert_eq!(a.play_message(b"4"), None);
        assert_eq!(a.play_message(b"2"), None);
        // (4,5) -SE-> (5,6) fresh. Blue: (5,6) -W-> (4,6) fresh. Different lines: differ.
        assert_eq!(b.play_message(b"3"), None);
        assert_eq!(b.play_message(b"6"), None);
        assert_ne!(keys.position(&a), keys.position(&b));
        // Undo gives back the earlier hash; the side to move counts.
        let before = keys.position(&a);
        a.undo_step();
        assert_ne!(keys.position(&a), before);
        assert!(a.step(Dir::E).is_ok());
        assert_eq!(keys.position(&a), before);
    }

    #[test]
    fn a_step_key_is_the_same_from_either_end() {
        let field = Field::new(6, 6).unwrap();
        let keys = Keys::new(field);
        let p = Point::new(2, 2);
        for dir in Dir::ALL {
            let q = p.step(dir);
            let there = keys.step(q, dir.reverse());
            assert_eq!(keys.step(p, dir), there, "{dir}");
        }
    }
}
