//! `#/pilots`: the Racetrack pilot lab (TESTF1 in the browser).
//!
//! Pick a circuit (a sample, the editor's work in progress, or a `.cir` file), load result
//! files (picker, drag and drop, paste) or run a built-in pilot in the worker; every lap is
//! judged by the engine, replayed on the circuit as a ghost car, plotted, and recorded in the
//! circuit's results log, ranked by the spec's §5 order.
//!
//! The lab's state lives in [`crate::lab::session`]; this page turns browser events into its
//! inputs, carries out its effects (worker, storage, downloads, the replay clock) and draws.

use engine::racetrack::pilot::Pilot;
use gloo_events::EventListener;
use gloo_timers::callback::Interval;
use web_sys::{File, KeyboardEvent, PointerEvent};
use yew::prelude::*;

use crate::browser_file;
use crate::canvas::{Surface, annotate};
use crate::lab::draw::{self, Scene};
use crate::lab::lap::JudgedLap;
use crate::lab::panels::{CircuitPicker, LapInputs, LapList, Ranking, ReplayBar, VerdictCard};
use crate::lab::plot;
use crate::lab::programs::{self, ProgramRun, Programs, RunState, Settings};
use crate::lab::session::{Effect, Input, Lab, Source, Track};
use crate::lab::storage;
use crate::lab::worker::PilotRunner;
use crate::wasi::{PilotEvent, PilotLimits, PilotSpec};
use crate::workers::racetrack::Response;

pub enum Msg {
    Input(Input),
    /// A sample's name, or `editor`.
    PickCircuit(String),
    CirFiles(Vec<File>),
    F1Files(Vec<File>),
    Worker((Pilot, Response)),
    /// Pilot programs chosen.
    WasmFiles(Vec<File>),
    WasmRead(Vec<(String, Vec<u8>)>),
    /// What the run `index` of `runs` says.
    WasmEvent(usize, PilotEvent),
    Settings(Settings),
    Key(KeyboardEvent),
    Pointer(PointerEvent),
    Redraw,
}

pub struct Pilots {
    lab: Lab,
    runner: PilotRunner,
    /// The replay clock: its delay and interval, while playing.
    clock: Option<(u32, Interval)>,
    canvas: NodeRef,
    plot: NodeRef,
    listeners: Vec<EventListener>,
    /// Pilot programs run on this page, in order.
    runs: Vec<ProgramRun>,
    /// How they run: time limit, seed, randomness.
    settings: Settings,
    /// Ticks the progress lines while a program runs.
    progress: Option<Interval>,
}

/// Page time, in milliseconds.
fn page_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// The current UTC date and time, `2026-11-29 22:30:00`, for the log.
fn now() -> String {
    let iso: String = js_sys::Date::new_0().to_iso_string().into();
    iso.get(..19).unwrap_or(&iso).replace('T', " ")
}

impl Pilots {
    /// Does what the lab asked.
    fn carry_out(&mut self, effects: Vec<Effect>) {
        for effect in effects {
            match effect {
                Effect::Fly { id, pilot, circuit } => self.runner.fly(id, pilot, circuit),
                Effect::Cancel { id, pilot } => self.runner.cancel(id, pilot),
                Effect::SaveLog { circuit } => {
                    storage::save_log(&circuit, self.lab.log());
                }
                Effect::Download { name, text } => browser_file::download_text(&text, &name),
            }
        }
    }

    /// Starts, stops or re-times the replay clock to match the replay's state.
    fn sync_clock(&mut self, ctx: &Context<Self>) {
        let replay = self.lab.replay();
        let wanted = replay.playing.then_some(replay.delay);
        match (wanted, &self.clock) {
            (None, None) => {}
            (Some(d), Some((current, _))) if *current == d => {}
            (None, Some(_)) => self.clock = None,
            (Some(d), _) => {
                let link = ctx.link().clone();
                let tick = move || link.send_message(Msg::Input(Input::Tick));
                self.clock = Some((d, Interval::new(d * 10, tick)));
            }
        }
    }

    /// The lab's input for a pointer event over the canvas (buffer pixels).
    fn pointer_input(&self, e: &PointerEvent) -> Option<Input> {
        let kinds = [Input::PointerDown, Input::PointerMove, Input::PointerUp];
        crate::canvas::pointer_input(&self.canvas, e, kinds)
    }

