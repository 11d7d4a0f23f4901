//! The page's side of a running league: the session with its tables and engine workers, the
//! effects it asks for (games to start, results to keep), and starting or resuming a plan
//! once the results kept for it, the players' files and the boards granted earlier are back.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use engine::soccer::record::Record;
use yew::prelude::*;

use super::roster::Roster;
use super::session::{Effect, Plan, Session};
use super::storage::{self, RUNNING_KEY, results_key, save};
use super::table::Table;
use crate::serial::LineSettings;
use crate::soccer::players::EngineLink;

pub fn now_ms() -> f64 {
    js_sys::Date::now()
}

/// A league running (or run) on this page.
pub struct Run {
    pub session: Session,
    roster: Rc<Roster>,
    tables: HashMap<usize, Table>,
    links: Vec<Rc<EngineLink>>,
    next_key: u64,
}

pub type Shared = Rc<RefCell<Option<Run>>>;

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
                web_sys::console::error_1(&format!("league game {}: {e}", index + 1).into());
                Vec::new()
            }
        }
    };
    apply(run, effects, update);
}

/// Starts (or resumes) a league of `plan`, once the results kept for the same plan, the
/// players' files and the boards granted earlier (opened with `line`) are back; errors go to
/// `error`.
pub fn launch(
    run: &Shared,
    plan: Plan,
    line: LineSettings,
    roster: &Rc<Roster>,
    update: &Callback<()>,
    error: UseStateHandle<Option<String>>,
) {
    let (run, roster, update) = (run.clone(), roster.clone(), update.clone());
    wasm_bindgen_futures::spawn_local(async move {
        let stored = storage::load_text(&results_key(&plan)).await;
        roster.restore(&plan.players).await;
        roster.reconnect(&plan.players, line).await;
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
    let mut session = Session::new(plan, slots, stored.as_deref()).map_err(|e| e.to_string())?;
    save(RUNNING_KEY, Some("1"));
    let effects = session.start(now_ms());
    // The old run's tables stop when dropped.
    *run.borrow_mut() = Some(Run {
        session,
        roster,
        tables: HashMap::new(),
        links: (0..slots)
            .map(|_| Rc::new(EngineLink::spawn(Callback::noop())))
            .collect(),
        next_key: (now_ms() as u64) << 8,
    });
    apply(run, effects, update);
    Ok(())
}
