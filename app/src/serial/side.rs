//! A board as a Paper Soccer side: the page's game controller asks it for turns like any other
//! player, and the engine's [`Referee`] — the only copy of the byte rules — runs its wire.
//!
//! The engine's referee serves two wires; here one is the board's and the other is *virtual*:
//! the page's side of the game (a human, the engine, or another board with its own referee).
//! The opponent's turns are handed to the referee as that virtual wire's bytes the moment the
//! page asks the board to move, so the referee forwards exactly `{digits}\n` and starts the
//! board's clock then. The referee's clock is this side's *game time*: the wire's clock with
//! the opponent's thinking time taken out, so the virtual wire is never late and the board's
//! deadline is the spec's "turn_ms after its signal was queued". A real board's wire clock is
//! the page's; an emulated board's is its simulated time.
//!
//! What the referee decides is passed on as the page expects it: a framed turn is delivered
//! as digits (the page judges it with the same engine, so a faulty turn gets the same verdict),
//! and a loss with no turn to show — time, a cable pulled, bytes that frame no turn — is a
//! [`Forfeit`].

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use engine::soccer::field::Field;
use engine::soccer::record::RecordTurn;
use engine::soccer::referee::{End, Referee, RefereeEvent, Settings};
use engine::soccer::{Outcome, Side};
use gloo_timers::callback::Timeout;
use yew::Callback;

use super::link::{Link, WireEvent};
use crate::soccer::players::{Delivery, Player, TurnRequest};

/// A loss the page must record although no turn shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forfeit {
    /// The side that loses.
    pub side: Side,
    pub outcome: Outcome,
    /// What happened, for the status line (e.g. the port's error).
    pub detail: String,
}

/// This side's game time: the wire's clock, stopped while the opponent thinks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct GameClock {
    /// Wire time not counted (the opponent's turns).
    offset: u64,
    /// Wire time at which the clock stopped, while stopped.
    stopped_at: Option<u64>,
}

impl GameClock {
    fn now(&self, wire_ms: u64) -> u64 {
        self.stopped_at
            .unwrap_or(wire_ms)
            .saturating_sub(self.offset)
    }

    fn stop(&mut self, wire_ms: u64) {
        if self.stopped_at.is_none() {
            self.stopped_at = Some(wire_ms);
        }
    }

    fn start(&mut self, wire_ms: u64) {
        if let Some(at) = self.stopped_at.take() {
            self.offset += wire_ms.saturating_sub(at);
        }
    }

    /// Wire time of game time `game_ms` while running.
    fn wire_time(&self, game_ms: u64) -> u64 {
        game_ms + self.offset
    }
}

struct State {
    side: Side,
    turn_ms: u64,
    link: Link,
    field: Option<Field>,
    referee: Option<Referee>,
    clock: GameClock,
    /// Turns of the page's record already known to the referee.
    known_turns: usize,
    request: Option<(u64, Callback<Delivery>)>,
    forfeit: Callback<Forfeit>,
    /// Wakes the referee at a real board's deadline.
    timer: Option<Timeout>,
    /// Set once the referee ended the game or the page stopped it.
    done: bool,
    /// The last forfeit's detail or decoding trouble, for the status line.
    note: Option<String>,
    starter: Side,
    /// This player's entry in the link.
    sink: Callback<WireEvent>,
}

/// A board on one side of a game. See the module documentation.
pub struct BoardPlayer {
    state: Rc<RefCell<State>>,
}

impl BoardPlayer {
    /// A player over `link` for a game from kick-off that `starter` starts, with `turn_ms`
    /// per turn; losses no turn shows go to `forfeit`.
    pub fn new(link: Link, turn_ms: u64, starter: Side, forfeit: Callback<Forfeit>) -> BoardPlayer {
        let state = Rc::new_cyclic(|weak: &Weak<RefCell<State>>| {
            let weak = weak.clone();
            RefCell::new(State {
                side: Side::Red,
                turn_ms,
                link: link.clone(),
                field: None,
                referee: None,
                clock: GameClock {
                    offset: 0,
                    stopped_at: Some(link.now_ms()),
                },
                known_turns: 0,
                request: None,
                forfeit,
                timer: None,
                done: false,
                note: None,
                starter,
                sink: Callback::from(move |event| on_wire(&weak, event)),
            })
        });
        link.attach(state.borrow().sink.clone());
        BoardPlayer { state }
    }
}

