//! Gates: the optimal pilot's bound along the whole lap, corner after corner.
//!
//! The per-axis itineraries of [`bounds`](super::bounds) follow `x` and `y` each on its own
//! clock, so where the lap turns a corner they let one axis race on while the other turns:
//! on a circuit of narrow corridors they fall about a third short of the optimum. This bound
//! keeps the two axes on one clock at regular *gates* across the track, and lets each axis run
//! free only between two gates.
//!
//! *Gates.* A gate is a level `L` of the chain-walk distance `d` of [`WalkDistances`] (every
//! [`SPACING`] levels, from `40` up to `REACH + 1` below the start's level and below every
//! level of the negative count layer). A lap from a state above `L` (at a level `> L`) has a
//! first position at a level `≤ L` (its last position before the finish is at level `≤ 16`: the
//! finishing move's chain reaches the line within its speed), reached from a position above `L`. That position
//! `p`, with the velocity `v` of the move into it, is the lap's *split state* at the gate. Since
//! the chain of a move of speed `s` passes levels one by one, dropping at most one per cell
//! (see [`field`](super::field)), the previous position `q = p − v` lies at a level in
//! `(L, level(p) + s]`, so `level(p) ≥ L − 15`. Both are on the count-0 layer (every level of
//! the negative layer and of the start is above `L + 16`), `p` cannot finish (its level is
//! `≥ 25`), `q` is not the start (whose level is above `L + 16`), and the move `q → p` makes no
//! counted crossing (both ends stay on the count-0 layer). Hence every split state
//! satisfies what [`Gates::new`] checks: `|v|` within the proven bounds of
//! [`table`](super::table), `q` and `p` track cells of the count-0 layer with `level(q) > L ≥
//! level(p) ≥ level(q) − s`, the move `q → p` passes the referee's test, some track cell lies
//! within one of `q − v` (the position before `q`: its move had velocity `v − a`) and some
//! track cell within one of `p + v` (the position after `p`), and the checks of *Room to
//! move* below. The set `Z_L` of states that pass contains every split state.
//!
//! *Room to move.* Every position of a lap is a track cell (the referee's walk ends on the
//! move's target, never on a half-pixel tie, so even the finishing move lands on track), and
//! the velocity changes by at most one per move, so the position `j` moves after `p` lies within `j(j+1)/2` of `p + jv`
//! along each axis, and the one `j` moves before within `j(j−1)/2` of `p − jv`. The lap does
//! make two more moves after a split state (`p` cannot finish, above), and it made at least
//! six before: the start's level is above `L + 16`, `p`'s at most `L`, and the `i`-th move of
//! a lap (speed at most `i`) passes at most `i` levels, so the first five pass at most 15. So
//! besides the one-move checks above, [`Gates::new`] requires a track cell within 3 of
//! `p + 2v`, within 3 of `p − 3v` and within 6 of `p − 4v` ([`Further`]). Most states of a
//! gate's crossing fail them: too fast to have come round the corner before, or to take the
//! one after. Further ahead, the lap surely makes `H(z)` more moves (`H`, the split state's bound, is
//! defined below and proved by induction from the last gate, so it may serve at the gate
//! being built): where `H(z) ≥ 6`, [`Gates::new`] also requires a track cell within 21 of
//! `p + 6v` ([`AHEAD`]) — a car rushing at a wall it cannot brake for.
//!
//! *The chain of gates.* Take the gates `L_0 > L_1 > … > L_m` below a state `s`. A lap from `s`
//! meets its split states `z_0, z_1, …, z_m` in this order (a position at a level `≤ L_{k+1}`
//! is also `≤ L_k`). Projected on one axis, the car is a point whose velocity changes by at most
//! one per move, so between two states `(u, v)` and `(u', v')` it needs at least `T(u, v → u',
//! v')` moves, the fewest of such a point; the lap needs the larger of the two axes'. Define,
//! from the last gate back:
//!
//! * `H(z) = ` the bound of [`LowerBound`](super::bounds::LowerBound) without gates, for
//!   `z ∈ Z_{L_m}`;
//! * `B_k(u, v) = min over z ∈ Z_{L_k} of T(u, v → z) + H(z)`, per axis;
//! * `H(z) = max(B_{k+1}^x(z_x, v_x), B_{k+1}^y(z_y, v_y))` for `z ∈ Z_{L_k}`, `k < m`.
//!
//! By induction from the last gate, `H(z)` is at most the moves a lap needs from a split state
//! `z` (its own split state at the next gate is some `z' ∈ Z`, reached after at least
//! `T(z → z')` moves on each axis, then `≥ H(z')` more). A split state at gate `k` may already
//! lie at or below gate `k + 1`, even `k + 2` (split states reach `L_k − 15`, gates are
//! [`SPACING`] apart): then it is the lap's split state there too (its position before, `q`,
//! lies above `L_k`, so above `L_{k+1}`), `z' = z` after zero moves — and `Z_{L_{k+1}}`, which
//! holds every split state, holds it. So for a state `s` above `L_k`, the
//! moves left are at least `max(B_k^x(s_x, v_x), B_k^y(s_y, v_y))`. `B_k` is tabulated for every
//! `(u, v)` (velocities within the proven bounds, which every state keeps) by a breadth-first
//! search backwards from the split states; values more than
//! [`SPREAD`] above a table's least are lowered to that ceiling (a lower value is still a lower
//! bound, and those states are far too slow to matter), which also bounds the search. A `(u,
//! v)` from which no point reaches a split state gets the ceiling too: no lap passes there.
//!
//! *Scope.* The checks on `q − v`, `p − 3v` and `p − 4v` use the history of a lap before its
//! split state (positions that are track, and at least six moves of it), so the bound is proved
//! for states a lap can reach — the only ones the search asks about — not for every position
//! and velocity.

use crate::racetrack::Circuit;
use crate::racetrack::physics::{Pos, START};

use super::clearance::Clearance;
use super::field::{UNREACHABLE, WalkDistances, WalkGraph};
use super::model::State;
use super::table::{MAX_VX, MAX_VY};

