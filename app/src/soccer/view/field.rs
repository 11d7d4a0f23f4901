//! The field's canvas: drawing the position shown, turning pointer positions into field
//! points, and the listeners yew cannot attach (a wheel that may cancel, the space bar held).

use engine::soccer::field::{Field, dir_between};
use engine::soccer::game::Game;
use engine::soccer::{Point, Side};
use gloo_events::{EventListener, EventListenerOptions};
use wasm_bindgen::JsCast;
use web_sys::{
    HtmlCanvasElement, HtmlElement, KeyboardEvent, MouseEvent, PointerEvent, WheelEvent,
};
use yew::{Callback, Html, NodeRef, html};

use crate::canvas::{Surface, annotate, buffer_point};
use crate::draw::soccer::{Scene, Target, paint};
use crate::geometry::FieldView;
use crate::soccer::camera::{Camera, Touchdown};
use crate::soccer::keys::{KeyAction, key_action};
use crate::soccer::recorded::RecordedGame;
use crate::soccer::session::{Moment, Session};
use crate::soccer::setup::DEFAULT_SIZE;

/// The field's canvas and its camera: what the page's pointer, wheel and key events do to
/// the view, and where a click lands.
#[derive(Default)]
pub struct FieldCanvas {
    pub node: NodeRef,
    /// The field's zoom and pan, and the layout of the last drawing (to turn clicks into
    /// points).
    pub camera: Camera,
    /// Where the pointer last was over the canvas, in buffer pixels.
    hover: Option<(f64, f64)>,
    /// The wheel, space bar and blur listeners (the wheel one must be able to cancel).
    listeners: Vec<EventListener>,
}

/// What happened on the canvas, for the page to handle.
pub enum CanvasEvent {
    Key(KeyboardEvent),
    Click(MouseEvent),
    Down(PointerEvent),
    Move(PointerEvent),
    /// A pointer went up or was cancelled.
    Up(PointerEvent),
}

impl FieldCanvas {
    /// The canvas, its state in `data-` attributes for tests (`state`, `legal`, `to-move`),
    /// and its events sent to `on`. `preview` names the field before the first game.
    pub fn view(&self, session: &Session, preview: &str, on: &Callback<CanvasEvent>) -> Html {
        let to_move = session
            .shown()
            .filter(|r| r.outcome().is_none())
            .map(|r| r.to_move().name());
        let label = session
            .shown()
            .map_or_else(|| preview.to_owned(), |r| r.field().to_string());
        html! {
            <canvas ref={self.node.clone()} class="board-canvas soccer-board" tabindex="0"
                    data-testid="soccer-board" data-state={session.state_name()}
                    data-legal={session.legal_digits()} data-to-move={to_move}
                    aria-label={format!("Paper Soccer field {label}: digits 0–7 or a click step the ball, Backspace takes a step back; the wheel or + and − zoom, dragging the paper (or anything with the space bar held) pans")}
                    onkeydown={on.reform(CanvasEvent::Key)}
                    onclick={on.reform(CanvasEvent::Click)}
                    onpointerdown={on.reform(CanvasEvent::Down)}
                    onpointermove={on.reform(CanvasEvent::Move)}
                    onpointerup={on.reform(CanvasEvent::Up)}
                    onpointercancel={on.reform(CanvasEvent::Up)} />
        }
    }

    /// Attaches the listeners yew cannot (the wheel, the space bar); once, after the first
    /// render.
    pub fn listen(&mut self, on_wheel: Callback<WheelEvent>, on_space: Callback<bool>) {
        self.listeners = listen(&self.node, on_wheel, on_space);
    }

    /// Draws `session`'s position, or the empty `preview` field before the first game.
    pub fn draw(&mut self, session: &Session, preview: Option<Field>) {
        draw(&self.node, &mut self.camera, session, preview);
    }

    /// Gives the canvas the keyboard focus.
    pub fn focus(&self) {
        if let Some(canvas) = self.node.cast::<HtmlElement>() {
            let _ = canvas.focus();
        }
    }

    /// A key pressed on the canvas: a step, a take-back or a zoom (the page's default action
    /// kept from it); false for any other key.
    pub fn key(&mut self, event: &KeyboardEvent, session: &mut Session, at: Moment) -> bool {
        let Some(action) = key_action(&event.key(), &event.code()) else {
            return false;
        };
        event.prevent_default();
        match action {
            KeyAction::Step(dir) => session.step(dir, at),
            KeyAction::TakeBack => session.take_back(),
            KeyAction::Zoom(steps) => self.camera.zoom(steps),
        }
        true
    }

