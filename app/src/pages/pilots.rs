//! `#/pilots`: the Racetrack pilot lab (TESTF1 in the browser).
//!
//! Pick a circuit (a sample, the editor's work in progress, or a `.cir` file), load result
//! files (picker, drag and drop, paste) or run a built-in pilot in the worker; every lap is
//! judged by the engine, replayed on the circuit as a ghost car, plotted, and recorded in the
//! circuit's results log, ranked by the spec's §5 order.

use std::collections::HashMap;
use std::rc::Rc;

use engine::racetrack::Circuit;
use engine::racetrack::judge::Verdict;
use engine::racetrack::pilot::Pilot;
use engine::racetrack::samples::SAMPLES;
use gloo_events::EventListener;
use gloo_timers::callback::Interval;
use web_sys::{
    DragEvent, File, FileList, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement,
    KeyboardEvent,
};
use yew::prelude::*;

use crate::browser_file;
use crate::canvas::{Surface, annotate};
use crate::lab::draw::{self, Scene, lap_colour};
use crate::lab::lap::JudgedLap;
use crate::lab::plot;
use crate::lab::replay::Replay;
use crate::lab::results::ResultsLog;
use crate::lab::storage;
use crate::lab::worker::PilotRunner;
use crate::workers::racetrack::{RequestId, Response};

/// The circuit laps are judged on.
struct Track {
    /// The file stem: names the log (`ring` → `ring.log`).
    name: String,
    /// Where it came from, for the picker.
    source: Source,
    /// The `.cir` text, sent to the worker.
    text: String,
    circuit: Rc<Circuit>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Source {
    Sample,
    Editor,
    File,
}

/// A lap on the page, with its colour.
struct Loaded {
    colour: usize,
    lap: JudgedLap,
}

pub enum Msg {
    PickCircuit(String),
    CirFiles(Vec<File>),
    CirRead(String, Vec<u8>),
    F1Files(Vec<File>),
    F1Read(Vec<(String, Vec<u8>)>),
    DragOver(bool),
    PasteInput(String),
    JudgePaste,
    Fly(Pilot),
    Worker((Pilot, Response)),
    Focus(usize),
    Remove(usize),
    ClearLaps,
    Back,
    Forward,
    TogglePlay,
    Seek(usize),
    Delay(u32),
    Tick,
    Key(KeyboardEvent),
    ExportLog,
    SaveLap,
    ClearLog,
    Redraw,
}

pub struct Pilots {
    track: Option<Track>,
    circuit_error: Option<String>,
    laps: Vec<Loaded>,
    next_colour: usize,
    focus: Option<usize>,
    replay: Replay,
    clock: Option<(u32, Interval)>,
    log: ResultsLog,
    runner: PilotRunner,
    next_id: RequestId,
    flying: HashMap<Pilot, RequestId>,
    pilot_error: Option<String>,
    paste: String,
    drag_over: bool,
    canvas: NodeRef,
    plot: NodeRef,
    _resize: Option<EventListener>,
}

/// Replay delays offered, in hundredths of a second between points (TESTF1's `-nXXX`).
const DELAYS: [u32; 7] = [0, 2, 5, 10, 25, 50, 100];

fn sample_track(name: &str) -> Option<Track> {
    let sample = SAMPLES.iter().find(|s| s.name == name)?;
    let circuit = Circuit::parse(sample.text.as_bytes()).ok()?;
    Some(Track {
        name: sample.name.to_string(),
        source: Source::Sample,
        text: sample.text.to_string(),
        circuit: Rc::new(circuit),
    })
}

/// `ring.cir` → `ring`; a path part (DOS or Unix) is dropped.
fn stem(file_name: &str) -> String {
    let base = file_name.rsplit(['/', '\\']).next().unwrap_or(file_name);
    match base.rsplit_once('.') {
        Some((stem, _)) if !stem.is_empty() => stem.to_string(),
        _ => base.to_string(),
    }
}

/// The replay buttons' icons (inline SVG: the media-control characters are missing from many
/// fonts).
fn icon(name: &str) -> Html {
    let path = match name {
        "back" => "M6 5h2v14H6zM20 5v14L9 12z",
        "forward" => "M16 5h2v14h-2zM4 5v14l11-7z",
        "pause" => "M7 5h4v14H7zM13 5h4v14h-4z",
        _ => "M7 4v16l13-8z",
    };
    html! {
        <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
            <path d={path} fill="currentColor" />
        </svg>
    }
}

/// The current UTC date and time, `2026-11-29 22:30:00`, for the log.
fn now() -> String {
    let iso: String = js_sys::Date::new_0().to_iso_string().into();
    iso.get(..19).unwrap_or(&iso).replace('T', " ")
}

/// The files of a list, if it has any.
fn take_files(list: Option<FileList>) -> Option<Vec<File>> {
    let files = browser_file::list(&list?);
    (!files.is_empty()).then_some(files)
}

/// Reads files as bytes (Latin-1 names in `.f1` files must survive); unreadable ones are left
/// out.
async fn read_files(files: Vec<File>) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for file in files {
        let name = file.name();
        if let Ok(bytes) = browser_file::read(file).await {
            out.push((name, bytes));
        }
    }
    out
}

