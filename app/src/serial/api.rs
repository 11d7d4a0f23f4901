//! The slice of the Web Serial API the app uses, bound by hand with wasm-bindgen.
//!
//! web-sys has these types only behind `web_sys_unstable_apis`, which is set for wasm32 alone;
//! binding the few methods here keeps the app lib compiling (and its logic testable) natively,
//! and lets errors be read from the `DOMException` names the API documents.

use js_sys::{Array, Object, Promise, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;

use super::settings::LineSettings;

#[wasm_bindgen]
extern "C" {
    /// `navigator.serial`.
    #[derive(Clone, Debug)]
    pub type Serial;

    // The methods a page calls are bound with `catch`: a stand-in `navigator.serial` (a polyfill,
    // a test's script) may lack one or throw, and that must be an error, not an exception
    // unwinding through the app.
    #[wasm_bindgen(method, catch, js_name = requestPort)]
    fn request_port_with(this: &Serial, options: &Object) -> Result<JsValue, JsValue>;

    #[wasm_bindgen(method, catch, js_name = getPorts)]
    fn get_ports(this: &Serial) -> Result<JsValue, JsValue>;

    /// One serial port the page was granted.
    #[wasm_bindgen(extends = web_sys::EventTarget)]
    #[derive(Clone, Debug, PartialEq)]
    pub type SerialPort;

    #[wasm_bindgen(method, catch)]
    fn open(this: &SerialPort, options: &Object) -> Result<JsValue, JsValue>;

    #[wasm_bindgen(method)]
    pub fn close(this: &SerialPort) -> Promise;

    #[wasm_bindgen(method, getter)]
    pub fn readable(this: &SerialPort) -> Option<ReadableStream>;

    #[wasm_bindgen(method, getter)]
    pub fn writable(this: &SerialPort) -> Option<WritableStream>;

    #[wasm_bindgen(method, catch, js_name = getInfo)]
    fn get_info(this: &SerialPort) -> Result<JsValue, JsValue>;

    #[derive(Clone, Debug)]
    pub type ReadableStream;

    #[wasm_bindgen(method, js_name = getReader)]
    pub fn get_reader(this: &ReadableStream) -> StreamReader;

    /// A `ReadableStreamDefaultReader` of bytes.
    #[derive(Clone, Debug)]
    pub type StreamReader;

    #[wasm_bindgen(method)]
    pub fn read(this: &StreamReader) -> Promise;

    #[wasm_bindgen(method)]
    pub fn cancel(this: &StreamReader) -> Promise;

    #[wasm_bindgen(method, catch, js_name = releaseLock)]
    pub fn release_lock(this: &StreamReader) -> Result<(), JsValue>;

    #[derive(Clone, Debug)]
    pub type WritableStream;

    #[wasm_bindgen(method, js_name = getWriter)]
    pub fn get_writer(this: &WritableStream) -> StreamWriter;

    /// A `WritableStreamDefaultWriter` of bytes.
    #[derive(Clone, Debug)]
    pub type StreamWriter;

    #[wasm_bindgen(method)]
    pub fn write(this: &StreamWriter, chunk: &Uint8Array) -> Promise;

    #[wasm_bindgen(method, catch, js_name = releaseLock)]
    pub fn release_lock(this: &StreamWriter) -> Result<(), JsValue>;
}

/// Why the Web Serial API refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SerialError {
    #[error(
        "this browser has no Web Serial API: use a Chromium-based browser (Chrome, Edge, Opera) \
         on a page served over https or from localhost; the rest of the app works without it"
    )]
    Unsupported,
    #[error("no port was chosen")]
    Cancelled,
    #[error("the page may not use serial ports here (a permissions policy or a missing click)")]
    NotAllowed,
    #[error("the port could not be opened: another program may be using it ({0})")]
    Busy(String),
    #[error("the port is already open in this page")]
    AlreadyOpen,
    #[error("the device was lost: the cable was pulled or the adapter reset ({0})")]
    Lost(String),
    #[error("{0}")]
    Other(String),
}