/// Levels between two gates. Closer gates bound better (the axes share a clock more often)
/// and cost more to tabulate (the README's tuning notes give the measured trade).
const SPACING: i32 = 6;
/// Most levels a move passes: its chain has at most as many cells as its speed.
const REACH: i32 = MAX_VX;
/// The lowest gate: its split states stand at levels `≥ 25`, out of a finishing move's reach.
const LOWEST: i32 = 40;
/// The move after a split state whose position the gates check when a lap surely gets that far
/// (see the module docs, *Room to move*).
const AHEAD: i32 = 6;
/// A table's values are kept within this many moves of its least one (see the module docs);
/// a wider spread bounds no better on the samples and tabulates slower.
const SPREAD: usize = 12;
/// A table entry not yet known.
const UNKNOWN: u8 = u8::MAX;
/// Most gates: their indices are bytes, [`NO_GATE`] excluded.
const MAX_GATES: usize = u8::MAX as usize;
const NO_GATE: u8 = u8::MAX;
const CELLS: usize = (Circuit::WIDTH * Circuit::HEIGHT) as usize;

/// The gates of a circuit and the tables `B_k` of both axes.
pub(crate) struct Gates {
    /// Per level `d`: the gate whose tables answer for a node at level `d` (the nearest gate
    /// below it), or [`NO_GATE`].
    gate_of: Vec<u8>,
    /// Gate `k`'s `B_k^x`, at `k * X.states() + X.index(u, v)`.
    x: Vec<u8>,
    /// Gate `k`'s `B_k^y`.
    y: Vec<u8>,
}

impl Gates {
    /// No gates: the bound is left to the other components.
    pub(crate) fn none() -> Gates {
        Gates {
            gate_of: Vec::new(),
            x: Vec::new(),
            y: Vec::new(),
        }
    }

    /// The gate levels of a field (none on a circuit too short for them; on a very long one,
    /// spaced further so that at most [`MAX_GATES`] of them index the tables).
    pub(crate) fn levels(field: &WalkDistances) -> Cuts {
        let levels = Levels::new(field);
        let top = levels.top;
        let span = (top - REACH - LOWEST).max(0);
        let spacing = SPACING.max(span / MAX_GATES as i32 + 1);
        let cuts = (LOWEST..top - REACH)
            .rev()
            .step_by(spacing as usize)
            .collect();
        Cuts { levels, cuts }
    }

    /// Tabulates the gates `cuts` (from [`Gates::levels`]); `rest` is the bound to use after
    /// the last one.
    pub(crate) fn new(
        circuit: &Circuit,
        clearance: &Clearance,
        cuts: &Cuts,
        rest: impl Fn(State) -> Option<u32>,
    ) -> Gates {
        let Cuts { levels, cuts } = cuts;
        debug_assert!(cuts.len() <= MAX_GATES);
        let cuts = &cuts[..cuts.len().min(MAX_GATES)];
        let cells = levels.cells_by_level();
        let [one, three, six, ahead]: [Dilated; 4] =
            Dilated::grown(circuit, &[1, 3, 6, AHEAD * (AHEAD + 1) / 2])
                .try_into()
                .unwrap_or_else(|_| unreachable!("one per radius"));
        let further = Further::new(&one, &three, &six);
        let n = cuts.len();
        let splits = Splits::new(&cells, cuts, &further, levels);
        let mut x = vec![UNKNOWN; n * X.states()];
        let mut y = vec![UNKNOWN; n * Y.states()];
        let mut by_cost: Vec<Vec<u32>> = vec![Vec::new(); 256];
        let (mut sources_x, mut sources_y) = (Vec::new(), Vec::new());
        // Per move of `splits.moves`: 0 not yet tested, 1 passes the referee's test, 2 fails.
        let mut legal = vec![0u8; splits.moves.len()];
        for k in (0..n).rev() {
            let (xs, next_x) = x.split_at_mut((k + 1) * X.states());
            let (ys, next_y) = y.split_at_mut((k + 1) * Y.states());
            let (tx, ty) = (&mut xs[k * X.states()..], &mut ys[k * Y.states()..]);
            sources_x.clear();
            sources_y.clear();
            for &m in &splits.of_gate[k] {
                let (q, p) = splits.moves[m as usize];
                let v = Pos::new(p.x - q.x, p.y - q.y);
                let (ix, iy) = (X.index(p.x, v.x), Y.index(p.y, v.y));
                let h = if k + 1 == n {
                    rest(State {
                        pos: p,
                        vel: v,
                        count: 0,
                        before_first_move: false,
                    })
                    .map_or(UNKNOWN, |h| h.min(u32::from(UNKNOWN) - 1) as u8)
                } else {
                    next_x[ix].max(next_y[iy])
                };
                // Only a state that lowers a source needs the collision test (once a move).
                if h >= tx[ix] && h >= ty[iy] {
                    continue;
                }
                // A lap through `p` makes at least `h` more moves: room for the [`AHEAD`]-th?
                let later = Pos::new(p.x + AHEAD * v.x, p.y + AHEAD * v.y);
                if i32::from(h) >= AHEAD && !ahead.has(later) {
                    continue;
                }
                let verdict = &mut legal[m as usize];
                if *verdict == 0 {
                    *verdict = if clearance.passes(circuit, q, p) {
                        1
                    } else {
                        2
                    };
                }
                if *verdict == 2 {
                    continue;
                }
                if h < tx[ix] {
                    tx[ix] = h;
                    sources_x.push(ix as u32);
                }
                if h < ty[iy] {
                    ty[iy] = h;
                    sources_y.push(iy as u32);
                }
            }
            X.tabulate::<3>(tx, &sources_x, &mut by_cost);
            Y.tabulate::<2>(ty, &sources_y, &mut by_cost);
        }
        let mut gate_of = vec![NO_GATE; levels.max as usize + 1];
        let mut k = n;
        for (d, g) in gate_of.iter_mut().enumerate() {
            while k > 0 && (cuts[k - 1] as usize) < d {
                k -= 1;
            }
            if k < n && (cuts[k] as usize) < d {
                *g = k as u8;
            }
        }
        Gates { gate_of, x, y }
    }