impl Pilots {
    fn set_track(&mut self, track: Track) {
        self.log = storage::load_log(&track.name);
        self.track = Some(track);
        self.circuit_error = None;
        self.laps.clear();
        self.focus = None;
        for (pilot, id) in self.flying.drain() {
            self.runner.cancel(id, pilot);
        }
        self.pilot_error = None;
        self.replay.reset(0);
    }

    /// Adds judged laps: each is logged; the last one is focused and the replay shows it.
    fn add_laps(&mut self, laps: Vec<JudgedLap>) {
        let Some(track) = &self.track else { return };
        if laps.is_empty() {
            return;
        }
        let date = now();
        for lap in laps {
            self.log.push(lap.log_line(&date));
            self.laps.push(Loaded {
                colour: self.next_colour,
                lap,
            });
            self.next_colour += 1;
        }
        storage::save_log(&track.name, &self.log);
        self.focus = Some(self.laps.len() - 1);
        self.reset_replay();
    }

    /// Shows every lap whole; a faulty focused lap is shown at its fault.
    fn reset_replay(&mut self) {
        let last = self
            .laps
            .iter()
            .map(|l| l.lap.replay_moves())
            .max()
            .unwrap_or(0);
        self.replay.reset(last);
        if let Some(k) = self
            .focused()
            .and_then(|l| l.verdict.fault().and_then(|f| f.step()))
        {
            self.replay.seek(k);
        }
    }

    fn focused(&self) -> Option<&JudgedLap> {
        self.focus.and_then(|i| self.laps.get(i)).map(|l| &l.lap)
    }

    /// Starts, stops or re-times the replay clock to match the replay's state.
    fn sync_clock(&mut self, ctx: &Context<Self>) {
        let wanted = self.replay.playing.then_some(self.replay.delay);
        match (wanted, &self.clock) {
            (None, None) => {}
            (Some(d), Some((current, _))) if *current == d => {}
            (None, Some(_)) => self.clock = None,
            (Some(d), _) => {
                let link = ctx.link().clone();
                let interval = Interval::new(d * 10, move || link.send_message(Msg::Tick));
                self.clock = Some((d, interval));
            }
        }
    }

    fn draw(&self) {
        let laps: Vec<(usize, &JudgedLap)> = self.laps.iter().map(|l| (l.colour, &l.lap)).collect();
        if let Some(track) = &self.track
            && let Some((canvas, surface)) = Surface::prepare_node(&self.canvas)
        {
            let scene = Scene {
                circuit: &track.circuit,
                laps: laps.clone(),
                step: self.replay.step,
                focus: self.focus,
            };
            let grid = draw::paint(&surface, &scene);
            annotate(&canvas, "circuit", &track.name);
            annotate(&canvas, "laps", laps.len());
            annotate(&canvas, "step", self.replay.step);
            annotate(&canvas, "cell", grid.cell());
            annotate(&canvas, "origin", format!("{},{}", grid.x(0), grid.y(0)));
        }
        if let Some((_, surface)) = Surface::prepare_node(&self.plot) {
            plot::paint(
                &surface,
                &laps,
                self.replay.last,
                self.replay.step,
                surface.ratio,
            );
        }
    }

