//! Files in and out of the browser, for every page: bytes offered to the user as a download,
//! and the files they pick or drop, read as bytes.
//!
//! Where the browser refuses a step (no document, a blob it cannot make) a download simply does
//! not happen: the user, who sees no file, is the only one who could be told.

use js_sys::{Array, Uint8Array};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, BlobPropertyBag, File, FileList, HtmlAnchorElement, HtmlInputElement, Url};
use yew::{Callback, Event, TargetCast};

/// Offers `bytes` as a download called `file_name`, of type `mime`.
pub fn download(bytes: &[u8], file_name: &str, mime: &str) {
    let Some(url) = object_url(bytes, mime) else {
        return;
    };
    download_url(&url, file_name);
    let _ = Url::revoke_object_url(&url);
}

/// Offers `text` as a plain-text download called `file_name` (UTF-8, as written).
pub fn download_text(text: &str, file_name: &str) {
    download(text.as_bytes(), file_name, "text/plain");
}

/// Follows `url` (an object or data URL) as a download called `file_name`.
pub fn download_url(url: &str, file_name: &str) {
    let anchor = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.create_element("a").ok())
        .and_then(|a| a.dyn_into::<HtmlAnchorElement>().ok());
    if let Some(anchor) = anchor {
        anchor.set_href(url);
        anchor.set_download(file_name);
        anchor.click();
    }
}

/// A URL for `bytes` as a blob of type `mime`; revoke it when done.
fn object_url(bytes: &[u8], mime: &str) -> Option<String> {
    let parts = Array::of1(&Uint8Array::from(bytes));
    let options = BlobPropertyBag::new();
    options.set_type(mime);
    let blob = Blob::new_with_u8_array_sequence_and_options(&parts, &options).ok()?;
    Url::create_object_url_with_blob(&blob).ok()
}

/// The files of a list (an input's or a drop's), taken out of it: an input's list empties when
/// its value is reset.
pub fn list(files: &FileList) -> Vec<File> {
    (0..files.length()).filter_map(|i| files.get(i)).collect()
}

/// A file input's `change` handler: hands `on_files` the files chosen (nothing when none
/// is), then clears the input, so that choosing the same file again is a change again.
pub fn on_chosen(on_files: Callback<Vec<File>>) -> Callback<Event> {
    Callback::from(move |e: Event| {
        let input = e.target_unchecked_into::<HtmlInputElement>();
        let files = input.files().map(|l| list(&l));
        input.set_value("");
        if let Some(files) = files.filter(|f| !f.is_empty()) {
            on_files.emit(files);
        }
    })
}

/// Reads a picked or dropped file as bytes (Latin-1 text such as `.cir` and `.f1` files must
/// survive, so no decoding here).
pub async fn read(file: File) -> Result<Vec<u8>, String> {
    let buffer = JsFuture::from(file.array_buffer())
        .await
        .map_err(|e| format!("{} cannot be read: {e:?}", file.name()))?;
    Ok(Uint8Array::new(&buffer).to_vec())
}

/// Reads files as bytes, with their names, in order; unreadable ones are left out.
pub async fn read_all(files: Vec<File>) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for file in files {
        let name = file.name();
        if let Ok(bytes) = read(file).await {
            out.push((name, bytes));
        }
    }
    out
}
