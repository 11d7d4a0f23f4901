//! `#/circuits`: the circuit editor. Draw a contest circuit with mouse, pen or finger; every edit
//! is re-checked against the five rules, and a conforming circuit gets its par time (the optimal
//! lap, solved in the racetrack worker).
//!
//! The model lives in [`crate::editor`]; this page only routes events to it and shows its state.

use std::collections::HashMap;

use engine::racetrack::conformity::{self, Report};
use engine::racetrack::physics::{self, FinishLine};
use engine::racetrack::pilot::Pilot;
use engine::racetrack::samples::{SAMPLES, Sample};
use engine::racetrack::{Circuit, LineEnding, Pos, bmp, colour, paint};
use gloo_events::{EventListener, EventListenerOptions};
use gloo_worker::{Spawnable, WorkerBridge};
use wasm_bindgen::JsCast;
use web_sys::{
    DragEvent, File, HtmlCanvasElement, HtmlElement, HtmlInputElement, HtmlSelectElement,
    KeyboardEvent, PointerEvent, WheelEvent,
};
use yew::prelude::*;

use crate::browser_file;
use crate::canvas::{Surface, Viewport, annotate, use_viewport};
use crate::editor::document::Document;
use crate::editor::laps::{LapCache, TrackMask};
use crate::editor::selection::{Block, Floating, Rect};
use crate::editor::tool::{self, Command, Keys, Tool};
use crate::editor::view::{Frame, View};
use crate::editor::{browser, render};
use crate::workers::racetrack::{RacetrackWorker, Request, RequestId, Response, SolvedLap};
use crate::zoom::Wheel;

/// The sample shown to a first-time visitor: the first conforming one.
fn default_sample() -> &'static Sample {
    SAMPLES.iter().find(|s| s.conforming).unwrap_or(&SAMPLES[0])
}

/// What the pointer is doing.
#[derive(Clone, Debug)]
enum Drag {
    /// Freehand painting (pencil, brush, eraser) with `ch`, last seen at `last`.
    Paint { ch: u8, last: Pos },
    /// A line or rectangle from `start` to `end`.
    Shape { ch: u8, start: Pos, end: Pos },
    /// Drawing a selection.
    Select { start: Pos, end: Pos },
    /// Moving the floating block, grabbed at `grab` cells from its corner.
    Move { grab: Pos },
    /// Panning, last seen at buffer point `last`.
    Pan { last: (f64, f64) },
    /// Two fingers: zoom and pan from the state when the second finger landed.
    Pinch {
        view: View,
        distance: f64,
        middle: (f64, f64),
    },
}

/// The par time's state.
#[derive(Clone, Debug, PartialEq)]
enum Par {
    /// The circuit does not conform: no lap to time.
    NotConforming,
    /// Waiting for the worker's answer to request `id`, about `revision` whose track is `mask`.
    Pending {
        id: RequestId,
        revision: u64,
        mask: TrackMask,
        previous: Option<SolvedLap>,
    },
    /// The optimal lap of `revision`, solved in `millis` by the worker, or found in the cache.
    Done {
        lap: SolvedLap,
        revision: u64,
        millis: f64,
        cached: bool,
    },
    /// No lap (or the worker failed).
    Failed { reason: String, revision: u64 },
}

pub enum Msg {
    PointerDown(PointerEvent),
    PointerMove(PointerEvent),
    PointerUp(PointerEvent),
    PointerLeave,
    Wheel(WheelEvent),
    KeyDown(KeyboardEvent),
    KeyUp(KeyboardEvent),
    Command(Command),
    SetColour {
        secondary: bool,
        ch: u8,
    },
    New,
    Preset(String),
    OpenFiles(Vec<File>),
    Loaded {
        name: String,
        result: Result<Vec<u8>, String>,
    },
    SaveCir,
    ExportBmp,
    ExportPng,
    ImportBmp,
    FocusViolation(usize),
    Worker(Response),
    DismissNotice,
}

/// The page: the editor, redrawn when the window's size or pixel ratio changes.
#[function_component]
pub fn Circuits() -> Html {
    let viewport = use_viewport();
    html! { <Editor {viewport} /> }
}

#[derive(Properties, PartialEq)]
pub struct EditorProps {
    viewport: Viewport,
}

/// The editor's state.
pub struct Editor {
    doc: Document,
    name: String,
    tool: Tool,
    primary: u8,
    secondary: u8,
    view: Option<View>,
    frame: Option<Frame>,
    grid: bool,
    show_lap: bool,
    cheatsheet: bool,
    hover: Option<Pos>,
    drag: Option<Drag>,
    touches: HashMap<i32, (f64, f64)>,
    /// Wheel scrolling not yet turned into zoom steps.
    wheel: Wheel,
    space: bool,
    selection: Option<Rect>,
    floating: Option<Floating>,
    clipboard: Option<Block>,
    report: Report,
    finish: Option<FinishLine>,
    checked: u64,
    /// How long the last conformity check took, in milliseconds.
    check_millis: f64,
    par: Par,
    /// Par times of track shapes solved before.
    laps: LapCache,
    next_id: RequestId,
    notice: Option<(bool, String)>,
    worker: Option<WorkerBridge<RacetrackWorker>>,
    canvas: NodeRef,
    cir_input: NodeRef,
    bmp_input: NodeRef,
    bitmap: Option<HtmlCanvasElement>,
    drawn_revision: Option<u64>,
    listeners: Vec<EventListener>,
}

