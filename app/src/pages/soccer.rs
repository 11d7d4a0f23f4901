//! `#/soccer`: play Paper Soccer — set-up, the field, human and engine players, the record,
//! replay and the history scrubber.
//!
//! The page is a thin shell: [`Referee`] keeps the game (every judgement is the engine's), the
//! [`Player`]s deliver turns, and the canvas shows the referee's position. Machine turns are
//! animated step by step after they are judged.

use std::cell::Cell;
use std::rc::Rc;

use engine::soccer::field::{Field, dir_between};
use engine::soccer::game::Game;
use engine::soccer::record::Record;
use engine::soccer::search::MAX_LEVEL;
use engine::soccer::{Dir, Outcome, Point, Side};
use gloo_events::{EventListener, EventListenerOptions};
use gloo_timers::callback::Interval;
use wasm_bindgen::JsCast;
use web_sys::{
    HtmlCanvasElement, HtmlElement, HtmlInputElement, HtmlTextAreaElement, PointerEvent, WheelEvent,
};
use yew::prelude::*;

use crate::browser_file::download_text;
use crate::canvas::{Surface, annotate};
use crate::clipboard::copy_text;
use crate::draw::soccer::{Scene, Target, paint};
use crate::geometry::FieldView;
use crate::monitor::SerialMonitor;
use crate::serial::side::Forfeit;
use crate::serial::{BoardKind, BoardSetup, Boards};
use crate::soccer::camera::{Camera, Touchdown};
use crate::soccer::keys::{KeyAction, key_action};
use crate::soccer::players::{
    Delivery, EngineLink, EnginePlayer, Human, Player, PlayerKind, TurnRequest,
};
use crate::soccer::referee::{Progress, Referee};
use crate::soccer::setup::{MACHINE_LIMIT_MS, SideSetup, parse_size};
use crate::workers::soccer::Answer;
use engine::soccer::referee::Starter;

/// The size the page opens with (the contest's usual field).
const DEFAULT: (u8, u8) = (8, 10);
/// The size presets offered next to the size inputs.
const PRESETS: [(u8, u8); 2] = [(8, 10), (10, 8)];
/// How often clocks and animations advance.
const TICK_MS: u32 = 40;
/// An animated turn takes at most this many ticks, however many steps it has.
const ANIMATION_TICKS: usize = 16;
/// The engine level of the "suggest a turn" button.
const SUGGEST_LEVEL: u8 = 4;

fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

fn index(side: Side) -> usize {
    match side {
        Side::Red => 0,
        Side::Blue => 1,
    }
}

/// What the game on screen is doing.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Phase {
    /// A machine is to move but not ready to be asked yet (its clock has not started).
    Starting,
    /// The player to move was asked (or, if local, may step) since `since` (ms).
    Turn { since: f64 },
    /// A delivered turn is being drawn: `shown` of the lines are visible, up to `total`.
    Animating { shown: usize, total: usize },
    /// The game is over.
    Over,
    /// A loaded record, looked at: nobody plays.
    Review,
}

/// A game on screen: the referee, both sides' players and clocks.
struct Live {
    referee: Referee,
    players: [Box<dyn Player>; 2],
    kinds: [PlayerKind; 2],
    limits: [Option<u32>; 2],
    phase: Phase,
    /// The token of the last request; older deliveries are dropped.
    token: u64,
    /// How long the previous turn of each side took (ms), for the clock display.
    last_took: [Option<f64>; 2],
}

impl Live {
    fn new(
        referee: Referee,
        players: [Box<dyn Player>; 2],
        kinds: [PlayerKind; 2],
        limits: [Option<u32>; 2],
        phase: Phase,
    ) -> Live {
        Live {
            referee,
            players,
            kinds,
            limits,
            phase,
            token: 0,
            last_took: [None, None],
        }
    }
}

/// The position shown while scrubbing through the history.
struct Scrub {
    turns: usize,
    referee: Referee,
}

struct Suggestion {
    /// The position it was asked for (number of completed turns).
    turns: usize,
    digits: String,
    path: Vec<Point>,
}

pub enum Msg {
    Width(String),
    Length(String),
    Preset(u8, u8),
    Starter(String),
    Kind(Side, String),
    Level(Side, String),
    Limit(Side, String),
    Seed(String),
    Start,
    EngineReady,
    Delivered(Delivery),
    /// A player lost without a turn to show (a board's timeout or disconnect, say).
    Forfeit(Side, Outcome),
    Key(KeyboardEvent),
    Click(MouseEvent),
    PointerDown(PointerEvent),
    PointerMove(PointerEvent),
    PointerUp(PointerEvent),
    Wheel(WheelEvent),
    /// The space bar went down (`true`) or up: held, any drag pans.
    Space(bool),
    Tick,
    Resized,
    ScrubTo(usize),
    ContinueHere,
    Suggest,
    Suggested(Answer),
    RecordText(String),
    LoadRecord,
    FileOpened(String),
    Copy,
    Download,
    Zoom(i32),
}

