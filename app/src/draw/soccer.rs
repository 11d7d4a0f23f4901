//! A Paper Soccer field on squared paper: the grid, the goals, the lines drawn before the first
//! move (from `engine`), the lines of the game so far, and the ball.

use engine::soccer::{Point, Side};
use std::f64::consts::TAU;

use crate::canvas::Surface;
use crate::geometry::FieldView;

/// The squared paper inside the field.
pub const PAPER: &str = "#fdfcf7";
/// The faint squares.
pub const GRID: &str = "#d8e0ec";
/// Lines drawn before the first move: borders, goal boxes, centre line.
pub const BORDER: &str = "#1e293b";
/// Lines drawn by red and by blue.
pub const RED_LINE: &str = "#dc2626";
pub const BLUE_LINE: &str = "#2563eb";
/// Points the ball may step to.
const LEGAL: &str = "#16a34a";
/// … of which those where the mover must step again.
const BOUNCE: &str = "#d97706";
/// The engine's suggested turn.
const SUGGESTION: &str = "rgb(124 58 237 / 85%)";
/// The ball (amber, unlike anything else on the field).
pub const BALL: &str = "#f59e0b";
const BALL_RIM: &str = "#92400e";
/// Red's goal is at the top, blue's at the bottom (spec §1).
const RED_GOAL: &str = "#fde2e2";
const BLUE_GOAL: &str = "#dde8fd";
const RED_INK: &str = "#dc2626";
const BLUE_INK: &str = "#2563eb";

/// A point the ball may step to now, and whether arriving there means stepping again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    pub at: Point,
    pub bounce: bool,
}

/// What to draw: the field's size and the lines and ball the engine reports.
pub struct Scene<'a> {
    pub width: u8,
    pub length: u8,
    pub predrawn: &'a [(Point, Point)],
    /// The players' lines, each with the side that drew it.
    pub lines: &'a [(Point, Point, Side)],
    pub ball: Point,
    /// The steps open to a player at this screen (empty when it is not their turn).
    pub targets: &'a [Target],
    /// The points of a suggested turn, starting at the ball (empty for none).
    pub suggestion: &'a [Point],
}

/// Paints `scene` in `surface` where `view` (zoomed and panned by the page) lays it out.
pub fn paint(surface: &Surface, scene: &Scene<'_>, view: FieldView) {
    let ctx = &surface.ctx;
    let square = f64::from(view.square());
    let (w, l) = (i16::from(scene.width), i16::from(scene.length));
    let m = w / 2;
    let at = |x: i16, y: i16| {
        let (px, py) = view.point(x, y);
        (f64::from(px), f64::from(py))
    };

    // Paper and goal mouths.
    let (left, top) = at(0, 0);
    ctx.set_fill_style_str(PAPER);
    ctx.fill_rect(left, top, f64::from(w) * square, f64::from(l) * square);
    for (y, tint) in [(-1, RED_GOAL), (l, BLUE_GOAL)] {
        let (gx, gy) = at(m - 1, y);
        ctx.set_fill_style_str(tint);
        ctx.fill_rect(gx, gy, 2.0 * square, square);
    }

    // Squares: 1-pixel lines centred on pixel columns and rows, so they stay sharp.
    ctx.set_stroke_style_str(GRID);
    ctx.set_line_width(1.0);
    ctx.begin_path();
    for x in 0..=w {
        let (px, py) = at(x, 0);
        ctx.move_to(px + 0.5, py);
        ctx.line_to(px + 0.5, py + f64::from(l) * square);
    }
    for y in 0..=l {
        let (px, py) = at(0, y);
        ctx.move_to(px, py + 0.5);
        ctx.line_to(px + f64::from(w) * square, py + 0.5);
    }
    for (from, to) in [(-1, 0), (l, l + 1)] {
        let (px, py0) = at(m, from);
        let (_, py1) = at(m, to);
        ctx.move_to(px + 0.5, py0);
        ctx.line_to(px + 0.5, py1);
    }
    ctx.stroke();

    // Lines: an even width centred on the grid line covers whole pixels on both sides.
    let thick = 2.0 * (square / 20.0).round().max(1.0);
    stroke_segments(surface, &view, scene.predrawn, BORDER, thick);
    for (side, colour) in [(Side::Red, RED_LINE), (Side::Blue, BLUE_LINE)] {
        let mine: Vec<(Point, Point)> = scene
            .lines
            .iter()
            .filter(|line| line.2 == side)
            .map(|&(a, b, _)| (a, b))
            .collect();
        stroke_segments(surface, &view, &mine, colour, thick);
    }
    paint_suggestion(surface, &view, scene.suggestion, thick);
    paint_targets(surface, &view, scene.targets);

    // Whose goal is whose, in the margin.
    let font_px = (square * 0.4).clamp(9.0, 22.0);
    if square * 0.9 >= font_px {
        ctx.set_font(&format!("600 {font_px}px system-ui, sans-serif"));
        ctx.set_text_align("center");
        let (cx, _) = at(m, 0);
        let (_, red_y) = at(m, -1);
        let (_, blue_y) = at(m, l + 1);
        ctx.set_text_baseline("bottom");
        ctx.set_fill_style_str(RED_INK);
        let _ = ctx.fill_text("red's goal", cx, red_y - square * 0.15);
        ctx.set_text_baseline("top");
        ctx.set_fill_style_str(BLUE_INK);
        let _ = ctx.fill_text("blue's goal", cx, blue_y + square * 0.15);
    }

    // The ball, last, on top of every line.
    let (bx, by) = at(scene.ball.x, scene.ball.y);
    let radius = (square * 0.28).max(3.0);
    ctx.begin_path();
    let _ = ctx.arc(bx, by, radius, 0.0, TAU);
    ctx.set_fill_style_str(BALL);
    ctx.fill();
    ctx.set_stroke_style_str(BALL_RIM);
    ctx.set_line_width((radius / 6.0).max(1.0));
    ctx.stroke();
}

