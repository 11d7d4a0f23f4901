//! The WebAssembly host: a `wasmtime` engine whose epoch a background thread advances, the
//! checks that make a module a WASI preview-1 *command*, and one run of such a command under a
//! wall-time limit and a linear-memory limit.
//!
//! Time is enforced twice over: compiled code checks the epoch and yields at every tick (so a
//! busy loop stops at the limit), and the whole call runs under a timer that abandons it (so a
//! pilot asleep in a host call stops too). Memory is enforced by the store's limiter, which
//! makes the `memory.grow` that would pass the limit trap instead of returning −1: the program
//! is stopped there, as a native one is killed, and the run ends `OutOfMemory` rather than in
//! whatever crash the program's allocator would make of a failed growth.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use wasmtime::{
    Caller, Config, Engine, ExternType, InstancePre, Linker, Module, ResourceLimiter, Store, Trap,
    UpdateDeadline,
};
use wasmtime_wasi::I32Exit;
use wasmtime_wasi::p1::WasiP1Ctx;

use crate::log::Log;
use crate::open_files::{self, OpenFiles};
use crate::random::SeededRandom;

/// How often the engine's epoch advances: the granularity of the time limit.
pub const TICK: Duration = Duration::from_millis(10);

/// The only import module a WASI preview-1 command may use.
pub(crate) const WASI_MODULE: &str = "wasi_snapshot_preview1";

/// How a run may use the machine.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// Wall time, from instantiation to the end of `_start`.
    pub time: Duration,
    /// Linear memory, in bytes (whole 64 KiB pages count).
    pub memory_bytes: u64,
}

/// Why a module cannot be run as a WASI command. Reported before anything runs.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The bytes are not a valid WebAssembly module.
    #[error("not a WebAssembly module: {0}")]
    NotAModule(String),
    /// A valid module, but not a WASI preview-1 command.
    #[error("not a WASI preview-1 command module: {0}")]
    NotACommand(String),
}

/// The sandbox could not be set up (not the program's fault).
#[derive(Debug, thiserror::Error)]
#[error("cannot set up the WebAssembly sandbox: {0}")]
pub struct SetupError(String);

/// The data of one run's store: the WASI context and the limits' bookkeeping.
pub(crate) struct State {
    pub(crate) wasi: WasiP1Ctx,
    /// What `random_get` answers with.
    random: SeededRandom,
    memory: MemoryCap,
    started: Instant,
    time: Duration,
    ticks: u64,
    /// Called every few ticks while the program runs; `Err` stops it for breaking a rule.
    watch: Option<Watch>,
    /// The descriptors it holds open, under [`engine::racetrack::program::MAX_OPEN_FILES`].
    pub(crate) open_files: OpenFiles,
    /// Where the host notes what it refused the program (its log), if anywhere.
    pub(crate) log: Option<Log>,
}

/// A check of the program's surroundings while it runs (e.g. its directory's allowance).
pub type Watch = Box<dyn FnMut() -> Result<(), String> + Send + Sync>;

/// How often (in ticks) the watch runs.
const WATCH_EVERY: u64 = 5;

/// The store's limiter: linear memory up to `limit` bytes; a growth past it traps.
struct MemoryCap {
    limit: u64,
}

/// The error a growth past the memory limit traps with.
#[derive(Debug, thiserror::Error)]
#[error("linear memory would grow to {desired} bytes, past the limit of {limit}")]
struct MemoryLimitHit {
    desired: usize,
    limit: u64,
}

/// The errors the epoch callback stops a program with.
#[derive(Debug, thiserror::Error)]
enum Stopped {
    #[error("time limit reached")]
    Time,
    #[error("{0}")]
    Rule(String),
}

impl ResourceLimiter for MemoryCap {
    fn memory_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        if desired as u64 > self.limit {
            return Err(wasmtime::Error::new(MemoryLimitHit {
                desired,
                limit: self.limit,
            }));
        }
        Ok(true)
    }

    fn table_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        // Tables live outside linear memory; keep them to a size no honest program needs.
        Ok(desired <= 1 << 20)
    }
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ended {
    /// `_start` returned (status 0) or the program called `proc_exit(status)`.
    Exited(i32),
    /// A trap (a Rust panic ends in one) or a host error; the message says which.
    Trapped(String),
    /// Stopped at the time limit.
    TimedOut,
    /// Stopped at a memory growth past the limit.
    OutOfMemory,
    /// Stopped by the watch for breaking a rule; the message says which.
    BrokeRule(String),
}

