//! Zoom and pan over a grid of squares drawn in a canvas buffer, for every canvas that zooms
//! (the circuit editor's 150 × 100 cells, the Paper Soccer field).
//!
//! A square is always a whole number of buffer pixels ([`View::scale`]) so the drawing stays
//! crisp at every zoom, and every move keeps part of the grid in sight. Plain arithmetic, no
//! browser types, so it is unit-tested natively.

/// A canvas buffer and the grid it shows: the frame a [`View`] lives in, and how far it may
/// zoom either way.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stage {
    /// The buffer's width, in device pixels.
    pub width: u32,
    /// The buffer's height, in device pixels.
    pub height: u32,
    /// `devicePixelRatio`: buffer pixels per CSS pixel.
    pub ratio: f64,
    /// The grid's width, in squares.
    pub cols: u32,
    /// The grid's height, in squares.
    pub rows: u32,
    /// The closest zoom, in CSS pixels per square (the fitted size if that is larger).
    pub closest: f64,
    /// The farthest zoom as a fraction of the fitted size; `0.0` lets squares shrink to one
    /// buffer pixel.
    pub farthest: f64,
}

impl Stage {
    /// The largest scale that shows the whole grid.
    pub fn fit_scale(&self) -> u32 {
        (self.width / self.cols.max(1))
            .min(self.height / self.rows.max(1))
            .max(1)
    }

    /// The scale of "1:1": one square per CSS pixel.
    pub fn one_scale(&self) -> u32 {
        (self.ratio.round() as u32).max(1)
    }

    /// The closest zoom allowed, never below the fitted size.
    pub fn max_scale(&self) -> u32 {
        ((self.closest * self.ratio).round() as u32).max(self.fit_scale())
    }

    /// The farthest zoom allowed, never above the fitted size.
    pub fn min_scale(&self) -> u32 {
        let fit = self.fit_scale();
        ((f64::from(fit) * self.farthest).floor() as u32).clamp(1, fit)
    }

    fn clamp_scale(&self, scale: u32) -> u32 {
        scale.clamp(self.min_scale(), self.max_scale())
    }
}

/// Where square (0,0) lands and how big squares are, in buffer pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    /// Buffer pixels per square side, ≥ 1.
    pub scale: u32,
    /// Buffer x of the left edge of column 0.
    pub left: i32,
    /// Buffer y of the top edge of row 0.
    pub top: i32,
}

impl View {
    /// The grid centred at `scale` (clamped to the allowed range).
    pub fn centred(stage: Stage, scale: u32) -> View {
        let scale = stage.clamp_scale(scale);
        let s = i64::from(scale);
        let half = |side: u32, squares: u32| {
            ((i64::from(side) - i64::from(squares) * s) / 2).clamp(i32::MIN.into(), i32::MAX.into())
                as i32
        };
        View {
            scale,
            left: half(stage.width, stage.cols),
            top: half(stage.height, stage.rows),
        }
    }

    /// The whole grid, as large as fits.
    pub fn fit(stage: Stage) -> View {
        View::centred(stage, stage.fit_scale())
    }

    /// The square `(col, row)` under buffer point `(x, y)`; it may be off the grid.
    pub fn square_at(&self, x: f64, y: f64) -> (i32, i32) {
        let s = f64::from(self.scale);
        (
            ((x - f64::from(self.left)) / s).floor() as i32,
            ((y - f64::from(self.top)) / s).floor() as i32,
        )
    }

    /// The buffer point at the centre of square `(col, row)`.
    pub fn centre_of(&self, col: i32, row: i32) -> (f64, f64) {
        let s = f64::from(self.scale);
        (
            f64::from(self.left) + (f64::from(col) + 0.5) * s,
            f64::from(self.top) + (f64::from(row) + 0.5) * s,
        )
    }

    /// Zooms to `scale` keeping the grid point under buffer point `anchor` where it is.
    pub fn zoom_to(&self, stage: Stage, scale: u32, anchor: (f64, f64)) -> View {
        let scale = stage.clamp_scale(scale);
        let ratio = f64::from(scale) / f64::from(self.scale.max(1));
        let left = anchor.0 - (anchor.0 - f64::from(self.left)) * ratio;
        let top = anchor.1 - (anchor.1 - f64::from(self.top)) * ratio;
        View {
            scale,
            left: to_i32(left),
            top: to_i32(top),
        }
        .clamped(stage)
    }

