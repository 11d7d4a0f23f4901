//! The optimal pilot's heuristic: a lower bound on the moves left, the largest of admissible
//! bounds.
//!
//! 1. **Distance** ([`field::moves_to_cover`]): the cells still to drive (the chain-walk
//!    distance `d` of [`WalkDistances`]), at a speed that grows by at most one per move.
//! 2. **Per-axis itineraries.** The chain-walk distance drops by at most one per unit step, so
//!    every walk from a node at distance `d` first visits distance `d − 1`, then first visits
//!    `d − 2`, …, in that order. Each level `k` is a set of cells whose columns span an
//!    interval `X_k` (rows: `Y_k`), and the chain cell that visits it lies between the ends
//!    of some move. So along `x` the car must, in order, make moves whose column ranges meet
//!    `X_{d−1}`, `X_{d−2}`, …, and finally cross from `x ≤ 39` to `x ≥ 40` (along `y`: end with a
//!    move whose rows span the finish line). Any subsequence of those levels — here the
//!    route's turning points along the axis — is an itinerary for a point on a line whose velocity
//!    changes by at most one per move; the fewest moves to follow it is an exact small
//!    search, tabulated once per circuit. This bound sees what the distance ignores: to go
//!    round, the car must brake and reverse, in `x` and in `y`, again at every hairpin.
//!
//! 3. **Gates** (`gates`): the lap cut at regular levels, the two axes sharing
//!    one clock at each cut. Where gates lie ahead of a node (everywhere but the last few
//!    dozen levels before the line) they replace the itineraries, and the search
//!    saves their lookups. Below the last gate the itineraries then owe only the finish:
//!    they serve the nodes
//!    there and end the gates' chain (the bound at the last gate's split states).
//!
//! The itineraries were meant to be consistent too (a move from distance `d` to `d'` passes
//! every level between them, inside the move's range), but measured they are not always: a
//! move can lower the bound by more than one (see [`optimal`](super::optimal), which copes).
//!
use crate::racetrack::Circuit;
use crate::racetrack::physics::{FINISH_X, FinishLine};

use super::clearance::Clearance;
use super::field::{self, UNREACHABLE, WalkDistances};
use super::gates::Gates;
use super::model::{State, Track};
use super::table::{MAX_VX, MAX_VY};

/// The route must come back by this many cells along an axis before a turning point counts.
const GAP: i32 = 8;
/// Most turning points kept per axis.
const MAX_STOPS: usize = 64;

/// Speeds whose distance bound is tabulated: every stored state's (see
/// [`table`](super::table)).
const TABLE_SPEED: u32 = MAX_VX as u32;

/// What the bound needs of one node of the walk graph, packed so that one load serves a
/// state (the search asks for millions): its distance and the first stop owed on each axis.
#[derive(Clone, Copy)]
struct Place {
    /// [`Place::FAR`] when no walk finishes from the node.
    d: u16,
    x_stop: u8,
    y_stop: u8,
}

impl Place {
    const FAR: u16 = u16::MAX;
}

/// The moves-left lower bound of the optimal pilot.
pub struct LowerBound {
    field: WalkDistances,
    /// Per node of [`WalkDistances::graph`].
    places: Vec<Place>,
    x: Itinerary,
    y: Itinerary,
    /// `speed * (max_d + 1) + d` → [`field::moves_to_cover`]`(speed, d)`, speeds up to
    /// [`TABLE_SPEED`].
    cover: Vec<u16>,
    max_d: u32,
    /// The bound across corners, for nodes above its last gate.
    gates: Gates,
    /// The circuit's collision shortcuts, which the gates' split states and the search share.
    clearance: Clearance,
}

