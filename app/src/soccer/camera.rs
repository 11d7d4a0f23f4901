//! The field's zoom and pan as the wheel, the pointer and the zoom keys drive it, free of
//! browser types so every gesture is unit-tested: the wheel zooms about the pointer, a press
//! that moves past [`PAN_THRESHOLD`] from empty paper (anywhere with the space bar held, or with
//! the middle button) drags the field, two fingers pinch, and a press that does not move is a
//! click, which steps the ball exactly as before. The arithmetic is the shared [`crate::zoom`]'s.

use engine::soccer::Point;

use crate::geometry::FieldView;
use crate::zoom::{Stage, View, Wheel};

/// How far (CSS pixels) a press must move before it pans: less is a click, which plays.
pub const PAN_THRESHOLD: f64 = 4.0;

/// The part of the frame the ball may leave before the view follows it, on each side.
const FOLLOW_MARGIN: f64 = 0.2;

/// The middle mouse button, which always pans.
const MIDDLE_BUTTON: i16 = 1;

/// A pointer going down on the field.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Touchdown {
    /// The pointer's id (each finger has its own).
    pub pointer: i32,
    /// Where, in buffer pixels.
    pub at: (f64, f64),
    /// `MouseEvent.button`: 0 the primary button, 1 the middle one.
    pub button: i16,
    /// Whether it is a finger.
    pub touch: bool,
    /// Whether a click there would step the ball (a drag from there is a click, not a pan).
    pub on_target: bool,
}

/// What a press on the field is doing.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Press {
    /// Down at `start`: a click, or a pan once it moves far enough if `pans`.
    Down {
        pointer: i32,
        start: (f64, f64),
        pans: bool,
    },
    /// Dragging the field: the view `from` moves with the pointer since `start`.
    Panning {
        pointer: i32,
        from: View,
        start: (f64, f64),
    },
    /// Two fingers: zoom and pan from `from`, the view when the second finger landed.
    Pinch {
        from: View,
        distance: f64,
        middle: (f64, f64),
    },
}

/// The cursor that tells what a press would do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cursor {
    /// A press plays (the page's usual pointer).
    Click,
    /// A drag would pan.
    Grab,
    /// Panning now.
    Grabbing,
}

impl Cursor {
    /// The value of the canvas' `data-pan` attribute, which the style sheet turns into a cursor.
    pub fn name(self) -> &'static str {
        match self {
            Cursor::Click => "",
            Cursor::Grab => "ready",
            Cursor::Grabbing => "active",
        }
    }
}

/// The zoom and pan of one field canvas, and the gesture under way.
#[derive(Clone, Debug, Default)]
pub struct Camera {
    /// The canvas and field the view was last laid out in, and the view.
    shot: Option<(Stage, View)>,
    /// The ball the view last followed, to re-centre only when it moves.
    followed: Option<Point>,
    wheel: Wheel,
    press: Option<Press>,
    /// Fingers down, at buffer points.
    touches: Vec<(i32, (f64, f64))>,
    space: bool,
    /// Set when a pan ends: the click the browser sends after it is not a step.
    swallow_click: bool,
}

impl Camera {
    /// The layout to draw the field of `stage` with, the ball at `ball`: the view kept, kept
    /// and re-clamped after a resize, or fitted to a new field (or when it was fitted); moved
    /// to the ball when the ball moved out of the middle of a zoomed-in view.
    pub fn shoot(&mut self, stage: Stage, ball: Point) -> FieldView {
        let same_field = |old: &Stage| (old.cols, old.rows) == (stage.cols, stage.rows);
        let mut view = match self.shot {
            Some((old, view)) if old == stage => view,
            Some((old, view)) if same_field(&old) && view != View::fit(old) => {
                view.zoom_to(stage, view.scale, (0.0, 0.0))
            }
            _ => View::fit(stage),
        };
        if self.followed.replace(ball) != Some(ball) && !view.shows_all(stage) {
            let (bx, by) = FieldView::new(view).point(ball.x, ball.y);
            let (bx, by) = (f64::from(bx), f64::from(by));
            let (w, h) = (f64::from(stage.width), f64::from(stage.height));
            let outside =
                |v: f64, side: f64| v < side * FOLLOW_MARGIN || v > side * (1.0 - FOLLOW_MARGIN);
            if outside(bx, w) || outside(by, h) {
                view = view.pan(stage, w / 2.0 - bx, h / 2.0 - by);
            }
        }
        self.shot = Some((stage, view));
        FieldView::new(view)
    }

