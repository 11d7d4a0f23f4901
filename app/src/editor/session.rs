//! The circuit editor's controller, free of browser types: pointer, key and file inputs go in,
//! the editor's state changes and [`Effect`]s come out (a request for the worker, a download, the
//! autosave), in the style of the engine's sans-IO referee. The page (`pages::circuits`) turns
//! browser events into [`Input`]s, carries out the effects and draws what the session holds.

use std::rc::Rc;

use engine::racetrack::conformity::{self, Report};
use engine::racetrack::physics::{self, FinishLine};
use engine::racetrack::pilot::{Lap, Pilot};
use engine::racetrack::samples::{SAMPLES, Sample};
use engine::racetrack::{Circuit, LineEnding, Pos, bmp, paint};

use super::document::Document;
use super::laps::{LapCache, TrackMask};
use super::selection::{Block, Floating, Rect};
use super::tool::{self, Command, Keys, Tool};
use super::view::{Frame, View};
use crate::gesture::{self, Down, Gesture, Moved, PanStart, Pointer, WheelInput};
use crate::workers::racetrack::{Request, RequestId, Response};

/// The sample shown to a first-time visitor: the first conforming one.
pub fn default_sample() -> &'static Sample {
    SAMPLES.iter().find(|s| s.conforming).unwrap_or(&SAMPLES[0])
}

/// What the pointer is doing to the circuit (pans and pinches are the [`Gesture`]'s).
#[derive(Clone, Debug, PartialEq)]
enum Drag {
    /// Freehand painting (pencil, brush, eraser) with `ch`, last seen at `last`.
    Paint { ch: u8, last: Pos },
    /// A line or rectangle from `start` to `end`.
    Shape { ch: u8, start: Pos, end: Pos },
    /// Drawing a selection.
    Select { start: Pos, end: Pos },
    /// Moving the floating block, grabbed at `grab` cells from its corner.
    Move { grab: Pos },
}

/// The par time's state.
#[derive(Clone, Debug, PartialEq)]
pub enum Par {
    /// The circuit does not conform: no lap to time.
    NotConforming,
    /// Waiting for the worker's answer to request `id`, about `revision` whose track is `mask`.
    Pending {
        id: RequestId,
        revision: u64,
        mask: TrackMask,
        previous: Option<Lap>,
    },
    /// The optimal lap of `revision`, solved in `millis` by the worker, or found in the cache.
    Done {
        lap: Lap,
        revision: u64,
        millis: f64,
        cached: bool,
    },
    /// No lap (or the worker failed).
    Failed { reason: String, revision: u64 },
}

/// A message for the user: an error, or news (a file opened).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    pub error: bool,
    pub text: String,
}

/// Which file picker to open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Picker {
    /// `.cir` (or `.bmp`) files.
    Circuit,
    /// `.bmp` files.
    Bmp,
}

/// What the session asks of the page.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// Send this to the racetrack worker.
    Worker(Request),
    /// Save the work in progress (the session's name and circuit) in the browser.
    Autosave,
    /// Offer a file for download.
    Download {
        name: String,
        bytes: Vec<u8>,
        mime: &'static str,
    },
    /// Offer the circuit as a PNG (drawn by the browser) named `name`.
    ExportPng { name: String },
    /// Open a file picker.
    Pick(Picker),
}

/// What the page hands the session.
#[derive(Clone, Debug, PartialEq)]
pub enum Input {
    PointerDown(Pointer),
    PointerMove(Pointer),
    PointerUp(Pointer),
    PointerLeave,
    /// A wheel event over the canvas.
    Wheel(WheelInput),
    /// The space bar went down (`true`) or up: held, a drag pans.
    Space(bool),
    Command(Command),
    SetColour {
        secondary: bool,
        ch: u8,
    },
    New,
    /// A sample circuit, by name.
    Preset(String),
    /// A file's bytes (or why it could not be read): a `.cir`, or a `.bmp` by its name.
    Loaded {
        name: String,
        result: Result<Vec<u8>, String>,
    },
    SaveCir,
    ExportBmp,
    ExportPng,
    ImportBmp,
    /// Zoom to the `i`th violation.
    FocusViolation(usize),
    Worker(Response),
    DismissNotice,
}

/// The session's answer to an input.
#[derive(Debug, Default, PartialEq)]
#[must_use]
pub struct Reply {
    /// Whether what the page shows changed.
    pub redraw: bool,
    pub effects: Vec<Effect>,
}

/// Conformity and the finish line of the circuit as it is.
#[derive(Clone, Debug)]
struct Checked {
    report: Rc<Report>,
    finish: Option<FinishLine>,
    /// The document revision they were derived from.
    revision: u64,
    /// How long the conformity check took, in milliseconds.
    millis: f64,
}