impl LowerBound {
    /// Tabulates the bounds of a circuit.
    pub fn new(track: &Track) -> LowerBound {
        let field = WalkDistances::lower_bounds(track);
        let dist = field.distances();
        let mut levels: Vec<[i32; 4]> = Vec::new();
        // Nodes by count layer, then row, then column.
        for (row, y) in dist
            .chunks_exact(Circuit::WIDTH as usize)
            .zip((0..Circuit::HEIGHT).cycle())
        {
            for (x, &d) in (0..).zip(row) {
                if d == UNREACHABLE {
                    continue;
                }
                let d = usize::from(d);
                if levels.len() <= d {
                    levels.resize(d + 1, [i32::MAX, i32::MIN, i32::MAX, i32::MIN]);
                }
                let l = &mut levels[d];
                *l = [l[0].min(x), l[1].max(x), l[2].min(y), l[3].max(y)];
            }
        }
        let line = track.line();
        // Above the last gate the gates answer; below it (the last few dozen levels) the
        // turning points change no expansion on the samples, so the itineraries then owe only
        // the finish.
        let cuts = Gates::levels(&field);
        let served = if cuts.is_empty() { levels.len() } else { 1 };
        let x_levels: Vec<(i32, i32)> = levels[..served].iter().map(|l| (l[0], l[1])).collect();
        let y_levels: Vec<(i32, i32)> = levels[..served].iter().map(|l| (l[2], l[3])).collect();
        let x = Itinerary::new(Circuit::WIDTH, MAX_VX, &x_levels, |u, v| {
            u < FINISH_X && v >= FINISH_X
        });
        let y = Itinerary::new(Circuit::HEIGHT, MAX_VY, &y_levels, finish_rows(line));
        let max_d = levels.len() as u32;
        let places = dist
            .iter()
            .map(|&d| match d {
                UNREACHABLE => Place {
                    d: Place::FAR,
                    x_stop: 0,
                    y_stop: 0,
                },
                d => Place {
                    d,
                    x_stop: x.first_owed(usize::from(d)),
                    y_stop: y.first_owed(usize::from(d)),
                },
            })
            .collect();
        let mut cover = Vec::with_capacity(((TABLE_SPEED + 1) * (max_d + 1)) as usize);
        for speed in 0..=TABLE_SPEED {
            // The least k with k·speed + k(k+1)/2 ≥ d is k for every d above what k − 1 moves
            // cover, up to what k moves cover: fill the row run by run.
            let (row, last) = (cover.len(), max_d as usize);
            cover.push(0);
            let mut k = 1u32;
            while cover.len() - row <= last {
                let covered = (k * speed + k * (k + 1) / 2) as usize;
                cover.resize(row + covered.min(last) + 1, k as u16);
                k += 1;
            }
        }
        let mut bound = LowerBound {
            field,
            places,
            x,
            y,
            cover,
            max_d,
            gates: Gates::none(),
            clearance: Clearance::new(track.circuit()),
        };
        let gates = Gates::new(track.circuit(), &bound.clearance, &cuts, |s| bound.moves(s));
        bound.gates = gates;
        bound
    }

    /// The circuit's collision shortcuts, built once for the gates and lent to the search.
    pub fn clearance(&self) -> &Clearance {
        &self.clearance
    }

    /// A lower bound on the moves left to finish from `state` (at least 1), or `None` when the
    /// lap cannot be finished from there. Proved for states a lap can reach (the gates use the
    /// state's own history; see `gates`), the only ones a search asks about.
    pub fn moves(&self, state: State) -> Option<u32> {
        let node = self.field.graph().node(state.pos, i32::from(state.count))?;
        let place = self.places[node];
        if place.d == Place::FAR {
            return None;
        }
        let d = u32::from(place.d);
        let speed = state.speed();
        let by_distance = if speed <= TABLE_SPEED && d <= self.max_d {
            u32::from(self.cover[(speed * (self.max_d + 1) + d) as usize])
        } else {
            field::moves_to_cover(speed, d)
        };
        if let Some(by_gates) = self.gates.moves(d, state.pos, state.vel) {
            return Some(by_distance.max(by_gates));
        }
        let by_x = self.x.moves_at(place.x_stop, state.pos.x, state.vel.x);
        let by_y = self.y.moves_at(place.y_stop, state.pos.y, state.vel.y);
        Some(by_distance.max(by_x).max(by_y))
    }
}

/// The `y` condition of a finishing move: its rows span part of the finish line.
fn finish_rows(line: FinishLine) -> impl Fn(i32, i32) -> bool {
    move |u, v| u.min(v) <= line.bottom && u.max(v) >= line.top
}

/// One axis: the chosen stops and the table of fewest moves to follow them and finish.
///
/// Velocities are tabulated up to the proven bound of the axis (see [`table`](super::table)),
/// which no stored state exceeds; faster states get no axis bound (0, still admissible), and a
/// move into a faster state is taken to finish at once (a relaxation, so still a lower bound).
struct Itinerary {
    size: i32,
    vmax: i32,
    /// Chosen stops, by decreasing level: `(level, lo, hi)`.
    stops: Vec<(usize, i32, i32)>,
    /// Per distance `d`: index of the first stop still owed (the first with level `< d`).
    first_owed: Vec<u8>,
    /// `(stop * size + u) * (2·vmax + 1) + v + vmax` → fewest moves (`u8::MAX`: impossible).
    moves: Vec<u8>,
}

