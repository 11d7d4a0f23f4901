//! The geometry of a `W`×`L` Paper Soccer field (spec §1 and the "inside the field" part of §2).
//!
//! A [`Field`] is two bytes and is `Copy`: it answers geometric questions (which points exist,
//! which goal a goal point belongs to, which segments are drawn before the first move, which
//! steps stay inside the field) without storing anything per point. The per-point state of a
//! game lives in [`crate::soccer::game::Game`], indexed by [`Field::index`].

use thiserror::Error;

use super::types::{Dir, Point, Side};

/// A field size that the spec does not allow (each side must be even and in 2..=254). The
/// size is kept as given, wider than a byte, so that 255, 256 and 300 get the same message
/// wherever they come from (a record, a command line).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum FieldError {
    #[error("width {0} is not an even number from 2 to 254")]
    Width(u32),
    #[error("length {0} is not an even number from 2 to 254")]
    Length(u32),
}

/// The geometry of a field: `W` squares wide (x = 0..=W), `L` squares long (y = 0..=L), with a
/// goal of three goal points behind the middle of each end line (y = -1 for red's goal at the
/// top, y = L + 1 for blue's at the bottom).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Field {
    width: u8,
    length: u8,
}

/// `n` as a side of a field, if the spec allows it.
fn valid_side(n: u32) -> Option<u8> {
    u8::try_from(n)
        .ok()
        .filter(|n| (2..=254).contains(n) && n.is_multiple_of(2))
}

impl Field {
    /// The field `width`×`length`; both must be even and in 2..=254 (spec §1).
    pub fn new(width: u8, length: u8) -> Result<Field, FieldError> {
        Field::from_sizes(u32::from(width), u32::from(length))
    }

    /// The field `width`×`length` from sizes given by a person (a command line, a record),
    /// which may not even fit the protocol's byte.
    pub fn from_sizes(width: u32, length: u32) -> Result<Field, FieldError> {
        let width = valid_side(width).ok_or(FieldError::Width(width))?;
        let length = valid_side(length).ok_or(FieldError::Length(length))?;
        Ok(Field { width, length })
    }

    /// `W`, in squares.
    pub fn width(&self) -> u8 {
        self.width
    }

    /// `L`, in squares.
    pub fn length(&self) -> u8 {
        self.length
    }

    fn w(&self) -> i16 {
        i16::from(self.width)
    }

    fn l(&self) -> i16 {
        i16::from(self.length)
    }

    /// `m = W / 2`, the x of the middle goal point.
    fn m(&self) -> i16 {
        self.w() / 2
    }

    /// The kick-off point `(W/2, L/2)`.
    pub fn centre(&self) -> Point {
        Point::new(self.m(), self.l() / 2)
    }

    /// The y of the goal points of `side`'s goal: -1 for red (top), `L + 1` for blue (bottom).
    pub fn goal_y(&self, side: Side) -> i16 {
        match side {
            Side::Red => -1,
            Side::Blue => self.l() + 1,
        }
    }

    /// Whether `p` is a point of the field proper (0 ≤ x ≤ W, 0 ≤ y ≤ L).
    pub fn is_field_point(&self, p: Point) -> bool {
        (0..=self.w()).contains(&p.x) && (0..=self.l()).contains(&p.y)
    }

    /// Whose goal the goal point `p` is, or `None` if `p` is not a goal point.
    pub fn goal_of(&self, p: Point) -> Option<Side> {
        if (p.x - self.m()).abs() > 1 {
            return None;
        }
        if p.y == -1 {
            Some(Side::Red)
        } else if p.y == self.l() + 1 {
            Some(Side::Blue)
        } else {
            None
        }
    }

    /// Whether `p` is a field point or a goal point, i.e. a place the ball can be.
    pub fn contains(&self, p: Point) -> bool {
        self.is_field_point(p) || self.goal_of(p).is_some()
    }

    /// Whether `p` is on an end line inside a goal mouth (x in m-1..=m+1, y = 0 or L): the only
    /// points from which the ball may enter a goal.
    fn in_mouth(&self, p: Point) -> bool {
        (p.y == 0 || p.y == self.l()) && (p.x - self.m()).abs() <= 1
    }

