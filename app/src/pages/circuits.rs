//! `#/circuits`: the circuit editor. Draw a contest circuit with mouse, pen or finger; every edit
//! is re-checked against the five rules, and a conforming circuit gets its par time (the optimal
//! lap, solved in the racetrack worker).
//!
//! The editor's state and rules of use live in [`crate::editor::session`]; this page turns
//! browser events into its inputs, carries out its effects (worker, downloads, autosave) and
//! draws it.

use engine::racetrack::{Circuit, Pos};
use gloo_events::{EventListener, EventListenerOptions};
use gloo_worker::{Spawnable, WorkerBridge};
use wasm_bindgen::JsCast;
use web_sys::{DragEvent, File, HtmlCanvasElement, HtmlElement, KeyboardEvent, PointerEvent};
use yew::prelude::*;

use crate::browser_file;
use crate::canvas::{Surface, Viewport, annotate, use_viewport};
use crate::clock::page_ms_f64 as now;
use crate::editor::panels::{Cheatsheet, Conformity, NoticeBar, Palette, ParTime, Status};
use crate::editor::session::{Effect, Input, Picker, Session, default_sample};
use crate::editor::tool::Keys;
use crate::editor::toolbar::{EditorBar, Tools};
use crate::editor::view::Frame;
use crate::editor::{browser, render};
use crate::workers::racetrack::{RacetrackWorker, Response};

pub enum Msg {
    Input(Input),
    /// A pointer event, turned into an input once its buffer point is known.
    Pointer(PointerEvent),
    KeyDown(KeyboardEvent),
    KeyUp(KeyboardEvent),
    OpenFiles(Vec<File>),
    Worker(Response),
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

/// The editor: a session and what the browser needs around it.
pub struct Editor {
    session: Session,
    worker: WorkerBridge<RacetrackWorker>,
    canvas: NodeRef,
    cir_input: NodeRef,
    bmp_input: NodeRef,
    /// The circuit, one pixel per cell, and the revision it shows.
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
            .spawn(crate::lab::worker::WORKER_SCRIPT);
        let mut page = Editor {
            session: Session::new(circuit, name, now),
            worker,
            canvas: NodeRef::default(),
            cir_input: NodeRef::default(),
            bmp_input: NodeRef::default(),
            bitmap: render::bitmap(),
            drawn_revision: None,
            listeners: Vec::new(),
        };
        let effects = page.session.take_effects();
        page.carry_out(effects);
        page
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        let reply = match msg {
            Msg::Input(input) => self.session.handle(input),
            Msg::Pointer(e) => match self.pointer_input(&e) {
                Some(input) => self.session.handle(input),
                None => return false,
            },
            Msg::KeyDown(e) => match self.key_down(&e) {
                Some(reply) => reply,
                None => return false,
            },
            Msg::KeyUp(e) => {
                if e.key() != " " {
                    return false;
                }
                self.session.handle(Input::Space(false))
            }
            Msg::OpenFiles(files) => {
                if let Some(file) = files.into_iter().next() {
                    let name = file.name();
                    ctx.link().send_future(async move {
                        let result = browser_file::read(file).await;
                        Msg::Input(Input::Loaded { name, result })
                    });
                }
                return false;
            }
            Msg::Worker(response) => self.session.handle(Input::Worker(response)),
        };
        self.carry_out(reply.effects);
        reply.redraw
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let s = &self.session;
        let on_input = link.callback(Msg::Input);
        let on_files = link.callback(Msg::OpenFiles);
        let pointer = link.callback(Msg::Pointer);
        let ondrop = link.batch_callback(|e: DragEvent| {
            e.prevent_default();
            let files = e.data_transfer().and_then(|d| d.files());
            files.map(|list| Msg::OpenFiles(browser_file::list(&list)))
        });
        let ondragover = Callback::from(|e: DragEvent| e.prevent_default());
        let hovered = s
            .hover()
            .filter(|&p| Circuit::contains(p))
            .map(|p| (p, s.circuit().cell(p)));
        let selection = match (s.floating(), s.selection()) {
            (Some(f), _) => format!("floating {}×{}", f.block.width(), f.block.height()),
            (None, Some(r)) => format!("selection {}×{}", r.width(), r.height()),
            _ => String::new(),
        };
        html! {
            <div class="page editor" {ondrop} {ondragover}>
                <EditorBar name={s.name().to_owned()} can_undo={s.doc().can_undo()}
                    can_redo={s.doc().can_redo()} zoom={s.zoom_label()} grid={s.grid()}
                    show_lap={s.show_lap()} cir_input={self.cir_input.clone()}
                    bmp_input={self.bmp_input.clone()} on_input={on_input.clone()} {on_files} />
                <div class="editor-body">
                    <Tools tool={s.tool()} on_input={on_input.clone()} />
                    <section class="editor-stage">
                        <canvas ref={self.canvas.clone()}
                            class={classes!("circuit-canvas", "editor-canvas", s.cursor())}
                            data-testid="circuit-canvas" data-sample={s.name().to_owned()}
                            data-revision={s.doc().revision().to_string()}
                            data-tool={s.tool().id()}
                            aria-label={format!("circuit {} (editable)", s.name())} role="img"
                            tabindex="0"
                            onpointerdown={pointer.clone()} onpointermove={pointer.clone()}
                            onpointerup={pointer.clone()} onpointercancel={pointer}
                            onpointerleave={link.callback(|_| Msg::Input(Input::PointerLeave))}
                            oncontextmenu={Callback::from(|e: MouseEvent| e.prevent_default())} />
                        <Status cell={hovered} selection={selection} tool={s.tool()}
                            track_cells={s.circuit().track_cells()} name={s.name().to_owned()} />
                    </section>
                    <aside class="editor-side">
                        <Palette primary={s.primary()} secondary={s.secondary()} on_input={on_input.clone()} />
                        <Conformity report={s.shared_report()} revision={s.checked_revision()}
                            millis={s.check_millis()} on_input={on_input.clone()} />
                        <ParTime par={s.par().clone()} />
                    </aside>
                </div>
                if let Some(notice) = s.notice() {
                    <NoticeBar notice={notice.clone()} on_input={on_input.clone()} />
                }
                if s.cheatsheet() {
                    <Cheatsheet {on_input} />
                }
            </div>
        }
    }

