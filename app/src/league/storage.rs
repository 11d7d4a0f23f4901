//! What the league page keeps across a reload. The form as last typed and whether a league was
//! running are small and needed at the first render: they stay in `localStorage`. Each plan's
//! results so far (keyed by the plan's text, so results never mix between plans) and the files
//! players were made from (netlists, bots: megabytes) go to IndexedDB, which has room for
//! them where `localStorage` holds about 5 MB in all. Storage that is missing or refuses only
//! loses the resumption.

use std::cell::RefCell;

use js_sys::Uint8Array;
use wasm_bindgen::prelude::*;
use web_sys::{IdbDatabase, IdbTransactionMode};

use super::form::Form;
use super::session::Plan;
use crate::hash::ContentHash;
use crate::idb;

/// The form as last typed ([`Form::to_text`]).
pub const FORM_KEY: &str = "quadrille.league.form";
/// Set while a league runs: the next visit resumes it.
pub const RUNNING_KEY: &str = "quadrille.league.running";

/// The IndexedDB database and its one object store (string keys).
const DATABASE: &str = "quadrille-league";
const STORE: &str = "kv";

/// The key of a plan's results ([`super::session::Session::stored`]).
pub fn results_key(plan: &Plan) -> String {
    format!("quadrille.league.results\n{plan}")
}

/// The key of an uploaded file a player is made of (`kind` is `netlist` or `bot`), by its
/// contents: a file is kept once however many players are made of it, and another file of
/// the same name never takes its place.
pub fn file_key(kind: &str, hash: ContentHash) -> String {
    format!("quadrille.league.file\n{kind}\n{hash}")
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// The stored value of `key` in `localStorage`, if any.
pub fn load(key: &str) -> Option<String> {
    storage()?.get_item(key).ok()?
}

/// Stores `value` under `key` in `localStorage` (`None` removes it).
pub fn save(key: &str, value: Option<&str>) {
    if let Some(s) = storage() {
        let _ = match value {
            Some(v) => s.set_item(key, v),
            None => s.remove_item(key),
        };
    }
}

thread_local! {
    /// The database once open (one connection per page).
    static DB: RefCell<Option<IdbDatabase>> = const { RefCell::new(None) };
}

/// The open database (opened, and its store made, on first use).
async fn database() -> Result<IdbDatabase, JsValue> {
    if let Some(db) = DB.with(|db| db.borrow().clone()) {
        return Ok(db);
    }
    let db = idb::open(DATABASE, &[STORE]).await?;
    DB.with(|slot| *slot.borrow_mut() = Some(db.clone()));
    Ok(db)
}

async fn get_value(key: &str) -> Result<JsValue, JsValue> {
    let db = database().await?;
    let store = idb::store(&db, STORE, IdbTransactionMode::Readonly)?;
    idb::wait(&store.get(&key.into())?).await
}

async fn put_value(key: &str, value: Option<&JsValue>) -> Result<(), JsValue> {
    let db = database().await?;
    let store = idb::store(&db, STORE, IdbTransactionMode::Readwrite)?;
    let request = match value {
        Some(value) => store.put_with_key(value, &key.into())?,
        None => store.delete(&key.into())?,
    };
    idb::wait(&request).await.map(drop)
}

/// The text stored under `key` in IndexedDB, if any.
pub async fn load_text(key: &str) -> Option<String> {
    get_value(key).await.ok()?.as_string()
}

/// The bytes stored under `key` in IndexedDB, if any.
pub async fn load_bytes(key: &str) -> Option<Vec<u8>> {
    let value = get_value(key).await.ok()?;
    value
        .is_instance_of::<Uint8Array>()
        .then(|| Uint8Array::new(&value).to_vec())
}

/// Stores `text` under `key` in IndexedDB. Writes are done in the order they are asked for
/// (each is a transaction on the same store), so the last results win.
pub fn save_text(key: &str, text: &str) {
    let (key, value) = (key.to_owned(), JsValue::from_str(text));
    wasm_bindgen_futures::spawn_local(async move {
        if let Err(e) = put_value(&key, Some(&value)).await {
            web_sys::console::warn_2(&"league: cannot keep the results".into(), &e);
        }
    });
}

/// Stores `bytes` under `key` in IndexedDB.
pub fn save_bytes(key: &str, bytes: &[u8]) {
    let (key, value) = (key.to_owned(), Uint8Array::from(bytes));
    wasm_bindgen_futures::spawn_local(async move {
        if let Err(e) = put_value(&key, Some(&value)).await {
            web_sys::console::warn_2(&"league: cannot keep a player's file".into(), &e);
        }
    });
}

/// The form kept by the last visit, or a small default league.
pub fn stored_form() -> Form {
    load(FORM_KEY).map_or_else(Form::default, |text| Form::from_text(&text))
}

/// Keeps `form` for the next visit.
pub fn store_form(form: &Form) {
    save(FORM_KEY, Some(&form.to_text()));
}
