//! Motion, the referee's collision test, the finish line and the stopwatch (spec §3 and §5).

use std::fmt;

use super::Circuit;

/// A cell of the grid, or a velocity / acceleration (a difference of two cells).
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize,
)]
pub struct Pos {
    pub x: i32,
    pub y: i32,
}

impl Pos {
    pub const fn new(x: i32, y: i32) -> Pos {
        Pos { x, y }
    }
}

impl fmt::Display for Pos {
    /// `(x,y)`, as the spec writes cells.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.x, self.y)
    }
}

/// Every lap starts here, at rest.
pub const START: Pos = Pos::new(40, 4);

/// **Decision (first move):** the only legal first positions, all to the right of the line.
pub const FIRST_MOVES: [Pos; 3] = [Pos::new(41, 3), Pos::new(41, 4), Pos::new(41, 5)];

/// The column of the finish line.
pub const FINISH_X: i32 = 40;

/// A cell is 10 m wide.
pub const CELL_METRES: f64 = 10.0;

/// The inclusive 3 × 3 box of legal next positions after moving `prev → cur`: centred on
/// `cur + (cur − prev)`. Returns `(min corner, max corner)`. Computed in `i64` and saturated,
/// so absurd coordinates from a file cannot overflow.
pub fn allowed_box(prev: Pos, cur: Pos) -> (Pos, Pos) {
    let centre = |p: i32, c: i32| 2 * c as i64 - p as i64;
    let clamp = |v: i64| v.clamp(i32::MIN as i64, i32::MAX as i64) as i32;
    let (cx, cy) = (centre(prev.x, cur.x), centre(prev.y, cur.y));
    (
        Pos::new(clamp(cx - 1), clamp(cy - 1)),
        Pos::new(clamp(cx + 1), clamp(cy + 1)),
    )
}

/// Whether `next` is a legal position after moving `prev → cur` (acceleration in {−1,0,1}²).
pub fn acceleration_ok(prev: Pos, cur: Pos, next: Pos) -> bool {
    let ok = |p: i32, c: i32, n: i32| (n as i64 - (2 * c as i64 - p as i64)).abs() <= 1;
    ok(prev.x, cur.x, next.x) && ok(prev.y, cur.y, next.y)
}

/// The referee's collision test (spec §3), exactly as its pseudocode: whether the move
/// `from → to` stays on the track.
pub fn on_track(circuit: &Circuit, from: Pos, to: Pos) -> bool {
    first_blocked(circuit, from, to).is_none()
}

/// The same walk as [`on_track`], answering *where* it fails: the first visited cell that makes
/// the move illegal (on a tie, the cell after the minor step), or `None` when the move is legal.
pub fn first_blocked(circuit: &Circuit, from: Pos, to: Pos) -> Option<Pos> {
    if !circuit.is_track(from) {
        return Some(from);
    }
    if from == to {
        return None;
    }
    // i64 so that no difference of two i32 can overflow.
    let (x0, y0, x1, y1) = (from.x as i64, from.y as i64, to.x as i64, to.y as i64);
    let sx = if x1 >= x0 { 1 } else { -1 };
    let sy = if y1 >= y0 { 1 } else { -1 };
    let (dx, dy) = ((x1 - x0).abs(), (y1 - y0).abs());
    let track = |x: i64, y: i64| {
        i32::try_from(x)
            .is_ok_and(|x| i32::try_from(y).is_ok_and(|y| circuit.is_track(Pos::new(x, y))))
    };
    let (mut x, mut y, mut err) = (x0, y0, 0i64);
    if dx > dy {
        loop {
            x += sx;
            err += 2 * dy;
            let tie = err == dx;
            let mut ok = tie && track(x, y);
            if err >= dx {
                y += sy;
                err -= 2 * dx;
            }
            ok = ok || track(x, y);
            if !ok {
                return Some(Pos::new(x as i32, y as i32));
            }
            if x == x1 {
                return None;
            }
        }
    } else {
        loop {
            y += sy;
            err += 2 * dx;
            let tie = err == dy;
            let mut ok = tie && track(x, y);
            if err >= dy {
                x += sx;
                err -= 2 * dy;
            }
            ok = ok || track(x, y);
            if !ok {
                return Some(Pos::new(x as i32, y as i32));
            }
            if y == y1 {
                return None;
            }
        }
    }
}

