//! The optimal search's record of states: a dense table instead of a hash map.
//!
//! *Velocities are small.* A state reached with `vx = s > 0` had, over its last `s` moves,
//! x-velocities of at least `s, s − 1, …, 1` (the velocity starts at 0 and changes by at most
//! one per move), so it moved at least `s(s+1)/2` columns in those moves, between two positions
//! of the grid: `s(s+1)/2 ≤ 149`, so `|vx| ≤ 16`; likewise `|vy| ≤ 13` (`s(s+1)/2 ≤ 99`). Every
//! stored state fits in a 33 × 27 box of velocities — on any circuit, conforming or not.
//!
//! *Locality.* A state is filed under its **previous** position `q = pos − vel` (and its count):
//! the nine moves out of a state `(pos, vel)` lead to `(pos + vel + a, vel + a)`, whose previous
//! position is `pos` for all nine. So one expansion touches one block, a 3 × 3 patch of its
//! velocity box, instead of nine scattered hash slots. Blocks are allocated when first touched,
//! so memory follows the part of the circuit the search actually visits.
//!
//! Each slot holds an [`Entry`] of one or two bytes ([`Width`]): unseen, blocked (the move into it fails the
//! collision test, or the lap cannot be finished from it), or reached with its best known move
//! count. No parent is stored: a lap is read back by looking, at each state, for a predecessor
//! reached in fewer moves (see [`optimal`](super::optimal)).

use std::fmt;

use crate::racetrack::Circuit;
use crate::racetrack::physics::Pos;

use super::model::{MIN_COUNT, State};

/// Largest `|vx|` of a stored state (`16·17/2 = 136 ≤ 149 < 17·18/2`).
pub const MAX_VX: i32 = 16;
/// Largest `|vy|` of a stored state (`13·14/2 = 91 ≤ 99 < 14·15/2`).
pub const MAX_VY: i32 = 13;

/// Slots between two velocities that differ by one in `vy`.
pub const ROW: usize = (2 * MAX_VX + 1) as usize;
const BLOCK: usize = ROW * (2 * MAX_VY + 1) as usize;
const CELLS: usize = (Circuit::WIDTH * Circuit::HEIGHT) as usize;
const LAYERS: usize = (-MIN_COUNT + 1) as usize;

/// How wide an [`Entry`] is: one byte counts moves up to 253 (every sample's lap, with room
/// to spare), two bytes up to 65 533. Narrow entries halve the table, and with it the cache
/// misses the search spends much of its time on; a search too long for them starts again wide
/// (see [`optimal`](super::optimal)).
pub trait Width: Copy + Eq + fmt::Debug + private::Sealed {
    /// Unseen.
    const ZERO: Self;
    /// Blocked.
    const MAX: Self;
    /// The most moves an entry can hold.
    const MAX_MOVES: u32;
    /// The value `v ≤ MAX`.
    fn new(v: u32) -> Self;
    /// The value.
    fn get(self) -> u32;
}

mod private {
    pub trait Sealed {}
}

/// `Width` for unsigned integer types.
macro_rules! width {
    ($($t:ty),*) => {$(
        impl private::Sealed for $t {}
        impl Width for $t {
            const ZERO: $t = 0;
            const MAX: $t = <$t>::MAX;
            const MAX_MOVES: u32 = <$t>::MAX as u32 - 2;
            fn new(v: u32) -> $t {
                v as $t
            }
            fn get(self) -> u32 {
                u32::from(self)
            }
        }
    )*};
}

width!(u8, u16);

/// One slot of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry<W: Width = u16>(W);

impl<W: Width> Entry<W> {
    /// Never reached.
    pub const UNSEEN: Entry<W> = Entry(W::ZERO);
    /// Useless: its move fails the collision test, or no lap can be finished from it.
    pub const BLOCKED: Entry<W> = Entry(W::MAX);
    /// The most moves an entry can hold.
    pub const MAX_MOVES: u32 = W::MAX_MOVES;

    /// Reached after `g ≤ MAX_MOVES` moves (`None` beyond).
    pub fn reached(g: u32) -> Option<Entry<W>> {
        (g <= W::MAX_MOVES).then(|| Entry(W::new(g + 1)))
    }

    /// The best known move count, for a reached state.
    pub fn moves(self) -> Option<u32> {
        (self != Self::UNSEEN && self != Self::BLOCKED).then(|| self.0.get() - 1)
    }

