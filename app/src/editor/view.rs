//! Zoom and pan: where the 150 × 100 cells land in the canvas buffer.
//!
//! A cell is always a whole number of buffer pixels ([`View::scale`]) so the drawing stays
//! crisp at every zoom. "1:1" is one cell per CSS pixel; the closest zoom is 16 CSS pixels per
//! cell, or the fitted size if the window is larger still. The arithmetic is the shared
//! [`crate::zoom`]'s, over the circuit's grid; this module names it in cells ([`Pos`]).

use engine::racetrack::{Circuit, Pos};

use crate::zoom::{self, Stage};

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
    /// The frame showing the circuit's grid, zoomable from one buffer pixel per cell.
    pub fn stage(&self) -> Stage {
        Stage {
            width: self.width,
            height: self.height,
            ratio: self.ratio,
            cols: Circuit::WIDTH as u32,
            rows: Circuit::HEIGHT as u32,
            closest: MAX_CSS_SCALE,
            farthest: 0.0,
        }
    }

    /// The largest scale that shows the whole circuit.
    pub fn fit_scale(&self) -> u32 {
        self.stage().fit_scale()
    }

    /// The scale of "1:1": one cell per CSS pixel.
    pub fn one_scale(&self) -> u32 {
        self.stage().one_scale()
    }

    /// The closest zoom allowed.
    pub fn max_scale(&self) -> u32 {
        self.stage().max_scale()
    }
}

impl From<zoom::View> for View {
    fn from(v: zoom::View) -> View {
        View {
            scale: v.scale,
            left: v.left,
            top: v.top,
        }
    }
}

impl View {
    /// The same view in the shared [`crate::zoom`] terms.
    pub fn shared(self) -> zoom::View {
        zoom::View {
            scale: self.scale,
            left: self.left,
            top: self.top,
        }
    }

    /// The circuit centred at `scale` (clamped to the allowed range).
    pub fn centred(frame: Frame, scale: u32) -> View {
        zoom::View::centred(frame.stage(), scale).into()
    }

    /// The whole circuit, as large as fits.
    pub fn fit(frame: Frame) -> View {
        zoom::View::fit(frame.stage()).into()
    }

    /// The cell under buffer point `(x, y)`; it may be off the grid.
    pub fn cell_at(&self, x: f64, y: f64) -> Pos {
        let (col, row) = self.shared().square_at(x, y);
        Pos::new(col, row)
    }

    /// The buffer point at the centre of `cell`.
    pub fn centre_of(&self, cell: Pos) -> (f64, f64) {
        self.shared().centre_of(cell.x, cell.y)
    }

    /// Zooms to `scale` keeping the circuit point under buffer point `anchor` where it is.
    pub fn zoom_to(&self, frame: Frame, scale: u32, anchor: (f64, f64)) -> View {
        self.shared().zoom_to(frame.stage(), scale, anchor).into()
    }

    /// One zoom step in (`steps > 0`) or out, about `anchor`: about 25 % per step, and always
    /// at least one buffer pixel per cell.
    pub fn zoom_steps(&self, frame: Frame, steps: i32, anchor: (f64, f64)) -> View {
        self.shared()
            .zoom_steps(frame.stage(), steps, anchor)
            .into()
    }

    /// Shows `cell` in the middle of the frame at `scale` or closer.
    pub fn focus(&self, frame: Frame, cell: Pos, scale: u32) -> View {
        self.shared()
            .focus(frame.stage(), cell.x, cell.y, scale)
            .into()
    }

    /// Moves the drawing by `(dx, dy)` buffer pixels.
    pub fn pan(&self, frame: Frame, dx: f64, dy: f64) -> View {
        self.shared().pan(frame.stage(), dx, dy).into()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A 900 × 640 buffer: 6 px cells, column 0 at x = 0, row 0 at y = 20 (the editor's
    /// session tests use it too).
    pub(crate) const FRAME: Frame = Frame {
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
