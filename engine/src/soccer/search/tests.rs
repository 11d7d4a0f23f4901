use std::cell::Cell;

use super::*;
use crate::soccer::field::Field;
use crate::soccer::types::{Outcome, Side};

fn legal(game: &Game, turn: &Turn) -> bool {
    let mut g = game.clone();
    g.play_turn(turn)
        .is_none_or(|o: Outcome| !o.reason.is_fault())
}

#[test]
fn takes_a_goal_in_one() {
    // 2x2: red scores at once with 35 (3 to the corner, 5 into the mouth).
    let g = Game::new(Field::new(2, 2).unwrap(), Side::Red);
    let a = Engine::new(1, 7).analyse(&g).unwrap();
    assert_eq!(a.score, Score::Win(1));
    let mut h = g.clone();
    assert_eq!(h.play_turn(&a.turn).map(|o| o.winner), Some(Side::Red));
}

#[test]
fn every_level_plays_legal_turns_on_odd_shapes() {
    for (w, l) in [(2, 2), (254, 2), (2, 254), (254, 254), (8, 10)] {
        let g = Game::new(Field::new(w, l).unwrap(), Side::Blue);
        for level in [0, 1, 2] {
            let turn = Engine::new(level, 3).choose_turn(&g).expect("a turn");
            assert!(legal(&g, &turn), "{w}x{l} level {level}: {turn:?}");
        }
    }
}

#[test]
fn same_seed_same_turn() {
    let g = Game::new(Field::new(8, 10).unwrap(), Side::Red);
    let a = Engine::new(3, 11).analyse(&g).unwrap();
    let b = Engine::new(3, 11).analyse(&g).unwrap();
    assert_eq!((a.turn, a.nodes), (b.turn, b.nodes));
}

/// A clock that advances one millisecond each time it is read.
fn ticking() -> impl Fn() -> f64 {
    let t = Cell::new(0.0);
    move || {
        t.set(t.get() + 1.0);
        t.get()
    }
}

#[test]
fn a_timed_engine_stops_at_its_time_by_the_given_clock() {
    let g = Game::new(Field::new(30, 40).unwrap(), Side::Red);
    let clock = ticking();
    let a = Engine::timed(20, 1)
        .analyse_with_clock(&g, &clock)
        .expect("a turn");
    assert!(legal(&g, &a.turn));
    // The clock is read once every 1,024 steps: 20 reads at most, plus the start and end.
    let millis = a.millis.expect("timed by the clock");
    assert!((20.0..=23.0).contains(&millis), "{millis} ms");
    assert!(a.nodes <= 21 * 1024, "{} nodes", a.nodes);
    assert!(a.depth >= 1);
}

#[test]
fn a_time_cap_stops_a_deterministic_engine_only_when_reached() {
    let g = Game::new(Field::new(8, 10).unwrap(), Side::Red);
    let plain = Engine::new(2, 5).analyse(&g).unwrap();
    let capped = Engine::new(2, 5)
        .with_time_cap(1_000_000)
        .analyse_with_clock(&g, &ticking())
        .unwrap();
    assert_eq!(
        (plain.turn, plain.nodes),
        (capped.turn.clone(), capped.nodes)
    );
    let short = Engine::new(6, 5)
        .with_time_cap(3)
        .analyse_with_clock(&g, &ticking())
        .unwrap();
    assert!(short.nodes < 5 * 1024, "{} nodes", short.nodes);
}

#[test]
fn a_goal_two_turns_away_is_proven_and_defended_against() {
    // 2x4: from the kick-off (1, 2) the first turn can reach the mouth only by bouncing; the
    // full search proves the position one way or the other, and deeper searches agree.
    let g = Game::new(Field::new(2, 4).unwrap(), Side::Red);
    let a = Engine::with_budget(u64::MAX, 1).analyse(&g).unwrap();
    assert!(a.score.is_proven(), "{a:?}");
    let b = Engine::with_budget(u64::MAX, 2).analyse(&g).unwrap();
    assert_eq!(a.score, b.score);
}

#[test]
fn win_probability_follows_the_score() {
    assert_eq!(Score::Win(3).win_probability(), 1.0);
    assert_eq!(Score::Loss(1).win_probability(), 0.0);
    assert!(Score::Eval(100).win_probability() > 0.5);
    assert!(Score::Eval(-100).win_probability() < 0.5);
    assert_eq!(Score::Eval(0).win_probability(), 0.5);
    let g = Game::new(Field::new(8, 10).unwrap(), Side::Red);
    let p = Engine::new(1, 0).evaluate(&g);
    assert!((0.0..=1.0).contains(&p));
}

#[test]
fn level_millis_leave_a_margin_of_the_turn() {
    assert_eq!(level_millis(6, 1000), 650);
    assert_eq!(level_millis(6, 400), 200);
    assert_eq!(level_millis(1, 1000), 10);
    assert_eq!(level_millis(6, 100), 1);
}

