//! What the league's players are made of, beyond their kind: the boards on serial ports the
//! page opened (one wire each, kept for the whole league: a board plays its games one after
//! the other on it), and the files the page was given — netlists for emulated boards and
//! WebAssembly bots — kept in IndexedDB so a reload can resume with them.
//!
//! The serial ports are `crate::serial`'s: the same [`Connection`] and [`Link`] as on
//! `#/soccer`, and each game's player on a board is the same [`BoardPlayer`], whose referee
//! (the engine's) runs the wire.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use engine::soccer::Side;
use yew::Callback;

use super::session::{Entrant, PlayerKind, Upload};
use super::storage;
use crate::hash::ContentHash;
use crate::monitor::SharedLog;
use crate::serial::api::{self, SerialPort};
use crate::serial::link::{Carrier, Link, WireEvent, page_ms};
use crate::serial::side::{BoardPlayer, Forfeit};
use crate::serial::{Connection, LineSettings};
use crate::soccer::players::{Player, TurnRequest};
use crate::wasi::bot::DEFAULT_BOT_MEMORY;
use crate::wasi::protocol::Ended;
use crate::wasi::{BotEvent, WasmBot};
use crate::workers::board::{Bench, Load, Pins};

/// The storage kinds of uploaded files.
const NETLIST: &str = "netlist";
const BOT: &str = "bot";

/// The page's boards and files. Shared by the page and its tables.
#[derive(Default)]
pub struct Roster {
    /// Boards on serial ports, by their name on the page ([`PlayerKind::Serial`]).
    ports: RefCell<Vec<(String, Link)>>,
    /// Uploaded files by the hash of their contents ([`Upload`]).
    netlists: RefCell<HashMap<ContentHash, Rc<str>>>,
    bots: RefCell<HashMap<ContentHash, Rc<[u8]>>>,
    /// Every byte to and from the boards.
    log: SharedLog,
}

/// Why a player could not be made: it loses its game by `disconnect`, with this to show.
pub type Absent = String;

impl Roster {
    /// The serial traffic of the league's boards.
    pub fn log(&self) -> SharedLog {
        self.log.clone()
    }

    /// The open wire of the board named `port`, if any.
    pub fn port(&self, port: &str) -> Option<Link> {
        self.ports
            .borrow()
            .iter()
            .find(|(name, _)| name == port)
            .map(|(_, link)| link.clone())
            .filter(Link::is_open)
    }

    /// Opens the browser's port chooser, then the chosen port with `line` (the form's; the
    /// contest's 115200 8N2 unless changed), and answers the board's name on the page. Call
    /// from a click handler.
    pub fn choose_port(
        self: &Rc<Self>,
        line: LineSettings,
    ) -> impl Future<Output = Result<String, String>> + use<> {
        let chosen = api::request_port();
        let roster = self.clone();
        async move {
            let port = chosen.await.map_err(|e| e.to_string())?;
            roster.open(port, None, line).await
        }
    }

    /// Opens the ports the browser lets this page open again without asking, for the
    /// league's boards that have none (after a reload), matched by their USB ids, with `line`.
    pub async fn reconnect(self: &Rc<Self>, players: &[Entrant], line: LineSettings) {
        let wanted: Vec<&str> = players
            .iter()
            .filter_map(|p| match &p.kind {
                PlayerKind::Serial { port } if self.port(port).is_none() => Some(port.as_str()),
                _ => None,
            })
            .collect();
        if wanted.is_empty() || !api::is_supported() {
            return;
        }
        let Ok(granted) = api::granted_ports().await else {
            return;
        };
        for name in wanted {
            let free = granted
                .iter()
                .find(|port| name.starts_with(&api::port_label(port)) && !self.in_use(port));
            if let Some(port) = free {
                let _ = self.open(port.clone(), Some(name.to_owned()), line).await;
            }
        }
    }

    fn in_use(&self, port: &SerialPort) -> bool {
        self.ports.borrow().iter().any(|(_, link)| {
            link.is_open()
                && matches!(link.carrier(),
                    Carrier::Serial(c) if js_sys::Object::is(c.port().as_ref(), port.as_ref()))
        })
    }

