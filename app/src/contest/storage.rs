//! What the contest page keeps in IndexedDB (the database `quadrille-contest`): the last
//! contest's plan (the entrants' programs and circuits as bytes) and every lap run so far, so
//! that a reload resumes it. Laps are stored with the plan's fingerprint and are only taken
//! back for the same plan. IndexedDB rather than `localStorage`: programs are binary and a
//! contest's result files can pass `localStorage`'s few megabytes.
//!
//! Storage that is missing or refuses (private mode, quota) only loses the resumption: every
//! function here fails quietly with `None` / `false`.

// The stored forms below are used by the browser's IndexedDB code and by the tests; a native
// build has only the tests (the wasm32 build and its clippy still see any that is unused).
#![cfg_attr(
    not(target_arch = "wasm32"),
    allow(
        dead_code,
        reason = "the browser's IndexedDB code and the tests use it"
    )
)]

use std::rc::Rc;

use engine::racetrack::pilot::Pilot;
use serde::{Deserialize, Serialize};

use super::session::{CircuitFile, Entrant, Limits, PilotChoice, Plan, StoredLap};

/// The plan without its bytes (which are kept under keys of their own).
#[derive(Serialize, Deserialize)]
struct PlanMeta {
    fingerprint: String,
    limits: Limits,
    seed: u64,
    entrants: Vec<EntrantMeta>,
    /// Whether the contest was started (a reload resumes it) or only the form is kept.
    running: bool,
}

#[derive(Serialize, Deserialize)]
struct EntrantMeta {
    name: String,
    /// `builtin` pilot's name, or `None` for a program.
    builtin: Option<Pilot>,
    /// The program's file name.
    wasm: Option<String>,
    circuit: String,
    estimate: Option<f64>,
}

/// A lap as stored: with the fingerprint of its plan.
#[derive(Serialize, Deserialize)]
struct LapEntry {
    plan: String,
    lap: StoredLap,
}

/// A lap's stored text, with its plan's fingerprint.
fn lap_text(fingerprint: String, lap: StoredLap) -> Option<String> {
    serde_json::to_string(&LapEntry {
        plan: fingerprint,
        lap,
    })
    .ok()
}

/// The lap stored as `text`, if it is one of the plan whose fingerprint is `fingerprint`.
fn lap_of(text: &str, fingerprint: &str) -> Option<StoredLap> {
    let entry: LapEntry = serde_json::from_str(text).ok()?;
    (entry.plan == fingerprint).then_some(entry.lap)
}

fn meta_of(plan: &Plan, running: bool) -> PlanMeta {
    PlanMeta {
        fingerprint: plan.fingerprint(),
        limits: plan.limits,
        seed: plan.seed,
        running,
        entrants: plan
            .entrants
            .iter()
            .map(|e| EntrantMeta {
                name: e.name.clone(),
                builtin: match e.pilot {
                    PilotChoice::Builtin(p) => Some(p),
                    PilotChoice::Wasm { .. } => None,
                },
                wasm: match &e.pilot {
                    PilotChoice::Wasm { file, .. } => Some(file.clone()),
                    PilotChoice::Builtin(_) => None,
                },
                circuit: e.circuit.name.clone(),
                estimate: e.estimate,
            })
            .collect(),
    }
}