#[test]
fn level_labels_say_what_each_level_does() {
    assert_eq!(level_label(0), "0 · random (weakest)");
    assert_eq!(level_label(1), "1 · 40 steps a turn");
    assert_eq!(level_label(2), "2 · 5k steps a turn");
    assert_eq!(level_label(5), "5 · 1.2M steps a turn");
    assert_eq!(level_label(6), "6 · 650 ms a turn (strongest)");
    assert_eq!(level_label(200), level_label(MAX_LEVEL));
}

#[test]
fn only_the_top_level_is_timed() {
    assert_eq!(Engine::at_level(MAX_LEVEL, 1).millis, Some(650.0));
    let below = Engine::at_level(3, 1);
    assert_eq!(below.budget, BUDGETS[3]);
    // The cap only stops a search that a slow machine has let run past the top level's time.
    assert_eq!(below.millis, Some(650.0));
}

/// Plays `turns` random turns from the kick-off and the same game mirrored by `map` (a
/// digit's image), with `starter` and `mirrored_starter`; calls `check` at each turn start.
fn mirrored_games(
    field: Field,
    starters: (Side, Side),
    map: fn(u8) -> u8,
    mut check: impl FnMut(&Game, &Game),
) {
    for seed in 0..20 {
        let mut a = Game::new(field, starters.0);
        let mut b = Game::new(field, starters.1);
        let mut random = Engine::new(0, seed);
        while a.outcome().is_none() {
            check(&a, &b);
            let turn = random.choose_turn(&a).expect("a turn");
            let image: Vec<u8> = turn.digits().iter().map(|&d| map(d)).collect();
            a.play_turn(&turn);
            b.play_turn(&Turn::new(&image).expect("a mirrored turn"));
        }
        assert_eq!(a.outcome().map(|o| o.reason), b.outcome().map(|o| o.reason));
    }
}

#[test]
fn the_features_do_not_see_left_from_right() {
    let left_right = |d: u8| b'0' + (8 - (d - b'0')) % 8;
    for (w, l) in [(8, 10), (6, 8), (12, 16)] {
        let field = Field::new(w, l).unwrap();
        mirrored_games(field, (Side::Red, Side::Red), left_right, |a, b| {
            assert_eq!(eval::features(a), eval::features(b), "{w}x{l}");
        });
    }
}

#[test]
fn the_features_are_the_same_for_either_colour() {
    // Turning the field upside down swaps the goals: the same position for the other side.
    let up_down = |d: u8| b'0' + (12 - (d - b'0')) % 8;
    let field = Field::new(8, 10).unwrap();
    mirrored_games(field, (Side::Red, Side::Blue), up_down, |a, b| {
        assert_ne!(a.to_move(), b.to_move());
        assert_eq!(eval::features(a), eval::features(b));
    });
}

#[test]
fn the_handmade_weights_are_the_old_evaluation() {
    // 16 per square of progress, 6 per legal step onto a bounce point plus 6 per square of
    // progress that step makes, in a logistic unit of 64.
    let field = Field::new(8, 10).unwrap();
    mirrored_games(
        field,
        (Side::Red, Side::Red),
        |d| d,
        |g, _| {
            let side = g.to_move();
            let ball = g.ball();
            let attack = field.distance_to_goal(ball, side.opponent());
            let defend = field.distance_to_goal(ball, side);
            let mut old = i32::from(defend - attack) * 16;
            for d in g.legal_steps() {
                let q = ball.step(d);
                if g.is_bounce_point(q) {
                    let gain = attack - field.distance_to_goal(q, side.opponent());
                    old += 6 * (1 + i32::from(gain.max(0)));
                }
            }
            let handmade = eval::Weights::handmade();
            let logit = handmade.logit(&eval::features(g));
            assert_eq!(f64::from(logit) * 64.0, f64::from(old));
            // The search's evaluation skips the features these weights ignore: the same value,
            // up to the seed's jitter of 0 to 7.
            let jittered = eval::evaluate(g, &handmade, 9);
            assert!((old..old + 8).contains(&jittered), "{jittered} for {old}");
        },
    );
}

#[test]
fn the_evaluation_prefers_the_ball_near_the_goal_attacked() {
    // Four one-step turns from the centre (4,5), red starting: red to move again with the ball
    // two steps from a goal line, blue's (south) or its own (north).
    let field = Field::new(8, 10).unwrap();
    let chance = |step: &[u8]| {
        let mut g = Game::new(field, Side::Red);
        for _ in 0..4 {
            assert_eq!(g.play_message(step), None);
        }
        assert_eq!(g.to_move(), Side::Red);
        Engine::new(3, 1).evaluate(&g)
    };
    let attacking = chance(b"4");
    let defending = chance(b"0");
    assert!(attacking > 0.6, "{attacking}");
    assert!(defending < 0.4, "{defending}");
}

#[test]
fn the_evaluation_is_a_probability_on_every_field_shape() {
    for (w, l) in [(2, 2), (254, 2), (2, 254), (254, 254), (30, 40)] {
        let g = Game::new(Field::new(w, l).unwrap(), Side::Red);
        let f = eval::features(&g);
        assert!(f.iter().all(|x| x.is_finite()), "{w}x{l}: {f:?}");
        let p = Engine::new(3, 1).evaluate(&g);
        assert!((0.0..=1.0).contains(&p), "{w}x{l}: {p}");
    }
}
