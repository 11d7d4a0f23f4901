//! The breadth-first search of [`bfs`](super::bfs), 64 states at a time: an exact solver
//! written independently of the A* search, to check it, and a measure of what the bit-level
//! parallelism alone buys (see the benchmark).
//!
//! *Why this is exact and fast.* The plain search treats each state `(p, v, count)` on its own.
//! But the rules are the same everywhere on the grid: whether the move from `p` with velocity
//! `w` passes the collision test depends only on `w` and on which cells around `p` are track,
//! at offsets that depend only on `w` (spec §3's walk is a function of `x1 − x0` and `y1 − y0`).
//! So for one velocity `w` the cells `p` from which the move is legal form a bit plane,
//! `LegalMoves`: the track, ANDed with the track shifted by each offset the walk tests (ORed
//! in pairs on the walk's half-pixel ties), computed row by row when first needed. The states
//! of one breadth-first layer are held as words of bit rows per `(count, velocity)`; the moves
//! by `w` of a word of states are one AND with a row of `w`'s plane and one shift by `w` — up
//! to 64 states per machine word instead of one collision walk and one hash lookup each.
//!
//! Only the moves that cross column 40 near the finish line change the count or finish the
//! lap; they are few (a band of `|w_x|` columns next to the line, in the rows around it) and
//! are taken one by one with the scalar rules ([`physics::crossing`], [`Fraction`]).
//!
//! The layers are the plain search's layers (each state is kept in the first layer that
//! reaches it), so the answer is the same: the fewest moves, and among the finishing moves of
//! that layer the smallest fraction. The lap is read back through the stored layers.

use crate::racetrack::physics::{self, FINISH_X, FinishLine, Pos};
use crate::racetrack::{Circuit, paint};

use super::model::{MIN_COUNT, State, Step, Track};
use super::table::{MAX_VX, MAX_VY};
use super::{Fraction, Lap, LapTime, PilotError, SearchStats};

/// One row of the grid, one bit per column (bit `x % 64` of word `x / 64`).
type Row = [u64; 3];

const WIDTH: i32 = Circuit::WIDTH;
const HEIGHT: i32 = Circuit::HEIGHT;
const ROWS: usize = HEIGHT as usize;
/// Velocities a stored state can have (see [`table`](super::table) for the proof).
const VX_SPAN: i32 = 2 * MAX_VX + 1;
const VELOCITIES: usize = (VX_SPAN * (2 * MAX_VY + 1)) as usize;
const COUNTS: usize = (-MIN_COUNT + 1) as usize;
/// Columns 0..150 of a row.
const FULL: Row = [u64::MAX, u64::MAX, (1 << (WIDTH as u32 - 128)) - 1];
const EMPTY: Row = [0; 3];
/// Marks a computed row of [`LegalMoves`], so that the rows can start zeroed (untouched pages
/// cost nothing).
const COMPUTED: u64 = 1;

fn and(a: Row, b: Row) -> Row {
    [a[0] & b[0], a[1] & b[1], a[2] & b[2]]
}

fn or(a: Row, b: Row) -> Row {
    [a[0] | b[0], a[1] | b[1], a[2] | b[2]]
}

fn and_not(a: Row, b: Row) -> Row {
    [a[0] & !b[0], a[1] & !b[1], a[2] & !b[2]]
}

fn is_empty(a: Row) -> bool {
    a[0] | a[1] | a[2] == 0
}

/// The row with every bit moved `by` columns to the right (`by < 0`: to the left); bits that
/// leave columns 0..150 are dropped. `|by| < 64`.
fn shift(a: Row, by: i32) -> Row {
    let out = match by {
        0 => a,
        1..=63 => {
            let k = by as u32;
            [
                a[0] << k,
                a[1] << k | a[0] >> (64 - k),
                a[2] << k | a[1] >> (64 - k),
            ]
        }
        -63..=-1 => {
            let k = (-by) as u32;
            [
                a[0] >> k | a[1] << (64 - k),
                a[1] >> k | a[2] << (64 - k),
                a[2] >> k,
            ]
        }
        _ => EMPTY,
    };
    and(out, FULL)
}

