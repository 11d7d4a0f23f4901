//! `#/league`: a Paper Soccer league in the page. The form makes a plan
//! ([`league::session::Plan`]), the session decides what runs where, tables play the games in
//! workers (boards on serial ports one game at a time), and the standings are the engine's.
//! The form is kept in `localStorage`, the results so far and the players' files in IndexedDB
//! ([`crate::league::storage`]), so a reload resumes the league (games that were running start
//! again; boards on ports the browser granted are opened again without asking).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use engine::soccer::record::Record;
use engine::soccer::search::MAX_LEVEL;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::browser_file::download_text;
use crate::league::roster::Roster;
use crate::league::session::{Effect, Plan, PlayerKind, Session, add_player};
use crate::league::storage::{self, Form, RUNNING_KEY, load, results_key, save};
use crate::league::table::Table;
use crate::league::view::{Progress, Tables};
use crate::soccer::players::EngineLink;

fn now_ms() -> f64 {
    js_sys::Date::now()
}

/// A league running (or run) on this page.
struct Run {
    session: Session,
    roster: Rc<Roster>,
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
                let table = Table::play(start, link, &r.roster, key, done);
                r.tables.insert(index, table);
            }
            Effect::Save(text) => storage::save_text(&results_key(r.session.plan()), &text),
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

/// Starts (or resumes) a league of `plan`, once the results kept for the same plan, the
/// players' files and the boards granted earlier are back; errors go to `error`.
fn launch(
    run: &Shared,
    plan: Plan,
    roster: &Rc<Roster>,
    update: &Callback<()>,
    error: UseStateHandle<Option<String>>,
) {
    let (run, roster, update) = (run.clone(), roster.clone(), update.clone());
    wasm_bindgen_futures::spawn_local(async move {
        let stored = storage::load_text(&results_key(&plan)).await;
        roster.restore(&plan.players).await;
        roster.reconnect(&plan.players).await;
        let result = start(&run, plan, roster, stored, &update);
        error.set(result.err());
    });
}

/// Starts a league of `plan` with the results in `stored` ([`Session::stored`]).
fn start(
    run: &Shared,
    plan: Plan,
    roster: Rc<Roster>,
    stored: Option<String>,
    update: &Callback<()>,
) -> Result<(), String> {
    let slots = slots();
    let session = Session::new(plan, slots, stored.as_deref()).map_err(|e| e.to_string())?;
    let links = (0..slots)
        .map(|_| Rc::new(EngineLink::spawn(Callback::noop())))
        .collect();
    save(RUNNING_KEY, Some("1"));
    // The old run's tables stop when dropped.
    *run.borrow_mut() = Some(Run {
        session,
        roster,
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
    let roster: Rc<Roster> = use_memo((), |()| Roster::default());
    let force = use_force_update();
    let update = Callback::from(move |()| force.force_update());
    {
        // A league that was running when the page was left goes on.
        let (form, run, update, error) = (form.clone(), run.clone(), update.clone(), error.clone());
        let roster = roster.clone();
        use_effect_with((), move |()| {
            if load(RUNNING_KEY).is_some() {
                let plan =
                    Plan::from_form(form.players.clone(), &form.sizes, &form.turn_ms, &form.seed);
                match plan.map_err(|e| e.to_string()) {
                    Ok(plan) => launch(&run, plan, &roster, &update, error),
                    Err(e) => error.set(Some(e)),
                }
            } else {
                // The files of the players in the form, for a league run later.
                let (roster, players) = (roster.clone(), form.players.clone());
                wasm_bindgen_futures::spawn_local(async move { roster.restore(&players).await });
            }
            let run = run.clone();
            // Leaving the page stops the games (they resume on the next visit) and lets the
            // boards' ports go.
            move || {
                drop(run.borrow_mut().take());
                roster.release();
            }
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
            let kind = kind.clone().unwrap_or(PlayerKind::Engine { level: *level });
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
    // Adds a player made on the side (a port opened, a file read) to the form as it is then.
    let add_made = {
        let form = form.clone();
        Callback::from(move |kinds: Vec<PlayerKind>| {
            let mut next = (*form).clone();
            for kind in kinds {
                add_player(&mut next.players, kind);
            }
            next.store();
            form.set(next);
        })
    };
    let add_serial = {
        let (roster, add_made, error) = (roster.clone(), add_made.clone(), error.clone());
        Callback::from(move |_: MouseEvent| {
            let opened = roster.choose_port();
            let (add_made, error) = (add_made.clone(), error.clone());
            wasm_bindgen_futures::spawn_local(async move {
                match opened.await {
                    Ok(port) => {
                        error.set(None);
                        add_made.emit(vec![PlayerKind::Serial { port }]);
                    }
                    Err(e) => error.set(Some(e)),
                }
            });
        })
    };
    // Files become players: netlists (checked now) and bots, each named by its file's stem.
    let upload = |netlists: bool| {
        let (roster, add_made, error) = (roster.clone(), add_made.clone(), error.clone());
        Callback::from(move |e: Event| {
            let input = e.target_unchecked_into::<HtmlInputElement>();
            let files = input
                .files()
                .map(|f| crate::browser_file::list(&f))
                .unwrap_or_default();
            input.set_value("");
            let (roster, add_made, error) = (roster.clone(), add_made.clone(), error.clone());
            wasm_bindgen_futures::spawn_local(async move {
                let mut kinds = Vec::new();
                let mut problems = Vec::new();
                for file in files {
                    let name = file.name();
                    let made = crate::browser_file::read(file).await.and_then(|bytes| {
                        if netlists {
                            let text = String::from_utf8(bytes)
                                .map_err(|_| format!("{name}: not UTF-8 text"))?;
                            roster.add_netlist(&name, text)
                        } else {
                            Ok(roster.add_bot(&name, bytes))
                        }
                    });
                    match made {
                        Ok(kind) => kinds.push(kind),
                        Err(e) => problems.push(e),
                    }
                }
                error.set((!problems.is_empty()).then(|| problems.join("; ")));
                add_made.emit(kinds);
            });
        })
    };
    let on_run = {
        let (form, run, update, error) = (form.clone(), run.clone(), update.clone(), error.clone());
        let roster = roster.clone();
        Callback::from(move |_: MouseEvent| {
            let plan =
                Plan::from_form(form.players.clone(), &form.sizes, &form.turn_ms, &form.seed)
                    .map_err(|e| e.to_string());
            form.store();
            match plan {
                Ok(plan) => launch(&run, plan, &roster, &update, error.clone()),
                Err(e) => error.set(Some(e)),
            }
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
                            onclick={add(Some(PlayerKind::Emulated { netlist: None }))}>
                        { "Add the emulated reference board" }</button>
                    <button type="button" class="button" data-testid="league-add-serial"
                            onclick={add_serial}>
                        { "Add a board on a serial port…" }</button>
                    <label class="button">{ "Add emulated designs (yosys netlist JSON)" }
                        <input type="file" accept=".json,application/json" multiple=true
                               data-testid="league-netlists" onchange={upload(true)} /></label>
                    <label class="button">{ "Add WebAssembly bots (.wasm)" }
                        <input type="file" accept=".wasm,application/wasm" multiple=true
                               data-testid="league-bots" onchange={upload(false)} /></label>
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