impl Drop for BoardPlayer {
    fn drop(&mut self) {
        let state = self.state.borrow();
        state.link.hold();
        state.link.detach(&state.sink);
    }
}

fn on_wire(weak: &Weak<RefCell<State>>, event: WireEvent) {
    let Some(state) = weak.upgrade() else { return };
    let mut s = state.borrow_mut();
    if s.done {
        return;
    }
    let side = s.side;
    match event {
        WireEvent::Data { bytes, at_ms } => {
            let now = s.clock.now(at_ms);
            if let Some(referee) = &mut s.referee {
                referee.handle_input(side, &bytes, now);
            }
        }
        WireEvent::Time { at_ms } => {
            let now = s.clock.now(at_ms);
            if let Some(referee) = &mut s.referee {
                referee.poll(now);
            }
        }
        WireEvent::Closed { reason, at_ms } => {
            let now = s.clock.now(at_ms);
            s.note = Some(reason);
            match &mut s.referee {
                Some(referee) => referee.handle_disconnect(side, now),
                None => {
                    // Before the first turn there is no referee yet: the loss is the same.
                    s.done = true;
                    let forfeit = Forfeit {
                        side,
                        outcome: Outcome {
                            winner: side.opponent(),
                            reason: engine::soccer::Reason::Disconnect,
                        },
                        detail: s.note.clone().unwrap_or_default(),
                    };
                    let callback = s.forfeit.clone();
                    drop(s);
                    callback.emit(forfeit);
                    return;
                }
            }
        }
    }
    drop(s);
    settle(&state);
}

/// Sends what the referee queued, passes its events on and sets the next wake-up.
fn settle(state: &Rc<RefCell<State>>) {
    let mut outbox: Vec<Box<dyn FnOnce()>> = Vec::new();
    {
        let mut s = state.borrow_mut();
        let side = s.side;
        let Some(referee) = &mut s.referee else {
            return;
        };
        let mut writes = Vec::new();
        while let Some(transmit) = referee.poll_transmit() {
            // The virtual wire's messages are the page's business.
            if transmit.to == side {
                writes.push(transmit.bytes);
            }
        }
        let mut events = Vec::new();
        while let Some(event) = referee.poll_event() {
            events.push(event);
        }
        let deadline = referee
            .next_deadline()
            .filter(|_| referee.on_turn() == Some(side));
        let turns = referee.record().turns.clone();
        for bytes in writes {
            s.link.write(&bytes);
        }
        for event in events {
            match event {
                RefereeEvent::Played { side: mover, turn } if mover == side => {
                    let wire_now = s.link.now_ms();
                    s.clock.stop(wire_now);
                    s.link.hold();
                    s.timer = None;
                    s.known_turns += 1;
                    if let Some((token, deliver)) = s.request.take() {
                        let delivery = Delivery {
                            token,
                            side,
                            turn: turn.digits().to_vec(),
                            win: None,
                        };
                        outbox.push(Box::new(move || deliver.emit(delivery)));
                    }
                }
                RefereeEvent::Played { .. } | RefereeEvent::OutOfTurn { .. } => {}
                RefereeEvent::Ended(end) => {
                    s.done = true;
                    s.timer = None;
                    s.link.hold();
                    if let Some(action) = ending(&mut s, end, &turns) {
                        outbox.push(action);
                    }
                }
            }
        }
        if !s.done
            && let Some(deadline) = deadline
        {
            let wire_deadline = s.clock.wire_time(deadline);
            s.link.run_until(wire_deadline);
            if s.link.is_real_time() && s.timer.is_none() {
                let wait = wire_deadline.saturating_sub(s.link.now_ms());
                let weak = Rc::downgrade(state);
                let link = s.link.clone();
                s.timer = Some(Timeout::new(
                    wait.min(u64::from(u32::MAX)) as u32 + 1,
                    move || {
                        on_wire(
                            &weak,
                            WireEvent::Time {
                                at_ms: link.now_ms(),
                            },
                        )
                    },
                ));
            }
        }
    }
    for action in outbox {
        action();
    }
}