    /// Whether the segment from `p` one step in `dir` stays inside the field: both ends exist,
    /// and a segment joining a goal point to a field point starts in the goal mouth (this
    /// excludes the goal-box corner cuts such as (m-2, 0)–(m-1, -1)). Drawn lines are not
    /// considered here.
    pub fn segment_inside(&self, p: Point, dir: Dir) -> bool {
        let q = p.step(dir);
        if !self.contains(p) || !self.contains(q) {
            return false;
        }
        match (self.goal_of(p).is_some(), self.goal_of(q).is_some()) {
            (false, false) | (true, true) => true,
            (true, false) => self.in_mouth(q),
            (false, true) => self.in_mouth(p),
        }
    }

    /// Points per row of the index grid (`W + 1`).
    fn stride(&self) -> usize {
        usize::from(self.width) + 1
    }

    /// The size of the index grid: `(W + 1) × (L + 3)`, rows y = -1..=L+1.
    pub fn index_len(&self) -> usize {
        self.stride() * (usize::from(self.length) + 3)
    }

    /// A dense index in `0..index_len()` for every point with 0 ≤ x ≤ W and -1 ≤ y ≤ L + 1
    /// (this includes the non-goal points of the goal rows, which no step can reach).
    pub fn index(&self, p: Point) -> Option<usize> {
        if (0..=self.w()).contains(&p.x) && (-1..=self.l() + 1).contains(&p.y) {
            Some((p.y + 1) as usize * self.stride() + p.x as usize)
        } else {
            None
        }
    }

    /// The point of a dense index (inverse of [`Field::index`]).
    pub fn point_at(&self, index: usize) -> Point {
        let s = self.stride();
        Point::new((index % s) as i16, (index / s) as i16 - 1)
    }

    /// The lines drawn before the first move, each once, as (from, to): both side lines, the
    /// end lines except the goal mouths, both goal boxes (posts and back) and the centre line.
    pub fn predrawn_segments(&self) -> Vec<(Point, Point)> {
        let (w, l, m) = (self.w(), self.l(), self.m());
        let mut out = Vec::new();
        for y in 0..l {
            out.push((Point::new(0, y), Point::new(0, y + 1)));
            out.push((Point::new(w, y), Point::new(w, y + 1)));
        }
        for end in [0, l] {
            for x in (0..w).filter(|&x| x != m - 1 && x != m) {
                out.push((Point::new(x, end), Point::new(x + 1, end)));
            }
        }
        for (end, back) in [(0, -1), (l, l + 1)] {
            out.push((Point::new(m - 1, end), Point::new(m - 1, back)));
            out.push((Point::new(m + 1, end), Point::new(m + 1, back)));
            out.push((Point::new(m - 1, back), Point::new(m, back)));
            out.push((Point::new(m, back), Point::new(m + 1, back)));
        }
        for x in 0..w {
            out.push((Point::new(x, l / 2), Point::new(x + 1, l / 2)));
        }
        out
    }

    /// The king-move distance from `p` to the nearest goal point of `side`'s goal: the least
    /// number of steps to score there on an empty field (ignoring the goal-box corners).
    pub fn distance_to_goal(&self, p: Point, side: Side) -> i16 {
        let dy = (self.goal_y(side) - p.y).abs();
        let dx = ((p.x - self.m()).abs() - 1).max(0);
        dy.max(dx)
    }
}

impl std::fmt::Display for Field {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}x{}", self.width, self.length)
    }
}