    /// `steps` zoom steps in (`steps > 0`) or out, about `anchor`: about 25 % per step, and
    /// always at least one buffer pixel per square.
    pub fn zoom_steps(&self, stage: Stage, steps: i32, anchor: (f64, f64)) -> View {
        let mut scale = self.scale;
        for _ in 0..steps.unsigned_abs() {
            scale = if steps > 0 {
                (scale + 1).max((f64::from(scale) * 1.25).round() as u32)
            } else {
                scale
                    .saturating_sub(1)
                    .min((f64::from(scale) / 1.25).round() as u32)
                    .max(1)
            };
        }
        self.zoom_to(stage, scale, anchor)
    }

    /// Shows square `(col, row)` in the middle of the frame at `scale` or closer.
    pub fn focus(&self, stage: Stage, col: i32, row: i32, scale: u32) -> View {
        let scale = stage.clamp_scale(scale.max(self.scale));
        let s = scale as i32;
        View {
            scale,
            left: stage.width as i32 / 2 - col.saturating_mul(s) - s / 2,
            top: stage.height as i32 / 2 - row.saturating_mul(s) - s / 2,
        }
        .clamped(stage)
    }

    /// Moves the drawing by `(dx, dy)` buffer pixels.
    pub fn pan(&self, stage: Stage, dx: f64, dy: f64) -> View {
        View {
            left: to_i32(f64::from(self.left) + dx),
            top: to_i32(f64::from(self.top) + dy),
            ..*self
        }
        .clamped(stage)
    }

    /// Whether the whole grid is in the frame.
    pub fn shows_all(&self, stage: Stage) -> bool {
        let s = i64::from(self.scale);
        let inside = |origin: i32, squares: u32, side: u32| {
            origin >= 0 && i64::from(origin) + i64::from(squares) * s <= i64::from(side)
        };
        inside(self.left, stage.cols, stage.width) && inside(self.top, stage.rows, stage.height)
    }

    /// Keeps at least a quarter of the frame (or the whole grid, if smaller) showing grid.
    pub fn clamped(self, stage: Stage) -> View {
        let keep = |squares: u32, side: u32, origin: i32| {
            let extent = (i64::from(squares) * i64::from(self.scale)).min(i32::MAX.into()) as i32;
            let side = side.min(i32::MAX as u32) as i32;
            let margin = (side / 4).min(extent);
            origin.clamp(margin - extent, side - margin)
        };
        View {
            left: keep(stage.cols, stage.width, self.left),
            top: keep(stage.rows, stage.height, self.top),
            ..self
        }
    }
}

/// A float rounded to the nearest `i32` (saturating; NaN is 0).
fn to_i32(value: f64) -> i32 {
    value.round() as i32
}

/// Wheel and touchpad scrolling turned into zoom steps: wheels send a few large deltas,
/// touchpads many small ones, so deltas add up and each [`Wheel::STEP`] pixels make a step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Wheel {
    pending: f64,
}

impl Wheel {
    /// Scrolling, in pixels, per zoom step.
    pub const STEP: f64 = 60.0;
    /// Pixels per line, for wheels that count lines (`deltaMode` 1).
    const LINE: f64 = 16.0;
    /// A pinch (reported as a ctrl+wheel with small deltas) counts this much more than scrolling.
    const PINCH: f64 = 4.0;
    /// At most this many steps per event, so one flick or ctrl+wheel notch stays a small jump.
    const MAX_STEPS: f64 = 2.0;

    /// The zoom steps (`> 0` in) of a wheel event's vertical delta in pixels.
    pub fn steps(&mut self, delta_y: f64) -> i32 {
        if !delta_y.is_finite() {
            return 0;
        }
        self.pending += delta_y;
        let steps = -(self.pending / Self::STEP).trunc();
        self.pending += steps * Self::STEP;
        steps as i32
    }

