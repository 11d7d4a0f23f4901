//! The boards of one page, by side: each side's line settings, its open port or emulated board,
//! and the page's serial log. The set-up panel ([`BoardSetup`]) changes them; the game asks for
//! a [`BoardPlayer`] when it starts.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use engine::soccer::{BySide, Side};
use gloo_timers::callback::Interval;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::spawn_local;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::api::{self, SerialPort};
use super::emulator::Emulator;
use super::link::{Carrier, Link, page_ms};
use super::port::{Connection, PortEvent};
use super::settings::{BAUD_RATES, FormSettings, LineSettings};
use super::side::{BoardPlayer, Forfeit};
use crate::browser_file::download_text;
use crate::monitor::SharedLog;
use crate::synth::{Synthesized, VerilogSynth};
use crate::workers::board::{Load, Pins};

/// The two kinds of board side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardKind {
    /// A real board on a serial port.
    Serial,
    /// The emulated board in a worker.
    Emulated,
}

impl BoardKind {
    /// The option value in a side's select.
    pub fn value(self) -> &'static str {
        match self {
            BoardKind::Serial => "serial",
            BoardKind::Emulated => "emulated",
        }
    }

    pub fn from_value(value: &str) -> Option<BoardKind> {
        match value {
            "serial" => Some(BoardKind::Serial),
            "emulated" => Some(BoardKind::Emulated),
            _ => None,
        }
    }
}

/// A side's board set-up.
#[derive(Default)]
struct SideBoard {
    line: LineSettings,
    port: Option<Link>,
    emulator: Option<Link>,
    /// An uploaded netlist (file name, text); `None` for the reference player's.
    netlist: Option<(String, String)>,
    pins: Pins,
    switches: u64,
    /// The last thing that went wrong, shown until the next attempt.
    error: Option<String>,
    /// A port being opened.
    opening: bool,
    granted: Vec<SerialPort>,
}

struct Inner {
    sides: BySide<RefCell<SideBoard>>,
    log: SharedLog,
    epoch: u64,
    version: Cell<u64>,
}

/// The boards of a page. Cloning shares them.
#[derive(Clone)]
pub struct Boards {
    inner: Rc<Inner>,
}

impl PartialEq for Boards {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.inner, &other.inner)
    }
}

impl Default for Boards {
    fn default() -> Self {
        Boards::new()
    }
}

impl Boards {
    pub fn new() -> Boards {
        Boards {
            inner: Rc::new(Inner {
                sides: Default::default(),
                log: SharedLog::default(),
                epoch: page_ms(),
                version: Cell::new(0),
            }),
        }
    }

    /// The page's serial log (every side's bytes).
    pub fn log(&self) -> SharedLog {
        self.inner.log.clone()
    }

    /// Changes whenever something shown changed.
    pub fn version(&self) -> u64 {
        self.inner.version.get()
    }

    fn touch(&self) {
        self.inner.version.set(self.inner.version.get() + 1);
    }