impl Itinerary {
    fn new(
        size: i32,
        vmax: i32,
        levels: &[(i32, i32)],
        finishes: impl Fn(i32, i32) -> bool,
    ) -> Itinerary {
        // Choose stops from the far end of the lap towards the line: only the turning points
        // of the route along this axis matter (between two of them the car passes everything
        // anyway), so keep the most extreme level of each run in one direction, and start a
        // new run when the route comes back by more than GAP.
        let mut stops: Vec<(usize, i32, i32)> = Vec::new();
        let mut rising: Option<bool> = None;
        for (k, &(lo, hi)) in levels.iter().enumerate().skip(1).rev() {
            if lo > hi {
                continue;
            }
            let Some(&(_, plo, phi)) = stops.last() else {
                stops.push((k, lo, hi));
                continue;
            };
            let further = match rising {
                Some(true) => lo > plo,
                Some(false) => hi < phi,
                None => false,
            };
            let back = match rising {
                Some(true) => hi < plo - GAP,
                Some(false) => lo > phi + GAP,
                None => lo > phi + GAP || hi < plo - GAP,
            };
            if further {
                *stops.last_mut().expect("not empty") = (k, lo, hi);
            } else if back && stops.len() < MAX_STOPS {
                rising = Some(lo > phi);
                stops.push((k, lo, hi));
            }
        }
        let first_owed = (0..=levels.len())
            .map(|d| stops.iter().take_while(|&&(k, _, _)| k >= d).count() as u8)
            .collect();
        let mut it = Itinerary {
            size,
            vmax,
            stops,
            first_owed,
            moves: Vec::new(),
        };
        it.tabulate(finishes);
        it
    }

    fn width(&self) -> usize {
        (2 * self.vmax + 1) as usize
    }

    fn index(&self, stop: usize, u: i32, v: i32) -> usize {
        (stop * self.size as usize + u as usize) * self.width() + (v + self.vmax) as usize
    }

    /// The first stop still owed after a move over `a..=b` when `stop` was owed before.
    fn advance(&self, mut stop: usize, a: i32, b: i32) -> usize {
        let (lo, hi) = (a.min(b), a.max(b));
        while let Some(&(_, slo, shi)) = self.stops.get(stop) {
            if slo > hi || shi < lo {
                break;
            }
            stop += 1;
        }
        stop
    }

    /// Fills the table, from the last stop back to the first: within one stop it is a
    /// shortest-path search whose exits (a move that passes the stop, or finishes) are known.
    fn tabulate(&mut self, finishes: impl Fn(i32, i32) -> bool) {
        let m = self.stops.len();
        let per_stop = self.size as usize * self.width();
        self.moves = vec![u8::MAX; (m + 1) * per_stop];
        let mut buckets: Vec<Vec<(i32, i32)>> = vec![Vec::new(); 256];
        for stop in (0..=m).rev() {
            for u in 0..self.size {
                for v in -self.vmax..=self.vmax {
                    let mut exit = u8::MAX;
                    for a in -1..=1 {
                        let v2 = v + a;
                        let u2 = u + v2;
                        if !(0..self.size).contains(&u2) {
                            continue;
                        }
                        let after = self.advance(stop, u, u2);
                        let cost = if after == m && finishes(u, u2) || v2.abs() > self.vmax {
                            1
                        } else if after > stop {
                            self.moves[self.index(after, u2, v2)].saturating_add(1)
                        } else {
                            continue;
                        };
                        exit = exit.min(cost);
                    }
                    if exit != u8::MAX {
                        let i = self.index(stop, u, v);
                        self.moves[i] = exit;
                        buckets[exit as usize].push((u, v));
                    }
                }
            }
            for w in 0..255usize {
                while let Some((u, v)) = buckets[w].pop() {
                    if self.moves[self.index(stop, u, v)] as usize != w {
                        continue;
                    }
                    // Predecessors within the stop: from (u − v, v − a) with velocity v.
                    let up = u - v;
                    if !(0..self.size).contains(&up) || self.advance(stop, up, u) != stop {
                        continue;
                    }
                    for a in -1..=1 {
                        let vp = v - a;
                        if vp.abs() > self.vmax {
                            continue;
                        }
                        let i = self.index(stop, up, vp);
                        if (self.moves[i] as usize) > w + 1 {
                            self.moves[i] = (w + 1) as u8;
                            buckets[w + 1].push((up, vp));
                        }
                    }
                }
            }
        }
    }

    /// The first stop owed from a node at distance `d`.
    fn first_owed(&self, d: usize) -> u8 {
        self.first_owed.get(d).copied().unwrap_or(0)
    }

    /// Fewest moves along this axis from `u` at velocity `v`, for a node at distance `d`;
    /// 0 when the table knows nothing.
    #[cfg(test)]
    fn moves(&self, d: usize, u: i32, v: i32) -> u32 {
        self.moves_at(self.first_owed(d), u, v)
    }