    fn export_log(&self) {
        if let Some(track) = &self.track {
            let name = format!("{}.log", track.name);
            browser_file::download_text(&self.log.to_text(), &name);
        }
    }
}

impl Component for Pilots {
    type Message = Msg;
    type Properties = ();

    fn create(ctx: &Context<Self>) -> Self {
        let runner = PilotRunner::new(ctx.link().callback(Msg::Worker));
        let link = ctx.link().clone();
        let resize = web_sys::window().map(|window| {
            EventListener::new(&window, "resize", move |_| link.send_message(Msg::Redraw))
        });
        let first = SAMPLES
            .iter()
            .find(|s| s.conforming)
            .and_then(|s| sample_track(s.name));
        let mut page = Pilots {
            track: None,
            circuit_error: None,
            laps: Vec::new(),
            next_colour: 0,
            focus: None,
            replay: Replay::default(),
            clock: None,
            log: ResultsLog::default(),
            runner,
            next_id: 1,
            flying: HashMap::new(),
            pilot_error: None,
            paste: String::new(),
            drag_over: false,
            canvas: NodeRef::default(),
            plot: NodeRef::default(),
            _resize: resize,
        };
        if let Some(track) = first {
            page.set_track(track);
        }
        page
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::PickCircuit(choice) => {
                if choice == "editor" {
                    match crate::editor::browser::restore() {
                        Some((name, circuit)) => self.set_track(Track {
                            name: stem(&name),
                            source: Source::Editor,
                            text: circuit.to_text(engine::racetrack::LineEnding::CrLf),
                            circuit: Rc::new(circuit),
                        }),
                        None => {
                            self.circuit_error =
                                Some("the circuit editor has no circuit in progress".into())
                        }
                    }
                } else if let Some(track) = sample_track(&choice) {
                    self.set_track(track);
                }
            }
            Msg::CirFiles(files) => {
                let link = ctx.link().clone();
                wasm_bindgen_futures::spawn_local(async move {
                    if let Some((name, bytes)) = read_files(files).await.into_iter().next() {
                        link.send_message(Msg::CirRead(name, bytes));
                    }
                });
                return false;
            }
            Msg::CirRead(name, bytes) => match Circuit::parse(&bytes) {
                Ok(circuit) => self.set_track(Track {
                    name: stem(&name),
                    source: Source::File,
                    text: circuit.to_text(engine::racetrack::LineEnding::CrLf),
                    circuit: Rc::new(circuit),
                }),
                Err(e) => self.circuit_error = Some(format!("{name}: {e}")),
            },
            Msg::F1Files(files) => {
                self.drag_over = false;
                let link = ctx.link().clone();
                wasm_bindgen_futures::spawn_local(async move {
                    link.send_message(Msg::F1Read(read_files(files).await));
                });
            }
            Msg::F1Read(files) => {
                let Some(track) = &self.track else {
                    return false;
                };
                let circuit = Rc::clone(&track.circuit);
                let laps = files
                    .iter()
                    .map(|(name, bytes)| JudgedLap::from_bytes(&circuit, name, bytes))
                    .collect();
                self.add_laps(laps);
            }
            Msg::DragOver(over) => {
                if self.drag_over == over {
                    return false;
                }
                self.drag_over = over;
            }
            Msg::PasteInput(text) => {
                self.paste = text;
                return false;
            }
            Msg::JudgePaste => {
                let Some(track) = &self.track else {
                    return false;
                };
                if self.paste.trim().is_empty() {
                    return false;
                }
                let lap = JudgedLap::from_bytes(&track.circuit, "pasted.f1", self.paste.as_bytes());
                self.add_laps(vec![lap]);
            }
            Msg::Fly(pilot) => {
                let Some(track) = &self.track else {
                    return false;
                };
                let id = self.next_id;
                self.next_id += 1;
                self.flying.insert(pilot, id);
                self.pilot_error = None;
                self.runner.fly(id, pilot, track.text.clone());
            }
            Msg::Worker((pilot, response)) => {
                if self.flying.get(&pilot) != Some(&response.id()) {
                    return false;
                }
                self.flying.remove(&pilot);
                match (response, &self.track) {
                    (
                        Response::Solved {
                            outcome: Ok(lap), ..
                        },
                        Some(track),
                    ) => {
                        let circuit = Rc::clone(&track.circuit);
                        let lap = JudgedLap::from_positions(&circuit, pilot.name(), lap.positions);
                        self.add_laps(vec![lap]);
                    }
                    (
                        Response::Solved {
                            outcome: Err(e), ..
                        },
                        _,
                    ) => self.pilot_error = Some(format!("{pilot}: {e}")),
                    // Superseded by a newer request of ours (which is still awaited), or not ours.
                    _ => {}
                }
            }
            Msg::Focus(i) => {
                if i >= self.laps.len() {
                    return false;
                }
                self.focus = Some(i);
            }
            Msg::Remove(i) => {
                if i >= self.laps.len() {
                    return false;
                }
                self.laps.remove(i);
                self.focus = (!self.laps.is_empty()).then(|| self.laps.len() - 1);
                self.reset_replay();
            }
            Msg::ClearLaps => {
                self.laps.clear();
                self.focus = None;
                self.reset_replay();
            }
            Msg::Back => self.replay.back(),
            Msg::Forward => self.replay.forward(),
            Msg::TogglePlay => self.replay.toggle(),
            Msg::Seek(step) => self.replay.seek(step),
            Msg::Delay(d) => self.replay.set_delay(d),
            Msg::Tick => self.replay.forward(),
            Msg::Key(event) => {
                match event.key().as_str() {
                    "ArrowRight" | "Enter" => self.replay.forward(),
                    "ArrowLeft" => self.replay.back(),
                    " " => self.replay.toggle(),
                    "Home" => self.replay.seek(0),
                    "End" => self.replay.seek(usize::MAX),
                    _ => return false,
                }
                event.prevent_default();
            }
            Msg::ExportLog => {
                self.export_log();
                return false;
            }
            Msg::SaveLap => {
                if let (Some(track), Some(lap)) = (&self.track, self.focused())
                    && let Some(text) = lap.to_f1(&format!("{}.cir", track.name))
                {
                    let name = format!("{}.f1", stem(&lap.file));
                    browser_file::download_text(&text, &name);
                }
                return false;
            }
            Msg::ClearLog => {
                self.log = ResultsLog::default();
                if let Some(track) = &self.track {
                    storage::save_log(&track.name, &self.log);
                }
            }
            Msg::Redraw => {}
        }
        self.sync_clock(ctx);
        true
    }

    fn rendered(&mut self, _ctx: &Context<Self>, _first_render: bool) {
        self.draw();
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        html! {
            <div class="page lab" data-testid="pilots-page">
                <aside class="panel lab-panel">
                    <h1>{ "Pilot lab" }</h1>
                    <p>
                        { "Judge result files like TESTF1: each lap is checked move by move, \
                           timed to the hundredth and replayed on the circuit." }
                    </p>
                    { self.view_circuit(link) }
                    { self.view_inputs(link) }
                    { self.view_laps(link) }
                </aside>
                <section class="lab-main">
                    { self.view_stage(link) }
                    <div class="lab-row">
                        { self.view_verdict(link) }
                        <div class="lab-card lab-plot">
                            <h2>{ "Speed per move" }</h2>
                            <canvas ref={self.plot.clone()} class="lab-plot-canvas"
                                    data-testid="speed-plot" role="img"
                                    aria-label="speed of each move, km/h" />
                        </div>
                    </div>
                    { self.view_ranking(link) }
                </section>
            </div>
        }
    }
}