    /// The zoom steps of a `WheelEvent`: its `deltaY`, `deltaMode` (0 pixels, 1 lines, 2
    /// pages of `page` pixels) and whether ctrl was down (a touchpad pinch, or ctrl+wheel).
    pub fn event_steps(&mut self, delta_y: f64, mode: u32, ctrl: bool, page: f64) -> i32 {
        let pixels = match mode {
            0 => delta_y,
            1 => delta_y * Self::LINE,
            _ => delta_y * page.max(Self::STEP),
        };
        let pixels = if ctrl { pixels * Self::PINCH } else { pixels };
        let steps = self.steps(pixels);
        if f64::from(steps.abs()) > Self::MAX_STEPS {
            self.pending = 0.0;
            return steps.signum() * Self::MAX_STEPS as i32;
        }
        steps
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A 150 × 100 grid in a 900 × 640 buffer: 6 px squares, the whole grid in sight (the
    /// editor's circuit, as the gesture tests use it too).
    pub(crate) const STAGE: Stage = Stage {
        width: 900,
        height: 640,
        ratio: 1.0,
        cols: 150,
        rows: 100,
        closest: 16.0,
        farthest: 0.0,
    };

    #[test]
    fn fit_centres_the_largest_whole_scale() {
        let v = View::fit(STAGE);
        assert_eq!((v.scale, v.left, v.top), (6, 0, 20));
        assert_eq!(v.square_at(0.0, 20.0), (0, 0));
        assert_eq!(v.square_at(899.9, 619.9), (149, 99));
        assert_eq!(v.square_at(-0.1, 19.9), (-1, -1));
        assert_eq!(v.centre_of(1, 1), (9.0, 29.0));
        assert!(v.shows_all(STAGE));
        assert!(!v.zoom_steps(STAGE, 1, (450.0, 320.0)).shows_all(STAGE));
    }

    #[test]
    fn zoom_keeps_the_anchor_still_and_stays_in_range() {
        let v = View::fit(STAGE);
        let anchor = (123.4, 321.0);
        let before = (
            (anchor.0 - f64::from(v.left)) / f64::from(v.scale),
            (anchor.1 - f64::from(v.top)) / f64::from(v.scale),
        );
        for steps in [1, 2, 5, -1] {
            let z = v.zoom_steps(STAGE, steps, anchor);
            let after = (
                f64::from(z.left) + before.0 * f64::from(z.scale),
                f64::from(z.top) + before.1 * f64::from(z.scale),
            );
            assert!((after.0 - anchor.0).abs() <= 0.5, "{steps}: {after:?}");
            assert!((after.1 - anchor.1).abs() <= 0.5, "{steps}: {after:?}");
        }
        assert_eq!(v.zoom_steps(STAGE, 50, anchor).scale, 16);
        assert_eq!(v.zoom_steps(STAGE, -50, anchor).scale, 1);
    }

    #[test]
    fn the_farthest_zoom_is_a_fraction_of_the_fit() {
        let stage = Stage {
            cols: 10,
            rows: 14,
            closest: 64.0,
            farthest: 0.5,
            ..STAGE
        };
        assert_eq!(stage.fit_scale(), 45);
        assert_eq!(stage.min_scale(), 22);
        assert_eq!(stage.max_scale(), 64);
        let v = View::fit(stage);
        assert_eq!(v.zoom_steps(stage, -20, (0.0, 0.0)).scale, 22);
        assert_eq!(v.zoom_steps(stage, 20, (0.0, 0.0)).scale, 64);
        // A grid too big for the closest zoom: the fitted size is the only one.
        let huge = Stage {
            closest: 4.0,
            ..stage
        };
        assert_eq!(View::fit(huge).zoom_steps(huge, 3, (0.0, 0.0)).scale, 45);
    }

    #[test]
    fn hidpi_scales_follow_the_ratio() {
        let hidpi = Stage {
            ratio: 2.0,
            width: 1800,
            height: 1280,
            ..STAGE
        };
        assert_eq!(View::fit(hidpi).scale, 12);
        assert_eq!(hidpi.one_scale(), 2);
        assert_eq!(hidpi.max_scale(), 32);
    }

    #[test]
    fn focus_and_pan_keep_the_grid_in_sight() {
        let v = View::fit(STAGE).focus(STAGE, 75, 50, 12);
        assert_eq!(v.scale, 12);
        assert_eq!(v.square_at(450.0, 320.0), (75, 50));
        let far = v.pan(STAGE, 1e6, -1e6);
        assert!(far.left <= 900 - 225 && far.top + 100 * 12 >= 160);
        let nonsense = v.pan(STAGE, f64::NAN, f64::INFINITY);
        assert!(nonsense.top <= 640 - 160);
    }

    #[test]
    fn wheel_deltas_add_up_to_steps() {
        let mut wheel = Wheel::default();
        assert_eq!(wheel.steps(-100.0), 1);
        assert_eq!(wheel.steps(-20.0), 1, "the 40 left over and 20 more");
        assert_eq!(wheel.steps(30.0), 0);
        assert_eq!(wheel.steps(30.0), -1);
        assert_eq!(wheel.steps(f64::NAN), 0);
        // A pinch's small deltas zoom faster; a ctrl+wheel notch is at most two steps.
        let mut pinch = Wheel::default();
        let steps: i32 = (0..10)
            .map(|_| pinch.event_steps(-3.0, 0, true, 800.0))
            .sum();
        assert_eq!(steps, 2);
        let mut notch = Wheel::default();
        assert_eq!(notch.event_steps(-100.0, 0, true, 800.0), 2);
        assert_eq!(
            notch.event_steps(1.0, 0, false, 800.0),
            0,
            "nothing carried over"
        );
        assert_eq!(Wheel::default().event_steps(3.0, 1, false, 800.0), 0);
        assert_eq!(Wheel::default().event_steps(-4.0, 1, false, 800.0), 1);
    }
}
