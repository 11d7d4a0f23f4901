//! The pilot lab's panels: the circuit picker, the lap inputs, the lap list, the replay bar, the
//! verdict and the results log. Each shows part of the [`Lab`](super::session::Lab) and hands
//! the page an [`Input`] (or, for what needs the browser, a file list or a choice) when used.

use std::rc::Rc;

use engine::racetrack::Circuit;
use engine::racetrack::judge::Verdict;
use engine::racetrack::pilot::Pilot;
use engine::racetrack::samples::SAMPLES;
use web_sys::{
    DragEvent, File, FileList, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement,
};
use yew::prelude::*;

use super::draw::lap_colour;
use super::lap::JudgedLap;
use super::replay::Replay;
use super::results::ResultsLog;
use super::session::{Input, Loaded, Source};
use crate::browser_file;
use crate::icon::Icon;

/// Replay delays offered, in hundredths of a second between points (TESTF1's `-nXXX`).
const DELAYS: [u32; 7] = [0, 2, 5, 10, 25, 50, 100];

/// The files of a list, if it has any.
fn take_files(list: Option<FileList>) -> Option<Vec<File>> {
    let files = browser_file::list(&list?);
    (!files.is_empty()).then_some(files)
}

/// A callback that sends `input` whatever the event.
fn send<E: 'static>(on_input: &Callback<Input>, input: Input) -> Callback<E> {
    let on_input = on_input.clone();
    Callback::from(move |_| on_input.emit(input.clone()))
}

#[derive(Properties, PartialEq)]
pub struct CircuitProps {
    /// Where the current circuit came from, and its name.
    pub current: Option<(Source, String)>,
    pub error: Option<AttrValue>,
    /// A sample's name, or `editor`.
    pub on_pick: Callback<String>,
    pub on_files: Callback<Vec<File>>,
}