/// The finish line: the maximal vertical run of track cells in column 40 that contains the
/// start point (spec §2 rule 4). `top <= 4 <= bottom`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct FinishLine {
    /// First row of the run.
    pub top: i32,
    /// Last row of the run (inclusive).
    pub bottom: i32,
}

impl FinishLine {
    /// The column the line lies in.
    pub const X: i32 = FINISH_X;
}

/// The finish line of a circuit, or `None` when the start point is not track.
pub fn finish_line(circuit: &Circuit) -> Option<FinishLine> {
    if !circuit.is_track(START) {
        return None;
    }
    let mut top = START.y;
    while circuit.is_track(Pos::new(FINISH_X, top - 1)) {
        top -= 1;
    }
    let mut bottom = START.y;
    while circuit.is_track(Pos::new(FINISH_X, bottom + 1)) {
        bottom += 1;
    }
    Some(FinishLine { top, bottom })
}

/// Whether a position is on the left of the line (`x < 40`); `x ≥ 40` is the right.
pub fn is_left(p: Pos) -> bool {
    p.x < FINISH_X
}

/// The counted crossing of the move `from → to` (spec §5): +1 left → right, −1 right → left,
/// 0 when the endpoints are on the same side or the segment meets column 40 outside
/// `top − 0.5 ..= bottom + 0.5`. Exact integer arithmetic, no rounding.
pub fn crossing(line: &FinishLine, from: Pos, to: Pos) -> i32 {
    let sign = match (is_left(from), is_left(to)) {
        (true, false) => 1,
        (false, true) => -1,
        _ => return 0,
    };
    // y* = y0 + (40 − x0)(y1 − y0)/(x1 − x0) = num / den with den > 0.
    let (x0, y0, x1, y1) = (from.x as i128, from.y as i128, to.x as i128, to.y as i128);
    let mut den = x1 - x0;
    let mut num = y0 * den + (FINISH_X as i128 - x0) * (y1 - y0);
    if den < 0 {
        den = -den;
        num = -num;
    }
    // top − ½ ≤ num/den ≤ bottom + ½  ⇔  (2·top − 1)·den ≤ 2·num ≤ (2·bottom + 1)·den
    let lo = (2 * line.top as i128 - 1) * den;
    let hi = (2 * line.bottom as i128 + 1) * den;
    if lo <= 2 * num && 2 * num <= hi {
        sign
    } else {
        0
    }
}

/// The part of the finishing move `prev → last` before it meets the line:
/// `f = (40 − x_prev) / (x_last − x_prev)`, in `(0, 1]` for a left → right crossing.
pub fn finish_fraction(prev: Pos, last: Pos) -> f64 {
    (FINISH_X as f64 - prev.x as f64) / (last.x as f64 - prev.x as f64)
}

/// The official time of a lap of `moves` moves whose last move is cut at fraction `f`:
/// `(moves − 1) + f` seconds (each move lasts one second).
pub fn lap_time(moves: usize, f: f64) -> f64 {
    (moves as f64 - 1.0) + f
}

/// The Euclidean length of a move, in cells. `dx² + dy²` is exact (small integers) and `sqrt`
/// is correctly rounded on every IEEE 754 platform, where `hypot` is a library function whose
/// last bit differs between the native C library and WebAssembly's: a lap must get the same
/// time and speed, to the bit, in the CLI and in the browser.
pub fn move_length(from: Pos, to: Pos) -> f64 {
    let (dx, dy) = (to.x as f64 - from.x as f64, to.y as f64 - from.y as f64);
    (dx * dx + dy * dy).sqrt()
}