    fn draw(&mut self) {
        let stage = Surface::prepare_node(&self.canvas);
        if let Some((_, surface)) = &stage {
            self.lab
                .lay_out(surface.width, surface.height, surface.ratio);
        }
        let lab = &self.lab;
        let laps: Vec<(usize, &JudgedLap)> =
            lab.laps().iter().map(|l| (l.colour, &l.lap)).collect();
        let replay = lab.replay();
        if let (Some((canvas, surface)), Some(track), Some(view)) =
            (&stage, lab.track(), lab.view())
        {
            let scene = Scene {
                circuit: &track.circuit,
                laps: laps.clone(),
                step: replay.step,
                focus: lab.focus(),
            };
            draw::paint(surface, &scene, view, surface.ratio);
            annotate(canvas, "circuit", &track.name);
            annotate(canvas, "laps", laps.len());
            annotate(canvas, "step", replay.step);
            annotate(canvas, "cell", view.scale);
            annotate(canvas, "origin", format!("{},{}", view.left, view.top));
        }
        if let Some((_, surface)) = Surface::prepare_node(&self.plot) {
            plot::paint(&surface, &laps, replay.last, replay.step, surface.ratio);
        }
    }
}

impl Pilots {
    /// Starts each program on the lab's circuit, in a worker of its own.
    fn start_programs(&mut self, ctx: &Context<Self>, files: Vec<(String, Vec<u8>)>) {
        let Some(track) = self.lab.track() else {
            return;
        };
        let limits = PilotLimits {
            time_secs: self.settings.time_limit,
            ..PilotLimits::default()
        };
        for (file_name, module) in files {
            let index = self.runs.len();
            let seed = self.settings.seed_for_run();
            let spec = PilotSpec {
                file_name: file_name.clone(),
                module,
                circuit_name: format!("{}.cir", track.name),
                circuit: track.text.as_bytes().to_vec(),
                limits,
                seed,
            };
            self.runs.push(ProgramRun {
                name: crate::lab::session::stem(&file_name),
                state: RunState::Loading,
                circuit: track.circuit.clone(),
                handle: None,
                printed: String::new(),
                seed,
            });
            // Its events arrive later, as messages: the row is there to take them.
            let on_event = ctx.link().callback(move |e| Msg::WasmEvent(index, e));
            let handle = crate::wasi::run_pilot(spec, on_event);
            if let Some(run) = self.runs.get_mut(index) {
                run.handle = Some(handle);
            }
        }
        self.sync_progress(ctx);
    }

    /// A run's news; its lap, when it has one, for the lab.
    fn program_event(
        &mut self,
        ctx: &Context<Self>,
        index: usize,
        event: PilotEvent,
    ) -> Option<Input> {
        let run = self.runs.get_mut(index)?;
        let input = match event {
            PilotEvent::Started => {
                run.state = RunState::Running { since: page_ms() };
                None
            }
            PilotEvent::Refused(why) => {
                run.state = RunState::Refused(why);
                run.handle = None;
                None
            }
            PilotEvent::Finished(outcome) => {
                run.finish(&outcome);
                let lap = JudgedLap::from_run(&run.circuit, &run.name, &outcome);
                Some(Input::Laps(vec![lap]))
            }
        };
        self.sync_progress(ctx);
        input
    }

