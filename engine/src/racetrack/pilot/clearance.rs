//! Clearance: what the optimal search asks of the track's cells, answered from tables.
//!
//! *Which targets are track.* The nine moves out of a state end on a 3 × 3 patch of cells;
//! [`Clearance::track_run`] reads three of them from bit rows in one load, so that the
//! search can pick the moves worth following without a branch per target.
//!
//! *Moves whose whole surroundings are track need no collision walk.*
//! Every cell the walk of [`physics::on_track`] visits for `from → to` (the half-pixel
//! alternative included) lies in the bounding box of the segment: the walk steps from `x0`
//! towards `x1` and from `y0` towards `y1`, never past either end. So when that rectangle holds
//! no decor, the move is legal without walking it. A summed-area table answers "how much decor
//! in this rectangle" in four lookups; the optimal search takes that shortcut wherever the
//! track is open (most moves along a straight) and calls the referee's own test everywhere
//! else.

use crate::racetrack::Circuit;
use crate::racetrack::physics::{self, Pos};

const STRIDE: usize = Circuit::WIDTH as usize + 1;

/// Counts of decor cells in rectangles of one circuit.
pub struct Clearance {
    /// `(y * STRIDE + x)` → decor cells in columns `0..x` of rows `0..y`.
    decor_before: Vec<u16>,
    /// Per row, bit `x` set when `(x, y)` is track (bits `x % 64` of word `x / 64`; one word
    /// of padding so that any three columns read as two words).
    track: Vec<[u64; 4]>,
}

impl Clearance {
    /// The summed-area table of `circuit`'s decor.
    pub fn new(circuit: &Circuit) -> Clearance {
        let rows = Circuit::HEIGHT as usize + 1;
        let mut sums = vec![0u16; STRIDE * rows];
        let mut track = vec![[0u64; 4]; Circuit::HEIGHT as usize];
        for y in 0..Circuit::HEIGHT as usize {
            let mut in_row = 0u16;
            for x in 0..Circuit::WIDTH as usize {
                let is_track = circuit.is_track(Pos::new(x as i32, y as i32));
                in_row += u16::from(!is_track);
                sums[(y + 1) * STRIDE + x + 1] = sums[y * STRIDE + x + 1] + in_row;
                track[y][x / 64] |= u64::from(is_track) << (x % 64);
            }
        }
        Clearance {
            decor_before: sums,
            track,
        }
    }

    /// Bit `k` (of bits 0..3) set when cell `(x + k, y)` is track; the three cells must lie in
    /// the grid.
    #[inline]
    pub fn track_run(&self, x: i32, y: i32) -> u32 {
        debug_assert!(Circuit::contains(Pos::new(x, y)) && Circuit::contains(Pos::new(x + 2, y)));
        let (row, x) = (&self.track[y as usize], x as usize);
        let (word, bit) = (x / 64, x % 64);
        // The next word's low bits join above bit `63 − bit` (shifted in two steps so that
        // `bit = 0` shifts by 64 in total, dropping them).
        let bits = row[word] >> bit | (row[word + 1] << 1) << (63 - bit);
        (bits & 0b111) as u32
    }

    /// Decor cells in the rectangle spanned by two cells of the grid (both included).
    fn decor_between(&self, a: Pos, b: Pos) -> u16 {
        let (x0, x1) = (a.x.min(b.x) as usize, a.x.max(b.x) as usize + 1);
        let (y0, y1) = (a.y.min(b.y) as usize, a.y.max(b.y) as usize + 1);
        let at = |x: usize, y: usize| self.decor_before[y * STRIDE + x];
        at(x1, y1) + at(x0, y0) - at(x0, y1) - at(x1, y0)
    }

    /// The referee's collision test for `from → to` ([`physics::on_track`]), skipping the walk
    /// when the segment's bounding box is all track.
    pub fn passes(&self, circuit: &Circuit, from: Pos, to: Pos) -> bool {
        let inside = Circuit::contains(from) && Circuit::contains(to);
        (inside && self.decor_between(from, to) == 0) || physics::on_track(circuit, from, to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rectangles_count_their_decor() {
        let mut c = Circuit::filled(b' ').unwrap();
        for (x, y) in [(10, 10), (11, 10), (0, 0), (149, 99)] {
            c.set(Pos::new(x, y), b'A').unwrap();
        }
        let cl = Clearance::new(&c);
        let p = Pos::new;
        assert_eq!(cl.decor_between(p(0, 0), p(149, 99)), 4);
        assert_eq!(cl.decor_between(p(11, 12), p(9, 10)), 2);
        assert_eq!(cl.decor_between(p(11, 10), p(11, 10)), 1);
        assert_eq!(cl.decor_between(p(12, 9), p(30, 30)), 0);
        assert_eq!(cl.decor_between(p(149, 99), p(140, 90)), 1);
    }

    #[test]
    fn runs_of_three_cells_read_the_grid() {
        let mut c = Circuit::filled(b' ').unwrap();
        for (x, y) in [
            (0, 0),
            (63, 5),
            (64, 5),
            (127, 7),
            (128, 8),
            (149, 99),
            (70, 3),
        ] {
            c.set(Pos::new(x, y), b'A').unwrap();
        }
        let cl = Clearance::new(&c);
        for y in 0..Circuit::HEIGHT {
            for x in 0..Circuit::WIDTH - 2 {
                let expect = (0..3).fold(0, |bits, k| {
                    bits | u32::from(c.is_track(Pos::new(x + k, y))) << k
                });
                assert_eq!(cl.track_run(x, y), expect, "({x},{y})");
            }
        }
    }

    #[test]
    fn the_shortcut_agrees_with_the_referee_everywhere() {
        let mut c = Circuit::filled(b' ').unwrap();
        for (x, y) in [(30, 30), (31, 30), (45, 52), (60, 10), (12, 80), (90, 40)] {
            c.set(Pos::new(x, y), b'A').unwrap();
        }
        for x in 0..150 {
            c.set(Pos::new(x, 66), b'B').unwrap();
        }
        let cl = Clearance::new(&c);
        for fy in (20..75).step_by(3) {
            for fx in (20..80).step_by(4) {
                let from = Pos::new(fx, fy);
                for dy in -13..=13 {
                    for dx in -16..=16 {
                        let to = Pos::new(fx + dx, fy + dy);
                        assert_eq!(
                            cl.passes(&c, from, to),
                            physics::on_track(&c, from, to),
                            "{from} → {to}"
                        );
                    }
                }
            }
        }
    }
}
