//! The players of a side, all alike to the referee: each is asked for a turn and delivers it
//! when it has one, at its own pace.
//!
//! A [`Human`] at this screen delivers step by step through the board canvas (so steps can be
//! shown, refused and taken back); every other kind delivers whole turns, the protocol's
//! `{…}` payload, through the [`TurnRequest::deliver`] callback, and the referee judges them.
//! The engine lives in a web worker ([`EngineLink`]); a board on a serial port or an emulated
//! board is one more implementation of [`Player`] that forwards the opponent's turn and
//! delivers the board's reply.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use engine::soccer::field::Field;
use engine::soccer::record::Record;
use engine::soccer::{BySide, Side};
use gloo_worker::{Spawnable, WorkerBridge};
use yew::Callback;

use crate::workers::soccer::{Answer, Ask, SoccerWorker};

/// A kind of player, as chosen in the set-up form. The option value of each kind is the
/// `value` of the `side-red` / `side-blue` selects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayerKind {
    /// Someone at this screen: clicks, taps and keys.
    Human,
    /// The built-in engine at a level (0 = random, up to `search::MAX_LEVEL`).
    Engine { level: u8 },
    /// A board: on a serial port or emulated (`crate::serial`).
    Board(crate::serial::BoardKind),
}

impl PlayerKind {
    /// The value of the kind's option in a side's select.
    pub fn value(self) -> &'static str {
        match self {
            PlayerKind::Human => "human",
            PlayerKind::Engine { .. } => "engine",
            PlayerKind::Board(board) => board.value(),
        }
    }

    /// The board behind the side, if it is one.
    pub fn board(self) -> Option<crate::serial::BoardKind> {
        match self {
            PlayerKind::Board(board) => Some(board),
            _ => None,
        }
    }

    /// Whether the kind is a machine (machines get a turn time limit by default).
    pub fn is_machine(self) -> bool {
        !matches!(self, PlayerKind::Human)
    }

    /// A short description, e.g. `engine (level 3)`.
    pub fn describe(self) -> String {
        match self {
            PlayerKind::Human => "human".into(),
            PlayerKind::Engine { level } => format!("engine (level {level})"),
            PlayerKind::Board(crate::serial::BoardKind::Serial) => "board on a serial port".into(),
            PlayerKind::Board(crate::serial::BoardKind::Emulated) => "emulated board".into(),
        }
    }
}

/// A turn delivered by a player.
#[derive(Clone, Debug, PartialEq)]
pub struct Delivery {
    /// The [`TurnRequest::token`] it answers; the referee drops deliveries to stale requests.
    pub token: u64,
    pub side: Side,
    /// The digits of the turn (the protocol's payload).
    pub turn: Vec<u8>,
    /// The player's own chance of winning after this turn, when it says (the engine does, from
    /// its search; a board or a person does not): the win bar shows it.
    pub win: Option<f64>,
}

/// The referee asking a player for a turn.
#[derive(Clone, Debug)]
pub struct TurnRequest {
    /// Identifies this request; echoed in the [`Delivery`].
    pub token: u64,
    /// The side to play.
    pub side: Side,
    /// The position: every completed turn so far.
    pub record: Record,
    /// The turn the opponent just played (what the protocol forwards), if any.
    pub opponent_turn: Option<Vec<u8>>,
    /// Where to deliver the turn.
    pub deliver: Callback<Delivery>,
}

/// One side of a game.
pub trait Player {
    /// The game starts on `field`, with this player on `side` (the protocol's `w`, `l`, `c`).
    fn new_game(&mut self, field: Field, side: Side) {
        let _ = (field, side);
    }

    /// It is this player's turn. Players that take input at this screen ignore it.
    fn your_turn(&mut self, request: TurnRequest);

    /// The answer to the last request is no longer wanted (the game ended or was left).
    fn cancel(&mut self) {}

    /// Whether this player's steps come from this screen's mouse and keyboard.
    fn is_local(&self) -> bool {
        false
    }

    /// Whether the player is ready to be asked (a clock is not started before that).
    fn is_ready(&self) -> bool {
        true
    }
}

/// Someone at this screen.
pub struct Human;

impl Player for Human {
    fn your_turn(&mut self, _request: TurnRequest) {}

    fn is_local(&self) -> bool {
        true
    }
}