/// Advances the engine's epoch every [`TICK`] until dropped.
struct Ticker {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Drop for Ticker {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// One compiler and runtime for many runs (modules compile once and run many times).
pub struct Sandbox {
    engine: Engine,
    linker: Linker<State>,
    _ticker: Ticker,
}

/// A checked WASI command, compiled and linked, ready to run any number of times.
pub struct Program {
    pre: InstancePre<State>,
    file_name: String,
}

impl Program {
    /// The file name it was loaded as (its `argv[0]`).
    pub fn file_name(&self) -> &str {
        &self.file_name
    }

    /// Its name in results and logs: the file stem (spec §7).
    pub fn stem(&self) -> &str {
        self.file_name
            .rsplit_once('.')
            .map_or(self.file_name.as_str(), |(stem, _)| stem)
    }
}

impl Sandbox {
    pub fn new() -> Result<Sandbox, SetupError> {
        let mut config = Config::new();
        config.epoch_interruption(true);
        let engine = Engine::new(&config).map_err(|e| SetupError(e.to_string()))?;
        let mut linker = Linker::new(&engine);
        wasmtime_wasi::p1::add_to_linker_async(&mut linker, |s: &mut State| &mut s.wasi)
            .map_err(|e| SetupError(e.to_string()))?;
        // `random_get` answers from the run's own stream (see [`SeededRandom`]), whatever
        // wasmtime-wasi would make of a generator: the bytes are then the documented ones,
        // which a browser host reproduces.
        linker.allow_shadowing(true);
        linker
            .func_wrap(WASI_MODULE, "random_get", random_get)
            .map_err(|e| SetupError(e.to_string()))?;
        open_files::add_to_linker(&mut linker).map_err(|e| SetupError(e.to_string()))?;
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let (engine, stop) = (engine.clone(), stop.clone());
            std::thread::Builder::new()
                .name("wasm-epoch".into())
                .spawn(move || {
                    while !stop.load(Ordering::Relaxed) {
                        std::thread::sleep(TICK);
                        engine.increment_epoch();
                    }
                })
                .map_err(|e| SetupError(e.to_string()))?
        };
        Ok(Sandbox {
            engine,
            linker,
            _ticker: Ticker {
                stop,
                thread: Some(thread),
            },
        })
    }

    /// Compiles `bytes` (a binary module) and checks that it is a WASI preview-1 command: every
    /// import a WASI function this host provides, a `_start` of no arguments and no results,
    /// and an exported `memory`. `file_name` becomes its `argv[0]` and, by its stem, its name.
    pub fn load(&self, bytes: &[u8], file_name: &str) -> Result<Program, LoadError> {
        let module =
            Module::new(&self.engine, bytes).map_err(|e| LoadError::NotAModule(root_cause(&e)))?;
        for import in module.imports() {
            if import.module() != WASI_MODULE {
                return Err(LoadError::NotACommand(format!(
                    "it imports {}.{}, which is not part of WASI preview 1 ({WASI_MODULE})",
                    import.module(),
                    import.name()
                )));
            }
        }
        match module.get_export("_start") {
            Some(ExternType::Func(f)) if f.params().len() == 0 && f.results().len() == 0 => {}
            Some(_) => {
                return Err(LoadError::NotACommand(
                    "its `_start` export is not a function without parameters and results".into(),
                ));
            }
            None if module.get_export("_initialize").is_some() => {
                return Err(LoadError::NotACommand(
                    "it is a WASI reactor (it exports `_initialize`, no `_start`)".into(),
                ));
            }
            None => {
                return Err(LoadError::NotACommand(
                    "it exports no `_start` function".into(),
                ));
            }
        }
        if !matches!(module.get_export("memory"), Some(ExternType::Memory(_))) {
            return Err(LoadError::NotACommand(
                "it exports no linear memory named `memory`".into(),
            ));
        }
        let pre = self
            .linker
            .instantiate_pre(&module)
            .map_err(|e| LoadError::NotACommand(root_cause(&e)))?;
        Ok(Program {
            pre,
            file_name: file_name.to_owned(),
        })
    }