/// The editor's state.
pub struct Session {
    doc: Document,
    name: String,
    tool: Tool,
    primary: u8,
    secondary: u8,
    gesture: Gesture,
    grid: bool,
    show_lap: bool,
    cheatsheet: bool,
    hover: Option<Pos>,
    drag: Option<Drag>,
    selection: Option<Rect>,
    floating: Option<Floating>,
    clipboard: Option<Block>,
    checked: Checked,
    par: Par,
    /// Par times of track shapes solved before.
    laps: LapCache,
    next_id: RequestId,
    notice: Option<Notice>,
    /// The clock the conformity check is timed with, in milliseconds.
    clock: fn() -> f64,
    /// Effects not yet handed to the page.
    effects: Vec<Effect>,
}

impl Session {
    /// A session on `circuit` named `name`; its first effects (the par time's request) wait in
    /// [`Session::take_effects`].
    pub fn new(circuit: Circuit, name: String, clock: fn() -> f64) -> Session {
        let mut session = Session {
            doc: Document::new(circuit),
            name,
            tool: Tool::Pencil,
            primary: b'C',
            secondary: Circuit::TRACK,
            gesture: Gesture::new(PanStart::Now),
            grid: true,
            show_lap: false,
            cheatsheet: false,
            hover: None,
            drag: None,
            selection: None,
            floating: None,
            clipboard: None,
            checked: Checked {
                report: Rc::default(),
                finish: None,
                revision: u64::MAX,
                millis: 0.0,
            },
            par: Par::NotConforming,
            laps: LapCache::new(32),
            next_id: 1,
            notice: None,
            clock,
            effects: Vec::new(),
        };
        session.after_edit(false);
        session
    }

    /// The effects waiting for the page.
    pub fn take_effects(&mut self) -> Vec<Effect> {
        std::mem::take(&mut self.effects)
    }

    /// Handles one input.
    pub fn handle(&mut self, input: Input) -> Reply {
        let redraw = self.apply(input);
        Reply {
            redraw,
            effects: self.take_effects(),
        }
    }

    /// A key press (not in a text field): `None` when it is not the editor's, and the browser
    /// keeps it.
    pub fn key(&mut self, keys: Keys<'_>) -> Option<Reply> {
        // Copy and paste keys stay the browser's unless there is something of ours to copy or
        // paste (text selected in the panels, say).
        let ours = |c: &Command| match c {
            Command::Copy | Command::Cut => self.selection.is_some() || self.floating.is_some(),
            Command::Paste => self.clipboard.is_some(),
            _ => true,
        };
        let command = tool::shortcut(keys).filter(ours)?;
        Some(self.handle(Input::Command(command)))
    }

    /// Lays the canvas out in `frame` (fitted the first time, the view kept after a resize).
    pub fn lay_out(&mut self, frame: Frame) -> bool {
        self.gesture.lay_out(frame.stage())
    }

    fn apply(&mut self, input: Input) -> bool {
        match input {
            Input::PointerDown(p) => self.pointer_down(p),
            Input::PointerMove(p) => self.pointer_move(p),
            Input::PointerUp(p) => self.pointer_up(p),
            Input::PointerLeave => {
                let had = self.hover.take().is_some();
                had && self.drag.is_none() && !self.gesture.busy()
            }
            Input::Wheel(wheel) => self.gesture.wheel_input(wheel),
            Input::Space(held) => {
                let changed = self.gesture.space_held() != held;
                self.gesture.hold_space(held);
                changed
            }
            Input::Command(command) => self.command(command),
            Input::SetColour { secondary, ch } => {
                if secondary {
                    self.secondary = ch;
                } else {
                    self.primary = ch;
                }
                true
            }
            Input::New => {
                self.load(Circuit::blank(), "untitled".to_owned());
                true
            }
            Input::Preset(name) => {
                let Some(sample) = SAMPLES.iter().find(|s| s.name == name) else {
                    return false;
                };
                match Circuit::parse(sample.text.as_bytes()) {
                    Ok(circuit) => self.load(circuit, sample.name.to_owned()),
                    Err(e) => self.tell(true, format!("{}.cir cannot be read: {e}", sample.name)),
                }
                true
            }
            Input::Loaded { name, result } => {
                self.loaded(&name, result);
                true
            }
            Input::SaveCir => self.command(Command::Save),
            Input::ExportBmp => {
                self.drop_floating();
                self.effects.push(Effect::Download {
                    name: format!("{}.bmp", self.name),
                    bytes: bmp::write(self.doc.circuit()),
                    mime: "image/bmp",
                });
                true
            }
            Input::ExportPng => {
                self.drop_floating();
                self.effects.push(Effect::ExportPng {
                    name: format!("{}.png", self.name),
                });
                true
            }
            Input::ImportBmp => {
                self.effects.push(Effect::Pick(Picker::Bmp));
                false
            }
            Input::FocusViolation(i) => {
                let cell = self
                    .checked
                    .report
                    .violations
                    .get(i)
                    .and_then(|v| v.cells.first().copied());
                if let Some(cell) = cell {
                    self.gesture.change(|stage, view| {
                        let close = (stage.fit_scale() * 3).min(stage.max_scale());
                        view.focus(stage, cell.x, cell.y, close)
                    });
                }
                true
            }
            Input::Worker(response) => self.worker_answer(response),
            Input::DismissNotice => self.notice.take().is_some(),
        }
    }

