//! The optimal pilot: A* over [`State`]s with the lower bound of [`LowerBound`].
//!
//! The bound is admissible (see [`bounds`](super::bounds) and [`field`](super::field)) but
//! not always consistent: on the sample circuits thousands of states get `g + h` below the
//! bucket of the state they were reached from (12 838 on `ring`). So the search never files a
//! state below the bucket being expanded (path-max: `f = max(g + h, f_parent)`, still a lower
//! bound on any lap through it), and a state reached again by a shorter route — even after
//! its expansion — is filed and expanded again; stale bucket entries are skipped. (The search
//! this replaced filed such states in buckets it had already left, where they were never
//! expanded: it could, in principle, miss the optimal lap.) Open states wait in buckets by
//! `f`, last in first out within a bucket, so the search dives towards the line.
//!
//! *Optimality of the time, fraction included.* Along a fastest lap of `n` moves every state is
//! reached in exactly its number of moves along the lap (a shorter route to it would make a
//! faster lap), and path-max keeps its `f ≤ n` (each `g + h ≤ n` by admissibility); its last
//! state before the finish has `g = n − 1`, so it is expanded by the end of bucket `n`, and a
//! finish found in bucket `f` has at most `f` moves (`h ≥ 1`). The search therefore finishes the whole bucket in which the first finishing
//! move appears (no shorter lap exists, or an earlier bucket would have found it) and keeps
//! the finishing move with the smallest fraction `f` among all of them.
//!
//! *Speed.* The search is bound by memory latency, so its data are laid out for it:
//!
//! * states live in the dense [`StateTable`], filed by previous position, where the nine moves
//!   out of a state land in one 3 × 3 patch of one block (one byte a state while laps stay
//!   within 253 moves, two bytes beyond; no hashing, no parent pointers: the lap is read back
//!   from the move counts);
//! * when no move out of a state can cross column 40, the nine moves keep the count and share
//!   that block, looked up once; then the moves worth following (onto track, into a slot that
//!   is news) are picked as a bit mask from three bit rows of the track and three rows of the
//!   block, without a branch per move, and only those are followed;
//! * the collision walk runs only for moves into states never seen before (a known state was
//!   reached by this very move: same previous position, same velocity), and not even then
//!   when the move's bounding box is all track ([`Clearance`]);
//! * the bound is a few table lookups ([`LowerBound::moves`]).
//!
//! The plain breadth-first search ([`bfs`](super::bfs)) uses none of this on purpose: it is the
//! straightforward reference the tests and the benchmark compare against.

use crate::racetrack::Circuit;
use crate::racetrack::physics::{Pos, is_left};

use super::bounds::LowerBound;
use super::clearance::Clearance;
use super::model::{State, Step, Track};
use super::table::{self, Entry, StateTable, Width};
use super::{Fraction, Lap, LapTime, PilotError, SearchStats};

/// The time-optimal lap of `circuit`: fewest moves, then smallest final fraction.
/// [`PilotError::NoLap`] when no lap exists.
pub fn solve(circuit: &Circuit) -> Result<Lap, PilotError> {
    solve_with_stats(circuit).0
}

/// [`solve`], also answering how much it searched.
pub fn solve_with_stats(circuit: &Circuit) -> (Result<Lap, PilotError>, SearchStats) {
    super::with_stats(circuit, search)
}

/// A lower bound on the moves left to finish from a state, `None` when no lap can be finished
/// from it. The search finds the fastest lap with any bound that never exceeds the true moves
/// left; [`LowerBound`] is the one it drives with.
pub trait Bound {
    /// The bound for `state`.
    fn moves(&self, state: State) -> Option<u32>;
}

impl Bound for LowerBound {
    fn moves(&self, state: State) -> Option<u32> {
        LowerBound::moves(self, state)
    }
}

/// [`solve_with_stats`] with another bound than [`LowerBound`]: for measuring what a better
/// bound would save (the benchmark's `--ceiling`), not for driving.
pub fn solve_with_bound(
    circuit: &Circuit,
    bound: &impl Bound,
) -> (Result<Lap, PilotError>, SearchStats) {
    super::with_stats(circuit, |track, stats| {
        search_with(track, bound, &Clearance::new(circuit), stats)
    })
}

/// Open states by `f = g + h`: each bucket a stack of `(slot, g)`, so that the search dives.
#[derive(Default)]
struct Buckets {
    buckets: Vec<Vec<(u32, u32)>>,
    len: usize,
}

impl Buckets {
    fn push(&mut self, f: u32, slot: u32, g: u32) {
        let f = f as usize;
        if self.buckets.len() <= f {
            self.buckets.resize_with(f + 1, Vec::new);
        }
        self.buckets[f].push((slot, g));
        self.len += 1;
    }

    fn pop(&mut self, f: u32) -> Option<(u32, u32)> {
        let item = self.buckets.get_mut(f as usize)?.pop()?;
        self.len -= 1;
        Some(item)
    }
}

/// The best finishing move found so far: its time, the slot it leaves from (`None`: the start)
/// and where it ends.
type Finish = (LapTime, Option<u32>, Pos);