impl Component for Editor {
    type Message = Msg;
    type Properties = EditorProps;

    fn create(ctx: &Context<Self>) -> Self {
        let (name, circuit) = browser::restore().unwrap_or_else(|| {
            let sample = default_sample();
            let circuit = Circuit::parse(sample.text.as_bytes()).unwrap_or_default();
            (sample.name.to_owned(), circuit)
        });
        let link = ctx.link().clone();
        let worker = RacetrackWorker::spawner()
            .callback(move |response| link.send_message(Msg::Worker(response)))
            .spawn("racetrack_worker.js");
        let mut page = Editor {
            doc: Document::new(circuit),
            name,
            tool: Tool::Pencil,
            primary: b'C',
            secondary: Circuit::TRACK,
            view: None,
            frame: None,
            grid: true,
            show_lap: false,
            cheatsheet: false,
            hover: None,
            drag: None,
            touches: HashMap::new(),
            wheel: Wheel::default(),
            space: false,
            selection: None,
            floating: None,
            clipboard: None,
            report: Report::default(),
            finish: None,
            checked: u64::MAX,
            check_millis: 0.0,
            par: Par::NotConforming,
            laps: LapCache::new(32),
            next_id: 1,
            notice: None,
            worker: Some(worker),
            canvas: NodeRef::default(),
            cir_input: NodeRef::default(),
            bmp_input: NodeRef::default(),
            bitmap: render::bitmap(),
            drawn_revision: None,
            listeners: Vec::new(),
        };
        page.after_edit(false);
        page
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::PointerDown(e) => self.pointer_down(&e),
            Msg::PointerMove(e) => self.pointer_move(&e),
            Msg::PointerUp(e) => self.pointer_up(&e),
            Msg::PointerLeave => {
                let had = self.hover.take().is_some();
                had && self.drag.is_none()
            }
            Msg::Wheel(e) => {
                e.prevent_default();
                let (Some(frame), Some(view)) = (self.frame, self.view) else {
                    return false;
                };
                let steps = self.wheel.steps(e.delta_y());
                if steps == 0 {
                    return false;
                }
                let anchor = self.buffer_point(number(e.offset_x()), number(e.offset_y()));
                self.view = Some(view.zoom_steps(frame, steps, anchor));
                true
            }
            Msg::KeyDown(e) => self.key_down(ctx, &e),
            Msg::KeyUp(e) => {
                if e.key() == " " {
                    self.space = false;
                }
                false
            }
            Msg::Command(command) => self.command(ctx, command),
            Msg::SetColour { secondary, ch } => {
                if secondary {
                    self.secondary = ch;
                } else {
                    self.primary = ch;
                }
                true
            }
            Msg::New => {
                self.load(Circuit::blank(), "untitled".to_owned());
                true
            }
            Msg::Preset(name) => {
                match SAMPLES.iter().find(|s| s.name == name) {
                    Some(sample) => match Circuit::parse(sample.text.as_bytes()) {
                        Ok(circuit) => self.load(circuit, sample.name.to_owned()),
                        Err(e) => {
                            self.notice =
                                Some((true, format!("{}.cir cannot be read: {e}", sample.name)))
                        }
                    },
                    None => return false,
                }
                true
            }
            Msg::OpenFiles(files) => {
                if let Some(file) = files.into_iter().next() {
                    let name = file.name();
                    ctx.link().send_future(async move {
                        let result = browser_file::read(file).await;
                        Msg::Loaded { name, result }
                    });
                }
                false
            }
            Msg::Loaded { name, result } => {
                let stem = name
                    .rsplit_once('.')
                    .map_or(name.as_str(), |(stem, _)| stem)
                    .to_owned();
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
                        self.load(circuit, stem);
                        self.notice = Some((false, format!("Opened {name}")));
                    }
                    Err(e) => self.notice = Some((true, e)),
                }
                true
            }
            Msg::SaveCir => {
                self.drop_floating();
                let text = self.doc.circuit().to_text(LineEnding::default());
                browser_file::download_text(&text, &format!("{}.cir", self.name));
                true
            }
            Msg::ExportBmp => {
                self.drop_floating();
                let bytes = bmp::write(self.doc.circuit());
                browser_file::download(&bytes, &format!("{}.bmp", self.name), "image/bmp");
                true
            }
            Msg::ExportPng => {
                self.drop_floating();
                if let Some(url) = render::png_data_url(self.doc.circuit(), 8) {
                    browser_file::download_url(&url, &format!("{}.png", self.name));
                }
                true
            }
            Msg::ImportBmp => {
                click(&self.bmp_input);
                false
            }
            Msg::FocusViolation(i) => {
                let cell = self
                    .report
                    .violations
                    .get(i)
                    .and_then(|v| v.cells.first().copied());
                if let (Some(cell), Some(frame), Some(view)) = (cell, self.frame, self.view) {
                    let close = (frame.fit_scale() * 3).min(frame.max_scale());
                    self.view = Some(view.focus(frame, cell, close));
                }
                true
            }
            Msg::Worker(response) => self.worker_answer(response),
            Msg::DismissNotice => self.notice.take().is_some(),
        }
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let conforming = self.report.is_conforming();
        let rules: Vec<String> = self
            .report
            .rules()
            .iter()
            .map(|r| r.number().to_string())
            .collect();
        let canvas = html! {
            <canvas ref={self.canvas.clone()}
                class={classes!("circuit-canvas", "editor-canvas", self.cursor_class())}
                data-testid="circuit-canvas" data-sample={self.name.clone()}
                data-revision={self.doc.revision().to_string()}
                data-tool={self.tool.id()}
                aria-label={format!("circuit {} (editable)", self.name)} role="img"
                tabindex="0"
                onpointerdown={link.callback(Msg::PointerDown)}
                onpointermove={link.callback(Msg::PointerMove)}
                onpointerup={link.callback(Msg::PointerUp)}
                onpointercancel={link.callback(Msg::PointerUp)}
                onpointerleave={link.callback(|_| Msg::PointerLeave)}
                oncontextmenu={Callback::from(|e: MouseEvent| e.prevent_default())} />
        };
        let ondrop = link.batch_callback(|e: DragEvent| {
            e.prevent_default();
            let files = e.data_transfer().and_then(|d| d.files());
            files.map(|list| Msg::OpenFiles(browser_file::list(&list)))
        });
        let ondragover = Callback::from(|e: DragEvent| e.prevent_default());
        let on_files = link.batch_callback(|e: Event| {
            let input = e.target_unchecked_into::<HtmlInputElement>();
            let files = input.files().map(|l| browser_file::list(&l));
            input.set_value("");
            files.map(Msg::OpenFiles)
        });
        let on_preset = link.callback(|e: Event| {
            Msg::Preset(e.target_unchecked_into::<HtmlSelectElement>().value())
        });
        let cmd = |c: Command| link.callback(move |_: MouseEvent| Msg::Command(c));
        let zoom_label = match (self.view, self.frame) {
            (Some(v), Some(f)) => format!("{:.0}×", f64::from(v.scale) / f.ratio),
            _ => "fit".to_owned(),
        };
        html! {
            <div class="page editor" ondrop={ondrop} ondragover={ondragover}>
                <div class="editor-bar" role="toolbar" aria-label="File and view">
                    <div class="editor-group">
                        <button class="ebtn" title="New blank circuit" data-testid="new"
                            onclick={link.callback(|_| Msg::New)}>{ icon("new") }<span>{ "New" }</span></button>
                        <button class="ebtn" title="Open a .cir (Ctrl+O), or drop one anywhere"
                            onclick={cmd(Command::Open)}>{ icon("open") }<span>{ "Open" }</span></button>
                        <button class="ebtn" title="Save as .cir (Ctrl+S)" data-testid="save-cir"
                            onclick={link.callback(|_| Msg::SaveCir)}>{ icon("save") }<span>{ "Save" }</span></button>
                        <button class="ebtn" title="Import a 150×100 BMP" data-testid="import-bmp"
                            onclick={link.callback(|_| Msg::ImportBmp)}>{ "BMP in" }</button>
                        <button class="ebtn" title="Export as 16-colour BMP" data-testid="export-bmp"
                            onclick={link.callback(|_| Msg::ExportBmp)}>{ "BMP out" }</button>
                        <button class="ebtn" title="Export as PNG" data-testid="export-png"
                            onclick={link.callback(|_| Msg::ExportPng)}>{ "PNG" }</button>
                        <input ref={self.cir_input.clone()} type="file" accept=".cir,.txt,.bmp"
                            class="editor-hidden" data-testid="cir-file" onchange={on_files.clone()} />
                        <input ref={self.bmp_input.clone()} type="file" accept=".bmp"
                            class="editor-hidden" data-testid="bmp-file" onchange={on_files} />
                    </div>
                    <label class="editor-preset">
                        <span>{ "Preset" }</span>
                        <select data-testid="circuit-sample" onchange={on_preset}>
                            { for SAMPLES.iter().map(|s| html! {
                                <option value={s.name} selected={s.name == self.name}>
                                    { s.name }{ if s.conforming { "" } else { " (not conforming)" } }
                                </option>
                            }) }
                        </select>
                    </label>
                    <div class="editor-group">
                        <button class="ebtn icon" title="Undo (Ctrl+Z)" data-testid="undo"
                            disabled={!self.doc.can_undo()} onclick={cmd(Command::Undo)}>{ icon("undo") }</button>
                        <button class="ebtn icon" title="Redo (Ctrl+Shift+Z, Ctrl+Y)" data-testid="redo"
                            disabled={!self.doc.can_redo()} onclick={cmd(Command::Redo)}>{ icon("redo") }</button>
                    </div>
                    <div class="editor-group">
                        <button class="ebtn icon" title="Zoom out (−)" onclick={cmd(Command::ZoomOut)}>{ "−" }</button>
                        <span class="editor-zoom" data-testid="zoom">{ zoom_label }</span>
                        <button class="ebtn icon" title="Zoom in (+)" onclick={cmd(Command::ZoomIn)}>{ "+" }</button>
                        <button class="ebtn" title="Fit (0)" onclick={cmd(Command::ZoomFit)}>{ "Fit" }</button>
                        <button class="ebtn" title="1:1 (1)" onclick={cmd(Command::ZoomOne)}>{ "1:1" }</button>
                    </div>
                    <div class="editor-group">
                        <button class={classes!("ebtn", self.grid.then_some("on"))} title="Cell grid (G)"
                            aria-pressed={self.grid.to_string()} onclick={cmd(Command::ToggleGrid)}>{ icon("grid") }<span>{ "Grid" }</span></button>
                        <button class={classes!("ebtn", self.show_lap.then_some("on"))} title="Optimal lap (O)"
                            data-testid="show-lap" aria-pressed={self.show_lap.to_string()}
                            onclick={cmd(Command::ToggleLap)}>{ icon("lap") }<span>{ "Lap" }</span></button>
                        <button class="ebtn icon" title="Keyboard shortcuts (?)" data-testid="cheatsheet-button"
                            onclick={cmd(Command::Cheatsheet)}>{ "?" }</button>
                    </div>
                </div>
                <div class="editor-body">
                    <div class="editor-tools" role="toolbar" aria-label="Tools">
                        { for Tool::ALL.iter().map(|&t| html! {
                            <button class={classes!("tool", (t == self.tool).then_some("active"))}
                                title={format!("{} ({})", t.name(), t.key())} aria-label={t.name()}
                                aria-pressed={(t == self.tool).to_string()}
                                data-testid={format!("tool-{}", t.id())}
                                onclick={link.callback(move |_| Msg::Command(Command::Tool(t)))}>
                                { icon(t.id()) }
                                <kbd>{ t.key().trim_start_matches("Shift+") }</kbd>
                            </button>
                        }) }
                    </div>
                    <section class="editor-stage">
                        { canvas }
                        <div class="editor-status" data-testid="status">
                            { self.status_text() }
                        </div>
                    </section>
                    <aside class="editor-side">
                        { self.palette_view(ctx) }
                        { self.conformity_view(ctx, conforming, rules.join(",")) }
                        { self.par_view() }
                    </aside>
                </div>
                if let Some((error, text)) = &self.notice {
                    <div class={classes!("editor-notice", error.then_some("error"))}
                        role={if *error { "alert" } else { "status" }}
                        data-testid={if *error { "file-error" } else { "notice" }}>
                        <span>{ text }</span>
                        <button class="ebtn icon" aria-label="Dismiss" onclick={link.callback(|_| Msg::DismissNotice)}>{ "×" }</button>
                    </div>
                }
                if self.cheatsheet {
                    { self.cheatsheet_view(ctx) }
                }
            </div>
        }
    }

    fn changed(&mut self, _ctx: &Context<Self>, _old: &EditorProps) -> bool {
        // The window changed: the next draw measures the canvas again.
        self.frame = None;
        true
    }

    fn rendered(&mut self, ctx: &Context<Self>, first_render: bool) {
        if first_render {
            self.listen(ctx);
        }
        self.draw();
    }
}

