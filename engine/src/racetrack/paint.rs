//! Painting operations of the circuit editor (spec §6, CREECIR): the cells a pencil, brush, line,
//! rectangle or flood fill covers. They only *name* cells; the editor decides what to write, so
//! undo and live conformity stay in one place.
//!
//! The line tool walks exactly as the referee does ([`physics::on_track`], spec §3): a line drawn
//! with it is a legal move for a car, whichever way the half-pixel ties fall.
//!
//! [`physics::on_track`]: super::physics::on_track

use super::Circuit;
use super::physics::Pos;

/// One step of the referee's Bresenham walk along the major axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WalkStep {
    /// On a half-pixel tie, the pixel before the minor step (the referee accepts either).
    pub tie: Option<Pos>,
    /// The pixel after the minor step: the one the walk stands on.
    pub cell: Pos,
}

/// The referee's walk from `from` to `to` (spec §3), one [`WalkStep`] per step along the major
/// axis; empty when `from == to`. The walk never visits `from` itself.
pub fn walk(from: Pos, to: Pos) -> Vec<WalkStep> {
    let (x0, y0, x1, y1) = (
        i64::from(from.x),
        i64::from(from.y),
        i64::from(to.x),
        i64::from(to.y),
    );
    let sx = if x1 >= x0 { 1 } else { -1 };
    let sy = if y1 >= y0 { 1 } else { -1 };
    let (dx, dy) = ((x1 - x0).abs(), (y1 - y0).abs());
    // Work in (major, minor) coordinates and swap back when recording.
    let (major_len, minor_len, step_major, step_minor, x_major) = if dx > dy {
        (dx, dy, sx, sy, true)
    } else {
        (dy, dx, sy, sx, false)
    };
    let at = |major: i64, minor: i64| {
        let (x, y) = if x_major {
            (major, minor)
        } else {
            (minor, major)
        };
        Pos::new(x as i32, y as i32)
    };
    let (mut major, mut minor) = if x_major { (x0, y0) } else { (y0, x0) };
    let mut err = 0i64;
    let mut steps = Vec::with_capacity(major_len as usize);
    for _ in 0..major_len {
        major += step_major;
        err += 2 * minor_len;
        let tie = (err == major_len).then(|| at(major, minor));
        if err >= major_len {
            minor += step_minor;
            err -= 2 * major_len;
        }
        steps.push(WalkStep {
            tie,
            cell: at(major, minor),
        });
    }
    steps
}

/// The cells of the line tool from `from` to `to`, both ends included: `from`, then the cell of
/// every step of the referee's [`walk`].
pub fn line(from: Pos, to: Pos) -> Vec<Pos> {
    let mut cells = vec![from];
    cells.extend(walk(from, to).into_iter().map(|s| s.cell));
    cells
}

/// The cells of the axis-aligned rectangle with corners `a` and `b` (in any order): its outline,
/// or every cell inside when `filled`. Clipped to the grid.
pub fn rectangle(a: Pos, b: Pos, filled: bool) -> Vec<Pos> {
    let (left, right) = (a.x.min(b.x), a.x.max(b.x));
    let (top, bottom) = (a.y.min(b.y), a.y.max(b.y));
    let mut cells = Vec::new();
    for y in top.max(0)..=bottom.min(Circuit::HEIGHT - 1) {
        for x in left.max(0)..=right.min(Circuit::WIDTH - 1) {
            let edge = x == left || x == right || y == top || y == bottom;
            if filled || edge {
                cells.push(Pos::new(x, y));
            }
        }
    }
    cells
}

/// The square brush of side `2·radius + 1` centred on `centre` (radius 1: the 3×3 brush),
/// clipped to the grid.
pub fn brush(centre: Pos, radius: u8) -> Vec<Pos> {
    let r = i32::from(radius);
    rectangle(
        Pos::new(centre.x.saturating_sub(r), centre.y.saturating_sub(r)),
        Pos::new(centre.x.saturating_add(r), centre.y.saturating_add(r)),
        true,
    )
}

/// The flood fill from `seed`: every cell holding the seed's character and 4-connected to it
/// (a fill does not leak through a diagonal gap, as in common paint programs). Empty when `seed`
/// is off the grid.
pub fn flood(circuit: &Circuit, seed: Pos) -> Vec<Pos> {
    let Some(target) = circuit.get(seed) else {
        return Vec::new();
    };
    let width = Circuit::WIDTH as usize;
    let mut seen = vec![false; width * Circuit::HEIGHT as usize];
    let index = |p: Pos| p.y as usize * width + p.x as usize;
    let mut stack = vec![seed];
    seen[index(seed)] = true;
    let mut cells = Vec::new();
    while let Some(p) = stack.pop() {
        cells.push(p);
        for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let q = Pos::new(p.x + dx, p.y + dy);
            if circuit.get(q) == Some(target) && !seen[index(q)] {
                seen[index(q)] = true;
                stack.push(q);
            }
        }
    }
    cells.sort_by_key(|p| (p.y, p.x));
    cells
}