    /// The field point a click chose, unless the press was a pan or missed every point.
    pub fn clicked(&mut self, event: &MouseEvent) -> Option<Point> {
        if !self.camera.click_plays() {
            return None;
        }
        self.focus();
        let (px, py) = buffer_point(&self.node, event);
        self.camera.layout().and_then(|v| point_near(&v, px, py))
    }

    /// Whether a click at buffer point `at` would step the ball (a drag from there is a
    /// click, unless the space bar is held).
    fn on_target(&self, session: &Session, at: (f64, f64)) -> bool {
        let (Some(layout), Some(live)) = (self.camera.layout(), session.live()) else {
            return false;
        };
        session.local_turn()
            && point_near(&layout, at.0, at.1)
                .is_some_and(|p| dir_between(live.game().ball(), p).is_some())
    }

    /// Shows what a press where the pointer is would do, in the canvas' `data-pan` (which the
    /// style sheet turns into a cursor): set on the element, not through a render.
    pub fn show_cursor(&self, session: &Session) {
        let Some(canvas) = self.node.cast::<HtmlCanvasElement>() else {
            return;
        };
        let on_target = self.hover.is_some_and(|at| self.on_target(session, at));
        annotate(&canvas, "pan", self.camera.cursor(on_target).name());
    }

    /// The space bar went down or up: held, any drag pans.
    pub fn hold_space(&mut self, down: bool, session: &Session) {
        self.camera.hold_space(down);
        self.show_cursor(session);
    }

    /// Zooms about the pointer; returns whether the zoom changed (its label must follow).
    pub fn wheel(&mut self, event: &WheelEvent, session: &Session) -> bool {
        event.prevent_default();
        let ctrl = event.ctrl_key() || event.meta_key();
        let at = buffer_point(&self.node, event);
        let zoomed = self
            .camera
            .wheel(event.delta_y(), event.delta_mode(), ctrl, at);
        if zoomed {
            self.draw(session, None);
        }
        zoomed
    }

    pub fn pointer_down(&mut self, event: &PointerEvent, session: &Session) {
        let at = buffer_point(&self.node, event);
        if let Some(canvas) = self.node.cast::<HtmlElement>() {
            let _ = canvas.focus();
            let _ = canvas.set_pointer_capture(event.pointer_id());
        }
        if event.button() == 1 {
            // Not the browser's autoscroll: the middle button pans.
            event.prevent_default();
        }
        self.camera.down(Touchdown {
            pointer: event.pointer_id(),
            at,
            button: event.button(),
            touch: event.pointer_type() == "touch",
            on_target: self.on_target(session, at),
        });
    }

    pub fn pointer_move(&mut self, event: &PointerEvent, session: &Session) {
        let at = buffer_point(&self.node, event);
        let moved = self.camera.moved(event.pointer_id(), at);
        self.hover = Some(at);
        self.show_cursor(session);
        if moved {
            // Only the canvas changed (a pinch's zoom label follows when it ends).
            self.draw(session, None);
        }
    }

    pub fn pointer_up(&mut self, event: &PointerEvent, session: &Session) {
        self.camera.up(event.pointer_id());
        self.show_cursor(session);
    }
}

/// Draws the game `session` shows on the canvas of `node` (or, before the first game, the
/// empty field `preview`, else the one drawn last), through `camera`, and writes the layout
/// into the canvas' `data-` attributes for tests.
fn draw(node: &NodeRef, camera: &mut Camera, session: &Session, preview: Option<Field>) {
    let Some((canvas, surface)) = Surface::prepare_node(node) else {
        return;
    };
    let empty;
    let recorded = match session.shown() {
        Some(recorded) => recorded,
        None => {
            let field = preview.unwrap_or_else(|| last_field(&canvas));
            empty = RecordedGame::new(field, Side::Red);
            &empty
        }
    };
    let game = recorded.game();
    let field = *game.field();
    let predrawn = field.predrawn_segments();
    let mut lines = recorded.lines();
    let mut ball = game.ball();
    if let Some(shown) = session.animating() {
        lines.truncate(shown);
        ball = lines.last().map_or(field.centre(), |line| line.1);
    }
    let targets = if session.local_turn() {
        targets(game)
    } else {
        Vec::new()
    };
    let scene = Scene {
        width: field.width(),
        length: field.length(),
        predrawn: &predrawn,
        lines: &lines,
        ball,
        targets: &targets,
        suggestion: session.suggestion_path(),
    };
    let stage = FieldView::stage(
        field.width(),
        field.length(),
        surface.width,
        surface.height,
        surface.ratio,
    );
    let layout = camera.shoot(stage, ball);
    paint(&surface, &scene, layout);
    let (x0, y0) = layout.point(0, 0);
    let (bx, by) = layout.point(ball.x, ball.y);
    annotate(&canvas, "field", field);
    annotate(&canvas, "square", layout.square());
    annotate(&canvas, "origin", format!("{x0},{y0}"));
    annotate(&canvas, "ball", format!("{bx},{by}"));
    annotate(&canvas, "zoom", camera.label());
}