/// The row holding `bits` in word `word`, moved `by` columns to the right (`by < 0`: to the
/// left), `|by| < 64`. The caller knows every bit lands inside the grid.
#[inline]
fn shift_word(bits: u64, word: usize, by: i32) -> Row {
    let mut row = EMPTY;
    match by {
        0 => row[word] = bits,
        1..=63 => {
            let k = by as u32;
            row[word] = bits << k;
            if word < 2 {
                row[word + 1] = bits >> (64 - k);
            }
        }
        _ => {
            let k = (-by) as u32;
            row[word] = bits >> k;
            if word > 0 {
                row[word - 1] = bits << (64 - k);
            }
        }
    }
    row
}

fn bit(x: i32) -> Row {
    let mut row = EMPTY;
    row[(x / 64) as usize] = 1 << (x % 64);
    row
}

/// The columns set in a row, in increasing order.
fn columns(row: Row) -> impl Iterator<Item = i32> {
    (0..3).flat_map(move |w| {
        let mut word = row[w];
        std::iter::from_fn(move || {
            (word != 0).then(|| {
                let x = word.trailing_zeros();
                word &= word - 1;
                w as i32 * 64 + x as i32
            })
        })
    })
}

fn velocity_index(w: Pos) -> Option<usize> {
    (w.x.abs() <= MAX_VX && w.y.abs() <= MAX_VY)
        .then(|| ((w.y + MAX_VY) * VX_SPAN + w.x + MAX_VX) as usize)
}

fn velocity_of(index: usize) -> Pos {
    let i = index as i32;
    Pos::new(i % VX_SPAN - MAX_VX, i / VX_SPAN - MAX_VY)
}

/// Per velocity, the cells from which the move by that velocity is legal and ends on track,
/// row by row, computed when first asked for.
struct LegalMoves {
    /// The track shifted by every offset a walk can test: `shifted[offset(d) + y]` has bit `x`
    /// set when cell `(x + d.x, y + d.y)` is track (rows off the grid are empty).
    shifted: Vec<Row>,
    /// `y * VELOCITIES + v` → row `y` of velocity `v`'s plane: the nine velocities one state's
    /// moves take are close together. Word 3 holds [`COMPUTED`] (and keeps each row in one
    /// cache line).
    rows: Vec<[u64; 4]>,
    /// Per velocity, its walk's tests, computed when first needed.
    walks: Vec<Option<Vec<ShiftedTest>>>,
}

/// One step of the referee's walk ([`paint::walk`]) as offsets into [`LegalMoves::shifted`]:
/// the cell it stands on, and on a half-pixel tie the cell before the minor step (either may
/// be track).
type ShiftedTest = (u32, Option<u32>);

/// Rows of padding above and below the grid in [`LegalMoves::shifted`].
const PAD: i32 = MAX_VY + 1;
const PADDED: usize = (HEIGHT + 2 * PAD) as usize;

/// Where the rows of the track shifted by `d` start in [`LegalMoves::shifted`].
fn offset(d: Pos) -> u32 {
    ((d.x + MAX_VX) as usize * PADDED + (d.y + PAD) as usize) as u32
}

impl LegalMoves {
    fn new(circuit: &Circuit) -> LegalMoves {
        let track: Vec<Row> = (0..HEIGHT)
            .map(|y| {
                let mut row = EMPTY;
                for x in 0..WIDTH {
                    if circuit.is_track(Pos::new(x, y)) {
                        row = or(row, bit(x));
                    }
                }
                row
            })
            .collect();
        let mut shifted = vec![EMPTY; VX_SPAN as usize * PADDED];
        for dx in -MAX_VX..=MAX_VX {
            for (y, &row) in track.iter().enumerate() {
                shifted[offset(Pos::new(dx, -PAD)) as usize + y + PAD as usize] = shift(row, -dx);
            }
        }
        LegalMoves {
            shifted,
            rows: vec![[0; 4]; VELOCITIES * ROWS],
            walks: (0..VELOCITIES).map(|_| None).collect(),
        }
    }

    /// Word `word` of row `y` of velocity `v`'s plane.
    #[inline]
    fn word(&mut self, v: usize, y: i32, word: usize) -> u64 {
        let row = &self.rows[y as usize * VELOCITIES + v];
        if row[3] & COMPUTED == 0 {
            return self.compute(v, y)[word];
        }
        row[word]
    }

    /// Row `y` of velocity `v`'s plane.
    #[cfg(test)]
    fn row(&mut self, v: usize, y: i32) -> Row {
        [self.word(v, y, 0), self.word(v, y, 1), self.word(v, y, 2)]
    }