impl Editor {
    fn listen(&mut self, ctx: &Context<Self>) {
        let Some(window) = web_sys::window() else {
            return;
        };
        let active = EventListenerOptions::enable_prevent_default();
        let link = ctx.link().clone();
        self.listeners.push(EventListener::new_with_options(
            &window,
            "keydown",
            active,
            move |e| {
                if let Some(e) = e.dyn_ref::<KeyboardEvent>() {
                    link.send_message(Msg::KeyDown(e.clone()));
                }
            },
        ));
        let link = ctx.link().clone();
        self.listeners
            .push(EventListener::new(&window, "keyup", move |e| {
                if let Some(e) = e.dyn_ref::<KeyboardEvent>() {
                    link.send_message(Msg::KeyUp(e.clone()));
                }
            }));
        if let Some(canvas) = self.canvas.cast::<HtmlCanvasElement>() {
            let link = ctx.link().clone();
            self.listeners
                .push(crate::canvas::wheel_listener(&canvas, move |e| {
                    link.send_message(Msg::Wheel(e))
                }));
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
        if revision == self.checked {
            return;
        }
        self.checked = revision;
        let circuit = self.doc.circuit();
        let start = now();
        self.report = conformity::check(circuit);
        self.check_millis = now() - start;
        self.finish = physics::finish_line(circuit);
        if save {
            browser::autosave(&self.name, circuit);
        }
        let previous = match &self.par {
            Par::Done { lap, .. } => Some(lap.clone()),
            Par::Pending { previous, .. } => previous.clone(),
            _ => None,
        };
        if let Par::Pending { id, .. } = self.par {
            self.send(Request::Cancel { id });
        }
        let mask = TrackMask::of(circuit);
        self.par = if !self.report.is_conforming() {
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
            self.send(Request::Solve {
                id,
                circuit: circuit.to_text(LineEnding::Lf),
                pilot: Pilot::Optimal,
            });
            Par::Pending {
                id,
                revision,
                mask,
                previous,
            }
        };
    }

    fn send(&self, request: Request) {
        if let Some(worker) = &self.worker {
            worker.send(request);
        }
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

    /// The canvas buffer point of a pointer event's offset (CSS pixels).
    fn buffer_point(&self, x: f64, y: f64) -> (f64, f64) {
        let ratio = self.frame.map_or(1.0, |f| f.ratio);
        (x * ratio, y * ratio)
    }

    fn event_point(&self, e: &PointerEvent) -> (f64, f64) {
        self.buffer_point(number(e.offset_x()), number(e.offset_y()))
    }

    fn cell_of(&self, point: (f64, f64)) -> Option<Pos> {
        self.view.map(|v| v.cell_at(point.0, point.1))
    }

    /// The cells a freehand tool covers at `p`.
    fn footprint(&self, p: Pos) -> Vec<Pos> {
        match self.tool {
            Tool::Brush | Tool::Eraser => paint::brush(p, 1),
            _ if Circuit::contains(p.x, p.y) => vec![p],
            _ => Vec::new(),
        }
    }

    fn pointer_down(&mut self, e: &PointerEvent) -> bool {
        let point = self.event_point(e);
        if let Some(canvas) = self.canvas.cast::<HtmlElement>() {
            let _ = canvas.set_pointer_capture(e.pointer_id());
            let _ = canvas.focus();
        }
        if e.pointer_type() == "touch" {
            self.touches.insert(e.pointer_id(), point);
            if self.touches.len() == 2 {
                // A second finger: whatever the first began becomes a pinch.
                self.doc.cancel_stroke();
                let pts: Vec<_> = self.touches.values().copied().collect();
                if let Some(view) = self.view {
                    self.drag = Some(Drag::Pinch {
                        view,
                        distance: distance(pts[0], pts[1]).max(1.0),
                        middle: middle(pts[0], pts[1]),
                    });
                }
                return true;
            }
            if self.touches.len() > 2 {
                return false;
            }
        }
        e.prevent_default();
        let Some(p) = self.cell_of(point) else {
            return false;
        };
        self.hover = Some(p);
        if e.button() == 1 || self.space {
            self.drag = Some(Drag::Pan { last: point });
            return true;
        }
        let secondary = e.button() == 2;
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
                if let Some(old) = self.doc.circuit().get(p.x, p.y) {
                    let cells = paint::cells_of(self.doc.circuit(), old);
                    self.doc.paint(cells, ch);
                    self.commit();
                }
            }
            Tool::Eyedropper => {
                if let Some(picked) = self.doc.circuit().get(p.x, p.y) {
                    if secondary {
                        self.secondary = picked;
                    } else {
                        self.primary = picked;
                    }
                }
            }
            Tool::Select => {
                if let Some(floating) = &self.floating {
                    if floating.contains(p) {
                        let at = floating.at;
                        self.drag = Some(Drag::Move {
                            grab: Pos::new(p.x - at.x, p.y - at.y),
                        });
                        return true;
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
        }
        true
    }

    fn pointer_move(&mut self, e: &PointerEvent) -> bool {
        let point = self.event_point(e);
        if e.pointer_type() == "touch" && self.touches.contains_key(&e.pointer_id()) {
            self.touches.insert(e.pointer_id(), point);
            if let (
                Some(Drag::Pinch {
                    view,
                    distance: d0,
                    middle: m0,
                }),
                Some(frame),
            ) = (self.drag.clone(), self.frame)
            {
                let pts: Vec<_> = self.touches.values().copied().collect();
                if pts.len() < 2 {
                    return false;
                }
                let (d, m) = (distance(pts[0], pts[1]), middle(pts[0], pts[1]));
                let scale = (f64::from(view.scale) * d / d0).round().max(1.0) as u32;
                self.view = Some(
                    view.zoom_to(frame, scale, m0)
                        .pan(frame, m.0 - m0.0, m.1 - m0.1),
                );
                return true;
            }
        }
        let p = self.cell_of(point);
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
            Some(Drag::Pan { last }) => {
                if let (Some(frame), Some(view)) = (self.frame, self.view) {
                    self.view = Some(view.pan(frame, point.0 - last.0, point.1 - last.1));
                }
                self.drag = Some(Drag::Pan { last: point });
                true
            }
            Some(Drag::Pinch { .. }) | None => moved,
        }
    }

    fn pointer_up(&mut self, e: &PointerEvent) -> bool {
        if self.touches.remove(&e.pointer_id()).is_some()
            && matches!(self.drag, Some(Drag::Pinch { .. }))
        {
            if self.touches.is_empty() {
                self.drag = None;
            }
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
            Some(Drag::Move { .. } | Drag::Pan { .. } | Drag::Pinch { .. }) | None => {}
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

    fn key_down(&mut self, ctx: &Context<Self>, e: &KeyboardEvent) -> bool {
        let tag = e
            .target()
            .and_then(|t| t.dyn_into::<HtmlElement>().ok())
            .map(|el| el.tag_name());
        if matches!(tag.as_deref(), Some("INPUT" | "SELECT" | "TEXTAREA")) {
            return false;
        }
        // Space on a focused button presses it; elsewhere it is held to pan.
        if e.key() == " " && tag.as_deref() != Some("BUTTON") {
            e.prevent_default();
            self.space = true;
            return false;
        }
        let keys = Keys {
            key: &e.key(),
            ctrl: e.ctrl_key() || e.meta_key(),
            shift: e.shift_key(),
            alt: e.alt_key(),
        };
        // Copy and paste keys stay the browser's unless there is something of ours to copy or
        // paste (text selected in the panels, say).
        let ours = |c: &Command| match c {
            Command::Copy | Command::Cut => self.selection.is_some() || self.floating.is_some(),
            Command::Paste => self.clipboard.is_some(),
            _ => true,
        };
        match tool::shortcut(keys).filter(ours) {
            Some(command) => {
                e.prevent_default();
                self.command(ctx, command)
            }
            None => false,
        }
    }

    fn command(&mut self, _ctx: &Context<Self>, command: Command) -> bool {
        let frame = self.frame;
        let centre = frame.map_or((0.0, 0.0), |f| {
            (f64::from(f.width) / 2.0, f64::from(f.height) / 2.0)
        });
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
                        .filter(|p| Circuit::contains(p.x, p.y))
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
            Command::ZoomIn | Command::ZoomOut => {
                if let (Some(f), Some(v)) = (frame, self.view) {
                    let steps = if command == Command::ZoomIn { 1 } else { -1 };
                    self.view = Some(v.zoom_steps(f, steps, centre));
                }
            }
            Command::ZoomFit => self.view = frame.map(View::fit),
            Command::ZoomOne => {
                if let (Some(f), Some(v)) = (frame, self.view) {
                    self.view = Some(v.zoom_to(f, f.one_scale(), centre));
                }
            }
            Command::Cheatsheet => self.cheatsheet = !self.cheatsheet,
            Command::Save => {
                self.drop_floating();
                let text = self.doc.circuit().to_text(LineEnding::default());
                browser_file::download_text(&text, &format!("{}.cir", self.name));
            }
            Command::Open => click(&self.cir_input),
        }
        true
    }

    /// Paints the canvas: sizes its buffer, fits the view the first time, draws the scene.
    fn draw(&mut self) {
        let Some((canvas, surface)) = Surface::prepare_node(&self.canvas) else {
            return;
        };
        let ratio = surface.ratio;
        let frame = Frame {
            width: surface.width,
            height: surface.height,
            ratio,
        };
        if self.frame != Some(frame) {
            let refit = self.view.is_none() || self.frame.is_none();
            self.frame = Some(frame);
            if refit {
                self.view = Some(View::fit(frame));
            }
        }
        let Some(view) = self.view else { return };
        let Some(bitmap) = &self.bitmap else { return };
        if self.drawn_revision != Some(self.doc.revision()) {
            render::update_bitmap(bitmap, self.doc.circuit());
            self.drawn_revision = Some(self.doc.revision());
        }
        let preview = match &self.drag {
            Some(Drag::Shape { start, end, .. }) => self.shape_cells(*start, *end),
            _ => Vec::new(),
        };
        let preview_ch = match &self.drag {
            Some(Drag::Shape { ch, .. }) => *ch,
            _ => self.primary,
        };
        let hover = match (self.hover, &self.drag) {
            (Some(p), None) if self.tool != Tool::Select => self.footprint(p),
            _ => Vec::new(),
        };
        let lap = match (&self.par, self.show_lap) {
            (Par::Done { lap, .. }, true) => Some(lap.positions.as_slice()),
            _ => None,
        };
        let scene = render::Scene {
            view,
            ratio,
            grid: self.grid,
            violations: &self.report.violations,
            finish: self.finish,
            lap,
            selection: self.selection,
            floating: self.floating.as_ref(),
            preview: &preview,
            preview_ch,
            hover: &hover,
        };
        render::draw(&surface, bitmap, &scene);
        annotate(&canvas, "cell", view.scale);
        annotate(&canvas, "origin", format!("{},{}", view.left, view.top));
    }

    fn cursor_class(&self) -> &'static str {
        match (&self.drag, self.space, self.tool) {
            (Some(Drag::Pan { .. }), _, _) => "grabbing",
            (_, true, _) => "grab",
            (_, _, Tool::Select) => "move",
            _ => "paint",
        }
    }

    fn status_text(&self) -> Html {
        let cell = match self.hover.filter(|p| Circuit::contains(p.x, p.y)) {
            Some(p) => {
                let ch = self.doc.circuit().cell(p.x, p.y);
                let what = if ch == Circuit::TRACK {
                    "track".to_owned()
                } else {
                    format!("'{}' {}", ch as char, colour_name(ch))
                };
                html! {
                    <>
                        <span class="editor-xy" data-testid="status-cell">{ format!("{},{}", p.x, p.y) }</span>
                        <span class="editor-char" data-testid="status-char" data-char={(ch as char).to_string()}>
                            <i class="chip" style={format!("background:{}", colour::css(ch))}></i>{ what }
                        </span>
                    </>
                }
            }
            None => html! { <span class="editor-xy muted">{ "–,–" }</span> },
        };
        let selection = match (&self.floating, self.selection) {
            (Some(f), _) => format!("floating {}×{}", f.block.width(), f.block.height()),
            (None, Some(r)) => format!("selection {}×{}", r.width(), r.height()),
            _ => String::new(),
        };
        html! {
            <>
                { cell }
                <span class="editor-spacer"></span>
                <span>{ selection }</span>
                <span>{ self.tool.name() }</span>
                <span>{ format!("{} track cells", self.doc.circuit().track_cells()) }</span>
                <span class="editor-name">{ format!("{}.cir", self.name) }</span>
            </>
        }
    }

    fn palette_view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let swatch = |ch: u8| {
            let label = colour_name(ch);
            let pick = link.callback(move |_: MouseEvent| Msg::SetColour {
                secondary: false,
                ch,
            });
            let pick2 = link.callback(move |e: MouseEvent| {
                e.prevent_default();
                Msg::SetColour {
                    secondary: true,
                    ch,
                }
            });
            let id = if ch == Circuit::TRACK {
                "track".to_owned()
            } else {
                (ch as char).to_string()
            };
            html! {
                <button class={classes!("swatch", (ch == self.primary).then_some("primary"),
                        (ch == self.secondary).then_some("secondary"))}
                    style={format!("--swatch:{}", colour::css(ch))}
                    title={format!("{label}{} — left click: primary, right click: secondary",
                        if ch == Circuit::TRACK { String::new() } else { format!(" ({})", ch as char) })}
                    aria-label={label.to_owned()}
                    data-testid={format!("colour-{id}")}
                    onclick={pick} oncontextmenu={pick2}>
                    { if ch == Circuit::TRACK { "track" } else { "" } }
                </button>
            }
        };
        let order: Vec<u8> = std::iter::once(Circuit::TRACK)
            .chain(
                colour::PALETTE_CHARS
                    .iter()
                    .copied()
                    .filter(|&c| c != Circuit::TRACK),
            )
            .collect();
        html! {
            <section class="editor-card">
                <h2>{ "Colours" }</h2>
                <div class="editor-current">
                    <div class="pair">
                        <i class="chip big secondary-chip" style={format!("background:{}", colour::css(self.secondary))}
                            title="secondary (right button)"></i>
                        <i class="chip big primary-chip" style={format!("background:{}", colour::css(self.primary))}
                            title="primary (left button)" data-testid="primary" data-char={(self.primary as char).to_string()}></i>
                    </div>
                    <div class="pair-text">
                        <span>{ format!("Left: {}", colour_name(self.primary)) }</span>
                        <span>{ format!("Right: {}", colour_name(self.secondary)) }</span>
                    </div>
                    <button class="ebtn icon" title="Swap (X)"
                        onclick={link.callback(|_| Msg::Command(Command::SwapColours))}>{ "⇄" }</button>
                </div>
                <div class="editor-palette">{ for order.into_iter().map(swatch) }</div>
            </section>
        }
    }

    fn conformity_view(&self, ctx: &Context<Self>, conforming: bool, rules: String) -> Html {
        let link = ctx.link();
        html! {
            <section class="editor-card" data-testid="conformity"
                data-conforming={conforming.to_string()} data-rules={rules}
                data-revision={self.checked.to_string()}
                data-check-ms={format!("{:.1}", self.check_millis)}>
                <h2>
                    { "Conformity " }
                    if conforming {
                        <span class="badge ok">{ "conforming" }</span>
                    } else {
                        <span class="badge warn">{ format!("{} problem{}", self.report.violations.len(),
                            if self.report.violations.len() == 1 { "" } else { "s" }) }</span>
                    }
                </h2>
                if conforming {
                    <p class="hint">{ "All five rules hold: the start zone is on one loop around one infield, at least two cells wide." }</p>
                } else {
                    <ul class="editor-violations">
                        { for self.report.violations.iter().enumerate().map(|(i, v)| html! {
                            <li>
                                <button class="violation" data-testid="violation" data-rule={v.rule.number().to_string()}
                                    title="Zoom to it" onclick={link.callback(move |_| Msg::FocusViolation(i))}>
                                    <span class="rule">{ format!("{}", v.rule.number()) }</span>
                                    <span class="what">
                                        <b>{ v.rule.title() }</b>
                                        <span>{ &v.message }</span>
                                    </span>
                                    if let Some(p) = v.cells.first() {
                                        <span class="where">{ format!("{},{}", p.x, p.y) }</span>
                                    }
                                </button>
                            </li>
                        }) }
                    </ul>
                }
            </section>
        }
    }

    fn par_view(&self) -> Html {
        let (state, time, revision, body) = match &self.par {
            Par::NotConforming => (
                "none",
                None,
                None,
                html! { <p class="hint">{ "Make the circuit conform to get its par time." }</p> },
            ),
            Par::Pending { previous, .. } => (
                "pending",
                None,
                None,
                html! {
                    <p class="par-value pending">
                        <span class="spinner"></span>
                        { previous.as_ref().map_or("solving…".to_owned(), |l| format!("{} s", l.time_shown())) }
                    </p>
                },
            ),
            Par::Done {
                lap,
                revision,
                millis,
                cached,
            } => (
                "done",
                Some(lap.time_shown()),
                Some(*revision),
                html! {
                    <>
                        <p class="par-value">{ format!("{} s", lap.time_shown()) }</p>
                        <p class="hint" data-testid="par-detail" data-solve-ms={format!("{millis:.1}")}
                            data-cached={cached.to_string()}>
                            { format!("{} moves by the optimal pilot", lap.moves()) }
                            { if *cached {
                                ", the same track as before.".to_owned()
                            } else {
                                format!(", solved in {millis:.0} ms.")
                            } }
                            { " Press O to draw the lap." }
                        </p>
                    </>
                },
            ),
            Par::Failed { reason, revision } => (
                "failed",
                None,
                Some(*revision),
                html! { <p class="error">{ reason }</p> },
            ),
        };
        html! {
            <section class="editor-card" data-testid="par-time" data-state={state}
                data-time={time} data-revision={revision.map(|r| r.to_string())}>
                <h2>{ "Par time" }</h2>
                { body }
            </section>
        }
    }

    fn cheatsheet_view(&self, ctx: &Context<Self>) -> Html {
        let close = ctx.link().callback(|_| Msg::Command(Command::Cheatsheet));
        html! {
            <div class="editor-modal" data-testid="cheatsheet" role="dialog" aria-label="Keyboard shortcuts"
                onclick={close.clone()}>
                <div class="editor-sheet" onclick={Callback::from(|e: MouseEvent| e.stop_propagation())}>
                    <h2>{ "Keyboard shortcuts" }</h2>
                    <div class="sheet-cols">
                        <table>
                            { for Tool::ALL.iter().map(|t| html! {
                                <tr><td><kbd>{ t.key() }</kbd></td><td>{ t.name() }</td></tr>
                            }) }
                        </table>
                        <table>
                            { for tool::OTHER_SHORTCUTS.iter().map(|(k, what)| html! {
                                <tr><td><kbd>{ *k }</kbd></td><td>{ *what }</td></tr>
                            }) }
                        </table>
                    </div>
                    <button class="ebtn" onclick={close}>{ "Close" }</button>
                </div>
            </div>
        }
    }
}

/// The page's clock, in milliseconds.
fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// A coordinate of an event as `f64` (web-sys types them `i32` or `f64` depending on the target).
fn number(v: impl Into<f64>) -> f64 {
    v.into()
}

fn click(input: &NodeRef) {
    if let Some(input) = input.cast::<HtmlElement>() {
        input.click();
    }
}

fn distance(a: (f64, f64), b: (f64, f64)) -> f64 {
    ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt()
}

fn middle(a: (f64, f64), b: (f64, f64)) -> (f64, f64) {
    ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0)
}

