//! Browser glue for sharp canvases: size the buffer to CSS size × devicePixelRatio, and redraw
//! when the window is resized or zoomed.

use gloo_events::{EventListener, EventListenerOptions};
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, HtmlElement, WheelEvent};
use yew::prelude::*;

use crate::geometry::buffer_size;
use crate::gesture::{Pointer, WheelInput};

/// Where a mouse, pointer or wheel event happened over the canvas `node`, in the canvas'
/// buffer pixels (its CSS pixels times the buffer's scale, see [`Surface::prepare`]).
pub fn buffer_point(node: &NodeRef, event: &MouseEvent) -> (f64, f64) {
    let scale = node.cast::<HtmlCanvasElement>().map_or(1.0, |c| {
        f64::from(c.width()) / f64::from(c.client_width().max(1))
    });
    (
        css_px(event.offset_x()) * scale,
        css_px(event.offset_y()) * scale,
    )
}

/// A CSS pixel value as a float: web-sys types offsets and scroll positions as `f64` for
/// wasm32 and `i32` elsewhere.
pub fn css_px(value: impl Into<f64>) -> f64 {
    value.into()
}

/// A pointer event over the zoomable canvas `node` as a page's input: `down`, `moved` or `up`
/// of the gesture machine's [`Pointer`] (buffer pixels); `None` for other events. A press
/// captures the pointer, so that a drag that leaves the canvas still ends on it.
pub fn pointer_input<T>(
    node: &NodeRef,
    event: &PointerEvent,
    [down, moved, up]: [fn(Pointer) -> T; 3],
) -> Option<T> {
    let pointer = Pointer {
        id: event.pointer_id(),
        at: buffer_point(node, event),
        button: event.button(),
        touch: event.pointer_type() == "touch",
    };
    Some(match event.type_().as_str() {
        "pointerdown" => {
            if let Some(canvas) = node.cast::<HtmlElement>() {
                let _ = canvas.set_pointer_capture(event.pointer_id());
            }
            down(pointer)
        }
        "pointermove" => moved(pointer),
        "pointerup" | "pointercancel" => up(pointer),
        _ => return None,
    })
}

/// [`wheel_listener`] on the zoomable canvas `node` (if it holds one yet), handing `on_wheel`
/// each event as a [`WheelInput`]; the page's scrolling is kept from it.
pub fn zoom_wheel_listener(
    node: &NodeRef,
    on_wheel: impl Fn(WheelInput) + 'static,
) -> Option<EventListener> {
    let canvas = node.cast::<HtmlCanvasElement>()?;
    let node = node.clone();
    Some(wheel_listener(&canvas, move |event| {
        event.prevent_default();
        on_wheel(WheelInput {
            delta_y: event.delta_y(),
            mode: event.delta_mode(),
            ctrl: event.ctrl_key() || event.meta_key(),
            at: buffer_point(&node, &event),
        });
    }))
}

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