    fn side(&self, side: Side) -> std::cell::RefMut<'_, SideBoard> {
        self.inner.sides[side].borrow_mut()
    }

    /// Whether `side`'s port is being opened (a game started meanwhile waits for it).
    pub fn opening(&self, side: Side) -> bool {
        self.side(side).opening
    }

    /// Opens the browser's port chooser, then the chosen port. Call from a click handler.
    pub fn choose_port(&self, side: Side) {
        let chosen = api::request_port();
        self.side(side).opening = true;
        self.side(side).error = None;
        self.touch();
        let boards = self.clone();
        spawn_local(async move {
            match chosen.await {
                Ok(port) => boards.open(side, port).await,
                Err(error) => {
                    let mut s = boards.side(side);
                    s.opening = false;
                    s.error = Some(error.to_string());
                    drop(s);
                    boards.touch();
                }
            }
        });
    }

    /// Opens a port granted earlier, without a prompt.
    pub fn reconnect(&self, side: Side, port: SerialPort) {
        self.side(side).opening = true;
        self.side(side).error = None;
        self.touch();
        let boards = self.clone();
        spawn_local(async move { boards.open(side, port).await });
    }

    async fn open(&self, side: Side, port: SerialPort) {
        // Whatever this side had open goes first (its locks released, the port closed).
        self.close_port(side);
        let line = self.side(side).line;
        let (inlet, sink) = Link::inlet(side.name(), self.log(), self.inner.epoch);
        let watcher = {
            let boards = self.clone();
            let events = Link::port_events(inlet);
            Callback::from(move |event: PortEvent| {
                if let PortEvent::Closed(reason) = &event {
                    let mut s = boards.side(side);
                    if let Some(reason) = reason {
                        s.error = Some(reason.to_string());
                    }
                    drop(s);
                    boards.touch();
                }
                events.emit(event);
            })
        };
        let result = Connection::open(port, line, watcher).await;
        let mut s = self.side(side);
        s.opening = false;
        match result {
            Ok(connection) => {
                s.port = Some(Link::with_sink(
                    Carrier::Serial(connection),
                    side.name(),
                    self.log(),
                    self.inner.epoch,
                    sink,
                ));
            }
            Err(error) => s.error = Some(error.to_string()),
        }
        drop(s);
        self.touch();
        self.refresh_granted(side);
    }

    /// Closes `side`'s port, if open.
    pub fn close_port(&self, side: Side) {
        let link = self.side(side).port.take();
        if let Some(Carrier::Serial(connection)) = link.as_ref().map(Link::carrier) {
            connection.close();
        }
        self.touch();
    }

    /// Lets go of every board when the page owning them goes away: open ports are closed
    /// cleanly (so this page, or another, can open them again) and emulated boards switched off.
    pub fn release(&self) {
        for side in [Side::Red, Side::Blue] {
            self.close_port(side);
            self.side(side).emulator = None;
        }
    }

    /// Lists the ports granted earlier (for reconnecting without a prompt).
    pub fn refresh_granted(&self, side: Side) {
        if !api::is_supported() {
            return;
        }
        let boards = self.clone();
        spawn_local(async move {
            if let Ok(ports) = api::granted_ports().await {
                boards.side(side).granted = ports;
                boards.touch();
            }
        });
    }

    /// Powers up `side`'s emulated board (again) with its current settings.
    pub fn load_emulator(&self, side: Side) {
        let (inlet, sink) = Link::inlet(side.name(), self.log(), self.inner.epoch);
        let mut s = self.side(side);
        let load = Load {
            netlist: s.netlist.as_ref().map(|(_, text)| text.clone()),
            pins: s.pins.clone(),
            baud: s.line.baud,
            stop_bits: s.line.stop_bits.count(),
            switches: s.switches,
        };
        let boards = self.clone();
        let emulator = Emulator::spawn(load, inlet, Callback::from(move |()| boards.touch()));
        s.emulator = Some(Link::with_sink(
            Carrier::Emulated(emulator),
            side.name(),
            self.log(),
            self.inner.epoch,
            sink,
        ));
        s.error = None;
        drop(s);
        self.touch();
    }

    /// Whether a game with these board sides (red, blue) can start: every board there and, as
    /// the protocol has no way to set up a position, the game `fresh` from kick-off.
    pub fn check(&self, kinds: BySide<Option<BoardKind>>, fresh: bool) -> Result<(), String> {
        for (side, &kind) in kinds.iter() {
            let Some(kind) = kind else { continue };
            if !fresh {
                return Err("a board joins a game only at kick-off".into());
            }
            let s = self.side(side);
            let link = match kind {
                BoardKind::Serial => &s.port,
                BoardKind::Emulated => &s.emulator,
            };
            if !link.as_ref().is_some_and(Link::is_open) {
                let name = side.name();
                return Err(match kind {
                    BoardKind::Serial => format!("connect {name}'s serial port first"),
                    BoardKind::Emulated => {
                        format!("{name}'s emulated board is not powered up yet")
                    }
                });
            }
        }
        Ok(())
    }

    /// A player for `side` over its board in a game from kick-off that `starter` starts, or
    /// why there is none yet.
    pub fn player(
        &self,
        side: Side,
        kind: BoardKind,
        turn_ms: u64,
        starter: Side,
        forfeit: Callback<Forfeit>,
    ) -> Result<BoardPlayer, String> {
        let s = self.side(side);
        let name = side.name();
        let link = match kind {
            BoardKind::Serial => s
                .port
                .clone()
                .filter(Link::is_open)
                .ok_or_else(|| format!("connect {name}'s serial port first"))?,
            BoardKind::Emulated => s
                .emulator
                .clone()
                .filter(Link::is_open)
                .ok_or_else(|| format!("{name}'s emulated board is not powered up yet"))?,
        };
        drop(s);
        Ok(BoardPlayer::new(link, turn_ms, starter, forfeit))
    }

    fn emulator(&self, side: Side) -> Option<Emulator> {
        match self.side(side).emulator.as_ref().map(Link::carrier) {
            Some(Carrier::Emulated(emulator)) => Some(emulator.clone()),
            _ => None,
        }
    }
}