    /// The bound of a node at level `d` with the car at `pos` moving by `vel`, or `None` when
    /// no gate lies below `d`.
    #[inline]
    pub(crate) fn moves(&self, d: u32, pos: Pos, vel: Pos) -> Option<u32> {
        let g = *self.gate_of.get(d as usize)?;
        if g == NO_GATE || vel.x.abs() > MAX_VX || vel.y.abs() > MAX_VY {
            return None;
        }
        let g = g as usize;
        let bx = self.x[g * X.states() + X.index(pos.x, vel.x)];
        let by = self.y[g * Y.states() + Y.index(pos.y, vel.y)];
        // UNKNOWN only remains in the tables of a gate without split states.
        let known = |b: u8| if b == UNKNOWN { 0 } else { u32::from(b) };
        Some(known(bx).max(known(by)))
    }
}

/// The candidate split states of every gate, each move found once: a gate's split states
/// come from moves `q → p` with `level(p) ≤ L < level(q)` and `level(q) − level(p) ≤` the
/// move's speed (see the module docs), so a move is a candidate at every gate between its two
/// levels — with gates a few levels apart, at several; finding each move once and listing it
/// under each of its gates spares the row-by-row search ([`Further`]) repeating itself.
struct Splits {
    /// The moves `(q, p)` that pass the checks that depend only on `q` and `p` (the collision
    /// walk aside, made later and only if needed).
    moves: Vec<(Pos, Pos)>,
    /// Per gate: its moves, as indices into `moves`.
    of_gate: Vec<Vec<u32>>,
}

impl Splits {
    fn new(cells: &ByLevel, cuts: &[i32], further: &Further, levels: &Levels) -> Splits {
        let mut splits = Splits {
            moves: Vec::new(),
            of_gate: vec![Vec::new(); cuts.len()],
        };
        let (Some(&highest), Some(&lowest)) = (cuts.first(), cuts.last()) else {
            return splits;
        };
        // Per row, while the `q`s of level `ℓ` are taken: the cells at levels from `ℓ − REACH`
        // up to the first gate below `ℓ` (a `p` above it splits no gate).
        let mut window = Window::default();
        let mut added = lowest - REACH - 1;
        // The first gate below a level: cuts run from the highest level down.
        let first_below = |level: i32| cuts.partition_point(|&l| l >= level);
        for level in lowest + 1..=highest + REACH {
            let k0 = first_below(level);
            for &p in cells.range((added + 1).max(level - REACH), cuts[k0]) {
                window.add(p);
            }
            added = added.max(cuts[k0]);
            for &p in cells.range(level - 1 - REACH, level - 1 - REACH) {
                window.remove(p);
            }
            for &q in cells.range(level, level) {
                let columns = Bits::span(q.x - MAX_VX, q.x + MAX_VX);
                for py in window.rows_near(q.y) {
                    let vy = py - q.y;
                    let near = window.rows[py as usize].and(&columns);
                    let candidates = further.columns(near, q.x, q.y, py);
                    candidates.for_each(|px| {
                        let px = px as i32;
                        let vx = px - q.x;
                        let speed = vx.abs().max(vy.abs());
                        let p_level = levels.of[(py * Circuit::WIDTH + px) as usize] as i32;
                        if level - p_level > speed {
                            return;
                        }
                        let m = splits.moves.len() as u32;
                        let mut listed = false;
                        for (k, _) in cuts
                            .iter()
                            .enumerate()
                            .skip(k0)
                            .take_while(|&(_, &l)| l >= p_level)
                        {
                            splits.of_gate[k].push(m);
                            listed = true;
                        }
                        if listed {
                            splits.moves.push((q, Pos::new(px, py)));
                        }
                    });
                }
            }
        }
        splits
    }
}

/// [`Splits`]' cells, per row, with the rows that hold any: a `q` looks only at those within
/// reach of its own.
struct Window {
    rows: [Bits; Circuit::HEIGHT as usize],
    counts: [u8; Circuit::HEIGHT as usize],
    /// Bit `y` set when row `y` holds a cell.
    occupied: u128,
}

impl Default for Window {
    fn default() -> Self {
        Window {
            rows: [Bits::ZERO; Circuit::HEIGHT as usize],
            counts: [0; Circuit::HEIGHT as usize],
            occupied: 0,
        }
    }
}

impl Window {
    fn add(&mut self, p: Pos) {
        let y = p.y as usize;
        self.rows[y].set(p.x as usize);
        self.counts[y] += 1;
        self.occupied |= 1 << y;
    }

    /// Removes a cell if it was added (each cell is added at most once: it has one level). The
    /// window asks it of every cell of the level it leaves, some of which it never held.
    fn remove(&mut self, p: Pos) {
        let y = p.y as usize;
        if !self.rows[y].has(p.x as usize) {
            return;
        }
        self.rows[y].clear(p.x as usize);
        self.counts[y] -= 1;
        if self.counts[y] == 0 {
            self.occupied &= !(1 << y);
        }
    }

    /// The occupied rows within [`MAX_VY`] of row `y`, in increasing order.
    fn rows_near(&self, y: i32) -> impl Iterator<Item = i32> {
        let lo = (y - MAX_VY).max(0) as u32;
        let hi = (y + MAX_VY).min(Circuit::HEIGHT - 1) as u32;
        let span = (u128::MAX >> (127 - (hi - lo))) << lo;
        let mut rows = self.occupied & span;
        std::iter::from_fn(move || {
            (rows != 0).then(|| {
                let y = rows.trailing_zeros();
                rows &= rows - 1;
                y as i32
            })
        })
    }
}

/// The gate levels of a circuit, highest first, with the field's levels they were chosen from.
pub(crate) struct Cuts {
    levels: Levels,
    cuts: Vec<i32>,
}

impl Cuts {
    /// Whether the circuit has no gates.
    pub(crate) fn is_empty(&self) -> bool {
        self.cuts.is_empty()
    }

    /// The number of gates.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.cuts.len()
    }
}