impl Pilots {
    fn view_circuit(&self, link: &html::Scope<Self>) -> Html {
        let current = self
            .track
            .as_ref()
            .map(|t| (t.source.clone(), t.name.clone()));
        let on_pick = link.callback(|e: Event| {
            Msg::PickCircuit(e.target_unchecked_into::<HtmlSelectElement>().value())
        });
        let on_file = link.batch_callback(|e: Event| {
            let input = e.target_unchecked_into::<HtmlInputElement>();
            let files = take_files(input.files());
            input.set_value("");
            files.map(Msg::CirFiles)
        });
        let selected = |source: Source, name: &str| {
            current
                .as_ref()
                .is_some_and(|(s, n)| *s == source && n == name)
        };
        html! {
            <section class="lab-section">
                <h2>{ "Circuit" }</h2>
                <select data-testid="lab-circuit" aria-label="circuit" onchange={on_pick}>
                    { for SAMPLES.iter().filter(|s| Circuit::parse(s.text.as_bytes()).is_ok()).map(|s| html! {
                        <option value={s.name} selected={selected(Source::Sample, s.name)}>
                            { s.name }{ if s.conforming { "" } else { " (not conforming)" } }
                        </option>
                    }) }
                    <option value="editor" selected={matches!(&current, Some((Source::Editor, _)))}>
                        { match &current {
                            Some((Source::Editor, name)) => format!("{name} (the editor's circuit)"),
                            _ => "the editor's circuit".to_string(),
                        } }
                    </option>
                    if let Some((Source::File, name)) = &current {
                        <option value="" selected=true disabled=true>{ format!("{name}.cir (file)") }</option>
                    }
                </select>
                <label class="lab-file">
                    <span class="button ghost small">{ "Open a .cir file…" }</span>
                    <input type="file" accept=".cir,.CIR,text/plain" data-testid="lab-cir-file"
                           class="visually-hidden" onchange={on_file} />
                </label>
                if let Some(err) = &self.circuit_error {
                    <p class="error" role="alert" data-testid="lab-circuit-error">{ err }</p>
                }
            </section>
        }
    }

