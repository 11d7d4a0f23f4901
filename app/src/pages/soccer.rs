//! `#/soccer`: play Paper Soccer — set-up, the field, human and engine players, the record,
//! replay and the history scrubber.
//!
//! The page is a thin shell: the [`Session`] runs the game (the engine's referee judges it, the
//! engine's clock times it), the [players](crate::soccer::players) deliver turns, the view
//! components of [`crate::soccer::view`] show it and the canvas draws the position. The page
//! only carries browser events into the session and the session's effects out to the players.

use std::cell::Cell;
use std::rc::Rc;

use engine::soccer::{BySide, Outcome, Side};
use gloo_events::EventListener;
use gloo_timers::callback::Interval;
use web_sys::WheelEvent;
use yew::prelude::*;

use crate::browser_file::download_text;
use crate::clipboard::copy_text;
use crate::clock::page_ms as now;
use crate::monitor::SerialMonitor;
use crate::serial::side::Forfeit;
use crate::serial::{BoardKind, Boards};
use crate::soccer::players::{Delivery, EngineLink, Human, Lineup, Seats};
use crate::soccer::recorded::RecordedGame;
use crate::soccer::session::{Effect, Moment, SearchFigures, Session, Suggested};
use crate::soccer::setup::{Edit, Setup};
use crate::soccer::view::{
    CanvasEvent, FieldCanvas, HistoryScrubber, RecordBox, RecordLoader, ResultBanner, SetupPanel,
    StatusLine, WinBar, ZoomControls,
};
use crate::workers::soccer::Answer;

/// How often clocks and animations advance.
const TICK_MS: u32 = 40;
/// The engine level of the "suggest a turn" button.
const SUGGEST_LEVEL: u8 = 5;

pub enum Msg {
    Edit(Edit),
    Start,
    EngineReady,
    Delivered(Delivery),
    /// A player lost without a turn to show (a board's timeout or disconnect, say).
    Forfeit(Side, Outcome),
    Canvas(CanvasEvent),
    Wheel(WheelEvent),
    /// The space bar went down (`true`) or up: held, any drag pans.
    Space(bool),
    Tick,
    Resized,
    ScrubTo(usize),
    ContinueHere,
    Suggest,
    Suggested(Answer),
    /// A loaded record's game, to review.
    Loaded(RecordedGame),
    Copy,
    Download,
    Zoom(i32),
}

/// The Paper Soccer page.
pub struct Soccer {
    setup: Setup,
    setup_error: Option<String>,
    session: Session,
    /// The players of the game on screen.
    seats: Seats,
    suggest_pending: Option<u64>,
    /// "Start game" was pressed while a board's port was still opening: the game starts once
    /// it is open (or says why it cannot).
    start_pending: bool,
    link: Rc<EngineLink>,
    /// The boards that may take a side (ports, emulated boards) and their serial log.
    boards: Boards,
    /// The field's canvas, zoom and pan.
    field: FieldCanvas,
    /// The record of the page's link (`#/soccer?record=…`, a league's game), shown for review.
    linked_record: Option<AttrValue>,
    /// Set when the canvas must be drawn again after the next render.
    dirty: Cell<bool>,
    focus_board: Cell<bool>,
    _tick: Interval,
    _resize: Option<EventListener>,
}

impl Component for Soccer {
    type Message = Msg;
    type Properties = ();

