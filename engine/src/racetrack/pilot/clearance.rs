//! Clearance: how far a move from a cell can reach before the referee's walk could meet decor.
//!
//! Every cell the walk of [`physics::on_track`] visits for `from → to` (the half-pixel
//! alternative included) lies in the bounding box of the segment, hence within Chebyshev
//! distance `max(|dx|, |dy|)` of `from`. So when the whole square of that radius around `from`
//! is track, the move is legal without walking it. The optimal search uses that shortcut on
//! the wide parts of a circuit and calls the referee's own test everywhere else.

use crate::racetrack::Circuit;
use crate::racetrack::physics::{self, Pos};

const CELLS: usize = (Circuit::WIDTH * Circuit::HEIGHT) as usize;

/// Per cell, the largest radius `r` such that every cell within Chebyshev distance `r` is track
/// (0 for a track cell touching decor or the grid's edge, and for decor itself).
pub struct Clearance {
    radius: Vec<u8>,
}

impl Clearance {
    /// The clearance of every cell of `circuit`: a two-pass Chebyshev distance transform to the
    /// nearest decor cell, the outside of the grid counting as decor.
    pub fn new(circuit: &Circuit) -> Clearance {
        let (w, h) = (Circuit::WIDTH, Circuit::HEIGHT);
        // dist: Chebyshev distance to the nearest non-track cell (outside included).
        let mut dist = vec![0u8; CELLS];
        let at = |x: i32, y: i32| (y * w + x) as usize;
        let get = |dist: &[u8], x: i32, y: i32| {
            if Circuit::contains(x, y) {
                dist[at(x, y)]
            } else {
                0
            }
        };
        for y in 0..h {
            for x in 0..w {
                if circuit.is_track(x, y) {
                    let near = [(-1, -1), (0, -1), (1, -1), (-1, 0)]
                        .iter()
                        .map(|&(dx, dy)| get(&dist, x + dx, y + dy))
                        .min()
                        .unwrap_or(0);
                    dist[at(x, y)] = near.saturating_add(1);
                }
            }
        }
        for y in (0..h).rev() {
            for x in (0..w).rev() {
                if dist[at(x, y)] > 0 {
                    let near = [(1, 1), (0, 1), (-1, 1), (1, 0)]
                        .iter()
                        .map(|&(dx, dy)| get(&dist, x + dx, y + dy))
                        .min()
                        .unwrap_or(0);
                    let d = &mut dist[at(x, y)];
                    *d = (*d).min(near.saturating_add(1));
                }
            }
        }
        Clearance {
            radius: dist.into_iter().map(|d| d.saturating_sub(1)).collect(),
        }
    }

    /// The clearance of `p` (0 outside the grid).
    pub fn radius(&self, p: Pos) -> u32 {
        if Circuit::contains(p.x, p.y) {
            u32::from(self.radius[(p.y * Circuit::WIDTH + p.x) as usize])
        } else {
            0
        }
    }

    /// The referee's collision test for `from → to` ([`physics::on_track`]), skipping the walk
    /// when the move stays within the clearance of a track cell `from`.
    pub fn passes(&self, circuit: &Circuit, from: Pos, to: Pos) -> bool {
        let reach = (to.x - from.x)
            .unsigned_abs()
            .max((to.y - from.y).unsigned_abs());
        (circuit.is_track(from.x, from.y) && reach <= self.radius(from))
            || physics::on_track(circuit, from, to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clearance_is_the_free_square_around_a_cell() {
        let mut c = Circuit::filled(b'A').unwrap();
        for y in 10..30 {
            for x in 10..40 {
                c.set(x, y, b' ').unwrap();
            }
        }
        let cl = Clearance::new(&c);
        assert_eq!(cl.radius(Pos::new(10, 10)), 0);
        assert_eq!(cl.radius(Pos::new(11, 11)), 1);
        assert_eq!(cl.radius(Pos::new(19, 19)), 9);
        assert_eq!(cl.radius(Pos::new(20, 20)), 9);
        assert_eq!(cl.radius(Pos::new(5, 5)), 0);
        assert_eq!(cl.radius(Pos::new(-1, 5)), 0);
        // On a blank canvas the edge of the grid bounds the clearance too.
        let blank = Circuit::filled(b' ').unwrap();
        let cl = Clearance::new(&blank);
        assert_eq!(cl.radius(Pos::new(0, 50)), 0);
        assert_eq!(cl.radius(Pos::new(75, 50)), 49);
    }

    #[test]
    fn the_shortcut_agrees_with_the_referee_everywhere() {
        let mut c = Circuit::filled(b' ').unwrap();
        for (x, y) in [(30, 30), (31, 30), (45, 52), (60, 10), (12, 80), (90, 40)] {
            c.set(x, y, b'A').unwrap();
        }
        let cl = Clearance::new(&c);
        for fy in (20..70).step_by(7) {
            for fx in (20..80).step_by(5) {
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
