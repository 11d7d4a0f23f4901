//! The demo pilot (the original kit's DEMO_2CV): deliberately slow and cautious.
//!
//! It drives the shortest walk of unit moves around the circuit ([`WalkDistances::walks`]), never
//! faster than one cell per move; when the walk turns more sharply than one acceleration allows,
//! it first stops for a move. Unit moves between track cells always pass the collision test, so
//! it finishes wherever such a walk exists — on every conforming circuit — and every move is
//! still checked with the referee's own test.

use crate::racetrack::Circuit;
use crate::racetrack::physics::{FIRST_MOVES, Pos, START};

use super::field::WalkDistances;
use super::model::{State, Step, Track};
use super::{Lap, PilotError};

/// Count layers the demo's walk may use (0, −1, −2): enough to recover from the start's
/// surroundings on any circuit a designer would draw.
const LAYERS: usize = 3;

/// The demo pilot's lap of `circuit`.
pub fn drive(circuit: &Circuit) -> Result<Lap, PilotError> {
    let track = Track::new(circuit)?;
    let field = WalkDistances::walks(&track, LAYERS);
    let mut positions = vec![START];
    // First move: the decided cell with the shortest walk from it.
    let first = FIRST_MOVES
        .into_iter()
        .filter_map(|p| {
            let Some(Step::Move(s)) = track.step(State::START, p) else {
                return None;
            };
            Some((field.distance(p, i32::from(s.count))?, s))
        })
        .min_by_key(|&(d, _)| d);
    let Some((_, mut state)) = first else {
        return Err(PilotError::NoLap);
    };
    positions.push(state.pos);
    loop {
        let here = field
            .distance(state.pos, i32::from(state.count))
            .ok_or(PilotError::NoLap)?;
        // The neighbour one step closer along the walk.
        let mut target = None;
        for dy in -1..=1 {
            for dx in -1..=1 {
                let to = Pos::new(state.pos.x + dx, state.pos.y + dy);
                let closer = match track.step(
                    State {
                        vel: Pos::new(0, 0),
                        ..state
                    },
                    to,
                ) {
                    Some(Step::Finish { .. }) => here == 1,
                    Some(Step::Move(s)) => field.distance(to, i32::from(s.count)) == Some(here - 1),
                    None => false,
                };
                if closer && target.is_none() {
                    target = Some(to);
                }
            }
        }
        let to = target.ok_or(PilotError::NoLap)?;
        let (ax, ay) = (
            to.x - state.pos.x - state.vel.x,
            to.y - state.pos.y - state.vel.y,
        );
        let next = if ax.abs() <= 1 && ay.abs() <= 1 {
            to
        } else {
            state.pos
        };
        match track.step(state, next).ok_or(PilotError::NoLap)? {
            Step::Finish { to } => {
                positions.push(to);
                return Lap::new(positions).ok_or(PilotError::NoLap);
            }
            Step::Move(s) => {
                positions.push(s.pos);
                state = s;
            }
        }
    }
}