    fn changed(&mut self, _ctx: &Context<Self>, _old: &EditorProps) -> bool {
        // The window changed: the next draw measures the canvas again.
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
    /// Keys anywhere on the page, and the wheel over the canvas (a listener that may keep the
    /// page from scrolling).
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
        let link = ctx.link().clone();
        let on_wheel = move |wheel| link.send_message(Msg::Input(Input::Wheel(wheel)));
        (self.listeners).extend(crate::canvas::zoom_wheel_listener(&self.canvas, on_wheel));
    }

    /// The session's input for a pointer event (buffer pixels); a press also captures the
    /// pointer and focuses the canvas, for the keys.
    fn pointer_input(&self, e: &PointerEvent) -> Option<Input> {
        let kinds = [Input::PointerDown, Input::PointerMove, Input::PointerUp];
        let input = crate::canvas::pointer_input(&self.canvas, e, kinds)?;
        if let Input::PointerDown(_) = input {
            if let Some(canvas) = self.canvas.cast::<HtmlElement>() {
                let _ = canvas.focus();
            }
            e.prevent_default();
        }
        Some(input)
    }

    fn key_down(&mut self, e: &KeyboardEvent) -> Option<crate::editor::session::Reply> {
        let tag = e
            .target()
            .and_then(|t| t.dyn_into::<HtmlElement>().ok())
            .map(|el| el.tag_name());
        if matches!(tag.as_deref(), Some("INPUT" | "SELECT" | "TEXTAREA")) {
            return None;
        }
        // Space on a focused button presses it; elsewhere it is held to pan.
        if e.key() == " " && tag.as_deref() != Some("BUTTON") {
            e.prevent_default();
            return Some(self.session.handle(Input::Space(true)));
        }
        let key = e.key();
        let reply = self.session.key(Keys {
            key: &key,
            ctrl: e.ctrl_key() || e.meta_key(),
            shift: e.shift_key(),
            alt: e.alt_key(),
        })?;
        e.prevent_default();
        Some(reply)
    }

    /// Does what the session asked.
    fn carry_out(&mut self, effects: Vec<Effect>) {
        for effect in effects {
            match effect {
                Effect::Worker(request) => self.worker.send(request),
                Effect::Autosave => {
                    browser::autosave(self.session.name(), self.session.circuit());
                }
                Effect::Download { name, bytes, mime } => {
                    browser_file::download(&bytes, &name, mime)
                }
                Effect::ExportPng { name } => {
                    if let Some(url) = render::png_data_url(self.session.circuit(), 8) {
                        browser_file::download_url(&url, &name);
                    }
                }
                Effect::Pick(picker) => {
                    let input = match picker {
                        Picker::Circuit => &self.cir_input,
                        Picker::Bmp => &self.bmp_input,
                    };
                    if let Some(input) = input.cast::<HtmlElement>() {
                        input.click();
                    }
                }
            }
        }
    }

    /// Paints the canvas: sizes its buffer, lays the view out, draws the scene.
    fn draw(&mut self) {
        let Some((canvas, surface)) = Surface::prepare_node(&self.canvas) else {
            return;
        };
        let ratio = surface.ratio;
        self.session.lay_out(Frame {
            width: surface.width,
            height: surface.height,
            ratio,
        });
        let s = &self.session;
        let (Some(view), Some(bitmap)) = (s.view(), &self.bitmap) else {
            return;
        };
        if self.drawn_revision != Some(s.doc().revision()) {
            render::update_bitmap(bitmap, s.circuit());
            self.drawn_revision = Some(s.doc().revision());
        }
        let (preview, preview_ch) = s.preview();
        let hover: Vec<Pos> = s.hover_cells();
        let scene = render::Scene {
            view,
            ratio,
            grid: s.grid(),
            violations: &s.report().violations,
            finish: s.finish(),
            lap: s.lap(),
            selection: s.selection(),
            floating: s.floating(),
            preview: &preview,
            preview_ch,
            hover: &hover,
        };
        render::draw(&surface, bitmap, &scene);
        annotate(&canvas, "cell", view.scale);
        annotate(&canvas, "origin", format!("{},{}", view.left, view.top));
    }
}