/// Every cell holding `ch`, in reading order: what "replace colour" rewrites.
pub fn cells_of(circuit: &Circuit, ch: u8) -> Vec<Pos> {
    (0..Circuit::HEIGHT)
        .flat_map(|y| (0..Circuit::WIDTH).map(move |x| Pos::new(x, y)))
        .filter(|&p| circuit.cell(p) == ch)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::racetrack::physics;

    #[test]
    fn lines_follow_the_referee_walk() {
        assert_eq!(line(Pos::new(3, 3), Pos::new(3, 3)), vec![Pos::new(3, 3)]);
        assert_eq!(
            line(Pos::new(0, 0), Pos::new(4, 2)),
            vec![
                Pos::new(0, 0),
                Pos::new(1, 1),
                Pos::new(2, 1),
                Pos::new(3, 2),
                Pos::new(4, 2)
            ]
        );
        // Ties (err == dx) step the minor axis, recording the pixel before the step.
        let steps = walk(Pos::new(0, 0), Pos::new(2, 1));
        assert_eq!(steps[0].tie, Some(Pos::new(1, 0)));
        assert_eq!(steps[0].cell, Pos::new(1, 1));
        // Steep and backwards lines end where asked.
        let l = line(Pos::new(10, 20), Pos::new(7, 5));
        assert_eq!(l.len(), 16);
        assert_eq!(l.last(), Some(&Pos::new(7, 5)));
    }

    #[test]
    fn a_painted_line_is_a_legal_move() {
        for (from, to) in [
            ((10, 10), (40, 23)),
            ((60, 50), (20, 45)),
            ((30, 30), (31, 80)),
            ((70, 70), (40, 40)),
            ((5, 90), (144, 3)),
        ] {
            let (from, to) = (Pos::new(from.0, from.1), Pos::new(to.0, to.1));
            let mut c = Circuit::filled(b'A').unwrap();
            for p in line(from, to) {
                c.set(p, Circuit::TRACK).unwrap();
            }
            assert!(physics::on_track(&c, from, to), "{from:?} → {to:?}");
            // One cell less and the move collides.
            let mid = line(from, to)[3];
            c.set(mid, b'A').unwrap();
            assert!(!physics::on_track(&c, from, to), "{from:?} → {to:?}");
        }
    }

    #[test]
    fn rectangles_and_brushes_are_clipped() {
        assert_eq!(rectangle(Pos::new(2, 2), Pos::new(0, 0), true).len(), 9);
        assert_eq!(rectangle(Pos::new(0, 0), Pos::new(2, 2), false).len(), 8);
        assert!(!rectangle(Pos::new(0, 0), Pos::new(2, 2), false).contains(&Pos::new(1, 1)));
        assert_eq!(rectangle(Pos::new(5, 5), Pos::new(5, 5), false).len(), 1);
        assert_eq!(brush(Pos::new(0, 0), 1).len(), 4);
        assert_eq!(brush(Pos::new(10, 10), 1).len(), 9);
        assert_eq!(brush(Pos::new(149, 99), 1).len(), 4);
        assert!(brush(Pos::new(-5, -5), 1).is_empty());
        assert!(brush(Pos::new(i32::MAX, i32::MIN), 1).is_empty());
    }

    #[test]
    fn flood_fill_stays_in_its_4_connected_region() {
        let mut c = Circuit::filled(b'A').unwrap();
        // A diagonal wall of B splits the corner from the rest for a 4-connected fill.
        for i in 0..5 {
            c.set(Pos::new(i, 4 - i), b'B').unwrap();
        }
        let corner = flood(&c, Pos::new(0, 0));
        assert_eq!(corner.len(), 10); // the triangle x + y < 4
        assert!(corner.iter().all(|p| p.x + p.y < 4));
        let rest = flood(&c, Pos::new(100, 50));
        assert_eq!(rest.len(), 150 * 100 - 10 - 5);
        assert_eq!(flood(&c, Pos::new(2, 2)).len(), 1);
        assert!(flood(&c, Pos::new(150, 0)).is_empty());
        assert_eq!(cells_of(&c, b'B').len(), 5);
        assert_eq!(cells_of(&Circuit::blank(), b' ').len(), 40 * 5);
    }
}