/// The Paper Soccer page.
pub struct Soccer {
    width: String,
    length: String,
    starter: Starter,
    sides: [SideSetup; 2],
    seed: String,
    setup_error: Option<String>,
    live: Option<Live>,
    scrub: Option<Scrub>,
    suggestion: Option<Suggestion>,
    suggest_pending: Option<u64>,
    record_text: String,
    load_error: Option<String>,
    notice: Option<String>,
    /// "Start game" was pressed while a board's port was still opening: the game starts once
    /// it is open (or says why it cannot).
    start_pending: bool,
    link: Rc<EngineLink>,
    /// The boards that may take a side (ports, emulated boards) and their serial log.
    boards: Boards,
    canvas: NodeRef,
    /// The field's zoom and pan, and the layout of the last drawing (to turn clicks into
    /// points).
    camera: Camera,
    /// Where the pointer last was over the canvas, in buffer pixels.
    hover: Option<(f64, f64)>,
    /// The wheel, space bar and blur listeners (the wheel one must be able to cancel).
    listeners: Vec<EventListener>,
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
        let mut soccer = Soccer {
            width: DEFAULT.0.to_string(),
            length: DEFAULT.1.to_string(),
            starter: Starter::Random,
            sides: [SideSetup::human(), SideSetup::engine()],
            seed: "1".into(),
            setup_error: None,
            live: None,
            scrub: None,
            suggestion: None,
            suggest_pending: None,
            record_text: String::new(),
            load_error: None,
            notice: None,
            start_pending: false,
            link: Rc::new(EngineLink::spawn(
                ctx.link().callback(|()| Msg::EngineReady),
            )),
            boards: Boards::new(),
            canvas: NodeRef::default(),
            camera: Camera::default(),
            hover: None,
            listeners: Vec::new(),
            dirty: Cell::new(true),
            focus_board: Cell::new(false),
            _tick: tick,
            _resize: resize,
        };
        // A link with a record (a league's game) opens it for review.
        let hash = web_sys::window().and_then(|w| w.location().hash().ok());
        if let Some(record) = hash.and_then(|h| crate::route::query_value(&h, "record")) {
            soccer.record_text = record;
            soccer.load_record();
        }
        soccer
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::Width(text) => {
                self.width = text;
                self.size_changed();
            }
            Msg::Length(text) => {
                self.length = text;
                self.size_changed();
            }
            Msg::Preset(w, l) => {
                self.width = w.to_string();
                self.length = l.to_string();
                self.size_changed();
            }
            Msg::Starter(value) => {
                if let Some(choice) = Starter::from_name(&value) {
                    self.starter = choice;
                }
            }
            Msg::Kind(side, value) => self.sides[index(side)].set_kind(&value),
            Msg::Level(side, value) => {
                if let Ok(level) = value.parse::<u8>() {
                    self.sides[index(side)].level = level.min(MAX_LEVEL);
                }
            }
            Msg::Limit(side, text) => self.sides[index(side)].limit = text,
            Msg::Seed(text) => self.seed = text,
            Msg::Start => self.start(ctx, None),
            Msg::EngineReady => {
                if let Some(live) = &self.live
                    && live.phase == Phase::Starting
                {
                    self.advance(ctx);
                }
            }
            Msg::Delivered(delivery) => self.delivered(delivery),
            Msg::Forfeit(side, outcome) => {
                if let Some(live) = &mut self.live
                    && live.phase != Phase::Review
                    && live.referee.outcome().is_none()
                    && outcome.winner == side.opponent()
                {
                    live.players.iter_mut().for_each(|p| p.cancel());
                    live.referee.adjudicate(outcome);
                    live.phase = Phase::Over;
                }
            }
            Msg::Key(event) => {
                let Some(action) = key_action(&event.key(), &event.code()) else {
                    return false;
                };
                event.prevent_default();
                match action {
                    KeyAction::Step(dir) => self.human_step(ctx, dir),
                    KeyAction::TakeBack => self.take_back(),
                    KeyAction::Zoom(steps) => self.camera.zoom(steps),
                }
            }
            Msg::Click(event) => {
                if !self.camera.click_plays() {
                    return false;
                }
                self.click(ctx, &event);
            }
            Msg::PointerDown(event) => return self.pointer_down(&event),
            Msg::PointerMove(event) => return self.pointer_move(&event),
            Msg::PointerUp(event) => return self.pointer_up(&event),
            Msg::Wheel(event) => return self.wheel(&event),
            Msg::Space(down) => {
                self.camera.hold_space(down);
                self.show_cursor();
                return false;
            }
            Msg::Tick => return self.tick(ctx),
            Msg::Resized => self.dirty.set(true),
            Msg::ScrubTo(turns) => self.scrub_to(turns),
            Msg::ContinueHere => {
                let from = self.shown().map(|r| r.after_turns(usize::MAX));
                if let Some(from) = from.filter(|r| r.outcome().is_none()) {
                    self.start(ctx, Some(from));
                }
            }
            Msg::Suggest => self.suggest(ctx),
            Msg::Suggested(answer) => self.suggested(answer),
            Msg::RecordText(text) => self.record_text = text,
            Msg::LoadRecord => self.load_record(),
            Msg::FileOpened(text) => {
                self.record_text = text.trim().to_owned();
                self.load_record();
            }
            Msg::Copy => {
                if let Some(text) = self.record_for_export() {
                    copy_text(&text);
                    self.notice = Some("Record copied.".into());
                }
            }
            Msg::Download => {
                if let Some(text) = self.record_for_export() {
                    download_text(&format!("{text}\n"), "paper-soccer.txt");
                }
            }
            Msg::Zoom(steps) => self.camera.zoom(steps),
        }
        self.dirty.set(true);
        true
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        html! {
            <div class="page play soccer-page">
                { self.view_panel(ctx) }
                { self.view_stage(ctx) }
            </div>
        }
    }

    fn rendered(&mut self, ctx: &Context<Self>, first_render: bool) {
        if first_render {
            self.listen(ctx);
        }
        if self.dirty.replace(false) {
            self.draw();
        }
        if self.focus_board.replace(false)
            && let Some(canvas) = self.canvas.cast::<HtmlElement>()
        {
            let _ = canvas.focus();
        }
    }

    fn destroy(&mut self, _ctx: &Context<Self>) {
        // Leaving the page closes its ports: the board page may want them next.
        self.boards.release();
    }
}

impl Soccer {
    // ----- the game -------------------------------------------------------------------------

    fn size_changed(&mut self) {
        // Before the first game the canvas previews the field being set up.
        if self.live.is_none() {
            self.dirty.set(true);
        }
    }

    /// Starts a game with the set-up's sides: a new one, or `from` a position of another.
    fn start(&mut self, ctx: &Context<Self>, from: Option<Referee>) {
        self.setup_error = None;
        self.start_pending = false;
        if from.is_none() && self.port_opening() {
            self.start_pending = true;
            self.notice = Some("Waiting for the serial port to open…".into());
            return;
        }
        let limits = match (self.sides[0].limit_ms(), self.sides[1].limit_ms()) {
            (Ok(red), Ok(blue)) => [red, blue],
            (Err(err), _) | (_, Err(err)) => {
                self.setup_error = Some(err);
                return;
            }
        };
        let referee = match from {
            Some(referee) => referee,
            None => match parse_size(&self.width, &self.length) {
                Ok(field) => Referee::new(
                    field,
                    self.starter.pick_with(|| js_sys::Math::random() < 0.5),
                ),
                Err(err) => {
                    self.setup_error = Some(err.to_string());
                    return;
                }
            },
        };
        let seed = self.seed.trim().parse::<u64>().unwrap_or(1);
        let kinds = [self.sides[0].player(), self.sides[1].player()];
        if let Err(err) = self
            .boards
            .check(kinds.map(|k| k.board()), referee.turns().is_empty())
        {
            self.setup_error = Some(err);
            return;
        }
        let mut players = [Side::Red, Side::Blue]
            .map(|side| self.make_player(ctx, kinds[index(side)], side, referee.starter(), seed));
        for side in [Side::Red, Side::Blue] {
            players[index(side)].new_game(*referee.field(), side);
        }
        self.replace_live(Live::new(referee, players, kinds, limits, Phase::Starting));
        self.focus_board.set(true);
        self.advance(ctx);
    }