    /// Whether reaching this slot after `g` moves is news: never reached, or reached only in
    /// more moves (never for a blocked one). Computed without branches: the search asks it
    /// of nine slots at a time, and which of them answer yes is a coin toss the processor
    /// would often guess wrong.
    #[inline]
    pub fn improved_by(self, g: u32) -> bool {
        (self == Self::UNSEEN) | ((self != Self::BLOCKED) & (self.0.get() > g + 1))
    }
}

/// Slots for every state a search meets, indexed by a dense `u32`.
pub struct StateTable<W: Width = u16> {
    /// `layer * CELLS + cell` of the previous position → block number + 1 (0: none yet).
    block_of: Vec<u32>,
    /// Block number → `layer * CELLS + cell`.
    owners: Vec<u32>,
    entries: Vec<Entry<W>>,
}

impl<W: Width> Default for StateTable<W> {
    fn default() -> Self {
        StateTable {
            block_of: vec![0; LAYERS * CELLS],
            owners: Vec::new(),
            // Room for the blocks of a typical search, so that growing rarely copies.
            entries: Vec::with_capacity(1024 * BLOCK),
        }
    }
}

impl<W: Width> StateTable<W> {
    /// The slot of `state` (allocating its block), or `None` when it is outside the table: a
    /// velocity beyond the proven bounds, a count below [`MIN_COUNT`] or above 0, or a
    /// previous position off the grid — none of which a search can reach.
    pub fn slot(&mut self, state: State) -> Option<u32> {
        let place = place(state);
        debug_assert!(
            place.is_some(),
            "a search state outside the table: {state:?}"
        );
        let (owner, offset) = place?;
        Some(self.block(owner) + offset as u32)
    }

    /// The first slot of the block of states whose previous position is `prev` and whose count
    /// is `count` (allocated if need be): the state with velocity `v` is at
    /// [`offset`]`(v)` from it. `None` off the grid or outside the counts.
    pub fn block_at(&mut self, prev: Pos, count: i8) -> Option<u32> {
        let layer = -i32::from(count);
        if !Circuit::contains(prev) || !(0..LAYERS as i32).contains(&layer) {
            return None;
        }
        Some(self.block(layer as usize * CELLS + (prev.y * Circuit::WIDTH + prev.x) as usize))
    }

    fn block(&mut self, owner: usize) -> u32 {
        let block = match self.block_of[owner] {
            0 => {
                self.owners.push(owner as u32);
                self.entries
                    .resize(self.entries.len() + BLOCK, Entry::UNSEEN);
                self.block_of[owner] = self.owners.len() as u32;
                self.owners.len() - 1
            }
            b => b as usize - 1,
        };
        (block * BLOCK) as u32
    }

    /// The slot of `state` if its block exists (no allocation).
    pub fn find(&self, state: State) -> Option<u32> {
        let (owner, offset) = place(state)?;
        let block = self.block_of[owner].checked_sub(1)? as usize;
        Some((block * BLOCK + offset) as u32)
    }

    /// The state of a slot.
    pub fn state(&self, slot: u32) -> State {
        let (block, offset) = (slot as usize / BLOCK, slot as usize % BLOCK);
        let owner = self.owners[block] as usize;
        let (layer, cell) = (owner / CELLS, owner % CELLS);
        let vel = Pos::new(
            (offset % ROW) as i32 - MAX_VX,
            (offset / ROW) as i32 - MAX_VY,
        );
        let q = Pos::new(cell as i32 % Circuit::WIDTH, cell as i32 / Circuit::WIDTH);
        State {
            pos: Pos::new(q.x + vel.x, q.y + vel.y),
            vel,
            count: -(layer as i8),
            before_first_move: false,
        }
    }

    /// The entries of three consecutive slots from `slot` (a row of a 3 × 3 patch of
    /// velocities, see [`offset`]).
    #[inline]
    pub fn three(&self, slot: u32) -> [Entry<W>; 3] {
        let s = slot as usize;
        [self.entries[s], self.entries[s + 1], self.entries[s + 2]]
    }

    /// The entry of a slot.
    pub fn get(&self, slot: u32) -> Entry<W> {
        self.entries[slot as usize]
    }

    /// Overwrites the entry of a slot.
    pub fn set(&mut self, slot: u32, entry: Entry<W>) {
        self.entries[slot as usize] = entry;
    }
}

/// Where the state of velocity `vel` sits in its block, if within the proven bounds.
pub fn offset(vel: Pos) -> Option<u32> {
    (vel.x.abs() <= MAX_VX && vel.y.abs() <= MAX_VY)
        .then(|| ((vel.y + MAX_VY) as usize * ROW + (vel.x + MAX_VX) as usize) as u32)
}

