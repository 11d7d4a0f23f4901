//! Clearance: moves whose whole surroundings are track need no collision walk.
//!
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
}

impl Clearance {
    /// The summed-area table of `circuit`'s decor.
    pub fn new(circuit: &Circuit) -> Clearance {
        let rows = Circuit::HEIGHT as usize + 1;
        let mut sums = vec![0u16; STRIDE * rows];
        for y in 0..Circuit::HEIGHT as usize {
            let mut in_row = 0u16;
            for x in 0..Circuit::WIDTH as usize {
                in_row += u16::from(!circuit.is_track(x as i32, y as i32));
                sums[(y + 1) * STRIDE + x + 1] = sums[y * STRIDE + x + 1] + in_row;
            }
        }
        Clearance { decor_before: sums }
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
        let inside = Circuit::contains(from.x, from.y) && Circuit::contains(to.x, to.y);
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
            c.set(x, y, b'A').unwrap();
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
    fn the_shortcut_agrees_with_the_referee_everywhere() {
        let mut c = Circuit::filled(b' ').unwrap();
        for (x, y) in [(30, 30), (31, 30), (45, 52), (60, 10), (12, 80), (90, 40)] {
            c.set(x, y, b'A').unwrap();
        }
        for x in 0..150 {
            c.set(x, 66, b'B').unwrap();
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