    /// The player of one side. Every kind of player is made here and nowhere else; a kind
    /// that can lose without a turn to show reports it as [`Msg::Forfeit`].
    fn make_player(
        &self,
        ctx: &Context<Self>,
        kind: PlayerKind,
        side: Side,
        starter: Side,
        seed: u64,
    ) -> Box<dyn Player> {
        match kind {
            PlayerKind::Human => Box::new(Human),
            PlayerKind::Board(board) => {
                let turn_ms = self.sides[index(side)].limit_ms().ok().flatten();
                let forfeit = ctx
                    .link()
                    .callback(|f: Forfeit| Msg::Forfeit(f.side, f.outcome));
                let turn_ms = u64::from(turn_ms.unwrap_or(MACHINE_LIMIT_MS));
                match self.boards.player(side, board, turn_ms, starter, forfeit) {
                    Ok(player) => Box::new(player),
                    // `check` above made sure the board is there.
                    Err(_) => Box::new(Human),
                }
            }
            PlayerKind::Engine { level } => {
                Box::new(EnginePlayer::new(self.link.clone(), level, seed))
            }
        }
    }

    /// After the position changed: ends the game or asks the player to move.
    fn advance(&mut self, ctx: &Context<Self>) {
        let Some(live) = &mut self.live else { return };
        if live.phase == Phase::Review {
            return;
        }
        self.suggestion = None;
        if live.referee.outcome().is_some() {
            live.phase = Phase::Over;
            live.players.iter_mut().for_each(|p| p.cancel());
            return;
        }
        let side = live.referee.to_move();
        let player = &mut live.players[index(side)];
        if !player.is_ready() {
            live.phase = Phase::Starting;
            return;
        }
        live.token += 1;
        live.phase = Phase::Turn { since: now() };
        if !player.is_local() {
            let record = live.referee.record();
            let opponent_turn = record.turns.last().cloned();
            player.your_turn(TurnRequest {
                token: live.token,
                side,
                record,
                opponent_turn,
                deliver: ctx.link().callback(Msg::Delivered),
            });
        }
    }

    /// A machine's whole turn arrived: judge it, then animate it.
    fn delivered(&mut self, delivery: Delivery) {
        let Some(live) = &mut self.live else { return };
        let Phase::Turn { since } = live.phase else {
            return;
        };
        if delivery.token != live.token || delivery.side != live.referee.to_move() {
            return;
        }
        let took = now() - since;
        live.last_took[index(delivery.side)] = Some(took);
        if live.limits[index(delivery.side)].is_some_and(|limit| took > f64::from(limit)) {
            live.referee.time_out();
            live.phase = Phase::Over;
            return;
        }
        let before = live.referee.lines().len();
        live.referee.play_turn(&delivery.turn);
        let total = live.referee.lines().len();
        live.phase = Phase::Animating {
            shown: before,
            total,
        };
    }

    /// Whether the player at this screen may step now.
    fn local_turn(&self) -> bool {
        self.scrub.is_none()
            && self.live.as_ref().is_some_and(|live| {
                matches!(live.phase, Phase::Turn { .. })
                    && live.players[index(live.referee.to_move())].is_local()
            })
    }

    fn human_step(&mut self, ctx: &Context<Self>, dir: Dir) {
        if !self.local_turn() {
            return;
        }
        let Some(live) = &mut self.live else { return };
        let side = live.referee.to_move();
        if let Phase::Turn { since } = live.phase
            && live.limits[index(side)].is_some_and(|limit| now() - since > f64::from(limit))
        {
            live.referee.time_out();
            live.phase = Phase::Over;
            return;
        }
        match live.referee.step(dir) {
            Ok(Progress::StepAgain) => {
                self.notice = None;
                self.suggestion = None;
            }
            Ok(Progress::TurnOver | Progress::GameOver(_)) => {
                if let Phase::Turn { since } = live.phase {
                    live.last_took[index(side)] = Some(now() - since);
                }
                self.notice = None;
                self.advance(ctx);
            }
            Err(err) => self.notice = Some(format!("Not a legal step: {err}.")),
        }
    }

    fn take_back(&mut self) {
        if !self.local_turn() {
            return;
        }
        if let Some(live) = &mut self.live
            && live.referee.take_back()
        {
            self.notice = None;
        }
    }

    fn click(&mut self, ctx: &Context<Self>, event: &MouseEvent) {
        let (Some(canvas), Some(view)) = (
            self.canvas.cast::<HtmlCanvasElement>(),
            self.camera.layout(),
        ) else {
            return;
        };
        let _ = canvas.focus();
        if !self.local_turn() {
            return;
        }
        let Some(live) = &self.live else { return };
        let (px, py) = self.buffer_point(event);
        let Some(point) = point_near(&view, px, py) else {
            return;
        };
        match dir_between(live.referee.game().ball(), point) {
            Some(dir) => self.human_step(ctx, dir),
            None => self.notice = Some("Click a point next to the ball.".into()),
        }
    }

    /// Advances clocks and animations; re-renders only when something shown changed.
    /// Whether a serial side's port is being opened.
    fn port_opening(&self) -> bool {
        [Side::Red, Side::Blue].into_iter().any(|side| {
            self.sides[index(side)].player().board() == Some(BoardKind::Serial)
                && self.boards.opening(side)
        })
    }