    fn create(ctx: &Context<Self>) -> Self {
        let link = ctx.link().clone();
        let tick = Interval::new(TICK_MS, move || link.send_message(Msg::Tick));
        let resize = web_sys::window().map(|window| {
            let link = ctx.link().clone();
            EventListener::new(&window, "resize", move |_| link.send_message(Msg::Resized))
        });
        Soccer {
            setup: Setup::default(),
            setup_error: None,
            session: Session::default(),
            seats: Seats::default(),
            suggest_pending: None,
            start_pending: false,
            link: Rc::new(EngineLink::spawn(
                ctx.link().callback(|()| Msg::EngineReady),
            )),
            boards: Boards::new(),
            field: FieldCanvas::default(),
            linked_record: web_sys::window()
                .and_then(|w| w.location().hash().ok())
                .and_then(|hash| crate::route::query_value(&hash, "record"))
                .map(AttrValue::from),
            dirty: Cell::new(true),
            focus_board: Cell::new(false),
            _tick: tick,
            _resize: resize,
        }
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        let at = self.moment();
        match msg {
            // Before the first game the canvas previews the field being set up.
            Msg::Edit(edit) => {
                self.setup.apply(edit);
            }
            Msg::Start => self.start(ctx, None),
            Msg::EngineReady => self.session.ready(at),
            Msg::Delivered(d) => {
                if let Some(win) = d.win {
                    self.session.estimated(d.token, d.side, win);
                }
                self.session.delivered(d.token, d.side, &d.turn, at.now)
            }
            Msg::Forfeit(side, outcome) => self.session.forfeit(side, outcome),
            Msg::Canvas(CanvasEvent::Key(event)) => {
                if !self.field.key(&event, &mut self.session, at) {
                    return false;
                }
            }
            Msg::Canvas(CanvasEvent::Click(event)) => match self.field.clicked(&event) {
                Some(point) => self.session.step_to(point, at),
                None => return false,
            },
            Msg::Canvas(CanvasEvent::Down(event)) => {
                self.field.pointer_down(&event, &self.session);
                return false;
            }
            Msg::Canvas(CanvasEvent::Move(event)) => {
                self.field.pointer_move(&event, &self.session);
                return false;
            }
            Msg::Canvas(CanvasEvent::Up(event)) => {
                self.field.pointer_up(&event, &self.session);
                // The zoom label follows a pinch.
                return true;
            }
            Msg::Wheel(event) => return self.field.wheel(&event, &self.session),
            Msg::Space(down) => {
                self.field.hold_space(down, &self.session);
                return false;
            }
            Msg::Tick => {
                if self.start_pending && !self.port_opening() {
                    self.start(ctx, None);
                } else {
                    let before = self.session.phase();
                    if !self.session.tick(at) {
                        return false;
                    }
                    self.carry_out(ctx);
                    // A running clock changes the status line only.
                    if self.session.phase() == before {
                        return true;
                    }
                }
            }
            Msg::Resized => {}
            Msg::ScrubTo(turns) => self.session.scrub_to(turns),
            Msg::ContinueHere => {
                if let Some(from) = self.session.continue_from() {
                    self.start(ctx, Some(from));
                }
            }
            Msg::Suggest => self.session.suggest(),
            Msg::Suggested(answer) => {
                self.suggest_pending = None;
                match answer {
                    Answer::Turn {
                        turn,
                        win,
                        depth,
                        nodes,
                        millis,
                        ..
                    } => self.session.suggested(Ok(Suggested {
                        turn,
                        win,
                        search: SearchFigures {
                            depth,
                            nodes,
                            millis,
                        },
                    })),
                    Answer::Refused { reason, .. } => self.session.suggested(Err(reason)),
                    Answer::Ready => {}
                }
            }
            Msg::Loaded(recorded) => {
                let field = *recorded.field();
                self.setup
                    .apply(Edit::Preset(field.width(), field.length()));
                self.seats
                    .fill(BySide::new(Box::new(Human), Box::new(Human)), field);
                self.session.review(recorded);
            }
            Msg::Copy => {
                if let Some(text) = self.session.export() {
                    copy_text(&text);
                    self.session.set_notice("Record copied.");
                }
            }
            Msg::Download => {
                if let Some(text) = self.session.export() {
                    download_text(&format!("{text}\n"), "paper-soccer.txt");
                }
            }
            Msg::Zoom(steps) => self.field.camera.zoom(steps),
        }
        self.carry_out(ctx);
        self.dirty.set(true);
        true
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let session = &self.session;
        let preview = format!("{}×{}", self.setup.width, self.setup.length);
        html! {
            <div class="page play soccer-page">
                <SetupPanel setup={self.setup.clone()} error={self.setup_error.clone()}
                            boards={self.boards.clone()} on_edit={link.callback(Msg::Edit)}
                            on_start={link.callback(|()| Msg::Start)}>
                    <RecordLoader initial={self.linked_record.clone()}
                                  on_load={link.callback(Msg::Loaded)} />
                </SetupPanel>
                <section class="stage soccer-stage">
                    <StatusLine chips={session.chips(now())} message={session.status()} />
                    <ResultBanner outcome={session.result()} />
                    if let Some(red) = session.red_chance() {
                        <WinBar {red} />
                    }
                    <div class="soccer-scroller">
                        { self.field.view(session, &preview, &link.callback(Msg::Canvas)) }
                    </div>
                    <div class="soccer-toolbar">
                        <ZoomControls label={self.field.camera.label()}
                                      on_zoom={link.callback(Msg::Zoom)} />
                        if let Some((at, total)) = session.history() {
                            <HistoryScrubber {at} {total} can_continue={session.can_continue()}
                                             can_suggest={session.can_suggest()}
                                             on_scrub={link.callback(Msg::ScrubTo)}
                                             on_continue={link.callback(|()| Msg::ContinueHere)}
                                             on_suggest={link.callback(|()| Msg::Suggest)} />
                        }
                    </div>
                    <RecordBox record={session.live().map(|r| AttrValue::from(r.record().to_string()))}
                               suggestion={session.suggestion_text().map(AttrValue::from)}
                               search={session.suggestion_search()}
                               on_copy={link.callback(|()| Msg::Copy)}
                               on_download={link.callback(|()| Msg::Download)} />
                    if self.setup.sides.iter().any(|(_, s)| BoardKind::from_value(&s.kind).is_some()) {
                        <SerialMonitor log={self.boards.log()} />
                    }
                </section>
            </div>
        }
    }