#[derive(Properties, PartialEq)]
pub struct SetupProps {
    pub boards: Boards,
    pub side: Side,
    pub kind: BoardKind,
}

/// A board side's set-up: the port (chooser, granted ports, line settings) or the emulated
/// board (netlist, pins, speed, waveform).
#[function_component]
pub fn BoardSetup(props: &SetupProps) -> Html {
    let update = use_force_update();
    let seen = use_mut_ref(|| u64::MAX);
    {
        // Redraw when the boards change (ports open and close on their own).
        let boards = props.boards.clone();
        use_effect_with((), move |()| {
            let interval = Interval::new(150, move || {
                if *seen.borrow() != boards.version() {
                    *seen.borrow_mut() = boards.version();
                    update.force_update();
                }
            });
            move || drop(interval)
        });
    }
    {
        let boards = props.boards.clone();
        let (side, kind) = (props.side, props.kind);
        use_effect_with(kind, move |kind| {
            match kind {
                BoardKind::Serial => boards.refresh_granted(side),
                BoardKind::Emulated if boards.emulator(side).is_none() => {
                    boards.load_emulator(side)
                }
                BoardKind::Emulated => {}
            }
            || ()
        });
    }
    match props.kind {
        BoardKind::Serial => serial_setup(&props.boards, props.side),
        BoardKind::Emulated => emulated_setup(&props.boards, props.side),
    }
}

fn line_controls(boards: &Boards, side: Side) -> Html {
    let line = boards.side(side).line;
    let onchange = {
        let boards = boards.clone();
        Callback::from(move |(setting, value): (&'static str, String)| {
            let result = boards.side(side).line.set(setting, &value);
            boards.side(side).error = result.err().map(|e| e.to_string());
            boards.touch();
        })
    };
    html! { <LineControls {line} {onchange} hook_suffix={format!("-{}", side.name())} /> }
}

#[derive(Properties, PartialEq)]
pub struct LineControlsProps {
    pub line: LineSettings,
    /// A control changed: its setting (`baud`, `data-bits`, `parity`, `stop-bits`, `flow`,
    /// as [`FormSettings::set`] takes it) and value.
    pub onchange: Callback<(&'static str, String)>,
    /// Before and after each control's setting in its `data-testid` (`baud-red`,
    /// `league-baud`).
    #[prop_or_default]
    pub hook_prefix: AttrValue,
    #[prop_or_default]
    pub hook_suffix: AttrValue,
}

/// A serial line's settings as form controls (spec §4: every one is a setting).
#[function_component]
pub fn LineControls(props: &LineControlsProps) -> Html {
    let line = props.line;
    let hook = |setting: &str| format!("{}{setting}{}", props.hook_prefix, props.hook_suffix);
    let set = |setting: &'static str| {
        let onchange = props.onchange.clone();
        Callback::from(move |event: Event| {
            let value = event
                .target()
                .and_then(|t| {
                    t.dyn_ref::<HtmlSelectElement>()
                        .map(HtmlSelectElement::value)
                        .or_else(|| t.dyn_ref::<HtmlInputElement>().map(HtmlInputElement::value))
                })
                .unwrap_or_default();
            onchange.emit((setting, value));
        })
    };
    let option = |value: String, current: bool| {
        html! {
            <option value={value.clone()} selected={current}>{ value }</option>
        }
    };
    html! {
        <div class="board-line">
            <label>{ "Baud" }
                <input type="number" min="1" list="board-bauds" data-testid={hook("baud")}
                       value={line.baud.to_string()} onchange={set("baud")} />
                <datalist id="board-bauds">
                    { for BAUD_RATES.iter().map(|b| html! { <option value={b.to_string()} /> }) }
                </datalist>
            </label>
            <label>{ "Data bits" }
                <select data-testid={hook("data-bits")} onchange={set("data-bits")}>
                    { for [7u8, 8].map(|b| option(b.to_string(), line.data_bits.count() == b)) }
                </select>
            </label>
            <label>{ "Parity" }
                <select data-testid={hook("parity")} onchange={set("parity")}>
                    { for ["none", "even", "odd"].map(|p| option(p.into(), line.parity.name() == p)) }
                </select>
            </label>
            <label>{ "Stop bits" }
                <select data-testid={hook("stop-bits")} onchange={set("stop-bits")}>
                    { for [1u8, 2].map(|b| option(b.to_string(), line.stop_bits.count() == b)) }
                </select>
            </label>
            <label>{ "Flow control" }
                <select data-testid={hook("flow")} onchange={set("flow")}>
                    { for ["none", "hardware"].map(|f| option(f.into(), line.flow_control.name() == f)) }
                </select>
            </label>
        </div>
    }
}

