//! Where things land on a canvas, as plain arithmetic (no browser types), so it is unit-tested.
//!
//! Drawing happens in the canvas' *buffer* pixels: the CSS size times `devicePixelRatio`. Square
//! grids get a whole number of buffer pixels per square, so every line sits on the same pixel
//! boundary and the drawing stays sharp at any zoom level and window size.

use crate::zoom::{Stage, View};

/// The largest side a canvas buffer may have in common browsers.
pub const MAX_BUFFER_SIDE: u32 = 16_384;

/// The buffer size (in device pixels) of a canvas shown at `css_width`×`css_height` CSS pixels
/// on a screen with `device_pixel_ratio`. A ratio that is not a positive number counts as 1, and
/// each side is at least 1 and at most [`MAX_BUFFER_SIDE`].
pub fn buffer_size(css_width: f64, css_height: f64, device_pixel_ratio: f64) -> (u32, u32) {
    let ratio = if device_pixel_ratio.is_finite() && device_pixel_ratio > 0.0 {
        device_pixel_ratio
    } else {
        1.0
    };
    let side = |css: f64| {
        let px = (css.max(0.0) * ratio).round();
        if px.is_finite() {
            (px as u32).clamp(1, MAX_BUFFER_SIDE)
        } else {
            1
        }
    };
    (side(css_width), side(css_height))
}

/// A grid of square cells placed in a buffer: cell `(col, row)` covers the pixels from
/// `(left + col·cell, top + row·cell)` to one cell further right and down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    cell: u32,
    left: i32,
    top: i32,
    cols: u32,
    rows: u32,
}

impl Grid {
    /// Fits `cols`×`rows` cells, plus `margin` empty cells on every side, into a
    /// `buffer_width`×`buffer_height` buffer: the cell side is the largest whole number of
    /// pixels that fits (at least 1), and the grid is centred.
    pub fn fit(cols: u32, rows: u32, margin: u32, buffer_width: u32, buffer_height: u32) -> Grid {
        let cols = cols.max(1);
        let rows = rows.max(1);
        let across = cols + 2 * margin;
        let down = rows + 2 * margin;
        let cell = (buffer_width / across).min(buffer_height / down).max(1);
        let left = (i64::from(buffer_width) - i64::from(cols * cell)) / 2;
        let top = (i64::from(buffer_height) - i64::from(rows * cell)) / 2;
        Grid {
            cell,
            left: left as i32,
            top: top as i32,
            cols,
            rows,
        }
    }

    /// The side of a cell, in buffer pixels.
    pub fn cell(&self) -> u32 {
        self.cell
    }

    /// The buffer x of the left edge of column `col` (also the x of grid line `col`).
    pub fn x(&self, col: i32) -> i32 {
        self.left + col * self.cell as i32
    }

    /// The buffer y of the top edge of row `row` (also the y of grid line `row`).
    pub fn y(&self, row: i32) -> i32 {
        self.top + row * self.cell as i32
    }

    /// The cell under buffer pixel `(px, py)`, if it is inside the grid.
    pub fn cell_at(&self, px: f64, py: f64) -> Option<(u32, u32)> {
        let col = ((px - f64::from(self.left)) / f64::from(self.cell)).floor();
        let row = ((py - f64::from(self.top)) / f64::from(self.cell)).floor();
        let inside = |v: f64, n: u32| v >= 0.0 && v < f64::from(n);
        (inside(col, self.cols) && inside(row, self.rows)).then_some((col as u32, row as u32))
    }
}

/// Where the points of a Paper Soccer field are drawn: grid lines `x = 0..=W`, and rows from the
/// top goal points (`y = -1`) to the bottom ones (`y = L + 1`), on a grid of squares with one
/// square of margin all round ([`FieldView::stage`]) that a [`View`] zooms and pans.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldView {
    view: View,
}

impl FieldView {
    /// The closest zoom on a field, in CSS pixels per square.
    pub const CLOSEST: f64 = 64.0;
    /// The farthest zoom on a field, as a fraction of the fitted size.
    pub const FARTHEST: f64 = 0.5;

    /// A `width`×`length` field (goals and margin included) in a `buffer_width`×`buffer_height`
    /// buffer at pixel ratio `ratio`, with the field's zoom limits.
    pub fn stage(
        width: u8,
        length: u8,
        buffer_width: u32,
        buffer_height: u32,
        ratio: f64,
    ) -> Stage {
        Stage {
            width: buffer_width,
            height: buffer_height,
            ratio,
            cols: u32::from(width) + 2,
            rows: u32::from(length) + 4,
            closest: Self::CLOSEST,
            farthest: Self::FARTHEST,
        }
    }

    /// The field laid out by `view`, a view of its [`FieldView::stage`].
    pub fn new(view: View) -> FieldView {
        FieldView { view }
    }

    /// Lays a `width`×`length` field out in a buffer, whole and as large as fits.
    pub fn fit(width: u8, length: u8, buffer_width: u32, buffer_height: u32) -> FieldView {
        let stage = FieldView::stage(width, length, buffer_width, buffer_height, 1.0);
        FieldView::new(View::fit(stage))
    }