    #[cold]
    fn compute(&mut self, v: usize, y: i32) -> Row {
        let walk = self.walks[v].get_or_insert_with(|| {
            paint::walk(Pos::new(0, 0), velocity_of(v))
                .into_iter()
                .map(|step| (offset(step.cell), step.tie.map(offset)))
                .collect()
        });
        let y = y as usize;
        let mut clear = self.shifted[offset(Pos::new(0, 0)) as usize + y];
        for &(a, b) in walk.iter() {
            let mut cells = self.shifted[a as usize + y];
            if let Some(b) = b {
                cells = or(cells, self.shifted[b as usize + y]);
            }
            clear = and(clear, cells);
        }
        self.rows[y * VELOCITIES + v] = [clear[0], clear[1], clear[2], COMPUTED];
        clear
    }
}

/// One word of a row of one layer's states: those of `group` (count and velocity) in row
/// `row`, columns `64 * word ..= 64 * word + 63` (most rows of a layer hold a few states side
/// by side, so one word is the unit of work).
#[derive(Clone, Copy)]
struct Entry {
    group: u16,
    row: u8,
    /// Which word of the row: columns `64 * word ..`.
    word: u8,
    bits: u64,
}

fn group(count: i32, v: usize) -> u16 {
    (-count as usize * VELOCITIES + v) as u16
}

fn ungroup(group: u16) -> (i32, usize) {
    let g = usize::from(group);
    (-((g / VELOCITIES) as i32), g % VELOCITIES)
}

/// Every state reached so far and the layer being built: one plane of [`Slot`]s per group,
/// allocated when the group is first reached (a lap meets a few hundred of the 8,019 groups).
struct Visited {
    /// Group → plane number + 1 (0: none yet).
    plane_of: Vec<u32>,
    /// Plane number → group.
    group_of: Vec<u16>,
    /// `plane * ROWS + y` → the states reached so far.
    seen: Vec<Row>,
    /// Like `seen`: the states new in the layer being built.
    fresh: Vec<Row>,
    /// Slots with fresh states.
    touched: Vec<u32>,
}

impl Visited {
    fn new() -> Visited {
        Visited {
            plane_of: vec![0; COUNTS * VELOCITIES],
            group_of: Vec::new(),
            // Room for the planes of a typical lap, so that growing rarely copies.
            seen: Vec::with_capacity(1024 * ROWS),
            fresh: Vec::with_capacity(1024 * ROWS),
            touched: Vec::new(),
        }
    }

    /// Marks `bits` of `group` in `row` as reached; those not reached before join the layer
    /// being built.
    #[inline]
    fn add(&mut self, group: u16, row: i32, bits: Row) {
        let plane = match self.plane_of[usize::from(group)] {
            0 => self.allocate(group),
            p => p as usize - 1,
        };
        let index = plane * ROWS + row as usize;
        let seen = &mut self.seen[index];
        let new = and_not(bits, *seen);
        if is_empty(new) {
            return;
        }
        *seen = or(*seen, new);
        let fresh = &mut self.fresh[index];
        if is_empty(*fresh) {
            self.touched.push(index as u32);
        }
        *fresh = or(*fresh, new);
    }

    #[cold]
    fn allocate(&mut self, group: u16) -> usize {
        self.seen.resize(self.seen.len() + ROWS, EMPTY);
        self.fresh.resize(self.fresh.len() + ROWS, EMPTY);
        self.group_of.push(group);
        self.plane_of[usize::from(group)] = self.group_of.len() as u32;
        self.group_of.len() - 1
    }

    /// The layer built since the last call.
    fn take_layer(&mut self) -> Vec<Entry> {
        let mut layer = Vec::with_capacity(self.touched.len());
        for &index in &self.touched {
            let index = index as usize;
            let fresh = std::mem::replace(&mut self.fresh[index], EMPTY);
            for (word, bits) in fresh.into_iter().enumerate() {
                if bits != 0 {
                    layer.push(Entry {
                        group: self.group_of[index / ROWS],
                        row: (index % ROWS) as u8,
                        word: word as u8,
                        bits,
                    });
                }
            }
        }
        self.touched.clear();
        layer
    }
}

/// The best finishing move so far: its time, the state it leaves from and where it ends.
type Finish = (LapTime, State, Pos);

/// The fastest lap of `circuit` by the bit-parallel breadth-first search.
pub fn solve(circuit: &Circuit) -> Result<Lap, PilotError> {
    solve_with_stats(circuit).0
}

