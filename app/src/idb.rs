//! IndexedDB plumbing shared by the contest's and the league's storage: waiting for a request,
//! opening a database (making its object stores on the first open) and taking one store in a
//! transaction. Each page keeps its own database name, store names, keys and values.

use js_sys::{Function, Promise};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{IdbDatabase, IdbObjectStore, IdbRequest, IdbTransactionMode};

/// Waits for a request's result (`success`); its `error` fails with "IndexedDB refused" (the
/// league shows that in the console; the contest only asks whether it failed).
pub async fn wait(request: &IdbRequest) -> Result<JsValue, JsValue> {
    let promise = Promise::new(&mut |resolve: Function, reject: Function| {
        let done = request.clone();
        let success = Closure::once_into_js(move |_: web_sys::Event| {
            let _ = resolve.call1(&JsValue::NULL, &done.result().unwrap_or_default());
        });
        let failure = Closure::once_into_js(move |_: web_sys::Event| {
            let _ = reject.call1(&JsValue::NULL, &"IndexedDB refused".into());
        });
        request.set_onsuccess(Some(success.unchecked_ref()));
        request.set_onerror(Some(failure.unchecked_ref()));
    });
    JsFuture::from(promise).await
}

/// Opens the database `name` (version 1), making those of `stores` it does not have yet.
pub async fn open(name: &str, stores: &'static [&'static str]) -> Result<IdbDatabase, JsValue> {
    let factory = web_sys::window()
        .ok_or("no window")?
        .indexed_db()?
        .ok_or("no IndexedDB")?;
    let request = factory.open_with_u32(name, 1)?;
    let r = request.clone();
    let upgrade = Closure::once_into_js(move || {
        if let Ok(db) = r.result() {
            let db: IdbDatabase = db.unchecked_into();
            let names = db.object_store_names();
            for &store in stores {
                if !names.contains(store) {
                    let _ = db.create_object_store(store);
                }
            }
        }
    });
    request.set_onupgradeneeded(Some(upgrade.unchecked_ref()));
    Ok(wait(&request).await?.unchecked_into())
}

/// The object store `name` of `db`, in a transaction of its own.
pub fn store(
    db: &IdbDatabase,
    name: &str,
    mode: IdbTransactionMode,
) -> Result<IdbObjectStore, JsValue> {
    db.transaction_with_str_and_mode(name, mode)?
        .object_store(name)
}
