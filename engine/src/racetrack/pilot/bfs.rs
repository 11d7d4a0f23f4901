//! The plain breadth-first search: the reference the optimal pilot is checked and measured
//! against. Same states, same moves ([`Track::for_each_step`]), no heuristic: it expands every
//! state closer to the start than the finish, layer by layer.

use crate::racetrack::Circuit;
use crate::racetrack::physics::Pos;

use super::model::{State, Step, Track};
use super::statemap::StateMap;
use super::{Fraction, Lap, LapTime, PilotError, SearchStats, Trail};

/// The best lap by plain breadth-first search: fewest moves, then the smallest final fraction.
pub fn plain_bfs(circuit: &Circuit) -> Result<Lap, PilotError> {
    plain_bfs_with_stats(circuit).0
}

/// [`plain_bfs`], also answering how much it searched.
pub fn plain_bfs_with_stats(circuit: &Circuit) -> (Result<Lap, PilotError>, SearchStats) {
    let mut stats = SearchStats::default();
    let track = match Track::new(circuit) {
        Ok(track) => track,
        Err(e) => return (Err(e), stats),
    };
    let mut trail = Trail::default();
    let mut seen = StateMap::with_capacity(1 << 16);
    seen.insert(State::START.key(), trail.push(State::START, u32::MAX));
    let mut layer = 0..trail.len();
    let mut best: Option<(LapTime, u32, Pos)> = None;
    let mut moves = 1u32;
    while !layer.is_empty() {
        for i in layer.clone() {
            let state = trail.state(i as u32);
            stats.expanded += 1;
            track.for_each_step(state, |step| match step {
                Step::Finish { to } => {
                    let time = LapTime {
                        moves,
                        fraction: Fraction::of_finish(state.pos, to).expect("a finish crosses"),
                    };
                    if best.is_none_or(|(b, _, _)| time < b) {
                        best = Some((time, i as u32, to));
                    }
                }
                Step::Move(next) => {
                    let (_, fresh) = seen.insert(next.key(), trail.len() as u32);
                    if fresh {
                        trail.push(next, i as u32);
                    }
                }
            });
        }
        if let Some((_, last, to)) = best {
            stats.stored = trail.len() as u64;
            return (Ok(trail.lap(last, to)), stats);
        }
        layer = layer.end..trail.len();
        moves += 1;
    }
    stats.stored = trail.len() as u64;
    (Err(PilotError::NoLap), stats)
}

/// The exact moves to finish from every state a lap can reach, by a backward breadth-first
/// search over the whole state graph: every reachable state is enumerated first (a million on
/// `street`), then the moves spread back from the states with a finishing move. Costly: for
/// measuring bounds (the benchmark's ceiling, the tests), not for driving.
pub struct MovesToFinish {
    index: StateMap,
    states: Vec<State>,
    /// Per state: the fewest moves from the start.
    depth: Vec<u32>,
    /// Per state: the fewest moves to finish (`u32::MAX`: none).
    moves: Vec<u32>,
}

/// A state a lap can reach, as [`MovesToFinish`] knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reached {
    pub state: State,
    /// The fewest moves from the start.
    pub depth: u32,
    /// The fewest moves to finish (`None`: no lap can be finished from it).
    pub left: Option<u32>,
}

impl MovesToFinish {
    /// The moves to finish of every state reachable on `track`.
    pub fn of(track: &Track) -> MovesToFinish {
        let mut index = StateMap::with_capacity(1 << 16);
        let mut states = vec![State::START];
        let mut depth = vec![0];
        index.insert(State::START.key(), 0);
        let mut moves = Vec::new();
        let mut queue = Vec::new();
        let mut i = 0;
        while i < states.len() {
            let state = states[i];
            let mut finishes = false;
            track.for_each_step(state, |step| match step {
                Step::Finish { .. } => finishes = true,
                Step::Move(next) => {
                    if index.insert(next.key(), states.len() as u32).1 {
                        states.push(next);
                        depth.push(depth[i] + 1);
                    }
                }
            });
            moves.push(if finishes { 1 } else { u32::MAX });
            if finishes {
                queue.push(i as u32);
            }
            i += 1;
        }
        // Backwards, through the predecessors a lap can reach (those indexed).
        let mut head = 0;
        while let Some(&k) = queue.get(head) {
            head += 1;
            for from in track.predecessors(states[k as usize]) {
                let Some(j) = index.get(from.key()) else {
                    continue;
                };
                if moves[j as usize] == u32::MAX {
                    moves[j as usize] = moves[k as usize] + 1;
                    queue.push(j);
                }
            }
        }
        MovesToFinish {
            index,
            states,
            depth,
            moves,
        }
    }

    /// The fewest moves to finish from `state`; `None` when no lap can be finished from it or
    /// no lap reaches it.
    pub fn moves(&self, state: State) -> Option<u32> {
        let k = self.index.get(state.key())?;
        Some(self.moves[k as usize]).filter(|&m| m != u32::MAX)
    }

    /// Every state a lap can reach, in breadth-first order from the start.
    pub fn iter(&self) -> impl Iterator<Item = Reached> + '_ {
        (0..self.states.len()).map(|k| Reached {
            state: self.states[k],
            depth: self.depth[k],
            left: Some(self.moves[k]).filter(|&m| m != u32::MAX),
        })
    }

    /// Whether a lap can reach `state`.
    pub fn reaches(&self, state: State) -> bool {
        self.index.get(state.key()).is_some()
    }

    /// The number of states a lap can reach.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether no state is reachable (never: the start is).
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
}