    fn view_inputs(&self, link: &html::Scope<Self>) -> Html {
        let on_file = link.batch_callback(|e: Event| {
            let input = e.target_unchecked_into::<HtmlInputElement>();
            let files = take_files(input.files());
            // Reset the input so that choosing the same file again judges it again.
            input.set_value("");
            files.map(Msg::F1Files)
        });
        let on_drop = link.batch_callback(|e: DragEvent| {
            e.prevent_default();
            take_files(e.data_transfer().and_then(|d| d.files())).map(Msg::F1Files)
        });
        let on_drag_over = link.callback(|e: DragEvent| {
            e.prevent_default();
            Msg::DragOver(true)
        });
        let on_drag_leave = link.callback(|_: DragEvent| Msg::DragOver(false));
        let on_paste = link.callback(|e: InputEvent| {
            Msg::PasteInput(e.target_unchecked_into::<HtmlTextAreaElement>().value())
        });
        let no_circuit = self.track.is_none();
        html! {
            <section class="lab-section">
                <h2>{ "Laps" }</h2>
                <label class={classes!("lab-drop", self.drag_over.then_some("over"))}
                       ondrop={on_drop} ondragover={on_drag_over} ondragleave={on_drag_leave}>
                    <strong>{ "Load .f1 result files" }</strong>
                    <span>{ "choose or drop them here" }</span>
                    <input type="file" multiple=true accept=".f1,.F1,text/plain"
                           data-testid="f1-file" class="visually-hidden" onchange={on_file}
                           disabled={no_circuit} />
                </label>
                <details class="lab-paste">
                    <summary>{ "Paste a result file" }</summary>
                    <textarea data-testid="f1-paste" rows="5" spellcheck="false"
                              placeholder={"PILOT\nCIRCUIT.CIR\n40,4\n41,4\n…"}
                              oninput={on_paste} />
                    <button class="button small" data-testid="f1-paste-judge"
                            onclick={link.callback(|_| Msg::JudgePaste)} disabled={no_circuit}>
                        { "Judge" }
                    </button>
                </details>
                <div class="lab-pilots">
                    { for Pilot::ALL.into_iter().map(|pilot| {
                        let busy = self.flying.contains_key(&pilot);
                        html! {
                            <button class="button small ghost" data-testid={format!("run-{pilot}")}
                                    disabled={busy || no_circuit}
                                    onclick={link.callback(move |_| Msg::Fly(pilot))}>
                                if busy { <span class="spinner" aria-hidden="true" /> }
                                { format!("Run the {pilot} pilot") }
                            </button>
                        }
                    }) }
                </div>
                if let Some(err) = &self.pilot_error {
                    <p class="error" role="alert">{ err }</p>
                }
            </section>
        }
    }

