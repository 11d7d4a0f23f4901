//! The optimal pilot: A* over [`State`]s with the lower bound of [`LowerBound`].
//!
//! The bound is admissible and consistent (see [`bounds`](super::bounds) and
//! [`field`](super::field)), so A* with a closed
//! set expands states in order of `g + h` and reaches every state first along a shortest route.
//! Open states wait in buckets by `g + h` (small integers), last in first out within a bucket,
//! so the search dives towards the line. The collision test, the costliest part, runs only for
//! moves that would store a new state or a shorter route to a known one.
//!
//! *Optimality of the time, fraction included.* A lap of `n` moves passes only through states
//! with `g + h ≤ n`; its last state before the finish has `g = n − 1` and `h = 1`, so it is in
//! bucket `n`. The search therefore finishes the whole bucket in which the first finishing
//! move appears (no shorter lap exists, or an earlier bucket would have found it) and keeps
//! the finishing move with the smallest fraction `f` among all of them.

use crate::racetrack::Circuit;
use crate::racetrack::physics::Pos;

use super::bounds::LowerBound;
use super::model::{State, Step, Track};
use super::statemap::StateMap;
use super::{Fraction, Lap, LapTime, PilotError, SearchStats, Trail};

/// The time-optimal lap of `circuit`: fewest moves, then smallest final fraction.
/// [`PilotError::NoLap`] when no lap exists.
pub fn solve(circuit: &Circuit) -> Result<Lap, PilotError> {
    solve_with_stats(circuit).0
}

/// [`solve`], also answering how much it searched.
pub fn solve_with_stats(circuit: &Circuit) -> (Result<Lap, PilotError>, SearchStats) {
    let mut stats = SearchStats::default();
    let result = Track::new(circuit).and_then(|track| search(&track, &mut stats));
    (result, stats)
}

/// Bookkeeping of one stored state.
#[derive(Clone, Copy)]
struct Node {
    /// Moves from the start along the best route known.
    g: u32,
    closed: bool,
}

fn search(track: &Track, stats: &mut SearchStats) -> Result<Lap, PilotError> {
    let bound = LowerBound::new(track);
    let h0 = bound.moves(State::START).ok_or(PilotError::NoLap)?;
    let mut trail = Trail::default();
    let mut nodes: Vec<Node> = Vec::new();
    let mut seen = StateMap::with_capacity(1 << 14);
    let mut buckets: Vec<Vec<u32>> = Vec::new();
    let push = |buckets: &mut Vec<Vec<u32>>, f: u32, i: u32| {
        let f = f as usize;
        if buckets.len() <= f {
            buckets.resize_with(f + 1, Vec::new);
        }
        buckets[f].push(i);
    };
    let root = trail.push(State::START, u32::MAX);
    nodes.push(Node {
        g: 0,
        closed: false,
    });
    seen.insert(State::START.key(), root);
    push(&mut buckets, h0, root);

    let mut best: Option<(LapTime, u32, Pos)> = None;
    let mut f = h0 as usize;
    while f < buckets.len() {
        while let Some(i) = buckets[f].pop() {
            let node = nodes[i as usize];
            if node.closed {
                continue;
            }
            nodes[i as usize].closed = true;
            stats.expanded += 1;
            let state = trail.state(i);
            let g = node.g + 1;
            track.for_each_target(state, |to| match track.outcome(state, to) {
                Some(Step::Finish { to }) => {
                    let Some(fraction) = Fraction::of_finish(state.pos, to) else {
                        return;
                    };
                    let time = LapTime { moves: g, fraction };
                    if best.is_none_or(|(b, _, _)| time < b) && track.passes(state.pos, to) {
                        best = Some((time, i, to));
                    }
                }
                Some(Step::Move(next)) => {
                    let key = next.key();
                    let known = seen.get(key);
                    if let Some(j) = known {
                        let other = nodes[j as usize];
                        if other.closed || other.g <= g {
                            return;
                        }
                    }
                    let Some(h) = bound.moves(next) else {
                        return;
                    };
                    if !track.passes(state.pos, to) {
                        return;
                    }
                    let j = match known {
                        Some(j) => {
                            trail.reparent(j, i);
                            nodes[j as usize].g = g;
                            j
                        }
                        None => {
                            let j = trail.push(next, i);
                            nodes.push(Node { g, closed: false });
                            seen.insert(key, j);
                            j
                        }
                    };
                    push(&mut buckets, g + h, j);
                }
                None => {}
            });
        }
        if let Some((_, last, to)) = best {
            stats.stored = trail.len() as u64;
            return Ok(trail.lap(last, to));
        }
        f += 1;
    }
    stats.stored = trail.len() as u64;
    Err(PilotError::NoLap)
}
