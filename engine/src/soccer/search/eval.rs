//! The static evaluation: how good a position is for the player to move, from features that
//! mean the same on every field size (squares of distance, counts of steps), in hundredths of
//! a square of progress, roughly.
//!
//! * **Progress**: how much nearer the ball is to the goal attacked than to the goal defended
//!   (king-move distances, so a diagonal counts one square).
//! * **Bounce reach**: each legal step onto a bounce point is a free extra step for the mover;
//!   it counts, plus the progress it makes toward the goal attacked.
//! * A small seeded jitter on the ball's point, so engines of different seeds vary their play.

use crate::rng::SplitMix64;
use crate::soccer::game::Game;
use crate::soccer::types::{Dir, Point, Side};

/// Weights: per square of progress, and per unit of bounce reach (the old engine's tuning,
/// see the README's tuning notes).
pub(super) const PROGRESS: i32 = 16;
pub(super) const MOBILITY: i32 = 6;

/// The evaluation scale of a 50 % → 73 % win probability (one logistic unit): four squares of
/// progress. A guess checked only roughly by self-play (README, engine section).
pub(super) const LOGISTIC: f64 = 4.0 * PROGRESS as f64;

/// The value of `game` for the player to move (positive = good).
pub(super) fn evaluate(game: &Game, seed: u64) -> i32 {
    let field = game.field();
    let side = game.to_move();
    let ball = game.ball();
    let attack = i32::from(field.distance_to_goal(ball, side.opponent()));
    let defend = i32::from(field.distance_to_goal(ball, side));
    (defend - attack) * PROGRESS + bounce_reach(game, side, ball) * MOBILITY + jitter(seed, ball)
}

/// Each legal step onto a bounce point counts 1, plus the progress toward the goal attacked
/// that it makes.
fn bounce_reach(game: &Game, side: Side, ball: Point) -> i32 {
    let field = game.field();
    let mask = game.legal_step_mask();
    let here = i32::from(field.distance_to_goal(ball, side.opponent()));
    let mut total = 0;
    for d in Dir::ALL {
        let q = ball.step(d);
        if mask & (1 << d as u8) != 0 && game.is_bounce_point(q) {
            let there = i32::from(field.distance_to_goal(q, side.opponent()));
            total += 1 + (here - there).max(0);
        }
    }
    total
}

fn jitter(seed: u64, p: Point) -> i32 {
    let mut h = SplitMix64::new(seed ^ ((p.x as u64) << 16) ^ (p.y as u64 & 0xFFFF));
    (h.next_u64() & 7) as i32
}

/// The probability that the player to move wins, from an evaluation.
pub(super) fn win_probability(eval: i32) -> f64 {
    1.0 / (1.0 + (-f64::from(eval) / LOGISTIC).exp())
}