    fn view_laps(&self, link: &html::Scope<Self>) -> Html {
        if self.laps.is_empty() {
            return html! {
                <p class="hint lab-empty">{ "No lap loaded yet." }</p>
            };
        }
        html! {
            <section class="lab-section">
                <ul class="lab-laps" data-testid="laps">
                    { for self.laps.iter().enumerate().map(|(i, l)| {
                        let focused = self.focus == Some(i);
                        let (badge, figure) = match &l.lap.verdict {
                            Verdict::Valid(lap) => (html! { <span class="badge ok">{ "valid" }</span> },
                                                    format!("{} s", lap.time_shown())),
                            Verdict::Invalid(f) => (html! { <span class="badge bad">{ f.kind().as_str() }</span> },
                                                    String::new()),
                        };
                        html! {
                            <li class={classes!("lab-lap", focused.then_some("focused"))}
                                data-testid="lap-row">
                                <button class="lab-lap-main" onclick={link.callback(move |_| Msg::Focus(i))}
                                        title={l.lap.file.clone()}>
                                    <span class="swatch" style={format!("background:{}", lap_colour(l.colour))} />
                                    <span class="lab-lap-name">{ if l.lap.pilot.is_empty() { l.lap.file.clone() } else { l.lap.pilot.clone() } }</span>
                                    { badge }
                                    <span class="lab-lap-time">{ figure }</span>
                                </button>
                                <button class="lab-remove" aria-label="remove this lap"
                                        onclick={link.callback(move |_| Msg::Remove(i))}>{ "×" }</button>
                            </li>
                        }
                    }) }
                </ul>
                <button class="link-button" onclick={link.callback(|_| Msg::ClearLaps)}>
                    { "Clear the laps" }
                </button>
            </section>
        }
    }