impl SerialError {
    /// Reads a rejected promise's `DOMException` (its `name` decides the kind).
    pub fn from_js(error: &JsValue) -> SerialError {
        let text = |key: &str| {
            Reflect::get(error, &JsValue::from_str(key))
                .ok()
                .and_then(|v| v.as_string())
                .unwrap_or_default()
        };
        let message = text("message");
        match text("name").as_str() {
            "NotFoundError" | "AbortError" => SerialError::Cancelled,
            "SecurityError" | "NotAllowedError" => SerialError::NotAllowed,
            "InvalidStateError" => SerialError::AlreadyOpen,
            "NetworkError" => SerialError::Busy(message),
            "BreakError" | "FramingError" | "ParityError" | "BufferOverrunError" => {
                SerialError::Other(format!("line error: {message}"))
            }
            _ if message.is_empty() => {
                SerialError::Other(error.as_string().unwrap_or_else(|| "unknown error".into()))
            }
            _ => SerialError::Other(message),
        }
    }
}

/// `navigator.serial`, when the browser has it.
pub fn serial() -> Result<Serial, SerialError> {
    let navigator = web_sys::window()
        .map(|w| w.navigator())
        .ok_or(SerialError::Unsupported)?;
    let serial = Reflect::get(&navigator, &JsValue::from_str("serial"))
        .map_err(|_| SerialError::Unsupported)?;
    if serial.is_undefined() || serial.is_null() {
        return Err(SerialError::Unsupported);
    }
    Ok(serial.unchecked_into())
}

/// Whether this browser offers Web Serial.
pub fn is_supported() -> bool {
    serial().is_ok()
}

/// Shows the browser's port chooser. Browsers allow this only during a user gesture, so call it
/// straight from a click handler.
///
/// The chooser is opened by this call itself (not when the future is first polled), so the
/// click's user activation is still there.
pub fn request_port() -> impl Future<Output = Result<SerialPort, SerialError>> {
    let promise = serial().and_then(|serial| settle(serial.request_port_with(&Object::new())));
    async move {
        wasm_bindgen_futures::JsFuture::from(promise?)
            .await
            .map(JsCast::unchecked_into)
            .map_err(|e| SerialError::from_js(&e))
    }
}

/// The promise of a call's result (a plain value is wrapped), or the error it threw.
fn settle(result: Result<JsValue, JsValue>) -> Result<Promise, SerialError> {
    result
        .map(|value| Promise::resolve(&value))
        .map_err(|e| SerialError::from_js(&e))
}

/// The ports this page was granted before (reconnected without a prompt).
pub async fn granted_ports() -> Result<Vec<SerialPort>, SerialError> {
    let promise = settle(serial()?.get_ports())?;
    let ports = wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .map_err(|e| SerialError::from_js(&e))?;
    if !Array::is_array(&ports) {
        return Ok(Vec::new());
    }
    Ok(Array::from(&ports)
        .iter()
        .map(JsCast::unchecked_into)
        .collect())
}

/// Opens `port` with `line`'s settings.
pub async fn open(port: &SerialPort, line: &LineSettings) -> Result<(), SerialError> {
    let options = Object::new();
    let set = |key: &str, value: JsValue| {
        let _ = Reflect::set(&options, &JsValue::from_str(key), &value);
    };
    set("baudRate", line.baud.into());
    set("dataBits", line.data_bits.count().into());
    set("stopBits", line.stop_bits.count().into());
    set("parity", line.parity.name().into());
    set("flowControl", line.flow_control.name().into());
    // Generous buffers: a board may print a lot at reset.
    set("bufferSize", 4096.into());
    wasm_bindgen_futures::JsFuture::from(settle(port.open(&options))?)
        .await
        .map(|_| ())
        .map_err(|e| SerialError::from_js(&e))
}

/// A short name for a port: its USB vendor and product ids when it has them.
pub fn port_label(port: &SerialPort) -> String {
    // (Without `getInfo`, or without USB ids, a port is just "serial port".)
    let info = port.get_info().unwrap_or_default();
    let id = |key: &str| {
        Reflect::get(&info, &JsValue::from_str(key))
            .ok()
            .and_then(|v| v.as_f64())
    };
    match (id("usbVendorId"), id("usbProductId")) {
        (Some(vendor), Some(product)) => {
            format!("USB {:04x}:{:04x}", vendor as u32, product as u32)
        }
        _ => "serial port".into(),
    }
}
