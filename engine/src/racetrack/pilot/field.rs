//! Distances to the end of a lap in the *chain-walk* model: the relaxation behind the optimal
//! pilot's heuristic, and the route the demo pilot follows.
//!
//! Every legal move of speed `s = max(|vx|, |vy|)` visits, cell by cell, a chain of `s` track
//! cells, each a king's step from the one before (the referee's walk in [`physics::on_track`];
//! on a half-pixel tie the chain goes through whichever candidate is track). Both cells of such
//! a step are track, so the step is itself a legal unit move, and the counted crossing of the
//! long move is the counted crossing of the one step of its chain that changes side: the chain
//! changes side exactly once when the move does, and it lands on a finish-line cell exactly
//! when the move's crossing point lies within half a cell of the run (the cells just above and
//! below the run are decor). So the remaining moves of any lap, cut into their chains, form a
//! walk of unit moves with the same crossings, as long in cells as the sum of the moves'
//! speeds. The shortest such walk from `(cell, count)` to a count of +1 is therefore a lower
//! bound on the cells still to drive, and since the speed grows by at most one per move,
//! `k` more moves from speed `s` drive at most `k·s + k(k+1)/2` cells.
//!
//! The field is a breadth-first search backwards from the finishing steps over
//! `(cell, count)` nodes, with a few count layers (count 0, −1, …).

use crate::racetrack::Circuit;
use crate::racetrack::physics::{self, FINISH_X, Pos};

use super::model::{State, Track};

const CELLS: usize = (Circuit::WIDTH * Circuit::HEIGHT) as usize;
/// The distance of a node from which no walk finishes.
pub(crate) const UNREACHABLE: u16 = u16::MAX;
/// The eight king's steps, indexed by direction.
const DIRS: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// [`DIRS`] as offsets between cell indices.
const STEP_OFFSETS: [isize; 8] = {
    let mut offsets = [0isize; 8];
    let mut d = 0;
    while d < 8 {
        offsets[d] = (DIRS[d].1 * Circuit::WIDTH + DIRS[d].0) as isize;
        d += 1;
    }
    offsets
};

/// For each cell, the king's steps that are legal unit moves from it, and their crossings.
///
/// A king's step from a track cell is legal exactly when its end cell is track: the referee's
/// walk ([`physics::on_track`]) takes one step along the major axis (and, on a diagonal, the
/// minor step at once, its error `2 > 1` and no tie), then tests the one cell it reached.
struct UnitMoves {
    /// Bit `d` set: the step `DIRS[d]` from this cell passes the collision test.
    legal: Vec<u8>,
    /// `cell * 8 + d`: the counted crossing of that step (0 where it is not legal).
    cross: Vec<i8>,
}

impl UnitMoves {
    fn new(track: &Track) -> UnitMoves {
        let circuit = track.circuit();
        let line = track.line();
        let mut legal = vec![0u8; CELLS];
        let mut cross = vec![0i8; CELLS * 8];
        for y in 0..Circuit::HEIGHT {
            for x in 0..Circuit::WIDTH {
                if !circuit.is_track(Pos::new(x, y)) {
                    continue;
                }
                let (a, i) = (Pos::new(x, y), index_of(Pos::new(x, y)));
                // Only a step between the two columns beside the line can cross it.
                let beside = x == FINISH_X - 1 || x == FINISH_X;
                for (d, &(dx, dy)) in DIRS.iter().enumerate() {
                    let b = Pos::new(x + dx, y + dy);
                    // The referee's walk of a king's step visits its end cell only (see
                    // `a_kings_step_is_legal_exactly_between_two_track_cells`).
                    if circuit.is_track(b) {
                        legal[i] |= 1 << d;
                        if beside {
                            cross[i * 8 + d] = physics::crossing(&line, a, b) as i8;
                        }
                    }
                }
            }
        }
        UnitMoves { legal, cross }
    }
}

fn pos_of(i: usize) -> Pos {
    Pos::new(i as i32 % Circuit::WIDTH, i as i32 / Circuit::WIDTH)
}

fn index_of(p: Pos) -> usize {
    (p.y * Circuit::WIDTH + p.x) as usize
}

/// Shortest chain-walk lengths to the end of the lap, per cell and count layer
/// (layer `k` holds count `−k`).
pub struct WalkDistances {
    /// `layer * CELLS + cell`, [`UNREACHABLE`] where no walk finishes.
    dist: Vec<u16>,
    graph: WalkGraph,
}

/// The chain-walk model as a graph: nodes `layer * CELLS + cell`, edges the legal unit moves,
/// each moving between count layers by its counted crossing.
pub(crate) struct WalkGraph {
    units: UnitMoves,
    layers: usize,
    /// Whether the deepest layer stands for every count at or below it (a relaxation: a lower
    /// bound for all of them) rather than exactly its own count.
    clamped: bool,
}