fn serial_setup(boards: &Boards, side: Side) -> Html {
    let name = side.name();
    if !api::is_supported() {
        return html! {
            <p class="board-note error" role="alert" data-testid="serial-unsupported">
                { super::SerialError::Unsupported.to_string() }
            </p>
        };
    }
    let s = boards.side(side);
    let status = match (&s.port, s.opening) {
        (_, true) => "opening…".to_owned(),
        (Some(link), false) if link.is_open() => match link.carrier() {
            Carrier::Serial(c) => format!("connected: {} at {}", c.label(), c.line()),
            Carrier::Emulated(_) | Carrier::Bot(_) => "connected".into(),
        },
        (Some(_), false) => "disconnected".into(),
        (None, false) => "no port".into(),
    };
    let connected = s.port.as_ref().is_some_and(Link::is_open);
    let granted = s.granted.clone();
    let error = s.error.clone();
    drop(s);
    let choose = {
        let boards = boards.clone();
        Callback::from(move |_: MouseEvent| boards.choose_port(side))
    };
    let close = {
        let boards = boards.clone();
        Callback::from(move |_: MouseEvent| boards.close_port(side))
    };
    html! {
        <div class="board-setup" data-testid={format!("board-setup-{name}")}>
            { line_controls(boards, side) }
            <div class="board-actions">
                <button type="button" class="button" data-testid={format!("connect-{name}")}
                        onclick={choose}>{ if connected { "Choose another port…" } else { "Connect port…" } }</button>
                if connected {
                    <button type="button" class="chip" data-testid={format!("disconnect-{name}")}
                            onclick={close}>{ "Close port" }</button>
                }
                { for granted.into_iter().enumerate().map(|(i, port)| {
                    let boards = boards.clone();
                    let label = format!("Reconnect {}", api::port_label(&port));
                    let onclick = Callback::from(move |_: MouseEvent| boards.reconnect(side, port.clone()));
                    html! {
                        <button type="button" class="chip" data-testid={format!("granted-{name}-{i}")}
                                onclick={onclick}>{ label }</button>
                    }
                }) }
            </div>
            <p class="board-status" data-testid={format!("port-status-{name}")}>{ status }</p>
            if let Some(error) = error {
                <p class="error" role="alert" data-testid={format!("port-error-{name}")}>{ error }</p>
            }
        </div>
    }
}

