//! The state space every pilot searches: where the car is, how fast it goes, how many times it
//! has crossed the finish line — and which moves the referee allows from there.
//!
//! The lap rules (spec §3, §5) in one place: the car starts at rest on (40,4); its first move
//! goes to one of [`FIRST_MOVES`]; every later move changes the velocity by at most one in each
//! coordinate; every position stays in the grid; every move passes [`physics::on_track`]; and
//! the lap ends with the first move after which the sum of [`physics::crossing`]s is +1.

use crate::racetrack::Circuit;
use crate::racetrack::physics::{self, FIRST_MOVES, FinishLine, Pos, START};

use super::PilotError;

/// The lowest running crossing count a search follows. A car that has crossed the line
/// backwards more than this many times net would need as many extra full laps to finish, so
/// cutting those states off keeps the state space finite (a lap search then always ends, even
/// when no lap exists) without losing any lap a contest could care about.
pub const MIN_COUNT: i32 = -8;

/// One search state: the car at `pos`, having just moved by `vel`, with a running crossing
/// count `count` (always ≤ 0: reaching +1 ends the lap).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Current position (a track cell of the grid).
    pub pos: Pos,
    /// Velocity: the last move (`(0,0)` at the start).
    pub vel: Pos,
    /// Running sum of counted crossings, in `MIN_COUNT..=0`.
    pub count: i8,
    /// Whether this is the start, before the first move, where only [`FIRST_MOVES`] are legal.
    /// The car may later stop on (40,4) again: that state moves freely, so it is a different one.
    pub before_first_move: bool,
}

impl State {
    /// The car at rest on the start point, before its first move.
    pub const START: State = State {
        pos: START,
        vel: Pos::new(0, 0),
        count: 0,
        before_first_move: true,
    };

    /// The Chebyshev speed `max(|vx|, |vy|)`: the number of cells the last move walked.
    pub fn speed(self) -> u32 {
        self.vel.x.unsigned_abs().max(self.vel.y.unsigned_abs())
    }

    /// A dense 64-bit key (x: 8 bits, y: 7, vx: 9, vy: 8, count: 5, first-move flag: 1).
    pub(crate) fn key(self) -> u64 {
        let field = |v: i32, offset: i32| u64::from((v + offset) as u32);
        field(self.pos.x, 0)
            | field(self.pos.y, 0) << 8
            | field(self.vel.x, 256) << 15
            | field(self.vel.y, 128) << 24
            | field(i32::from(self.count), 16) << 32
            | u64::from(self.before_first_move) << 37
    }

    /// The inverse of [`State::key`].
    pub(crate) fn from_key(key: u64) -> State {
        let field = |shift: u32, bits: u32, offset: i32| {
            ((key >> shift) & ((1 << bits) - 1)) as i32 - offset
        };
        State {
            pos: Pos::new(field(0, 8, 0), field(8, 7, 0)),
            vel: Pos::new(field(15, 9, 256), field(24, 8, 128)),
            count: field(32, 5, 16) as i8,
            before_first_move: key >> 37 & 1 == 1,
        }
    }
}

/// Where a legal move leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The lap goes on from this state.
    Move(State),
    /// This move finishes the lap: it ends on `to` (a track cell, once the move passes the
    /// collision test: the referee's walk ends on the target, never on a half-pixel tie).
    Finish {
        /// The last position of the lap.
        to: Pos,
    },
}

/// A circuit ready to be driven: the grid and its finish line.
#[derive(Clone, Copy, Debug)]
pub struct Track<'c> {
    circuit: &'c Circuit,
    line: FinishLine,
}

impl<'c> Track<'c> {
    /// The circuit's track, or [`PilotError::NoFinishLine`] when the start point is decor.
    pub fn new(circuit: &'c Circuit) -> Result<Track<'c>, PilotError> {
        let line = physics::finish_line(circuit).ok_or(PilotError::NoFinishLine)?;
        Ok(Track { circuit, line })
    }

    /// The circuit.
    pub fn circuit(&self) -> &'c Circuit {
        self.circuit
    }

    /// The finish line.
    pub fn line(&self) -> FinishLine {
        self.line
    }

    /// Calls `visit` with every legal move from `state`, in a fixed order (accelerations by
    /// rows, `ay` then `ax` from −1 to 1). Moves that leave the grid, fail the collision test,
    /// end on decor without finishing (the car could never move again), or push the crossing
    /// count below [`MIN_COUNT`] are left out.
    pub fn for_each_step(&self, state: State, mut visit: impl FnMut(Step)) {
        self.for_each_target(state, |to| {
            if let Some(step) = self.step(state, to) {
                visit(step)
            }
        });
    }

    /// Calls `visit` with the nine positions the acceleration rule allows after `state` (the
    /// three [`FIRST_MOVES`] before the first move), legal or not, in [`Track::for_each_step`]'s
    /// order.
    pub fn for_each_target(&self, state: State, mut visit: impl FnMut(Pos)) {
        if state.before_first_move {
            FIRST_MOVES.into_iter().for_each(visit);
            return;
        }
        for ay in -1..=1 {
            for ax in -1..=1 {
                let vel = Pos::new(state.vel.x + ax, state.vel.y + ay);
                visit(Pos::new(state.pos.x + vel.x, state.pos.y + vel.y));
            }
        }
    }

    /// The move `from → to` if it is legal: [`Track::outcome`] and [`Track::passes`].
    pub fn step(&self, from: State, to: Pos) -> Option<Step> {
        let step = self.outcome(from, to)?;
        self.passes(from.pos, to).then_some(step)
    }