/// The levels of the count-0 layer's cells, and the bounds gates must respect.
struct Levels {
    /// Per cell: its level on the count-0 layer (`u32::MAX`: none).
    of: Vec<u32>,
    /// Below the start's level and every level of the deeper count layer.
    top: i32,
    /// The highest level of any node.
    max: u32,
}

impl Levels {
    fn new(field: &WalkDistances) -> Levels {
        // Nodes `0..CELLS` are the count-0 layer's cells.
        let dist = field.distances();
        let (shallow, deeper) = dist.split_at(CELLS.min(dist.len()));
        let known = |d: &&u16| **d != UNREACHABLE;
        let of: Vec<u32> = shallow
            .iter()
            .map(|&d| {
                if d == UNREACHABLE {
                    u32::MAX
                } else {
                    u32::from(d)
                }
            })
            .collect();
        let max_shallow = shallow
            .iter()
            .filter(known)
            .max()
            .map_or(0, |&d| u32::from(d));
        let max_deep = deeper
            .iter()
            .filter(known)
            .max()
            .map_or(0, |&d| u32::from(d));
        let deep = deeper
            .iter()
            .filter(known)
            .min()
            .map_or(u32::MAX, |&d| u32::from(d));
        let max = max_shallow.max(max_deep);
        let start = of[(START.y * Circuit::WIDTH + START.x) as usize];
        let top = start.min(deep).min(max_shallow + 1).min(i32::MAX as u32) as i32;
        Levels { of, top, max }
    }

    /// The cells of levels below [`Levels::top`], grouped by level.
    fn cells_by_level(&self) -> ByLevel {
        let span = self.top.max(0) as usize;
        let mut first = vec![0u32; span + 1];
        for &d in &self.of {
            if (d as usize) < span {
                first[d as usize + 1] += 1;
            }
        }
        for i in 0..span {
            first[i + 1] += first[i];
        }
        let mut next = first.clone();
        let mut cells = vec![Pos::new(0, 0); first[span] as usize];
        for (i, &d) in self.of.iter().enumerate() {
            if (d as usize) < span {
                cells[next[d as usize] as usize] = WalkGraph::pos(i);
                next[d as usize] += 1;
            }
        }
        ByLevel { first, cells }
    }
}

/// Cells grouped by level: level `d`'s are `cells[first[d]..first[d + 1]]`.
struct ByLevel {
    first: Vec<u32>,
    cells: Vec<Pos>,
}

impl ByLevel {
    /// The cells of levels `lo..=hi` (clamped to the levels held).
    fn range(&self, lo: i32, hi: i32) -> &[Pos] {
        let span = self.first.len() as i32 - 1;
        let (lo, hi) = (lo.clamp(0, span) as usize, (hi + 1).clamp(0, span) as usize);
        &self.cells[self.first[lo] as usize..self.first[hi.max(lo)] as usize]
    }
}

/// The checks on split states that depend only on `q` and `p` (see the module docs), a row of
/// candidates at a time: for a previous position `q` and a row `py`, the columns `px` such
/// that, with `p = (px, py)` and the move `v = p − q`, a track cell lies near each position the
/// lap must hold: within 1 of `p + v` (the position after `p`) and of `p − 2v` (the one before
/// `q`), and, for *room to move*, within 3 of `p + 2v`, within 3 of `p − 3v` and within 6 of
/// `p − 4v`.
struct Further {
    checks: [Reach; 5],
}

impl Further {
    /// The checks, from the track grown by 1, 3 and 6.
    fn new(one: &Dilated, three: &Dilated, six: &Dilated) -> Further {
        Further {
            checks: [
                Reach::new(one, 1),
                Reach::new(one, -2),
                Reach::new(three, 2),
                Reach::new(three, -3),
                Reach::new(six, -4),
            ],
        }
    }

    /// The columns `px` of `candidates` that pass every check for `q = (qx, qy)` and
    /// `p = (px, py)` (checking no further once none is left).
    fn columns(&self, candidates: Bits, qx: i32, qy: i32, py: i32) -> Bits {
        let mut columns = candidates;
        for check in &self.checks {
            if columns.is_zero() {
                break;
            }
            columns = columns.and(&check.columns(qx, qy, py));
        }
        columns
    }
}

/// Where a track cell lies within `r` of a cell (along both axes), for the cells of the grid
/// grown by `r` on every side.
#[derive(Clone)]
struct Dilated {
    r: i32,
    /// Per row `y` of `−r..HEIGHT + r`: bit `x + r` set when a track cell lies within `r` of
    /// `(x, y)`, for `x` in `−r..WIDTH + r`.
    rows: Vec<Bits>,
}

impl Dilated {
    /// The track grown by each of `radii` (increasing, at most 21: the grown rows, 150 + 2 · 21
    /// columns, fill a [`Bits`]), in steps of at most twice the radius so far, plus one (see
    /// [`Dilated::grow`]).
    fn grown(circuit: &Circuit, radii: &[i32]) -> Vec<Dilated> {
        let rows = (0..Circuit::HEIGHT)
            .map(|y| {
                let mut row = Bits::ZERO;
                for x in 0..Circuit::WIDTH {
                    if circuit.is_track(Pos::new(x, y)) {
                        row.set(x as usize);
                    }
                }
                row
            })
            .collect();
        let mut grown = Dilated { r: 0, rows };
        radii
            .iter()
            .map(|&r| {
                debug_assert!(r >= grown.r, "radii in increasing order");
                while grown.r < r {
                    grown = grown.grow((r - grown.r).min(2 * grown.r + 1));
                }
                grown.clone()
            })
            .collect()
    }

