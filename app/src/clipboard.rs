//! The system clipboard, for every page that copies text (records, monitor logs).

use wasm_bindgen::{JsCast, JsValue};

/// Puts `text` on the clipboard (ignored where the browser refuses).
pub fn copy_text(text: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let clipboard = js_sys::Reflect::get(&window.navigator(), &JsValue::from_str("clipboard"))
        .ok()
        .filter(|c| !c.is_undefined());
    if let Some(clipboard) = clipboard
        && let Ok(write) = js_sys::Reflect::get(&clipboard, &JsValue::from_str("writeText"))
        && let Some(write) = write.dyn_ref::<js_sys::Function>()
        && let Ok(promise) = write.call1(&clipboard, &JsValue::from_str(text))
        && let Ok(promise) = promise.dyn_into::<js_sys::Promise>()
    {
        // A refusal (no focus, no permission) is not worth an error on the console.
        wasm_bindgen_futures::spawn_local(async move {
            let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
        });
    }
}
