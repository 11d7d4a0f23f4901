//! Drawing the editor's canvas: the circuit bitmap scaled without smoothing, then the overlays
//! (grid, start zone, finish line, violations, optimal lap, selection, tool preview, pointer).
//!
//! Overlays sit on cell edges or are translucent and small, so the centre pixel of every cell
//! keeps the spec's colour (the e2e suite reads those pixels).

use engine::racetrack::conformity::Violation;
use engine::racetrack::{Circuit, FinishLine, Pos, colour};
use wasm_bindgen::{Clamped, JsCast};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ImageData};

use super::selection::{Floating, Rect};
use super::view::View;
use crate::canvas::Surface;

/// Everything the canvas shows besides the circuit itself.
pub struct Scene<'a> {
    pub view: View,
    pub ratio: f64,
    pub grid: bool,
    pub violations: &'a [Violation],
    pub finish: Option<FinishLine>,
    pub lap: Option<&'a [Pos]>,
    pub selection: Option<Rect>,
    pub floating: Option<&'a Floating>,
    /// Cells a shape tool would paint, and with what.
    pub preview: &'a [Pos],
    pub preview_ch: u8,
    /// The cells under the pointer that the tool would touch.
    pub hover: &'a [Pos],
}

/// A 150 × 100 canvas holding one pixel per cell: drawn scaled onto the visible canvas.
pub fn bitmap() -> Option<HtmlCanvasElement> {
    let canvas = web_sys::window()?
        .document()?
        .create_element("canvas")
        .ok()?
        .dyn_into::<HtmlCanvasElement>()
        .ok()?;
    canvas.set_width(Circuit::WIDTH as u32);
    canvas.set_height(Circuit::HEIGHT as u32);
    Some(canvas)
}

/// The RGBA pixels of `circuit`, one per cell.
pub fn rgba(circuit: &Circuit) -> Vec<u8> {
    circuit
        .cells()
        .iter()
        .flat_map(|&ch| {
            let [r, g, b] = colour::rgb(ch);
            [r, g, b, 255]
        })
        .collect()
}

/// Writes `circuit` into a [`bitmap`].
pub fn update_bitmap(bitmap: &HtmlCanvasElement, circuit: &Circuit) -> Option<()> {
    let ctx = context(bitmap)?;
    let pixels = rgba(circuit);
    let image = ImageData::new_with_u8_clamped_array_and_sh(
        Clamped(&pixels),
        Circuit::WIDTH as u32,
        Circuit::HEIGHT as u32,
    )
    .ok()?;
    // The offsets are `f64` or `i32` depending on the target: zero either way.
    ctx.put_image_data(&image, Default::default(), Default::default())
        .ok()
}

fn context(canvas: &HtmlCanvasElement) -> Option<CanvasRenderingContext2d> {
    canvas
        .get_context("2d")
        .ok()??
        .dyn_into::<CanvasRenderingContext2d>()
        .ok()
}

