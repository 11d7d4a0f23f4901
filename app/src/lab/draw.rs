//! The lab's circuit canvas: the circuit, the finish line, every lap as a ghost car with its
//! trail, and the focused lap's fault (the offending move and cell) in red.

use std::f64::consts::TAU;

use engine::racetrack::Circuit;
use engine::racetrack::judge::Fault;
use engine::racetrack::physics::{self, Pos};

use super::lap::JudgedLap;
use crate::canvas::Surface;
use crate::zoom::View;

/// Lap colours, chosen to stand out on the grey track and the bright decor alike.
pub const LAP_COLOURS: [&str; 6] = [
    "#f59e0b", "#38bdf8", "#e879f9", "#a3e635", "#fb7185", "#a78bfa",
];

/// The colour of the lap with colour index `i`.
pub fn lap_colour(i: usize) -> &'static str {
    LAP_COLOURS[i % LAP_COLOURS.len()]
}

const FAULT: &str = "#ef4444";

/// What to draw.
pub struct Scene<'a> {
    pub circuit: &'a Circuit,
    /// The laps with their colour indices.
    pub laps: Vec<(usize, &'a JudgedLap)>,
    /// Moves shown.
    pub step: usize,
    /// The lap whose fault is highlighted (an index into `laps`).
    pub focus: Option<usize>,
}

/// Paints the scene with the cells where `grid` puts them; `px` is the device pixel ratio.
pub fn paint(surface: &Surface, scene: &Scene<'_>, grid: View, px: f64) {
    crate::draw::circuit::paint(surface, scene.circuit, grid);
    let cell = f64::from(grid.scale);
    if let Some(line) = physics::finish_line(scene.circuit) {
        crate::draw::circuit::finish_line(surface, line, grid, px.max(1.0).round());
    }
    for &(colour, lap) in &scene.laps {
        trail(surface, &grid, lap, scene.step, lap_colour(colour));
    }
    for &(colour, lap) in &scene.laps {
        if let Some(p) = lap.position_at(scene.step) {
            let (x, y) = centre(&grid, p);
            let ctx = &surface.ctx;
            ctx.begin_path();
            let _ = ctx.arc(x, y, (cell * 1.25).max(5.0), 0.0, TAU);
            ctx.set_fill_style_str(lap_colour(colour));
            ctx.fill();
            ctx.set_line_width((cell / 4.0).max(1.0));
            ctx.set_stroke_style_str("#0f172a");
            ctx.stroke();
        }
    }
    if let Some(&(_, lap)) = scene.focus.and_then(|i| scene.laps.get(i)) {
        fault(surface, &grid, lap);
    }
}

fn centre(grid: &View, p: Pos) -> (f64, f64) {
    grid.centre_of(p.x, p.y)
}

fn polyline(surface: &Surface, grid: &View, points: &[Pos]) {
    let ctx = &surface.ctx;
    ctx.begin_path();
    for (i, &p) in points.iter().enumerate() {
        let (x, y) = centre(grid, p);
        if i == 0 {
            ctx.move_to(x, y);
        } else {
            ctx.line_to(x, y);
        }
    }
    ctx.stroke();
}

/// The whole lap faintly, the part driven so far in full colour with a dot per position.
fn trail(surface: &Surface, grid: &View, lap: &JudgedLap, step: usize, colour: &str) {
    if lap.positions.is_empty() {
        return;
    }
    let cell = f64::from(grid.scale);
    let ctx = &surface.ctx;
    ctx.set_line_join("round");
    ctx.set_line_cap("round");
    ctx.set_global_alpha(0.3);
    ctx.set_stroke_style_str(colour);
    ctx.set_line_width((cell / 3.0).max(1.0));
    polyline(surface, grid, &lap.positions);
    ctx.set_global_alpha(1.0);
    let shown = &lap.positions[..(step + 1).min(lap.positions.len())];
    ctx.set_line_width((cell / 2.5).max(1.5));
    polyline(surface, grid, shown);
    ctx.set_fill_style_str(colour);
    for &p in shown {
        let (x, y) = centre(grid, p);
        ctx.begin_path();
        let _ = ctx.arc(x, y, (cell * 0.45).max(1.5), 0.0, TAU);
        ctx.fill();
    }
}

/// The fault in red: the offending move as a dashed segment, the cell it hit (collision), the
/// 3 × 3 box it should have stayed in (acceleration), or the start.
fn fault(surface: &Surface, grid: &View, lap: &JudgedLap) {
    let Some(fault) = lap.verdict.fault() else {
        return;
    };
    let cell = f64::from(grid.scale);
    let ctx = &surface.ctx;
    let outline = |p: Pos, q: Pos| {
        let x = f64::from(grid.left) + f64::from(p.x) * cell;
        let y = f64::from(grid.top) + f64::from(p.y) * cell;
        let w = f64::from(q.x - p.x + 1) * cell;
        let h = f64::from(q.y - p.y + 1) * cell;
        (x, y, w, h)
    };
    if let Some(k) = lap.fault_move() {
        // A dark casing under a red dashed line: visible on track, kerbs and decor alike.
        ctx.set_line_cap("round");
        ctx.set_stroke_style_str("#0f172a");
        ctx.set_line_width((cell * 0.9).max(3.0));
        polyline(surface, grid, &lap.positions[k - 1..=k]);
        let dash = js_sys::Array::of2(&(cell * 1.2).into(), &(cell * 0.8).into());
        let _ = ctx.set_line_dash(&dash);
        ctx.set_stroke_style_str(FAULT);
        ctx.set_line_width((cell / 2.0).max(2.0));
        polyline(surface, grid, &lap.positions[k - 1..=k]);
        let _ = ctx.set_line_dash(&js_sys::Array::new());
    }
    let ring = |p: Pos| {
        let (x, y) = centre(grid, p);
        for (colour, width) in [
            ("#0f172a", (cell * 0.8).max(3.0)),
            (FAULT, (cell * 0.4).max(1.5)),
        ] {
            ctx.begin_path();
            let _ = ctx.arc(x, y, (cell * 2.5).max(8.0), 0.0, TAU);
            ctx.set_line_width(width);
            ctx.set_stroke_style_str(colour);
            ctx.stroke();
        }
    };
    match fault {
        Fault::Collision { hit, .. } => {
            let (x, y, w, h) = outline(*hit, *hit);
            ctx.set_fill_style_str("#0f172a");
            ctx.fill_rect(
                x - cell * 0.25,
                y - cell * 0.25,
                w + cell * 0.5,
                h + cell * 0.5,
            );
            ctx.set_fill_style_str(FAULT);
            ctx.fill_rect(x, y, w, h);
            ring(*hit);
        }
        Fault::Acceleration { lo, hi, .. } => {
            // The 3 × 3 box the position had to lie in.
            let (x, y, w, h) = outline(*lo, *hi);
            ctx.set_fill_style_str("rgb(255 255 255 / 55%)");
            ctx.fill_rect(x, y, w, h);
            ctx.set_line_width((cell / 3.0).max(1.5));
            ctx.set_stroke_style_str("#0f172a");
            ctx.stroke_rect(x, y, w, h);
        }
        Fault::Start { found: Some(p) } | Fault::FirstMove { to: p } => ring(*p),
        Fault::DidNotFinish { .. } | Fault::AfterFinish { .. } => {
            if let Some(&p) = lap.positions.last() {
                ring(p);
            }
        }
        _ => {}
    }
}