    /// The buffer pixel of field point `(x, y)` (goal points have `y = -1` and `y = L + 1`).
    pub fn point(&self, x: i16, y: i16) -> (i32, i32) {
        let s = self.view.scale as i32;
        (
            self.view.left.saturating_add((i32::from(x) + 1) * s),
            self.view.top.saturating_add((i32::from(y) + 2) * s),
        )
    }

    /// The field coordinates of buffer point `(px, py)`, in squares from point (0, 0).
    pub fn field_at(&self, px: f64, py: f64) -> (f64, f64) {
        let (x0, y0) = self.point(0, 0);
        let s = f64::from(self.square());
        ((px - f64::from(x0)) / s, (py - f64::from(y0)) / s)
    }

    /// The side of a square, in buffer pixels.
    pub fn square(&self) -> u32 {
        self.view.scale
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffer_follows_the_pixel_ratio() {
        assert_eq!(buffer_size(300.0, 200.0, 1.0), (300, 200));
        assert_eq!(buffer_size(300.0, 200.0, 2.0), (600, 400));
        assert_eq!(buffer_size(301.5, 200.25, 1.5), (452, 300));
    }

    #[test]
    fn nonsense_sizes_give_a_usable_buffer() {
        assert_eq!(buffer_size(0.0, -5.0, 1.0), (1, 1));
        assert_eq!(buffer_size(100.0, 100.0, f64::NAN), (100, 100));
        assert_eq!(buffer_size(100.0, 100.0, 0.0), (100, 100));
        assert_eq!(buffer_size(1e9, f64::INFINITY, 3.0), (MAX_BUFFER_SIDE, 1));
    }

    #[test]
    fn grid_cells_are_whole_pixels_and_centred() {
        // 150×100 cells in 1000×700: 6 px per cell (1000/150 = 6.67, 700/100 = 7).
        let grid = Grid::fit(150, 100, 0, 1000, 700);
        assert_eq!(grid.cell(), 6);
        assert_eq!((grid.x(0), grid.y(0)), (50, 50));
        assert_eq!((grid.x(150), grid.y(100)), (950, 650));
    }

    #[test]
    fn grid_never_shrinks_below_one_pixel() {
        let grid = Grid::fit(150, 100, 0, 20, 20);
        assert_eq!(grid.cell(), 1);
        assert_eq!(grid.x(0), -65);
    }

    #[test]
    fn cell_at_inverts_the_layout() {
        let grid = Grid::fit(150, 100, 0, 1000, 700);
        assert_eq!(grid.cell_at(50.0, 50.0), Some((0, 0)));
        assert_eq!(grid.cell_at(55.9, 55.9), Some((0, 0)));
        assert_eq!(grid.cell_at(56.0, 56.0), Some((1, 1)));
        assert_eq!(grid.cell_at(949.0, 649.0), Some((149, 99)));
        assert_eq!(grid.cell_at(49.0, 60.0), None);
        assert_eq!(grid.cell_at(950.0, 60.0), None);
    }

    #[test]
    fn field_centre_is_the_canvas_centre() {
        for (w, l, bw, bh) in [(8, 10, 800, 600), (2, 2, 100, 100), (254, 254, 1000, 1000)] {
            let view = FieldView::fit(w, l, bw, bh);
            let (cx, cy) = view.point(i16::from(w / 2), i16::from(l / 2));
            assert!((cx - bw as i32 / 2).abs() <= 1, "{w}x{l}: x {cx}");
            assert!((cy - bh as i32 / 2).abs() <= 1, "{w}x{l}: y {cy}");
        }
    }

    #[test]
    fn a_zoomed_field_keeps_the_point_under_the_pointer() {
        let stage = FieldView::stage(30, 40, 1000, 700, 1.0);
        let fit = View::fit(stage);
        assert_eq!(FieldView::new(fit), FieldView::fit(30, 40, 1000, 700));
        let pointer = (400.0, 300.0);
        let before = FieldView::new(fit).field_at(pointer.0, pointer.1);
        for steps in [1, 4, -1] {
            let zoomed = FieldView::new(fit.zoom_steps(stage, steps, pointer));
            let (x, y) = zoomed.field_at(pointer.0, pointer.1);
            let off = (x - before.0).hypot(y - before.1) * f64::from(zoomed.square());
            assert!(off <= 1.0, "{steps} steps: {off} px off");
        }
        // Zooming out stops at half the fitted size.
        let out = fit.zoom_steps(stage, -10, pointer);
        assert_eq!(out.scale, fit.scale / 2);
    }

    #[test]
    fn field_keeps_a_square_of_margin_around_the_goals() {
        // 8×10 with goals and margin is 10 squares across and 14 down: 600/14 = 42 px squares.
        let view = FieldView::fit(8, 10, 800, 600);
        assert_eq!(view.square(), 42);
        let (_, top_goal) = view.point(4, -1);
        let (_, bottom_goal) = view.point(4, 11);
        assert!(top_goal >= 42, "{top_goal}");
        assert!(600 - bottom_goal >= 42, "{bottom_goal}");
    }
}
