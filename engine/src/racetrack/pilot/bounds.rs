//! The optimal pilot's heuristic: a lower bound on the moves left, the largest of three
//! admissible, consistent bounds.
//!
//! 1. **Distance** ([`field::moves_to_cover`]): the cells still to drive (the chain-walk
//!    distance `d` of [`Field`]), at a speed that grows by at most one per move.
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
//! 3. **Extremes**: the column/row extremes every lap must still reach (bottleneck walks of
//!    the model), owed in any order, then the finish — the unordered one-dimensional version,
//!    exact round an oval where the level intervals are wide.
//!
//! All are consistent: a move from distance `d` to `d'` passes every level between them
//! (the chain visits them, inside the move's range), so the itinerary left after the move is
//! never longer than the one the one-dimensional search already followed.

use crate::racetrack::Circuit;
use crate::racetrack::physics::{FINISH_X, FinishLine};

use super::field::{self, Field};
use super::model::{State, Track};

/// Velocities tabulated per axis; faster states get no axis bound (0, still admissible), and
/// a move into a faster state is taken to finish at once.
const VMAX: i32 = 24;
/// The route must come back by this many cells along an axis before a turning point counts.
const GAP: i32 = 8;
/// Most turning points kept per axis.
const MAX_STOPS: usize = 64;

/// The moves-left lower bound of the optimal pilot.
pub struct LowerBound {
    field: Field,
    x: Itinerary,
    y: Itinerary,
    /// Per walk-graph node: extreme waypoints still owed (x in bits 0–1, y in bits 2–3).
    owed: Vec<u8>,
    x_extremes: Extremes,
    y_extremes: Extremes,
}

impl LowerBound {
    /// Tabulates the bounds of a circuit.
    pub fn new(track: &Track) -> LowerBound {
        let field = Field::lower_bounds(track);
        let graph = field.graph();
        let mut levels: Vec<[i32; 4]> = Vec::new();
        for node in 0..graph.nodes() {
            let Some(d) = field.distance_at(node) else {
                continue;
            };
            let d = d as usize;
            if levels.len() <= d {
                levels.resize(d + 1, [i32::MAX, i32::MIN, i32::MAX, i32::MIN]);
            }
            let p = super::field::WalkGraph::pos(node);
            let l = &mut levels[d];
            *l = [l[0].min(p.x), l[1].max(p.x), l[2].min(p.y), l[3].max(p.y)];
        }
        let line = track.line();
        let x_levels: Vec<(i32, i32)> = levels.iter().map(|l| (l[0], l[1])).collect();
        let y_levels: Vec<(i32, i32)> = levels.iter().map(|l| (l[2], l[3])).collect();
        let x = Itinerary::new(Circuit::WIDTH, &x_levels, |u, v| {
            u < FINISH_X && v >= FINISH_X
        });
        let y = Itinerary::new(Circuit::HEIGHT, &y_levels, finish_rows(line));
        // Extremes every lap must reach: bottleneck walks of the model, from the start.
        let flip = |v: i32, size: i32| (size - 1 - v) as u8;
        let tables = [
            graph.bottleneck(|p| p.x as u8),
            graph.bottleneck(|p| flip(p.x, Circuit::WIDTH)),
            graph.bottleneck(|p| p.y as u8),
            graph.bottleneck(|p| flip(p.y, Circuit::HEIGHT)),
        ];
        let start = graph
            .node(State::START.pos, 0)
            .expect("the start is in the grid");
        let limits = tables.each_ref().map(|t| t[start]);
        let owed = (0..graph.nodes())
            .map(|node| {
                (0..4)
                    .filter(|&i| tables[i][node] != u8::MAX && tables[i][node] >= limits[i])
                    .fold(0u8, |bits, i| bits | 1 << i)
            })
            .collect();
        let x_extremes = Extremes::new(
            Circuit::WIDTH,
            i32::from(limits[0]),
            Circuit::WIDTH - 1 - i32::from(limits[1]),
            |u, v| u < FINISH_X && v >= FINISH_X,
        );
        let y_extremes = Extremes::new(
            Circuit::HEIGHT,
            i32::from(limits[2]),
            Circuit::HEIGHT - 1 - i32::from(limits[3]),
            finish_rows(line),
        );
        LowerBound {
            field,
            x,
            y,
            owed,
            x_extremes,
            y_extremes,
        }
    }