/// [`solve`], also answering how many states it reached.
pub fn solve_with_stats(circuit: &Circuit) -> (Result<Lap, PilotError>, SearchStats) {
    super::with_stats(circuit, search)
}

fn search(track: &Track, stats: &mut SearchStats) -> Result<Lap, PilotError> {
    let line = track.line();
    let mut legal = LegalMoves::new(track.circuit());
    let mut visited = Visited::new();
    let mut layers: Vec<Vec<Entry>> = Vec::new();
    stats.expanded += 1;
    track.for_each_step(State::START, |step| {
        if let Step::Move(s) = step {
            push(&mut visited, s.count.into(), s.vel, s.pos.y, bit(s.pos.x));
        }
    });
    let mut frontier = visited.take_layer();
    let bands = crossing_bands();
    let any_band = bands.iter().fold(EMPTY, |all, &band| or(all, band));
    // The moves of a lap that finishes from the frontier (its states are one move from the start).
    let mut moves = 2;
    loop {
        if frontier.is_empty() {
            stats.stored = stats.expanded;
            return Err(PilotError::NoLap);
        }
        let mut best: Option<Finish> = None;
        for e in &frontier {
            stats.expanded += u64::from(e.bits.count_ones());
            let (count, vi) = ungroup(e.group);
            let base = usize::from(e.group) - vi;
            let v = velocity_of(vi);
            let y = i32::from(e.row);
            let word = usize::from(e.word);
            // Only states within a move of the line's run can change the count.
            let near_line = (line.top - 2 - MAX_VY..=line.bottom + 2 + MAX_VY).contains(&y)
                && e.bits & any_band[word] != 0;
            // The nine moves' legal cells first, as independent loads, then the states.
            let mut legal_here = [0u64; 9];
            for (k, slot) in legal_here.iter_mut().enumerate() {
                let (ax, ay) = (k as i32 % 3 - 1, k as i32 / 3 - 1);
                if (v.x + ax).abs() <= MAX_VX && (v.y + ay).abs() <= MAX_VY {
                    let wi = (vi as i32 + ay * VX_SPAN + ax) as usize;
                    *slot = e.bits & legal.word(wi, y, word);
                }
            }
            for (k, &legal_bits) in legal_here.iter().enumerate() {
                let mut m = legal_bits;
                if m == 0 {
                    continue;
                }
                let (ax, ay) = (k as i32 % 3 - 1, k as i32 / 3 - 1);
                let w = Pos::new(v.x + ax, v.y + ay);
                let wi = (vi as i32 + ay * VX_SPAN + ax) as usize;
                if near_line {
                    let band = crossing_band(&line, &bands, y, w)[word];
                    let special = m & band;
                    if special != 0 {
                        m &= !band;
                        let mut row = EMPTY;
                        row[word] = special;
                        for x in columns(row) {
                            let from = State {
                                pos: Pos::new(x, y),
                                vel: v,
                                count: count as i8,
                                before_first_move: false,
                            };
                            let to = Pos::new(x + w.x, y + w.y);
                            let c = count + physics::crossing(&line, from.pos, to);
                            if c == 1 {
                                let Some(fraction) = Fraction::of_finish(from.pos, to) else {
                                    continue;
                                };
                                let time = LapTime { moves, fraction };
                                if best.is_none_or(|(b, _, _)| time < b) {
                                    best = Some((time, from, to));
                                }
                            } else if c >= MIN_COUNT {
                                push(&mut visited, c, w, to.y, bit(to.x));
                            }
                        }
                        if m == 0 {
                            continue;
                        }
                    }
                }
                visited.add((base + wi) as u16, y + w.y, shift_word(m, word, w.x));
            }
        }
        let next = visited.take_layer();
        layers.push(std::mem::replace(&mut frontier, next));
        if let Some(finish) = best {
            stats.stored = stats.expanded;
            return Ok(read_back(track, &layers, finish));
        }
        moves += 1;
    }
}

/// Adds the states `bits` of row `y` with `count` and velocity `w` to the layer being built,
/// those not reached before.
fn push(visited: &mut Visited, count: i32, w: Pos, y: i32, bits: Row) {
    let Some(wi) = velocity_index(w) else {
        debug_assert!(false, "a reachable velocity beyond the bounds: {w:?}");
        return;
    };
    visited.add(group(count, wi), y, bits);
}

