//! `#/league`: a Paper Soccer league in the page. The form makes a plan
//! ([`league::session::Plan`]), the session decides what runs where, tables play the games in
//! workers, and the standings are the engine's. The form and the results so far are kept in
//! `localStorage`, so a reload resumes the league (games that were running start again).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use engine::soccer::record::Record;
use engine::soccer::search::MAX_LEVEL;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::browser_file::download_text;
use crate::league::session::{Effect, Plan, PlayerKind, Session, add_player};
use crate::league::storage::{Form, RUNNING_KEY, load, results_key, save};
use crate::league::table::Table;
use crate::league::view::{Progress, Tables};
use crate::soccer::players::EngineLink;

fn now_ms() -> f64 {
    js_sys::Date::now()
}

/// A league running (or run) on this page.
struct Run {
    session: Session,
    tables: HashMap<usize, Table>,
    links: Vec<Rc<EngineLink>>,
    next_key: u64,
}

type Shared = Rc<RefCell<Option<Run>>>;

/// How many games run at once: one per core but one, at least one, at most four.
fn slots() -> usize {
    let cores = web_sys::window()
        .map(|w| w.navigator().hardware_concurrency())
        .unwrap_or(2.0) as usize;
    cores.saturating_sub(1).clamp(1, 4)
}

/// Does what the session asks: starts games on tables, keeps results.
fn apply(run: &Shared, effects: Vec<Effect>, update: &Callback<()>) {
    let mut guard = run.borrow_mut();
    let Some(r) = guard.as_mut() else { return };
    for effect in effects {
        match effect {
            Effect::Start(start) => {
                let link = r.links[start.slot].clone();
                let key = r.next_key;
                r.next_key += 1;
                let index = start.pairing.index;
                let (run2, update2) = (run.clone(), update.clone());
                let done = Callback::from(move |(index, record): (usize, Record)| {
                    finished(&run2, index, record, &update2);
                });
                r.tables.insert(index, Table::play(start, link, key, done));
            }
            Effect::Save(text) => save(&results_key(r.session.plan()), Some(&text)),
            Effect::Done => save(RUNNING_KEY, None),
        }
    }
    drop(guard);
    update.emit(());
}

fn finished(run: &Shared, index: usize, record: Record, update: &Callback<()>) {
    let effects = {
        let mut guard = run.borrow_mut();
        let Some(r) = guard.as_mut() else { return };
        r.tables.remove(&index);
        match r.session.finished(index, record, now_ms()) {
            Ok(effects) => effects,
            Err(e) => {
                console_error(&format!("league game {}: {e}", index + 1));
                Vec::new()
            }
        }
    };
    apply(run, effects, update);
}

fn console_error(message: &str) {
    web_sys::console::error_1(&message.into());
}

/// Starts (or resumes, with the results kept for the same plan) a league of `plan`.
fn start(run: &Shared, plan: Plan, update: &Callback<()>) -> Result<(), String> {
    let stored = load(&results_key(&plan));
    let slots = slots();
    let session = Session::new(plan, slots, stored.as_deref()).map_err(|e| e.to_string())?;
    let links = (0..slots)
        .map(|_| Rc::new(EngineLink::spawn(Callback::noop())))
        .collect();
    save(RUNNING_KEY, Some("1"));
    // The old run's tables stop when dropped.
    *run.borrow_mut() = Some(Run {
        session,
        tables: HashMap::new(),
        links,
        next_key: (now_ms() as u64) << 8,
    });
    let effects = run
        .borrow_mut()
        .as_mut()
        .map(|r| r.session.start(now_ms()))
        .unwrap_or_default();
    apply(run, effects, update);
    Ok(())
}