    fn tell(&mut self, error: bool, text: String) {
        self.notice = Some(Notice { error, text });
    }

    /// A file arrived: a `.bmp` by its name, else a `.cir`.
    fn loaded(&mut self, name: &str, result: Result<Vec<u8>, String>) {
        let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
        let is_bmp = name.to_ascii_lowercase().ends_with(".bmp");
        let parsed = result.and_then(|bytes| {
            if is_bmp {
                bmp::read(&bytes).map_err(|e| format!("{name}: {e}"))
            } else {
                Circuit::parse(&bytes).map_err(|e| format!("{name}: {e}"))
            }
        });
        match parsed {
            Ok(circuit) => {
                self.load(circuit, stem.to_owned());
                self.tell(false, format!("Opened {name}"));
            }
            Err(e) => self.tell(true, e),
        }
    }

    /// Replaces the document's circuit (undoable) and names it.
    fn load(&mut self, circuit: Circuit, name: String) {
        self.drag = None;
        self.floating = None;
        self.selection = None;
        self.doc.replace(circuit);
        self.name = name;
        self.after_edit(true);
    }

    /// Re-derives everything from a changed circuit: conformity, finish line, autosave, par time.
    fn after_edit(&mut self, save: bool) {
        let revision = self.doc.revision();
        if revision == self.checked.revision {
            return;
        }
        let circuit = self.doc.circuit();
        let start = (self.clock)();
        let report = Rc::new(conformity::check(circuit));
        self.checked = Checked {
            millis: (self.clock)() - start,
            report,
            finish: physics::finish_line(circuit),
            revision,
        };
        if save {
            self.effects.push(Effect::Autosave);
        }
        let previous = match &self.par {
            Par::Done { lap, .. } => Some(lap.clone()),
            Par::Pending { previous, .. } => previous.clone(),
            _ => None,
        };
        if let Par::Pending { id, .. } = self.par {
            self.effects.push(Effect::Worker(Request::Cancel { id }));
        }
        let mask = TrackMask::of(circuit);
        self.par = if !self.checked.report.is_conforming() {
            Par::NotConforming
        } else if let Some(lap) = self.laps.get(&mask) {
            Par::Done {
                lap,
                revision,
                millis: 0.0,
                cached: true,
            }
        } else {
            let id = self.next_id;
            self.next_id += 1;
            self.effects.push(Effect::Worker(Request::Solve {
                id,
                circuit: circuit.to_text(LineEnding::Lf),
                pilot: Pilot::Optimal,
            }));
            Par::Pending {
                id,
                revision,
                mask,
                previous,
            }
        };
    }

    fn worker_answer(&mut self, response: Response) -> bool {
        let Par::Pending {
            id, revision, mask, ..
        } = &self.par
        else {
            return false;
        };
        if response.id() != *id {
            return false;
        }
        let (revision, mask) = (*revision, mask.clone());
        self.par = match response {
            Response::Solved {
                outcome: Ok(lap),
                millis,
                ..
            } => {
                self.laps.put(mask, lap.clone());
                Par::Done {
                    lap,
                    revision,
                    millis,
                    cached: false,
                }
            }
            Response::Solved {
                outcome: Err(reason),
                ..
            } => Par::Failed { reason, revision },
            Response::Judged { .. } | Response::Cancelled { .. } => return false,
        };
        true
    }

    fn cell_of(&self, at: (f64, f64)) -> Option<Pos> {
        self.view().map(|v| v.cell_at(at.0, at.1))
    }

    /// The cells a freehand tool covers at `p`.
    fn footprint(&self, p: Pos) -> Vec<Pos> {
        match self.tool {
            Tool::Brush | Tool::Eraser => paint::brush(p, 1),
            _ if Circuit::contains(p) => vec![p],
            _ => Vec::new(),
        }
    }