    /// Opens `port` with `line` as the board `name` (a new name from its USB ids when `None`).
    async fn open(
        &self,
        port: SerialPort,
        name: Option<String>,
        line: LineSettings,
    ) -> Result<String, String> {
        if self.in_use(&port) {
            return Err("this port is already one of the league's boards".into());
        }
        let name = name.unwrap_or_else(|| {
            let label = api::port_label(&port);
            let ports = self.ports.borrow();
            (1..)
                .map(|k| {
                    if k == 1 {
                        label.clone()
                    } else {
                        format!("{label} ({k})")
                    }
                })
                .find(|n| ports.iter().all(|(used, l)| used != n || !l.is_open()))
                .expect("some number is free")
        });
        let epoch = page_ms();
        let (inlet, sink) = Link::inlet(&name, self.log(), epoch);
        let connection = Connection::open(port, line, Link::port_events(inlet))
            .await
            .map_err(|e| e.to_string())?;
        let link = Link::with_sink(Carrier::Serial(connection), &name, self.log(), epoch, sink);
        let mut ports = self.ports.borrow_mut();
        ports.retain(|(used, _)| used != &name);
        ports.push((name.clone(), link));
        Ok(name)
    }

    /// Closes every port (the page is left).
    pub fn release(&self) {
        for (_, link) in self.ports.borrow_mut().drain(..) {
            if let Carrier::Serial(connection) = link.carrier() {
                connection.close();
            }
        }
    }

    /// Takes a yosys JSON netlist as a player's design, after checking that it is a board the
    /// emulator can run (the DE2-115's pin names); kept for a reload. This is also where a
    /// design written in Verilog comes in, once synthesized to a netlist in the page.
    pub fn add_netlist(&self, file: &str, text: String) -> Result<PlayerKind, String> {
        let load = board_load(Some(text.clone()));
        Bench::load(&load, "").map_err(|e| format!("{file}: {e}"))?;
        let upload = Upload::of(file, text.as_bytes());
        storage::save_text(&storage::file_key(NETLIST, upload.hash), &text);
        self.netlists.borrow_mut().insert(upload.hash, text.into());
        Ok(PlayerKind::Emulated {
            netlist: Some(upload),
        })
    }

    /// Takes a WebAssembly module as a bot player (checked when it plays: a module that is no
    /// WASI command loses its games by `disconnect`); kept for a reload.
    pub fn add_bot(&self, file: &str, bytes: Vec<u8>) -> PlayerKind {
        let upload = Upload::of(file, &bytes);
        storage::save_bytes(&storage::file_key(BOT, upload.hash), &bytes);
        self.bots.borrow_mut().insert(upload.hash, bytes.into());
        PlayerKind::Bot(upload)
    }

    /// Brings back from IndexedDB the files of `players` this page does not hold yet.
    pub async fn restore(&self, players: &[Entrant]) {
        for p in players {
            match &p.kind {
                PlayerKind::Emulated {
                    netlist: Some(Upload { hash, .. }),
                } if !self.netlists.borrow().contains_key(hash) => {
                    if let Some(text) = storage::load_text(&storage::file_key(NETLIST, *hash)).await
                    {
                        self.netlists.borrow_mut().insert(*hash, text.into());
                    }
                }
                PlayerKind::Bot(Upload { hash, .. }) if !self.bots.borrow().contains_key(hash) => {
                    if let Some(bytes) = storage::load_bytes(&storage::file_key(BOT, *hash)).await {
                        self.bots.borrow_mut().insert(*hash, bytes.into());
                    }
                }
                _ => {}
            }
        }
    }

    /// The text of the netlist `upload`, if the page has it: an organiser who synthesized a
    /// design here takes it to the CLI's plan (`sim:NAME.json`) without running yosys again.
    pub fn netlist(&self, upload: &Upload) -> Option<Rc<str>> {
        self.netlists.borrow().get(&upload.hash).cloned()
    }

    /// The bytes of the bot `upload`, if the page has them.
    pub fn bot(&self, upload: &Upload) -> Option<Rc<[u8]>> {
        self.bots.borrow().get(&upload.hash).cloned()
    }

