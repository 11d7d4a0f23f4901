//! A Racetrack circuit: one square per cell, in the spec's display colours (§1), and its finish
//! line, for every canvas that shows a circuit (the editor, the pilot lab).

use engine::racetrack::{Circuit, FinishLine, Pos, colour};

use super::css_rgb;
use crate::canvas::Surface;
use crate::zoom::View;

/// Paints `circuit` with its cells where `view` puts them.
pub fn paint(surface: &Surface, circuit: &Circuit, view: View) {
    let (cols, rows) = (Circuit::WIDTH, Circuit::HEIGHT);
    let cell = f64::from(view.scale);
    let ctx = &surface.ctx;
    for y in 0..rows {
        // One rectangle per run of equal characters: a circuit is mostly long runs.
        let mut x = 0;
        while x < cols {
            let ch = circuit.cell(Pos::new(x, y));
            let run = (x..cols)
                .take_while(|&x2| circuit.cell(Pos::new(x2, y)) == ch)
                .count() as i32;
            ctx.set_fill_style_str(&css_rgb(colour::rgb(ch)));
            ctx.fill_rect(
                f64::from(view.left) + f64::from(x) * cell,
                f64::from(view.top) + f64::from(y) * cell,
                f64::from(run) * cell,
                cell,
            );
            x += run;
        }
    }
}

/// The finish line: a chequered band along the left edge of column 40, the length of its run
/// of track. It lies on the cell edge (at most half a cell wide) so that the centre pixel of
/// every cell keeps the spec's colour; `px` is the device pixel ratio, rounded.
pub fn finish_line(surface: &Surface, line: FinishLine, view: View, px: f64) {
    let ctx = &surface.ctx;
    let s = f64::from(view.scale);
    let band = (2.0 * px).min(s / 2.0).max(1.0);
    let fx = f64::from(view.left) + f64::from(FinishLine::X) * s;
    let fy = f64::from(view.top) + f64::from(line.top) * s;
    let rows = line.bottom - line.top + 1;
    let squares = (f64::from(rows) * s / band).ceil() as i32;
    for i in 0..squares {
        ctx.set_fill_style_str(if i % 2 == 0 { "#ffffff" } else { "#111827" });
        let y = fy + f64::from(i) * band;
        let hgt = band.min(fy + f64::from(rows) * s - y);
        ctx.fill_rect(fx - band, y, band, hgt);
    }
}
