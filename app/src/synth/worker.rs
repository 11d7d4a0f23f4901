//! The page's end of the yosys worker (`yosys_worker.js`, a JavaScript module worker because
//! @yowasp/yosys is an ES module): requests out, replies in, the worker ended when dropped.

use js_sys::{Object, Reflect, Uint8Array};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{MessageEvent, Worker, WorkerOptions, WorkerType};
use yew::Callback;

/// The worker's script, copied into `dist/` by trunk (`index.html`).
const SCRIPT: &str = "yosys_worker.js";

/// What the worker says about a request.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// Fetching and compiling yosys (the first request only takes a while).
    Loading,
    /// A numbered section of yosys's log has begun.
    Progress(String),
    /// yosys has finished.
    Done(Outcome),
}

/// How a run of yosys ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The netlist's JSON text when yosys succeeded.
    pub netlist: Option<String>,
    /// All yosys printed, or why it could not run.
    pub log: String,
    pub seconds: f64,
}

/// A running yosys worker.
pub struct YosysWorker {
    worker: Worker,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
}

impl YosysWorker {
    /// Starts the worker; `on_reply` gets each reply with its request's id.
    pub fn spawn(on_reply: Callback<(u32, Reply)>) -> Result<YosysWorker, String> {
        let options = WorkerOptions::new();
        options.set_type(WorkerType::Module);
        let worker = Worker::new_with_options(SCRIPT, &options)
            .map_err(|e| format!("cannot start the yosys worker: {e:?}"))?;
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            if let Some(reply) = parse(&event.data()) {
                on_reply.emit(reply);
            }
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        Ok(YosysWorker {
            worker,
            _on_message: on_message,
        })
    }

    /// Asks for `script` to run on `files` (name, bytes); the netlist is read from
    /// `netlist_file`. Replies carry `id`.
    pub fn synthesize(
        &self,
        id: u32,
        files: &[(String, Vec<u8>)],
        script: &str,
        netlist_file: &str,
    ) -> Result<(), String> {
        let tree = Object::new();
        for (name, bytes) in files {
            set(&tree, name, &Uint8Array::from(bytes.as_slice()).into());
        }
        let message = Object::new();
        set(&message, "id", &id.into());
        set(&message, "files", &tree.into());
        set(&message, "script", &script.into());
        set(&message, "netlistFile", &netlist_file.into());
        self.worker
            .post_message(&message)
            .map_err(|e| format!("cannot reach the yosys worker: {e:?}"))
    }
}

impl Drop for YosysWorker {
    fn drop(&mut self) {
        self.worker.set_onmessage(None);
        self.worker.terminate();
    }
}

fn set(object: &Object, key: &str, value: &JsValue) {
    // Setting a property of a plain object cannot fail.
    let _ = Reflect::set(object, &key.into(), value);
}

fn get(object: &JsValue, key: &str) -> JsValue {
    Reflect::get(object, &key.into()).unwrap_or(JsValue::UNDEFINED)
}

/// A reply from the worker, or `None` for a message it cannot have sent.
fn parse(data: &JsValue) -> Option<(u32, Reply)> {
    let id = get(data, "id").as_f64()? as u32;
    let reply = match get(data, "kind").as_string()?.as_str() {
        "loading" => Reply::Loading,
        "progress" => Reply::Progress(get(data, "line").as_string()?),
        "done" => Reply::Done(Outcome {
            netlist: get(data, "ok")
                .as_bool()
                .unwrap_or(false)
                .then(|| get(data, "netlist").as_string())
                .flatten(),
            log: get(data, "log").as_string().unwrap_or_default(),
            seconds: get(data, "seconds").as_f64().unwrap_or(0.0),
        }),
        _ => return None,
    };
    Some((id, reply))
}