    /// A bot player of `kind` for one game, seeded `seed` for its `random_get`, with `turn_ms`
    /// per turn and 64 MiB of memory at most (as the CLI's default); losses no turn shows go to
    /// `forfeit`. The bot speaks the protocol on its standard streams exactly as a board on its
    /// line, so it plays through the same [`BoardPlayer`] (its referee, the engine's, rules on
    /// its bytes on the page's clock); it is started afresh for the game and stopped after it.
    pub fn bot_player(
        &self,
        kind: &PlayerKind,
        seed: u64,
        turn_ms: u64,
        forfeit: Callback<Forfeit>,
    ) -> Result<Box<dyn Player>, Absent> {
        let PlayerKind::Bot(upload) = kind else {
            return Err(format!("{} is not a bot", kind.spec()));
        };
        let file = &upload.file;
        let module = self
            .bot(upload)
            .ok_or_else(|| format!("the bot {file} is not on this page"))?;
        let name = kind.spec();
        let epoch = page_ms();
        let (inlet, sink) = Link::inlet(&name, self.log(), epoch);
        let on_event = Callback::from(move |event: BotEvent| {
            let at_ms = page_ms();
            match event {
                BotEvent::Started => {}
                BotEvent::Bytes(bytes) => inlet.emit(WireEvent::Data { bytes, at_ms }),
                BotEvent::Refused(reason) => inlet.emit(WireEvent::Closed { reason, at_ms }),
                BotEvent::Ended { ended, .. } => {
                    let reason = match ended {
                        Ended::Exited(status) => format!("the bot exited ({status})"),
                        Ended::Trapped(why) | Ended::BrokeRule(why) => why,
                        Ended::OutOfMemory => "linear memory past its limit".into(),
                    };
                    inlet.emit(WireEvent::Closed { reason, at_ms })
                }
            }
        });
        let bot = Rc::new(WasmBot::spawn(
            file,
            &module,
            DEFAULT_BOT_MEMORY,
            seed,
            on_event,
        )?);
        let link = Link::with_sink(Carrier::Bot(bot.clone()), &name, self.log(), epoch, sink);
        Ok(Box::new(BotPlayer {
            board: BoardPlayer::new(link, turn_ms, Side::Red, forfeit),
            bot,
        }))
    }

    /// A board player of `kind` for one game that red starts, with `turn_ms` per turn; losses
    /// no turn shows go to `forfeit`. An emulated board is powered up afresh for the game (in a
    /// worker of its own); a real board plays on its port's wire. Engines and bots are not
    /// boards (`None`).
    pub fn board(
        &self,
        kind: &PlayerKind,
        turn_ms: u64,
        forfeit: Callback<Forfeit>,
    ) -> Option<Result<BoardPlayer, Absent>> {
        let link = match kind {
            PlayerKind::Emulated { netlist } => {
                let text = match netlist {
                    None => None,
                    Some(Upload { file, hash }) => match self.netlists.borrow().get(hash) {
                        Some(text) => Some(text.to_string()),
                        None => {
                            return Some(Err(format!("the netlist {file} is not on this page")));
                        }
                    },
                };
                emulated(board_load(text), kind.spec())
            }
            PlayerKind::Serial { port } => match self.port(port) {
                Some(link) => link,
                None => return Some(Err(format!("the board {port} is not connected"))),
            },
            PlayerKind::Engine { .. } | PlayerKind::Bot(_) => return None,
        };
        Some(Ok(BoardPlayer::new(link, turn_ms, Side::Red, forfeit)))
    }
}

/// A bot on its wire for one game: stopped when the game lets it go.
struct BotPlayer {
    board: BoardPlayer,
    bot: Rc<WasmBot>,
}

impl Player for BotPlayer {
    fn new_game(&mut self, field: engine::soccer::field::Field, side: Side) {
        self.board.new_game(field, side);
    }

    fn your_turn(&mut self, request: TurnRequest) {
        self.board.your_turn(request);
    }

    fn cancel(&mut self) {
        self.board.cancel();
    }

    fn is_ready(&self) -> bool {
        self.board.is_ready()
    }
}

impl Drop for BotPlayer {
    fn drop(&mut self) {
        self.bot.kill();
    }
}

/// The board worker's load: `netlist` (the reference player's for `None`) on the DE2-115's
/// pins, switches 0, the contest's line — as the CLI's `sim`, whose line is not a setting
/// either (the form's line is for real boards).
fn board_load(netlist: Option<String>) -> Load {
    let line = LineSettings::default();
    Load {
        netlist,
        pins: Pins::default(),
        baud: line.baud,
        stop_bits: line.stop_bits.count(),
        switches: 0,
    }
}

/// An emulated board powered up with `load`, as a wire named `name`.
fn emulated(load: Load, name: String) -> Link {
    let log = SharedLog(Rc::default());
    let epoch = page_ms();
    let (inlet, sink) = Link::inlet(&name, log.clone(), epoch);
    let emulator = crate::serial::emulator::Emulator::spawn(load, inlet, Callback::noop());
    Link::with_sink(Carrier::Emulated(emulator), &name, log, epoch, sink)
}
