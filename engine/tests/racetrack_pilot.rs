//! The pilots against the judge, against each other and against the plain search.

use engine::racetrack::Circuit;
use engine::racetrack::judge::{self, Verdict};
use engine::racetrack::physics::{self, Pos};
use engine::racetrack::pilot::bench::bounds::LowerBound;
use engine::racetrack::pilot::bench::field::WalkDistances;
use engine::racetrack::pilot::bench::model::{State, Track};
use engine::racetrack::pilot::bench::{bfs, demo, optimal, wavefront};
use engine::racetrack::pilot::{Lap, Pilot, PilotError};
use engine::racetrack::samples::SAMPLES;

fn conforming() -> impl Iterator<Item = (&'static str, Circuit)> {
    SAMPLES.iter().filter(|s| s.conforming).map(|s| {
        (
            s.name,
            Circuit::parse(s.text.as_bytes()).expect("samples parse"),
        )
    })
}

fn sample(name: &str) -> Circuit {
    let sample = SAMPLES.iter().find(|s| s.name == name).expect("a sample");
    Circuit::parse(sample.text.as_bytes()).expect("samples parse")
}

fn judged(circuit: &Circuit, lap: &Lap, name: &str) -> judge::ValidLap {
    match judge::judge_positions(circuit, lap.positions()) {
        Verdict::Valid(v) => v,
        Verdict::Invalid(fault) => panic!("{name}: the judge refuses the lap: {fault}"),
    }
}

/// The search states along a lap (all but the finishing move's end).
fn states_along(circuit: &Circuit, lap: &Lap) -> Vec<State> {
    let line = physics::finish_line(circuit).unwrap();
    let p = lap.positions();
    let mut states = vec![State::START];
    let mut count = 0;
    for k in 1..p.len() - 1 {
        count += physics::crossing(&line, p[k - 1], p[k]);
        states.push(State {
            pos: p[k],
            vel: Pos::new(p[k].x - p[k - 1].x, p[k].y - p[k - 1].y),
            count: count as i8,
            before_first_move: false,
        });
    }
    states
}

#[test]
fn the_optimal_lap_is_valid_and_as_fast_as_the_plain_search_finds() {
    for (name, circuit) in conforming() {
        let lap = optimal::solve(&circuit).unwrap_or_else(|e| panic!("{name}: {e}"));
        let verdict = judged(&circuit, &lap, name);
        assert_eq!(verdict.moves, lap.moves(), "{name}");
        assert_eq!(verdict.time, lap.time().seconds(), "{name}");
        let reference = bfs::plain_bfs(&circuit).unwrap();
        judged(&circuit, &reference, name);
        // Same moves and the same exact fraction: no lap is faster.
        assert_eq!(lap.time(), reference.time(), "{name}");
        // The bit-parallel search, written independently, agrees.
        let wave = wavefront::solve(&circuit).unwrap();
        judged(&circuit, &wave, name);
        assert_eq!(wave.time(), reference.time(), "{name}");
    }
}

#[test]
fn the_bounds_never_overestimate_along_the_optimal_lap() {
    for (name, circuit) in conforming() {
        let track = Track::new(&circuit).unwrap();
        let bound = LowerBound::new(&track);
        let field = WalkDistances::lower_bounds(&track);
        let lap = optimal::solve(&circuit).unwrap();
        let states = states_along(&circuit, &lap);
        let n = lap.moves() as u32;
        // Cells still to drive: the sum of the remaining moves' Chebyshev lengths.
        let p = lap.positions();
        for (k, state) in states.iter().enumerate() {
            let left = n - k as u32;
            let h = bound
                .moves(*state)
                .unwrap_or_else(|| panic!("{name}: move {k} pruned"));
            assert!(
                h >= 1 && h <= left,
                "{name}: move {k}: bound {h} > {left} moves left"
            );
            let cells: u32 = p[k..]
                .windows(2)
                .map(|w| {
                    (w[1].x - w[0].x)
                        .unsigned_abs()
                        .max((w[1].y - w[0].y).unsigned_abs())
                })
                .sum();
            let walk = field.distance(state.pos, i32::from(state.count)).unwrap();
            assert!(
                walk <= cells,
                "{name}: move {k}: walk {walk} > {cells} cells"
            );
        }
        // The last state before the finish is one move away, and the bound knows it.
        assert_eq!(bound.moves(*states.last().unwrap()), Some(1), "{name}");
    }
}

