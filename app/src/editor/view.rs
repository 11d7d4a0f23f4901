//! Zoom and pan: where the 150 × 100 cells land in the canvas buffer.
//!
//! A cell is always a whole number of buffer pixels ([`View::scale`]) so the drawing stays
//! crisp at every zoom. "1:1" is one cell per CSS pixel; the closest zoom is 16 CSS pixels per
//! cell, or the fitted size if the window is larger still.

use engine::racetrack::{Circuit, Pos};

/// The closest zoom, in CSS pixels per cell.
pub const MAX_CSS_SCALE: f64 = 16.0;

/// Where cell (0,0) lands and how big cells are, in buffer pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    /// Buffer pixels per cell side, ≥ 1.
    pub scale: u32,
    /// Buffer x of the left edge of column 0.
    pub left: i32,
    /// Buffer y of the top edge of row 0.
    pub top: i32,
}

/// The size of the canvas buffer and its pixel ratio: the frame a [`View`] lives in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    pub width: u32,
    pub height: u32,
    /// `devicePixelRatio`.
    pub ratio: f64,
}

impl Frame {
    /// The largest scale that shows the whole circuit.
    pub fn fit_scale(&self) -> u32 {
        (self.width / Circuit::WIDTH as u32)
            .min(self.height / Circuit::HEIGHT as u32)
            .max(1)
    }

    /// The scale of "1:1": one cell per CSS pixel.
    pub fn one_scale(&self) -> u32 {
        (self.ratio.round() as u32).max(1)
    }

    /// The closest zoom allowed.
    pub fn max_scale(&self) -> u32 {
        ((MAX_CSS_SCALE * self.ratio).round() as u32).max(self.fit_scale())
    }
}

impl View {
    /// The circuit centred at `scale` (clamped to the allowed range).
    pub fn centred(frame: Frame, scale: u32) -> View {
        let scale = scale.clamp(1, frame.max_scale());
        View {
            scale,
            left: (frame.width as i32 - Circuit::WIDTH * scale as i32) / 2,
            top: (frame.height as i32 - Circuit::HEIGHT * scale as i32) / 2,
        }
    }

    /// The whole circuit, as large as fits.
    pub fn fit(frame: Frame) -> View {
        View::centred(frame, frame.fit_scale())
    }

    /// The cell under buffer point `(x, y)`; it may be off the grid.
    pub fn cell_at(&self, x: f64, y: f64) -> Pos {
        let s = f64::from(self.scale);
        Pos::new(
            ((x - f64::from(self.left)) / s).floor() as i32,
            ((y - f64::from(self.top)) / s).floor() as i32,
        )
    }

    /// The buffer point at the centre of `cell`.
    pub fn centre_of(&self, cell: Pos) -> (f64, f64) {
        let s = f64::from(self.scale);
        (
            f64::from(self.left) + (f64::from(cell.x) + 0.5) * s,
            f64::from(self.top) + (f64::from(cell.y) + 0.5) * s,
        )
    }

    /// Zooms to `scale` keeping the circuit point under buffer point `anchor` where it is.
    pub fn zoom_to(&self, frame: Frame, scale: u32, anchor: (f64, f64)) -> View {
        let scale = scale.clamp(1, frame.max_scale());
        let ratio = f64::from(scale) / f64::from(self.scale);
        let left = anchor.0 - (anchor.0 - f64::from(self.left)) * ratio;
        let top = anchor.1 - (anchor.1 - f64::from(self.top)) * ratio;
        View {
            scale,
            left: left.round() as i32,
            top: top.round() as i32,
        }
        .clamped(frame)
    }

    /// One zoom step in (`steps > 0`) or out, about `anchor`: about 25 % per step, and always
    /// at least one buffer pixel per cell.
    pub fn zoom_steps(&self, frame: Frame, steps: i32, anchor: (f64, f64)) -> View {
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
        self.zoom_to(frame, scale, anchor)
    }

    /// Shows `cell` in the middle of the frame at `scale` or closer.
    pub fn focus(&self, frame: Frame, cell: Pos, scale: u32) -> View {
        let scale = scale.max(self.scale).clamp(1, frame.max_scale());
        let s = scale as i32;
        View {
            scale,
            left: frame.width as i32 / 2 - cell.x * s - s / 2,
            top: frame.height as i32 / 2 - cell.y * s - s / 2,
        }
        .clamped(frame)
    }

    /// Moves the drawing by `(dx, dy)` buffer pixels.
    pub fn pan(&self, frame: Frame, dx: f64, dy: f64) -> View {
        View {
            left: self.left + dx.round() as i32,
            top: self.top + dy.round() as i32,
            ..*self
        }
        .clamped(frame)
    }

    /// Keeps at least a quarter of the frame (or the whole circuit, if smaller) showing circuit.
    fn clamped(self, frame: Frame) -> View {
        let keep = |extent: i32, side: i32, origin: i32| {
            let margin = (side / 4).min(extent);
            origin.clamp(margin - extent, side - margin)
        };
        let s = self.scale as i32;
        View {
            left: keep(Circuit::WIDTH * s, frame.width as i32, self.left),
            top: keep(Circuit::HEIGHT * s, frame.height as i32, self.top),
            ..self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FRAME: Frame = Frame {
        width: 900,
        height: 640,
        ratio: 1.0,
    };

    #[test]
    fn fit_centres_the_largest_whole_scale() {
        let v = View::fit(FRAME);
        assert_eq!(v.scale, 6);
        assert_eq!((v.left, v.top), (0, 20));
        assert_eq!(v.cell_at(0.0, 20.0), Pos::new(0, 0));
        assert_eq!(v.cell_at(899.9, 619.9), Pos::new(149, 99));
        assert_eq!(v.cell_at(-0.1, 19.9), Pos::new(-1, -1));
        assert_eq!(v.centre_of(Pos::new(1, 1)), (9.0, 29.0));
        let hidpi = Frame {
            ratio: 2.0,
            width: 1800,
            height: 1280,
        };
        assert_eq!(View::fit(hidpi).scale, 12);
        assert_eq!(hidpi.one_scale(), 2);
        assert_eq!(hidpi.max_scale(), 32);
    }

    #[test]
    fn zoom_keeps_the_anchor_still_and_stays_in_range() {
        let v = View::fit(FRAME);
        let anchor = v.centre_of(Pos::new(40, 4));
        let z = v.zoom_steps(FRAME, 3, anchor);
        assert!(z.scale > v.scale);
        assert_eq!(z.cell_at(anchor.0, anchor.1), Pos::new(40, 4));
        let max = v.zoom_steps(FRAME, 50, anchor);
        assert_eq!(max.scale, 16);
        let min = v.zoom_steps(FRAME, -50, anchor);
        assert_eq!(min.scale, 1);
        // Every step changes the scale, even from tiny ones.
        assert_eq!(min.zoom_steps(FRAME, 1, anchor).scale, 2);
    }

    #[test]
    fn focus_and_pan_keep_the_circuit_in_sight() {
        let v = View::fit(FRAME).focus(FRAME, Pos::new(75, 50), 12);
        assert_eq!(v.scale, 12);
        assert_eq!(v.cell_at(450.0, 320.0), Pos::new(75, 50));
        let far = v.pan(FRAME, 1e6, -1e6);
        assert!(far.left <= 900 - 225 && far.top + 100 * 12 >= 160);
    }
}