    /// The layout of the last [`Camera::shoot`] or gesture, to turn clicks into points.
    pub fn layout(&self) -> Option<FieldView> {
        self.shot.map(|(_, view)| FieldView::new(view))
    }

    /// How much closer than the fitted size the view is, for the zoom button: "1×", "2.5×".
    pub fn label(&self) -> String {
        let zoom = self.shot.map_or(1.0, |(stage, view)| {
            f64::from(view.scale) / f64::from(stage.fit_scale())
        });
        let tenths = (zoom * 10.0).round();
        if tenths % 10.0 == 0.0 {
            format!("{}×", tenths / 10.0)
        } else {
            format!("{:.1}×", tenths / 10.0)
        }
    }

    /// The zoom buttons and keys: `0` fits the field, others step in (`> 0`) or out about the
    /// frame's centre.
    pub fn zoom(&mut self, steps: i32) {
        self.change(|stage, view| {
            if steps == 0 {
                View::fit(stage)
            } else {
                let centre = (f64::from(stage.width) / 2.0, f64::from(stage.height) / 2.0);
                view.zoom_steps(stage, steps, centre)
            }
        });
    }

    /// A wheel event over buffer point `at` (see [`Wheel::event_steps`]); answers whether the
    /// view changed.
    pub fn wheel(&mut self, delta_y: f64, mode: u32, ctrl: bool, at: (f64, f64)) -> bool {
        let Some((stage, _)) = self.shot else {
            return false;
        };
        let page = f64::from(stage.height) / stage.ratio.max(0.1);
        let steps = self.wheel.event_steps(delta_y, mode, ctrl, page);
        if steps == 0 {
            return false;
        }
        let changed = self.change(|stage, view| view.zoom_steps(stage, steps, at));
        if let (Some(Press::Panning { from, start, .. }), Some((_, view))) =
            (&mut self.press, self.shot)
        {
            // Zoomed while dragging: the drag goes on from here.
            (*from, *start) = (view, at);
        }
        changed
    }

    /// The space bar went down (`true`) or up: held, any drag pans.
    pub fn hold_space(&mut self, held: bool) {
        self.space = held;
    }

    /// A pointer went down.
    pub fn down(&mut self, down: Touchdown) {
        self.swallow_click = false;
        if down.touch {
            self.touches.retain(|(id, _)| *id != down.pointer);
            self.touches.push((down.pointer, down.at));
            if let ([(_, a), (_, b)], Some((_, from))) = (self.touches.as_slice(), self.shot) {
                // A second finger: whatever the first began becomes a pinch.
                self.press = Some(Press::Pinch {
                    from,
                    distance: distance(*a, *b).max(1.0),
                    middle: middle(*a, *b),
                });
                return;
            }
        }
        if down.button == 0 || down.button == MIDDLE_BUTTON {
            self.press = Some(Press::Down {
                pointer: down.pointer,
                start: down.at,
                pans: down.button == MIDDLE_BUTTON || self.space || !down.on_target,
            });
        }
    }

    /// A pointer moved to buffer point `at`; answers whether the view changed.
    pub fn moved(&mut self, pointer: i32, at: (f64, f64)) -> bool {
        if let Some(touch) = self.touches.iter_mut().find(|(id, _)| *id == pointer) {
            touch.1 = at;
        }
        let Some((stage, _)) = self.shot else {
            return false;
        };
        let threshold = PAN_THRESHOLD * stage.ratio;
        let next = match self.press {
            Some(Press::Pinch {
                from,
                distance: d0,
                middle: m0,
            }) => match self.touches.as_slice() {
                [(_, a), (_, b)] => {
                    let (d, m) = (distance(*a, *b), middle(*a, *b));
                    let scale = (f64::from(from.scale) * d / d0).round().max(1.0) as u32;
                    from.zoom_to(stage, scale, m0)
                        .pan(stage, m.0 - m0.0, m.1 - m0.1)
                }
                _ => return false,
            },
            Some(Press::Down {
                pointer: down,
                start,
                pans: true,
            }) if down == pointer && distance(start, at) > threshold => {
                let Some((_, from)) = self.shot else {
                    return false;
                };
                self.press = Some(Press::Panning {
                    pointer,
                    from,
                    start,
                });
                from.pan(stage, at.0 - start.0, at.1 - start.1)
            }
            Some(Press::Panning {
                pointer: panning,
                from,
                start,
            }) if panning == pointer => from.pan(stage, at.0 - start.0, at.1 - start.1),
            _ => return false,
        };
        self.change(|_, _| next)
    }

