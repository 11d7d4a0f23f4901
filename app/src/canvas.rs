//! Browser glue for sharp canvases: size the buffer to CSS size × devicePixelRatio, and redraw
//! when the window is resized or zoomed.

use gloo_events::{EventListener, EventListenerOptions};
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, WheelEvent};
use yew::prelude::*;

use crate::geometry::buffer_size;

/// Calls `on_wheel` with every wheel event over `canvas`, from a listener that is not passive,
/// so that the handler can keep the wheel (and a touchpad pinch) from scrolling or zooming the
/// page: on a zoomable canvas the wheel zooms the drawing.
pub fn wheel_listener(
    canvas: &HtmlCanvasElement,
    on_wheel: impl Fn(WheelEvent) + 'static,
) -> EventListener {
    EventListener::new_with_options(
        canvas,
        "wheel",
        EventListenerOptions::enable_prevent_default(),
        move |e| {
            if let Some(e) = e.dyn_ref::<WheelEvent>() {
                on_wheel(e.clone());
            }
        },
    )
}

/// A canvas ready to draw on, in buffer pixels.
pub struct Surface {
    pub ctx: CanvasRenderingContext2d,
    pub width: u32,
    pub height: u32,
    /// The device pixel ratio the buffer was sized for (buffer pixels per CSS pixel).
    pub ratio: f64,
}

impl Surface {
    /// [`Surface::prepare`] for the canvas that `node` is attached to, handing back the canvas
    /// too (pages annotate it after drawing); `None` if `node` holds no canvas yet.
    pub fn prepare_node(node: &NodeRef) -> Option<(HtmlCanvasElement, Surface)> {
        let canvas = node.cast::<HtmlCanvasElement>()?;
        let surface = Surface::prepare(&canvas)?;
        Some((canvas, surface))
    }

    /// Resizes `canvas`'s buffer to its displayed size at the current pixel ratio and returns its
    /// 2D context; `None` if the browser refuses a 2D context.
    pub fn prepare(canvas: &HtmlCanvasElement) -> Option<Surface> {
        let ratio = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio());
        let css_width = f64::from(canvas.client_width());
        let css_height = f64::from(canvas.client_height());
        let (width, height) = buffer_size(css_width, css_height, ratio);
        if canvas.width() != width {
            canvas.set_width(width);
        }
        if canvas.height() != height {
            canvas.set_height(height);
        }
        let ctx = canvas
            .get_context("2d")
            .ok()??
            .dyn_into::<CanvasRenderingContext2d>()
            .ok()?;
        ctx.set_image_smoothing_enabled(false);
        ctx.clear_rect(0.0, 0.0, f64::from(width), f64::from(height));
        Some(Surface {
            ctx,
            width,
            height,
            ratio,
        })
    }
}

/// The window's size and pixel ratio: a value that changes whenever a canvas must be redrawn
/// (a zoom changes the ratio and fires `resize` too).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Viewport {
    pub width: f64,
    pub height: f64,
    pub ratio: f64,
}

impl Viewport {
    fn now() -> Viewport {
        let Some(window) = web_sys::window() else {
            return Viewport {
                width: 0.0,
                height: 0.0,
                ratio: 1.0,
            };
        };
        let read = |v: Result<wasm_bindgen::JsValue, _>| v.ok().and_then(|v| v.as_f64());
        Viewport {
            width: read(window.inner_width()).unwrap_or(0.0),
            height: read(window.inner_height()).unwrap_or(0.0),
            ratio: window.device_pixel_ratio(),
        }
    }
}

/// The current [`Viewport`], re-rendering the component when it changes.
#[hook]
pub fn use_viewport() -> Viewport {
    let viewport = use_state(Viewport::now);
    {
        let viewport = viewport.clone();
        use_effect_with((), move |_| {
            let listener = web_sys::window().map(|window| {
                EventListener::new(&window, "resize", move |_| viewport.set(Viewport::now()))
            });
            move || drop(listener)
        });
    }
    *viewport
}

/// Sets `data-<name>` on a canvas so tests and tools can read the layout that was drawn.
pub fn annotate(canvas: &HtmlCanvasElement, name: &str, value: impl ToString) {
    // Failing to set an attribute only loses a hint; drawing already happened.
    let _ = canvas.set_attribute(&format!("data-{name}"), &value.to_string());
}
