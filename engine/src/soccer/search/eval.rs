//! The static evaluation: the chance that the player to move wins, as a logistic model over
//! features that mean the same on every field size (squares of distance, counts of steps and
//! of lines near the ball), with weights the training program fits by self-play and measures
//! against the weights in use (`cargo run --release -p engine --example train`, README).
//!
//! The logistic model is evaluated at every leaf of the search, where a few dozen
//! multiply-adds keep the search at full speed in WebAssembly, and its weights say what the
//! engine believes. What counts cannot see — which lines lie where around the ball — a small
//! network over the lines around the ball adds to its logit ([`super::net`], [`Model`]). The
//! search works on integers: a value is the logit in units of 1/64 (`LOGISTIC`), and
//! `Score::win_probability` turns it back into a chance.
//!
//! A small seeded jitter on the ball's point is added, so engines of different seeds vary their
//! play.

use std::sync::{Arc, OnceLock};

use crate::rng::SplitMix64;
use crate::soccer::game::Game;
use crate::soccer::types::{Dir, Point};

use super::net::{self, Net};

/// How many features [`features`] computes.
pub const FEATURES: usize = 16;

/// The features' names, in order: for the trainer's report and the weights file.
pub const NAMES: [&str; FEATURES] = [
    "bias",
    "progress",
    "progress_per_length",
    "attack_le_1",
    "attack_le_2",
    "attack_le_3",
    "defend_le_1",
    "defend_le_2",
    "defend_le_3",
    "legal_steps",
    "bounce_steps",
    "bounce_progress",
    "lines_near",
    "bounce_near_goal",
    "lateral",
    "forward_steps",
];

/// One logistic unit in evaluation units: the search's integers are logits × `LOGISTIC`.
pub(super) const LOGISTIC: f64 = 64.0;

/// The features of `game` for the player to move, at the start of its turn.
///
/// * `progress`: how much nearer the ball is to the goal attacked than to the goal defended
///   (king-move distances, so a diagonal counts one square), also per square of the field's
///   length;
/// * `attack_le_k` / `defend_le_k`: the ball within `k` squares of the goal attacked /
///   defended, where a threat or a danger is not linear in the distance;
/// * `legal_steps`, `bounce_steps` (legal steps onto a point where the mover steps again),
///   `bounce_progress` (the progress toward the goal attacked those steps make),
///   `forward_steps` (legal steps that end the turn nearer the goal attacked);
/// * `lines_near`: how many of the 24 points within two steps of the ball are touched by a
///   line (bounce chains grow there), `bounce_near_goal` (bounce steps within three squares of
///   the goal attacked), and `lateral`: the ball's distance from the middle column as a
///   fraction of the half-width.
pub fn features(game: &Game) -> [f32; FEATURES] {
    features_with(game, true)
}

/// Where `lines_near` sits in [`features`].
const LINES_NEAR: usize = 12;

/// [`features`], with `lines_near` left at 0 unless `lines_near` is asked for: its scan of 24
/// points costs more than all the rest, and the search evaluates every leaf, so weights that
/// give it nothing do not pay for it.
fn features_with(game: &Game, lines_near: bool) -> [f32; FEATURES] {
    let field = game.field();
    let side = game.to_move();
    let ball = game.ball();
    let attack = field.distance_to_goal(ball, side.opponent());
    let defend = field.distance_to_goal(ball, side);
    let mask = game.legal_step_mask();
    let mut legal: i16 = 0;
    let mut bounce: i16 = 0;
    let mut bounce_progress: i16 = 0;
    let mut forward: i16 = 0;
    for d in Dir::ALL {
        if mask & (1 << d as u8) == 0 {
            continue;
        }
        legal += 1;
        let q = ball.step(d);
        let gain = attack - field.distance_to_goal(q, side.opponent());
        if game.is_bounce_point(q) {
            bounce += 1;
            bounce_progress += gain.max(0);
        } else if gain > 0 {
            forward += 1;
        }
    }
    let near = if lines_near { lines_near_ball(game) } else { 0 };
    let half = f32::from(field.width()) / 2.0;
    let middle = field.centre().x;
    let flag = |b: bool| if b { 1.0 } else { 0.0 };
    let progress = f32::from(defend - attack);
    [
        1.0,
        progress,
        progress / f32::from(field.length()),
        flag(attack <= 1),
        flag(attack <= 2),
        flag(attack <= 3),
        flag(defend <= 1),
        flag(defend <= 2),
        flag(defend <= 3),
        f32::from(legal),
        f32::from(bounce),
        f32::from(bounce_progress),
        f32::from(near),
        f32::from(bounce) * flag(attack <= 3),
        f32::from((ball.x - middle).abs()) / half,
        f32::from(forward),
    ]
}