    /// A pointer went up (or was cancelled).
    pub fn up(&mut self, pointer: i32) {
        self.touches.retain(|(id, _)| *id != pointer);
        match self.press {
            Some(Press::Pinch { .. }) => {
                // The finger left on the glass neither pans nor taps.
                self.swallow_click = true;
                if self.touches.is_empty() {
                    self.press = None;
                }
            }
            Some(Press::Panning { pointer: p, .. }) if p == pointer => {
                self.swallow_click = true;
                self.press = None;
            }
            Some(Press::Down { pointer: p, .. }) if p == pointer => self.press = None,
            _ => {}
        }
    }

    /// Whether the click the browser sends now plays: not when it ends a pan or a pinch.
    pub fn click_plays(&mut self) -> bool {
        !std::mem::take(&mut self.swallow_click)
    }

    /// The cursor over a point where a click would (`on_target`) or would not step the ball.
    pub fn cursor(&self, on_target: bool) -> Cursor {
        match self.press {
            Some(Press::Panning { .. } | Press::Pinch { .. }) => Cursor::Grabbing,
            _ if self.space || !on_target => Cursor::Grab,
            _ => Cursor::Click,
        }
    }

    /// Applies `change` to the view, if there is one; answers whether it changed.
    fn change(&mut self, change: impl FnOnce(Stage, View) -> View) -> bool {
        let Some((stage, view)) = self.shot else {
            return false;
        };
        let next = change(stage, view);
        self.shot = Some((stage, next));
        next != view
    }
}

fn distance(a: (f64, f64), b: (f64, f64)) -> f64 {
    (a.0 - b.0).hypot(a.1 - b.1)
}