impl WalkGraph {
    fn new(track: &Track, layers: usize, clamped: bool) -> WalkGraph {
        WalkGraph {
            units: UnitMoves::new(track),
            layers,
            clamped,
        }
    }

    /// The node of `pos` at `count`, if the graph has one.
    pub(crate) fn node(&self, pos: Pos, count: i32) -> Option<usize> {
        if !Circuit::contains(pos) || count > 0 {
            return None;
        }
        let mut layer = count.unsigned_abs() as usize;
        if layer >= self.layers {
            if !self.clamped {
                return None;
            }
            layer = self.layers - 1;
        }
        Some(layer * CELLS + index_of(pos))
    }

    /// The cell of a node.
    pub(crate) fn pos(node: usize) -> Pos {
        pos_of(node % CELLS)
    }

    /// Calls `visit(node, landing)` for every unit move that ends the lap: from count 0, left
    /// to right over the line.
    pub(crate) fn for_each_finishing_step(&self, mut visit: impl FnMut(usize, Pos)) {
        // A king's step from left to right starts in the column just left of the line.
        for y in 0..Circuit::HEIGHT {
            let a = Pos::new(FINISH_X - 1, y);
            let i = index_of(a);
            let bits = self.units.legal[i];
            for (d, &(dx, dy)) in DIRS.iter().enumerate() {
                let b = Pos::new(a.x + dx, a.y + dy);
                if bits >> d & 1 == 1 && self.units.cross[i * 8 + d] == 1 {
                    visit(i, b);
                }
            }
        }
    }

    /// Calls `visit` with every node that has a unit move to `node`.
    pub(crate) fn for_each_predecessor(&self, node: usize, mut visit: impl FnMut(usize)) {
        let (layer, b) = (node / CELLS, pos_of(node % CELLS));
        let deepest = self.layers - 1;
        for (d, &(dx, dy)) in DIRS.iter().enumerate() {
            let a = Pos::new(b.x - dx, b.y - dy);
            if !Circuit::contains(a) || self.units.legal[index_of(a)] >> d & 1 == 0 {
                continue;
            }
            let cross = self.units.cross[index_of(a) * 8 + d];
            // From layer `la` (count −la) the step lands on count −la + cross = −layer.
            let exact = layer as i64 + i64::from(cross);
            if (0..self.layers as i64).contains(&exact) {
                visit(exact as usize * CELLS + index_of(a));
            }
            // The clamped deepest layer stands for all lower counts: any step from it may
            // land on it again.
            if self.clamped && layer == deepest && exact != deepest as i64 {
                visit(deepest * CELLS + index_of(a));
            }
        }
    }
}

impl WalkDistances {
    /// The optimal pilot's lower bounds: two layers, the second standing for every negative
    /// count (a walk that must cross the line k+1 times is never shorter than one that must
    /// cross it twice, so the bound stays admissible).
    pub fn lower_bounds(track: &Track) -> WalkDistances {
        WalkDistances::build(track, 2, true)
    }

    /// Exact walk lengths for counts `0, −1, …, −(layers − 1)`, following only walks that stay
    /// within those counts: every distance is realised by a walk of legal unit moves.
    pub fn walks(track: &Track, layers: usize) -> WalkDistances {
        WalkDistances::build(track, layers.max(1), false)
    }

    fn build(track: &Track, layers: usize, clamped: bool) -> WalkDistances {
        let graph = WalkGraph::new(track, layers, clamped);
        let mut dist = vec![UNREACHABLE; layers * CELLS];
        // Every node enters the queue once: a vector read from its front.
        let mut queue: Vec<u32> = Vec::with_capacity(layers * CELLS);
        graph.for_each_finishing_step(|node, _| {
            if dist[node] == UNREACHABLE {
                dist[node] = 1;
                queue.push(node as u32);
            }
        });
        let mut head = 0;
        while let Some(&node) = queue.get(head) {
            head += 1;
            let node = node as usize;
            let next = dist[node] + 1;
            let cell = node % CELLS;
            let (x, y) = (cell as i32 % Circuit::WIDTH, cell as i32 / Circuit::WIDTH);
            let inner =
                (1..Circuit::WIDTH - 1).contains(&x) && (1..Circuit::HEIGHT - 1).contains(&y);
            if inner && x != FINISH_X - 1 && x != FINISH_X {
                // Away from the border and the line: every step into `cell` is on the grid
                // and keeps its side of the line, so it stays in the node's layer.
                let layer = node - cell;
                for (d, &offset) in STEP_OFFSETS.iter().enumerate() {
                    let a = cell.wrapping_sub(offset as usize);
                    if graph.units.legal[a] >> d & 1 == 1 && dist[layer + a] == UNREACHABLE {
                        dist[layer + a] = next;
                        queue.push((layer + a) as u32);
                    }
                }
            } else {
                graph.for_each_predecessor(node, |j| {
                    if dist[j] == UNREACHABLE {
                        dist[j] = next;
                        queue.push(j as u32);
                    }
                });
            }
        }
        WalkDistances { dist, graph }
    }

