//! One league game at a time on a table: the page's game ([`RecordedGame`]) between two of the
//! page's players ([`Player`]), with the time per turn. Engines think in the table's soccer
//! worker; an emulated board is powered up afresh for each game in a board worker of its own
//! and times itself (its referee runs on the board's simulated clock); a real board plays on
//! its port's wire, timed by its referee on the page's clock ([`Roster`] makes both). A
//! player that cannot be made loses the game by `disconnect`.

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use engine::soccer::Side;
use engine::soccer::record::Record;
use gloo_timers::callback::Timeout;
use yew::Callback;

use super::roster::{Absent, Roster};
use super::session::{GameStart, PlayerKind};
use crate::serial::side::Forfeit;
use crate::soccer::players::{Delivery, EngineLink, EnginePlayer, Player, TurnRequest};
use crate::soccer::recorded::RecordedGame;

/// How often a table looks again at players still loading.
const WAIT_MS: u32 = 50;

struct State {
    start: GameStart,
    referee: RecordedGame,
    players: Vec<Box<dyn Player>>,
    started: bool,
    token: u64,
    /// The page's clock of an engine's turn, or a wait for players to load.
    timer: Option<Timeout>,
    done: Option<Callback<(usize, Record)>>,
    me: Weak<RefCell<State>>,
}

/// A game being played. Dropping it stops the game (its answers are dropped).
pub struct Table {
    state: Rc<RefCell<State>>,
}

fn side_index(side: Side) -> usize {
    usize::from(side == Side::Blue)
}

impl Table {
    /// Plays `start` with the engines of `link`, keyed `key` in its worker (unique among the
    /// page's games), and the boards and bots of `roster`; `done` gets the game's index and
    /// record.
    pub fn play(
        start: GameStart,
        link: Rc<EngineLink>,
        roster: &Roster,
        key: u64,
        done: Callback<(usize, Record)>,
    ) -> Table {
        let mut absent: [Option<Absent>; 2] = [None, None];
        let state = Rc::new_cyclic(|me: &Weak<RefCell<State>>| {
            let players = [Side::Red, Side::Blue]
                .into_iter()
                .map(|side| -> Box<dyn Player> {
                    let k = side_index(side);
                    let me = me.clone();
                    let forfeit = Callback::from(move |f: Forfeit| {
                        if let Some(state) = me.upgrade() {
                            let outcome = state.borrow_mut().referee.adjudicate(f.outcome);
                            if outcome.is_some() {
                                finish(&state);
                            }
                        }
                    });
                    let made = match &start.kinds[k] {
                        PlayerKind::Engine { level } => Ok(Box::new(EnginePlayer::in_game(
                            link.clone(),
                            key * 2 + k as u64,
                            *level,
                            start.seeds[k],
                        ))
                            as Box<dyn Player>),
                        kind => match roster.board(kind, start.turn_ms, forfeit.clone()) {
                            Some(board) => board.map(|b| Box::new(b) as Box<dyn Player>),
                            None => roster.bot_player(kind, start.seeds[k], start.turn_ms, forfeit),
                        },
                    };
                    made.unwrap_or_else(|why| {
                        absent[k] = Some(why);
                        Box::new(Idle)
                    })
                })
                .collect();
            RefCell::new(State {
                referee: RecordedGame::new(start.pairing.field, Side::Red),
                start,
                players,
                started: false,
                token: 0,
                timer: None,
                done: Some(done),
                me: me.clone(),
            })
        });
        if let Some(k) = absent.iter().position(Option::is_some) {
            // A player that cannot start loses by `disconnect` (red when neither can, as in
            // the CLI), once the page has the table.
            let side = if k == 0 { Side::Red } else { Side::Blue };
            web_sys::console::warn_1(
                &format!(
                    "league game {}: {side} {}",
                    state.borrow().start.pairing.index + 1,
                    absent[k].as_deref().unwrap_or_default()
                )
                .into(),
            );
            let me = Rc::downgrade(&state);
            state.borrow_mut().timer = Some(Timeout::new(0, move || {
                if let Some(state) = me.upgrade() {
                    state
                        .borrow_mut()
                        .referee
                        .adjudicate(engine::soccer::Outcome {
                            winner: side.opponent(),
                            reason: engine::soccer::Reason::Disconnect,
                        });
                    finish(&state);
                }
            }));
            return Table { state };
        }
        ask(&state, None);
        Table { state }
    }
}