    fn pointer_down(&mut self, pointer: Pointer) -> bool {
        match self.gesture.down(pointer, false) {
            Down::Pinch => {
                // A second finger: whatever the first began is void.
                self.doc.cancel_stroke();
                self.drag = None;
                return true;
            }
            Down::Ignored => return false,
            Down::Pan => {
                self.hover = self.cell_of(pointer.at);
                return true;
            }
            Down::Page => {}
        }
        let Some(p) = self.cell_of(pointer.at) else {
            return false;
        };
        self.hover = Some(p);
        let secondary = pointer.button == 2;
        let ch = if secondary {
            self.secondary
        } else {
            self.primary
        };
        if self.tool != Tool::Select {
            self.drop_floating();
        }
        match self.tool {
            Tool::Pencil | Tool::Brush | Tool::Eraser => {
                let ch = if self.tool == Tool::Eraser {
                    Circuit::TRACK
                } else {
                    ch
                };
                self.doc.paint(self.footprint(p), ch);
                self.drag = Some(Drag::Paint { ch, last: p });
            }
            Tool::Line | Tool::Rectangle | Tool::FilledRectangle => {
                self.drag = Some(Drag::Shape {
                    ch,
                    start: p,
                    end: p,
                });
            }
            Tool::Fill => {
                let cells = paint::flood(self.doc.circuit(), p);
                self.doc.paint(cells, ch);
                self.commit();
            }
            Tool::Replace => {
                if let Some(old) = self.doc.circuit().get(p) {
                    let cells = paint::cells_of(self.doc.circuit(), old);
                    self.doc.paint(cells, ch);
                    self.commit();
                }
            }
            Tool::Eyedropper => {
                if let Some(picked) = self.doc.circuit().get(p) {
                    if secondary {
                        self.secondary = picked;
                    } else {
                        self.primary = picked;
                    }
                }
            }
            Tool::Select => self.select_down(p),
        }
        true
    }

    /// A press with the selection tool: move the floating block, lift the selection, or start
    /// a new one.
    fn select_down(&mut self, p: Pos) {
        if let Some(floating) = &self.floating {
            if floating.contains(p) {
                let at = floating.at;
                self.drag = Some(Drag::Move {
                    grab: Pos::new(p.x - at.x, p.y - at.y),
                });
                return;
            }
            self.drop_floating();
        }
        match self.selection {
            Some(rect) if rect.contains(p) => {
                // Lift the selection: the hole gets the secondary colour.
                let block = Block::copy(self.doc.circuit(), rect);
                self.doc.paint(rect.cells(), self.secondary);
                self.commit();
                self.floating = Some(Floating {
                    block,
                    at: Pos::new(rect.left, rect.top),
                });
                self.drag = Some(Drag::Move {
                    grab: Pos::new(p.x - rect.left, p.y - rect.top),
                });
            }
            _ => {
                self.selection = None;
                self.drag = Some(Drag::Select { start: p, end: p });
            }
        }
    }

    fn pointer_move(&mut self, pointer: Pointer) -> bool {
        match self.gesture.moved(pointer.id, pointer.at) {
            Moved::Page => {}
            Moved::Held => return false,
            Moved::Changed => {
                self.hover = self.cell_of(pointer.at);
                return true;
            }
        }
        let p = self.cell_of(pointer.at);
        let moved = p != self.hover;
        self.hover = p;
        let Some(p) = p else { return false };
        match self.drag.clone() {
            Some(Drag::Paint { ch, last }) => {
                if p != last {
                    let cells: Vec<Pos> = paint::line(last, p)
                        .into_iter()
                        .flat_map(|q| self.footprint(q))
                        .collect();
                    self.doc.paint(cells, ch);
                    self.drag = Some(Drag::Paint { ch, last: p });
                }
                moved
            }
            Some(Drag::Shape { ch, start, .. }) => {
                self.drag = Some(Drag::Shape { ch, start, end: p });
                moved
            }
            Some(Drag::Select { start, .. }) => {
                self.drag = Some(Drag::Select { start, end: p });
                self.selection = Rect::spanning(start, p);
                moved
            }
            Some(Drag::Move { grab }) => {
                if let Some(f) = &mut self.floating {
                    f.at = Pos::new(p.x - grab.x, p.y - grab.y);
                }
                moved
            }
            None => moved,
        }
    }

    fn pointer_up(&mut self, pointer: Pointer) -> bool {
        if self.gesture.up(pointer.id) {
            return true;
        }
        match self.drag.take() {
            Some(Drag::Shape { ch, start, end }) => {
                self.doc.paint(self.shape_cells(start, end), ch);
                self.commit();
            }
            Some(Drag::Paint { .. }) => self.commit(),
            Some(Drag::Select { start, end }) => {
                self.selection = Rect::spanning(start, end).filter(|r| r.width() * r.height() > 1);
            }
            Some(Drag::Move { .. }) | None => {}
        }
        true
    }

    fn shape_cells(&self, start: Pos, end: Pos) -> Vec<Pos> {
        match self.tool {
            Tool::Line => paint::line(start, end),
            Tool::FilledRectangle => paint::rectangle(start, end, true),
            _ => paint::rectangle(start, end, false),
        }
    }

    /// Ends the open stroke and re-derives what depends on the circuit.
    fn commit(&mut self) {
        self.doc.end_stroke();
        self.after_edit(true);
    }