/// Draws the scene on `surface`.
pub fn draw(surface: &Surface, bitmap: &HtmlCanvasElement, scene: &Scene) {
    let ctx = &surface.ctx;
    let v = scene.view;
    let s = f64::from(v.scale);
    let (left, top) = (f64::from(v.left), f64::from(v.top));
    let (w, h) = (
        f64::from(Circuit::WIDTH) * s,
        f64::from(Circuit::HEIGHT) * s,
    );
    let px = scene.ratio.max(1.0).round();
    let rect = |x: i32, y: i32| (left + f64::from(x) * s, top + f64::from(y) * s);

    // The stage around the circuit, and a soft shadow under it.
    ctx.set_fill_style_str("#0b1220");
    ctx.fill_rect(
        0.0,
        0.0,
        f64::from(surface.width),
        f64::from(surface.height),
    );
    ctx.set_fill_style_str("rgba(0,0,0,0.45)");
    ctx.fill_rect(left + 3.0 * px, top + 4.0 * px, w, h);
    ctx.set_image_smoothing_enabled(false);
    let _ = ctx.draw_image_with_html_canvas_element_and_dw_and_dh(bitmap, left, top, w, h);

    // The cell grid, on the first pixel row/column of each cell.
    if scene.grid && v.scale >= 5 {
        ctx.set_fill_style_str("rgba(15,23,42,0.22)");
        for x in 1..Circuit::WIDTH {
            ctx.fill_rect(left + f64::from(x) * s, top, 1.0, h);
        }
        for y in 1..Circuit::HEIGHT {
            ctx.fill_rect(left, top + f64::from(y) * s, w, 1.0);
        }
    }

    // The start zone: a dashed frame just outside it.
    let (zx, zy) = rect(20, 2);
    ctx.set_stroke_style_str("#fbbf24");
    ctx.set_line_width(px);
    let dash = js_sys::Array::of2(&(4.0 * px).into(), &(3.0 * px).into());
    let _ = ctx.set_line_dash(&dash);
    ctx.stroke_rect(zx - px / 2.0, zy - px / 2.0, 40.0 * s + px, 5.0 * s + px);
    let _ = ctx.set_line_dash(&js_sys::Array::new());

    // The finish line.
    if let Some(line) = scene.finish {
        crate::draw::circuit::finish_line(surface, line, v.shared(), px);
    }

    // Violations: every offending cell tinted red, the first of each ringed.
    for violation in scene.violations {
        ctx.set_fill_style_str("rgba(239,68,68,0.55)");
        for p in violation.cells.iter().take(20_000) {
            let (x, y) = rect(p.x, p.y);
            ctx.fill_rect(x, y, s, s);
        }
        if let Some(&first) = violation.cells.first() {
            let (cx, cy) = v.centre_of(first);
            ctx.begin_path();
            let _ = ctx.arc(cx, cy, (4.0 * s).max(10.0 * px), 0.0, std::f64::consts::TAU);
            ctx.set_stroke_style_str("#ef4444");
            ctx.set_line_width(2.0 * px);
            ctx.stroke();
        }
    }

    // The optimal lap.
    if let Some(lap) = scene.lap {
        ctx.begin_path();
        for (i, &p) in lap.iter().enumerate() {
            let (cx, cy) = v.centre_of(p);
            if i == 0 {
                ctx.move_to(cx, cy);
            } else {
                ctx.line_to(cx, cy);
            }
        }
        ctx.set_stroke_style_str("rgba(251,191,36,0.95)");
        ctx.set_line_width(1.5 * px);
        ctx.stroke();
        ctx.set_fill_style_str("#fde68a");
        for &p in lap {
            let (cx, cy) = v.centre_of(p);
            ctx.begin_path();
            let _ = ctx.arc(cx, cy, (s / 4.0).max(1.5 * px), 0.0, std::f64::consts::TAU);
            ctx.fill();
        }
    }

    // The shape being drawn and the floating block.
    if !scene.preview.is_empty() {
        ctx.set_fill_style_str(&colour::css(scene.preview_ch));
        for p in scene.preview {
            let (x, y) = rect(p.x, p.y);
            ctx.fill_rect(x, y, s, s);
        }
    }
    if let Some(floating) = scene.floating {
        for (p, ch) in floating.block.placed(floating.at) {
            ctx.set_fill_style_str(&colour::css(ch));
            let (x, y) = rect(p.x, p.y);
            ctx.fill_rect(x, y, s, s);
        }
        let r = Rect::spanning(
            floating.at,
            Pos::new(
                floating.at.x + floating.block.width() - 1,
                floating.at.y + floating.block.height() - 1,
            ),
        );
        marching_ants(ctx, r, rect, s, px);
    } else {
        marching_ants(ctx, scene.selection, rect, s, px);
    }

    // What the tool would touch under the pointer.
    if !scene.hover.is_empty() {
        ctx.set_stroke_style_str("rgba(255,255,255,0.9)");
        ctx.set_line_width(px);
        let (mut x0, mut y0, mut x1, mut y1) = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
        for p in scene.hover {
            x0 = x0.min(p.x);
            y0 = y0.min(p.y);
            x1 = x1.max(p.x);
            y1 = y1.max(p.y);
        }
        let (x, y) = rect(x0, y0);
        ctx.stroke_rect(
            x + px / 2.0,
            y + px / 2.0,
            f64::from(x1 - x0 + 1) * s - px,
            f64::from(y1 - y0 + 1) * s - px,
        );
    }
}

fn marching_ants(
    ctx: &CanvasRenderingContext2d,
    selection: Option<Rect>,
    rect: impl Fn(i32, i32) -> (f64, f64),
    s: f64,
    px: f64,
) {
    let Some(r) = selection else { return };
    let (x, y) = rect(r.left, r.top);
    let (w, h) = (f64::from(r.width()) * s, f64::from(r.height()) * s);
    ctx.set_line_width(px);
    ctx.set_stroke_style_str("#ffffff");
    ctx.stroke_rect(x, y, w, h);
    let dash = js_sys::Array::of2(&(4.0 * px).into(), &(4.0 * px).into());
    let _ = ctx.set_line_dash(&dash);
    ctx.set_stroke_style_str("#0f172a");
    ctx.stroke_rect(x, y, w, h);
    let _ = ctx.set_line_dash(&js_sys::Array::new());
}

/// A PNG of `circuit`, `scale` pixels per cell, as a `data:` URL.
pub fn png_data_url(circuit: &Circuit, scale: u32) -> Option<String> {
    let small = bitmap()?;
    update_bitmap(&small, circuit)?;
    let big = bitmap()?;
    big.set_width(Circuit::WIDTH as u32 * scale);
    big.set_height(Circuit::HEIGHT as u32 * scale);
    let ctx = context(&big)?;
    ctx.set_image_smoothing_enabled(false);
    ctx.draw_image_with_html_canvas_element_and_dw_and_dh(
        &small,
        0.0,
        0.0,
        f64::from(big.width()),
        f64::from(big.height()),
    )
    .ok()?;
    big.to_data_url_with_type("image/png").ok()
}