    fn tick(&mut self, ctx: &Context<Self>) -> bool {
        if self.start_pending && !self.port_opening() {
            self.start(ctx, None);
            return true;
        }
        let Some(live) = &mut self.live else {
            return false;
        };
        match live.phase {
            Phase::Turn { since } => {
                let side = live.referee.to_move();
                let Some(limit) = live.limits[index(side)] else {
                    return false;
                };
                if now() - since > f64::from(limit) {
                    live.players[index(side)].cancel();
                    live.referee.time_out();
                    live.phase = Phase::Over;
                    self.dirty.set(true);
                }
                true
            }
            Phase::Animating { shown, total } => {
                let per_tick = (total.saturating_sub(shown))
                    .div_ceil(ANIMATION_TICKS)
                    .max(1);
                let shown = (shown + per_tick).min(total);
                live.phase = Phase::Animating { shown, total };
                if shown >= total {
                    self.advance(ctx);
                }
                self.dirty.set(true);
                true
            }
            Phase::Starting | Phase::Over | Phase::Review => false,
        }
    }

    // ----- history, records, suggestions ----------------------------------------------------

    /// The game shown: the scrubbed position or the live one.
    fn shown(&self) -> Option<&Referee> {
        match &self.scrub {
            Some(scrub) => Some(&scrub.referee),
            None => self.live.as_ref().map(|live| &live.referee),
        }
    }

    fn scrub_to(&mut self, turns: usize) {
        let Some(live) = &self.live else { return };
        if turns >= live.referee.turns().len() {
            self.scrub = None;
        } else {
            self.scrub = Some(Scrub {
                turns,
                referee: live.referee.after_turns(turns),
            });
        }
        self.suggestion = None;
    }

    fn suggest(&mut self, ctx: &Context<Self>) {
        let Some(referee) = self.shown() else { return };
        if referee.outcome().is_some() {
            return;
        }
        let position = referee.after_turns(usize::MAX);
        let turns = position.turns().len();
        if let Some(id) = self.suggest_pending.take() {
            self.link.forget(id);
        }
        let seed = self.seed.trim().parse::<u64>().unwrap_or(1);
        let id = self.link.ask(
            &position.record(),
            SUGGEST_LEVEL,
            seed,
            ctx.link().callback(Msg::Suggested),
        );
        self.suggest_pending = Some(id);
        self.suggestion = Some(Suggestion {
            turns,
            digits: String::new(),
            path: Vec::new(),
        });
    }

    fn suggested(&mut self, answer: Answer) {
        self.suggest_pending = None;
        let Some(suggestion) = &mut self.suggestion else {
            return;
        };
        match answer {
            Answer::Turn { turn, .. } => {
                let start = self
                    .scrub
                    .as_ref()
                    .map(|s| &s.referee)
                    .or(self.live.as_ref().map(|l| &l.referee))
                    .map(|r| r.after_turns(suggestion.turns).game().ball());
                suggestion.path = start.map_or_else(Vec::new, |start| path_of(start, &turn));
                suggestion.digits = turn;
            }
            Answer::Refused { reason, .. } => {
                self.suggestion = None;
                self.notice = Some(format!("No suggestion: {reason}."));
            }
            Answer::Ready => {}
        }
    }

    /// Ends the game shown (its players stop thinking) and shows `live` instead, from its
    /// latest position, with no suggestion or notice left over.
    fn replace_live(&mut self, live: Live) {
        if let Some(old) = &mut self.live {
            old.players.iter_mut().for_each(|p| p.cancel());
        }
        self.live = Some(live);
        self.scrub = None;
        self.suggestion = None;
        self.notice = None;
    }

    fn load_record(&mut self) {
        let text = self.record_text.trim();
        let record = match Record::parse(text) {
            Ok(record) => record,
            Err(err) => {
                self.load_error = Some(format!("Not a record: {err}."));
                return;
            }
        };
        match Referee::from_record(&record) {
            Ok(referee) => {
                let field = *referee.field();
                self.width = field.width().to_string();
                self.length = field.length().to_string();
                let humans: [Box<dyn Player>; 2] = [Box::new(Human), Box::new(Human)];
                let kinds = [PlayerKind::Human; 2];
                self.replace_live(Live::new(
                    referee,
                    humans,
                    kinds,
                    [None, None],
                    Phase::Review,
                ));
                self.load_error = None;
            }
            Err(err) => self.load_error = Some(format!("The moves contradict the record: {err}.")),
        }
    }

    /// The record to copy or download: with the verdict once the game is over.
    fn record_for_export(&self) -> Option<String> {
        let live = self.live.as_ref()?;
        Some(live.referee.record_with_verdict().to_string())
    }

    // ----- drawing --------------------------------------------------------------------------

    fn draw(&mut self) {
        let Some((canvas, surface)) = Surface::prepare_node(&self.canvas) else {
            return;
        };
        let ratio = surface.ratio;
        let preview;
        let referee = match self.shown() {
            Some(referee) => referee,
            None => {
                let field = parse_size(&self.width, &self.length)
                    .unwrap_or_else(|_| self.last_field(&canvas));
                preview = Referee::new(field, Side::Red);
                &preview
            }
        };
        let game = referee.game();
        let field = *game.field();
        let predrawn = field.predrawn_segments();
        let mut lines = referee.lines();
        let mut ball = game.ball();
        if self.scrub.is_none()
            && let Some(Live {
                phase: Phase::Animating { shown, .. },
                ..
            }) = &self.live
        {
            lines.truncate(*shown);
            ball = lines.last().map_or(field.centre(), |line| line.1);
        }
        let targets = if self.local_turn() {
            targets(game)
        } else {
            Vec::new()
        };
        let suggestion = self
            .suggestion
            .as_ref()
            .map_or(&[][..], |s| s.path.as_slice());
        let scene = Scene {
            width: field.width(),
            length: field.length(),
            predrawn: &predrawn,
            lines: &lines,
            ball,
            targets: &targets,
            suggestion,
        };
        let stage = FieldView::stage(
            field.width(),
            field.length(),
            surface.width,
            surface.height,
            ratio,
        );
        let layout = self.camera.shoot(stage, ball);
        paint(&surface, &scene, layout);
        let (x0, y0) = layout.point(0, 0);
        let (bx, by) = layout.point(ball.x, ball.y);
        annotate(&canvas, "field", field);
        annotate(&canvas, "square", layout.square());
        annotate(&canvas, "origin", format!("{x0},{y0}"));
        annotate(&canvas, "ball", format!("{bx},{by}"));
        annotate(&canvas, "zoom", self.camera.label());
    }