    /// Grown by `b` more cells on every side, `b ≤ 2r + 1`: a cell within `r` of one of the
    /// cells `b` apart around it (or of itself) is within `r + b`, and the three squares of
    /// side `2r + 1` leave no gap between them.
    fn grow(&self, b: i32) -> Dilated {
        debug_assert!((1..=2 * self.r + 1).contains(&b) && self.r + b <= 21);
        let (n, bu) = (self.rows.len(), b as usize);
        let rows = (0..n + 2 * bu)
            .map(|i| {
                // New row `i` is old row `i − b`: it takes the old rows `b` above and below
                // too, and each column the old columns `b` either side (bits move up `b`).
                let near = [i.checked_sub(2 * bu), i.checked_sub(bu), Some(i)]
                    .into_iter()
                    .flatten()
                    .filter(|&j| j < n)
                    .fold(Bits::ZERO, |near, j| near.or(&self.rows[j]));
                near.or(&near.shift_down(-b)).or(&near.shift_down(-2 * b))
            })
            .collect();
        Dilated {
            r: self.r + b,
            rows,
        }
    }

    /// Whether a track cell lies within `r` of `c` (along both axes).
    fn has(&self, c: Pos) -> bool {
        let r = self.r;
        (-r..Circuit::WIDTH + r).contains(&c.x)
            && (-r..Circuit::HEIGHT + r).contains(&c.y)
            && self.rows[(c.y + r) as usize].has((c.x + r) as usize)
    }
}

/// One check of [`Further`]: track within `r` of the position `j` moves after `p` (`j > 0`:
/// `p + jv = (j + 1)p − jq`) or `−j` moves before it (`j < 0`: `p − |j|v = |j|q − (|j| − 1)p`).
/// Along a row, that position's column runs over every `stride`-th column as `px` grows
/// (backwards for a position before `p`), so each row of [`Dilated`] is kept sampled, one bit
/// set per residue, and the check of a row of candidates is one shift.
struct Reach {
    j: i32,
    r: i32,
    stride: i32,
    /// Per row `y` of `−r..HEIGHT + r` and residue `β < stride`, at `(y + r) * stride + β`:
    /// bit `i` stands for column `c(i) = stride · (i − ORIGIN) + β` (after `p`) or
    /// `FAR − c(i)` (before it).
    rows: Vec<Bits>,
    /// Per column `qx` of `q`: the residue `β` and the shift `k` that put the position's
    /// column for `px` at bit `px + k` of residue `β`'s rows (worked out once, not per row).
    by_qx: Vec<(i32, i32)>,
}

impl Reach {
    /// Bits below [`Reach::ORIGIN`] stand for the columns left of column 0 (right of
    /// [`Reach::FAR`] before `p`).
    const ORIGIN: i32 = 8;
    const FAR: i32 = Circuit::WIDTH + 8;

    fn new(dilated: &Dilated, j: i32) -> Reach {
        let (r, stride) = (dilated.r, if j > 0 { j + 1 } else { -j - 1 });
        debug_assert!(stride >= 1 && r <= stride * Reach::ORIGIN);
        debug_assert!(r <= Reach::FAR - Circuit::WIDTH);
        let mut rows = vec![Bits::ZERO; dilated.rows.len() * stride as usize];
        for (y, row) in dilated.rows.iter().enumerate() {
            row.for_each(|bit| {
                let c = bit as i32 - r;
                let c = if j > 0 { c } else { Reach::FAR - c };
                let beta = c.rem_euclid(stride);
                let i = (c - beta) / stride + Reach::ORIGIN;
                rows[y * stride as usize + beta as usize].set(i as usize);
            });
        }
        let by_qx = (0..Circuit::WIDTH)
            .map(|qx| {
                // s · px + t = s · (i − ORIGIN) + β with i = px + k: β = t mod s.
                let t = if j > 0 { -j * qx } else { Reach::FAR + j * qx };
                let whole = t.div_euclid(stride);
                (t - whole * stride, whole + Reach::ORIGIN)
            })
            .collect();
        Reach {
            j,
            r,
            stride,
            rows,
            by_qx,
        }
    }

    /// The columns `px` that pass this check for `q = (qx, qy)` and `p = (px, py)`.
    fn columns(&self, qx: i32, qy: i32, py: i32) -> Bits {
        let j = self.j.abs();
        // The position's row; its column is `s · px + t` (`FAR −` it before `p`), `t` from `qx`.
        let row = if self.j > 0 {
            (j + 1) * py - j * qy
        } else {
            j * qy - (j - 1) * py
        };
        if !(-self.r..Circuit::HEIGHT + self.r).contains(&row) {
            return Bits::ZERO;
        }
        let (beta, k) = self.by_qx[qx as usize];
        self.rows[((row + self.r) * self.stride + beta) as usize].shift_far(k)
    }
}

/// One axis of the tables: positions `0..size`, velocities `−vmax..=vmax` (the proven bounds
/// of [`table`](super::table), which every state respects).
#[derive(Clone, Copy)]
struct Axis {
    size: i32,
    vmax: i32,
}

const X: Axis = Axis {
    size: Circuit::WIDTH,
    vmax: MAX_VX,
};
const Y: Axis = Axis {
    size: Circuit::HEIGHT,
    vmax: MAX_VY,
};
/// Velocities of the wider axis.
const VELOCITIES: usize = (2 * MAX_VX + 1) as usize;

impl Axis {
    const fn width(self) -> usize {
        (2 * self.vmax + 1) as usize
    }

    /// Entries per velocity: the positions, rounded up to whole words of eight bytes (the
    /// search writes its entries eight at a time).
    const fn stride(self) -> usize {
        (self.size as usize).div_ceil(8) * 8
    }

    const fn states(self) -> usize {
        self.width() * self.stride()
    }

    /// Velocity-major, so that the positions of one velocity are one run of bytes.
    fn index(self, u: i32, v: i32) -> usize {
        (v + self.vmax) as usize * self.stride() + u as usize
    }