    /// Ticks the progress lines while a program runs.
    fn sync_progress(&mut self, ctx: &Context<Self>) {
        let running = self.runs.iter().any(ProgramRun::running);
        if running && self.progress.is_none() {
            let link = ctx.link().clone();
            self.progress = Some(Interval::new(200, move || link.send_message(Msg::Redraw)));
        } else if !running {
            self.progress = None;
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
        Pilots {
            lab: Lab::new(storage::load_log),
            runner,
            clock: None,
            canvas: NodeRef::default(),
            plot: NodeRef::default(),
            listeners: resize.into_iter().collect(),
            runs: Vec::new(),
            settings: Settings::load(),
            progress: None,
        }
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        let input = match msg {
            Msg::Input(input) => input,
            Msg::PickCircuit(choice) if choice == "editor" => {
                match crate::editor::browser::restore() {
                    Some((name, circuit)) => {
                        Input::Track(Track::new(&name, Source::Editor, circuit))
                    }
                    None => {
                        Input::CircuitError("the circuit editor has no circuit in progress".into())
                    }
                }
            }
            Msg::PickCircuit(choice) => match Track::sample(&choice) {
                Some(track) => Input::Track(track),
                None => return false,
            },
            Msg::CirFiles(files) => {
                let link = ctx.link().clone();
                wasm_bindgen_futures::spawn_local(async move {
                    if let Some((name, bytes)) =
                        browser_file::read_all(files).await.into_iter().next()
                    {
                        link.send_message(Msg::Input(Input::CirRead { name, bytes }));
                    }
                });
                return false;
            }
            Msg::F1Files(files) => {
                let link = ctx.link().clone();
                wasm_bindgen_futures::spawn_local(async move {
                    link.send_message(Msg::Input(Input::F1Read(
                        browser_file::read_all(files).await,
                    )));
                });
                Input::DragOver(false)
            }
            Msg::Worker((pilot, response)) => Input::Worker(pilot, response),
            Msg::WasmFiles(files) => {
                let link = ctx.link().clone();
                wasm_bindgen_futures::spawn_local(async move {
                    link.send_message(Msg::WasmRead(browser_file::read_all(files).await));
                });
                return false;
            }
            Msg::WasmRead(files) => {
                self.start_programs(ctx, files);
                return true;
            }
            Msg::WasmEvent(index, event) => match self.program_event(ctx, index, event) {
                Some(input) => input,
                None => return true,
            },
            Msg::Settings(settings) => {
                self.settings = settings;
                settings.save();
                return true;
            }
            Msg::Key(event) => {
                if !self.lab.key(&event.key()) {
                    return false;
                }
                event.prevent_default();
                self.sync_clock(ctx);
                return true;
            }
            Msg::Pointer(e) => match self.pointer_input(&e) {
                Some(input) => input,
                None => return false,
            },
            Msg::Redraw => return true,
        };
        let reply = self.lab.handle(input, &now());
        self.carry_out(reply.effects);
        self.sync_clock(ctx);
        reply.redraw
    }

    fn rendered(&mut self, ctx: &Context<Self>, first_render: bool) {
        if first_render {
            let link = ctx.link().clone();
            let on_wheel = move |wheel| link.send_message(Msg::Input(Input::Wheel(wheel)));
            (self.listeners).extend(crate::canvas::zoom_wheel_listener(&self.canvas, on_wheel));
        }
        self.draw();
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let lab = &self.lab;
        let on_input = link.callback(Msg::Input);
        let track = lab.track();
        let circuit = track.map_or(String::new(), |t| t.name.clone());
        let focused = lab.focus().and_then(|i| lab.laps().get(i));
        let pointer = link.callback(Msg::Pointer);
        let flying: Vec<Pilot> = Pilot::ALL.into_iter().filter(|&p| lab.flying(p)).collect();
        html! {
            <div class="page lab" data-testid="pilots-page">
                <aside class="panel lab-panel">
                    <h1>{ "Pilot lab" }</h1>
                    <p>
                        { "Judge result files like TESTF1: each lap is checked move by move, \
                           timed to the hundredth and replayed on the circuit." }
                    </p>
                    <CircuitPicker current={track.map(|t| (t.source.clone(), t.name.clone()))}
                        error={lab.circuit_error().map(|e| AttrValue::from(e.to_owned()))}
                        on_pick={link.callback(Msg::PickCircuit)}
                        on_files={link.callback(Msg::CirFiles)} />
                    <LapInputs has_circuit={track.is_some()} drag_over={lab.drag_over()} {flying}
                        pilot_error={lab.pilot_error().map(|e| AttrValue::from(e.to_owned()))}
                        on_input={on_input.clone()} on_files={link.callback(Msg::F1Files)} />
                    <Programs has_circuit={track.is_some()}
                        runs={programs::rows(&self.runs, page_ms())}
                        settings={self.settings}
                        on_files={link.callback(Msg::WasmFiles)}
                        on_settings={link.callback(Msg::Settings)} />
                    <LapList laps={lab.shared_laps()} focus={lab.focus()} on_input={on_input.clone()} />
                </aside>
                <section class="lab-main">
                    <div class="stage lab-stage" tabindex="0" onkeydown={link.callback(Msg::Key)}
                         aria-label="replay: arrows step, space plays">
                        <canvas ref={self.canvas.clone()} class="circuit-canvas lab-canvas"
                                data-testid="lab-canvas" role="img" data-pan={lab.cursor()}
                                aria-label={track.map(|t| format!("circuit {}", t.name))}
                                onpointerdown={pointer.clone()} onpointermove={pointer.clone()}
                                onpointerup={pointer.clone()} onpointercancel={pointer} />
                        <ReplayBar replay={lab.replay()} empty={lab.laps().is_empty()}
                            on_input={on_input.clone()} />
                    </div>
                    <div class="lab-row">
                        <VerdictCard lap={focused.map(|l| (l.lap.clone(), l.colour))}
                            circuit={circuit.clone()} on_input={on_input.clone()} />
                        <div class="lab-card lab-plot">
                            <h2>{ "Speed per move" }</h2>
                            <canvas ref={self.plot.clone()} class="lab-plot-canvas"
                                    data-testid="speed-plot" role="img"
                                    aria-label="speed of each move, km/h" />
                        </div>
                    </div>
                    <Ranking log={lab.log().clone()} {circuit} {on_input} />
                </section>
            </div>
        }
    }
}