/// The direction of the one-step segment from `a` to `b`, if they are neighbours.
pub fn dir_between(a: Point, b: Point) -> Option<Dir> {
    Dir::ALL.into_iter().find(|&d| a.step(d) == b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_must_be_even_and_in_range() {
        assert!(Field::new(8, 10).is_ok());
        assert!(Field::new(2, 254).is_ok());
        assert_eq!(Field::new(0, 10), Err(FieldError::Width(0)));
        assert_eq!(Field::new(7, 10), Err(FieldError::Width(7)));
        assert_eq!(Field::new(255, 10), Err(FieldError::Width(255)));
        assert_eq!(Field::new(8, 9), Err(FieldError::Length(9)));
        assert_eq!(Field::new(8, 0), Err(FieldError::Length(0)));
        assert_eq!(Field::from_sizes(256, 10), Err(FieldError::Width(256)));
        assert_eq!(Field::from_sizes(8, 300), Err(FieldError::Length(300)));
        assert_eq!(Field::from_sizes(254, 2), Field::new(254, 2));
        // One wording for every size out of range, whether or not it fits a byte.
        for (w, text) in [
            (1, "width 1 is not an even number from 2 to 254"),
            (255, "width 255 is not an even number from 2 to 254"),
            (256, "width 256 is not an even number from 2 to 254"),
        ] {
            assert_eq!(Field::from_sizes(w, 10).unwrap_err().to_string(), text);
        }
    }

    #[test]
    fn goals_centre_and_corner_cuts_on_8x10() {
        let f = Field::new(8, 10).unwrap();
        assert_eq!(f.centre(), Point::new(4, 5));
        assert_eq!(f.goal_of(Point::new(3, -1)), Some(Side::Red));
        assert_eq!(f.goal_of(Point::new(5, 11)), Some(Side::Blue));
        assert_eq!(f.goal_of(Point::new(2, -1)), None);
        assert_eq!(f.goal_of(Point::new(4, 10)), None);
        // Goal-box corner cuts (m-2, 0)-(m-1, -1) and (m+2, 0)-(m+1, -1), and the bottom mirrors.
        assert!(!f.segment_inside(Point::new(2, 0), Dir::NE));
        assert!(!f.segment_inside(Point::new(6, 0), Dir::NW));
        assert!(!f.segment_inside(Point::new(2, 10), Dir::SE));
        assert!(!f.segment_inside(Point::new(6, 10), Dir::SW));
        assert!(!f.segment_inside(Point::new(3, -1), Dir::SW));
        // Inside the mouth every entry is inside the field (posts are drawn lines, not geometry).
        assert!(f.segment_inside(Point::new(3, 0), Dir::NE));
        assert!(f.segment_inside(Point::new(4, 0), Dir::NW));
        assert!(f.segment_inside(Point::new(5, 10), Dir::SW));
        assert!(!f.segment_inside(Point::new(0, 0), Dir::W));
        assert!(!f.segment_inside(Point::new(0, 3), Dir::NW));
    }

    #[test]
    fn index_round_trips_over_the_grid() {
        for (w, l) in [(2, 2), (8, 10), (254, 2), (2, 254)] {
            let f = Field::new(w, l).unwrap();
            for i in 0..f.index_len() {
                assert_eq!(f.index(f.point_at(i)), Some(i));
            }
            assert_eq!(f.index(Point::new(-1, 0)), None);
            assert_eq!(f.index(Point::new(0, i16::from(l) + 2)), None);
        }
    }

    #[test]
    fn predrawn_segment_count_matches_the_spec() {
        // 2L (sides) + 2(W - 2) (end lines minus mouths) + 8 (goal boxes) + W (centre line).
        for (w, l) in [(2, 2), (4, 4), (8, 10), (254, 254)] {
            let f = Field::new(w, l).unwrap();
            let segs = f.predrawn_segments();
            let (w, l) = (usize::from(w), usize::from(l));
            assert_eq!(segs.len(), 2 * l + 2 * (w - 2) + 8 + w);
            for (a, b) in segs {
                assert!(dir_between(a, b).is_some_and(|d| f.segment_inside(a, d)));
            }
        }
    }

    #[test]
    fn goal_distance_counts_king_steps() {
        let f = Field::new(8, 10).unwrap();
        assert_eq!(f.distance_to_goal(f.centre(), Side::Red), 6);
        assert_eq!(f.distance_to_goal(f.centre(), Side::Blue), 6);
        assert_eq!(f.distance_to_goal(Point::new(0, 0), Side::Red), 3);
        assert_eq!(f.distance_to_goal(Point::new(4, 0), Side::Red), 1);
    }
}