/// Everything one search works on.
struct Search<'t, 'c, W: Width, B: Bound> {
    track: &'t Track<'c>,
    bound: &'t B,
    clearance: &'t Clearance,
    table: StateTable<W>,
    open: Buckets,
    best: Option<Finish>,
    /// Whether a state was left out for needing more moves than [`Entry::MAX_MOVES`].
    truncated: bool,
    /// States reached (stored with a move count).
    reached: u64,
}

impl<W: Width, B: Bound> Search<'_, '_, W, B> {
    /// Considers the move from `from` (slot `parent`, `None` for the start, reached after
    /// `g − 1` moves, in bucket `f`) to `to`.
    fn relax(&mut self, from: State, parent: Option<u32>, g: u32, f: u32, to: Pos) {
        let circuit = self.track.circuit();
        match self.track.outcome(from, to) {
            Some(Step::Finish { to }) => {
                let Some(fraction) = Fraction::of_finish(from.pos, to) else {
                    return;
                };
                let time = LapTime { moves: g, fraction };
                if self.best.is_none_or(|(b, _, _)| time < b)
                    && self.clearance.passes(circuit, from.pos, to)
                {
                    self.best = Some((time, parent, to));
                }
            }
            Some(Step::Move(next)) => {
                if let Some(slot) = self.table.slot(next) {
                    self.reach(slot, from.pos, next, g, f);
                }
            }
            None => {}
        }
    }

    /// Reaches `next` (in `slot`) by the move from `from` after `g` moves, in bucket `f`.
    fn reach(&mut self, slot: u32, from: Pos, next: State, g: u32, f: u32) {
        let entry = self.table.get(slot);
        if !entry.improved_by(g) {
            return;
        }
        // A state already reached was reached by this very move (same previous position, same
        // velocity): only a new one needs the collision test.
        if entry == Entry::UNSEEN && !self.clearance.passes(self.track.circuit(), from, next.pos) {
            self.table.set(slot, Entry::BLOCKED);
            return;
        }
        let Some(h) = self.bound.moves(next) else {
            self.table.set(slot, Entry::BLOCKED);
            return;
        };
        let Some(reached) = Entry::reached(g) else {
            self.truncated = true;
            return;
        };
        self.reached += u64::from(entry == Entry::UNSEEN);
        self.table.set(slot, reached);
        // Path-max: never file a state below the bucket being expanded.
        self.open.push((g + h).max(f), slot, g);
    }

    /// Generates the moves out of `state` (in `slot`, reached after `g` moves, in bucket `f`).
    ///
    /// When none of the nine moves can cross column 40 (the car and all nine targets on one
    /// side), [`Track::outcome`] reduces to "the target is a track cell of the grid" and every
    /// target keeps the count: the nine states then share one block of the table, found once.
    fn expand(&mut self, state: State, slot: Option<u32>, g: u32, f: u32) {
        let (p, v) = (state.pos, state.vel);
        let reach_x = (p.x + v.x - 1, p.x + v.x + 1);
        let one_side = |x: i32| is_left(Pos::new(x, 0)) == is_left(p);
        if state.before_first_move || !one_side(reach_x.0) || !one_side(reach_x.1) {
            self.track
                .for_each_target(state, |to| self.relax(state, slot, g + 1, f, to));
            return;
        }
        let Some(base) = self.table.block_at(p, state.count) else {
            return;
        };
        let centre = Pos::new(p.x + v.x, p.y + v.y);
        let inside = (1..Circuit::WIDTH - 1).contains(&centre.x)
            && (1..Circuit::HEIGHT - 1).contains(&centre.y);
        if let Some(middle) = table::offset(v)
            .filter(|_| inside && v.x.abs() < table::MAX_VX && v.y.abs() < table::MAX_VY)
        {
            self.expand_patch(state, base + middle, g, f);
            return;
        }
        let circuit = self.track.circuit();
        for ay in -1..=1 {
            for ax in -1..=1 {
                let vel = Pos::new(v.x + ax, v.y + ay);
                let to = Pos::new(p.x + vel.x, p.y + vel.y);
                if !circuit.is_track(to) {
                    continue;
                }
                let Some(offset) = table::offset(vel) else {
                    debug_assert!(false, "a reachable velocity beyond the bounds: {vel:?}");
                    continue;
                };
                let next = State {
                    pos: to,
                    vel,
                    count: state.count,
                    before_first_move: false,
                };
                self.reach(base + offset, p, next, g + 1, f);
            }
        }
    }