    /// The field of the canvas' last drawing (kept while the size typed is not a field).
    fn last_field(&self, canvas: &HtmlCanvasElement) -> Field {
        canvas
            .get_attribute("data-field")
            .and_then(|text| {
                let (w, l) = text.split_once('x')?;
                parse_size(w, l).ok()
            })
            .unwrap_or_else(|| Field::new(DEFAULT.0, DEFAULT.1).expect("8×10 is a legal field"))
    }

    // ----- zoom and pan ---------------------------------------------------------------------

    /// Listens where yew cannot: the wheel (not passive, so it zooms instead of scrolling the
    /// page) and the space bar held anywhere but in a form field.
    fn listen(&mut self, ctx: &Context<Self>) {
        let Some(window) = web_sys::window() else {
            return;
        };
        let active = EventListenerOptions::enable_prevent_default();
        if let Some(canvas) = self.canvas.cast::<HtmlCanvasElement>() {
            let link = ctx.link().clone();
            self.listeners
                .push(crate::canvas::wheel_listener(&canvas, move |e| {
                    link.send_message(Msg::Wheel(e))
                }));
        }
        for (kind, down) in [("keydown", true), ("keyup", false)] {
            let link = ctx.link().clone();
            self.listeners.push(EventListener::new_with_options(
                &window,
                kind,
                active,
                move |e| {
                    let Some(e) = e.dyn_ref::<KeyboardEvent>() else {
                        return;
                    };
                    if e.key() != " " {
                        return;
                    }
                    let tag = e
                        .target()
                        .and_then(|t| t.dyn_into::<HtmlElement>().ok())
                        .map(|el| el.tag_name());
                    // Space types in fields and presses buttons; elsewhere it is held to pan.
                    if matches!(
                        tag.as_deref(),
                        Some("INPUT" | "SELECT" | "TEXTAREA" | "BUTTON")
                    ) {
                        return;
                    }
                    e.prevent_default();
                    if !(down && e.repeat()) {
                        link.send_message(Msg::Space(down));
                    }
                },
            ));
        }
        let link = ctx.link().clone();
        self.listeners
            .push(EventListener::new(&window, "blur", move |_| {
                link.send_message(Msg::Space(false))
            }));
    }

    /// The canvas buffer point of a mouse or pointer event's offset (CSS pixels).
    fn buffer_point(&self, event: &MouseEvent) -> (f64, f64) {
        let scale = self.canvas.cast::<HtmlCanvasElement>().map_or(1.0, |c| {
            f64::from(c.width()) / f64::from(c.client_width().max(1))
        });
        (
            css_px(event.offset_x()) * scale,
            css_px(event.offset_y()) * scale,
        )
    }

    /// Whether a click at buffer point `point` would step the ball (a drag from there is a
    /// click, unless the space bar is held).
    fn on_target(&self, point: (f64, f64)) -> bool {
        let (Some(layout), Some(live)) = (self.camera.layout(), &self.live) else {
            return false;
        };
        self.local_turn()
            && point_near(&layout, point.0, point.1)
                .is_some_and(|p| dir_between(live.referee.game().ball(), p).is_some())
    }

    /// Shows what a press where the pointer is would do, in the canvas' `data-pan` (which the
    /// style sheet turns into a cursor): set on the element, not through a render.
    fn show_cursor(&self) {
        let Some(canvas) = self.canvas.cast::<HtmlCanvasElement>() else {
            return;
        };
        let on_target = self.hover.is_some_and(|at| self.on_target(at));
        annotate(&canvas, "pan", self.camera.cursor(on_target).name());
    }

    fn wheel(&mut self, event: &WheelEvent) -> bool {
        event.prevent_default();
        let ctrl = event.ctrl_key() || event.meta_key();
        let at = self.buffer_point(event);
        let zoomed = self
            .camera
            .wheel(event.delta_y(), event.delta_mode(), ctrl, at);
        if zoomed {
            self.draw();
        }
        // The zoom label in the toolbar follows.
        zoomed
    }

    fn pointer_down(&mut self, event: &PointerEvent) -> bool {
        let at = self.buffer_point(event);
        if let Some(canvas) = self.canvas.cast::<HtmlElement>() {
            let _ = canvas.focus();
            let _ = canvas.set_pointer_capture(event.pointer_id());
        }
        if event.button() == 1 {
            // Not the browser's autoscroll: the middle button pans.
            event.prevent_default();
        }
        self.camera.down(Touchdown {
            pointer: event.pointer_id(),
            at,
            button: event.button(),
            touch: event.pointer_type() == "touch",
            on_target: self.on_target(at),
        });
        false
    }

    fn pointer_move(&mut self, event: &PointerEvent) -> bool {
        let at = self.buffer_point(event);
        let moved = self.camera.moved(event.pointer_id(), at);
        self.hover = Some(at);
        self.show_cursor();
        if moved {
            // Only the canvas changed (a pinch's zoom label follows when it ends).
            self.draw();
        }
        false
    }

    fn pointer_up(&mut self, event: &PointerEvent) -> bool {
        self.camera.up(event.pointer_id());
        self.show_cursor();
        // The zoom label follows a pinch.
        true
    }

    // ----- the page -------------------------------------------------------------------------

