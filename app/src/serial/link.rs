//! A board's wire as a game sees it: bytes out, events in, and a clock, whether the board is on
//! a serial port or emulated in a worker. Every byte each way is written to the page's serial
//! log on the way through.

use std::cell::RefCell;
use std::rc::Rc;

use yew::Callback;

use super::port::{Connection, PortEvent};
use crate::monitor::SharedLog;

/// What a wire reports to the game using it. Times are on the wire's own clock ([`Link::now_ms`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WireEvent {
    /// Bytes from the board.
    Data { bytes: Vec<u8>, at_ms: u64 },
    /// The wire's clock moved (an emulated board ran); nothing was received.
    Time { at_ms: u64 },
    /// The wire is gone (cable pulled, port closed, emulator failed), with a reason to show.
    Closed { reason: String, at_ms: u64 },
}

/// Where a wire's events go: the game using it, if any.
pub type Sink = Rc<RefCell<Option<Callback<WireEvent>>>>;

pub use crate::clock::page_ms;

/// The machinery behind a link.
#[derive(Clone)]
pub enum Carrier {
    /// A real board on a serial port; its clock is the page's.
    Serial(Connection),
    /// An emulated board; its clock is the board's simulated time.
    Emulated(super::emulator::Emulator),
    /// A WebAssembly bot in a worker ([`crate::wasi::WasmBot`]), on its standard streams as on
    /// a serial line; its clock is the page's.
    Bot(Rc<crate::wasi::WasmBot>),
}

/// A board's wire. Cloning shares it. Whoever plays through it installs itself as the sink of
/// its events with [`Link::attach`]; the log sees everything regardless.
#[derive(Clone)]
pub struct Link {
    carrier: Carrier,
    source: Rc<str>,
    log: SharedLog,
    /// The log's time origin (page clock, ms).
    epoch: u64,
    sink: Sink,
}

impl PartialEq for Link {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.sink, &other.sink)
    }
}

impl Link {
    /// The callback to give the carrier: logs, then forwards to the current sink.
    pub fn inlet(source: &str, log: SharedLog, epoch: u64) -> (Callback<WireEvent>, Sink) {
        let sink: Sink = Rc::default();
        let source: Rc<str> = source.into();
        let forward = sink.clone();
        let callback = Callback::from(move |event: WireEvent| {
            if let WireEvent::Data { bytes, .. } = &event {
                log.borrow_mut()
                    .push_rx(&source, bytes, page_ms().saturating_sub(epoch));
            }
            let current = forward.borrow().clone();
            if let Some(sink) = current {
                sink.emit(event);
            }
        });
        (callback, sink)
    }

    /// A link whose carrier was built with [`Link::inlet`]'s callback.
    pub fn with_sink(
        carrier: Carrier,
        source: &str,
        log: SharedLog,
        epoch: u64,
        sink: Sink,
    ) -> Link {
        Link {
            carrier,
            source: source.into(),
            log,
            epoch,
            sink,
        }
    }

    /// Turns a serial port's events into wire events (page clock).
    pub fn port_events(inlet: Callback<WireEvent>) -> Callback<PortEvent> {
        Callback::from(move |event: PortEvent| {
            let at_ms = page_ms();
            inlet.emit(match event {
                PortEvent::Data(bytes) => WireEvent::Data { bytes, at_ms },
                PortEvent::Closed(None) => WireEvent::Closed {
                    reason: "the port was closed".into(),
                    at_ms,
                },
                PortEvent::Closed(Some(error)) => WireEvent::Closed {
                    reason: error.to_string(),
                    at_ms,
                },
            })
        })
    }

    /// Routes the wire's events to `sink` from now on (replacing any earlier one).
    pub fn attach(&self, sink: Callback<WireEvent>) {
        *self.sink.borrow_mut() = Some(sink);
    }

    /// Stops routing events to `sink`, unless another has replaced it meanwhile (the next
    /// game's player is attached before the last one's is dropped).
    pub fn detach(&self, sink: &Callback<WireEvent>) {
        let mut current = self.sink.borrow_mut();
        if current.as_ref() == Some(sink) {
            current.take();
        }
    }

    /// Writes `bytes` to the board.
    pub fn write(&self, bytes: &[u8]) {
        self.log
            .borrow_mut()
            .push_tx(&self.source, bytes, page_ms().saturating_sub(self.epoch));
        match &self.carrier {
            Carrier::Serial(port) => port.write(bytes),
            Carrier::Emulated(board) => board.send(bytes),
            // A bot that does not read is the referee's to time out; one that is gone was
            // reported closed.
            Carrier::Bot(bot) => drop(bot.send(bytes)),
        }
    }

    /// The wire's clock.
    pub fn now_ms(&self) -> u64 {
        match &self.carrier {
            Carrier::Serial(_) | Carrier::Bot(_) => page_ms(),
            Carrier::Emulated(board) => board.now_ms(),
        }
    }

    /// The board's turn runs until `deadline_ms` on the wire's clock. A real board runs anyway
    /// (the caller keeps the time); an emulated one is run up to there.
    pub fn run_until(&self, deadline_ms: u64) {
        if let Carrier::Emulated(board) = &self.carrier {
            board.run_until(deadline_ms);
        }
    }

    /// The board's turn is over: an emulated board stops once it has finished sending.
    pub fn hold(&self) {
        if let Carrier::Emulated(board) = &self.carrier {
            board.hold();
        }
    }

    /// Whether the wire's clock is the page's (a real board, a bot) rather than simulated.
    pub fn is_real_time(&self) -> bool {
        !matches!(self.carrier, Carrier::Emulated(_))
    }

    /// Whether bytes can go through.
    pub fn is_open(&self) -> bool {
        match &self.carrier {
            Carrier::Serial(port) => port.is_open(),
            Carrier::Emulated(board) => board.is_loaded(),
            Carrier::Bot(bot) => bot.is_alive(),
        }
    }

    pub fn carrier(&self) -> &Carrier {
        &self.carrier
    }

    /// The name it has in the log.
    pub fn source(&self) -> &str {
        &self.source
    }
}
