//! The speed plot: each lap's speed per move (km/h), with the replay's current move marked.

use super::draw::lap_colour;
use super::lap::JudgedLap;
use crate::canvas::Surface;

/// The smallest "round" value (1, 2 or 5 × a power of ten) at least `v`; at least 1.
pub fn nice_ceiling(v: f64) -> f64 {
    if !v.is_finite() || v <= 1.0 {
        return 1.0;
    }
    let power = 10f64.powf(v.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|&c| c >= v)
        .unwrap_or(10.0 * power)
}

/// Paints the plot: `laps` with their colour indices, `last` moves across, cursor at `step`;
/// `ratio` is the device pixel ratio (for text and line sizes).
pub fn paint(
    surface: &Surface,
    laps: &[(usize, &JudgedLap)],
    last: usize,
    step: usize,
    ratio: f64,
) {
    let ctx = &surface.ctx;
    let (w, h) = (f64::from(surface.width), f64::from(surface.height));
    let (left, right, top, bottom) = (46.0 * ratio, 12.0 * ratio, 22.0 * ratio, 24.0 * ratio);
    let (pw, ph) = ((w - left - right).max(1.0), (h - top - bottom).max(1.0));
    let series: Vec<(usize, Vec<f64>)> = laps.iter().map(|(c, l)| (*c, l.speeds())).collect();
    let top_speed = series
        .iter()
        .flat_map(|(_, s)| s.iter().copied())
        .fold(0.0, f64::max);
    let y_max = nice_ceiling(top_speed.max(100.0));
    let x_max = last.max(1) as f64;
    let px = |k: f64| left + k / x_max * pw;
    let py = |v: f64| top + ph - (v / y_max).min(1.5) * ph;

    ctx.set_font(&format!(
        "{}px system-ui, sans-serif",
        (11.0 * ratio).round()
    ));
    ctx.set_line_width(ratio.max(1.0));
    ctx.set_fill_style_str("#64748b");
    ctx.set_text_baseline("middle");
    ctx.set_text_align("right");
    for i in 0..=4 {
        let v = y_max * f64::from(i) / 4.0;
        let y = py(v).round() + 0.5;
        ctx.set_stroke_style_str(if i == 0 { "#94a3b8" } else { "#e2e8f0" });
        ctx.begin_path();
        ctx.move_to(left, y);
        ctx.line_to(left + pw, y);
        ctx.stroke();
        let _ = ctx.fill_text(&format!("{v:.0}"), left - 6.0 * ratio, y);
    }
    ctx.set_text_align("center");
    ctx.set_text_baseline("top");
    let tick = nice_ceiling(x_max / 8.0).max(1.0);
    let mut k = 0.0;
    while k <= x_max {
        let _ = ctx.fill_text(&format!("{k:.0}"), px(k), top + ph + 6.0 * ratio);
        k += tick;
    }
    ctx.set_text_align("left");
    ctx.set_text_baseline("top");
    let _ = ctx.fill_text("km/h", 4.0 * ratio, 0.0);

    let cursor = px(step as f64).round() + 0.5;
    ctx.set_stroke_style_str("#0f172a");
    ctx.set_global_alpha(0.35);
    ctx.begin_path();
    ctx.move_to(cursor, top);
    ctx.line_to(cursor, top + ph);
    ctx.stroke();
    ctx.set_global_alpha(1.0);

    ctx.set_line_width(2.0 * ratio);
    ctx.set_line_join("round");
    for (colour, speeds) in &series {
        ctx.set_stroke_style_str(lap_colour(*colour));
        ctx.begin_path();
        for (i, &v) in speeds.iter().enumerate() {
            // Move k = i + 1 ends at x = k.
            let (x, y) = (px((i + 1) as f64), py(v));
            if i == 0 {
                ctx.move_to(px(0.0), py(0.0));
            }
            ctx.line_to(x, y);
        }
        ctx.stroke();
        if let Some(&v) = speeds.get(step.wrapping_sub(1)).filter(|_| step >= 1) {
            ctx.set_fill_style_str(lap_colour(*colour));
            ctx.begin_path();
            let _ = ctx.arc(
                px(step as f64),
                py(v),
                3.5 * ratio,
                0.0,
                std::f64::consts::TAU,
            );
            ctx.fill();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nice_ceilings() {
        assert_eq!(nice_ceiling(0.0), 1.0);
        assert_eq!(nice_ceiling(f64::NAN), 1.0);
        assert_eq!(nice_ceiling(3.0), 5.0);
        assert_eq!(nice_ceiling(50.0), 50.0);
        assert_eq!(nice_ceiling(51.0), 100.0);
        assert_eq!(nice_ceiling(180.0), 200.0);
        assert_eq!(nice_ceiling(201.0), 500.0);
    }
}