    fn view_panel(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let size_error = parse_size(&self.width, &self.length).err();
        let starter_options = [("random", "Random"), ("red", "Red"), ("blue", "Blue")];
        html! {
            <aside class="panel soccer-panel">
                <h1>{ "Paper Soccer" }</h1>
                <p>
                    { "Red defends the top goal, blue the bottom one. Every step draws a line; \
                       landing on a point a line already touches means stepping again." }
                </p>
                <div class="size-form">
                    { size_input(link, "Width", "width", &self.width, Msg::Width) }
                    { size_input(link, "Length", "length", &self.length, Msg::Length) }
                </div>
                <div class="soccer-presets">
                    { for PRESETS.iter().map(|&(w, l)| html! {
                        <button type="button" class="chip"
                                onclick={link.callback(move |_| Msg::Preset(w, l))}>
                            { format!("{w}×{l}") }
                        </button>
                    }) }
                </div>
                if let Some(error) = size_error {
                    <p class="error" role="alert" data-testid="size-error">{ error.to_string() }</p>
                }
                { for [Side::Red, Side::Blue].into_iter().map(|side| self.view_side(ctx, side)) }
                <div class="soccer-row">
                    <label>
                        { "Who starts" }
                        <select data-testid="starter"
                                onchange={link.callback(|e: Event| Msg::Starter(select_value(&e)))}>
                            { for starter_options.iter().map(|&(value, text)| html! {
                                <option value={value} selected={self.starter.name() == value}>{ text }</option>
                            }) }
                        </select>
                    </label>
                    <label>
                        { "Engine seed" }
                        <input type="number" min="0" data-testid="seed" value={self.seed.clone()}
                               oninput={link.callback(|e: InputEvent| Msg::Seed(input_value(&e)))} />
                    </label>
                </div>
                if let Some(error) = &self.setup_error {
                    <p class="error" role="alert" data-testid="setup-error">{ error }</p>
                }
                <button type="button" class="button soccer-start" data-testid="start-game"
                        onclick={link.callback(|_| Msg::Start)}>
                    { "Start game" }
                </button>

                <h2 class="soccer-subhead">{ "Records" }</h2>
                <textarea class="soccer-record-input" data-testid="record-input" rows="3"
                          placeholder="8x10 red: 3/0/4452" spellcheck="false"
                          value={self.record_text.clone()}
                          oninput={link.callback(|e: InputEvent| {
                              Msg::RecordText(e.target_unchecked_into::<HtmlTextAreaElement>().value())
                          })} />
                <div class="soccer-actions">
                    <button type="button" class="button" data-testid="load-record"
                            onclick={link.callback(|_| Msg::LoadRecord)}>{ "Load record" }</button>
                    <label class="button ghost soccer-file">
                        { "Open file…" }
                        <input type="file" accept=".txt,.rec,text/plain" data-testid="record-file"
                               onchange={open_file(link.callback(Msg::FileOpened))} />
                    </label>
                </div>
                if let Some(error) = &self.load_error {
                    <p class="error" role="alert" data-testid="record-error">{ error }</p>
                }
            </aside>
        }
    }

    fn view_side(&self, ctx: &Context<Self>, side: Side) -> Html {
        let link = ctx.link();
        let setup = &self.sides[index(side)];
        let name = side.name();
        let title = match side {
            Side::Red => "Red (top goal)",
            Side::Blue => "Blue (bottom goal)",
        };
        // Left empty, a board still answers to its referee's clock (an emulated board's in
        // simulated time); a person or the page's engine then has none.
        let limit_placeholder = match BoardKind::from_value(&setup.kind) {
            Some(_) => MACHINE_LIMIT_MS.to_string(),
            None => "none".to_owned(),
        };
        html! {
            <fieldset class={classes!("soccer-side", name)}>
                <legend>{ title }</legend>
                <div class="soccer-row">
                    <label>
                        { "Player" }
                        <select data-testid={format!("side-{name}")}
                                onchange={link.callback(move |e: Event| Msg::Kind(side, select_value(&e)))}>
                            <option value="human" selected={setup.kind == "human"}>{ "Human" }</option>
                            <option value="engine" selected={setup.kind == "engine"}>{ "Engine" }</option>
                            <option value="serial" selected={setup.kind == "serial"}>{ "Serial port" }</option>
                            <option value="emulated" selected={setup.kind == "emulated"}>{ "Emulated board" }</option>
                        </select>
                    </label>
                    if setup.kind == "engine" {
                        <label class="narrow">
                            { "Level" }
                            <select data-testid={format!("level-{name}")}
                                    onchange={link.callback(move |e: Event| Msg::Level(side, select_value(&e)))}>
                                { for (0..=MAX_LEVEL).map(|level| html! {
                                    <option value={level.to_string()} selected={setup.level == level}>
                                        { if level == 0 { "0 · random".to_owned() } else { level.to_string() } }
                                    </option>
                                }) }
                            </select>
                        </label>
                    }
                    <label class="narrow">
                        { "Limit (ms)" }
                        <input type="number" min="1" placeholder={limit_placeholder} data-testid={format!("limit-{name}")}
                               value={setup.limit.clone()}
                               oninput={link.callback(move |e: InputEvent| Msg::Limit(side, input_value(&e)))} />
                    </label>
                </div>
                if let Some(kind) = BoardKind::from_value(&setup.kind) {
                    <BoardSetup boards={self.boards.clone()} side={side} kind={kind} />
                }
            </fieldset>
        }
    }

    fn view_stage(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let state = self.state_name();
        let legal: String = match (self.local_turn(), &self.live) {
            (true, Some(live)) => live
                .referee
                .game()
                .legal_steps()
                .iter()
                .map(|d| char::from(d.digit()))
                .collect(),
            _ => String::new(),
        };
        let to_move = self
            .shown()
            .filter(|r| r.outcome().is_none())
            .map(|r| r.to_move().name());
        let zoom = self.camera.label();
        let field_label = self.shown().map_or_else(
            || format!("{}×{}", self.width, self.length),
            |r| r.field().to_string(),
        );
        html! {
            <section class="stage soccer-stage">
                { self.view_status() }
                { self.view_result() }
                <div class="soccer-scroller">
                    <canvas ref={self.canvas.clone()} class="board-canvas soccer-board" tabindex="0"
                            data-testid="soccer-board" data-state={state} data-legal={legal}
                            data-to-move={to_move}
                            aria-label={format!("Paper Soccer field {field_label}: digits 0–7 or a click step the ball, Backspace takes a step back; the wheel or + and − zoom, dragging the paper (or anything with the space bar held) pans")}
                            onkeydown={link.callback(Msg::Key)}
                            onclick={link.callback(Msg::Click)}
                            onpointerdown={link.callback(Msg::PointerDown)}
                            onpointermove={link.callback(Msg::PointerMove)}
                            onpointerup={link.callback(Msg::PointerUp)}
                            onpointercancel={link.callback(Msg::PointerUp)} />
                </div>
                <div class="soccer-toolbar">
                    <div class="soccer-zoom" role="group" aria-label="Zoom">
                        <button type="button" class="chip" title="Zoom out" data-testid="zoom-out"
                                onclick={link.callback(|_| Msg::Zoom(-1))}>{ "−" }</button>
                        <button type="button" class="chip" title="Fit the field" data-testid="zoom-fit"
                                onclick={link.callback(|_| Msg::Zoom(0))}>{ zoom }</button>
                        <button type="button" class="chip" title="Zoom in" data-testid="zoom-in"
                                onclick={link.callback(|_| Msg::Zoom(1))}>{ "+" }</button>
                    </div>
                    { self.view_history(ctx) }
                </div>
                { self.view_record(ctx) }
                if self.sides.iter().any(|s| BoardKind::from_value(&s.kind).is_some()) {
                    <SerialMonitor log={self.boards.log()} />
                }
            </section>
        }
    }

