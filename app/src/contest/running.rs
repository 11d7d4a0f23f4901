//! The page's side of a running contest: the session with its runners, the effects it asks
//! for (runs to start, laps to keep in IndexedDB), and starting or resuming a plan.

use std::cell::RefCell;
use std::rc::Rc;

use engine::racetrack::contest::LapKey;
use wasm_bindgen_futures::spawn_local;
use yew::Callback;

use crate::contest::runner::Runners;
use crate::contest::session::{Effect, Plan, RunOutput, Session, StoredLap};
use crate::contest::storage;

pub(crate) fn now_ms() -> f64 {
    js_sys::Date::now()
}

/// The current UTC date and time, `2026-11-29 22:30:00`, for the log.
pub(crate) fn date() -> String {
    let iso: String = js_sys::Date::new_0().to_iso_string().into();
    iso.get(..19).unwrap_or(&iso).replace('T', " ")
}

/// How many pilots run at once: one per core the browser reports, at least one.
pub(crate) fn slots() -> usize {
    let cores = web_sys::window()
        .map(|w| w.navigator().hardware_concurrency())
        .unwrap_or(2.0) as usize;
    cores.clamp(1, 16)
}

/// A contest running (or run) on this page.
pub(crate) struct Run {
    pub(crate) session: Session,
    pub(crate) runners: Runners,
    pub(crate) fingerprint: String,
}

pub(crate) type Shared = Rc<RefCell<Option<Run>>>;

/// Does what the session asks: starts runs, keeps laps.
pub(crate) fn apply(run: &Shared, effects: Vec<Effect>, update: &Callback<()>) {
    let mut guard = run.borrow_mut();
    let Some(r) = guard.as_mut() else { return };
    for effect in effects {
        match effect {
            Effect::Start(start) => r.runners.start(start),
            Effect::Save(lap) => {
                let fingerprint = r.fingerprint.clone();
                spawn_local(async move {
                    storage::save_lap(fingerprint, lap).await;
                });
            }
            Effect::Done => {}
        }
    }
    drop(guard);
    update.emit(());
}

pub(crate) fn finished(run: &Shared, key: LapKey, output: RunOutput, update: &Callback<()>) {
    let effects = {
        let mut guard = run.borrow_mut();
        let Some(r) = guard.as_mut() else { return };
        r.session.finished(key, output, &date(), now_ms())
    };
    apply(run, effects, update);
}

/// Starts (or resumes, with the laps kept) a contest of `plan`.
pub(crate) fn start(
    run: &Shared,
    plan: Plan,
    laps: Vec<StoredLap>,
    update: &Callback<()>,
) -> Result<(), String> {
    let slots = slots();
    let fingerprint = plan.fingerprint();
    let session = Session::new(plan, slots, laps).map_err(|e| e.to_string())?;
    let done = {
        let (run, update) = (run.clone(), update.clone());
        // Answers are handled on their own task: a host may answer while the page is busy.
        Callback::from(move |(key, output): (LapKey, RunOutput)| {
            let (run, update) = (run.clone(), update.clone());
            spawn_local(async move { finished(&run, key, output, &update) });
        })
    };
    // The old run's workers stop when dropped.
    *run.borrow_mut() = Some(Run {
        session,
        runners: Runners::new(slots, done),
        fingerprint,
    });
    let effects = run
        .borrow_mut()
        .as_mut()
        .map(|r| r.session.start(now_ms()))
        .unwrap_or_default();
    apply(run, effects, update);
    Ok(())
}