    /// Writes a floating block down where it is.
    fn drop_floating(&mut self) {
        if let Some(f) = self.floating.take() {
            let cells: Vec<_> = f.block.placed(f.at).collect();
            self.doc.paint_each(cells);
            self.commit();
            self.selection = Rect::spanning(
                f.at,
                Pos::new(f.at.x + f.block.width() - 1, f.at.y + f.block.height() - 1),
            );
        }
    }

    fn command(&mut self, command: Command) -> bool {
        match command {
            Command::Tool(t) => {
                if t != Tool::Select {
                    self.drop_floating();
                }
                self.tool = t;
            }
            Command::Undo | Command::Redo => {
                self.floating = None;
                self.drag = None;
                if command == Command::Undo {
                    self.doc.undo();
                } else {
                    self.doc.redo();
                }
                self.after_edit(true);
            }
            Command::Copy => {
                if let Some(f) = &self.floating {
                    self.clipboard = Some(f.block.clone());
                } else if let Some(rect) = self.selection {
                    self.clipboard = Some(Block::copy(self.doc.circuit(), rect));
                }
            }
            Command::Cut => {
                if let Some(f) = self.floating.take() {
                    self.clipboard = Some(f.block);
                } else if let Some(rect) = self.selection {
                    self.clipboard = Some(Block::copy(self.doc.circuit(), rect));
                    self.doc.paint(rect.cells(), self.secondary);
                    self.commit();
                }
            }
            Command::Paste => {
                self.drop_floating();
                if let Some(block) = self.clipboard.clone() {
                    // Under the pointer if it is on the circuit, else over the selection.
                    let at = self
                        .hover
                        .filter(|&p| Circuit::contains(p))
                        .or(self.selection.map(|r| Pos::new(r.left, r.top)))
                        .unwrap_or(Pos::new(2, 2));
                    self.floating = Some(Floating { block, at });
                    self.tool = Tool::Select;
                }
            }
            Command::Delete => {
                if self.floating.take().is_none()
                    && let Some(rect) = self.selection
                {
                    self.doc.paint(rect.cells(), self.secondary);
                    self.commit();
                }
            }
            Command::Deselect => {
                if self.cheatsheet {
                    self.cheatsheet = false;
                } else {
                    self.drop_floating();
                    self.selection = None;
                }
            }
            Command::SwapColours => std::mem::swap(&mut self.primary, &mut self.secondary),
            Command::ToggleGrid => self.grid = !self.grid,
            Command::ToggleLap => self.show_lap = !self.show_lap,
            Command::ZoomIn => {
                self.gesture.zoom(1);
            }
            Command::ZoomOut => {
                self.gesture.zoom(-1);
            }
            Command::ZoomFit => {
                self.gesture.zoom(0);
            }
            Command::ZoomOne => {
                self.gesture.zoom_one();
            }
            Command::Cheatsheet => self.cheatsheet = !self.cheatsheet,
            Command::Save => {
                self.drop_floating();
                let text = self.doc.circuit().to_text(LineEnding::default());
                self.effects.push(Effect::Download {
                    name: format!("{}.cir", self.name),
                    bytes: text.into_bytes(),
                    mime: "text/plain",
                });
            }
            Command::Open => self.effects.push(Effect::Pick(Picker::Circuit)),
        }
        true
    }

    // What the page shows.

    /// The document (circuit, revision, undo).
    pub fn doc(&self) -> &Document {
        &self.doc
    }

    pub fn circuit(&self) -> &Circuit {
        self.doc.circuit()
    }

    /// The circuit's name: its file stem.
    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn tool(&self) -> Tool {
        self.tool
    }

    pub fn primary(&self) -> u8 {
        self.primary
    }

    pub fn secondary(&self) -> u8 {
        self.secondary
    }

    pub fn grid(&self) -> bool {
        self.grid
    }

    pub fn show_lap(&self) -> bool {
        self.show_lap
    }

    pub fn cheatsheet(&self) -> bool {
        self.cheatsheet
    }

    /// The cell under the pointer (it may be off the grid).
    pub fn hover(&self) -> Option<Pos> {
        self.hover
    }

    pub fn selection(&self) -> Option<Rect> {
        self.selection
    }

    pub fn floating(&self) -> Option<&Floating> {
        self.floating.as_ref()
    }

    /// The conformity report of the circuit as it is.
    pub fn report(&self) -> &Report {
        &self.checked.report
    }

    /// The same report, shared with the panel that shows it.
    pub fn shared_report(&self) -> Rc<Report> {
        Rc::clone(&self.checked.report)
    }

    /// The revision conformity was checked at.
    pub fn checked_revision(&self) -> u64 {
        self.checked.revision
    }

    /// How long the last conformity check took, in milliseconds.
    pub fn check_millis(&self) -> f64 {
        self.checked.millis
    }

    pub fn finish(&self) -> Option<FinishLine> {
        self.checked.finish
    }

    pub fn par(&self) -> &Par {
        &self.par
    }

    pub fn notice(&self) -> Option<&Notice> {
        self.notice.as_ref()
    }

