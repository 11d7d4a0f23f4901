//! The field's zoom and pan as the wheel, the pointer and the zoom keys drive it, free of
//! browser types so every gesture is unit-tested. The gestures themselves (the wheel zooms about
//! the pointer, a press that moves far enough from empty paper — anywhere with the space bar
//! held, or with the middle button — drags the field, two fingers pinch, a press that does not
//! move is a click) are the shared [`crate::gesture::Gesture`], the same machine as the circuit
//! editor's and the pilot lab's; what is the field's own is following the ball and the zoom
//! label.

use engine::soccer::Point;

use crate::geometry::FieldView;
use crate::gesture::{self, Gesture, Moved, PanStart, Pointer};
use crate::zoom::{Stage, View};

/// The part of the frame the ball may leave before the view follows it, on each side.
const FOLLOW_MARGIN: f64 = 0.2;

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

/// The zoom and pan of one field canvas: the shared gesture machine, plus the ball it follows.
#[derive(Clone, Debug)]
pub struct Camera {
    gesture: Gesture,
    /// The ball the view last followed, to re-centre only when it moves.
    followed: Option<Point>,
}

impl Default for Camera {
    fn default() -> Self {
        Camera {
            // A press on the field may be a click that plays: it pans only once it moves.
            gesture: Gesture::new(PanStart::AfterMoving),
            followed: None,
        }
    }
}

impl Camera {
    /// The layout to draw the field of `stage` with, the ball at `ball`: the view kept, kept
    /// and re-clamped after a resize, or fitted to a new field (or when it was fitted); moved
    /// to the ball when the ball moved out of the middle of a zoomed-in view.
    pub fn shoot(&mut self, stage: Stage, ball: Point) -> FieldView {
        let same_field = |old: &Stage| (old.cols, old.rows) == (stage.cols, stage.rows);
        let mut view = match self.gesture.shot() {
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
        self.gesture.set(stage, view);
        FieldView::new(view)
    }

    /// The layout of the last [`Camera::shoot`] or gesture, to turn clicks into points.
    pub fn layout(&self) -> Option<FieldView> {
        self.gesture.view().map(FieldView::new)
    }

    /// How much closer than the fitted size the view is, for the zoom button: "1×", "2.5×".
    pub fn label(&self) -> String {
        let zoom = self.gesture.shot().map_or(1.0, |(stage, view)| {
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
        self.gesture.zoom(steps);
    }

    /// A wheel event over buffer point `at`; answers whether the view changed.
    pub fn wheel(&mut self, delta_y: f64, mode: u32, ctrl: bool, at: (f64, f64)) -> bool {
        self.gesture.wheel(delta_y, mode, ctrl, at)
    }

    /// The space bar went down (`true`) or up: held, any drag pans.
    pub fn hold_space(&mut self, held: bool) {
        self.gesture.hold_space(held);
    }

    /// A pointer went down; a press on a point the ball could step to is a click, not a pan.
    pub fn down(&mut self, down: Touchdown) {
        let pointer = Pointer {
            id: down.pointer,
            at: down.at,
            button: down.button,
            touch: down.touch,
        };
        // Whose the press is shows in `click_plays` and the cursor; the page needs no more.
        let _whose = self.gesture.down(pointer, !down.on_target);
    }

    /// A pointer moved to buffer point `at`; answers whether the view changed.
    pub fn moved(&mut self, pointer: i32, at: (f64, f64)) -> bool {
        self.gesture.moved(pointer, at) == Moved::Changed
    }

    /// A pointer went up (or was cancelled).
    pub fn up(&mut self, pointer: i32) {
        self.gesture.up(pointer);
    }

    /// Whether the click the browser sends now plays: not when it ends a pan or a pinch.
    pub fn click_plays(&mut self) -> bool {
        self.gesture.click_plays()
    }

    /// The cursor over a point where a click would (`on_target`) or would not step the ball.
    pub fn cursor(&self, on_target: bool) -> Cursor {
        match self.gesture.cursor(!on_target) {
            gesture::Cursor::Page => Cursor::Click,
            gesture::Cursor::Grab => Cursor::Grab,
            gesture::Cursor::Grabbing => Cursor::Grabbing,
        }
    }
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
            button: gesture::MIDDLE_BUTTON,
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