/// The page's connection to the engine's worker, shared by every engine player and the
/// "suggest a turn" button. Answers are routed to whoever asked, by request id.
pub struct EngineLink {
    bridge: WorkerBridge<SoccerWorker>,
    waiting: Rc<RefCell<HashMap<u64, Callback<Answer>>>>,
    ready: Rc<Cell<bool>>,
    next_id: Cell<u64>,
}

impl EngineLink {
    /// Starts the worker (`soccer_worker.js`, next to the page). `on_ready` is called once it
    /// has loaded.
    pub fn spawn(on_ready: Callback<()>) -> EngineLink {
        let waiting: Rc<RefCell<HashMap<u64, Callback<Answer>>>> = Rc::default();
        let ready = Rc::new(Cell::new(false));
        let bridge = {
            let waiting = waiting.clone();
            let ready = ready.clone();
            SoccerWorker::spawner()
                .callback(move |answer: Answer| {
                    let id = match &answer {
                        Answer::Ready => {
                            ready.set(true);
                            on_ready.emit(());
                            return;
                        }
                        Answer::Turn { id, .. } | Answer::Refused { id, .. } => *id,
                    };
                    let callback = waiting.borrow_mut().remove(&id);
                    if let Some(callback) = callback {
                        callback.emit(answer);
                    }
                })
                .spawn("soccer_worker.js")
        };
        EngineLink {
            bridge,
            waiting,
            ready,
            next_id: Cell::new(1),
        }
    }

    /// Whether the worker has loaded.
    pub fn is_ready(&self) -> bool {
        self.ready.get()
    }

    /// Asks for the engine's turn in the final position of `record`; `reply` gets the answer.
    /// Returns the request's id, for [`EngineLink::forget`].
    pub fn ask(&self, record: &Record, level: u8, seed: u64, reply: Callback<Answer>) -> u64 {
        self.send(None, record, level, seed, reply)
    }

    /// Asks for the turn of the engine that plays the game `game` (a key of the caller's) from
    /// kick-off, made with `seed` at the first request: one engine for the whole game, as a
    /// CLI player (see [`Ask::game`]).
    pub fn ask_in_game(
        &self,
        game: u64,
        record: &Record,
        level: u8,
        seed: u64,
        reply: Callback<Answer>,
    ) -> u64 {
        self.send(Some(game), record, level, seed, reply)
    }

    fn send(
        &self,
        game: Option<u64>,
        record: &Record,
        level: u8,
        seed: u64,
        reply: Callback<Answer>,
    ) -> u64 {
        let id = self.next_id.get();
        self.next_id.set(id + 1);
        self.waiting.borrow_mut().insert(id, reply);
        self.bridge.send(Ask {
            id,
            record: record.to_string(),
            level,
            seed,
            game,
        });
        id
    }

    /// Drops the answer to request `id` when it comes (the worker still finishes it).
    pub fn forget(&self, id: u64) {
        self.waiting.borrow_mut().remove(&id);
    }
}

/// The built-in engine, thinking in the worker.
pub struct EnginePlayer {
    link: Rc<EngineLink>,
    level: u8,
    seed: u64,
    /// The game key of an engine kept for the whole game ([`EngineLink::ask_in_game`]);
    /// `None` for a fresh engine each turn.
    game: Option<u64>,
    pending: Option<u64>,
}

impl EnginePlayer {
    /// A fresh engine each turn, seeded from `seed` and the turn number, so that a game on the
    /// page replays identically from any position.
    pub fn new(link: Rc<EngineLink>, level: u8, seed: u64) -> EnginePlayer {
        EnginePlayer::made(link, level, seed, None)
    }

    /// One engine for the whole game `game` (a key of the caller's), made with `seed`: a
    /// league game, played as the CLI plays it.
    pub fn in_game(link: Rc<EngineLink>, game: u64, level: u8, seed: u64) -> EnginePlayer {
        EnginePlayer::made(link, level, seed, Some(game))
    }

    fn made(link: Rc<EngineLink>, level: u8, seed: u64, game: Option<u64>) -> EnginePlayer {
        EnginePlayer {
            link,
            level,
            seed,
            game,
            pending: None,
        }
    }
}