/// The field of the canvas' last drawing (kept while the size typed is not a field).
fn last_field(canvas: &HtmlCanvasElement) -> Field {
    canvas
        .get_attribute("data-field")
        .and_then(|text| {
            let (w, l) = text.split_once('x')?;
            crate::soccer::setup::parse_size(w, l).ok()
        })
        .unwrap_or_else(|| {
            Field::new(DEFAULT_SIZE.0, DEFAULT_SIZE.1).expect("8×10 is a legal field")
        })
}

/// The steps open from the ball, each marked when arriving there means stepping again.
fn targets(game: &Game) -> Vec<Target> {
    game.legal_steps()
        .into_iter()
        .map(|dir| {
            let at = game.ball().step(dir);
            Target {
                at,
                bounce: game.is_bounce_point(at),
            }
        })
        .collect()
}

/// The field point nearest to buffer pixel `(px, py)`, if the pixel is within 0.45 squares.
fn point_near(view: &FieldView, px: f64, py: f64) -> Option<Point> {
    let (x0, y0) = view.point(0, 0);
    let square = f64::from(view.square().max(1));
    let fx = (px - f64::from(x0)) / square;
    let fy = (py - f64::from(y0)) / square;
    let (rx, ry) = (fx.round(), fy.round());
    let near = (fx - rx).hypot(fy - ry) <= 0.45;
    let fits = |v: f64| v.abs() < 1000.0;
    (near && fits(rx) && fits(ry)).then(|| Point::new(rx as i16, ry as i16))
}

/// Listens where yew cannot: the wheel over the canvas (not passive, so it zooms instead of
/// scrolling the page) and the space bar held anywhere but in a form field (`on_space` gets
/// `true` when it goes down, `false` when it goes up or the window loses focus).
fn listen(
    node: &NodeRef,
    on_wheel: Callback<WheelEvent>,
    on_space: Callback<bool>,
) -> Vec<EventListener> {
    let Some(window) = web_sys::window() else {
        return Vec::new();
    };
    let mut listeners = Vec::new();
    if let Some(canvas) = node.cast::<HtmlCanvasElement>() {
        listeners.push(crate::canvas::wheel_listener(&canvas, move |e| {
            on_wheel.emit(e)
        }));
    }
    let active = EventListenerOptions::enable_prevent_default();
    for (kind, down) in [("keydown", true), ("keyup", false)] {
        let on_space = on_space.clone();
        listeners.push(EventListener::new_with_options(
            &window,
            kind,
            active,
            move |e| {
                let Some(e) = e.dyn_ref::<KeyboardEvent>() else {
                    return;
                };
                if e.key() != " " {
                    return;
                }
                let tag = e
                    .target()
                    .and_then(|t| t.dyn_into::<HtmlElement>().ok())
                    .map(|el| el.tag_name());
                // Space types in fields and presses buttons; elsewhere it is held to pan.
                if matches!(
                    tag.as_deref(),
                    Some("INPUT" | "SELECT" | "TEXTAREA" | "BUTTON")
                ) {
                    return;
                }
                e.prevent_default();
                if !(down && e.repeat()) {
                    on_space.emit(down);
                }
            },
        ));
    }
    listeners.push(EventListener::new(&window, "blur", move |_| {
        on_space.emit(false)
    }));
    listeners
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clicks_land_on_the_nearest_point() {
        // 8×10 in 800×600: 42 px squares; point (0, 0) is at view.point(0, 0).
        let view = FieldView::fit(8, 10, 800, 600);
        let (x0, y0) = view.point(0, 0);
        let (x0, y0) = (f64::from(x0), f64::from(y0));
        assert_eq!(point_near(&view, x0, y0), Some(Point::new(0, 0)));
        assert_eq!(
            point_near(&view, x0 + 42.0 * 4.0 + 10.0, y0 + 42.0 * 5.0 - 8.0),
            Some(Point::new(4, 5))
        );
        assert_eq!(
            point_near(&view, x0 + 21.0, y0 + 21.0),
            None,
            "the middle of a square"
        );
        assert_eq!(
            point_near(&view, x0 + 42.0 * 4.0, y0 - 42.0),
            Some(Point::new(4, -1))
        );
    }

    #[test]
    fn targets_mark_bounce_points() {
        let field = Field::new(8, 10).unwrap();
        let game = Game::new(field, Side::Red);
        let targets = targets(&game);
        // From the centre: E and W run along the centre line; the other six steps are open
        // and land on points no line touches yet.
        assert_eq!(targets.len(), 6);
        for target in &targets {
            assert!(!target.bounce, "{:?}", target.at);
        }
    }
}