/// The block owner (`layer * CELLS + cell` of the previous position) and the offset of
/// `state` in its block.
fn place(state: State) -> Option<(usize, usize)> {
    let offset = offset(state.vel)?;
    let (qx, qy) = (state.pos.x - state.vel.x, state.pos.y - state.vel.y);
    let layer = -i32::from(state.count);
    if !Circuit::contains(Pos::new(qx, qy)) || !(0..LAYERS as i32).contains(&layer) {
        return None;
    }
    let owner = layer as usize * CELLS + (qy * Circuit::WIDTH + qx) as usize;
    Some((owner, offset as usize))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_round_trip_and_share_blocks_by_previous_position() {
        let mut t: StateTable = StateTable::default();
        let s = |x, y, vx, vy, count| State {
            pos: Pos::new(x, y),
            vel: Pos::new(vx, vy),
            count,
            before_first_move: false,
        };
        let states = [
            s(60, 50, 16, 13, 0),
            s(60, 50, -16, -13, -8),
            s(0, 0, 0, 0, 0),
            s(149, 99, 0, 0, -3),
            s(61, 51, 17 - 16, 14 - 13, 0),
        ];
        for st in states {
            assert_eq!(t.find(st), None);
            let slot = t.slot(st).unwrap();
            assert_eq!(t.find(st), Some(slot));
            assert_eq!(t.state(slot), st);
            assert_eq!(t.get(slot), Entry::UNSEEN);
        }
        // The nine moves out of (44,50) at velocity (4,0) share one block.
        let blocks: Vec<u32> = (-1..=1)
            .flat_map(|ay| (-1..=1).map(move |ax| (ax, ay)))
            .map(|(ax, ay)| s(48 + ax, 50 + ay, 4 + ax, ay, 0))
            .map(|st| t.slot(st).unwrap() / BLOCK as u32)
            .collect();
        assert!(blocks.iter().all(|&b| b == blocks[0]));
        let base = t.block_at(Pos::new(44, 50), 0).unwrap();
        let st = s(49, 49, 5, -1, 0);
        assert_eq!(t.slot(st), Some(base + offset(st.vel).unwrap()));
        assert_eq!(offset(Pos::new(17, 0)), None);
        assert_eq!(t.block_at(Pos::new(44, 50), 1), None);
        assert_eq!(t.block_at(Pos::new(150, 50), 0), None);
    }

    #[test]
    fn every_velocity_has_its_own_slot() {
        let mut t: StateTable = StateTable::default();
        let mut seen = std::collections::HashSet::new();
        for vy in -MAX_VY..=MAX_VY {
            for vx in -MAX_VX..=MAX_VX {
                let st = State {
                    pos: Pos::new(70 + vx, 50 + vy),
                    vel: Pos::new(vx, vy),
                    count: -1,
                    before_first_move: false,
                };
                let slot = t.slot(st).unwrap();
                assert_eq!(t.state(slot), st);
                assert!(seen.insert(slot));
            }
        }
        assert!(seen.iter().all(|&s| (s as usize) < BLOCK));
    }

    #[test]
    fn entries_keep_moves() {
        fn check<W: Width>() {
            for g in [0, 1, 117, 253, Entry::<W>::MAX_MOVES] {
                assert_eq!(Entry::<W>::reached(g).and_then(Entry::moves), Some(g));
            }
            assert_eq!(Entry::<W>::reached(Entry::<W>::MAX_MOVES + 1), None);
            assert_eq!(Entry::<W>::UNSEEN.moves(), None);
            assert_eq!(Entry::<W>::BLOCKED.moves(), None);
        }
        check::<u8>();
        check::<u16>();
        assert_eq!(Entry::<u8>::MAX_MOVES, 253);
    }

    #[test]
    fn only_fewer_moves_improve_an_entry() {
        fn check<W: Width>() {
            for g in [0, 1, 57, Entry::<W>::MAX_MOVES] {
                assert!(Entry::<W>::UNSEEN.improved_by(g));
                assert!(!Entry::<W>::BLOCKED.improved_by(g));
                let known = Entry::<W>::reached(g).unwrap();
                assert!(!known.improved_by(g));
                assert!(!known.improved_by(g + 1));
                if g > 0 {
                    assert!(known.improved_by(g - 1));
                }
            }
        }
        check::<u8>();
        check::<u16>();
    }
}