    /// Turns the sources' costs in `table` (at the indices `sources`, the rest [`UNKNOWN`])
    /// into `B`: the fewest moves from each `(u, v)` to a source plus its cost, kept within
    /// [`SPREAD`] of the least.
    ///
    /// A breadth-first search backwards, one cost at a time, over bit sets of positions per
    /// velocity: the states one move before `(u, v)` are `(u − v, v − a)`, `a ∈ {−1, 0, 1}`,
    /// so a whole set of positions of velocity `v` steps back by one shift.
    /// `N` words hold the positions of one velocity.
    fn tabulate<const N: usize>(self, table: &mut [u8], sources: &[u32], by_cost: &mut [Vec<u32>]) {
        debug_assert!(self.stride() <= 64 * N);
        by_cost.iter_mut().for_each(Vec::clear);
        let (mut lowest, mut highest) = (usize::MAX, 0);
        for &i in sources {
            let c = table[i as usize] as usize;
            by_cost[c].push(i);
            lowest = lowest.min(c);
            highest = highest.max(c);
        }
        if lowest == usize::MAX {
            return;
        }
        let ceiling = (lowest + SPREAD).min(UNKNOWN as usize - 1);
        // Whatever the search does not reach below the ceiling gets the ceiling: below its
        // true value, or standing for "no path to a split state" (no lap passes there).
        table.fill(ceiling as u8);
        let (w, stride) = (self.width(), self.stride());
        let inside = BitSet::<N>::below(self.size);
        let zero = BitSet::<N>::ZERO;
        let mut reached = [zero; VELOCITIES];
        let (mut frontier_sets, mut before_sets) = ([zero; VELOCITIES], [zero; VELOCITIES]);
        // Swapped by reference after each cost, not copied.
        let (mut frontier, mut before) = (&mut frontier_sets, &mut before_sets);
        for (cost, joining) in by_cost.iter().enumerate().take(ceiling).skip(lowest) {
            // The sources of this cost join the frontier (a source reached for less is done;
            // a duplicate of a lowered source is ignored by the reached set).
            for &i in joining {
                frontier[i as usize / stride].set(i as usize % stride);
            }
            // One pass over the velocities: what is fresh gets this cost and steps back; the
            // states one move before velocity `vi`'s have velocity `vi − 1`, `vi` or `vi + 1`,
            // so the next frontier of `vi − 1` is complete once `vi` is done.
            let mut any = false;
            let (mut back_before, mut back_here) = (zero, zero);
            for vi in 0..w {
                let fresh = frontier[vi].and_not(&reached[vi]);
                let back = if fresh.is_zero() {
                    zero
                } else {
                    any = true;
                    reached[vi] = reached[vi].or(&fresh);
                    fresh.write_into(&mut table[vi * stride..(vi + 1) * stride], cost as u8);
                    fresh.shift_down(vi as i32 - self.vmax).and(&inside)
                };
                if vi > 0 {
                    before[vi - 1] = back_before.or(&back_here).or(&back);
                }
                (back_before, back_here) = (back_here, back);
            }
            before[w - 1] = back_before.or(&back_here);
            if !any && cost >= highest {
                break;
            }
            std::mem::swap(&mut frontier, &mut before);
        }
    }
}

/// Per byte `b`: the 64-bit word whose byte `j` is `0xff` where bit `j` of `b` is set.
const BYTE_MASKS: [u64; 256] = {
    let mut masks = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut j = 0;
        while j < 8 {
            if b >> j & 1 == 1 {
                masks[b] |= 0xff << (8 * j);
            }
            j += 1;
        }
        b += 1;
    }
    masks
};

/// A set of positions along an axis (up to `64·N`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct BitSet<const N: usize>([u64; N]);

/// Positions along `x` (up to 192).
type Bits = BitSet<3>;

impl<const N: usize> BitSet<N> {
    const ZERO: Self = BitSet([0; N]);

    /// `0..n`.
    fn below(n: i32) -> Self {
        let mut b = Self::ZERO;
        for u in 0..n as usize {
            b.set(u);
        }
        b
    }

    /// The positions `lo..=hi` that lie in `0..64·N`.
    fn span(lo: i32, hi: i32) -> Self {
        let mut b = Self::ZERO;
        for (wi, word) in b.0.iter_mut().enumerate() {
            let (base, end) = (wi as i32 * 64, wi as i32 * 64 + 63);
            let (a, z) = (lo.max(base), hi.min(end));
            if a <= z {
                let len = (z - a + 1) as u32;
                let ones = if len == 64 {
                    u64::MAX
                } else {
                    (1u64 << len) - 1
                };
                *word = ones << (a - base);
            }
        }
        b
    }

    fn set(&mut self, u: usize) {
        self.0[u / 64] |= 1 << (u % 64);
    }

    fn clear(&mut self, u: usize) {
        self.0[u / 64] &= !(1 << (u % 64));
    }

    fn has(&self, u: usize) -> bool {
        self.0[u / 64] >> (u % 64) & 1 == 1
    }

    fn is_zero(&self) -> bool {
        self.0 == [0; N]
    }

    fn and(&self, o: &Self) -> Self {
        BitSet(std::array::from_fn(|i| self.0[i] & o.0[i]))
    }

    fn or(&self, o: &Self) -> Self {
        BitSet(std::array::from_fn(|i| self.0[i] | o.0[i]))
    }

    fn and_not(&self, o: &Self) -> Self {
        BitSet(std::array::from_fn(|i| self.0[i] & !o.0[i]))
    }

    /// Every `u` moved to `u − k`, for any `k` (positions out of `0..64·N` are dropped).
    fn shift_far(&self, k: i32) -> Self {
        // Whole words first, towards the same side as the rest, so that nothing that ends
        // inside is dropped on the way.
        let (words, rest) = (k / 64, k % 64);
        let mut moved = Self::ZERO;
        for (i, word) in moved.0.iter_mut().enumerate() {
            let from = i as i32 + words;
            if (0..N as i32).contains(&from) {
                *word = self.0[from as usize];
            }
        }
        moved.shift_down(rest)
    }

    /// Every `u` moved to `u − k`, for `|k| < 64` (positions out of `0..64·N` are dropped).
    fn shift_down(&self, k: i32) -> Self {
        let w = &self.0;
        if k > 0 {
            let k = k as u32;
            BitSet(std::array::from_fn(|i| {
                w[i] >> k | if i + 1 < N { w[i + 1] << (64 - k) } else { 0 }
            }))
        } else if k < 0 {
            let k = (-k) as u32;
            BitSet(std::array::from_fn(|i| {
                w[i] << k | if i > 0 { w[i - 1] >> (64 - k) } else { 0 }
            }))
        } else {
            *self
        }
    }