    /// The nine moves of [`Search::expand`]'s shared block when their targets and velocities
    /// all lie inside the grid and the table (`middle`: the slot of the move that keeps the
    /// velocity). The targets worth following — track cells whose slot is news — are picked
    /// first, as a bit mask built without a branch per target, then only those are reached.
    fn expand_patch(&mut self, state: State, middle: u32, g: u32, f: u32) {
        let (p, v) = (state.pos, state.vel);
        let centre = Pos::new(p.x + v.x, p.y + v.y);
        let row = table::ROW as u32;
        let mut worth = 0u32;
        for (i, ay) in (-1..=1).enumerate() {
            let entries = self.table.three(middle + row * i as u32 - row - 1);
            let track = self.clearance.track_run(centre.x - 1, centre.y + ay);
            for (k, entry) in entries.into_iter().enumerate() {
                let news = entry.improved_by(g + 1) & (track >> k & 1 == 1);
                worth |= u32::from(news) << (3 * i + k);
            }
        }
        while worth != 0 {
            let k = worth.trailing_zeros() as i32;
            worth &= worth - 1;
            let a = Pos::new(k % 3 - 1, k / 3 - 1);
            let next = State {
                pos: Pos::new(centre.x + a.x, centre.y + a.y),
                vel: Pos::new(v.x + a.x, v.y + a.y),
                count: state.count,
                before_first_move: false,
            };
            let slot = (middle as i32 + a.y * row as i32 + a.x) as u32;
            self.reach(slot, p, next, g + 1, f);
        }
    }

    /// The lap ending with the finishing move `best`, read back through the table: from each
    /// state, any predecessor reached in fewer moves by a legal move (see below).
    fn lap(&self, (time, parent, to): Finish) -> Lap {
        let mut positions = vec![to];
        let mut at = parent;
        while let Some(slot) = at {
            let state = self.table.state(slot);
            positions.push(state.pos);
            at = self.predecessor(state, self.table.get(slot).moves().unwrap_or(0));
        }
        positions.push(State::START.pos);
        positions.reverse();
        let lap =
            Lap::new(positions).expect("a search only stores laps that end by crossing the line");
        debug_assert_eq!(lap.time(), time);
        lap
    }

    /// A stored predecessor of `state` (reached after `g` moves) reached after at most `g − 1`
    /// moves, with a legal move to `state`; `None` when that predecessor is the start.
    ///
    /// One exists: the state `state` got its `g` from was then reached in `g − 1` moves, and
    /// entries only decrease. And along an optimal lap the route read back this way cannot be
    /// shorter than the lap (there is no faster lap), so each step back takes exactly one move.
    fn predecessor(&self, state: State, g: u32) -> Option<u32> {
        if g <= 1 {
            return None;
        }
        self.track
            .predecessors(state)
            .filter_map(|from| {
                let slot = self.table.find(from)?;
                let moves = self.table.get(slot).moves()?;
                (moves < g).then_some((moves, slot))
            })
            .min()
            .map(|(_, slot)| slot)
    }
}

fn search(track: &Track, stats: &mut SearchStats) -> Result<Lap, PilotError> {
    let bound = LowerBound::new(track);
    search_with(track, &bound, bound.clearance(), stats)
}

fn search_with<B: Bound>(
    track: &Track,
    bound: &B,
    clearance: &Clearance,
    stats: &mut SearchStats,
) -> Result<Lap, PilotError> {
    let h0 = bound.moves(State::START).ok_or(PilotError::NoLap)?;
    // One-byte entries hold every lap of up to 253 moves; a longer one makes the search give up
    // and start again with two-byte entries (losing only time, on circuits nobody races).
    if h0 <= Entry::<u8>::MAX_MOVES
        && let Some(result) = run::<u8, B>(track, bound, clearance, h0, stats)
    {
        return result;
    }
    if let Some(result) = run::<u16, B>(track, bound, clearance, h0, stats) {
        return result;
    }
    // Laps of tens of thousands of moves: no circuit anyone draws, but never a wrong answer —
    // the plain search has no such limit.
    super::bfs::plain_bfs(track.circuit())
}

/// The A* search with entries of width `W`; `None` when the fastest lap needs more moves than
/// they hold.
fn run<W: Width, B: Bound>(
    track: &Track,
    bound: &B,
    clearance: &Clearance,
    h0: u32,
    stats: &mut SearchStats,
) -> Option<Result<Lap, PilotError>> {
    let mut search = Search::<W, B> {
        track,
        bound,
        clearance,
        table: StateTable::default(),
        open: Buckets::default(),
        best: None,
        truncated: false,
        reached: 0,
    };
    // The start is not in the table (at rest on (40,4) before the first move it has three
    // moves; a later stop there has nine): it is expanded by hand.
    stats.expanded += 1;
    search.expand(State::START, None, 0, h0);
    let mut f = h0;
    loop {
        let Some((slot, g)) = search.open.pop(f) else {
            // A finish found in bucket `f` has `f` moves (`h` is admissible, so `h = 1` on
            // its last state): the bucket is finished, so no lap is faster.
            if search.best.is_some() || search.open.len == 0 {
                break;
            }
            f += 1;
            // Expanding bucket `f` reaches states after up to `f` moves: beyond what the
            // entries hold, give up for wider ones.
            if f > Entry::<W>::MAX_MOVES {
                return None;
            }
            continue;
        };
        if search.table.get(slot).moves() != Some(g) {
            continue; // Reached again by a shorter route since: that entry counts.
        }
        stats.expanded += 1;
        let state = search.table.state(slot);
        search.expand(state, Some(slot), g, f);
    }
    stats.stored = search.reached;
    if search.truncated {
        return None;
    }
    Some(match search.best {
        Some(best) => Ok(search.lap(best)),
        None => Err(PilotError::NoLap),
    })
}