fn emulated_setup(boards: &Boards, side: Side) -> Html {
    let name = side.name();
    let emulator = boards.emulator(side);
    let s = boards.side(side);
    let netlist = s
        .netlist
        .as_ref()
        .map_or("the reference player (hdl/)".to_owned(), |(n, _)| n.clone());
    let pins = s.pins.clone();
    let switches = s.switches;
    let error = s.error.clone();
    drop(s);
    let status = emulator.as_ref().map_or("off".into(), Emulator::status);
    let stats = emulator.as_ref().map(Emulator::stats).unwrap_or_default();
    let mean = |v: &[u64]| (!v.is_empty()).then(|| v.iter().sum::<u64>() as f64 / v.len() as f64);
    let latency = mean(&stats.latencies_us);
    let wall = mean(&stats.wall_ms);
    let upload = {
        let boards = boards.clone();
        Callback::from(move |event: Event| {
            let Some(input) = event.target_dyn_into::<HtmlInputElement>() else {
                return;
            };
            let Some(file) = input.files().and_then(|f| f.get(0)) else {
                return;
            };
            let boards = boards.clone();
            spawn_local(async move {
                let text = wasm_bindgen_futures::JsFuture::from(file.text()).await;
                match text.ok().and_then(|t| t.as_string()) {
                    Some(text) => {
                        boards.side(side).netlist = Some((file.name(), text));
                        boards.load_emulator(side);
                    }
                    None => {
                        boards.side(side).error = Some(format!("cannot read {}", file.name()));
                        boards.touch();
                    }
                }
            });
        })
    };
    let pin = |label: &'static str, key: &'static str, value: String| {
        let boards = boards.clone();
        let onchange = Callback::from(move |event: Event| {
            let Some(input) = event.target_dyn_into::<HtmlInputElement>() else {
                return;
            };
            let value = input.value();
            {
                let mut s = boards.side(side);
                match key {
                    "clock" => s.pins.clock = value,
                    "rx" => s.pins.rx = value,
                    "tx" => s.pins.tx = value,
                    "reset" => s.pins.reset = value,
                    "switches" => s.pins.switches = value,
                    _ => match value.trim().parse::<u64>() {
                        Ok(v) => s.switches = v,
                        Err(_) => s.error = Some(format!("switches “{value}” is not a number")),
                    },
                }
            }
            boards.touch();
        });
        html! {
            <label>{ label }
                <input type="text" data-testid={format!("pin-{key}-{name}")} value={value} onchange={onchange} />
            </label>
        }
    };
    let synthesized = {
        let boards = boards.clone();
        Callback::from(move |design: Synthesized| {
            boards.side(side).netlist = Some((design.label, design.netlist));
            boards.load_emulator(side);
        })
    };
    let reload = {
        let boards = boards.clone();
        Callback::from(move |_: MouseEvent| boards.load_emulator(side))
    };
    let waveform = {
        let emulator = emulator.clone();
        let boards = boards.clone();
        Callback::from(move |_: MouseEvent| {
            let Some(emulator) = &emulator else { return };
            let boards = boards.clone();
            emulator.waveform(Callback::from(
                move |vcd: Result<String, String>| match vcd {
                    Ok(vcd) => download_text(&vcd, &format!("board-{name}-last-turn.vcd")),
                    Err(why) => {
                        boards.side(side).error = Some(why);
                        boards.touch();
                    }
                },
            ));
        })
    };
    html! {
        <div class="board-setup" data-testid={format!("board-setup-{name}")}>
            <p class="board-status" data-testid={format!("emulator-status-{name}")}>
                { format!("{netlist}: {status}") }
            </p>
            <p class="board-stats" data-testid={format!("emulator-stats-{name}")}
               data-mhz={format!("{:.3}", stats.mhz)}
               data-latency-us={latency.map(|l| format!("{l:.0}"))}
               data-wall-ms={wall.map(|w| format!("{w:.0}"))}
               data-turns={stats.latencies_us.len().to_string()}>
                if stats.mhz > 0.0 {
                    { format!("{:.2} simulated MHz", stats.mhz) }
                } else {
                    { "not run yet" }
                }
                if let Some(latency) = latency {
                    { format!(" · turn {:.2} ms on the board", latency / 1000.0) }
                }
                if let Some(wall) = wall {
                    { format!(" ({wall:.0} ms here)") }
                }
            </p>
            <VerilogSynth on_netlist={synthesized} />
            <details class="board-more">
            <summary>{ "Netlist, pins and line" }</summary>
            <div class="board-line">
                <label>{ "Netlist (yosys JSON)" }
                    <input type="file" accept=".json,application/json"
                           data-testid={format!("netlist-{name}")} onchange={upload} />
                </label>
                { pin("Clock", "clock", pins.clock) }
                { pin("RX", "rx", pins.rx) }
                { pin("TX", "tx", pins.tx) }
                { pin("Reset", "reset", pins.reset) }
                { pin("Switches", "switches", pins.switches) }
                { pin("SW value", "sw", switches.to_string()) }
            </div>
            { line_controls(boards, side) }
            </details>
            <div class="board-actions">
                <button type="button" class="chip" data-testid={format!("reload-{name}")}
                        onclick={reload}>{ "Power up again" }</button>
                <button type="button" class="chip" data-testid={format!("waveform-{name}")}
                        onclick={waveform}>{ "Download waveform (VCD)" }</button>
            </div>
            if let Some(error) = error {
                <p class="error" role="alert" data-testid={format!("board-error-{name}")}>{ error }</p>
            }
        </div>
    }
}