    /// A lower bound on the moves left to finish from `state` (at least 1), or `None` when the
    /// lap cannot be finished from there.
    pub fn moves(&self, state: State) -> Option<u32> {
        let node = self.field.graph().node(state.pos, i32::from(state.count))?;
        let d = self.field.distance_at(node)?;
        let by_distance = field::moves_to_cover(state.speed(), d);
        let by_x = self.x.moves(d as usize, state.pos.x, state.vel.x);
        let by_y = self.y.moves(d as usize, state.pos.y, state.vel.y);
        let owed = self.owed[node];
        let by_x_extremes = self.x_extremes.moves(state.pos.x, state.vel.x, owed & 3);
        let by_y_extremes = self.y_extremes.moves(state.pos.y, state.vel.y, owed >> 2);
        Some(
            by_distance
                .max(by_x)
                .max(by_y)
                .max(by_x_extremes)
                .max(by_y_extremes),
        )
    }
}

/// The `y` condition of a finishing move: its rows span part of the finish line.
fn finish_rows(line: FinishLine) -> impl Fn(i32, i32) -> bool {
    move |u, v| u.min(v) <= line.bottom && u.max(v) >= line.top
}

/// One axis: the chosen stops and the table of fewest moves to follow them and finish.
struct Itinerary {
    size: i32,
    /// Chosen stops, by decreasing level: `(level, lo, hi)`.
    stops: Vec<(usize, i32, i32)>,
    /// Per distance `d`: index of the first stop still owed (the first with level `< d`).
    first_owed: Vec<u8>,
    /// `(stop * size + u) * (2·VMAX + 1) + v + VMAX` → fewest moves (`u8::MAX`: impossible).
    moves: Vec<u8>,
}