/// The plan from its stored parts: `bytes(key)` gives a stored byte string.
fn plan_of(meta: PlanMeta, mut bytes: impl FnMut(&str) -> Option<Vec<u8>>) -> Option<Plan> {
    let entrants = meta
        .entrants
        .into_iter()
        .enumerate()
        .map(|(i, e)| {
            let pilot = match (e.builtin, e.wasm) {
                (Some(p), _) => PilotChoice::Builtin(p),
                (None, Some(file)) => PilotChoice::Wasm {
                    file,
                    bytes: Rc::new(bytes(&format!("wasm/{i}"))?),
                },
                (None, None) => return None,
            };
            Some(Entrant {
                name: e.name,
                pilot,
                circuit: CircuitFile {
                    name: e.circuit,
                    bytes: Rc::new(bytes(&format!("circuit/{i}"))?),
                },
                estimate: e.estimate,
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some(Plan {
        entrants,
        limits: meta.limits,
        seed: meta.seed,
    })
}

/// The stored plan, whether it was running, and its laps (those of another plan are left out).
pub type Saved = (Plan, bool, Vec<StoredLap>);

#[cfg(target_arch = "wasm32")]
mod idb {
    use js_sys::{Array, Uint8Array};
    use wasm_bindgen::{JsCast, JsValue};
    use web_sys::{IdbDatabase, IdbObjectStore, IdbTransactionMode};

    use crate::idb::wait;

    const DB: &str = "quadrille-contest";
    /// The plan's parts, by key (`meta`, `wasm/<i>`, `circuit/<i>`).
    pub const PLAN: &str = "plan";
    /// One lap per key `<pilot>/<owner>`.
    pub const LAPS: &str = "laps";

    pub async fn open() -> Result<IdbDatabase, JsValue> {
        crate::idb::open(DB, &[PLAN, LAPS]).await
    }

    pub fn store(db: &IdbDatabase, name: &str) -> Result<IdbObjectStore, JsValue> {
        crate::idb::store(db, name, IdbTransactionMode::Readwrite)
    }

    pub async fn put(db: &IdbDatabase, store_name: &str, key: &str, value: &JsValue) -> bool {
        match store(db, store_name).and_then(|s| s.put_with_key(value, &key.into())) {
            Ok(request) => wait(&request).await.is_ok(),
            Err(_) => false,
        }
    }

    pub async fn put_bytes(db: &IdbDatabase, key: &str, bytes: &[u8]) -> bool {
        put(db, PLAN, key, &Uint8Array::from(bytes).into()).await
    }

    pub async fn get(db: &IdbDatabase, store_name: &str, key: &str) -> Option<JsValue> {
        let request = store(db, store_name).ok()?.get(&key.into()).ok()?;
        let value = wait(&request).await.ok()?;
        (!value.is_undefined()).then_some(value)
    }

    pub async fn get_bytes(db: &IdbDatabase, key: &str) -> Option<Vec<u8>> {
        let value = get(db, PLAN, key).await?;
        Some(value.dyn_into::<Uint8Array>().ok()?.to_vec())
    }

    pub async fn all(db: &IdbDatabase, store_name: &str) -> Vec<JsValue> {
        let Ok(request) = store(db, store_name).and_then(|s| s.get_all()) else {
            return Vec::new();
        };
        wait(&request)
            .await
            .ok()
            .and_then(|v| v.dyn_into::<Array>().ok())
            .map(|a| a.iter().collect())
            .unwrap_or_default()
    }

    pub async fn clear(db: &IdbDatabase, store_name: &str) -> bool {
        match store(db, store_name).and_then(|s| s.clear()) {
            Ok(request) => wait(&request).await.is_ok(),
            Err(_) => false,
        }
    }
}

/// Keeps `plan` as the current contest (its laps so far are forgotten unless `keep_laps`), and
/// whether it is running.
#[cfg(target_arch = "wasm32")]
pub async fn save_plan(plan: &Plan, running: bool, keep_laps: bool) -> bool {
    let Ok(db) = idb::open().await else {
        return false;
    };
    if !keep_laps && !idb::clear(&db, idb::LAPS).await {
        return false;
    }
    for (i, e) in plan.entrants.iter().enumerate() {
        if let PilotChoice::Wasm { bytes, .. } = &e.pilot
            && !idb::put_bytes(&db, &format!("wasm/{i}"), bytes).await
        {
            return false;
        }
        if !idb::put_bytes(&db, &format!("circuit/{i}"), &e.circuit.bytes).await {
            return false;
        }
    }
    let Ok(meta) = serde_json::to_string(&meta_of(plan, running)) else {
        return false;
    };
    idb::put(&db, idb::PLAN, "meta", &meta.into()).await
}

/// Keeps one lap of the plan whose fingerprint is `fingerprint`.
#[cfg(target_arch = "wasm32")]
pub async fn save_lap(fingerprint: String, lap: StoredLap) -> bool {
    let Ok(db) = idb::open().await else {
        return false;
    };
    let key = format!("{}/{}", lap.key.pilot, lap.key.owner);
    let Some(text) = lap_text(fingerprint, lap) else {
        return false;
    };
    idb::put(&db, idb::LAPS, &key, &text.into()).await
}

/// The kept contest, if any.
#[cfg(target_arch = "wasm32")]
pub async fn load() -> Option<Saved> {
    let db = idb::open().await.ok()?;
    let meta: PlanMeta =
        serde_json::from_str(&idb::get(&db, idb::PLAN, "meta").await?.as_string()?).ok()?;
    let fingerprint = meta.fingerprint.clone();
    let running = meta.running;
    let mut parts = std::collections::HashMap::new();
    for (i, e) in meta.entrants.iter().enumerate() {
        if e.wasm.is_some() {
            let key = format!("wasm/{i}");
            parts.insert(key.clone(), idb::get_bytes(&db, &key).await?);
        }
        let key = format!("circuit/{i}");
        parts.insert(key.clone(), idb::get_bytes(&db, &key).await?);
    }
    let plan = plan_of(meta, |key| parts.remove(key))?;
    let laps = idb::all(&db, idb::LAPS)
        .await
        .into_iter()
        .filter_map(|v| lap_of(&v.as_string()?, &fingerprint))
        .collect();
    Some((plan, running, laps))
}

#[cfg(not(target_arch = "wasm32"))]
pub async fn save_plan(_plan: &Plan, _running: bool, _keep_laps: bool) -> bool {
    false
}

#[cfg(not(target_arch = "wasm32"))]
pub async fn save_lap(_fingerprint: String, _lap: StoredLap) -> bool {
    false
}

#[cfg(not(target_arch = "wasm32"))]
pub async fn load() -> Option<Saved> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contest::session::add_entrant;
    use std::collections::HashMap;

    #[test]
    fn a_plan_comes_back_from_its_parts_with_the_same_fingerprint() {
        let mut entrants = Vec::new();
        add_entrant(&mut entrants, PilotChoice::Builtin(Pilot::Demo));
        add_entrant(
            &mut entrants,
            PilotChoice::Wasm {
                file: "greedy.wasm".into(),
                bytes: Rc::new(vec![0, 97, 115, 109, 1]),
            },
        );
        entrants[1].estimate = Some(42.5);
        let plan = Plan {
            entrants,
            limits: Limits {
                time_secs: 5.0,
                memory_mib: 16.0,
            },
            seed: 9,
        };
        let meta = serde_json::to_string(&meta_of(&plan, true)).unwrap();
        let mut parts: HashMap<String, Vec<u8>> = HashMap::new();
        for (i, e) in plan.entrants.iter().enumerate() {
            if let PilotChoice::Wasm { bytes, .. } = &e.pilot {
                parts.insert(format!("wasm/{i}"), bytes.to_vec());
            }
            parts.insert(format!("circuit/{i}"), e.circuit.bytes.to_vec());
        }
        let back = plan_of(serde_json::from_str(&meta).unwrap(), |k| {
            parts.get(k).cloned()
        })
        .unwrap();
        assert_eq!(back, plan);
        assert_eq!(back.fingerprint(), plan.fingerprint());
        // A missing part loses the plan, never mixes another in.
        let lost = plan_of(serde_json::from_str(&meta).unwrap(), |k| {
            (k != "wasm/1").then(|| parts.get(k).cloned()).flatten()
        });
        assert!(lost.is_none());
        let mut other = plan.clone();
        other.seed = 10;
        assert_ne!(other.fingerprint(), plan.fingerprint());
    }

    #[test]
    fn laps_come_back_for_their_own_plan_only() {
        use engine::racetrack::contest::{LapKey, LapRecord};
        let lap = StoredLap {
            key: LapKey { pilot: 1, owner: 0 },
            record: LapRecord::failed("ring.cir", "no_result", "no result file".into()),
            log: "a\ta.F1\tno_result\t-\t-\t-\td".into(),
            file: Some(b"a\r\nring.cir\r\n40,4\r\n".to_vec()),
        };
        let text = lap_text("f1".into(), lap.clone()).unwrap();
        assert_eq!(lap_of(&text, "f1"), Some(lap));
        assert_eq!(lap_of(&text, "f2"), None);
        assert_eq!(lap_of("{not json", "f1"), None);
    }
}