/// The distance driven in a finished lap, in metres: 10 m × (the lengths of moves 1..n−1 plus
/// `f` × the length of move n). `positions` is `p0..pn`, `n ≥ 1`.
pub fn lap_distance_m(positions: &[Pos], f: f64) -> f64 {
    let n = positions.len().saturating_sub(1);
    let cells: f64 = positions
        .windows(2)
        .enumerate()
        .map(|(i, w)| {
            let len = move_length(w[0], w[1]);
            if i + 1 == n { f * len } else { len }
        })
        .sum();
    CELL_METRES * cells
}

/// Average speed in km/h of `distance_m` metres in `time_s` seconds.
pub fn speed_kmh(distance_m: f64, time_s: f64) -> f64 {
    distance_m / time_s * 3.6
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A circuit that is all decor except the listed track cells.
    fn with_track(cells: &[(i32, i32)]) -> Circuit {
        let mut c = Circuit::filled(b'A').unwrap();
        for &(x, y) in cells {
            c.set(Pos::new(x, y), b' ').unwrap();
        }
        c
    }

    #[test]
    fn start_cell_must_be_track_and_standing_still_is_legal() {
        let c = with_track(&[(5, 5)]);
        assert!(on_track(&c, Pos::new(5, 5), Pos::new(5, 5)));
        assert_eq!(
            first_blocked(&c, Pos::new(4, 5), Pos::new(5, 5)),
            Some(Pos::new(4, 5))
        );
    }

    #[test]
    fn pure_diagonal_step_tests_only_its_end_cell() {
        let c = with_track(&[(5, 5), (6, 6)]);
        assert!(on_track(&c, Pos::new(5, 5), Pos::new(6, 6)));
        assert!(on_track(&c, Pos::new(6, 6), Pos::new(5, 5)));
    }

    #[test]
    fn straight_move_visits_every_cell() {
        let c = with_track(&[(5, 5), (6, 5), (8, 5)]);
        assert_eq!(
            first_blocked(&c, Pos::new(5, 5), Pos::new(8, 5)),
            Some(Pos::new(7, 5))
        );
        let c = with_track(&[(5, 5), (5, 6), (5, 7)]);
        assert!(on_track(&c, Pos::new(5, 5), Pos::new(5, 7)));
        assert!(!on_track(&c, Pos::new(5, 5), Pos::new(5, 8)));
    }

    #[test]
    fn half_pixel_tie_accepts_either_candidate() {
        // (0,0) → (2,1): step 1 has err = 2 = dx, a tie between (1,0) and (1,1).
        let base = [(10, 10), (12, 11)];
        let before = with_track(&[base[0], base[1], (11, 10)]);
        let after = with_track(&[base[0], base[1], (11, 11)]);
        let neither = with_track(&base);
        let (a, b) = (Pos::new(10, 10), Pos::new(12, 11));
        assert!(on_track(&before, a, b));
        assert!(on_track(&after, a, b));
        assert_eq!(first_blocked(&neither, a, b), Some(Pos::new(11, 11)));
        // The same on the y-major branch: (0,0) → (1,2).
        let (a, b) = (Pos::new(10, 10), Pos::new(11, 12));
        assert!(on_track(&with_track(&[(10, 10), (11, 12), (10, 11)]), a, b));
        assert!(on_track(&with_track(&[(10, 10), (11, 12), (11, 11)]), a, b));
        assert!(!on_track(&with_track(&[(10, 10), (11, 12)]), a, b));
    }

    #[test]
    fn no_tie_means_a_single_pixel_must_be_track() {
        // (0,0) → (3,1): err goes 2, 4 ≥ 3 → step at x=2 with no tie (err ≠ 3).
        let a = Pos::new(10, 10);
        let b = Pos::new(13, 11);
        let path = [(10, 10), (11, 10), (12, 11), (13, 11)];
        assert!(on_track(&with_track(&path), a, b));
        // (12,10) instead of (12,11) is not enough: no tie at that step.
        let wrong = [(10, 10), (11, 10), (12, 10), (13, 11)];
        assert_eq!(
            first_blocked(&with_track(&wrong), a, b),
            Some(Pos::new(12, 11))
        );
    }

    #[test]
    fn walks_leaving_the_grid_fail_without_overflow() {
        let c = with_track(&[(1, 1)]);
        assert!(!on_track(&c, Pos::new(1, 1), Pos::new(i32::MIN, i32::MAX)));
        assert!(!on_track(&c, Pos::new(i32::MAX, 0), Pos::new(i32::MIN, 0)));
    }

    #[test]
    fn acceleration_box() {
        let (lo, hi) = allowed_box(Pos::new(40, 4), Pos::new(42, 5));
        assert_eq!((lo, hi), (Pos::new(43, 5), Pos::new(45, 7)));
        assert!(acceleration_ok(
            Pos::new(40, 4),
            Pos::new(42, 5),
            Pos::new(45, 7)
        ));
        assert!(!acceleration_ok(
            Pos::new(40, 4),
            Pos::new(42, 5),
            Pos::new(46, 7)
        ));
        assert!(acceleration_ok(START, START, Pos::new(41, 5)));
        let (max, min) = (Pos::new(i32::MAX, i32::MAX), Pos::new(i32::MIN, i32::MIN));
        assert!(!acceleration_ok(max, min, START));
        assert_eq!(allowed_box(min, max).1, max);
    }

    fn line() -> FinishLine {
        FinishLine { top: 2, bottom: 6 }
    }

    #[test]
    fn crossings_count_with_sign_and_only_near_the_run() {
        let l = line();
        assert_eq!(crossing(&l, Pos::new(39, 4), Pos::new(40, 4)), 1);
        assert_eq!(crossing(&l, Pos::new(40, 4), Pos::new(39, 4)), -1);
        assert_eq!(crossing(&l, Pos::new(40, 4), Pos::new(41, 4)), 0);
        assert_eq!(crossing(&l, Pos::new(38, 4), Pos::new(39, 5)), 0);
        // y* exactly at top − 0.5: (39,1) → (41,2) meets x=40 at y=1.5.
        assert_eq!(crossing(&l, Pos::new(39, 1), Pos::new(41, 2)), 1);
        // just outside: (39,1) → (42,2) meets at y = 1 + 1/3.
        assert_eq!(crossing(&l, Pos::new(39, 1), Pos::new(42, 2)), 0);
        // bottom + 0.5 from the right going left: (41,7) → (39,6) meets at 6.5.
        assert_eq!(crossing(&l, Pos::new(41, 7), Pos::new(39, 6)), -1);
        assert_eq!(crossing(&l, Pos::new(41, 8), Pos::new(39, 6)), 0);
        // far away in column 40 counts nothing
        assert_eq!(crossing(&l, Pos::new(30, 80), Pos::new(50, 80)), 0);
    }

    #[test]
    fn finish_line_is_the_run_through_the_start() {
        let mut cells: Vec<(i32, i32)> = (1..=9).map(|y| (40, y)).collect();
        cells.push((40, 11));
        let c = with_track(&cells);
        assert_eq!(finish_line(&c), Some(FinishLine { top: 1, bottom: 9 }));
        assert_eq!(finish_line(&with_track(&[(40, 3)])), None);
    }

    #[test]
    fn stopwatch() {
        // Three moves, the last from x=38 to x=42 cut at half.
        let f = finish_fraction(Pos::new(38, 4), Pos::new(42, 4));
        assert_eq!(f, 0.5);
        assert_eq!(lap_time(3, f), 2.5);
        let laps = [
            Pos::new(40, 4),
            Pos::new(43, 8),
            Pos::new(38, 4),
            Pos::new(42, 4),
        ];
        // lengths 5, √41, 4·½
        let d = lap_distance_m(&laps, f);
        assert!((d - 10.0 * (5.0 + 41f64.sqrt() + 2.0)).abs() < 1e-9);
        assert!((speed_kmh(d, 2.5) - d / 2.5 * 3.6).abs() < 1e-9);
        assert_eq!(finish_fraction(Pos::new(39, 4), Pos::new(40, 4)), 1.0);
    }
}
