//! Pilot programs (`.wasm`) in the lab: each runs on the lab's circuit in a worker of its own
//! (`crate::wasi`), with a live progress line; when it ends its lap joins the others.

use std::rc::Rc;

use engine::racetrack::Circuit;
use web_sys::{File, HtmlInputElement};
use yew::prelude::*;

use crate::wasi::{PilotHandle, PilotOutcome};

/// Where a run is.
#[derive(Clone, Debug, PartialEq)]
pub enum RunState {
    /// Sent to its worker, not started yet (compiling).
    Loading,
    /// Running since this page time (ms).
    Running { since: f64 },
    /// Over, in this many milliseconds, with this verdict's words.
    Done { millis: f64, verdict: String },
    /// Not a WASI command: nothing ran.
    Refused(String),
}

/// One program's run.
pub struct ProgramRun {
    /// Its file stem.
    pub name: String,
    pub state: RunState,
    /// The circuit it runs on (its lap is judged there, whatever the lab shows by then).
    pub circuit: Rc<Circuit>,
    /// Its worker, while it matters.
    pub handle: Option<PilotHandle>,
    /// What it printed.
    pub printed: String,
}

impl ProgramRun {
    /// Records the end of the run.
    pub fn finish(&mut self, outcome: &PilotOutcome) {
        self.state = RunState::Done {
            millis: outcome.millis,
            verdict: outcome.verdict(&self.circuit).to_string(),
        };
        self.printed = String::from_utf8_lossy(&outcome.log).into_owned();
        self.handle = None;
    }

    /// Whether it is still going.
    pub fn running(&self) -> bool {
        matches!(self.state, RunState::Loading | RunState::Running { .. })
    }

    /// The progress line at page time `now` (ms).
    pub fn line(&self, now: f64) -> String {
        match &self.state {
            RunState::Loading => format!("{}: loading…", self.name),
            RunState::Running { since } => {
                format!(
                    "{}: running, {:.1} s",
                    self.name,
                    (now - since).max(0.0) / 1000.0
                )
            }
            RunState::Done { millis, verdict } => {
                format!(
                    "{}: done in {:.2} s — {verdict}",
                    self.name,
                    millis / 1000.0
                )
            }
            RunState::Refused(why) => format!("{}: {why}", self.name),
        }
    }

    fn state_word(&self) -> &'static str {
        match self.state {
            RunState::Loading | RunState::Running { .. } => "running",
            RunState::Done { .. } => "done",
            RunState::Refused(_) => "refused",
        }
    }
}

#[derive(Properties, PartialEq)]
pub struct ProgramsProps {
    pub has_circuit: bool,
    /// `(name, state word, progress line, what it printed)` of each run.
    pub runs: Vec<(String, &'static str, String, String)>,
    pub time_limit: f64,
    pub on_files: Callback<Vec<File>>,
    pub on_time_limit: Callback<f64>,
}

/// The rows the panel shows, at page time `now`.
pub fn rows(runs: &[ProgramRun], now: f64) -> Vec<(String, &'static str, String, String)> {
    runs.iter()
        .map(|r| {
            (
                r.name.clone(),
                r.state_word(),
                r.line(now),
                r.printed.clone(),
            )
        })
        .collect()
}

/// The `.wasm` picker, the time limit, and a progress line per run.
#[function_component]
pub fn Programs(props: &ProgramsProps) -> Html {
    let on_files = props.on_files.clone();
    let on_file = Callback::from(move |e: Event| {
        let input: HtmlInputElement = e.target_unchecked_into();
        let files: Option<Vec<File>> = input
            .files()
            .map(|list| (0..list.length()).filter_map(|i| list.get(i)).collect());
        input.set_value("");
        if let Some(files) = files.filter(|f| !f.is_empty()) {
            on_files.emit(files);
        }
    });
    let on_time_limit = props.on_time_limit.clone();
    let on_limit = Callback::from(move |e: Event| {
        let input: HtmlInputElement = e.target_unchecked_into();
        if let Ok(secs) = input.value().trim().parse::<f64>()
            && secs > 0.0
        {
            on_time_limit.emit(secs);
        }
    });
    html! {
        <section class="lab-section" data-testid="pilot-programs">
            <label class="lab-drop">
                <strong>{ "Run pilot programs (.wasm)" }</strong>
                <span>{ "WASI command modules, sandboxed in your browser (docs/pilots.md)" }</span>
                <input type="file" multiple=true accept=".wasm,application/wasm"
                       data-testid="pilot-wasm" class="visually-hidden" onchange={on_file}
                       disabled={!props.has_circuit} />
            </label>
            <label class="lab-limit">
                { "Time limit (s) " }
                <input type="number" min="0.1" step="any" data-testid="pilot-wasm-time-limit"
                       value={props.time_limit.to_string()} onchange={on_limit} />
            </label>
            if !props.runs.is_empty() {
                <ul class="lab-runs">
                    { for props.runs.iter().map(|(name, state, line, printed)| html! {
                        <li data-testid="pilot-run" data-name={name.clone()} data-state={*state}>
                            <span data-testid="pilot-run-line">{ line }</span>
                            if !printed.is_empty() {
                                <details>
                                    <summary>{ "output" }</summary>
                                    <pre data-testid="pilot-run-output">{ printed }</pre>
                                </details>
                            }
                        </li>
                    }) }
                </ul>
            }
        </section>
    }
}