fn stroke_segments(
    surface: &Surface,
    view: &FieldView,
    segments: &[(Point, Point)],
    colour: &str,
    width: f64,
) {
    let ctx = &surface.ctx;
    ctx.set_stroke_style_str(colour);
    ctx.set_line_width(width);
    ctx.set_line_cap("round");
    ctx.begin_path();
    for (a, b) in segments {
        let (ax, ay) = view.point(a.x, a.y);
        let (bx, by) = view.point(b.x, b.y);
        ctx.move_to(f64::from(ax), f64::from(ay));
        ctx.line_to(f64::from(bx), f64::from(by));
    }
    ctx.stroke();
}

/// A dashed path along the suggested turn.
fn paint_suggestion(surface: &Surface, view: &FieldView, path: &[Point], thick: f64) {
    if path.len() < 2 {
        return;
    }
    let ctx = &surface.ctx;
    let square = f64::from(view.square());
    let dashes = js_sys::Array::of2(&(square * 0.18).into(), &(square * 0.12).into());
    let _ = ctx.set_line_dash(&dashes);
    ctx.set_stroke_style_str(SUGGESTION);
    ctx.set_line_width(thick.max(2.0));
    ctx.begin_path();
    for (i, p) in path.iter().enumerate() {
        let (x, y) = view.point(p.x, p.y);
        if i == 0 {
            ctx.move_to(f64::from(x), f64::from(y));
        } else {
            ctx.line_to(f64::from(x), f64::from(y));
        }
    }
    ctx.stroke();
    let _ = ctx.set_line_dash(&js_sys::Array::new());
}

/// Rings on the points the ball may step to; a bounce point gets a filled dot inside its ring
/// (arriving there means stepping again). Rings stay within a third of a square, so they never
/// cover the middle of a line.
fn paint_targets(surface: &Surface, view: &FieldView, targets: &[Target]) {
    let ctx = &surface.ctx;
    let square = f64::from(view.square());
    let radius = (square * 0.26).max(3.0);
    for target in targets {
        let (x, y) = view.point(target.at.x, target.at.y);
        let (x, y) = (f64::from(x), f64::from(y));
        let colour = if target.bounce { BOUNCE } else { LEGAL };
        ctx.begin_path();
        let _ = ctx.arc(x, y, radius, 0.0, TAU);
        ctx.set_stroke_style_str(colour);
        ctx.set_line_width((radius / 4.0).max(1.5));
        ctx.stroke();
        if target.bounce {
            ctx.begin_path();
            let _ = ctx.arc(x, y, radius * 0.45, 0.0, TAU);
            ctx.set_fill_style_str(colour);
            ctx.fill();
        }
    }
}