impl Player for EnginePlayer {
    fn your_turn(&mut self, request: TurnRequest) {
        self.cancel();
        let TurnRequest {
            token,
            side,
            deliver,
            record,
            ..
        } = request;
        let reply = Callback::from(move |answer: Answer| {
            // A refusal delivers an empty turn: the referee judges it (an incomplete turn).
            let (turn, win) = match answer {
                Answer::Turn { turn, win, .. } => (turn.into_bytes(), Some(win)),
                _ => (Vec::new(), None),
            };
            deliver.emit(Delivery {
                token,
                side,
                turn,
                win,
            });
        });
        let id = match self.game {
            Some(game) => (self.link).ask_in_game(game, &record, self.level, self.seed, reply),
            None => {
                // A different seed each turn, fixed by the game's seed and the turn number.
                let turn_seed = (self.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15))
                    .wrapping_add(record.turns.len() as u64);
                self.link.ask(&record, self.level, turn_seed, reply)
            }
        };
        self.pending = Some(id);
    }

    fn cancel(&mut self) {
        if let Some(id) = self.pending.take() {
            self.link.forget(id);
        }
    }

    fn is_ready(&self) -> bool {
        self.link.is_ready()
    }
}

impl Drop for EnginePlayer {
    fn drop(&mut self) {
        self.cancel();
    }
}

/// Where the players of a new game come from: the engine's worker, the boards, and where a
/// board reports a loss without a turn to show.
pub struct Lineup<'a> {
    pub link: &'a Rc<EngineLink>,
    pub boards: &'a crate::serial::Boards,
    /// The engine players' seed.
    pub seed: u64,
    pub forfeit: Callback<crate::serial::side::Forfeit>,
}

impl Lineup<'_> {
    /// The player of `side`, of `kind`, with a turn limit of `limit_ms` (a board defaults to the
    /// referee's). Every kind of player is made here and nowhere else.
    pub fn player(
        &self,
        kind: PlayerKind,
        side: Side,
        starter: Side,
        limit_ms: Option<u32>,
    ) -> Box<dyn Player> {
        match kind {
            PlayerKind::Human => Box::new(Human),
            PlayerKind::Board(board) => {
                let turn_ms = u64::from(limit_ms.unwrap_or(super::setup::MACHINE_LIMIT_MS));
                let forfeit = self.forfeit.clone();
                match self.boards.player(side, board, turn_ms, starter, forfeit) {
                    Ok(player) => Box::new(player),
                    // The page checked that the board is there before starting.
                    Err(_) => Box::new(Human),
                }
            }
            PlayerKind::Engine { level } => {
                Box::new(EnginePlayer::new(self.link.clone(), level, self.seed))
            }
        }
    }
}

/// The two players of the game on screen, red's and blue's, as the session's effects
/// address them.
#[derive(Default)]
pub struct Seats {
    players: Option<BySide<Box<dyn Player>>>,
}

impl Seats {
    /// Seats the players of a new game on `field` (the ones before stop thinking).
    pub fn fill(&mut self, mut players: BySide<Box<dyn Player>>, field: Field) {
        self.retire();
        for (side, player) in players.iter_mut() {
            player.new_game(field, side);
        }
        self.players = Some(players);
    }

    /// The game is left: its players stop thinking.
    pub fn retire(&mut self) {
        if let Some(mut players) = self.players.take() {
            players.iter_mut().for_each(|(_, player)| player.cancel());
        }
    }

    /// Whether each side's player can be asked now (true when nobody is seated).
    pub fn ready(&self) -> BySide<bool> {
        match &self.players {
            Some(players) => players.as_ref().map(|_, player| player.is_ready()),
            None => BySide::new(true, true),
        }
    }

    /// Asks `side`'s player for a turn in the position of `record`.
    pub fn ask(&mut self, side: Side, token: u64, record: Record, deliver: Callback<Delivery>) {
        let opponent_turn = record.turns.last().map(|t| t.payload().to_vec());
        if let Some(players) = &mut self.players {
            players[side].your_turn(TurnRequest {
                token,
                side,
                record,
                opponent_turn,
                deliver,
            });
        }
    }

    /// `side`'s player (both, for `None`) is no longer wanted to answer.
    pub fn cancel(&mut self, side: Option<Side>) {
        for (seat, player) in self.players.iter_mut().flat_map(BySide::iter_mut) {
            if side.is_none_or(|side| side == seat) {
                player.cancel();
            }
        }
    }
}
