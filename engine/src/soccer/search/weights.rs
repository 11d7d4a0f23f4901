//! The weights of the evaluation in use, in `eval::NAMES`' order: today the hand-made ones
//! (`Weights::handmade`: 16 per square of progress, 6 per bounce step and per square of
//! progress it makes, over a logistic unit of 64). The training program's `--write` replaces
//! this file with the weights it fits, with its command and results.
//!
//! Trained on 2 December 2026, not adopted:
//! `cargo run --release -p engine --example train -- --games 2500 --level 2 --rounds 2 --seed 17
//! --search-share 0.7 --search-level 3 --check 100 --check-level 4 --sizes
//! 8x10,10x8,6x8,12x16,30x40` (64,427 samples in round 2; held-out log-loss against the
//! results 0.745 → 0.695 nats) won 49 % on 8x10, 45 % on 10x8, 40 % on 6x8 and 60 % on 12x16
//! against these weights at level 4 (100 games each): no better, so these stay.

/// The weights in use.
#[rustfmt::skip]
pub(super) const IN_USE: [f32; super::eval::FEATURES] = [
    0.0,     // bias
    0.25,    // progress
    0.0,     // progress_per_length
    0.0,     // attack_le_1
    0.0,     // attack_le_2
    0.0,     // attack_le_3
    0.0,     // defend_le_1
    0.0,     // defend_le_2
    0.0,     // defend_le_3
    0.0,     // legal_steps
    0.09375, // bounce_steps
    0.09375, // bounce_progress
    0.0,     // lines_near
    0.0,     // bounce_near_goal
    0.0,     // lateral
    0.0,     // forward_steps
];

/// The network over the lines around the ball (`net::PARAMS` numbers), when one is in use.
pub(super) const NET: Option<&[f32]> = None;