#[test]
fn the_demo_pilot_finishes_slowly_everywhere() {
    for (name, circuit) in conforming() {
        let lap = demo::drive(&circuit).unwrap_or_else(|e| panic!("{name}: {e}"));
        judged(&circuit, &lap, name);
        let best = optimal::solve(&circuit).unwrap();
        assert!(lap.time() > best.time(), "{name}");
        assert!(
            lap.moves() >= 2 * best.moves(),
            "{name}: the demo is not clearly slower"
        );
        let fastest = lap
            .positions()
            .windows(2)
            .map(|w| (w[1].x - w[0].x).abs().max((w[1].y - w[0].y).abs()))
            .max();
        assert_eq!(fastest, Some(1), "{name}");
    }
}

#[test]
fn no_lap_and_no_start_are_reported() {
    // Only the start zone is track: there is no loop to drive.
    let blank = Circuit::blank();
    for pilot in Pilot::ALL {
        assert_eq!(pilot.fly(&blank), Err(PilotError::NoLap), "{pilot}");
    }
    assert_eq!(bfs::plain_bfs(&blank), Err(PilotError::NoLap));
    assert_eq!(wavefront::solve(&blank), Err(PilotError::NoLap));
    let decor = Circuit::filled(b'A').unwrap();
    assert_eq!(optimal::solve(&decor), Err(PilotError::NoFinishLine));
    assert_eq!(wavefront::solve(&decor), Err(PilotError::NoFinishLine));
    assert_eq!(bfs::plain_bfs(&decor), Err(PilotError::NoFinishLine));
    assert_eq!(demo::drive(&decor), Err(PilotError::NoFinishLine));
}

#[test]
fn a_wall_across_the_loop_leaves_no_lap() {
    let (_, mut circuit) = conforming().next().unwrap();
    // Close the ring's track with decor on column 100 (the right-hand straight).
    for y in 0..Circuit::HEIGHT {
        circuit.set(Pos::new(100, y), b'A').unwrap();
    }
    for pilot in Pilot::ALL {
        assert_eq!(pilot.fly(&circuit), Err(PilotError::NoLap), "{pilot}");
    }
}

/// A snake of `lanes` two-row lanes joined by U-turns at alternate ends, and a corridor up
/// the left edge back to the line: a lap of hundreds of moves.
fn snake(lanes: i32) -> Circuit {
    let mut c = Circuit::filled(b'A').unwrap();
    let mut track = |x: std::ops::Range<i32>, y: std::ops::Range<i32>| {
        for yy in y {
            for xx in x.clone() {
                c.set(Pos::new(xx, yy), b' ').unwrap();
            }
        }
    };
    for k in 0..lanes {
        let top = 3 + 3 * k;
        // The first lane (past the line in column 40) and the last one reach the corridor in
        // columns 1 and 2; the others stop short of it, behind a wall in column 3.
        let ends = k == 0 || k + 1 == lanes;
        track(if ends { 1..147 } else { 4..147 }, top..top + 2);
        if k + 1 < lanes {
            // The U-turn down to the next lane: right after even lanes, left after odd ones.
            let x = if k % 2 == 0 { 145..147 } else { 4..6 };
            track(x, top + 2..top + 3);
        }
    }
    let bottom = 3 + 3 * (lanes - 1);
    track(1..3, 3..bottom + 2);
    c
}

#[test]
fn laps_longer_than_one_byte_tables_hold_are_still_optimal() {
    // Two lanes more add 49 moves. Eleven lanes make a lap of exactly the 253 moves that
    // one-byte entries hold; thirteen need two-byte ones. (An odd number of lanes, so that
    // the last one runs right to left into the corridor.)
    for (lanes, moves) in [(11, 253), (13, 302)] {
        let circuit = snake(lanes);
        let lap = optimal::solve(&circuit).unwrap();
        assert_eq!(lap.moves(), moves, "{lanes} lanes");
        judged(&circuit, &lap, "snake");
        assert_eq!(
            Ok(lap.time()),
            wavefront::solve(&circuit).map(|l| l.time()),
            "{lanes} lanes"
        );
        // Found by the A* search itself (both widths' work counted), not its last resort,
        // the plain search.
        let (_, searched) = optimal::solve_with_stats(&circuit);
        let (_, plain) = bfs::plain_bfs_with_stats(&circuit);
        assert!(searched.expanded < plain.expanded, "{lanes} lanes");
    }
}