    fn view_stage(&self, link: &html::Scope<Self>) -> Html {
        let r = self.replay;
        let on_scrub = link.callback(|e: InputEvent| {
            let v = e.target_unchecked_into::<HtmlInputElement>().value();
            Msg::Seek(v.parse().unwrap_or(0))
        });
        let on_delay = link.callback(|e: Event| {
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            Msg::Delay(v.parse().unwrap_or(Replay::DEFAULT_DELAY))
        });
        let on_key = link.callback(Msg::Key);
        let empty = self.laps.is_empty();
        html! {
            <div class="stage lab-stage" tabindex="0" onkeydown={on_key}
                 aria-label="replay: arrows step, space plays">
                <canvas ref={self.canvas.clone()} class="circuit-canvas lab-canvas"
                        data-testid="lab-canvas" role="img"
                        aria-label={self.track.as_ref().map(|t| format!("circuit {}", t.name))} />
                <div class="lab-replay" data-testid="replay">
                    <button class="icon-button" data-testid="replay-back" aria-label="step back"
                            disabled={empty || r.step == 0} onclick={link.callback(|_| Msg::Back)}>{ icon("back") }</button>
                    <button class="icon-button primary" data-testid="replay-play"
                            aria-label={if r.playing { "pause" } else { "play" }}
                            disabled={empty || r.delay == 0}
                            onclick={link.callback(|_| Msg::TogglePlay)}>
                        { icon(if r.playing { "pause" } else { "play" }) }
                    </button>
                    <button class="icon-button" data-testid="replay-forward" aria-label="step forward"
                            disabled={empty || r.step >= r.last} onclick={link.callback(|_| Msg::Forward)}>{ icon("forward") }</button>
                    <input type="range" class="lab-scrub" data-testid="replay-scrub" min="0"
                           max={r.last.to_string()} value={r.step.to_string()} disabled={empty}
                           aria-label="move shown" oninput={on_scrub} />
                    <span class="lab-step" data-testid="replay-step" data-step={r.step.to_string()}>
                        { format!("move {} / {}", r.step, r.last) }
                    </span>
                    <label class="lab-delay">
                        <select data-testid="replay-delay" onchange={on_delay} aria-label="delay between points">
                            { for DELAYS.iter().map(|&d| html! {
                                <option value={d.to_string()} selected={d == r.delay}>
                                    { if d == 0 { "step by hand (-n0)".to_string() } else { format!("{d}/100 s (-n{d})") } }
                                </option>
                            }) }
                        </select>
                    </label>
                </div>
            </div>
        }
    }

    fn view_verdict(&self, link: &html::Scope<Self>) -> Html {
        let Some(lap) = self.focused() else {
            return html! {
                <div class="lab-card lab-verdict empty">
                    <h2>{ "Verdict" }</h2>
                    <p class="hint">{ "Load a result file or run a pilot to see its verdict." }</p>
                </div>
            };
        };
        let hooks = lap.hooks();
        let other_circuit = match (&self.track, &lap.written_for) {
            (Some(track), Some(line)) if lap.written_for_another(&track.name) => Some(format!(
                "Written for {}, judged on {}.cir.",
                line.trim(),
                track.name
            )),
            _ => None,
        };
        let colour = self
            .focus
            .and_then(|i| self.laps.get(i))
            .map_or(0, |l| l.colour);
        let body = match &lap.verdict {
            Verdict::Valid(l) => html! {
                <>
                    <p class="lab-verdict-title"><span class="badge ok big">{ "Valid lap" }</span></p>
                    <dl class="lab-figures">
                        <div><dt>{ "Time" }</dt><dd data-testid="verdict-time">{ format!("{} s", l.time_shown()) }</dd></div>
                        <div><dt>{ "Moves" }</dt><dd>{ l.moves }</dd></div>
                        <div><dt>{ "Avg speed" }</dt><dd>{ format!("{} km/h", l.speed_shown()) }</dd></div>
                        <div><dt>{ "Distance" }</dt><dd>{ format!("{:.0} m", l.distance_m) }</dd></div>
                    </dl>
                </>
            },
            Verdict::Invalid(fault) => {
                let step = fault.step();
                html! {
                    <>
                        <p class="lab-verdict-title">
                            <span class="badge bad big">{ format!("Invalid · {}", fault.kind().as_str().replace('_', " ")) }</span>
                        </p>
                        <p class="lab-fault" data-testid="verdict-message">{ fault.to_string() }</p>
                        if let Some(k) = step.filter(|_| lap.readable()) {
                            <button class="button small ghost" data-testid="show-fault"
                                    onclick={link.callback(move |_| Msg::Seek(k))}>
                                { format!("Show move {k}") }
                            </button>
                        }
                    </>
                }
            }
        };
        html! {
            <div class="lab-card lab-verdict" data-testid="verdict"
                 data-valid={hooks.valid.to_string()}
                 data-fault={hooks.fault}
                 data-move={hooks.at.map(|k| k.to_string())}
                 data-line={hooks.line.map(|k| k.to_string())}
                 data-time={hooks.time.clone()}>
                <h2>
                    <span class="swatch" style={format!("background:{}", lap_colour(colour))} />
                    { if lap.pilot.is_empty() { "(no pilot name)".to_string() } else { lap.pilot.clone() } }
                    <span class="lab-file-name">{ &lap.file }</span>
                </h2>
                if let Some(note) = other_circuit {
                    <p class="hint lab-other-circuit" data-testid="other-circuit">{ note }</p>
                }
                { body }
                if lap.readable() {
                    <button class="link-button lab-save" data-testid="save-f1"
                            onclick={link.callback(|_| Msg::SaveLap)}>
                        { "Save as .f1" }
                    </button>
                }
            </div>
        }
    }

