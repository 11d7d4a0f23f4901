//! An open serial port: a read loop that hands every chunk to a callback, writes, and a clean
//! close (cancel the reader, release both locks, close the port).

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use gloo_events::EventListener;
use js_sys::{Reflect, Uint8Array};
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::{JsFuture, spawn_local};
use yew::Callback;

use super::api::{self, SerialError, SerialPort, StreamReader, StreamWriter};
use super::settings::LineSettings;

/// What an open port reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PortEvent {
    /// Bytes read, in whatever chunks the browser delivers them.
    Data(Vec<u8>),
    /// The port is closed: `None` when [`Connection::close`] asked for it, else why it was lost.
    /// Reported once; nothing follows it.
    Closed(Option<SerialError>),
}

struct Inner {
    port: SerialPort,
    label: String,
    line: LineSettings,
    writer: RefCell<Option<StreamWriter>>,
    reader: RefCell<Option<StreamReader>>,
    /// Set once [`Connection::close`] was called or the port was lost.
    closing: Cell<bool>,
    /// Set once `Closed` was reported.
    reported: Cell<bool>,
    on_event: Callback<PortEvent>,
    disconnect: RefCell<Option<EventListener>>,
}

impl Inner {
    fn report_closed(&self, reason: Option<SerialError>) {
        if !self.reported.replace(true) {
            self.on_event.emit(PortEvent::Closed(reason));
        }
    }
}

/// An open port. Cloning shares it; dropping the last clone does not close it (call
/// [`Connection::close`]).
#[derive(Clone)]
pub struct Connection {
    inner: Rc<Inner>,
}

impl PartialEq for Connection {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.inner, &other.inner)
    }
}

impl std::fmt::Debug for Connection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Connection({}, {})", self.inner.label, self.inner.line)
    }
}

impl Connection {
    /// Opens `port` with `line` and starts reading; every event goes to `on_event`.
    pub async fn open(
        port: SerialPort,
        line: LineSettings,
        on_event: Callback<PortEvent>,
    ) -> Result<Connection, SerialError> {
        api::open(&port, &line).await?;
        let (Some(readable), Some(writable)) = (port.readable(), port.writable()) else {
            let _ = JsFuture::from(port.close()).await;
            return Err(SerialError::Other("the open port has no streams".into()));
        };
        let reader = readable.get_reader();
        let writer = writable.get_writer();
        let inner = Rc::new(Inner {
            label: api::port_label(&port),
            port,
            line,
            writer: RefCell::new(Some(writer)),
            reader: RefCell::new(Some(reader.clone())),
            closing: Cell::new(false),
            reported: Cell::new(false),
            on_event,
            disconnect: RefCell::new(None),
        });
        // The `disconnect` event reaches the port when its device goes away (cable pulled). A
        // stand-in port that is no `EventTarget` still reports a loss through its stream.
        if is_event_target(&inner.port) {
            let weak = Rc::downgrade(&inner);
            let listener = EventListener::new(&inner.port, "disconnect", move |_| {
                if let Some(inner) = weak.upgrade() {
                    inner.closing.set(true);
                    inner.report_closed(Some(SerialError::Lost("disconnected".into())));
                }
            });
            *inner.disconnect.borrow_mut() = Some(listener);
        }
        spawn_local(read_loop(inner.clone(), reader));
        Ok(Connection { inner })
    }

    /// Queues `bytes` for writing. A failed write reports the port lost.
    pub fn write(&self, bytes: &[u8]) {
        if self.inner.closing.get() {
            return;
        }
        let Some(writer) = self.inner.writer.borrow().as_ref().cloned() else {
            return;
        };
        let promise = writer.write(&Uint8Array::from(bytes));
        let inner = self.inner.clone();
        spawn_local(async move {
            if let Err(error) = JsFuture::from(promise).await
                && !inner.closing.replace(true)
            {
                inner.report_closed(Some(SerialError::Lost(
                    SerialError::from_js(&error).to_string(),
                )));
                if let Some(reader) = inner.reader.borrow().as_ref() {
                    let _ = reader.cancel();
                }
            }
        });
    }

    /// Closes the port cleanly: cancels the pending read, releases the reader's and writer's
    /// locks, then closes the port. `Closed(None)` is reported when done.
    pub fn close(&self) {
        if self.inner.closing.replace(true) {
            return;
        }
        match self.inner.reader.borrow().as_ref() {
            // The read loop sees `done` and finishes the close.
            Some(reader) => drop(reader.cancel()),
            None => spawn_local(finish_close(self.inner.clone(), None)),
        }
    }

    /// Whether the port is still open (not closed, not lost).
    pub fn is_open(&self) -> bool {
        !self.inner.closing.get()
    }

    /// The port's short name (USB ids).
    pub fn label(&self) -> &str {
        &self.inner.label
    }

    /// The settings it was opened with.
    pub fn line(&self) -> LineSettings {
        self.inner.line
    }

    /// The port itself (to open it again later without a prompt).
    pub fn port(&self) -> &SerialPort {
        &self.inner.port
    }
}

/// Whether `port` takes event listeners (every real `SerialPort` does).
fn is_event_target(port: &SerialPort) -> bool {
    Reflect::get(port, &JsValue::from_str("addEventListener")).is_ok_and(|f| f.is_function())
}

async fn read_loop(inner: Rc<Inner>, reader: StreamReader) {
    let mut lost = None;
    loop {
        match JsFuture::from(reader.read()).await {
            Ok(result) => {
                let done = Reflect::get(&result, &JsValue::from_str("done"))
                    .map(|d| d.is_truthy())
                    .unwrap_or(true);
                if done {
                    break;
                }
                let value = Reflect::get(&result, &JsValue::from_str("value")).unwrap_or_default();
                let bytes = Uint8Array::new(&value).to_vec();
                if !bytes.is_empty() && !inner.reported.get() {
                    inner.on_event.emit(PortEvent::Data(bytes));
                }
            }
            Err(error) => {
                if !inner.closing.get() {
                    lost = Some(SerialError::Lost(SerialError::from_js(&error).to_string()));
                }
                break;
            }
        }
    }
    finish_close(inner, lost).await;
}

/// Releases both locks and closes the port, then reports `Closed`.
async fn finish_close(inner: Rc<Inner>, lost: Option<SerialError>) {
    inner.closing.set(true);
    if let Some(reader) = inner.reader.borrow_mut().take() {
        let _ = reader.release_lock();
    }
    if let Some(writer) = inner.writer.borrow_mut().take() {
        let _ = writer.release_lock();
    }
    // Closing a port whose device is gone rejects; the port is unusable either way.
    let _ = JsFuture::from(inner.port.close()).await;
    inner.disconnect.borrow_mut().take();
    inner.report_closed(lost);
}
