//! The worker's side (`app/src/bin/wasi_worker.rs`): takes one job, checks and re-encodes the
//! module, instantiates it with WASI functions that call [`World`], runs `_start` to its end
//! and reports. A program that never ends is the page's business: it terminates the worker.

use std::cell::RefCell;
use std::rc::Rc;

use engine::racetrack::program::Found;
use js_sys::{Array, Atomics, Function, Int32Array, Object, Reflect, Uint8Array, WebAssembly};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

use super::module::{self, GROW_MODULE, GROW_NAME, WASI_MODULE};
use super::protocol::{
    Ended, Ending, Job, Mode, Report, STDIN_CLOSED, STDIN_HEADER, STDIN_READ, STDIN_RING,
    STDIN_WRITTEN,
};
use super::world::{Flow, Host, Memory, World};

fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

fn post(report: &Report) {
    if let Ok(text) = serde_json::to_string(report) {
        let _ = scope().post_message(&JsValue::from_str(&text));
    }
}

fn now_ms() -> f64 {
    scope()
        .performance()
        .map_or_else(js_sys::Date::now, |p| p.now())
}

/// Starts listening for the job, and says so.
pub fn main() {
    let onmessage = Closure::<dyn FnMut(MessageEvent)>::new(|event: MessageEvent| {
        let data: Array = event.data().unchecked_into();
        let job: Option<Job> = data
            .get(0)
            .as_string()
            .and_then(|t| serde_json::from_str(&t).ok());
        let Some(job) = job else {
            post(&Report::Refused(
                "the worker got no job it understands".into(),
            ));
            return;
        };
        let bytes = Uint8Array::new(&data.get(1)).to_vec();
        run(job, bytes, data.get(2));
    });
    scope().set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    onmessage.forget();
    post(&Report::Ready);
}

/// The program's memory, once instantiated.
struct JsMemory(Rc<RefCell<Option<WebAssembly::Memory>>>);

impl JsMemory {
    fn view(&self) -> Option<Uint8Array> {
        self.0
            .borrow()
            .as_ref()
            .map(|m| Uint8Array::new(&m.buffer()))
    }
}

impl Memory for JsMemory {
    fn read(&self, ptr: u32, len: u32) -> Option<Vec<u8>> {
        let view = self.view()?;
        let end = ptr.checked_add(len)?;
        (end <= view.length()).then(|| view.subarray(ptr, end).to_vec())
    }

    fn write(&mut self, ptr: u32, bytes: &[u8]) -> bool {
        let Some(view) = self.view() else {
            return false;
        };
        match u32::try_from(bytes.len())
            .ok()
            .and_then(|n| ptr.checked_add(n))
        {
            Some(end) if end <= view.length() => {
                view.subarray(ptr, end).copy_from(bytes);
                true
            }
            _ => false,
        }
    }
}

/// The worker's clocks, and a bot's standard input.
struct WorkerHost {
    /// A bot's input ring: the control words and the bytes.
    stdin: Option<(Int32Array, Uint8Array)>,
    read: u32,
    bot: bool,
}

impl WorkerHost {
    fn available(&self) -> Option<(u32, i32)> {
        let (control, _) = self.stdin.as_ref()?;
        let written = Atomics::load(control, STDIN_WRITTEN).unwrap_or(0);
        Some(((written as u32).wrapping_sub(self.read), written))
    }
}

impl Host for WorkerHost {
    fn now_ns(&self, id: u32) -> u64 {
        let ms = if id == 0 {
            js_sys::Date::now()
        } else {
            now_ms()
        };
        (ms * 1e6) as u64
    }

    fn sleep(&mut self, ns: u64) {
        let ms = ns as f64 / 1e6;
        if let Some((control, _)) = &self.stdin {
            // Waits on a word nobody changes (the spare one): a sleep that costs nothing.
            let _ = Atomics::wait_with_timeout(control, 3, 0, ms);
            return;
        }
        let until = now_ms() + ms;
        while now_ms() < until {}
    }