    fn state_name(&self) -> &'static str {
        let Some(live) = &self.live else {
            return "setup";
        };
        match live.phase {
            Phase::Starting => "starting",
            Phase::Turn { .. } if live.players[index(live.referee.to_move())].is_local() => "human",
            Phase::Turn { .. } => "thinking",
            Phase::Animating { .. } => "animating",
            Phase::Over => "over",
            Phase::Review => "review",
        }
    }

    fn view_status(&self) -> Html {
        let Some(live) = &self.live else {
            return html! {
                <div class="soccer-status">
                    <span class="soccer-hint">{ "Choose the players and press Start game." }</span>
                </div>
            };
        };
        let to_move = live.referee.to_move();
        let running = matches!(live.phase, Phase::Turn { .. });
        let chip = |side: Side| {
            let i = index(side);
            let active =
                live.referee.outcome().is_none() && to_move == side && live.phase != Phase::Review;
            let clock = match (live.limits[i], live.phase) {
                (Some(limit), Phase::Turn { since }) if active => {
                    let left = (f64::from(limit) - (now() - since)).max(0.0);
                    format!("{:.1} s", left / 1000.0)
                }
                (Some(limit), _) => format!("{:.1} s", f64::from(limit) / 1000.0),
                (None, _) => String::new(),
            };
            let took = live.last_took[i].map(|ms| format!("last turn {:.2} s", ms / 1000.0));
            let who = if live.phase == Phase::Review {
                "record".to_owned()
            } else {
                live.kinds[i].describe()
            };
            html! {
                <div class={classes!("soccer-player", side.name(), active.then_some("active"))}
                     data-testid={format!("player-{}", side.name())}>
                    <span class="dot" />
                    <span class="name">{ format!("{} · {who}", capitalised(side)) }</span>
                    if let Some(took) = took.filter(|_| live.kinds[i].is_machine()) {
                        <span class="took" data-testid={format!("took-{}", side.name())}>{ took }</span>
                    }
                    if !clock.is_empty() {
                        <span class={classes!("clock", (active && running).then_some("running"))}
                              data-testid={format!("clock-{}", side.name())}>{ clock }</span>
                    }
                </div>
            }
        };
        let message = match (&self.notice, live.phase) {
            (Some(notice), _) => notice.clone(),
            (None, Phase::Review) => {
                "A loaded record: step through it, or continue from any turn.".into()
            }
            (None, Phase::Over) => String::new(),
            (None, Phase::Starting) => "Waiting for the engine to load…".into(),
            (None, Phase::Animating { .. }) => format!("{} plays.", capitalised(to_move)),
            (None, Phase::Turn { .. }) if live.players[index(to_move)].is_local() => {
                let steps = live.referee.partial().len();
                if steps == 0 {
                    format!(
                        "{} to move: click a ringed point or press 0–7.",
                        capitalised(to_move)
                    )
                } else {
                    format!(
                        "{} steps again (Backspace takes back).",
                        capitalised(to_move)
                    )
                }
            }
            (None, Phase::Turn { .. }) => format!("{} is thinking…", capitalised(to_move)),
        };
        html! {
            <div class="soccer-status">
                { chip(Side::Red) }
                { chip(Side::Blue) }
                <span class="soccer-hint" data-testid="status">{ message }</span>
            </div>
        }
    }

    fn view_result(&self) -> Html {
        let Some(live) = &self.live else {
            return Html::default();
        };
        let Some(Outcome { winner, reason }) = live.referee.outcome() else {
            return Html::default();
        };
        if matches!(live.phase, Phase::Animating { .. }) {
            return Html::default();
        }
        let why = match reason.name() {
            "goal" => "scored a goal",
            "own_goal" => "won by an own goal",
            "stuck" => "won: the opponent is stuck",
            "illegal_step" => "won: the opponent made an illegal step",
            "incomplete_turn" => "won: the opponent's turn was incomplete",
            "after_end" => "won: the opponent stepped after the turn ended",
            "timeout" => "won on time",
            _ => "won: the opponent left",
        };
        html! {
            <div class={classes!("soccer-result", winner.name())} data-testid="result" role="status"
                 data-winner={winner.name()} data-reason={reason.name()}>
                <strong>{ format!("{} wins", capitalised(winner)) }</strong>
                <span>{ format!(" — {why} ({reason}).") }</span>
            </div>
        }
    }

    fn view_history(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let Some(live) = &self.live else {
            return Html::default();
        };
        let total = live.referee.turns().len();
        let at = self.scrub.as_ref().map_or(total, |s| s.turns);
        let can_continue =
            self.shown().is_some_and(|r| r.outcome().is_none()) || self.scrub.is_some();
        let can_suggest = self.shown().is_some_and(|r| r.outcome().is_none());
        html! {
            <div class="soccer-history">
                <button type="button" class="chip" title="First position" data-testid="history-first"
                        onclick={link.callback(|_| Msg::ScrubTo(0))}>{ "«" }</button>
                <button type="button" class="chip" title="One turn back" data-testid="history-back"
                        onclick={link.callback(move |_| Msg::ScrubTo(at.saturating_sub(1)))}>{ "‹" }</button>
                <input type="range" min="0" max={total.to_string()} value={at.to_string()}
                       data-testid="history" aria-label="Turn"
                       oninput={link.callback(|e: InputEvent| Msg::ScrubTo(input_value(&e).parse().unwrap_or(0)))} />
                <button type="button" class="chip" title="One turn forward" data-testid="history-forward"
                        onclick={link.callback(move |_| Msg::ScrubTo(at + 1))}>{ "›" }</button>
                <button type="button" class="chip" title="Latest position" data-testid="history-last"
                        onclick={link.callback(move |_| Msg::ScrubTo(usize::MAX))}>{ "»" }</button>
                <span class="soccer-turn" data-testid="history-turn">{ format!("turn {at}/{total}") }</span>
                <button type="button" class="chip" data-testid="continue" disabled={!can_continue}
                        title="A new game from this position, with the sides set up on the left"
                        onclick={link.callback(|_| Msg::ContinueHere)}>{ "Continue from here" }</button>
                <button type="button" class="chip" data-testid="suggest" disabled={!can_suggest}
                        onclick={link.callback(|_| Msg::Suggest)}>{ "Suggest a turn" }</button>
            </div>
        }
    }

    fn view_record(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let record = self
            .live
            .as_ref()
            .map(|live| live.referee.record().to_string());
        let suggestion = self.suggestion.as_ref().map(|s| {
            if s.digits.is_empty() {
                "The engine is thinking…".to_owned()
            } else {
                format!("The engine suggests {}.", s.digits)
            }
        });
        html! {
            <div class="soccer-record">
                <div class="soccer-record-head">
                    <span>{ "Record" }</span>
                    if let Some(text) = suggestion {
                        <span class="soccer-suggestion" data-testid="suggestion">{ text }</span>
                    }
                    <span class="soccer-record-actions">
                        <button type="button" class="chip" data-testid="copy-record" disabled={record.is_none()}
                                onclick={link.callback(|_| Msg::Copy)}>{ "Copy" }</button>
                        <button type="button" class="chip" data-testid="download-record" disabled={record.is_none()}
                                onclick={link.callback(|_| Msg::Download)}>{ "Download" }</button>
                    </span>
                </div>
                if let Some(record) = record {
                    <code data-testid="record">{ record }</code>
                } else {
                    <code class="soccer-placeholder">{ "No game yet." }</code>
                }
            </div>
        }
    }
}