impl Boards {
    /// The wire of `side`'s board of `kind`, when it is open.
    pub fn link(&self, side: Side, kind: BoardKind) -> Option<Link> {
        let s = self.side(side);
        match kind {
            BoardKind::Serial => s.port.clone(),
            BoardKind::Emulated => s.emulator.clone(),
        }
        .filter(Link::is_open)
    }
}

/// How long an emulated board runs after bytes from the console (simulated ms): enough for a
/// turn at the contest's limit.
const CONSOLE_RUN_MS: u64 = 1_000;

/// The manual console of a board: a line of hex or text (with escapes) sent as is.
#[function_component]
pub fn BoardConsole(props: &SetupProps) -> Html {
    use crate::monitor::console::{InputMode, parse};

    let (side, kind) = (props.side, props.kind);
    let name = side.name();
    let mode = use_state(|| InputMode::Text);
    let newline = use_state(|| false);
    let error = use_state(|| None::<String>);
    let input = use_node_ref();
    let send = {
        let boards = props.boards.clone();
        let (mode, newline, error, input) =
            (mode.clone(), newline.clone(), error.clone(), input.clone());
        Callback::from(move |event: SubmitEvent| {
            event.prevent_default();
            let Some(field) = input.cast::<HtmlInputElement>() else {
                return;
            };
            let mut bytes = match parse(&field.value(), *mode) {
                Ok(bytes) => bytes,
                Err(err) => {
                    error.set(Some(err.to_string()));
                    return;
                }
            };
            if *newline {
                bytes.push(b'\n');
            }
            match boards.link(side, kind) {
                Some(link) => {
                    link.write(&bytes);
                    link.run_until(link.now_ms() + CONSOLE_RUN_MS);
                    error.set(None);
                }
                None => error.set(Some("no board is connected here".into())),
            }
        })
    };
    let set_mode = {
        let mode = mode.clone();
        Callback::from(move |event: Event| {
            if let Some(select) = event.target_dyn_into::<HtmlSelectElement>() {
                mode.set(if select.value() == "hex" {
                    InputMode::Hex
                } else {
                    InputMode::Text
                });
            }
        })
    };
    let toggle_newline = {
        let newline = newline.clone();
        Callback::from(move |_: Event| newline.set(!*newline))
    };
    html! {
        <form class="board-console" onsubmit={send}>
            <select data-testid={format!("console-mode-{name}")} onchange={set_mode}
                    aria-label="Input format">
                <option value="text" selected={*mode == InputMode::Text}>{ "Text" }</option>
                <option value="hex" selected={*mode == InputMode::Hex}>{ "Hex" }</option>
            </select>
            <input type="text" ref={input} data-testid={format!("console-input-{name}")}
                   placeholder={if *mode == InputMode::Hex { "77 08 0a" } else { "w\\x08\\n" }}
                   aria-label="Bytes to send" />
            <label class="board-newline">
                <input type="checkbox" checked={*newline} onchange={toggle_newline}
                       data-testid={format!("console-newline-{name}")} />
                { "+ \\n" }
            </label>
            <button type="submit" class="button" data-testid={format!("console-send-{name}")}>{ "Send" }</button>
            if let Some(error) = (*error).clone() {
                <p class="error" role="alert" data-testid={format!("console-error-{name}")}>{ error }</p>
            }
        </form>
    }
}