    /// Sets `row[u] = value` for every `u` of the set, eight bytes at a time (`row.len()` a
    /// multiple of 8 above every `u`).
    fn write_into(&self, row: &mut [u8], value: u8) {
        let splat = u64::from(value) * 0x0101_0101_0101_0101;
        for (wi, &word) in self.0.iter().enumerate() {
            let mut word = word;
            while word != 0 {
                let j = word.trailing_zeros() / 8;
                let byte = (word >> (8 * j)) & 0xff;
                word &= !(0xff << (8 * j));
                let at = wi * 64 + 8 * j as usize;
                let chunk: &mut [u8; 8] = (&mut row[at..at + 8]).try_into().expect("8 bytes");
                let mask = BYTE_MASKS[byte as usize];
                *chunk = (u64::from_le_bytes(*chunk) & !mask | splat & mask).to_le_bytes();
            }
        }
    }

    fn for_each(&self, mut f: impl FnMut(usize)) {
        for (wi, &word) in self.0.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                f(wi * 64 + bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::racetrack::pilot::bfs::MovesToFinish;
    use crate::racetrack::pilot::bounds::LowerBound;
    use crate::racetrack::pilot::model::Track;

    /// The sample circuit called `name`.
    fn sample(name: &str) -> Circuit {
        let sample = crate::racetrack::samples::by_name(name).unwrap();
        Circuit::parse(sample.text.as_bytes()).unwrap()
    }

    /// On the samples whose bound leans most on the gates (and `hairpins`, where the room six
    /// moves ahead prunes most), no state a lap can reach gets a bound above its exact moves to
    /// finish.
    #[test]
    fn the_bound_never_exceeds_the_moves_to_finish_on_gated_samples() {
        for name in ["street", "spiral", "diagonals", "hairpins"] {
            let c = sample(name);
            let track = Track::new(&c).unwrap();
            let field = WalkDistances::lower_bounds(&track);
            assert!(Gates::levels(&field).len() > 10, "{name}: gates in use");
            let bound = LowerBound::new(&track);
            let mut checked = 0;
            for r in MovesToFinish::of(&track).iter() {
                let Some(left) = r.left else {
                    continue;
                };
                let h = bound.moves(r.state).unwrap_or(u32::MAX);
                assert!(h <= left, "{name}: {:?} bound {h} > {left}", r.state);
                checked += 1;
            }
            assert!(checked > 1000, "{name}: {checked}");
        }
    }

    /// The fewest moves of a point from `(u, v)` to `(u2, v2)`, by plain search.
    fn fewest(axis: Axis, from: (i32, i32), to: (i32, i32)) -> Option<u32> {
        let mut seen = vec![false; axis.states()];
        let mut layer = vec![from];
        seen[axis.index(from.0, from.1)] = true;
        for moves in 0.. {
            if layer.contains(&to) {
                return Some(moves);
            }
            if layer.is_empty() {
                return None;
            }
            let mut next = Vec::new();
            for (u, v) in layer {
                for a in -1..=1 {
                    let (u2, v2) = (u + v + a, v + a);
                    if (0..axis.size).contains(&u2) && v2.abs() <= axis.vmax {
                        let i = axis.index(u2, v2);
                        if !seen[i] {
                            seen[i] = true;
                            next.push((u2, v2));
                        }
                    }
                }
            }
            layer = next;
        }
        None
    }

    #[test]
    fn tables_are_the_fewest_moves_to_a_source_plus_its_cost() {
        let sources = [(60, 2, 10u8), (90, -3, 4), (20, 0, 12)];
        let mut table = vec![UNKNOWN; Y.states()];
        let mut indices = Vec::new();
        for &(u, v, c) in &sources {
            table[Y.index(u, v)] = c;
            indices.push(Y.index(u, v) as u32);
        }
        let mut by_cost = vec![Vec::new(); 256];
        Y.tabulate::<2>(&mut table, &indices, &mut by_cost);
        let ceiling = 4 + SPREAD as u32;
        for u in (0..Y.size).step_by(3) {
            for v in -Y.vmax..=Y.vmax {
                let exact = sources
                    .iter()
                    .filter_map(|&(su, sv, c)| Some(fewest(Y, (u, v), (su, sv))? + u32::from(c)))
                    .min()
                    .unwrap_or(u32::MAX);
                assert_eq!(
                    u32::from(table[Y.index(u, v)]),
                    exact.min(ceiling),
                    "({u}, {v})"
                );
            }
        }
    }

    #[test]
    fn further_checks_a_row_as_a_scan_of_the_squares_checks_each() {
        // The squares' checks from the grown track, itself tested against a scan below.
        for name in ["traps", "street"] {
            let grown = Dilated::grown(&sample(name), &[1, 3, 6]);
            let near = |x: i32, y: i32, r: i32| grown[radius_index(r)].has(Pos::new(x, y));
            further_rows_agree(&Further::new(&grown[0], &grown[1], &grown[2]), near);
        }
    }

    /// Where the track grown by `r` stands in `Dilated::grown(_, &[1, 3, 6])`.
    fn radius_index(r: i32) -> usize {
        [1, 3, 6].iter().position(|&g| g == r).unwrap()
    }

    fn further_rows_agree(further: &Further, near: impl Fn(i32, i32, i32) -> bool) {
        let (mut kept, mut dropped) = (0, 0);
        for qy in (0..Circuit::HEIGHT).step_by(5) {
            for qx in 0..Circuit::WIDTH {
                for py in (qy - MAX_VY).max(0)..=(qy + MAX_VY).min(Circuit::HEIGHT - 1) {
                    let row = further.columns(Bits::below(Circuit::WIDTH), qx, qy, py);
                    for px in (qx - MAX_VX).max(0)..=(qx + MAX_VX).min(Circuit::WIDTH - 1) {
                        let expected = near(2 * px - qx, 2 * py - qy, 1)
                            && near(2 * qx - px, 2 * qy - py, 1)
                            && near(3 * px - 2 * qx, 3 * py - 2 * qy, 3)
                            && near(3 * qx - 2 * px, 3 * qy - 2 * py, 3)
                            && near(4 * qx - 3 * px, 4 * qy - 3 * py, 6);
                        assert_eq!(
                            row.has(px as usize),
                            expected,
                            "q ({qx},{qy}) p ({px},{py})"
                        );
                        if expected { kept += 1 } else { dropped += 1 }
                    }
                }
            }
        }
        assert!(
            kept > 1000 && dropped > 1000,
            "{kept} kept, {dropped} dropped"
        );
    }

    /// [`Splits`] lists under each gate exactly the moves a scan of the gate's levels finds:
    /// `q` at a level in `L + 1..=L + REACH`, `p` in `L − REACH + 1..=L`, within the proven
    /// velocities, the level dropping by at most the move's speed, with room to move before and
    /// after (by the grown track, itself tested against a scan) — each once.
    #[test]
    fn splits_list_the_moves_a_scan_of_each_gate_finds() {
        for name in ["street", "narrow"] {
            let c = sample(name);
            let track = Track::new(&c).unwrap();
            let field = WalkDistances::lower_bounds(&track);
            let Cuts { levels, cuts } = Gates::levels(&field);
            let cells = levels.cells_by_level();
            let grown = Dilated::grown(&c, &[1, 3, 6]);
            let further = Further::new(&grown[0], &grown[1], &grown[2]);
            let splits = Splits::new(&cells, &cuts, &further, &levels);
            let level = |c: Pos| levels.of[(c.y * Circuit::WIDTH + c.x) as usize] as i32;
            let key = |&(q, p): &(Pos, Pos)| (q.x, q.y, p.x, p.y);
            for (k, &l) in cuts.iter().enumerate() {
                let mut listed: Vec<(Pos, Pos)> = splits.of_gate[k]
                    .iter()
                    .map(|&m| splits.moves[m as usize])
                    .collect();
                listed.sort_by_key(key);
                let mut found = Vec::new();
                for &q in cells.range(l + 1, l + REACH) {
                    for &p in cells.range(l - REACH + 1, l) {
                        let v = Pos::new(p.x - q.x, p.y - q.y);
                        let at = |j: i32| (p.x + j * v.x, p.y + j * v.y);
                        let room = |j: i32, r: i32| {
                            let (x, y) = at(j);
                            grown[radius_index(r)].has(Pos::new(x, y))
                        };
                        if v.x.abs() <= MAX_VX
                            && v.y.abs() <= MAX_VY
                            && level(q) - level(p) <= v.x.abs().max(v.y.abs())
                            && room(-2, 1)
                            && room(1, 1)
                            && room(2, 3)
                            && room(-3, 3)
                            && room(-4, 6)
                        {
                            found.push((q, p));
                        }
                    }
                }
                found.sort_by_key(key);
                assert_eq!(listed, found, "{name}: gate {l}");
            }
            assert!(cuts.len() > 10 && !splits.moves.is_empty(), "{name}");
        }
    }

    #[test]
    fn the_grown_track_is_every_cell_near_a_track_cell() {
        let c = sample("hairpins");
        // The production chain (1, 3, 6, then 21 through 19) and a finer one.
        let chains: [&[i32]; 2] = [&[1, 3, 6, 21], &[1, 2, 3, 6, 10, 15, 21]];
        for (grown, &r) in chains
            .iter()
            .flat_map(|radii| Dilated::grown(&c, radii).into_iter().zip(radii.iter()))
        {
            assert_eq!(grown.r, r);
            let (mut near, mut far) = (0, 0);
            for y in (-r - 2..Circuit::HEIGHT + r + 2).step_by(3) {
                for x in -r - 2..Circuit::WIDTH + r + 2 {
                    let expected = (y - r..=y + r)
                        .any(|ty| (x - r..=x + r).any(|tx| c.is_track(Pos::new(tx, ty))));
                    assert_eq!(grown.has(Pos::new(x, y)), expected, "r {r} at ({x},{y})");
                    if expected { near += 1 } else { far += 1 }
                }
            }
            assert!(near > 100 && far > 100, "r {r}: {near} near, {far} far");
        }
    }

    #[test]
    fn bit_sets_shift_across_words() {
        let mut b = Bits::ZERO;
        for u in [0, 63, 64, 100, 127, 128, 149] {
            b.set(u);
        }
        let collect = |b: Bits| {
            let mut v = Vec::new();
            b.for_each(|u| v.push(u));
            v
        };
        assert_eq!(collect(b.shift_down(5)), vec![58, 59, 95, 122, 123, 144]);
        assert_eq!(
            collect(b.shift_down(-16).and(&Bits::below(150))),
            vec![16, 79, 80, 116, 143, 144]
        );
        assert_eq!(b.shift_down(0), b);
        let mut row = vec![7u8; 152];
        b.write_into(&mut row, 3);
        for (u, &r) in row.iter().enumerate() {
            let expected = if [0, 63, 64, 100, 127, 128, 149].contains(&u) {
                3
            } else {
                7
            };
            assert_eq!(r, expected, "{u}");
        }
        assert_eq!(collect(Bits::span(-3, 2)), vec![0, 1, 2]);
        assert_eq!(collect(Bits::span(60, 130)), (60..=130).collect::<Vec<_>>());
        assert_eq!(
            collect(Bits::span(140, 200)),
            (140..192).collect::<Vec<_>>()
        );
        assert_eq!(collect(Bits::span(0, 191)), (0..192).collect::<Vec<_>>());
        assert!(Bits::span(5, 4).is_zero());
        for k in [-191, -130, -64, -63, -5, 0, 7, 64, 100, 149, 191, 192] {
            let expected: Vec<usize> = [0, 63, 64, 100, 127, 128, 149]
                .iter()
                .map(|&u| u - k)
                .filter(|u| (0..192).contains(u))
                .map(|u| u as usize)
                .collect();
            assert_eq!(collect(b.shift_far(k)), expected, "{k}");
        }
    }
}