    fn view_ranking(&self, link: &html::Scope<Self>) -> Html {
        let name = self.track.as_ref().map_or("", |t| t.name.as_str());
        let ranking = self.log.ranking();
        html! {
            <div class="lab-card lab-ranking">
                <div class="lab-ranking-head">
                    <h2>{ "Results log" }<code class="lab-log-name">{ format!("{name}.log") }</code></h2>
                    <div class="lab-ranking-actions">
                        <button class="button small" data-testid="log-export"
                                disabled={self.log.is_empty()}
                                onclick={link.callback(|_| Msg::ExportLog)}>{ "Export .log" }</button>
                        <button class="button small ghost" data-testid="log-clear"
                                disabled={self.log.is_empty()}
                                onclick={link.callback(|_| Msg::ClearLog)}>{ "Clear" }</button>
                    </div>
                </div>
                if ranking.is_empty() {
                    <p class="hint">{ "Every lap judged on this circuit is recorded here, and kept in this browser." }</p>
                } else {
                    <div class="lab-table-wrap">
                        <table class="lab-table" data-testid="ranking">
                            <thead><tr>
                                <th>{ "#" }</th><th>{ "Pilot" }</th><th>{ "File" }</th>
                                <th>{ "Verdict" }</th><th class="num">{ "Moves" }</th>
                                <th class="num">{ "Time (s)" }</th><th class="num">{ "Speed (km/h)" }</th>
                                <th>{ "Date (UTC)" }</th>
                            </tr></thead>
                            <tbody>
                                { for ranking.iter().map(|r| html! {
                                    <tr data-testid="ranking-row"
                                        data-place={r.place.map(|p| p.to_string())}
                                        class={classes!((!r.entry.is_valid()).then_some("invalid"))}>
                                        <td>{ r.place.map_or_else(|| "–".to_string(), |p| p.to_string()) }</td>
                                        <td>{ &r.entry.pilot }</td>
                                        <td class="mono">{ &r.entry.file }</td>
                                        <td>{ &r.entry.verdict }</td>
                                        <td class="num">{ &r.entry.moves }</td>
                                        <td class="num" data-testid="ranking-time">{ r.entry.time.clone().unwrap_or_else(|| "–".into()) }</td>
                                        <td class="num">{ r.entry.speed.clone().unwrap_or_else(|| "–".into()) }</td>
                                        <td class="mono">{ &r.entry.date }</td>
                                    </tr>
                                }) }
                            </tbody>
                        </table>
                    </div>
                }
            </div>
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems_drop_paths_and_extensions() {
        assert_eq!(stem("ring.cir"), "ring");
        assert_eq!(stem("C:\\F1\\RING.CIR"), "RING");
        assert_eq!(stem("a/b/track.v2.cir"), "track.v2");
        assert_eq!(stem(".cir"), ".cir");
        assert_eq!(stem("plain"), "plain");
    }

    #[test]
    fn every_parseable_sample_is_a_track() {
        for s in SAMPLES {
            assert_eq!(
                sample_track(s.name).is_some(),
                Circuit::parse(s.text.as_bytes()).is_ok()
            );
        }
        assert!(sample_track("nope").is_none());
    }
}
