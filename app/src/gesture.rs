//! Pan, zoom and pinch over a zoomable canvas, as one state machine for every canvas that
//! zooms (the circuit editor, the pilot lab, the Paper Soccer field): pointer, wheel and space
//! bar events go in, the view ([`crate::zoom::View`]) comes out. Free of browser types, so
//! every gesture is unit-tested natively.
//!
//! A [`Gesture`] owns the canvas' view. A press is the page's (to paint, to play) unless it
//! pans: with the middle button, with the space bar held, or where the page says nothing of its
//! own lies under the pointer (`free`). Two fingers always pinch, whatever the first one began.
//! Pages choose when a pan starts ([`PanStart`]): at once (the editor, where a pan is asked for
//! explicitly) or once the pointer moved past [`PAN_THRESHOLD`] (the field, where a press that
//! does not move is a click).
//!
//! The field's camera (`soccer::camera`) maps onto it one for one: its own placement rule
//! (fit, keep, follow the ball) writes the view with [`Gesture::set`]; a press on a point to
//! step to is not `free`; [`Gesture::click_plays`] and [`Gesture::cursor`] answer its click and
//! cursor questions; the wheel re-anchors a pan under way as it does.

use crate::zoom::{Stage, View, Wheel};

/// How far (CSS pixels) a press must move before it pans, with [`PanStart::AfterMoving`]: less
/// is a click.
pub const PAN_THRESHOLD: f64 = 4.0;

/// A wheel event over the canvas, as pages hand it on: `deltaY`, `deltaMode`, whether ctrl (or
/// meta) was down, as a touchpad pinch arrives, and where, in buffer pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WheelInput {
    pub delta_y: f64,
    pub mode: u32,
    pub ctrl: bool,
    pub at: (f64, f64),
}

/// The middle mouse button, which always pans.
pub const MIDDLE_BUTTON: i16 = 1;

/// When a press that may pan starts moving the view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PanStart {
    /// At once: the press is a pan from the start.
    Now,
    /// Once it moved past [`PAN_THRESHOLD`]: until then it may still be a click.
    AfterMoving,
}

/// A pointer going down, moving or going up, in the canvas' buffer pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pointer {
    /// `PointerEvent.pointerId` (each finger has its own).
    pub id: i32,
    /// Where, in buffer pixels.
    pub at: (f64, f64),
    /// `MouseEvent.button`: 0 primary, 1 middle, 2 secondary.
    pub button: i16,
    /// Whether it is a finger.
    pub touch: bool,
}

/// Whose a press is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Down {
    /// The page's: it paints, plays, selects…
    Page,
    /// The gesture's: it pans (now or once it moves).
    Pan,
    /// A second finger: a pinch begins, and whatever the first finger began is void.
    Pinch,
    /// A third finger or more: nobody's.
    Ignored,
}

/// What a pointer's move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moved {
    /// Not the gesture's pointer: the page handles it.
    Page,
    /// The gesture's, and the view did not change (a pan not yet past its threshold).
    Held,
    /// The gesture's, and the view changed.
    Changed,
}

/// The cursor that tells what a press would do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cursor {
    /// A press is the page's.
    Page,
    /// A drag would pan.
    Grab,
    /// Panning (or pinching) now.
    Grabbing,
}

/// The press under way.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Press {
    /// Down at `start`, to pan once it moves far enough.
    Pending { pointer: i32, start: (f64, f64) },
    /// Panning: the view `from` moves with the pointer since `start`.
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

/// The view of one zoomable canvas and the gesture under way.
#[derive(Clone, Debug)]
pub struct Gesture {
    start: PanStart,
    /// The canvas and grid the view lives in, and the view; `None` until first laid out.
    shot: Option<(Stage, View)>,
    wheel: Wheel,
    press: Option<Press>,
    /// Fingers down, at buffer points.
    touches: Vec<(i32, (f64, f64))>,
    space: bool,
    /// Set when a pan or pinch ends: the click the browser sends after it is not a click.
    swallow_click: bool,
}