/// The circuit laps are judged on: a sample, the editor's, or a file.
#[function_component]
pub fn CircuitPicker(props: &CircuitProps) -> Html {
    let current = &props.current;
    let on_pick = props.on_pick.clone();
    let on_pick = Callback::from(move |e: Event| {
        on_pick.emit(e.target_unchecked_into::<HtmlSelectElement>().value())
    });
    let on_files = props.on_files.clone();
    let on_file = Callback::from(move |e: Event| {
        let input = e.target_unchecked_into::<HtmlInputElement>();
        let files = take_files(input.files());
        input.set_value("");
        if let Some(files) = files {
            on_files.emit(files);
        }
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
                <option value="editor" selected={matches!(current, Some((Source::Editor, _)))}>
                    { match current {
                        Some((Source::Editor, name)) => format!("{name} (the editor's circuit)"),
                        _ => "the editor's circuit".to_string(),
                    } }
                </option>
                if let Some((Source::File, name)) = current {
                    <option value="" selected=true disabled=true>{ format!("{name}.cir (file)") }</option>
                }
            </select>
            <label class="lab-file">
                <span class="button ghost small">{ "Open a .cir file…" }</span>
                <input type="file" accept=".cir,.CIR,text/plain" data-testid="lab-cir-file"
                       class="visually-hidden" onchange={on_file} />
            </label>
            if let Some(err) = &props.error {
                <p class="error" role="alert" data-testid="lab-circuit-error">{ err }</p>
            }
        </section>
    }
}

#[derive(Properties, PartialEq)]
pub struct LapInputsProps {
    pub has_circuit: bool,
    pub drag_over: bool,
    /// The built-in pilots driving now.
    pub flying: Vec<Pilot>,
    pub pilot_error: Option<AttrValue>,
    pub on_input: Callback<Input>,
    /// Result files chosen or dropped.
    pub on_files: Callback<Vec<File>>,
}

/// Where laps come from: result files, pasted text, the built-in pilots.
#[function_component]
pub fn LapInputs(props: &LapInputsProps) -> Html {
    let on_files = props.on_files.clone();
    let on_file = Callback::from(move |e: Event| {
        let input = e.target_unchecked_into::<HtmlInputElement>();
        let files = take_files(input.files());
        // Reset the input so that choosing the same file again judges it again.
        input.set_value("");
        if let Some(files) = files {
            on_files.emit(files);
        }
    });
    let on_files = props.on_files.clone();
    let on_drop = Callback::from(move |e: DragEvent| {
        e.prevent_default();
        if let Some(files) = take_files(e.data_transfer().and_then(|d| d.files())) {
            on_files.emit(files);
        }
    });
    let on_input = props.on_input.clone();
    let on_drag_over = Callback::from(move |e: DragEvent| {
        e.prevent_default();
        on_input.emit(Input::DragOver(true));
    });
    let on_drag_leave = send(&props.on_input, Input::DragOver(false));
    let on_input = props.on_input.clone();
    let on_paste = Callback::from(move |e: InputEvent| {
        on_input.emit(Input::PasteInput(
            e.target_unchecked_into::<HtmlTextAreaElement>().value(),
        ))
    });
    let no_circuit = !props.has_circuit;
    html! {
        <section class="lab-section">
            <h2>{ "Laps" }</h2>
            <label class={classes!("lab-drop", props.drag_over.then_some("over"))}
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
                        onclick={send(&props.on_input, Input::JudgePaste)} disabled={no_circuit}>
                    { "Judge" }
                </button>
            </details>
            <div class="lab-pilots">
                { for Pilot::ALL.into_iter().map(|pilot| {
                    let busy = props.flying.contains(&pilot);
                    html! {
                        <button class="button small ghost" data-testid={format!("run-{pilot}")}
                                disabled={busy || no_circuit}
                                onclick={send(&props.on_input, Input::Fly(pilot))}>
                            if busy { <span class="spinner" aria-hidden="true" /> }
                            { format!("Run the {pilot} pilot") }
                        </button>
                    }
                }) }
            </div>
            if let Some(err) = &props.pilot_error {
                <p class="error" role="alert">{ err }</p>
            }
        </section>
    }
}

#[derive(Properties, PartialEq)]
pub struct LapListProps {
    pub laps: Rc<Vec<Loaded>>,
    pub focus: Option<usize>,
    pub on_input: Callback<Input>,
}

/// The laps loaded, each with its colour, verdict and time.
#[function_component]
pub fn LapList(props: &LapListProps) -> Html {
    if props.laps.is_empty() {
        return html! {
            <p class="hint lab-empty">{ "No lap loaded yet." }</p>
        };
    }
    html! {
        <section class="lab-section">
            <ul class="lab-laps" data-testid="laps">
                { for props.laps.iter().enumerate().map(|(i, l)| {
                    let focused = props.focus == Some(i);
                    let (badge, figure) = match (&l.lap.verdict, l.lap.program_fault()) {
                        (_, Some(f)) => (html! { <span class="badge bad">{ f.kind() }</span> },
                                         String::new()),
                        (Verdict::Valid(lap), None) => (html! { <span class="badge ok">{ "valid" }</span> },
                                                format!("{} s", lap.time_shown())),
                        (Verdict::Invalid(f), None) => (html! { <span class="badge bad">{ f.kind().as_str() }</span> },
                                                String::new()),
                    };
                    html! {
                        <li class={classes!("lab-lap", focused.then_some("focused"))}
                            data-testid="lap-row">
                            <button class="lab-lap-main" onclick={send(&props.on_input, Input::Focus(i))}
                                    title={l.lap.file.clone()}>
                                <span class="swatch" style={format!("background:{}", lap_colour(l.colour))} />
                                <span class="lab-lap-name">{ if l.lap.pilot.is_empty() { l.lap.file.clone() } else { l.lap.pilot.clone() } }</span>
                                { badge }
                                <span class="lab-lap-time">{ figure }</span>
                            </button>
                            <button class="lab-remove" aria-label="remove this lap"
                                    onclick={send(&props.on_input, Input::Remove(i))}>{ "×" }</button>
                        </li>
                    }
                }) }
            </ul>
            <button class="link-button" onclick={send(&props.on_input, Input::ClearLaps)}>
                { "Clear the laps" }
            </button>
        </section>
    }
}

#[derive(Properties, PartialEq)]
pub struct ReplayProps {
    pub replay: Replay,
    /// Whether there is no lap to replay.
    pub empty: bool,
    pub on_input: Callback<Input>,
}

/// The replay's buttons, scrubber and delay (TESTF1's `-nXXX`).
#[function_component]
pub fn ReplayBar(props: &ReplayProps) -> Html {
    let r = props.replay;
    let empty = props.empty;
    let on_input = props.on_input.clone();
    let on_scrub = Callback::from(move |e: InputEvent| {
        let v = e.target_unchecked_into::<HtmlInputElement>().value();
        on_input.emit(Input::Seek(v.parse().unwrap_or(0)))
    });
    let on_input = props.on_input.clone();
    let on_delay = Callback::from(move |e: Event| {
        let v = e.target_unchecked_into::<HtmlSelectElement>().value();
        on_input.emit(Input::Delay(v.parse().unwrap_or(Replay::DEFAULT_DELAY)))
    });
    html! {
        <div class="lab-replay" data-testid="replay">
            <button class="icon-button" data-testid="replay-back" aria-label="step back"
                    disabled={empty || r.step == 0} onclick={send(&props.on_input, Input::Back)}>{ Icon::Back.html() }</button>
            <button class="icon-button primary" data-testid="replay-play"
                    aria-label={if r.playing { "pause" } else { "play" }}
                    disabled={empty || r.delay == 0}
                    onclick={send(&props.on_input, Input::TogglePlay)}>
                { if r.playing { Icon::Pause.html() } else { Icon::Play.html() } }
            </button>
            <button class="icon-button" data-testid="replay-forward" aria-label="step forward"
                    disabled={empty || r.step >= r.last} onclick={send(&props.on_input, Input::Forward)}>{ Icon::Forward.html() }</button>
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
    }
}

#[derive(Properties, PartialEq)]
pub struct VerdictProps {
    /// The focused lap and its colour index.
    pub lap: Option<(JudgedLap, usize)>,
    /// The circuit's name (file stem).
    pub circuit: AttrValue,
    pub on_input: Callback<Input>,
}

/// The judge's verdict on the focused lap, with its figures or its fault.
#[function_component]
pub fn VerdictCard(props: &VerdictProps) -> Html {
    let Some((lap, colour)) = &props.lap else {
        return html! {
            <div class="lab-card lab-verdict empty">
                <h2>{ "Verdict" }</h2>
                <p class="hint">{ "Load a result file or run a pilot to see its verdict." }</p>
            </div>
        };
    };
    let hooks = lap.hooks();
    let other_circuit = match &lap.written_for {
        Some(line) if lap.written_for_another(&props.circuit) => Some(format!(
            "Written for {}, judged on {}.cir.",
            line.trim(),
            props.circuit
        )),
        _ => None,
    };
    let body = match (&lap.verdict, lap.program_fault()) {
        (_, Some(fault)) => html! {
            <>
                <p class="lab-verdict-title">
                    <span class="badge bad big">{ format!("Invalid · {}", fault.kind().replace('_', " ")) }</span>
                </p>
                <p class="lab-fault" data-testid="verdict-message">{ fault.to_string() }</p>
            </>
        },
        (Verdict::Valid(l), None) => html! {
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
        (Verdict::Invalid(fault), None) => html! {
            <>
                <p class="lab-verdict-title">
                    <span class="badge bad big">{ format!("Invalid · {}", fault.kind().as_str().replace('_', " ")) }</span>
                </p>
                <p class="lab-fault" data-testid="verdict-message">{ fault.to_string() }</p>
                if let Some(k) = fault.step().filter(|_| lap.readable()) {
                    <button class="button small ghost" data-testid="show-fault"
                            onclick={send(&props.on_input, Input::Seek(k))}>
                        { format!("Show move {k}") }
                    </button>
                }
            </>
        },
    };
    html! {
        <div class="lab-card lab-verdict" data-testid="verdict"
             data-pilot={lap.pilot_name().to_string()}
             data-valid={hooks.valid.to_string()}
             data-fault={hooks.fault}
             data-move={hooks.at.map(|k| k.to_string())}
             data-line={hooks.line.map(|k| k.to_string())}
             data-time={hooks.time.clone()}>
            <h2>
                <span class="swatch" style={format!("background:{}", lap_colour(*colour))} />
                { if lap.pilot.is_empty() { "(no pilot name)".to_string() } else { lap.pilot.clone() } }
                <span class="lab-file-name">{ &lap.file }</span>
            </h2>
            if let Some(note) = other_circuit {
                <p class="hint lab-other-circuit" data-testid="other-circuit">{ note }</p>
            }
            { body }
            if lap.readable() {
                <button class="link-button lab-save" data-testid="save-f1"
                        onclick={send(&props.on_input, Input::SaveLap)}>
                    { "Save as .f1" }
                </button>
            }
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct RankingProps {
    pub log: ResultsLog,
    /// The circuit's name (file stem): the log is `<name>.log`.
    pub circuit: AttrValue,
    pub on_input: Callback<Input>,
}

/// The circuit's results log, ranked by the spec's §5 order.
#[function_component]
pub fn Ranking(props: &RankingProps) -> Html {
    let ranking = props.log.ranking();
    let empty = props.log.is_empty();
    html! {
        <div class="lab-card lab-ranking">
            <div class="lab-ranking-head">
                <h2>{ "Results log" }<code class="lab-log-name">{ format!("{}.log", props.circuit) }</code></h2>
                <div class="lab-ranking-actions">
                    <button class="button small" data-testid="log-export" disabled={empty}
                            onclick={send(&props.on_input, Input::ExportLog)}>{ "Export .log" }</button>
                    <button class="button small ghost" data-testid="log-clear" disabled={empty}
                            onclick={send(&props.on_input, Input::ClearLog)}>{ "Clear" }</button>
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