    /// Runs `program`'s `_start` with `wasi` as its whole world and `seed` for `random_get`,
    /// under `limits`; `watch` is called every few ticks and stops the program when it returns
    /// `Err`; what the host refuses the program is noted in `log`.
    pub(crate) fn run(
        &self,
        program: &Program,
        wasi: WasiP1Ctx,
        seed: u64,
        limits: Limits,
        watch: Option<Watch>,
        log: Option<Log>,
    ) -> Ended {
        let mut store = Store::new(
            &self.engine,
            State {
                wasi,
                random: SeededRandom::new(seed),
                memory: MemoryCap {
                    limit: limits.memory_bytes,
                },
                started: Instant::now(),
                time: limits.time,
                ticks: 0,
                watch,
                open_files: OpenFiles::default(),
                log,
            },
        );
        store.limiter(|s| &mut s.memory);
        store.set_epoch_deadline(1);
        store.epoch_deadline_callback(|mut ctx| {
            let state = ctx.data_mut();
            if state.started.elapsed() >= state.time {
                return Err(wasmtime::Error::new(Stopped::Time));
            }
            state.ticks += 1;
            if state.ticks.is_multiple_of(WATCH_EVERY)
                && let Some(watch) = state.watch.as_mut()
                && let Err(rule) = watch()
            {
                return Err(wasmtime::Error::new(Stopped::Rule(rule)));
            }
            Ok(UpdateDeadline::Yield(1))
        });
        let runtime = match tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
        {
            Ok(runtime) => runtime,
            Err(e) => return Ended::Trapped(format!("the host could not start a runtime: {e}")),
        };
        let result = runtime.block_on(async {
            let call = async {
                let instance = program.pre.instantiate_async(&mut store).await?;
                let start = instance.get_typed_func::<(), ()>(&mut store, "_start")?;
                start.call_async(&mut store, ()).await
            };
            tokio::time::timeout(limits.time, call).await
        });
        match result {
            Err(_elapsed) => Ended::TimedOut,
            Ok(Ok(())) => Ended::Exited(0),
            Ok(Err(e)) => classify(&e),
        }
    }
}

/// WASI preview 1's `random_get(buf, len) -> errno`.
fn random_get(mut caller: Caller<'_, State>, buf: i32, len: i32) -> i32 {
    const ERRNO_SUCCESS: i32 = 0;
    const ERRNO_FAULT: i32 = 21;
    let Some(memory) = caller.get_export("memory").and_then(|e| e.into_memory()) else {
        return ERRNO_FAULT;
    };
    let (data, state) = memory.data_and_store_mut(&mut caller);
    let start = buf as u32 as usize;
    let Some(bytes) = start
        .checked_add(len as u32 as usize)
        .and_then(|end| data.get_mut(start..end))
    else {
        return ERRNO_FAULT;
    };
    state.random.fill(bytes);
    ERRNO_SUCCESS
}

/// What an error out of a run means.
fn classify(e: &wasmtime::Error) -> Ended {
    if let Some(exit) = e.downcast_ref::<I32Exit>() {
        return Ended::Exited(exit.0);
    }
    if e.downcast_ref::<MemoryLimitHit>().is_some() {
        return Ended::OutOfMemory;
    }
    match e.downcast_ref::<Stopped>() {
        Some(Stopped::Time) => return Ended::TimedOut,
        Some(Stopped::Rule(rule)) => return Ended::BrokeRule(rule.clone()),
        None => {}
    }
    if let Some(trap) = e.downcast_ref::<Trap>() {
        // A trap says `wasm trap: …` itself.
        return Ended::Trapped(trap.to_string());
    }
    Ended::Trapped(root_cause(e))
}

/// The innermost message of an error chain, on one line.
fn root_cause(e: &wasmtime::Error) -> String {
    let text = e
        .chain()
        .last()
        .map(|c| c.to_string())
        .unwrap_or_else(|| e.to_string());
    text.lines().next().unwrap_or_default().trim().to_owned()
}