impl Gesture {
    /// A canvas not laid out yet, whose pans start as `start` says.
    pub fn new(start: PanStart) -> Gesture {
        Gesture {
            start,
            shot: None,
            wheel: Wheel::default(),
            press: None,
            touches: Vec::new(),
            space: false,
            swallow_click: false,
        }
    }

    /// The stage and view, once laid out.
    pub fn shot(&self) -> Option<(Stage, View)> {
        self.shot
    }

    /// The view, once laid out.
    pub fn view(&self) -> Option<View> {
        self.shot.map(|(_, view)| view)
    }

    /// The stage, once laid out.
    pub fn stage(&self) -> Option<Stage> {
        self.shot.map(|(stage, _)| stage)
    }

    /// Lays the canvas out on `stage` with `view` (a page's own placement rule).
    pub fn set(&mut self, stage: Stage, view: View) {
        self.shot = Some((stage, view));
    }

    /// Lays the canvas out on `stage`: the whole grid fitted the first time, the view kept
    /// (as it was) when the canvas is resized. Answers whether anything changed.
    pub fn lay_out(&mut self, stage: Stage) -> bool {
        match self.shot {
            Some((old, _)) if old == stage => false,
            Some((_, view)) => {
                self.shot = Some((stage, view));
                true
            }
            None => {
                self.shot = Some((stage, View::fit(stage)));
                true
            }
        }
    }

    /// Applies `change` to the view, if there is one (zoom buttons, focusing a cell); answers
    /// whether it changed.
    pub fn change(&mut self, change: impl FnOnce(Stage, View) -> View) -> bool {
        let Some((stage, view)) = self.shot else {
            return false;
        };
        let next = change(stage, view);
        self.shot = Some((stage, next));
        next != view
    }

    /// The zoom buttons and keys: `0` fits the grid, others step in (`> 0`) or out about the
    /// frame's centre.
    pub fn zoom(&mut self, steps: i32) -> bool {
        self.change(|stage, view| {
            if steps == 0 {
                View::fit(stage)
            } else {
                view.zoom_steps(stage, steps, centre(stage))
            }
        })
    }

    /// "1:1": one square per CSS pixel, about the frame's centre.
    pub fn zoom_one(&mut self) -> bool {
        self.change(|stage, view| view.zoom_to(stage, stage.one_scale(), centre(stage)))
    }

    /// A wheel event over buffer point `at`: its `deltaY`, `deltaMode` and whether ctrl was
    /// down (see [`Wheel::event_steps`]); answers whether the view changed.
    pub fn wheel(&mut self, delta_y: f64, mode: u32, ctrl: bool, at: (f64, f64)) -> bool {
        self.wheel_input(WheelInput {
            delta_y,
            mode,
            ctrl,
            at,
        })
    }