    fn read_stdin(&mut self, max: usize) -> Vec<u8> {
        loop {
            let Some((available, written)) = self.available() else {
                return Vec::new();
            };
            let Some((control, ring)) = &self.stdin else {
                return Vec::new();
            };
            if available > 0 {
                let n = available.min(max as u32);
                let bytes: Vec<u8> = (0..n)
                    .map(|i| {
                        let at = (self.read.wrapping_add(i) % STDIN_RING) + STDIN_HEADER;
                        ring.get_index(at)
                    })
                    .collect();
                self.read = self.read.wrapping_add(n);
                let _ = Atomics::store(control, STDIN_READ, self.read as i32);
                return bytes;
            }
            if Atomics::load(control, STDIN_CLOSED).unwrap_or(1) != 0 {
                return Vec::new();
            }
            let _ = Atomics::wait(control, STDIN_WRITTEN, written);
        }
    }

    fn stdin_ready(&mut self) -> bool {
        let closed = self
            .stdin
            .as_ref()
            .is_none_or(|(control, _)| Atomics::load(control, STDIN_CLOSED).unwrap_or(1) != 0);
        closed || self.available().is_some_and(|(n, _)| n > 0)
    }

    fn write_stdout(&mut self, bytes: &[u8]) -> bool {
        if self.bot {
            post(&Report::Stdout(bytes.to_vec()));
        }
        self.bot
    }
}

/// Why `_start` was left, when the host left it (the exception is then only a messenger).
#[derive(Clone, Debug)]
enum Cause {
    Exit(i32),
    Broke(String),
    OutOfMemory,
}

/// A JavaScript function `(...args) => f(args)`, throwing what `f` returns unless a number.
fn variadic(f: &JsValue) -> Function {
    let make = Function::new_with_args(
        "f",
        "return function (...a) { const r = f(a); if (typeof r === 'number') return r; throw r; };",
    );
    make.call1(&JsValue::NULL, f)
        .map(JsCast::unchecked_into)
        .unwrap_or_else(|_| make)
}

fn arg(value: JsValue) -> i64 {
    if let Some(n) = value.as_f64() {
        return n as i64;
    }
    i64::try_from(value.clone())
        .or_else(|_| u64::try_from(value).map(|v| v as i64))
        .unwrap_or(0)
}