/// The steps open from the ball, each marked when arriving there means stepping again.
fn targets(game: &Game) -> Vec<Target> {
    game.legal_steps()
        .into_iter()
        .map(|dir| {
            let at = game.ball().step(dir);
            Target {
                at,
                bounce: game.is_bounce_point(at),
            }
        })
        .collect()
}

/// The points a turn's digits lead through, from `start` (drawing only: the engine judged
/// the turn when it chose it).
fn path_of(start: Point, digits: &str) -> Vec<Point> {
    let mut path = vec![start];
    let mut at = start;
    for dir in digits.bytes().filter_map(Dir::from_digit) {
        at = at.step(dir);
        path.push(at);
    }
    path
}

/// The field point nearest to buffer pixel `(px, py)`, if the pixel is within 0.45 squares.
fn point_near(view: &FieldView, px: f64, py: f64) -> Option<Point> {
    let (x0, y0) = view.point(0, 0);
    let square = f64::from(view.square().max(1));
    let fx = (px - f64::from(x0)) / square;
    let fy = (py - f64::from(y0)) / square;
    let (rx, ry) = (fx.round(), fy.round());
    let near = (fx - rx).hypot(fy - ry) <= 0.45;
    let fits = |v: f64| v.abs() < 1000.0;
    (near && fits(rx) && fits(ry)).then(|| Point::new(rx as i16, ry as i16))
}

/// A CSS pixel value as a float: web-sys types offsets and scroll positions as `f64` for
/// wasm32 and `i32` elsewhere.
fn css_px(value: impl Into<f64>) -> f64 {
    value.into()
}

fn capitalised(side: Side) -> &'static str {
    match side {
        Side::Red => "Red",
        Side::Blue => "Blue",
    }
}

/// One side of the field-size form, labelled `label`: the browser offers the even numbers in
/// 2..=254 that a field side may be (spec §1), and each edit is sent as `msg` of the text typed.
fn size_input(
    link: &yew::html::Scope<Soccer>,
    label: &'static str,
    testid: &'static str,
    value: &str,
    msg: fn(String) -> Msg,
) -> Html {
    html! {
        <label>
            { label }
            <input type="number" min="2" max="254" step="2" inputmode="numeric"
                   data-testid={testid} value={value.to_owned()}
                   oninput={link.callback(move |e: InputEvent| msg(input_value(&e)))} />
        </label>
    }
}

fn input_value(event: &InputEvent) -> String {
    event.target_unchecked_into::<HtmlInputElement>().value()
}

fn select_value(event: &Event) -> String {
    event
        .target_unchecked_into::<web_sys::HtmlSelectElement>()
        .value()
}

/// An `onchange` for a file input that reads the chosen file as text.
fn open_file(done: Callback<String>) -> Callback<Event> {
    Callback::from(move |event: Event| {
        let input = event.target_unchecked_into::<HtmlInputElement>();
        let Some(file) = input.files().and_then(|files| files.get(0)) else {
            return;
        };
        let done = done.clone();
        wasm_bindgen_futures::spawn_local(async move {
            if let Ok(text) = wasm_bindgen_futures::JsFuture::from(file.text()).await {
                done.emit(text.as_string().unwrap_or_default());
            }
        });
        input.set_value("");
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clicks_land_on_the_nearest_point() {
        // 8×10 in 800×600: 42 px squares; point (0, 0) is at view.point(0, 0).
        let view = FieldView::fit(8, 10, 800, 600);
        let (x0, y0) = view.point(0, 0);
        let (x0, y0) = (f64::from(x0), f64::from(y0));
        assert_eq!(point_near(&view, x0, y0), Some(Point::new(0, 0)));
        assert_eq!(
            point_near(&view, x0 + 42.0 * 4.0 + 10.0, y0 + 42.0 * 5.0 - 8.0),
            Some(Point::new(4, 5))
        );
        assert_eq!(
            point_near(&view, x0 + 21.0, y0 + 21.0),
            None,
            "the middle of a square"
        );
        assert_eq!(
            point_near(&view, x0 + 42.0 * 4.0, y0 - 42.0),
            Some(Point::new(4, -1))
        );
    }

    #[test]
    fn a_path_follows_the_digits() {
        let start = Point::new(4, 5);
        assert_eq!(
            path_of(start, "3452"),
            vec![
                Point::new(4, 5),
                Point::new(5, 6),
                Point::new(5, 7),
                Point::new(4, 8),
                Point::new(5, 8)
            ]
        );
    }

    #[test]
    fn targets_mark_bounce_points() {
        let field = Field::new(8, 10).unwrap();
        let game = Game::new(field, Side::Red);
        let targets = targets(&game);
        // From the centre: E and W run along the centre line; the other six steps are open
        // and land on points no line touches yet.
        assert_eq!(targets.len(), 6);
        for target in &targets {
            assert!(!target.bounce, "{:?}", target.at);
        }
    }
}