/// Per `w.x + MAX_VX`: the columns from which a move by `w.x` goes from one side of column 40
/// to the other (left to right: `40 − w.x ≤ x < 40`; right to left: `40 ≤ x < 40 − w.x`).
fn crossing_bands() -> Vec<Row> {
    (-MAX_VX..=MAX_VX)
        .map(|wx| {
            let (first, last) = match wx.cmp(&0) {
                std::cmp::Ordering::Greater => (FINISH_X - wx, FINISH_X - 1),
                std::cmp::Ordering::Less => (FINISH_X, FINISH_X - 1 - wx),
                std::cmp::Ordering::Equal => return EMPTY,
            };
            (first.max(0)..=last.min(WIDTH - 1)).fold(EMPTY, |row, x| or(row, bit(x)))
        })
        .collect()
}

/// The cells of row `y` whose move by `w` goes from one side of column 40 to the other close
/// enough to the finish line to be counted; only those can change the count.
fn crossing_band(line: &FinishLine, bands: &[Row], y: i32, w: Pos) -> Row {
    let (lo, hi) = (y.min(y + w.y), y.max(y + w.y));
    if hi < line.top - 1 || lo > line.bottom + 1 {
        return EMPTY;
    }
    bands[(w.x + MAX_VX) as usize]
}

/// The lap ending with `finish`, read back through the layers: from each state, a state of
/// the layer before with a legal move to it.
fn read_back(track: &Track, layers: &[Vec<Entry>], (time, from, to): Finish) -> Lap {
    let mut positions = vec![to, from.pos];
    let mut state = from;
    for layer in layers[..layers.len() - 1].iter().rev() {
        let found = track
            .predecessors(state)
            .find(|&s| contains(layer, s))
            .expect("every state of a layer was reached from the layer before");
        positions.push(found.pos);
        state = found;
    }
    positions.push(State::START.pos);
    positions.reverse();
    let lap = Lap::new(positions).expect("a search only stores laps that end by crossing the line");
    debug_assert_eq!(lap.time(), time);
    lap
}

fn contains(layer: &[Entry], s: State) -> bool {
    let Some(v) = velocity_index(s.vel) else {
        return false;
    };
    if !Circuit::contains(s.pos) || i32::from(s.count) < MIN_COUNT || s.count > 0 {
        return false;
    }
    let g = group(s.count.into(), v);
    layer.iter().any(|e| {
        e.group == g
            && i32::from(e.row) == s.pos.y
            && i32::from(e.word) == s.pos.x / 64
            && e.bits >> (s.pos.x % 64) & 1 == 1
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::racetrack::samples::SAMPLES;

    fn has(row: Row, x: i32) -> bool {
        row[(x / 64) as usize] >> (x % 64) & 1 == 1
    }

    #[test]
    fn shifts_move_bits_across_words_and_drop_those_off_the_grid() {
        let row = or(bit(0), or(bit(63), bit(149)));
        assert_eq!(columns(shift(row, 1)).collect::<Vec<_>>(), [1, 64]);
        assert_eq!(columns(shift(row, -1)).collect::<Vec<_>>(), [62, 148]);
        assert_eq!(columns(shift(row, 16)).collect::<Vec<_>>(), [16, 79]);
        assert_eq!(columns(shift(bit(70), -16)).collect::<Vec<_>>(), [54]);
    }

    #[test]
    fn the_legal_plane_is_the_collision_test() {
        // Straight, diagonal, steep, shallow, half-pixel ties (2,1), (-4,2), (1,-2), the bounds.
        let velocities = [
            (0, 0),
            (1, 0),
            (3, -2),
            (-5, 5),
            (2, 1),
            (-4, 2),
            (1, -2),
            (16, 1),
            (-2, -13),
            (7, 7),
        ];
        for sample in SAMPLES.iter().filter(|s| s.conforming) {
            let circuit = Circuit::parse(sample.text.as_bytes()).unwrap();
            let mut legal = LegalMoves::new(&circuit);
            for (vx, vy) in velocities {
                let w = Pos::new(vx, vy);
                let v = velocity_index(w).unwrap();
                for y in 0..HEIGHT {
                    let row = legal.row(v, y);
                    for x in 0..WIDTH {
                        let to = Pos::new(x + vx, y + vy);
                        let legal = Circuit::contains(to)
                            && circuit.is_track(to)
                            && physics::on_track(&circuit, Pos::new(x, y), to);
                        assert_eq!(
                            has(row, x),
                            legal,
                            "{} from ({x},{y}) by {w:?}",
                            sample.name
                        );
                    }
                }
            }
        }
    }
}