    /// The view, once the canvas is laid out.
    pub fn view(&self) -> Option<View> {
        self.gesture.view().map(View::from)
    }

    /// How close the view is: CSS pixels per cell, "fit" before the layout.
    pub fn zoom_label(&self) -> String {
        match self.gesture.shot() {
            Some((stage, view)) => format!("{:.0}×", f64::from(view.scale) / stage.ratio),
            None => "fit".to_owned(),
        }
    }

    /// The cursor's name (a CSS class of the canvas).
    pub fn cursor(&self) -> &'static str {
        match (self.gesture.cursor(false), self.tool) {
            (gesture::Cursor::Grabbing, _) => "grabbing",
            (gesture::Cursor::Grab, _) => "grab",
            (gesture::Cursor::Page, Tool::Select) => "move",
            (gesture::Cursor::Page, _) => "paint",
        }
    }

    /// The cells a shape being drawn would paint, and with what.
    pub fn preview(&self) -> (Vec<Pos>, u8) {
        match &self.drag {
            Some(Drag::Shape { ch, start, end }) => (self.shape_cells(*start, *end), *ch),
            _ => (Vec::new(), self.primary),
        }
    }

    /// The cells under the pointer that the tool would touch.
    pub fn hover_cells(&self) -> Vec<Pos> {
        match (self.hover, &self.drag) {
            (Some(p), None) if self.tool != Tool::Select => self.footprint(p),
            _ => Vec::new(),
        }
    }

    /// The optimal lap, when it is shown and known.
    pub fn lap(&self) -> Option<&[Pos]> {
        match (&self.par, self.show_lap) {
            (Par::Done { lap, .. }, true) => Some(lap.positions()),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::editor::view::tests::FRAME;
    use crate::workers::racetrack::handle;

    fn clock() -> f64 {
        0.0
    }

    fn blank() -> Session {
        let mut s = Session::new(Circuit::blank(), "untitled".into(), clock);
        assert!(
            s.take_effects().is_empty(),
            "a blank circuit has no par time"
        );
        assert!(s.lay_out(FRAME));
        s
    }

    fn at(x: i32, y: i32) -> (f64, f64) {
        (f64::from(x) * 6.0 + 3.0, 20.0 + f64::from(y) * 6.0 + 3.0)
    }

    fn mouse(cell: (i32, i32), button: i16) -> Pointer {
        Pointer {
            id: 1,
            at: at(cell.0, cell.1),
            button,
            touch: false,
        }
    }

    /// A press at one cell, a move to another, a release there.
    fn drag(s: &mut Session, from: (i32, i32), to: (i32, i32), button: i16) -> Vec<Effect> {
        let mut effects = s.handle(Input::PointerDown(mouse(from, button))).effects;
        effects.extend(s.handle(Input::PointerMove(mouse(to, button))).effects);
        effects.extend(s.handle(Input::PointerUp(mouse(to, button))).effects);
        effects
    }

    fn solve_request(effects: &[Effect]) -> Option<Request> {
        effects.iter().find_map(|e| match e {
            Effect::Worker(r @ Request::Solve { .. }) => Some(r.clone()),
            _ => None,
        })
    }

    /// Draws the e2e suite's loop: track (10,2)–(139,90) around grass (20,7)–(129,80).
    fn draw_loop(s: &mut Session) -> Vec<Effect> {
        let _ = s.handle(Input::Command(Command::Tool(Tool::FilledRectangle)));
        let _ = s.handle(Input::SetColour {
            secondary: false,
            ch: Circuit::TRACK,
        });
        let mut effects = drag(s, (10, 2), (139, 90), 0);
        let _ = s.handle(Input::SetColour {
            secondary: false,
            ch: b'C',
        });
        effects.extend(drag(s, (20, 7), (129, 80), 0));
        effects
    }

    #[test]
    fn a_loop_drawn_from_blank_conforms_and_asks_for_its_par_time_once() {
        let mut s = blank();
        assert!(!s.report().is_conforming());
        let effects = draw_loop(&mut s);
        assert!(s.report().is_conforming(), "{:?}", s.report().rules());
        assert_eq!(s.checked_revision(), s.doc().revision());
        assert!(s.finish().is_some());
        assert_eq!(s.circuit().cell(Pos::new(10, 2)), Circuit::TRACK);
        assert_eq!(s.circuit().cell(Pos::new(20, 7)), b'C');
        assert!(effects.contains(&Effect::Autosave));
        let request = solve_request(&effects).expect("a par-time request");
        assert!(matches!(s.par(), Par::Pending { .. }));
        let reply = s.handle(Input::Worker(handle(request, || 5.0)));
        assert!(reply.redraw);
        let Par::Done { lap, cached, .. } = s.par().clone() else {
            panic!("no par time: {:?}", s.par());
        };
        assert!(!cached);
        assert_eq!(s.lap(), None, "the lap is drawn on demand");
        let _ = s.handle(Input::Command(Command::ToggleLap));
        assert_eq!(s.lap(), Some(lap.positions()));

        // Decor repainted: the same track, the par time comes from the cache.
        let _ = s.handle(Input::Command(Command::Tool(Tool::Pencil)));
        let _ = s.handle(Input::SetColour {
            secondary: false,
            ch: b'J',
        });
        let effects = drag(&mut s, (60, 40), (61, 40), 0);
        assert_eq!(solve_request(&effects), None);
        assert!(matches!(s.par(), Par::Done { cached: true, .. }));
        // Undo twice: back to grass, which does not conform.
        let _ = s.handle(Input::Command(Command::Undo));
        let _ = s.handle(Input::Command(Command::Undo));
        assert!(!s.report().is_conforming());
        assert_eq!(s.par(), &Par::NotConforming);
    }

    #[test]
    fn a_newer_edit_cancels_the_pending_request_and_stale_answers_are_ignored() {
        let mut s = blank();
        let first = solve_request(&draw_loop(&mut s)).unwrap();
        // The track widened into the infield: a new shape, a new request.
        let _ = s.handle(Input::SetColour {
            secondary: false,
            ch: Circuit::TRACK,
        });
        let effects = drag(&mut s, (20, 7), (21, 80), 0);
        assert!(effects.contains(&Effect::Worker(Request::Cancel { id: first.id() })));
        let second = solve_request(&effects).unwrap();
        assert!(second.id() > first.id());
        assert!(!s.handle(Input::Worker(handle(first, clock))).redraw);
        assert!(matches!(s.par(), Par::Pending { .. }));
        let _ = s.handle(Input::Worker(handle(second, clock)));
        assert!(matches!(s.par(), Par::Done { .. }));
    }

    #[test]
    fn pencil_strokes_are_one_undo_step_and_the_right_button_paints_the_secondary() {
        let mut s = blank();
        let _ = s.handle(Input::SetColour {
            secondary: false,
            ch: b'J',
        });
        let _ = drag(&mut s, (5, 5), (9, 5), 0);
        assert!((5..=9).all(|x| s.circuit().cell(Pos::new(x, 5)) == b'J'));
        assert_eq!(s.doc().undo_depth(), 1);
        let _ = drag(&mut s, (5, 6), (5, 6), 2);
        assert_eq!(s.circuit().cell(Pos::new(5, 6)), Circuit::TRACK);
        let _ = s.handle(Input::Command(Command::Undo));
        let _ = s.handle(Input::Command(Command::Undo));
        assert_eq!(s.circuit(), &Circuit::blank());
        // The eyedropper picks into the button's colour.
        let _ = s.handle(Input::Command(Command::Tool(Tool::Eyedropper)));
        let _ = s.handle(Input::PointerDown(mouse((0, 0), 2)));
        assert_eq!(s.secondary(), Circuit::GRASS);
    }

    #[test]
    fn the_middle_button_and_space_pan_without_painting() {
        let mut s = blank();
        let before = s.view().unwrap();
        let _ = drag(&mut s, (5, 5), (15, 5), 1);
        assert_eq!(s.circuit(), &Circuit::blank());
        assert_eq!(s.view().unwrap().left, before.left + 60);
        let _ = s.handle(Input::Space(true));
        assert_eq!(s.cursor(), "grab");
        let _ = s.handle(Input::PointerDown(mouse((15, 5), 0)));
        assert_eq!(s.cursor(), "grabbing");
        let _ = s.handle(Input::PointerMove(mouse((5, 5), 0)));
        let _ = s.handle(Input::PointerUp(mouse((5, 5), 0)));
        let _ = s.handle(Input::Space(false));
        assert_eq!(s.view().unwrap(), before);
        assert_eq!(s.circuit(), &Circuit::blank());
        assert_eq!(s.cursor(), "paint");
    }

    #[test]
    fn a_second_finger_voids_the_stroke_and_pinches() {
        let mut s = blank();
        let finger = |id, cell: (i32, i32)| Pointer {
            id,
            at: at(cell.0, cell.1),
            button: 0,
            touch: true,
        };
        let _ = s.handle(Input::PointerDown(finger(1, (40, 40))));
        let _ = s.handle(Input::PointerMove(finger(1, (45, 40))));
        assert_eq!(s.circuit().cell(Pos::new(44, 40)), b'C');
        let _ = s.handle(Input::PointerDown(finger(2, (60, 40))));
        assert_eq!(s.circuit(), &Circuit::blank(), "the stroke is void");
        let scale = s.view().unwrap().scale;
        assert!(s.handle(Input::PointerMove(finger(2, (75, 40)))).redraw);
        assert_eq!(s.view().unwrap().scale, scale * 2);
        let _ = s.handle(Input::PointerUp(finger(1, (45, 40))));
        let _ = s.handle(Input::PointerUp(finger(2, (75, 40))));
        assert!(!s.doc().can_undo(), "nothing was painted");
    }

    #[test]
    fn select_lift_move_copy_and_paste() {
        let mut s = blank();
        let _ = s.handle(Input::SetColour {
            secondary: false,
            ch: b'J',
        });
        let _ = drag(&mut s, (10, 10), (12, 10), 0);
        let _ = s.handle(Input::Command(Command::Tool(Tool::Select)));
        assert_eq!(s.cursor(), "move");
        // Ctrl+C is the browser's while nothing is selected.
        let ctrl_c = Keys {
            key: "c",
            ctrl: true,
            shift: false,
            alt: false,
        };
        assert_eq!(s.key(ctrl_c), None);
        let _ = drag(&mut s, (10, 10), (12, 11), 0);
        assert_eq!(
            s.selection(),
            Rect::spanning(Pos::new(10, 10), Pos::new(12, 11))
        );
        assert!(s.key(ctrl_c).is_some());
        // Lift it and move it three cells down: the hole gets the secondary colour (track).
        let _ = drag(&mut s, (11, 10), (11, 13), 0);
        assert_eq!(s.floating().map(|f| f.at), Some(Pos::new(10, 13)));
        let _ = s.handle(Input::Command(Command::Deselect));
        assert_eq!(s.circuit().cell(Pos::new(11, 13)), b'J');
        assert_eq!(s.circuit().cell(Pos::new(11, 10)), Circuit::TRACK);
        // Paste under the pointer.
        let _ = s.handle(Input::PointerMove(mouse((50, 50), 0)));
        let _ = s.handle(Input::Command(Command::Paste));
        assert_eq!(s.floating().map(|f| f.at), Some(Pos::new(50, 50)));
        let _ = s.handle(Input::Command(Command::Tool(Tool::Pencil)));
        assert_eq!(s.circuit().cell(Pos::new(51, 50)), b'J');
    }

    #[test]
    fn files_open_or_say_why_not_and_saving_downloads() {
        let mut s = blank();
        let ring = engine::racetrack::samples::by_name("ring").unwrap().text;
        let reply = s.handle(Input::Loaded {
            name: "ring.cir".into(),
            result: Ok(ring.as_bytes().to_vec()),
        });
        assert_eq!(s.name(), "ring");
        assert!(reply.effects.contains(&Effect::Autosave));
        assert!(solve_request(&reply.effects).is_some());
        assert_eq!(
            s.notice().map(|n| (n.error, n.text.as_str())),
            Some((false, "Opened ring.cir"))
        );
        let _ = s.handle(Input::Loaded {
            name: "odd.BMP".into(),
            result: Ok(b"not a bitmap".to_vec()),
        });
        let notice = s.notice().unwrap();
        assert!(notice.error && notice.text.starts_with("odd.BMP: "));
        assert_eq!(s.name(), "ring", "nothing replaced");
        assert!(s.handle(Input::DismissNotice).redraw);
        let saved = s.handle(Input::SaveCir).effects;
        let [Effect::Download { name, bytes, .. }] = saved.as_slice() else {
            panic!("{saved:?}");
        };
        assert_eq!(name, "ring.cir");
        assert_eq!(&Circuit::parse(bytes).unwrap(), s.circuit());
        let bmp = s.handle(Input::ExportBmp).effects;
        assert!(matches!(
            &bmp[..],
            [Effect::Download {
                mime: "image/bmp",
                ..
            }]
        ));
        assert_eq!(
            s.handle(Input::Command(Command::Open)).effects,
            vec![Effect::Pick(Picker::Circuit)]
        );
        let _ = s.handle(Input::New);
        assert_eq!((s.name(), s.circuit()), ("untitled", &Circuit::blank()));
    }

    #[test]
    fn a_violation_is_focused_and_zoom_keys_step() {
        let mut s = blank();
        assert_eq!(s.zoom_label(), "6×");
        let _ = s.handle(Input::FocusViolation(0));
        let focused = s.view().unwrap();
        assert_eq!(focused.scale, 16);
        let cell = s.report().violations[0].cells[0];
        assert_eq!(focused.cell_at(450.0, 320.0), cell);
        let _ = s.handle(Input::Command(Command::ZoomFit));
        assert_eq!(s.view().unwrap().scale, 6);
        let _ = s.handle(Input::Command(Command::ZoomIn));
        assert!(s.view().unwrap().scale > 6);
        let _ = s.handle(Input::Command(Command::ZoomOne));
        assert_eq!(s.zoom_label(), "1×");
        let wheel = s.handle(Input::Wheel(WheelInput {
            delta_y: -120.0,
            mode: 0,
            ctrl: false,
            at: (450.0, 320.0),
        }));
        assert!(wheel.redraw);
        assert!(s.view().unwrap().scale > 1);
    }
}