    /// [`Gesture::wheel`] of a [`WheelInput`].
    pub fn wheel_input(&mut self, wheel: WheelInput) -> bool {
        let WheelInput {
            delta_y,
            mode,
            ctrl,
            at,
        } = wheel;
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

    /// The space bar went down (`true`) or up: held, any press pans.
    pub fn hold_space(&mut self, held: bool) {
        self.space = held;
    }

    /// Whether the space bar is held.
    pub fn space_held(&self) -> bool {
        self.space
    }

    /// Whether a pan or pinch is under way (or a press that may become one).
    pub fn busy(&self) -> bool {
        self.press.is_some()
    }

    /// A pointer went down; `free` when nothing of the page's lies under it (a plain press
    /// there pans). Answers whose the press is.
    pub fn down(&mut self, pointer: Pointer, free: bool) -> Down {
        self.swallow_click = false;
        if pointer.touch {
            self.touches.retain(|(id, _)| *id != pointer.id);
            self.touches.push((pointer.id, pointer.at));
            match (self.touches.as_slice(), self.shot) {
                ([(_, a), (_, b)], Some((_, from))) => {
                    self.press = Some(Press::Pinch {
                        from,
                        distance: distance(*a, *b).max(1.0),
                        middle: middle(*a, *b),
                    });
                    return Down::Pinch;
                }
                ([_, _, _, ..], _) => return Down::Ignored,
                _ => {}
            }
        }
        let pans = pointer.button == MIDDLE_BUTTON || self.space || (free && pointer.button == 0);
        if !pans {
            self.press = None;
            return Down::Page;
        }
        self.press = match (self.start, self.shot) {
            (PanStart::Now, Some((_, from))) => Some(Press::Panning {
                pointer: pointer.id,
                from,
                start: pointer.at,
            }),
            (PanStart::Now, None) => None,
            (PanStart::AfterMoving, _) => Some(Press::Pending {
                pointer: pointer.id,
                start: pointer.at,
            }),
        };
        Down::Pan
    }

    /// A pointer moved to buffer point `at`.
    pub fn moved(&mut self, id: i32, at: (f64, f64)) -> Moved {
        let finger = self.touches.iter_mut().find(|(t, _)| *t == id);
        let is_finger = finger.is_some();
        if let Some(touch) = finger {
            touch.1 = at;
        }
        let Some((stage, view)) = self.shot else {
            return Moved::Page;
        };
        let next = match self.press {
            Some(Press::Pinch {
                from,
                distance: d0,
                middle: m0,
            }) if is_finger => match self.touches.as_slice() {
                [(_, a), (_, b)] => {
                    let (d, m) = (distance(*a, *b), middle(*a, *b));
                    let scale = (f64::from(from.scale) * d / d0).round().max(1.0) as u32;
                    from.zoom_to(stage, scale, m0)
                        .pan(stage, m.0 - m0.0, m.1 - m0.1)
                }
                _ => return Moved::Held,
            },
            Some(Press::Pending { pointer, start }) if pointer == id => {
                if distance(start, at) <= PAN_THRESHOLD * stage.ratio {
                    return Moved::Held;
                }
                self.press = Some(Press::Panning {
                    pointer,
                    from: view,
                    start,
                });
                view.pan(stage, at.0 - start.0, at.1 - start.1)
            }
            Some(Press::Panning {
                pointer,
                from,
                start,
            }) if pointer == id => from.pan(stage, at.0 - start.0, at.1 - start.1),
            _ => return Moved::Page,
        };
        if self.change(|_, _| next) {
            Moved::Changed
        } else {
            Moved::Held
        }
    }

    /// A pointer went up (or was cancelled). Answers whether it was the gesture's (the page
    /// then has nothing to finish).
    pub fn up(&mut self, id: i32) -> bool {
        let was_finger = self.touches.iter().any(|(t, _)| *t == id);
        self.touches.retain(|(t, _)| *t != id);
        match self.press {
            Some(Press::Pinch { .. }) if was_finger => {
                // The finger left on the glass neither pans nor paints.
                self.swallow_click = true;
                if self.touches.is_empty() {
                    self.press = None;
                }
                true
            }
            Some(Press::Panning { pointer, .. }) if pointer == id => {
                self.swallow_click = true;
                self.press = None;
                true
            }
            Some(Press::Pending { pointer, .. }) if pointer == id => {
                self.press = None;
                true
            }
            _ => false,
        }
    }

    /// Whether the click the browser sends now is a click: not when it ends a pan or a pinch.
    pub fn click_plays(&mut self) -> bool {
        !std::mem::take(&mut self.swallow_click)
    }

    /// The cursor over a point that is `free` (nothing of the page's under it) or not.
    pub fn cursor(&self, free: bool) -> Cursor {
        match self.press {
            Some(Press::Panning { .. } | Press::Pinch { .. }) => Cursor::Grabbing,
            _ if self.space || free => Cursor::Grab,
            _ => Cursor::Page,
        }
    }
}

/// The centre of the frame, in buffer pixels.
fn centre(stage: Stage) -> (f64, f64) {
    (f64::from(stage.width) / 2.0, f64::from(stage.height) / 2.0)
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
    use crate::zoom::tests::STAGE;

    fn laid_out(start: PanStart) -> Gesture {
        let mut g = Gesture::new(start);
        assert!(g.lay_out(STAGE));
        assert!(!g.lay_out(STAGE), "the same stage changes nothing");
        g
    }

    fn mouse(at: (f64, f64), button: i16) -> Pointer {
        Pointer {
            id: 1,
            at,
            button,
            touch: false,
        }
    }

    fn finger(id: i32, at: (f64, f64)) -> Pointer {
        Pointer {
            id,
            at,
            button: 0,
            touch: true,
        }
    }

    fn origin(g: &Gesture) -> (i32, i32) {
        let v = g.view().expect("laid out");
        (v.left, v.top)
    }

    #[test]
    fn first_layout_fits_and_a_resize_keeps_the_view() {
        let mut g = Gesture::new(PanStart::Now);
        assert_eq!(g.view(), None);
        assert!(!g.zoom(1), "nothing to zoom before the layout");
        g.lay_out(STAGE);
        assert_eq!(g.view(), Some(View::fit(STAGE)));
        assert!(g.zoom(2));
        let zoomed = g.view().unwrap();
        let wider = Stage {
            width: 1200,
            ..STAGE
        };
        assert!(g.lay_out(wider));
        assert_eq!(g.view(), Some(zoomed));
        assert_eq!(g.stage(), Some(wider));
        assert!(g.zoom(0));
        assert_eq!(g.view(), Some(View::fit(wider)));
        assert!(g.zoom_one());
        assert_eq!(g.view().unwrap().scale, 1);
    }

    #[test]
    fn plain_presses_are_the_pages_and_the_middle_button_or_space_pan_at_once() {
        let mut g = laid_out(PanStart::Now);
        let o = origin(&g);
        assert_eq!(g.down(mouse((100.0, 100.0), 0), false), Down::Page);
        assert_eq!(g.moved(1, (200.0, 200.0)), Moved::Page);
        assert!(!g.up(1));
        assert_eq!(g.down(mouse((100.0, 100.0), 2), false), Down::Page);
        assert!(!g.up(1));
        assert_eq!(origin(&g), o);

        assert_eq!(
            g.down(mouse((100.0, 100.0), MIDDLE_BUTTON), false),
            Down::Pan
        );
        assert_eq!(g.cursor(false), Cursor::Grabbing);
        assert_eq!(g.moved(1, (102.0, 101.0)), Moved::Changed, "no threshold");
        assert_eq!(g.moved(2, (0.0, 0.0)), Moved::Page, "another pointer");
        assert_eq!(g.moved(1, (130.0, 90.0)), Moved::Changed);
        assert!(g.up(1));
        assert_eq!(origin(&g), (o.0 + 30, o.1 - 10));
        assert!(!g.busy());

        g.hold_space(true);
        assert!(g.space_held());
        assert_eq!(g.cursor(false), Cursor::Grab);
        assert_eq!(g.down(mouse((100.0, 100.0), 0), false), Down::Pan);
        assert_eq!(g.moved(1, (90.0, 100.0)), Moved::Changed);
        assert!(g.up(1));
        g.hold_space(false);
        assert_eq!(g.cursor(false), Cursor::Page);
        assert_eq!(origin(&g), (o.0 + 20, o.1 - 10));
    }

    #[test]
    fn a_free_press_pans_after_the_threshold_and_its_click_is_swallowed() {
        let mut g = laid_out(PanStart::AfterMoving);
        let o = origin(&g);
        // On the page's target: never a pan.
        assert_eq!(g.down(mouse((100.0, 100.0), 0), false), Down::Page);
        assert_eq!(g.moved(1, (140.0, 100.0)), Moved::Page);
        g.up(1);
        assert!(g.click_plays());
        // Free: a wobble is still a click…
        assert_eq!(g.down(mouse((100.0, 100.0), 0), true), Down::Pan);
        assert_eq!(g.cursor(true), Cursor::Grab);
        assert_eq!(g.moved(1, (102.0, 101.0)), Moved::Held);
        assert!(g.up(1));
        assert!(g.click_plays());
        assert_eq!(origin(&g), o);
        // …a drag pans by exactly what the pointer moved, and its click is not one.
        g.down(mouse((100.0, 100.0), 0), true);
        assert_eq!(g.moved(1, (110.0, 103.0)), Moved::Changed);
        assert_eq!(g.cursor(true), Cursor::Grabbing);
        assert_eq!(g.moved(1, (160.5, 130.0)), Moved::Changed);
        g.up(1);
        assert_eq!(origin(&g), (o.0 + 61, o.1 + 30));
        assert!(!g.click_plays());
        assert!(g.click_plays(), "only that one click");
        // The secondary button never pans.
        assert_eq!(g.down(mouse((100.0, 100.0), 2), true), Down::Page);
    }

    #[test]
    fn the_wheel_zooms_about_the_pointer_and_a_drag_goes_on_from_there() {
        let mut g = laid_out(PanStart::Now);
        let at = (321.0, 456.0);
        let v = g.view().unwrap();
        let before = v.square_at(at.0, at.1);
        assert!(g.wheel(-120.0, 0, false, at));
        let z = g.view().unwrap();
        assert!(z.scale > v.scale);
        assert_eq!(z.square_at(at.0, at.1), before);
        assert!(!g.wheel(10.0, 0, false, at), "not a step yet");
        // While panning: the pan goes on from the zoomed view.
        g.down(mouse(at, MIDDLE_BUTTON), false);
        assert!(g.wheel(-120.0, 0, false, at));
        let zoomed = g.view().unwrap();
        assert_eq!(g.moved(1, (at.0 + 10.0, at.1)), Moved::Changed);
        assert_eq!(g.view().unwrap().left, zoomed.left + 10);
        assert_eq!(g.view().unwrap().scale, zoomed.scale);
    }

    #[test]
    fn a_second_finger_pinches_and_a_third_is_ignored() {
        let mut g = laid_out(PanStart::Now);
        assert_eq!(g.down(finger(1, (400.0, 300.0)), false), Down::Page);
        assert_eq!(g.moved(1, (410.0, 300.0)), Moved::Page, "one finger paints");
        assert_eq!(g.down(finger(2, (610.0, 300.0)), false), Down::Pinch);
        let before = g.view().unwrap().square_at(510.0, 300.0);
        assert_eq!(g.moved(2, (810.0, 300.0)), Moved::Changed);
        let after = g.view().unwrap();
        assert_eq!(after.scale, 12, "twice as far apart, twice as big");
        // The point between the fingers went with their middle, (610, 300).
        assert_eq!(after.square_at(610.0, 300.0), before);
        assert_eq!(g.down(finger(3, (0.0, 0.0)), false), Down::Ignored);
        assert!(g.up(3), "a finger of the pinch");
        assert!(g.up(1), "the pinch's finger");
        assert!(g.busy(), "one finger still down");
        assert_eq!(
            g.moved(2, (900.0, 300.0)),
            Moved::Held,
            "one finger: no pinch"
        );
        assert!(g.up(2));
        assert!(!g.busy());
        assert!(!g.click_plays());
    }

    #[test]
    fn nothing_moves_before_the_layout() {
        let mut g = Gesture::new(PanStart::Now);
        assert_eq!(g.down(mouse((1.0, 1.0), MIDDLE_BUTTON), false), Down::Pan);
        assert_eq!(g.moved(1, (50.0, 50.0)), Moved::Page);
        assert!(!g.wheel(-500.0, 0, false, (1.0, 1.0)));
        assert_eq!(g.down(finger(4, (1.0, 1.0)), false), Down::Page);
        assert_eq!(g.down(finger(5, (9.0, 1.0)), false), Down::Page);
    }
}