fn run(job: Job, bytes: Vec<u8>, extra: JsValue) {
    let prepared = match module::prepare(&bytes) {
        Ok(p) => p,
        Err(e) => return post(&Report::Refused(e.to_string())),
    };
    let stem = job
        .file_name
        .rsplit_once('.')
        .map_or(job.file_name.as_str(), |(s, _)| s)
        .to_owned();
    let (world, bot) = match &job.mode {
        Mode::Pilot { circuit_name } => (
            World::pilot(
                &job.file_name,
                circuit_name,
                Uint8Array::new(&extra).to_vec(),
                job.seed,
            ),
            false,
        ),
        Mode::Bot => (World::bot(&job.file_name, job.seed), true),
    };
    let stdin = bot.then(|| {
        let control = Int32Array::new_with_byte_offset_and_length(&extra, 0, 4);
        let ring = Uint8Array::new(&extra);
        (control, ring)
    });
    let world = Rc::new(RefCell::new(world));
    let host = Rc::new(RefCell::new(WorkerHost {
        stdin,
        read: 0,
        bot,
    }));
    let memory: Rc<RefCell<Option<WebAssembly::Memory>>> = Rc::default();
    let cause: Rc<RefCell<Option<Cause>>> = Rc::default();
    let finish = |ended: Ended, millis: f64, world: &World| {
        let (log, log_dropped) = world.log();
        let found = if bot {
            Found::Missing
        } else {
            world.result(&stem)
        };
        post(&Report::Ended(Ending {
            ended,
            found,
            log: log.to_vec(),
            log_dropped,
            millis,
        }));
    };
    if prepared.initial_memory > job.memory_bytes {
        post(&Report::Started);
        return finish(Ended::OutOfMemory, 0.0, &world.borrow());
    }
    let stopper = JsValue::from(js_sys::Error::new("stopped by the host"));
    let wasi = Object::new();
    for name in prepared.imports.clone() {
        let key = name.clone();
        let (world, host, memory, cause, stopper) = (
            world.clone(),
            host.clone(),
            memory.clone(),
            cause.clone(),
            stopper.clone(),
        );
        let f = Closure::<dyn FnMut(Array) -> JsValue>::new(move |args: Array| {
            if cause.borrow().is_some() {
                return stopper.clone();
            }
            let args: Vec<i64> = args.iter().map(arg).collect();
            let mut mem = JsMemory(memory.clone());
            let flow = world
                .borrow_mut()
                .call(&name, &args, &mut mem, &mut *host.borrow_mut());
            let stop = match flow {
                Flow::Errno(e) => return JsValue::from(e),
                Flow::Exit(code) => Cause::Exit(code),
                Flow::Broke(words) => Cause::Broke(words),
            };
            *cause.borrow_mut() = Some(stop);
            stopper.clone()
        });
        let _ = Reflect::set(&wasi, &JsValue::from_str(&key), &variadic(f.as_ref()));
        f.forget();
    }
    let imports = Object::new();
    let _ = Reflect::set(&imports, &JsValue::from_str(WASI_MODULE), &wasi);
    if prepared.guarded {
        let (memory, cause, stopper) = (memory.clone(), cause.clone(), stopper.clone());
        let limit = job.memory_bytes;
        let grow = Closure::<dyn FnMut(Array) -> JsValue>::new(move |args: Array| {
            let delta = arg(args.get(0)) as u32;
            let Some(mem) = memory.borrow().clone() else {
                return JsValue::from(-1);
            };
            let pages = (mem
                .buffer()
                .unchecked_into::<js_sys::ArrayBuffer>()
                .byte_length()
                >> 16) as u64;
            if (pages + u64::from(delta)) << 16 > limit {
                *cause.borrow_mut() = Some(Cause::OutOfMemory);
                return stopper.clone();
            }
            let grown = Reflect::get(&mem, &JsValue::from_str("grow"))
                .ok()
                .and_then(|g| g.dyn_into::<Function>().ok())
                .and_then(|g| g.call1(&mem, &JsValue::from(delta)).ok());
            grown.unwrap_or(JsValue::from(-1))
        });
        let guard = Object::new();
        let _ = Reflect::set(
            &guard,
            &JsValue::from_str(GROW_NAME),
            &variadic(grow.as_ref()),
        );
        grow.forget();
        let _ = Reflect::set(&imports, &JsValue::from_str(GROW_MODULE), &guard);
    }
    let compiled = match WebAssembly::Module::new(&Uint8Array::from(prepared.bytes.as_slice())) {
        Ok(m) => m,
        Err(e) => {
            return post(&Report::Refused(format!(
                "not a WebAssembly module: {}",
                words(&e)
            )));
        }
    };
    post(&Report::Started);
    let started = now_ms();
    let outcome = WebAssembly::Instance::new(&compiled, &imports).and_then(|instance| {
        let exports = instance.exports();
        let mem = Reflect::get(&exports, &JsValue::from_str("memory"))?;
        *memory.borrow_mut() = Some(mem.unchecked_into());
        let start: Function =
            Reflect::get(&exports, &JsValue::from_str("_start"))?.unchecked_into();
        start.call0(&JsValue::UNDEFINED)
    });
    let millis = now_ms() - started;
    let cause = cause.borrow().clone();
    let ended = match (cause, outcome) {
        (Some(Cause::Exit(code)), _) => Ended::Exited(code),
        (Some(Cause::Broke(words)), _) => Ended::BrokeRule(words),
        (Some(Cause::OutOfMemory), _) => Ended::OutOfMemory,
        (None, Ok(_)) => Ended::Exited(0),
        (None, Err(e)) => Ended::Trapped(format!("wasm trap: {}", words(&e))),
    };
    if let Some((control, _)) = &host.borrow().stdin {
        let _ = Atomics::store(control, STDIN_CLOSED, 1);
    }
    finish(ended, millis, &world.borrow());
}

/// A thrown value's message.
fn words(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| format!("{e:?}"))
}