/// The moves to finish of every state a lap can reach, as a bound: the best there is.
struct Exact(bfs::MovesToFinish);

impl optimal::Bound for Exact {
    fn moves(&self, state: State) -> Option<u32> {
        self.0.moves(state)
    }
}

#[test]
fn the_bound_never_exceeds_the_exact_moves_to_finish_of_any_reachable_state() {
    let circuit = sample("needle");
    let track = Track::new(&circuit).unwrap();
    let exact = bfs::MovesToFinish::of(&track);
    let lap = optimal::solve(&circuit).unwrap();
    assert_eq!(exact.moves(State::START), Some(lap.moves() as u32));
    assert!(exact.len() > 100_000, "{} states", exact.len());
    let bound = LowerBound::new(&track);
    let mut doomed = 0;
    for bfs::Reached { state, left, .. } in exact.iter() {
        match left {
            Some(m) => assert!(
                bound.moves(state).is_some_and(|h| h <= m),
                "{state:?}: bound {:?}, exact {m}",
                bound.moves(state)
            ),
            None => doomed += 1,
        }
    }
    assert!(doomed > 0, "some states are doomed");
    // With the exact moves as its bound the search finds the same lap time, expanding far
    // fewer states.
    let (perfect, searched) = optimal::solve_with_bound(&circuit, &Exact(exact));
    assert_eq!(perfect.map(|l| l.time()), Ok(lap.time()));
    let (_, today) = optimal::solve_with_stats(&circuit);
    assert!(
        searched.expanded * 4 < today.expanded,
        "{searched:?} vs {today:?}"
    );
}

#[test]
fn result_files_are_accepted_by_the_judge() {
    let (name, circuit) = conforming().next().unwrap();
    let lap = optimal::solve(&circuit).unwrap();
    let text = lap.to_f1("optimal", &format!("{name}.cir"));
    let verdict = judge::judge_bytes(&circuit, text.as_bytes());
    assert!(verdict.is_valid(), "{verdict:?}");
}

#[cfg(not(target_arch = "wasm32"))]
mod random_circuits {
    use super::*;
    use proptest::prelude::*;

    /// A small circuit: the start zone plus random track rectangles near it, so that a lap
    /// sometimes exists and the plain search stays quick.
    fn circuit(rects: &[(i32, i32, i32, i32)]) -> Circuit {
        let mut c = Circuit::blank();
        for &(x, y, w, h) in rects {
            for yy in y..(y + h).min(16) {
                for xx in x..(x + w).min(66) {
                    c.set(Pos::new(xx, yy), b' ').unwrap();
                }
            }
        }
        c
    }

    const RING: [(i32, i32, i32, i32); 4] = [
        (20, 1, 45, 2),
        (20, 1, 4, 15),
        (61, 1, 4, 15),
        (20, 12, 45, 3),
    ];

    #[test]
    fn the_random_circuits_ring_has_a_lap() {
        let lap = optimal::solve(&circuit(&RING)).unwrap();
        assert_eq!(
            Ok(lap.time()),
            bfs::plain_bfs(&circuit(&RING)).map(|l| l.time())
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn optimal_agrees_with_the_plain_search(
            rects in proptest::collection::vec((14..64i32, 1..15i32, 1..12i32, 1..10i32), 0..6),
            // A ring around an infield, sometimes, to make laps exist.
            ring in any::<bool>(),
        ) {
            let mut rects = rects;
            if ring {
                rects.extend(RING);
            }
            let c = circuit(&rects);
            let fast = optimal::solve(&c);
            let slow = bfs::plain_bfs(&c);
            prop_assert_eq!(fast.as_ref().map(Lap::time), slow.as_ref().map(Lap::time));
            if let Ok(lap) = fast {
                prop_assert!(judge::judge_positions(&c, lap.positions()).is_valid());
            }
            let wave = wavefront::solve(&c);
            prop_assert_eq!(wave.as_ref().map(Lap::time), slow.as_ref().map(Lap::time));
            if let Ok(lap) = wave {
                prop_assert!(judge::judge_positions(&c, lap.positions()).is_valid());
            }
        }
    }
}
