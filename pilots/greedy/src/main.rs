//! A greedy pilot: at every move it takes the legal move with the smallest lower bound on the
//! moves still needed (the engine's walk field and the speed the car already has), the faster
//! one on a tie. When a move leads nowhere — every continuation blocked or already tried — it
//! backs up and takes the next best: a depth-first search in greedy order. Quick, finishing
//! wherever a lap exists, never optimal; past a budget of states (set by its file stem, see
//! [`budget`]) it falls back to the demo lap.

use std::cmp::Reverse;
use std::collections::HashSet;

use engine::racetrack::pilot::Pilot;
// The engine's search internals, which it exposes (hidden) for benches and example pilots.
use engine::racetrack::pilot::bench::field::WalkDistances;
use engine::racetrack::pilot::bench::model::{State, Step, Track};
use engine::racetrack::{Circuit, Pos};

/// Crossing-count layers of the walk field (0, −1, −2), as the demo pilot uses.
const LAYERS: usize = 3;

/// States the search may visit before it gives up greed (well inside 10 MiB of memory).
const MAX_STATES: usize = 100_000;

fn main() -> std::process::ExitCode {
    let budget = budget(&std::env::args().next().unwrap_or_default());
    kit::run(|circuit| drive(circuit, budget))
}

/// The search's budget of states: a number ending the program's file stem (`greedy-500.wasm`
/// visits at most 500 states), so that one build gives contest entrants of several strengths;
/// [`MAX_STATES`] otherwise.
fn budget(program: &str) -> usize {
    let stem = std::path::Path::new(program)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    stem.rsplit_once('-')
        .and_then(|(_, n)| n.parse().ok())
        .map_or(MAX_STATES, |n: usize| n.clamp(1, MAX_STATES))
}

fn drive(circuit: &Circuit, budget: usize) -> Result<Vec<Pos>, String> {
    let track = Track::new(circuit).map_err(|e| e.to_string())?;
    let field = WalkDistances::walks(&track, LAYERS);
    let mut seen = HashSet::from([State::START]);
    // The current path: each state with its untried moves, best last.
    let mut path = vec![(State::START, options(&track, &field, State::START))];
    while let Some((_, untried)) = path.last_mut() {
        match untried.pop() {
            None => {
                path.pop();
            }
            Some(Step::Finish { to }) => {
                let mut positions: Vec<Pos> = path.iter().map(|(s, _)| s.pos).collect();
                positions.push(to);
                return Ok(positions);
            }
            Some(Step::Move(next)) => {
                if seen.len() >= budget {
                    eprintln!("greedy: no lap within {budget} states, driving the demo lap");
                    return demo(circuit);
                }
                if seen.insert(next) {
                    path.push((next, options(&track, &field, next)));
                }
            }
        }
    }
    Err("no lap exists on this circuit".into())
}

/// The legal moves from `state` that can still finish, best last.
fn options(track: &Track, field: &WalkDistances, state: State) -> Vec<Step> {
    let mut steps = Vec::with_capacity(9);
    track.for_each_step(state, |step| {
        let key = match step {
            Step::Finish { .. } => Some((0, Reverse(u32::MAX))),
            Step::Move(s) => field.moves_bound(s).map(|b| (b, Reverse(s.speed()))),
        };
        if let Some(key) = key {
            steps.push((key, step));
        }
    });
    steps.sort_by_key(|&(key, _)| Reverse(key));
    steps.into_iter().map(|(_, step)| step).collect()
}

fn demo(circuit: &Circuit) -> Result<Vec<Pos>, String> {
    Pilot::Demo
        .fly(circuit)
        .map(|lap| lap.positions().to_vec())
        .map_err(|e| e.to_string())
}