    /// [`Itinerary::moves`] when the first stop owed is `stop`.
    fn moves_at(&self, stop: u8, u: i32, v: i32) -> u32 {
        if !(0..self.size).contains(&u) || v.abs() > self.vmax {
            return 0;
        }
        match self.moves[self.index(stop as usize, u, v)] {
            u8::MAX => 0,
            m => u32::from(m),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::racetrack::physics::Pos;

    fn line_axis(levels: &[(i32, i32)]) -> Itinerary {
        Itinerary::new(100, MAX_VX, levels, |u, v| u < 40 && v >= 40)
    }

    #[test]
    fn the_distance_table_is_moves_to_cover() {
        let c = Circuit::parse(crate::racetrack::samples::SAMPLES[0].text.as_bytes()).unwrap();
        let track = Track::new(&c).unwrap();
        let bound = LowerBound::new(&track);
        for speed in 0..=TABLE_SPEED {
            for d in 0..=bound.max_d {
                assert_eq!(
                    u32::from(bound.cover[(speed * (bound.max_d + 1) + d) as usize]),
                    field::moves_to_cover(speed, d)
                );
            }
        }
    }

    /// A fold of [`LowerBound::moves`] over a fixed set of states of a circuit: every track
    /// cell, counts 0 and −1, and velocities spread over the proven bounds (all the slow ones).
    fn fingerprint(track: &Track) -> u64 {
        let bound = LowerBound::new(track);
        let mut speeds: Vec<i32> = (-5..=5).collect();
        speeds.extend([-16, -13, -11, -8, -7, 7, 9, 12, 13, 16]);
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        for y in 0..Circuit::HEIGHT {
            for x in 0..Circuit::WIDTH {
                if !track.circuit().is_track(Pos::new(x, y)) {
                    continue;
                }
                for count in [0, -1] {
                    for &vy in speeds.iter().filter(|v| v.abs() <= MAX_VY) {
                        for &vx in &speeds {
                            let state = State {
                                pos: crate::racetrack::physics::Pos::new(x, y),
                                vel: crate::racetrack::physics::Pos::new(vx, vy),
                                count,
                                before_first_move: false,
                            };
                            let m = bound.moves(state).map_or(u64::MAX, u64::from);
                            h = (h ^ m).wrapping_mul(0x0000_0100_0000_01b3);
                        }
                    }
                }
            }
        }
        h
    }

    /// The bound's values, pinned: the construction is tuned for speed, and a change of speed
    /// must not change one value (the optimal search's expansions depend on all of them). A
    /// deliberate change of the bound updates these fingerprints.
    #[test]
    fn the_bound_values_are_pinned_on_every_conforming_sample() {
        let pinned: &[(&str, u64)] = &[
            ("ring", 0x776224a695076d19),
            ("street", 0x3ead69ae5c970de4),
            ("hairpins", 0xc4a0d697b42784e3),
            ("serpentine", 0xb470bd86d52dab32),
            ("traps", 0xadc06b4eef6d1ec2),
            ("narrow", 0xd2f3cfb9318216cc),
            ("diagonals", 0x626858f714a57c99),
            ("spiral", 0x64cb5bc7e70ce4de),
            ("needle", 0x793c4d0065ec2b23),
        ];
        let mut got = Vec::new();
        for sample in crate::racetrack::samples::SAMPLES
            .iter()
            .filter(|s| s.conforming)
        {
            let c = Circuit::parse(sample.text.as_bytes()).unwrap();
            let track = Track::new(&c).unwrap();
            got.push((sample.name, fingerprint(&track)));
        }
        assert_eq!(got, pinned, "got {got:#x?}");
    }

    #[test]
    fn an_empty_itinerary_is_the_fewest_moves_to_cross() {
        let axis = line_axis(&[(0, 0)]);
        assert_eq!(axis.moves(0, 39, 0), 1);
        // 38 → 39 → 41.
        assert_eq!(axis.moves(0, 38, 0), 2);
        // Moving away costs more than standing.
        assert!(axis.moves(0, 30, -5) > axis.moves(0, 30, 0));
        // 41 at rest: back to 39 at least, stop, then cross: more than 2.
        assert!(axis.moves(0, 41, 0) >= 3);
    }

    #[test]
    fn owed_stops_force_the_detour() {
        // Levels 1..=3: level 3 is at the far end (90..95), level 2 near the middle.
        let levels = [(0, 0), (39, 39), (60, 62), (90, 95)];
        let axis = line_axis(&levels);
        // Only the turning points stay: the far end, then the line side (level 2 lies between).
        assert_eq!(axis.stops, vec![(3, 90, 95), (1, 39, 39)]);
        // At distance 4, all three stops are owed: from 41 go to ≥ 90, come back and cross.
        let detour = axis.moves(4, 41, 0);
        let direct = axis.moves(1, 41, 0);
        assert!(detour >= direct + 10, "{detour} vs {direct}");
        // At distance 1 nothing is owed.
        assert_eq!(axis.moves(1, 39, 0), 1);
    }
}