    /// Where the move `from → to` leads, judging everything but the collision test (the costly
    /// part, which a search can skip for moves that lead nowhere new): `None` when `to` is off
    /// the grid, or the move would leave the car stranded on decor, or the count would drop
    /// below [`MIN_COUNT`].
    pub fn outcome(&self, from: State, to: Pos) -> Option<Step> {
        if !Circuit::contains(to) {
            return None;
        }
        let count = i32::from(from.count) + physics::crossing(&self.line, from.pos, to);
        if count == 1 {
            Some(Step::Finish { to })
        } else if count >= MIN_COUNT && self.circuit.is_track(to) {
            Some(Step::Move(State {
                pos: to,
                vel: Pos::new(to.x - from.pos.x, to.y - from.pos.y),
                count: count as i8,
                before_first_move: false,
            }))
        } else {
            None
        }
    }

    /// The states with a legal move into `state`: on `pos − vel`, moving by `vel − a` for each
    /// acceleration `a`, with the count from before that move's crossing — and the start
    /// itself when `state` is one of its [`FIRST_MOVES`]. Reading laps back and searching
    /// backwards go through it.
    pub fn predecessors(&self, state: State) -> impl Iterator<Item = State> + '_ {
        let prev = Pos::new(state.pos.x - state.vel.x, state.pos.y - state.vel.y);
        let count = i32::from(state.count) - physics::crossing(&self.line, prev, state.pos);
        let counted = (MIN_COUNT..=0).contains(&count);
        let moving = (-1..=1)
            .flat_map(|ay| (-1..=1).map(move |ax| Pos::new(ax, ay)))
            .filter(move |_| counted)
            .map(move |a| State {
                pos: prev,
                vel: Pos::new(state.vel.x - a.x, state.vel.y - a.y),
                count: count as i8,
                before_first_move: false,
            });
        let start = (prev == START && count == 0 && FIRST_MOVES.contains(&state.pos))
            .then_some(State::START);
        moving
            .chain(start)
            .filter(move |&from| self.step(from, state.pos) == Some(Step::Move(state)))
    }

    /// The referee's collision test for `from → to` ([`physics::on_track`]).
    pub fn passes(&self, from: Pos, to: Pos) -> bool {
        physics::on_track(self.circuit, from, to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_round_trip_over_the_whole_range() {
        for (x, y) in [(0, 0), (149, 99), (40, 4)] {
            for (vx, vy) in [(-149, -99), (149, 99), (0, 0), (-1, 7)] {
                for count in [MIN_COUNT, 0] {
                    for before_first_move in [false, true] {
                        let s = State {
                            pos: Pos::new(x, y),
                            vel: Pos::new(vx, vy),
                            count: count as i8,
                            before_first_move,
                        };
                        assert_eq!(State::from_key(s.key()), s);
                    }
                }
            }
        }
    }

    #[test]
    fn the_first_move_goes_only_to_the_three_decided_cells() {
        let c = Circuit::blank();
        let track = Track::new(&c).unwrap();
        let mut seen = Vec::new();
        track.for_each_step(State::START, |s| seen.push(s));
        let expect: Vec<Step> = FIRST_MOVES
            .iter()
            .map(|&p| {
                Step::Move(State {
                    pos: p,
                    vel: Pos::new(1, p.y - 4),
                    count: 0,
                    before_first_move: false,
                })
            })
            .collect();
        assert_eq!(seen, expect);
        // Later, at rest on the start, all nine accelerations are open (the zone is all track),
        // and stepping back over the line counts −1.
        let later = State {
            before_first_move: false,
            ..State::START
        };
        let mut steps = Vec::new();
        track.for_each_step(later, |s| steps.push(s));
        assert_eq!(steps.len(), 9);
        assert!(steps.contains(&Step::Move(State {
            pos: Pos::new(39, 4),
            vel: Pos::new(-1, 0),
            count: -1,
            before_first_move: false
        })));
    }

    #[test]
    fn predecessors_are_the_states_with_a_move_into_a_state() {
        let c = Circuit::blank();
        let track = Track::new(&c).unwrap();
        // The states the start zone reaches within three moves, and their predecessors.
        let mut states = vec![State::START];
        for _ in 0..3 {
            let mut next = Vec::new();
            for &s in &states {
                track.for_each_step(s, |step| {
                    if let Step::Move(n) = step {
                        next.push(n)
                    }
                });
            }
            states.extend(next);
            states.sort_by_key(|s| s.key());
            states.dedup();
        }
        let moves_into = |p: State, s: State| {
            let mut into = false;
            track.for_each_step(p, |step| into |= step == Step::Move(s));
            into
        };
        for &s in &states {
            let found: Vec<State> = track.predecessors(s).collect();
            // Each of them moves into `s` by the rules (the start only by a first move) …
            for &p in &found {
                assert!(moves_into(p, s), "{p:?} → {s:?}");
            }
            // … and every reached state that does is among them.
            for &p in &states {
                assert_eq!(moves_into(p, s), found.contains(&p), "{p:?} → {s:?}");
            }
        }
        assert_eq!(track.predecessors(State::START).count(), 0);
    }

    #[test]
    fn crossing_left_to_right_finishes() {
        let c = Circuit::blank();
        let track = Track::new(&c).unwrap();
        let s = State {
            pos: Pos::new(38, 4),
            vel: Pos::new(1, 0),
            count: 0,
            before_first_move: false,
        };
        let mut finishes = Vec::new();
        track.for_each_step(s, |step| {
            if let Step::Finish { to } = step {
                finishes.push(to)
            }
        });
        assert_eq!(
            finishes,
            vec![Pos::new(40, 3), Pos::new(40, 4), Pos::new(40, 5)]
        );
        assert!(Track::new(&Circuit::filled(b'A').unwrap()).is_err());
    }
}