/// How many of the 24 points within two steps of the ball a line touches.
fn lines_near_ball(game: &Game) -> i16 {
    let ball = game.ball();
    let mut near = 0;
    for dy in -2..=2i16 {
        for dx in -2..=2i16 {
            let p = Point {
                x: ball.x + dx,
                y: ball.y + dy,
            };
            if (dx, dy) != (0, 0) && game.is_bounce_point(p) {
                near += 1;
            }
        }
    }
    near
}

/// The weights of the logistic model, one per feature (in [`NAMES`]' order).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights(pub [f32; FEATURES]);

impl Weights {
    /// The weights the engine plays with (`weights.rs`; `train --write` replaces it with the
    /// weights it fits, once they play better).
    pub fn in_use() -> Weights {
        Weights(super::weights::IN_USE)
    }

    /// The hand-tuned evaluation, the baseline of the training: 16 per square of
    /// progress, 6 per bounce step and per square of progress a bounce step makes, over a
    /// logistic unit of four squares — a baseline for the trainer's matches.
    pub fn handmade() -> Weights {
        let mut w = [0.0; FEATURES];
        w[1] = 16.0 / 64.0;
        w[10] = 6.0 / 64.0;
        w[11] = 6.0 / 64.0;
        Weights(w)
    }

    /// The model's logit (log-odds that the player to move wins) for `features`.
    pub fn logit(&self, features: &[f32; FEATURES]) -> f32 {
        self.0.iter().zip(features).map(|(w, f)| w * f).sum()
    }
}

/// The whole evaluation: the logistic model and, once one is trained, the network over the
/// lines around the ball whose output adds to the model's logit.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub weights: Weights,
    pub net: Option<Arc<Net>>,
}

impl Model {
    /// The evaluation the engine plays with (`weights.rs`).
    pub fn in_use() -> Model {
        static NET: OnceLock<Option<Arc<Net>>> = OnceLock::new();
        let net = NET.get_or_init(|| {
            super::weights::NET.map(|p| {
                Arc::new(Net::from_params(p).expect("the committed network is well formed"))
            })
        });
        Model {
            weights: Weights::in_use(),
            net: net.clone(),
        }
    }

    /// The logistic model alone.
    pub fn linear(weights: Weights) -> Model {
        Model { weights, net: None }
    }

    /// The model's logit for `game` (log-odds that the player to move wins), without the
    /// search's jitter.
    pub fn logit(&self, game: &Game) -> f32 {
        let x = features_with(game, self.weights.0[LINES_NEAR] != 0.0);
        let linear = self.weights.logit(&x);
        match &self.net {
            Some(net) => linear + net.logit(&net::patch(game), &x),
            None => linear,
        }
    }
}

/// The value of `game` for the player to move (positive = good), in 1/[`LOGISTIC`] logits.
pub(super) fn evaluate(game: &Game, model: &Model, seed: u64) -> i32 {
    let logit = model.logit(game);
    // Clamped far inside the proven scores: an estimate never reads as a proof.
    let value = (f64::from(logit) * LOGISTIC).clamp(-50_000.0, 50_000.0) as i32;
    value + jitter(seed, game.ball())
}

fn jitter(seed: u64, p: Point) -> i32 {
    let mut h = SplitMix64::new(seed ^ ((p.x as u64) << 16) ^ (p.y as u64 & 0xFFFF));
    (h.next_u64() & 7) as i32
}

/// The probability that the player to move wins, from an evaluation.
pub(super) fn win_probability(eval: i32) -> f64 {
    1.0 / (1.0 + (-f64::from(eval) / LOGISTIC).exp())
}
