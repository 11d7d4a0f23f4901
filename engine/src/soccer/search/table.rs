//! The transposition table: what the search learnt about a position (by its Zobrist hash), so
//! that a position reached again — by another turn order, in the next iteration, or in the
//! next turn's search — is not searched again, and its best turn is tried first.

/// How a stored score bounds the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(super) enum Bound {
    /// Not an entry.
    #[default]
    Empty,
    Exact,
    /// The true value is at least the score (the search stopped at a cut-off).
    Lower,
    /// The true value is at most the score (no turn reached alpha).
    Upper,
}

/// One entry: 24 bytes.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Entry {
    pub key: u64,
    /// The hash of the position after the best turn found, or 0.
    pub best: u64,
    /// Proven scores are stored relative to this position (see `to_table`).
    pub score: i32,
    pub depth: u16,
    pub bound: Bound,
}

/// A fixed-size table of `2^bits` entries, replaced by depth (the deeper search is kept,
/// except that an entry of another position is always replaced).
#[derive(Clone)]
pub(super) struct Table {
    entries: Vec<Entry>,
    mask: u64,
}

impl Table {
    pub fn new(bits: u32) -> Table {
        Table {
            entries: vec![Entry::default(); 1 << bits],
            mask: (1u64 << bits) - 1,
        }
    }

    /// log2 of the size that suits a search of `budget` nodes: about one entry per 8 nodes,
    /// from 1 K to 1 M entries (24 MB).
    pub fn bits_for(budget: u64) -> u32 {
        let wanted = (budget / 8).clamp(1 << 10, 1 << 20);
        63 - wanted.leading_zeros()
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        let e = self.entries[(key & self.mask) as usize];
        (e.bound != Bound::Empty && e.key == key).then_some(e)
    }

    pub fn store(&mut self, entry: Entry) {
        let slot = &mut self.entries[(entry.key & self.mask) as usize];
        if slot.key != entry.key || entry.depth >= slot.depth || slot.bound == Bound::Empty {
            *slot = entry;
        }
    }
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Table({} entries)", self.entries.len())
    }
}
