//! Pilot programs (`.wasm`) in the lab: each runs on the lab's circuit in a worker of its own
//! (`crate::wasi`), with a live progress line; when it ends its lap joins the others.

use std::rc::Rc;

use engine::racetrack::Circuit;
use serde::{Deserialize, Serialize};
use web_sys::{File, HtmlInputElement};
use yew::prelude::*;

use super::storage;
use crate::wasi::{PilotHandle, PilotLimits, PilotOutcome};

/// How the lab runs programs, as `quadrille pilot` is told with `--time-limit`, `--seed` and
/// `--random`; kept in the browser from visit to visit.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// The wall-time limit, in seconds.
    pub time_limit: f64,
    /// The seed of `random_get` (spec §7: a run is repeatable).
    pub seed: u64,
    /// Real randomness: each run draws its own seed (and shows it) instead of `seed`.
    pub random: bool,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            time_limit: PilotLimits::default().time_secs,
            seed: 0,
            random: false,
        }
    }
}

impl Settings {
    /// The stored settings, or the defaults (the CLI's) when none are stored or they are not
    /// settings.
    pub fn load() -> Settings {
        storage::load_text(storage::PROGRAMS_KEY)
            .and_then(|text| serde_json::from_str::<Settings>(&text).ok())
            .filter(|s| s.time_limit.is_finite() && s.time_limit > 0.0)
            .unwrap_or_default()
    }

    /// Keeps them for the next visit; `false` when the browser refused.
    pub fn save(&self) -> bool {
        serde_json::to_string(self)
            .is_ok_and(|text| storage::save_text(storage::PROGRAMS_KEY, &text))
    }

    /// The seed of the next run: the chosen one, or a fresh random one.
    pub fn seed_for_run(&self) -> u64 {
        if self.random {
            random_seed()
        } else {
            self.seed
        }
    }
}

/// 64 random bits from the browser's `crypto.getRandomValues` (from `Math.random` where it is
/// missing).
#[cfg(target_arch = "wasm32")]
fn random_seed() -> u64 {
    let mut bytes = [0u8; 8];
    let crypto = web_sys::window().and_then(|w| w.crypto().ok());
    if crypto.is_some_and(|c| c.get_random_values_with_u8_array(&mut bytes).is_ok()) {
        return u64::from_le_bytes(bytes);
    }
    let half = || (js_sys::Math::random() * 4_294_967_296.0) as u64;
    half() << 32 | half()
}

/// Natively (unit tests): the standard library's random keys.
#[cfg(not(target_arch = "wasm32"))]
fn random_seed() -> u64 {
    use std::hash::{BuildHasher, RandomState};
    RandomState::new().hash_one(())
}

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
    /// The seed of its `random_get`.
    pub seed: u64,
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

/// One run's row in the panel.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub name: String,
    /// `running`, `done` or `refused`.
    pub state: &'static str,
    /// The progress line.
    pub line: String,
    /// What it printed.
    pub printed: String,
    pub seed: u64,
}

#[derive(Properties, PartialEq)]
pub struct ProgramsProps {
    pub has_circuit: bool,
    pub runs: Vec<Row>,
    pub settings: Settings,
    pub on_files: Callback<Vec<File>>,
    pub on_settings: Callback<Settings>,
}

/// The rows the panel shows, at page time `now`.
pub fn rows(runs: &[ProgramRun], now: f64) -> Vec<Row> {
    runs.iter()
        .map(|r| Row {
            name: r.name.clone(),
            state: r.state_word(),
            line: r.line(now),
            printed: r.printed.clone(),
            seed: r.seed,
        })
        .collect()
}

