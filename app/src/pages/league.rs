//! `#/league`: a Paper Soccer league in the page. The form ([`league::form`]) makes a plan
//! ([`league::session::Plan`]), the session decides what runs where, tables play the games in
//! workers (boards on serial ports one game at a time), and the standings are the engine's.
//! The form is kept in `localStorage`, the results so far and the players' files in IndexedDB
//! ([`crate::league::storage`]), so a reload resumes the league (games that were running start
//! again; boards on ports the browser granted are opened again without asking).
//!
//! Players: engine levels, the emulated reference board, netlists (yosys JSON) and Verilog
//! synthesized in the page (the picker of [`crate::synth`], hooks `league-verilog-files`,
//! `league-verilog-top`, `league-synth-status`, `league-synth-log`; the design is named by its
//! top module, see [`crate::synth::design_name`]), WebAssembly bots and boards on serial ports
//! (opened with the form's line, hooks `league-baud`, …).

use std::rc::Rc;

use engine::soccer::search::{MAX_LEVEL, level_label};
use web_sys::{File, HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::browser_file;
use crate::export::{Export, Exports};
use crate::league::form::Change;
use crate::league::roster::Roster;
use crate::league::running::{Shared, launch, now_ms};
use crate::league::session::PlayerKind;
use crate::league::storage::{RUNNING_KEY, load, stored_form};
use crate::league::view::{Progress, Tables};
use crate::serial::boards::LineControls;
use crate::synth::{SynthFor, Synthesized, VerilogSynth};

/// What an uploaded file becomes: a netlist (checked now) or a bot.
#[derive(Clone, Copy, PartialEq)]
enum Files {
    Netlists,
    Bots,
}

/// Reads `files` into players, each named by its file's stem; refused files are named in
/// the answer's errors.
async fn read_players(
    roster: &Roster,
    files: Vec<File>,
    files_are: Files,
) -> (Vec<PlayerKind>, Vec<String>) {
    let mut kinds = Vec::new();
    let mut problems = Vec::new();
    for file in files {
        let name = file.name();
        let made = crate::browser_file::read(file)
            .await
            .and_then(|bytes| match files_are {
                Files::Netlists => {
                    let text =
                        String::from_utf8(bytes).map_err(|_| format!("{name}: not UTF-8 text"))?;
                    roster.add_netlist(&name, text)
                }
                Files::Bots => Ok(roster.add_bot(&name, bytes)),
            });
        match made {
            Ok(kind) => kinds.push(kind),
            Err(e) => problems.push(e),
        }
    }
    (kinds, problems)
}

#[function_component]
pub fn League() -> Html {
    let form = use_reducer(stored_form);
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
                match form.plan() {
                    Ok(plan) => launch(&run, plan, form.line, &roster, &update, error),
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
    let edit = |change: fn(String) -> Change| {
        let form = form.dispatcher();
        Callback::from(move |e: Event| {
            form.dispatch(change(
                e.target_unchecked_into::<HtmlInputElement>().value(),
            ))
        })
    };
    let add = |kind: Option<PlayerKind>| {
        let (form, level) = (form.dispatcher(), level.clone());
        Callback::from(move |_: MouseEvent| {
            let kind = kind.clone().unwrap_or(PlayerKind::Engine { level: *level });
            form.dispatch(Change::Add(vec![kind]));
        })
    };
    let remove = {
        let form = form.dispatcher();
        Callback::from(move |k: usize| form.dispatch(Change::Remove(k)))
    };
    let choose_level = {
        let level = level.clone();
        Callback::from(move |e: Event| {
            let value = e.target_unchecked_into::<HtmlSelectElement>().value();
            level.set(value.parse().unwrap_or(0));
        })
    };
    let set_line = {
        let form = form.dispatcher();
        Callback::from(move |(setting, value): (&'static str, String)| {
            form.dispatch(Change::Line {
                setting: setting.into(),
                value,
            })
        })
    };
    // Players made on the side (a port opened, a file read, a design synthesized) join the
    // form as it is when they arrive: the form counts them as pending meanwhile.
    let add_serial = {
        let (roster, form, error) = (roster.clone(), form.clone(), error.clone());
        Callback::from(move |_: MouseEvent| {
            let opened = roster.choose_port(form.line);
            let (form, error) = (form.dispatcher(), error.clone());
            form.dispatch(Change::Pending);
            wasm_bindgen_futures::spawn_local(async move {
                let port = opened.await;
                error.set(port.as_ref().err().cloned());
                let kinds = port
                    .map(|port| PlayerKind::Serial { port })
                    .into_iter()
                    .collect();
                form.dispatch(Change::Arrived(kinds));
            });
        })
    };
    let upload = |files_are: Files| {
        let (roster, form, error) = (roster.clone(), form.dispatcher(), error.clone());
        Callback::from(move |e: Event| {
            let input = e.target_unchecked_into::<HtmlInputElement>();
            let files = input
                .files()
                .map(|f| crate::browser_file::list(&f))
                .unwrap_or_default();
            input.set_value("");
            let (roster, form, error) = (roster.clone(), form.clone(), error.clone());
            form.dispatch(Change::Pending);
            wasm_bindgen_futures::spawn_local(async move {
                let (kinds, problems) = read_players(&roster, files, files_are).await;
                error.set((!problems.is_empty()).then(|| problems.join("; ")));
                form.dispatch(Change::Arrived(kinds));
            });
        })
    };
    let synthesized = {
        let (roster, form, error) = (roster.clone(), form.dispatcher(), error.clone());
        Callback::from(move |design: Synthesized| {
            match roster.add_netlist(&format!("{}.json", design.name), design.netlist) {
                Ok(kind) => form.dispatch(Change::Add(vec![kind])),
                Err(e) => error.set(Some(e)),
            }
        })
    };
    let on_run = {
        let (form, run, update, error) = (form.clone(), run.clone(), update.clone(), error.clone());
        let roster = roster.clone();
        Callback::from(move |_: MouseEvent| match form.plan() {
            Ok(plan) => launch(&run, plan, form.line, &roster, &update, error.clone()),
            Err(e) => error.set(Some(e)),
        })
    };
    let guard = run.borrow();
    let view = guard.as_ref().map(|r| {
        let (done, total) = r.session.progress();
        let exports = vec![
            Export::new(
                "league-export-json",
                "Download the standings (JSON)",
                "league.json",
                r.session.report_json(),
            ),
            Export::new(
                "league-export-records",
                "Download the records",
                "league-records.txt",
                r.session.records(),
            ),
            Export::new(
                "league-export-plan",
                "Download the plan (for quadrille soccer league)",
                "league.toml",
                r.session.plan().to_string(),
            ),
        ];
        html! {
            <section class="league-run">
                <Progress {done} {total} running={!r.session.is_done()}
                          seconds={r.session.elapsed_s(now_ms())} />
                <Exports class="league-actions" {exports} />
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
                        // A netlist the page holds (uploaded or synthesized here) can be saved,
                        // for the CLI's plan that names it.
                        let netlist = match &p.kind {
                            PlayerKind::Emulated { netlist: Some(upload) } => roster
                                .netlist(upload)
                                .map(|text| (upload.file.clone(), text)),
                            _ => None,
                        };
                        html! {
                            <li data-testid="league-player" data-name={p.name.clone()}>
                                <span>{ &p.name }</span>
                                if let Some((file, text)) = netlist {
                                    <button type="button" class="chip"
                                            data-testid="league-netlist-download"
                                            title={format!("Save {file}, the netlist this player runs")}
                                            onclick={Callback::from(move |_| {
                                                browser_file::download(text.as_bytes(), &file, "application/json")
                                            })}>
                                        { "Netlist" }</button>
                                }
                                <button type="button" class="chip" data-testid="league-remove"
                                        onclick={Callback::from(move |_| remove.emit(k))}>
                                    { "Remove" }</button>
                            </li>
                        }
                    }) }
                    if form.pending > 0 {
                        <li class="league-pending" data-testid="league-pending">
                            { format!("{} on the way…", form.pending) }</li>
                    }
                </ol>
                <div class="league-add">
                    <label>{ "Engine level " }
                        <select data-testid="league-engine-level" onchange={choose_level}>
                            { for (0..=MAX_LEVEL).map(|l| html! {
                                <option value={l.to_string()} selected={l == *level}>
                                    { level_label(l) }</option>
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
                               data-testid="league-netlists" onchange={upload(Files::Netlists)} />
                    </label>
                    <label class="button">{ "Add WebAssembly bots (.wasm)" }
                        <input type="file" accept=".wasm,application/wasm" multiple=true
                               data-testid="league-bots" onchange={upload(Files::Bots)} /></label>
                </div>
                <details class="league-more">
                    <summary>{ "Add a design in Verilog (synthesized here by yosys)" }</summary>
                    <VerilogSynth on_netlist={synthesized} target={SynthFor::League} />
                </details>
                <details class="league-more">
                    <summary>{ "Serial line of the boards added next" }</summary>
                    <LineControls line={form.line} onchange={set_line} hook_prefix="league-" />
                    if let Some(e) = &form.line_error {
                        <p class="error" role="alert" data-testid="league-line-error">{ e }</p>
                    }
                </details>
                <label>{ "Field sizes " }
                    <input data-testid="league-sizes" value={form.sizes.clone()}
                           onchange={edit(Change::Sizes)} /></label>
                <label>{ "Time per turn (ms) " }
                    <input data-testid="league-turn-ms" inputmode="numeric"
                           value={form.turn_ms.clone()} onchange={edit(Change::TurnMs)} /></label>
                <label>{ "Seed " }
                    <input data-testid="league-seed" inputmode="numeric"
                           value={form.seed.clone()} onchange={edit(Change::Seed)} /></label>
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