impl Drop for Table {
    fn drop(&mut self) {
        let mut s = self.state.borrow_mut();
        s.done = None;
        s.timer = None;
        for player in &mut s.players {
            player.cancel();
        }
    }
}

/// Asks the player to move for its turn (the first time, once every player has loaded, after
/// telling both the game's set-up).
fn ask(state: &Rc<RefCell<State>>, opponent_turn: Option<Vec<u8>>) {
    let mut s = state.borrow_mut();
    if s.done.is_none() {
        return;
    }
    if !s.started {
        if !s.players.iter().all(|p| p.is_ready()) {
            let me = s.me.clone();
            s.timer = Some(Timeout::new(WAIT_MS, move || {
                if let Some(state) = me.upgrade() {
                    ask(&state, None);
                }
            }));
            return;
        }
        s.started = true;
        let field = s.start.pairing.field;
        s.players[0].new_game(field, Side::Red);
        s.players[1].new_game(field, Side::Blue);
    }
    s.token += 1;
    let side = s.referee.to_move();
    let k = side_index(side);
    let me = s.me.clone();
    let deliver = Callback::from(move |delivery: Delivery| {
        if let Some(state) = me.upgrade() {
            delivered(&state, delivery);
        }
    });
    let request = TurnRequest {
        token: s.token,
        side,
        record: s.referee.record(),
        opponent_turn,
        deliver,
    };
    // Engines are timed by the page; a board or a bot by its own referee, on its own clock.
    s.timer = match s.start.kinds[k] {
        PlayerKind::Engine { .. } => {
            let me = s.me.clone();
            let token = s.token;
            let ms = u32::try_from(s.start.turn_ms).unwrap_or(u32::MAX);
            Some(Timeout::new(ms, move || {
                if let Some(state) = me.upgrade() {
                    timed_out(&state, token);
                }
            }))
        }
        _ => None,
    };
    let mut player = std::mem::replace(&mut s.players[k], Box::new(Idle));
    drop(s);
    player.your_turn(request);
    state.borrow_mut().players[k] = player;
}

/// A stand-in while a player is being asked (its answer may come synchronously).
struct Idle;

impl Player for Idle {
    fn your_turn(&mut self, _request: TurnRequest) {}
}

fn delivered(state: &Rc<RefCell<State>>, delivery: Delivery) {
    let mut s = state.borrow_mut();
    if delivery.token != s.token || s.referee.outcome().is_some() || s.done.is_none() {
        return;
    }
    s.timer = None;
    let outcome = s.referee.play_turn(&delivery.turn);
    drop(s);
    if outcome.is_some() {
        finish(state);
    } else {
        ask(state, Some(delivery.turn));
    }
}

fn timed_out(state: &Rc<RefCell<State>>, token: u64) {
    let mut s = state.borrow_mut();
    if token != s.token {
        return;
    }
    let k = side_index(s.referee.to_move());
    s.players[k].cancel();
    s.referee.time_out();
    drop(s);
    finish(state);
}

/// Reports the finished game (once) and lets the players go.
fn finish(state: &Rc<RefCell<State>>) {
    let mut s = state.borrow_mut();
    s.timer = None;
    s.token += 1;
    for player in &mut s.players {
        player.cancel();
    }
    let record = s.referee.record_with_verdict();
    let index = s.start.pairing.index;
    let done = s.done.take();
    drop(s);
    if let Some(done) = done {
        done.emit((index, record));
    }
}