    fn rendered(&mut self, ctx: &Context<Self>, first_render: bool) {
        if first_render {
            let link = ctx.link();
            self.field
                .listen(link.callback(Msg::Wheel), link.callback(Msg::Space));
        }
        if self.dirty.replace(false) {
            self.field.draw(&self.session, self.setup.field().ok());
        }
        if self.focus_board.replace(false) {
            self.field.focus();
        }
    }

    fn destroy(&mut self, _ctx: &Context<Self>) {
        // Leaving the page closes its ports: the board page may want them next.
        self.boards.release();
    }
}

impl Soccer {
    /// Now, and whether each side's player can be asked.
    fn moment(&self) -> Moment {
        Moment {
            now: now(),
            ready: self.seats.ready(),
        }
    }

    /// Carries out what the session asked for.
    fn carry_out(&mut self, ctx: &Context<Self>) {
        while let Some(effect) = self.session.poll_effect() {
            match effect {
                Effect::Ask {
                    side,
                    token,
                    record,
                } => {
                    let deliver = ctx.link().callback(Msg::Delivered);
                    self.seats.ask(side, token, record, deliver);
                }
                Effect::Cancel(side) => self.seats.cancel(Some(side)),
                Effect::CancelAll => self.seats.cancel(None),
                Effect::Suggest(record) => {
                    if let Some(id) = self.suggest_pending.take() {
                        self.link.forget(id);
                    }
                    let reply = ctx.link().callback(Msg::Suggested);
                    let seed = self.setup.seed();
                    let id = self.link.ask(&record, SUGGEST_LEVEL, seed, reply);
                    self.suggest_pending = Some(id);
                }
            }
        }
    }

    /// Whether a serial side's port is being opened.
    fn port_opening(&self) -> bool {
        (self.setup.kinds().iter()).any(|(side, kind)| {
            kind.board() == Some(BoardKind::Serial) && self.boards.opening(side)
        })
    }

    /// Starts a game with the set-up's sides: a new one, or `from` a position of another.
    fn start(&mut self, ctx: &Context<Self>, from: Option<RecordedGame>) {
        self.setup_error = None;
        self.start_pending = false;
        if from.is_none() && self.port_opening() {
            self.start_pending = true;
            self.session
                .set_notice("Waiting for the serial port to open…");
            return;
        }
        let checked = self.setup.limits().and_then(|limits| {
            let recorded = match from {
                Some(recorded) => recorded,
                None => {
                    let field = self.setup.field().map_err(|e| e.to_string())?;
                    RecordedGame::new(
                        field,
                        self.setup
                            .starter
                            .pick_with(|| js_sys::Math::random() < 0.5),
                    )
                }
            };
            let kinds = self.setup.kinds();
            let fresh = recorded.turns().is_empty();
            self.boards.check(kinds.map(|_, k| k.board()), fresh)?;
            Ok((limits, recorded, kinds))
        });
        let (limits, recorded, kinds) = match checked {
            Ok(checked) => checked,
            Err(err) => {
                self.setup_error = Some(err);
                return;
            }
        };
        let lineup = Lineup {
            link: &self.link,
            boards: &self.boards,
            seed: self.setup.seed(),
            forfeit: ctx
                .link()
                .callback(|f: Forfeit| Msg::Forfeit(f.side, f.outcome)),
        };
        let players = kinds.map(|side, kind| {
            let limit = self.setup.side(side).limit_ms().ok().flatten();
            lineup.player(kind, side, recorded.starter(), limit)
        });
        self.seats.fill(players, *recorded.field());
        let at = self.moment();
        self.session.start(recorded, kinds, limits, at);
        self.focus_board.set(true);
    }
}