fn middle(a: (f64, f64), b: (f64, f64)) -> (f64, f64) {
    ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 30×40 field in a 1000×700 buffer: 15 px squares, the whole field in sight.
    fn stage() -> Stage {
        FieldView::stage(30, 40, 1000, 700, 1.0)
    }

    const CENTRE: Point = Point::new(15, 20);

    fn camera() -> Camera {
        let mut camera = Camera::default();
        camera.shoot(stage(), CENTRE);
        camera
    }

    fn mouse(at: (f64, f64), on_target: bool) -> Touchdown {
        Touchdown {
            pointer: 1,
            at,
            button: 0,
            touch: false,
            on_target,
        }
    }

    fn origin(camera: &Camera) -> (i32, i32) {
        camera.layout().expect("a layout").point(0, 0)
    }

    #[test]
    fn a_new_field_is_fitted_and_the_ball_followed_only_when_it_moves() {
        let mut camera = Camera::default();
        let fit = FieldView::new(View::fit(stage()));
        assert_eq!(camera.shoot(stage(), CENTRE), fit);
        assert_eq!(camera.label(), "1×");
        camera.zoom(4);
        let zoomed = camera.layout().unwrap();
        assert!(zoomed.square() > fit.square());
        assert_eq!(
            camera.shoot(stage(), CENTRE),
            zoomed,
            "the ball did not move"
        );
        // Panned away by the user: kept while the ball stays where it was…
        camera.down(mouse((100.0, 100.0), false));
        assert!(camera.moved(1, (500.0, 100.0)));
        camera.up(1);
        let panned = camera.layout().unwrap();
        assert_eq!(camera.shoot(stage(), CENTRE), panned);
        // …and brought back to it once it moves.
        let moved = Point::new(16, 21);
        let (bx, by) = camera.shoot(stage(), moved).point(moved.x, moved.y);
        assert!((bx - 500).abs() <= 1 && (by - 350).abs() <= 1, "{bx},{by}");
        // A resized window keeps the zoom; another field is fitted.
        let wider = FieldView::stage(30, 40, 1200, 700, 1.0);
        assert_eq!(camera.shoot(wider, moved).square(), zoomed.square());
        let other = FieldView::stage(8, 10, 1200, 700, 1.0);
        let ball = Point::new(4, 5);
        assert_eq!(camera.shoot(other, ball), FieldView::new(View::fit(other)));
        // A fitted view is fitted again after a resize.
        assert_eq!(
            camera.shoot(stage(), CENTRE),
            FieldView::new(View::fit(stage()))
        );
        camera.zoom(0);
        assert_eq!(camera.label(), "1×");
    }

    #[test]
    fn the_wheel_zooms_about_the_pointer() {
        let mut camera = camera();
        let at = (321.0, 456.0);
        let before = camera.layout().unwrap().field_at(at.0, at.1);
        assert!(camera.wheel(-120.0, 0, false, at));
        let after = camera.layout().unwrap();
        assert!(after.square() > 15);
        let (x, y) = after.field_at(at.0, at.1);
        assert!((x - before.0).hypot(y - before.1) * f64::from(after.square()) <= 1.0);
        assert!(!camera.wheel(10.0, 0, false, at), "not a step yet");
        assert_eq!(camera.label(), "1.6×");
    }

    #[test]
    fn a_click_is_a_click_and_a_drag_from_the_paper_pans() {
        // On a point to step to: moving less than the threshold, or more, never pans.
        let mut camera = camera();
        let o = origin(&camera);
        camera.down(mouse((100.0, 100.0), true));
        assert!(!camera.moved(1, (103.0, 102.0)));
        assert!(!camera.moved(1, (140.0, 100.0)));
        camera.up(1);
        assert!(camera.click_plays());
        assert_eq!(origin(&camera), o);
        // On the paper: a wobble is still a click…
        camera.down(mouse((100.0, 100.0), false));
        assert_eq!(camera.cursor(false), Cursor::Grab);
        assert!(!camera.moved(1, (102.0, 101.0)));
        camera.up(1);
        assert!(camera.click_plays());
        // …a drag pans by exactly what the pointer moved, and its click plays nothing.
        camera.down(mouse((100.0, 100.0), false));
        assert!(camera.moved(1, (110.0, 103.0)));
        assert_eq!(camera.cursor(true), Cursor::Grabbing);
        assert!(camera.moved(1, (160.5, 130.0)));
        assert!(!camera.moved(2, (0.0, 0.0)), "another pointer");
        camera.up(1);
        assert_eq!(origin(&camera), (o.0 + 61, o.1 + 30));
        assert!(!camera.click_plays());
        assert!(camera.click_plays(), "only that one click");
        assert_eq!(camera.cursor(true), Cursor::Click);
    }

    #[test]
    fn space_or_the_middle_button_pans_from_anywhere() {
        let mut camera = camera();
        let o = origin(&camera);
        camera.hold_space(true);
        assert_eq!(camera.cursor(true), Cursor::Grab);
        camera.down(mouse((100.0, 100.0), true));
        assert!(camera.moved(1, (80.0, 90.0)));
        camera.up(1);
        camera.hold_space(false);
        assert_eq!(origin(&camera), (o.0 - 20, o.1 - 10));
        camera.down(Touchdown {
            button: MIDDLE_BUTTON,
            ..mouse((100.0, 100.0), true)
        });
        assert!(camera.moved(1, (120.0, 100.0)));
        camera.up(1);
        assert_eq!(origin(&camera), (o.0, o.1 - 10));
        // The secondary button does nothing.
        camera.down(Touchdown {
            button: 2,
            ..mouse((100.0, 100.0), false)
        });
        assert!(!camera.moved(1, (200.0, 200.0)));
    }

    #[test]
    fn two_fingers_pinch() {
        let mut camera = camera();
        let finger = |pointer, at| Touchdown {
            pointer,
            at,
            button: 0,
            touch: true,
            on_target: false,
        };
        camera.down(finger(1, (400.0, 300.0)));
        camera.down(finger(2, (600.0, 300.0)));
        let before = camera.layout().unwrap().field_at(500.0, 300.0);
        assert!(camera.moved(2, (800.0, 300.0)));
        let after = camera.layout().unwrap();
        assert_eq!(after.square(), 30, "twice as far apart, twice as big");
        // The point between the fingers went with their middle, (600, 300).
        let (x, y) = after.field_at(600.0, 300.0);
        assert!((x - before.0).hypot(y - before.1) * 30.0 <= 1.0);
        camera.up(1);
        assert!(
            !camera.moved(2, (900.0, 300.0)),
            "one finger left: no pinch"
        );
        camera.up(2);
        assert!(!camera.click_plays());
    }
}