impl Itinerary {
    fn new(size: i32, levels: &[(i32, i32)], finishes: impl Fn(i32, i32) -> bool) -> Itinerary {
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
            stops,
            first_owed,
            moves: Vec::new(),
        };
        it.tabulate(finishes);
        it
    }

    fn width() -> usize {
        (2 * VMAX + 1) as usize
    }

    fn index(&self, stop: usize, u: i32, v: i32) -> usize {
        (stop * self.size as usize + u as usize) * Itinerary::width() + (v + VMAX) as usize
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
        let per_stop = self.size as usize * Itinerary::width();
        self.moves = vec![u8::MAX; (m + 1) * per_stop];
        let mut buckets: Vec<Vec<(i32, i32)>> = vec![Vec::new(); 256];
        for stop in (0..=m).rev() {
            for u in 0..self.size {
                for v in -VMAX..=VMAX {
                    let mut exit = u8::MAX;
                    for a in -1..=1 {
                        let v2 = v + a;
                        let u2 = u + v2;
                        if !(0..self.size).contains(&u2) {
                            continue;
                        }
                        let after = self.advance(stop, u, u2);
                        let cost = if after == m && finishes(u, u2) || v2.abs() > VMAX {
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
                        if vp.abs() > VMAX {
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

    /// Fewest moves along this axis from `u` at velocity `v`, for a node at distance `d`;
    /// 0 when the table knows nothing.
    fn moves(&self, d: usize, u: i32, v: i32) -> u32 {
        if !(0..self.size).contains(&u) || v.abs() > VMAX {
            return 0;
        }
        let stop = self.first_owed.get(d).copied().unwrap_or(0) as usize;
        match self.moves[self.index(stop, u, v)] {
            u8::MAX => 0,
            m => u32::from(m),
        }
    }
}

/// Waypoint bits of one axis: the far side (`≥ far`) and the near side (`≤ near`).
const FAR: u8 = 1;
const NEAR: u8 = 2;

/// One axis, the unordered version: the two extremes every lap must reach (a column `≥ far`
/// and one `≤ near`, or rows), owed in any order, then the finish. Exact where the itinerary
/// samples levels coarsely, e.g. round an oval.
struct Extremes {
    size: i32,
    far: i32,
    near: i32,
    /// `((u * (2·VMAX + 1)) + v + VMAX) * 4 + owed` → fewest moves, `u8::MAX` if impossible.
    moves: Vec<u8>,
}

impl Extremes {
    fn index(u: i32, v: i32, owed: u8) -> usize {
        ((u * (2 * VMAX + 1) + v + VMAX) as usize) * 4 + owed as usize
    }

    fn passed(&self, u: i32) -> u8 {
        (u8::from(u >= self.far) * FAR) | (u8::from(u <= self.near) * NEAR)
    }

    /// Backward breadth-first search over `(u, v, owed)`.
    fn new(size: i32, far: i32, near: i32, finishes: impl Fn(i32, i32) -> bool) -> Extremes {
        let mut e = Extremes {
            size,
            far,
            near,
            moves: vec![u8::MAX; (size * (2 * VMAX + 1)) as usize * 4],
        };
        let mut queue = Vec::new();
        for u in 0..size {
            for v in -VMAX..=VMAX {
                for a in -1..=1 {
                    let v2 = v + a;
                    let u2 = u + v2;
                    if !(0..size).contains(&u2) {
                        continue;
                    }
                    // A move into an untabulated speed may do anything: count it as finishing.
                    let left = if v2.abs() > VMAX { 3 } else { e.passed(u2) };
                    if !(finishes(u, u2) || v2.abs() > VMAX) {
                        continue;
                    }
                    for owed in 0..4u8 {
                        let i = Extremes::index(u, v, owed);
                        if owed & !left == 0 && e.moves[i] == u8::MAX {
                            e.moves[i] = 1;
                            queue.push((u, v, owed));
                        }
                    }
                }
            }
        }
        let mut head = 0;
        while head < queue.len() {
            let (u2, v2, owed2) = queue[head];
            head += 1;
            let next = e.moves[Extremes::index(u2, v2, owed2)]
                .saturating_add(1)
                .min(254);
            let u = u2 - v2;
            if !(0..size).contains(&u) {
                continue;
            }
            let cleared = e.passed(u2);
            for a in -1..=1 {
                let v = v2 - a;
                if v.abs() > VMAX {
                    continue;
                }
                for owed in 0..4u8 {
                    let i = Extremes::index(u, v, owed);
                    if owed & !cleared == owed2 && e.moves[i] == u8::MAX {
                        e.moves[i] = next;
                        queue.push((u, v, owed));
                    }
                }
            }
        }
        e
    }

    /// Fewest moves from `u` at velocity `v` owing `owed` (less what `u` itself passes).
    fn moves(&self, u: i32, v: i32, owed: u8) -> u32 {
        if !(0..self.size).contains(&u) || v.abs() > VMAX {
            return 0;
        }
        match self.moves[Extremes::index(u, v, owed & !self.passed(u))] {
            u8::MAX => 0,
            m => u32::from(m),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line_axis(levels: &[(i32, i32)]) -> Itinerary {
        Itinerary::new(100, levels, |u, v| u < 40 && v >= 40)
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
    fn extremes_tables_force_the_round_trip() {
        let e = Extremes::new(100, 99, 0, |u, v| u < 40 && v >= 40);
        assert_eq!(e.moves(39, 0, 0), 1);
        assert_eq!(e.moves(38, 0, 0), 2);
        let far = e.moves(39, 0, FAR);
        assert!(far > 16, "{far}");
        // Owing both ends costs more than owing one; what `u` passes is not owed.
        assert!(e.moves(39, 0, FAR | NEAR) > far);
        assert_eq!(e.moves(99, 0, FAR), e.moves(99, 0, 0));
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
