//! `#/contest`: the Racetrack pools contest (spec §8) in the page. Entrants are a name, a pilot
//! (a WASI program or a built-in pilot), a circuit and an estimate; the session
//! ([`contest::session`]) decides which laps run, pilots run in parallel workers (one slot per
//! core), and the rounds, standings and report are the engine's, as for `quadrille contest`.
//! The plan and the laps so far are kept in IndexedDB: a reload resumes the contest (runs that
//! were going start again).

use std::rc::Rc;

use engine::racetrack::pilot::Pilot;
use gloo_timers::callback::Interval;
use wasm_bindgen_futures::spawn_local;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::browser_file;
use crate::canvas::use_viewport;
use crate::contest::entrants::{EntrantChange, EntrantRow};
use crate::contest::form::Form;
use crate::contest::replay::{ReplayState, draw_replay};
use crate::contest::running::{Shared, now_ms, start};
use crate::contest::session::{PilotChoice, add_entrant};
use crate::contest::storage;
use crate::contest::view::{Rounds, Tables, tables};
use crate::export::{Export, Exports};

#[function_component]
pub fn Contest() -> Html {
    let form = use_state(Form::new);
    let error = use_state(|| None::<String>);
    let run: Shared = use_mut_ref(|| None);
    // Kept in a cell: the replay's clock advances it between renders.
    let replay = use_mut_ref(|| ReplayState {
        owner: 0,
        step: usize::MAX,
        playing: false,
    });
    let playing = replay.borrow().playing;
    let canvas = use_node_ref();
    let viewport = use_viewport();
    let force = use_force_update();
    let update = Callback::from(move |()| force.force_update());
    {
        // The contest kept by the last visit comes back, and goes on if it was running.
        let (form, run, update, error) = (form.clone(), run.clone(), update.clone(), error.clone());
        use_effect_with((), move |()| {
            {
                let run = run.clone();
                spawn_local(async move {
                    if let Some((plan, running, laps)) = storage::load().await {
                        form.set(Form::of(&plan));
                        if running && let Err(e) = start(&run, plan, laps, &update) {
                            error.set(Some(e));
                        }
                    }
                });
            }
            // Leaving the page stops the pilots (the contest resumes on the next visit).
            move || drop(run.borrow_mut().take())
        });
    }
    {
        // The replay's clock.
        let (replay, update) = (replay.clone(), update.clone());
        use_effect_with(playing, move |&playing| {
            let interval = playing.then(|| {
                Interval::new(100, move || {
                    {
                        let mut r = replay.borrow_mut();
                        r.step = r.step.saturating_add(1);
                    }
                    update.emit(());
                })
            });
            move || drop(interval)
        });
    }
    let on_pilots = {
        let form = form.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            let files = input
                .files()
                .map(|l| browser_file::list(&l))
                .unwrap_or_default();
            input.set_value("");
            let form = form.clone();
            spawn_local(async move {
                let mut next = (*form).clone();
                for file in files {
                    let name = file.name();
                    if let Ok(bytes) = browser_file::read(file).await {
                        add_entrant(
                            &mut next.entrants,
                            PilotChoice::Wasm {
                                file: name,
                                bytes: Rc::new(bytes),
                            },
                        );
                    }
                }
                form.set(next);
            });
        })
    };
    let add_builtin = |pilot: Pilot| {
        let form = form.clone();
        Callback::from(move |_: MouseEvent| {
            let mut next = (*form).clone();
            add_entrant(&mut next.entrants, PilotChoice::Builtin(pilot));
            form.set(next);
        })
    };
    let edit_entrant = {
        let form = form.clone();
        Callback::from(move |(k, change): (usize, EntrantChange)| {
            let mut next = (*form).clone();
            match change {
                EntrantChange::Remove if k < next.entrants.len() => {
                    next.entrants.remove(k);
                }
                EntrantChange::Remove => {}
                EntrantChange::Name(name) => {
                    if let Some(e) = next.entrants.get_mut(k) {
                        e.name = name;
                    }
                }
                EntrantChange::Estimate(text) => {
                    if let Some(e) = next.entrants.get_mut(k) {
                        e.estimate = text.trim().parse().ok().filter(|v: &f64| v.is_finite());
                    }
                }
                EntrantChange::Circuit(c) => {
                    if let Some(e) = next.entrants.get_mut(k) {
                        e.circuit = c;
                    }
                }
            }
            form.set(next);
        })
    };
    let edit = |change: fn(&mut Form, String)| {
        let form = form.clone();
        Callback::from(move |e: Event| {
            let value = e.target_unchecked_into::<HtmlInputElement>().value();
            let mut next = (*form).clone();
            change(&mut next, value);
            form.set(next);
        })
    };
    let on_clear = {
        let form = form.clone();
        Callback::from(move |_: MouseEvent| {
            let mut next = (*form).clone();
            next.entrants.clear();
            form.set(next);
        })
    };
    let on_run = {
        let (form, run, update, error) = (form.clone(), run.clone(), update.clone(), error.clone());
        Callback::from(move |_: MouseEvent| {
            let plan = match form.plan().and_then(|p| {
                p.check().map_err(|e| e.to_string())?;
                Ok(p)
            }) {
                Ok(plan) => plan,
                Err(e) => {
                    error.set(Some(e));
                    return;
                }
            };
            error.set(None);
            // The old contest stops now; the new one starts once its plan is kept.
            drop(run.borrow_mut().take());
            let (run, update, error) = (run.clone(), update.clone(), error.clone());
            spawn_local(async move {
                storage::save_plan(&plan, true, false).await;
                if let Err(e) = start(&run, plan, Vec::new(), &update) {
                    error.set(Some(e));
                }
            });
        })
    };

    let guard = run.borrow();
    let results = guard.as_ref().map(|r| {
        let progress = r.session.progress();
        let done = progress.current.is_none();
        let json = r.session.report_json().map(|json| {
            Export::new(
                "contest-export-json",
                "Download the results (JSON)",
                "contest.json",
                json,
            )
        });
        let exports = json
            .into_iter()
            .chain([
                Export::new(
                    "contest-export-log",
                    "Download the log",
                    "contest.log",
                    r.session.log(),
                ),
                Export::new(
                    "contest-export-plan",
                    "Download the plan (for quadrille contest)",
                    "contest.toml",
                    r.session.plan().to_string(),
                ),
            ])
            .collect::<Vec<_>>();
        let circuits: Vec<String> = r
            .session
            .plan()
            .entrants
            .iter()
            .map(|e| e.circuit.name.clone())
            .collect();
        let choose = {
            let (replay, update) = (replay.clone(), update.clone());
            Callback::from(move |e: Event| {
                let owner = e
                    .target_unchecked_into::<HtmlSelectElement>()
                    .value()
                    .parse()
                    .unwrap_or(0);
                *replay.borrow_mut() = ReplayState {
                    owner,
                    step: usize::MAX,
                    playing: false,
                };
                update.emit(());
            })
        };
        let toggle = {
            let (replay, update) = (replay.clone(), update.clone());
            Callback::from(move |_: MouseEvent| {
                {
                    let mut r = replay.borrow_mut();
                    if !r.playing {
                        r.step = 0;
                    }
                    r.playing = !r.playing;
                }
                update.emit(());
            })
        };
        let shown = *replay.borrow();
        html! {
            <section class="contest-run">
                <Rounds rounds={progress.rounds()} {done}
                        seconds={r.session.elapsed_s(now_ms())}
                        running={r.session.running().count()} />
                <Exports class="contest-actions" {exports} />
                <section class="contest-replay">
                    <h2>{ "Race replay" }</h2>
                    <label>{ "Circuit " }
                        <select data-testid="contest-replay-circuit" onchange={choose}>
                            { for circuits.iter().enumerate().map(|(i, c)| html! {
                                <option value={i.to_string()} selected={i == shown.owner}>
                                    { c }</option>
                            }) }
                        </select>
                    </label>
                    <button type="button" class="chip" data-testid="contest-replay-play"
                            onclick={toggle}>
                        { if shown.playing { "Pause" } else { "Play" } }</button>
                    <canvas ref={canvas.clone()} class="contest-canvas"
                            data-testid="contest-replay" />
                </section>
                <Tables ..tables(r.session.contest(), &progress) />
            </section>
        }
    });
    {
        // Draw the replay after every render.
        let (canvas, run, replay, update) =
            (canvas.clone(), run.clone(), replay.clone(), update.clone());
        use_effect(move || {
            if draw_replay(&canvas, &run, &mut replay.borrow_mut()) {
                update.emit(());
            }
        });
    }
    let _ = viewport;
    html! {
        <div class="page contest" data-testid="contest-page">
            <h1>{ "Racetrack contest" }</h1>
            <p class="lead">{ "Every pilot drives every circuit of its pool; half of each pool \
                qualifies, until a final pool of at most eleven (spec §8). Rounds, points and \
                tie-breaks are the CLI's: the same plan gives the same results as \
                `quadrille contest`." }</p>
            <section class="contest-form">
                <label class="button">{ "Add pilot programs (.wasm) " }
                    <input type="file" accept=".wasm" multiple=true data-testid="contest-pilots"
                           onchange={on_pilots} /></label>
                <button type="button" class="button" data-testid="contest-add-demo"
                        onclick={add_builtin(Pilot::Demo)}>{ "Add the demo pilot" }</button>
                <button type="button" class="button" data-testid="contest-add-optimal"
                        onclick={add_builtin(Pilot::Optimal)}>{ "Add the optimal pilot" }</button>
                <button type="button" class="chip" data-testid="contest-clear"
                        onclick={on_clear}>{ "Remove every entrant" }</button>
                <ol class="contest-entrants">
                    { for form.entrants.iter().enumerate().map(|(k, e)| html! {
                        <EntrantRow key={format!("{k}:{}", e.name)} index={k} entrant={e.clone()}
                                    edit={edit_entrant.clone()} />
                    }) }
                </ol>
                <label>{ "Time limit (s) " }
                    <input data-testid="contest-time" value={form.time.clone()}
                           onchange={edit(|f, v| f.time = v)} /></label>
                <label>{ "Memory limit (MiB) " }
                    <input data-testid="contest-memory" value={form.memory.clone()}
                           onchange={edit(|f, v| f.memory = v)} /></label>
                <label>{ "Seed " }
                    <input data-testid="contest-seed" value={form.seed.clone()}
                           onchange={edit(|f, v| f.seed = v)} /></label>
                <button type="button" class="button" data-testid="contest-run" onclick={on_run}>
                    { "Run the contest" }</button>
                if let Some(e) = &*error {
                    <p class="error" role="alert" data-testid="contest-error">{ e }</p>
                }
            </section>
            { results.unwrap_or_default() }
        </div>
    }
}