/// The settings' inputs: the time limit (seconds, positive), the seed (a whole number) and the
/// real-randomness box. A value that is not one leaves the setting as it was.
fn settings_inputs(settings: Settings, on_settings: &Callback<Settings>) -> Html {
    let value = |e: &Event| e.target_unchecked_into::<HtmlInputElement>();
    let emit = on_settings.clone();
    let on_limit = Callback::from(move |e: Event| {
        if let Ok(secs) = value(&e).value().trim().parse::<f64>()
            && secs.is_finite()
            && secs > 0.0
        {
            emit.emit(Settings {
                time_limit: secs,
                ..settings
            });
        }
    });
    let emit = on_settings.clone();
    let on_seed = Callback::from(move |e: Event| {
        if let Ok(seed) = value(&e).value().trim().parse::<u64>() {
            emit.emit(Settings { seed, ..settings });
        }
    });
    let emit = on_settings.clone();
    let on_random = Callback::from(move |e: Event| {
        emit.emit(Settings {
            random: value(&e).checked(),
            ..settings
        });
    });
    html! {
        <>
            <label class="lab-limit">
                { "Time limit (s) " }
                <input type="number" min="0.1" step="any" data-testid="pilot-wasm-time-limit"
                       value={settings.time_limit.to_string()} onchange={on_limit} />
            </label>
            <label class="lab-limit">
                { "Seed of random_get " }
                <input type="text" inputmode="numeric" pattern="[0-9]*"
                       data-testid="pilot-wasm-seed" value={settings.seed.to_string()}
                       disabled={settings.random} onchange={on_seed} />
            </label>
            <label class="lab-limit">
                <input type="checkbox" data-testid="pilot-wasm-random" checked={settings.random}
                       onchange={on_random} />
                { " real randomness (a new seed each run)" }
            </label>
        </>
    }
}

/// The `.wasm` picker, the settings, and a progress line per run.
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
    html! {
        <section class="lab-section" data-testid="pilot-programs">
            <label class="lab-drop">
                <strong>{ "Run pilot programs (.wasm)" }</strong>
                <span>{ "WASI command modules, sandboxed in your browser (docs/pilots.md)" }</span>
                <input type="file" multiple=true accept=".wasm,application/wasm"
                       data-testid="pilot-wasm" class="visually-hidden" onchange={on_file}
                       disabled={!props.has_circuit} />
            </label>
            { settings_inputs(props.settings, &props.on_settings) }
            if !props.runs.is_empty() {
                <ul class="lab-runs">
                    { for props.runs.iter().map(|row| html! {
                        <li data-testid="pilot-run" data-name={row.name.clone()}
                            data-state={row.state} data-seed={row.seed.to_string()}>
                            <span data-testid="pilot-run-line">{ &row.line }</span>
                            <span class="lab-run-seed">{ format!(" (seed {})", row.seed) }</span>
                            if !row.printed.is_empty() {
                                <details>
                                    <summary>{ "output" }</summary>
                                    <pre data-testid="pilot-run-output">{ &row.printed }</pre>
                                </details>
                            }
                        </li>
                    }) }
                </ul>
            }
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_default_to_the_clis_and_read_back_what_they_wrote() {
        let defaults = Settings::default();
        assert_eq!(defaults.time_limit, 120.0);
        assert_eq!((defaults.seed, defaults.random), (0, false));
        assert_eq!(defaults.seed_for_run(), 0);
        let chosen = Settings {
            time_limit: 3.5,
            seed: u64::MAX,
            random: false,
        };
        let text = serde_json::to_string(&chosen).unwrap();
        assert_eq!(serde_json::from_str::<Settings>(&text).unwrap(), chosen);
        assert_eq!(chosen.seed_for_run(), u64::MAX, "no precision lost");
        // Settings stored by an older page lack fields: they take the defaults.
        let old: Settings = serde_json::from_str(r#"{"time_limit":7.0}"#).unwrap();
        assert_eq!((old.time_limit, old.seed, old.random), (7.0, 0, false));
    }

    #[test]
    fn real_randomness_draws_a_seed_per_run() {
        let random = Settings {
            random: true,
            ..Settings::default()
        };
        let seeds: Vec<u64> = (0..4).map(|_| random.seed_for_run()).collect();
        assert!(seeds.windows(2).any(|w| w[0] != w[1]), "{seeds:?}");
    }
}