#[function_component]
pub fn League() -> Html {
    let form = use_state(Form::stored);
    let level = use_state(|| 2u8);
    let error = use_state(|| None::<String>);
    let run: Shared = use_mut_ref(|| None);
    let force = use_force_update();
    let update = Callback::from(move |()| force.force_update());
    {
        // A league that was running when the page was left goes on.
        let (form, run, update, error) = (form.clone(), run.clone(), update.clone(), error.clone());
        use_effect_with((), move |()| {
            if load(RUNNING_KEY).is_some() {
                let plan =
                    Plan::from_form(form.players.clone(), &form.sizes, &form.turn_ms, &form.seed);
                match plan.map_err(|e| e.to_string()) {
                    Ok(plan) => {
                        if let Err(e) = start(&run, plan, &update) {
                            error.set(Some(e));
                        }
                    }
                    Err(e) => error.set(Some(e)),
                }
            }
            let run = run.clone();
            // Leaving the page stops the games (they resume on the next visit).
            move || drop(run.borrow_mut().take())
        });
    }
    let edit = |change: fn(&mut Form, String)| {
        let form = form.clone();
        Callback::from(move |e: Event| {
            let value = e.target_unchecked_into::<HtmlInputElement>().value();
            let mut next = (*form).clone();
            change(&mut next, value);
            next.store();
            form.set(next);
        })
    };
    let add = |kind: Option<PlayerKind>| {
        let (form, level) = (form.clone(), level.clone());
        Callback::from(move |_: MouseEvent| {
            let mut next = (*form).clone();
            let kind = kind.unwrap_or(PlayerKind::Engine { level: *level });
            add_player(&mut next.players, kind);
            next.store();
            form.set(next);
        })
    };
    let remove = {
        let form = form.clone();
        Callback::from(move |k: usize| {
            let mut next = (*form).clone();
            if k < next.players.len() {
                next.players.remove(k);
            }
            next.store();
            form.set(next);
        })
    };
    let choose_level = {
        let level = level.clone();
        Callback::from(move |e: Event| {
            let value = e.target_unchecked_into::<HtmlSelectElement>().value();
            level.set(value.parse().unwrap_or(0));
        })
    };
    let on_run = {
        let (form, run, update, error) = (form.clone(), run.clone(), update.clone(), error.clone());
        Callback::from(move |_: MouseEvent| {
            let plan =
                Plan::from_form(form.players.clone(), &form.sizes, &form.turn_ms, &form.seed)
                    .map_err(|e| e.to_string());
            form.store();
            error.set(plan.and_then(|plan| start(&run, plan, &update)).err());
        })
    };
    let guard = run.borrow();
    let view = guard.as_ref().map(|r| {
        let (done, total) = r.session.progress();
        let export = |text: String, name: &'static str| {
            Callback::from(move |_: MouseEvent| download_text(&text, name))
        };
        html! {
            <section class="league-run">
                <Progress {done} {total} running={!r.session.is_done()}
                          seconds={r.session.elapsed_s(now_ms())} />
                <div class="league-actions">
                    <button type="button" class="chip" data-testid="league-export-json"
                            onclick={export(r.session.report_json(), "league.json")}>
                        { "Download the standings (JSON)" }</button>
                    <button type="button" class="chip" data-testid="league-export-records"
                            onclick={export(r.session.records(), "league-records.txt")}>
                        { "Download the records" }</button>
                    <button type="button" class="chip" data-testid="league-export-plan"
                            onclick={export(r.session.plan().to_string(), "league.toml")}>
                        { "Download the plan (for quadrille soccer league)" }</button>
                </div>
                <Tables report={Rc::new(r.session.league().report())}
                        running={r.session.running().collect::<Vec<_>>()} />
            </section>
        }
    });
    html! {
        <div class="page league" data-testid="league-page">
            <h1>{ "Paper Soccer league" }</h1>
            <p class="lead">{ "Every player meets every other twice on each field size \
                (each starts once, as red). Standings, tie-breaks and seeds are the CLI's: \
                the same plan and seed give the same table as `quadrille soccer league`." }</p>
            <section class="league-form">
                <ol class="league-players">
                    { for form.players.iter().enumerate().map(|(k, p)| {
                        let remove = remove.clone();
                        html! {
                            <li data-testid="league-player" data-name={p.name.clone()}>
                                <span>{ &p.name }</span>
                                <button type="button" class="chip" data-testid="league-remove"
                                        onclick={Callback::from(move |_| remove.emit(k))}>
                                    { "Remove" }</button>
                            </li>
                        }
                    }) }
                </ol>
                <div class="league-add">
                    <label>{ "Engine level " }
                        <select data-testid="league-engine-level" onchange={choose_level}>
                            { for (0..=MAX_LEVEL).map(|l| html! {
                                <option value={l.to_string()} selected={l == *level}>
                                    { l }</option>
                            }) }
                        </select>
                    </label>
                    <button type="button" class="button" data-testid="league-add-engine"
                            onclick={add(None)}>{ "Add the engine" }</button>
                    <button type="button" class="button" data-testid="league-add-emulated"
                            onclick={add(Some(PlayerKind::Emulated))}>
                        { "Add the emulated reference board" }</button>
                </div>
                <label>{ "Field sizes " }
                    <input data-testid="league-sizes" value={form.sizes.clone()}
                           onchange={edit(|f, v| f.sizes = v)} /></label>
                <label>{ "Time per turn (ms) " }
                    <input data-testid="league-turn-ms" inputmode="numeric"
                           value={form.turn_ms.clone()} onchange={edit(|f, v| f.turn_ms = v)} />
                </label>
                <label>{ "Seed " }
                    <input data-testid="league-seed" inputmode="numeric"
                           value={form.seed.clone()} onchange={edit(|f, v| f.seed = v)} /></label>
                <button type="button" class="button" data-testid="league-run" onclick={on_run}>
                    { "Run the league" }</button>
                if let Some(e) = &*error {
                    <p class="error" role="alert" data-testid="league-error">{ e }</p>
                }
            </section>
            { view.unwrap_or_default() }
        </div>
    }
}