/// The spec's name of the colour `ch` is drawn in.
fn colour_name(ch: u8) -> &'static str {
    colour::PALETTE_NAMES[colour::index(ch)]
}

/// A small line icon for a tool or action.
fn icon(name: &str) -> Html {
    let path = match name {
        "pencil" => "M4 20l4-1 11-11-3-3L5 16l-1 4zM14 6l3 3",
        "brush" => "M5 19c2 0 3-1 3-3s-1-3-3-3M8 16l9-9 2 2-9 9M5 19H3",
        "line" => "M5 19L19 5M4 20h2v-2M18 6V4h2v2",
        "rectangle" => "M4 6h16v12H4z",
        "filled-rectangle" => "M4 6h16v12H4zM7 9h10v6H7z",
        "fill" => "M5 12l7-7 7 7-7 7zM19 15c1 2 2 3 2 4a2 2 0 01-4 0c0-1 1-2 2-4z",
        "select" => "M4 4h3M10 4h4M17 4h3v3M20 10v4M20 17v3h-3M14 20h-4M7 20H4v-3M4 14v-4M4 7V4",
        "eyedropper" => "M14 4l6 6-2 2-6-6zM13 7l-8 8v4h4l8-8",
        "eraser" => "M8 20h12M4 15l9-9 6 6-7 7H8z M9 10l6 6",
        "replace" => "M4 7h11l-3-3M20 17H9l3 3M4 7v3M20 17v-3",
        "new" => "M6 3h8l5 5v13H6zM14 3v5h5M12 11v6M9 14h6",
        "open" => "M3 7h6l2 2h10v10H3zM3 7V5h6",
        "save" => "M5 4h11l3 3v13H5zM8 4v5h7V4M8 20v-6h8v6",
        "undo" => "M9 5L4 10l5 5M4 10h10a5 5 0 010 10h-3",
        "redo" => "M15 5l5 5-5 5M20 10H10a5 5 0 000 10h3",
        "grid" => "M4 4h16v16H4zM4 9h16M4 14h16M9 4v16M14 4v16",
        "lap" => "M5 17c0-6 4-10 9-10 3 0 5 2 5 4s-2 4-5 4H9M9 15l-3 2 3 2",
        _ => "",
    };
    html! {
        <svg class="icon" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor"
            stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round">
            <path d={path} />
        </svg>
    }
}