/// How the referee's verdict reaches the page: the board's last turn when the verdict is the
/// rules' on it, a forfeit otherwise.
fn ending(s: &mut State, end: End, turns: &[RecordTurn]) -> Option<Box<dyn FnOnce()>> {
    let side = s.side;
    let board_turn = turns.len() > s.known_turns && end.frame_fault.is_none();
    if end.outcome.reason.shown_by_moves() && board_turn {
        let (token, deliver) = s.request.take()?;
        let delivery = Delivery {
            token,
            side,
            turn: turns
                .last()
                .map(|t| t.payload().to_vec())
                .unwrap_or_default(),
            win: None,
        };
        return Some(Box::new(move || deliver.emit(delivery)));
    }
    if end.outcome.winner == side {
        // The opponent lost on the page's side (its own business).
        return None;
    }
    let detail = match (end.frame_fault, &s.note) {
        (Some(fault), _) => fault.to_string(),
        (None, Some(note)) => note.clone(),
        (None, None) => end.outcome.reason.name().to_owned(),
    };
    let forfeit = Forfeit {
        side,
        outcome: end.outcome,
        detail,
    };
    let callback = s.forfeit.clone();
    Some(Box::new(move || callback.emit(forfeit)))
}

impl Player for BoardPlayer {
    fn new_game(&mut self, field: Field, side: Side) {
        {
            let mut s = self.state.borrow_mut();
            s.field = Some(field);
            s.side = side;
            let wire_now = s.link.now_ms();
            if s.starter == side {
                s.clock.start(wire_now);
            }
            let now = s.clock.now(wire_now);
            let settings = Settings {
                width: field.width(),
                length: field.length(),
                turn_ms: s.turn_ms,
            };
            // The page's field is one the engine accepted, so this cannot fail.
            match Referee::new(settings, s.starter, now) {
                Ok(referee) => s.referee = Some(referee),
                Err(err) => s.note = Some(err.to_string()),
            }
        }
        // `w`, `l`, `c` now, and `{}` if the board starts (its clock runs from here).
        settle(&self.state);
    }

    fn your_turn(&mut self, request: TurnRequest) {
        {
            let mut s = self.state.borrow_mut();
            if s.done || s.referee.is_none() {
                return;
            }
            let side = s.side;
            let wire_now = s.link.now_ms();
            s.clock.start(wire_now);
            let now = s.clock.now(wire_now);
            let starter = request.record.starter;
            let opponent = side.opponent();
            let known = s.known_turns;
            if let Some(referee) = &mut s.referee {
                // The opponent's new turns, as its virtual wire would carry them.
                for (i, turn) in request.record.turns.iter().enumerate().skip(known) {
                    let mover = if i % 2 == 0 {
                        starter
                    } else {
                        starter.opponent()
                    };
                    if mover == opponent {
                        let digits = turn.payload();
                        let mut bytes = Vec::with_capacity(digits.len() + 3);
                        bytes.push(b'{');
                        bytes.extend_from_slice(digits);
                        bytes.extend_from_slice(b"}\n");
                        referee.handle_input(opponent, &bytes, now);
                    }
                }
            }
            s.known_turns = request.record.turns.len();
            s.request = Some((request.token, request.deliver));
        }
        settle(&self.state);
    }

    fn cancel(&mut self) {
        let mut s = self.state.borrow_mut();
        s.request = None;
        s.timer = None;
        s.link.hold();
    }

    fn is_ready(&self) -> bool {
        self.state.borrow().link.is_open()
    }
}

#[cfg(test)]
mod tests {
    use super::GameClock;

    #[test]
    fn game_time_leaves_out_the_opponents_turns() {
        let mut clock = GameClock {
            offset: 0,
            stopped_at: Some(100),
        };
        // Stopped until the board's first turn at wire time 150.
        assert_eq!(clock.now(140), 100);
        clock.start(150);
        assert_eq!(clock.now(170), 120);
        assert_eq!(clock.wire_time(1120), 1170);
        clock.stop(400);
        assert_eq!(clock.now(900), 350);
        clock.start(1000);
        assert_eq!(clock.now(1000), 350);
        assert_eq!(clock.wire_time(1350), 2000);
    }
}
