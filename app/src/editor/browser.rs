//! The editor's browser glue: the autosave in `localStorage`, downloads, and reading dropped
//! or picked files.

use engine::racetrack::{Circuit, LineEnding};
use js_sys::{Array, Uint8Array};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, BlobPropertyBag, File, HtmlAnchorElement, Storage, Url};

/// The `localStorage` key of the work in progress.
const AUTOSAVE_KEY: &str = "quadrille.circuit-editor.v1";

fn storage() -> Option<Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// Saves the work in progress: the circuit's name on the first line, then its `.cir` text.
/// Answers whether the browser accepted it.
pub fn autosave(name: &str, circuit: &Circuit) -> bool {
    let text = format!("{name}\n{}", circuit.to_text(LineEnding::Lf));
    storage().is_some_and(|s| s.set_item(AUTOSAVE_KEY, &text).is_ok())
}

/// The autosaved work, if any and readable.
pub fn restore() -> Option<(String, Circuit)> {
    let text = storage()?.get_item(AUTOSAVE_KEY).ok()??;
    let (name, cir) = text.split_once('\n')?;
    Some((name.to_owned(), Circuit::parse(cir.as_bytes()).ok()?))
}

/// Offers `bytes` as a download called `file_name`.
pub fn download(bytes: &[u8], file_name: &str, mime: &str) -> Option<()> {
    let parts = Array::of1(&Uint8Array::from(bytes));
    let options = BlobPropertyBag::new();
    options.set_type(mime);
    let blob = Blob::new_with_u8_array_sequence_and_options(&parts, &options).ok()?;
    let url = Url::create_object_url_with_blob(&blob).ok()?;
    let done = download_url(&url, file_name);
    let _ = Url::revoke_object_url(&url);
    done
}

/// Follows `url` as a download called `file_name`.
pub fn download_url(url: &str, file_name: &str) -> Option<()> {
    let document = web_sys::window()?.document()?;
    let anchor = document
        .create_element("a")
        .ok()?
        .dyn_into::<HtmlAnchorElement>()
        .ok()?;
    anchor.set_href(url);
    anchor.set_download(file_name);
    anchor.click();
    Some(())
}

/// Reads a picked or dropped file.
pub async fn read(file: File) -> Result<Vec<u8>, String> {
    let buffer = JsFuture::from(file.array_buffer())
        .await
        .map_err(|e| format!("{} cannot be read: {e:?}", file.name()))?;
    Ok(Uint8Array::new(&buffer).to_vec())
}