    /// The walk graph the field was computed on.
    pub(crate) fn graph(&self) -> &WalkGraph {
        &self.graph
    }

    /// The shortest walk (in unit moves) from `pos` with running count `count` to the end of
    /// the lap, or `None` when none exists (or `count` is outside an unclamped field).
    pub fn distance(&self, pos: Pos, count: i32) -> Option<u32> {
        self.distance_at(self.graph.node(pos, count)?)
    }

    /// Every node's distance (by node of [`WalkDistances::graph`]), [`UNREACHABLE`] where no walk
    /// finishes: for scans over the whole field.
    pub(crate) fn distances(&self) -> &[u16] {
        &self.dist
    }

    /// [`WalkDistances::distance`] of a node of [`WalkDistances::graph`].
    pub(crate) fn distance_at(&self, node: usize) -> Option<u32> {
        let d = self.dist[node];
        (d != UNREACHABLE).then_some(u32::from(d))
    }

    /// A lower bound on the moves left to finish from `state` (at least 1), or `None` when the
    /// lap cannot be finished from there. Consistent: it drops by at most one per move.
    pub fn moves_bound(&self, state: State) -> Option<u32> {
        let cells = self.distance(state.pos, i32::from(state.count))?;
        Some(moves_to_cover(state.speed(), cells))
    }
}

/// The fewest moves `k` that can drive `cells` cells when the current speed is `speed` and each
/// move can go one cell faster than the last: least `k` with `k·speed + k(k+1)/2 ≥ cells`.
pub fn moves_to_cover(speed: u32, cells: u32) -> u32 {
    let covered = |k: u64| k * u64::from(speed) + k * (k + 1) / 2;
    let b = 2.0 * f64::from(speed) + 1.0;
    let mut k = ((-b + (b * b + 8.0 * f64::from(cells)).sqrt()) / 2.0)
        .ceil()
        .max(0.0) as u64;
    while covered(k) < u64::from(cells) {
        k += 1;
    }
    while k > 0 && covered(k - 1) >= u64::from(cells) {
        k -= 1;
    }
    k as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kings_step_is_legal_exactly_between_two_track_cells() {
        for sample in crate::racetrack::samples::SAMPLES {
            let Ok(c) = Circuit::parse(sample.text.as_bytes()) else {
                continue;
            };
            for i in 0..CELLS {
                let a = pos_of(i);
                for &(dx, dy) in &DIRS {
                    let b = Pos::new(a.x + dx, a.y + dy);
                    if Circuit::contains(b) {
                        assert_eq!(
                            physics::on_track(&c, a, b),
                            c.is_track(a) && c.is_track(b),
                            "{}: {a} → {b}",
                            sample.name
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn moves_to_cover_is_the_least_k() {
        for speed in 0..40u32 {
            for cells in 0..2000u32 {
                let k = moves_to_cover(speed, cells);
                let covered = |k: u32| k * speed + k * (k + 1) / 2;
                assert!(covered(k) >= cells);
                assert!(
                    k == 0 || covered(k - 1) < cells,
                    "speed {speed} cells {cells}"
                );
            }
        }
    }

    #[test]
    fn on_an_open_start_zone_the_walk_goes_back_over_the_line_only_when_allowed() {
        // The blank canvas: only the start zone is track, so no lap exists at count 0 …
        let c = Circuit::blank();
        let track = Track::new(&c).unwrap();
        let exact = WalkDistances::walks(&track, 1);
        assert_eq!(exact.distance(Pos::new(40, 4), 0), None);
        // … but one step from the left of the line finishes.
        assert_eq!(exact.distance(Pos::new(39, 4), 0), Some(1));
        assert_eq!(exact.distance(Pos::new(30, 4), 0), Some(10));
        // Counts below the field's layers are unknown to an exact field; a relaxed one answers
        // for them with its deepest layer.
        let relaxed = WalkDistances::lower_bounds(&track);
        assert_eq!(exact.distance(Pos::new(39, 4), -1), None);
        assert_eq!(relaxed.distance(Pos::new(30, 4), 0), Some(10));
        assert_eq!(
            relaxed.distance(Pos::new(30, 4), -5),
            relaxed.distance(Pos::new(30, 4), -1)
        );
        assert_eq!(relaxed.distance(Pos::new(30, 4), 1), None);
    }
}
