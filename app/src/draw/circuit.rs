//! A Racetrack circuit: one square per cell, in the spec's display colours (§1).

use engine::racetrack::{Circuit, colour};

use super::css_rgb;
use crate::canvas::Surface;
use crate::geometry::Grid;

/// Paints `circuit` as large as fits, centred, and returns where its cells landed.
pub fn paint(surface: &Surface, circuit: &Circuit) -> Grid {
    let (cols, rows) = (Circuit::WIDTH, Circuit::HEIGHT);
    let grid = Grid::fit(cols as u32, rows as u32, 0, surface.width, surface.height);
    let cell = f64::from(grid.cell());
    let ctx = &surface.ctx;
    for y in 0..rows {
        // One rectangle per run of equal characters: a circuit is mostly long runs.
        let mut x = 0;
        while x < cols {
            let ch = circuit.cell(x, y);
            let run = (x..cols)
                .take_while(|&x2| circuit.cell(x2, y) == ch)
                .count() as i32;
            ctx.set_fill_style_str(&css_rgb(colour::rgb(ch)));
            ctx.fill_rect(
                f64::from(grid.x(x)),
                f64::from(grid.y(y)),
                f64::from(run) * cell,
                cell,
            );
            x += run;
        }
    }
    grid
}
