//! The game flow of the soccer page, free of the browser: who is asked for a turn and when,
//! the turn clocks, the animation of delivered turns, the history scrubber and suggestions.
//!
//! Like the engine's [`referee`](engine::soccer::referee), it is a sans-IO state machine: the
//! page hands it inputs (a step, a delivered turn, a forfeit, a tick) together with the time
//! (`now`, milliseconds on any monotonic scale) and the players' readiness, and carries out the
//! [`Effect`]s it queues (asking a player, cancelling, asking the engine for a suggestion).
//! The rules stay the engine's ([`RecordedGame`] judges every step and turn) and so does the clock
//! ([`TurnClock`]: out of time at the deadline itself).

use std::collections::VecDeque;

use engine::soccer::record::Record;
use engine::soccer::referee::TurnClock;
use engine::soccer::search::Engine;
use engine::soccer::{BySide, Dir, Outcome, Point, Side};

use super::players::PlayerKind;
use super::recorded::{Progress, RecordedGame};

/// An animated turn takes at most this many ticks, however many steps it has.
pub const ANIMATION_TICKS: usize = 16;

/// What the game on screen is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// A machine is to move but not ready to be asked yet (its clock has not started).
    Starting,
    /// The player to move was asked (or, if local, may step) at `since`; `clock` runs if the
    /// side has a time limit.
    Turn {
        since: u64,
        clock: Option<TurnClock>,
    },
    /// A delivered turn is being drawn: `shown` of the lines are visible, up to `total`.
    Animating { shown: usize, total: usize },
    /// The game is over.
    Over,
    /// A loaded record, looked at: nobody plays.
    Review,
}

/// The moment of an input: the time and whether each side's player can be asked now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Moment {
    /// Milliseconds on the page's monotonic clock.
    pub now: u64,
    /// Red's and blue's readiness (a machine's worker or port may still be loading).
    pub ready: BySide<bool>,
}

/// What the page must do for the session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Ask `side`'s player for a turn in the position of `record` (every completed turn so
    /// far); its delivery must carry `token`.
    Ask {
        side: Side,
        token: u64,
        record: Record,
    },
    /// One side's player is no longer wanted to answer.
    Cancel(Side),
    /// Neither player is wanted to answer (the game ended or was left).
    CancelAll,
    /// Ask the engine for a suggestion in the position of `record` (dropping any earlier ask).
    Suggest(Record),
}

/// A game on screen.
struct Live {
    recorded: RecordedGame,
    kinds: BySide<PlayerKind>,
    limits: BySide<Option<u32>>,
    phase: Phase,
    /// The token of the last request; older deliveries are dropped.
    token: u64,
    /// How long the previous turn of each side took (ms), for the clock display.
    last_took: BySide<Option<u64>>,
    /// The last estimate a player gave with its turn: Red's chance once that many turns are
    /// complete.
    estimate: Option<(usize, f64)>,
}

/// The position shown while scrubbing through the history.
struct Scrub {
    turns: usize,
    recorded: RecordedGame,
}

/// A turn the engine suggested (or is thinking about).
struct Suggestion {
    /// The position it was asked for: completed turns, and where the ball was.
    turns: usize,
    ball: Point,
    digits: String,
    path: Vec<Point>,
    /// The probability that the player to move wins, by the engine's search (once it answered).
    win: Option<f64>,
    /// How the search went (once it answered).
    search: Option<SearchFigures>,
}

/// The engine's answer to a suggestion request (see [`Session::suggested`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Suggested {
    /// The digits of its turn.
    pub turn: String,
    /// The probability that the player to move wins, by its search.
    pub win: f64,
    pub search: SearchFigures,
}

/// How far and how fast the engine searched for a suggestion: the page shows them, and the
/// e2e suite compares them with `quadrille soccer analyse` (the same deterministic search in
/// WebAssembly and natively: the same depth and steps, at different speeds).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchFigures {
    /// Whole turns searched ahead.
    pub depth: u32,
    /// Steps tried.
    pub nodes: u64,
    /// The worker's time for the search, milliseconds.
    pub millis: f64,
}

/// The soccer page's game flow. See the module documentation.
#[derive(Default)]
pub struct Session {
    live: Option<Live>,
    scrub: Option<Scrub>,
    suggestion: Option<Suggestion>,
    notice: Option<String>,
    effects: VecDeque<Effect>,
}

/// One side's chip in the status line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chip {
    pub side: Side,
    /// Who plays it, e.g. `engine (level 3)`, or `record` when reviewing.
    pub who: String,
    /// Its turn now.
    pub active: bool,
    /// Its clock is running.
    pub running: bool,
    /// The time left (or the limit), e.g. `1.0 s`; `None` without a limit.
    pub clock: Option<String>,
    /// How long a machine's last turn took, e.g. `last turn 0.25 s`.
    pub took: Option<String>,
}

impl Session {
    /// The next effect to carry out, oldest first.
    pub fn poll_effect(&mut self) -> Option<Effect> {
        self.effects.pop_front()
    }

    /// Whether a game (or a loaded record) is on screen.
    pub fn has_game(&self) -> bool {
        self.live.is_some()
    }

    /// The phase of the game on screen.
    pub fn phase(&self) -> Option<Phase> {
        self.live.as_ref().map(|l| l.phase)
    }

    /// The game on screen, at its latest position.
    pub fn live(&self) -> Option<&RecordedGame> {
        self.live.as_ref().map(|l| &l.recorded)
    }

    /// The game shown: the scrubbed position or the live one.
    pub fn shown(&self) -> Option<&RecordedGame> {
        match &self.scrub {
            Some(scrub) => Some(&scrub.recorded),
            None => self.live(),
        }
    }

    /// The message of the status line, if one was set (a refused step, a copied record…).
    pub fn notice(&self) -> Option<&str> {
        self.notice.as_deref()
    }

    pub fn set_notice(&mut self, notice: impl Into<String>) {
        self.notice = Some(notice.into());
    }

    /// Starts a game from `recorded`'s position with players of `kinds` and turn `limits`
    /// (ms), replacing the one on screen (whose players the page has cancelled).
    pub fn start(
        &mut self,
        recorded: RecordedGame,
        kinds: BySide<PlayerKind>,
        limits: BySide<Option<u32>>,
        at: Moment,
    ) {
        self.replace(Live {
            recorded,
            kinds,
            limits,
            phase: Phase::Starting,
            token: 0,
            last_took: BySide::default(),
            estimate: None,
        });
        self.advance(at);
    }

    /// Shows a loaded record's game for review: nobody plays.
    pub fn review(&mut self, recorded: RecordedGame) {
        self.replace(Live {
            recorded,
            kinds: BySide::new(PlayerKind::Human, PlayerKind::Human),
            limits: BySide::default(),
            phase: Phase::Review,
            token: 0,
            last_took: BySide::default(),
            estimate: None,
        });
    }

    fn replace(&mut self, live: Live) {
        self.live = Some(live);
        self.scrub = None;
        self.suggestion = None;
        self.notice = None;
    }

    /// A player became ready (the engine's worker loaded): a waiting game goes on.
    pub fn ready(&mut self, at: Moment) {
        if self.phase() == Some(Phase::Starting) {
            self.advance(at);
        }
    }

    /// After the position changed: ends the game or asks the player to move.
    fn advance(&mut self, at: Moment) {
        let Some(live) = &mut self.live else { return };
        if live.phase == Phase::Review {
            return;
        }
        self.suggestion = None;
        if live.recorded.outcome().is_some() {
            live.phase = Phase::Over;
            self.effects.push_back(Effect::CancelAll);
            return;
        }
        let side = live.recorded.to_move();
        if !at.ready[side] {
            live.phase = Phase::Starting;
            return;
        }
        live.token += 1;
        let clock = live.limits[side].map(|ms| TurnClock::start(side, at.now, u64::from(ms)));
        live.phase = Phase::Turn {
            since: at.now,
            clock,
        };
        if live.kinds[side] != PlayerKind::Human {
            self.effects.push_back(Effect::Ask {
                side,
                token: live.token,
                record: live.recorded.record(),
            });
        }
    }

    /// A player's own chance of winning after the turn it is delivering for request `token`
    /// (the engine's, from its search): the win bar shows it once that turn is on the field.
    /// Call it before [`Session::delivered`].
    pub fn estimated(&mut self, token: u64, side: Side, win: f64) {
        let Some(live) = &mut self.live else { return };
        if !matches!(live.phase, Phase::Turn { .. })
            || token != live.token
            || side != live.recorded.to_move()
        {
            return;
        }
        let red = if side == Side::Red { win } else { 1.0 - win };
        live.estimate = Some((live.recorded.record().turns.len() + 1, red));
    }

    /// A player's whole turn arrived for request `token`: judged, then animated. A turn
    /// completed at or after its clock's deadline loses on time instead.
    pub fn delivered(&mut self, token: u64, side: Side, turn: &[u8], now: u64) {
        let Some(live) = &mut self.live else { return };
        let Phase::Turn { since, clock } = live.phase else {
            return;
        };
        if token != live.token || side != live.recorded.to_move() {
            return;
        }
        live.last_took[side] = Some(now.saturating_sub(since));
        if clock.is_some_and(|c| c.expired(now)) {
            live.recorded.time_out();
            live.phase = Phase::Over;
            return;
        }
        let before = live.recorded.lines().len();
        live.recorded.play_turn(turn);
        let total = live.recorded.lines().len();
        live.phase = Phase::Animating {
            shown: before,
            total,
        };
    }

    /// `side` lost without a turn to show (a board's timeout or disconnect, say).
    pub fn forfeit(&mut self, side: Side, outcome: Outcome) {
        if let Some(live) = &mut self.live
            && live.phase != Phase::Review
            && live.recorded.outcome().is_none()
            && outcome.winner == side.opponent()
        {
            self.effects.push_back(Effect::CancelAll);
            live.recorded.adjudicate(outcome);
            live.phase = Phase::Over;
        }
    }

    /// Whether the player at this screen may step now.
    pub fn local_turn(&self) -> bool {
        self.scrub.is_none()
            && self.live.as_ref().is_some_and(|live| {
                matches!(live.phase, Phase::Turn { .. })
                    && live.kinds[live.recorded.to_move()] == PlayerKind::Human
            })
    }

    /// A step of the player at this screen. Out of time, it loses instead.
    pub fn step(&mut self, dir: Dir, at: Moment) {
        if !self.local_turn() {
            return;
        }
        let Some(live) = &mut self.live else { return };
        let Phase::Turn { since, clock } = live.phase else {
            return;
        };
        if clock.is_some_and(|c| c.expired(at.now)) {
            live.recorded.time_out();
            live.phase = Phase::Over;
            return;
        }
        let side = live.recorded.to_move();
        match live.recorded.step(dir) {
            Ok(Progress::StepAgain) => {
                self.notice = None;
                self.suggestion = None;
            }
            Ok(Progress::TurnOver | Progress::GameOver(_)) => {
                live.last_took[side] = Some(at.now.saturating_sub(since));
                self.notice = None;
                self.advance(at);
            }
            Err(err) => self.notice = Some(format!("Not a legal step: {err}.")),
        }
    }

    /// A step towards `point` (a click): it must be next to the ball.
    pub fn step_to(&mut self, point: Point, at: Moment) {
        if !self.local_turn() {
            return;
        }
        let Some(ball) = self.live().map(|r| r.game().ball()) else {
            return;
        };
        match engine::soccer::field::dir_between(ball, point) {
            Some(dir) => self.step(dir, at),
            None => self.notice = Some("Click a point next to the ball.".into()),
        }
    }

    /// Takes back the local player's last step of the current turn.
    pub fn take_back(&mut self) {
        if !self.local_turn() {
            return;
        }
        if let Some(live) = &mut self.live
            && live.recorded.take_back()
        {
            self.notice = None;
        }
    }

    /// Lets time pass: the clock of the side on turn, and the animation. Returns whether
    /// anything shown changed (a running clock always does).
    pub fn tick(&mut self, at: Moment) -> bool {
        let Some(live) = &mut self.live else {
            return false;
        };
        match live.phase {
            Phase::Turn { clock: None, .. } => false,
            Phase::Turn {
                clock: Some(clock), ..
            } => {
                if clock.expired(at.now) {
                    self.effects.push_back(Effect::Cancel(clock.side()));
                    live.recorded.time_out();
                    live.phase = Phase::Over;
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
                    self.advance(at);
                }
                true
            }
            Phase::Starting | Phase::Over | Phase::Review => false,
        }
    }

    // ----- history and suggestions ------------------------------------------------------

    /// The turn the scrubber is at and the number of completed turns.
    pub fn history(&self) -> Option<(usize, usize)> {
        let total = self.live()?.turns().len();
        Some((self.scrub.as_ref().map_or(total, |s| s.turns), total))
    }

    /// Shows the position after `turns` completed turns (the latest one from there on).
    pub fn scrub_to(&mut self, turns: usize) {
        let Some(live) = &self.live else { return };
        if turns >= live.recorded.turns().len() {
            self.scrub = None;
        } else {
            self.scrub = Some(Scrub {
                turns,
                recorded: live.recorded.after_turns(turns),
            });
        }
        self.suggestion = None;
    }

    /// The position a new game would continue from ("Continue from here"), if it goes on.
    pub fn continue_from(&self) -> Option<RecordedGame> {
        self.shown()
            .map(|r| r.after_turns(usize::MAX))
            .filter(|r| r.outcome().is_none())
    }

    /// Whether "Continue from here" applies.
    pub fn can_continue(&self) -> bool {
        self.shown().is_some_and(|r| r.outcome().is_none()) || self.scrub.is_some()
    }

    /// Whether a suggestion can be asked for the position shown.
    pub fn can_suggest(&self) -> bool {
        self.shown().is_some_and(|r| r.outcome().is_none())
    }

    /// Asks the engine for a turn in the position shown.
    pub fn suggest(&mut self) {
        let Some(position) = self
            .shown()
            .filter(|r| r.outcome().is_none())
            .map(|r| r.after_turns(usize::MAX))
        else {
            return;
        };
        let record = position.record();
        self.suggestion = Some(Suggestion {
            turns: record.turns.len(),
            ball: position.game().ball(),
            digits: String::new(),
            path: Vec::new(),
            win: None,
            search: None,
        });
        self.effects.push_back(Effect::Suggest(record));
    }

    /// The engine's answer to [`Session::suggest`]: its turn, or why it refused.
    pub fn suggested(&mut self, answer: Result<Suggested, String>) {
        let Some(suggestion) = &mut self.suggestion else {
            return;
        };
        match answer {
            Ok(Suggested { turn, win, search }) => {
                suggestion.win = Some(win);
                suggestion.search = Some(search);
                let start = self
                    .scrub
                    .as_ref()
                    .map(|s| &s.recorded)
                    .or(self.live.as_ref().map(|l| &l.recorded))
                    .map(|r| r.after_turns(suggestion.turns).game().ball());
                suggestion.path = start.map_or_else(Vec::new, |start| path_of(start, &turn));
                suggestion.digits = turn;
            }
            Err(reason) => {
                self.suggestion = None;
                self.notice = Some(format!("No suggestion: {reason}."));
            }
        }
    }

    /// The chance that Red wins from the position shown, as the engine sees it: its search's
    /// estimate when it suggested a turn in this very position, or when an engine player's turn
    /// led to it; otherwise its static evaluation (instant on any field); 1 or 0 once the game
    /// is over. `None` without a game.
    pub fn red_chance(&self) -> Option<f64> {
        let shown = self.shown()?;
        let game = shown.game();
        if let Some(outcome) = shown.outcome() {
            return Some(if outcome.winner == Side::Red {
                1.0
            } else {
                0.0
            });
        }
        let turns = shown.record().turns.len();
        let searched = self
            .suggestion
            .as_ref()
            .filter(|s| s.ball == game.ball() && s.turns == turns)
            .and_then(|s| s.win);
        if let Some(mover) = searched {
            return Some(for_red(game.to_move(), mover));
        }
        let given = self
            .live
            .as_ref()
            .and_then(|l| l.estimate)
            .filter(|&(at, _)| at == turns && shown.partial().is_empty());
        if let Some((_, red)) = given {
            return Some(red);
        }
        Some(for_red(game.to_move(), Engine::new(0, 0).evaluate(game)))
    }

    /// The suggestion line of the record box, while one is asked for or shown.
    pub fn suggestion_text(&self) -> Option<String> {
        self.suggestion.as_ref().map(|s| {
            if s.digits.is_empty() {
                "The engine is thinking…".to_owned()
            } else if let Some(f) = s.search {
                let turns = if f.depth == 1 { "turn" } else { "turns" };
                format!(
                    "The engine suggests {} ({} {turns} ahead, {} steps in {:.0} ms).",
                    s.digits, f.depth, f.nodes, f.millis
                )
            } else {
                format!("The engine suggests {}.", s.digits)
            }
        })
    }

    /// How the engine searched for the suggestion shown, once it answered.
    pub fn suggestion_search(&self) -> Option<SearchFigures> {
        self.suggestion.as_ref().and_then(|s| s.search)
    }

    /// The points the suggested turn leads through (empty without one).
    pub fn suggestion_path(&self) -> &[Point] {
        self.suggestion.as_ref().map_or(&[], |s| s.path.as_slice())
    }

    // ----- what the page shows ----------------------------------------------------------

    /// The record to copy or download: with the verdict once the game is over.
    pub fn export(&self) -> Option<String> {
        Some(self.live()?.record_with_verdict().to_string())
    }

    /// How many of the live game's lines to draw while a turn is animated, if one is.
    pub fn animating(&self) -> Option<usize> {
        match (&self.scrub, self.phase()) {
            (None, Some(Phase::Animating { shown, .. })) => Some(shown),
            _ => None,
        }
    }

    /// The board's `data-state`: what a test may wait for.
    pub fn state_name(&self) -> &'static str {
        let Some(live) = &self.live else {
            return "setup";
        };
        match live.phase {
            Phase::Starting => "starting",
            Phase::Turn { .. } if live.kinds[live.recorded.to_move()] == PlayerKind::Human => {
                "human"
            }
            Phase::Turn { .. } => "thinking",
            Phase::Animating { .. } => "animating",
            Phase::Over => "over",
            Phase::Review => "review",
        }
    }

    /// The steps the local player may take now, as digits (empty when it is not their turn).
    pub fn legal_digits(&self) -> String {
        match self.live() {
            Some(recorded) if self.local_turn() => recorded
                .game()
                .legal_steps()
                .iter()
                .map(|d| char::from(d.digit()))
                .collect(),
            _ => String::new(),
        }
    }

    /// Both sides' chips at `now`.
    pub fn chips(&self, now: u64) -> Option<BySide<Chip>> {
        let live = self.live.as_ref()?;
        let to_move = live.recorded.to_move();
        let review = live.phase == Phase::Review;
        Some(BySide::from_fn(|side| {
            let active = live.recorded.outcome().is_none() && to_move == side && !review;
            let running = match live.phase {
                Phase::Turn { clock, .. } if active => clock,
                _ => None,
            };
            let clock = match (live.limits[side], running) {
                (Some(_), Some(clock)) => Some(seconds(clock.left(now), 1)),
                (Some(limit), None) => Some(seconds(u64::from(limit), 1)),
                (None, _) => None,
            };
            Chip {
                side,
                who: if review {
                    "record".to_owned()
                } else {
                    live.kinds[side].describe()
                },
                active,
                running: active && matches!(live.phase, Phase::Turn { .. }),
                clock,
                took: live.last_took[side]
                    .filter(|_| live.kinds[side].is_machine())
                    .map(|ms| format!("last turn {}", seconds(ms, 2))),
            }
        }))
    }

    /// The status line's message.
    pub fn status(&self) -> String {
        let Some(live) = &self.live else {
            return "Choose the players and press Start game.".into();
        };
        let to_move = capitalised(live.recorded.to_move());
        match (&self.notice, live.phase) {
            (Some(notice), _) => notice.clone(),
            (None, Phase::Review) => {
                "A loaded record: step through it, or continue from any turn.".into()
            }
            (None, Phase::Over) => String::new(),
            (None, Phase::Starting) => "Waiting for the engine to load…".into(),
            (None, Phase::Animating { .. }) => format!("{to_move} plays."),
            (None, Phase::Turn { .. }) if self.state_name() == "human" => {
                if live.recorded.game().steps_in_turn() == 0 {
                    format!("{to_move} to move: click a ringed point or press 0–7.")
                } else {
                    format!("{to_move} steps again (Backspace takes back).")
                }
            }
            (None, Phase::Turn { .. }) => format!("{to_move} is thinking…"),
        }
    }

    /// The result banner's outcome, once the game is over and its last turn drawn.
    pub fn result(&self) -> Option<Outcome> {
        let live = self.live.as_ref()?;
        if matches!(live.phase, Phase::Animating { .. }) {
            return None;
        }
        live.recorded.outcome()
    }
}

/// Red's chance, from the chance of `mover`, the player to move.
fn for_red(mover: Side, chance: f64) -> f64 {
    if mover == Side::Red {
        chance
    } else {
        1.0 - chance
    }
}

/// `ms` milliseconds as seconds with `decimals` decimals, e.g. `1.0 s`.
fn seconds(ms: u64, decimals: usize) -> String {
    format!("{:.*} s", decimals, ms as f64 / 1000.0)
}

/// A side's name with a capital, for sentences.
pub fn capitalised(side: Side) -> &'static str {
    match side {
        Side::Red => "Red",
        Side::Blue => "Blue",
    }
}

/// The points a turn's digits lead through, from `start` (drawing only: the engine judged
/// the turn when it chose it).
pub fn path_of(start: Point, digits: &str) -> Vec<Point> {
    let mut path = vec![start];
    let mut at = start;
    for dir in digits.bytes().filter_map(Dir::from_digit) {
        at = at.step(dir);
        path.push(at);
    }
    path
}

#[cfg(test)]
mod tests {
    use engine::soccer::Reason;
    use engine::soccer::field::Field;

    use super::*;

    const ENGINE: PlayerKind = PlayerKind::Engine { level: 1 };

    fn at(now: u64) -> Moment {
        Moment {
            now,
            ready: BySide::new(true, true),
        }
    }

    /// A session whose game (8x10, red to start) began at `now` with `kinds` and `limits`.
    fn started(kinds: BySide<PlayerKind>, limits: BySide<Option<u32>>, now: u64) -> Session {
        let mut session = Session::default();
        session.start(recorded(), kinds, limits, at(now));
        session
    }

    fn recorded() -> RecordedGame {
        RecordedGame::new(Field::new(8, 10).unwrap(), Side::Red)
    }

    fn effects(session: &mut Session) -> Vec<Effect> {
        std::iter::from_fn(|| session.poll_effect()).collect()
    }

    /// The token of the single `Ask` queued, for `side`.
    fn asked(session: &mut Session, side: Side) -> u64 {
        match effects(session).as_slice() {
            [Effect::Ask { side: s, token, .. }] if *s == side => *token,
            other => panic!("expected one ask of {side}: {other:?}"),
        }
    }

    /// Ticks until the animation of a delivered turn is over.
    fn finish_animation(session: &mut Session, now: u64) {
        for _ in 0..=ANIMATION_TICKS {
            if !matches!(session.phase(), Some(Phase::Animating { .. })) {
                return;
            }
            session.tick(at(now));
        }
        panic!("the animation did not end");
    }

    #[test]
    fn the_machine_is_asked_and_its_turn_is_animated_then_the_human_moves() {
        let mut session = started(
            BySide::new(ENGINE, PlayerKind::Human),
            BySide::new(Some(1000), None),
            0,
        );
        let token = asked(&mut session, Side::Red);
        assert_eq!(session.state_name(), "thinking");
        session.delivered(token, Side::Red, b"3", 250);
        assert_eq!(session.state_name(), "animating");
        assert!(session.result().is_none());
        finish_animation(&mut session, 260);
        assert_eq!(session.state_name(), "human");
        assert!(effects(&mut session).is_empty(), "a human is not asked");
        // Blue at (5, 6) may step anywhere but back along red's line (7).
        assert_eq!(session.legal_digits(), "0123456");
        let chips = session.chips(300).unwrap();
        assert_eq!(chips.red.took.as_deref(), Some("last turn 0.25 s"));
        assert_eq!(chips.blue.clock, None);
        assert!(chips.blue.active && chips.blue.running);
    }

    #[test]
    fn stale_and_wrong_side_deliveries_are_dropped() {
        let mut session = started(BySide::new(ENGINE, ENGINE), BySide::new(None, None), 0);
        let token = asked(&mut session, Side::Red);
        session.delivered(token + 1, Side::Red, b"3", 10);
        session.delivered(token, Side::Blue, b"3", 10);
        assert_eq!(session.state_name(), "thinking");
        session.delivered(token, Side::Red, b"3", 10);
        assert_eq!(session.live().unwrap().record().to_string(), "8x10 red: 3");
    }

    #[test]
    fn the_clock_is_the_engines_out_of_time_at_the_deadline_itself() {
        // A turn delivered one millisecond before the deadline counts …
        let mut session = started(
            BySide::new(ENGINE, ENGINE),
            BySide::new(Some(1000), None),
            5000,
        );
        let token = asked(&mut session, Side::Red);
        session.delivered(token, Side::Red, b"3", 5999);
        assert_eq!(session.live().unwrap().outcome(), None);
        // … one delivered at the deadline loses on time, like the engine's referee says.
        let mut session = started(
            BySide::new(ENGINE, ENGINE),
            BySide::new(Some(1000), None),
            5000,
        );
        let token = asked(&mut session, Side::Red);
        session.delivered(token, Side::Red, b"3", 6000);
        let outcome = session.live().unwrap().outcome().unwrap();
        assert_eq!(
            (outcome.winner, outcome.reason),
            (Side::Blue, Reason::Timeout)
        );
        assert_eq!(session.live().unwrap().record().to_string(), "8x10 red: ");
        let clock = TurnClock::start(Side::Red, 5000, 1000);
        assert!(!clock.expired(5999) && clock.expired(6000));
    }

    #[test]
    fn a_tick_at_the_deadline_times_the_mover_out_and_cancels_it() {
        let mut session = started(
            BySide::new(ENGINE, ENGINE),
            BySide::new(Some(500), Some(500)),
            0,
        );
        asked(&mut session, Side::Red);
        assert!(session.tick(at(499)), "a running clock is shown");
        assert_eq!(
            session.chips(499).unwrap().red.clock.as_deref(),
            Some("0.0 s")
        );
        assert_eq!(
            session.chips(100).unwrap().red.clock.as_deref(),
            Some("0.4 s")
        );
        assert_eq!(session.live().unwrap().outcome(), None);
        session.tick(at(500));
        assert_eq!(effects(&mut session), [Effect::Cancel(Side::Red)]);
        assert_eq!(session.state_name(), "over");
        assert_eq!(
            session.export().as_deref(),
            Some("8x10 red: # blue timeout")
        );
    }

    #[test]
    fn a_human_out_of_time_loses_instead_of_stepping() {
        let human = PlayerKind::Human;
        let mut session = started(BySide::new(human, human), BySide::new(Some(2000), None), 0);
        session.step(Dir::SE, at(1999));
        assert_eq!(session.live().unwrap().record().to_string(), "8x10 red: 3");
        // Blue has no limit; red's clock starts again when its turn comes.
        session.step(Dir::N, at(100_000));
        assert_eq!(session.state_name(), "human");
        assert_eq!(session.live().unwrap().partial(), b"0");
        session.take_back();
        assert_eq!(session.live().unwrap().partial(), b"");
        session.step(Dir::S, at(100_000));
        assert_eq!(session.live().unwrap().to_move(), Side::Red);
        session.step(Dir::S, at(102_000));
        let outcome = session.live().unwrap().outcome().unwrap();
        assert_eq!(
            (outcome.winner, outcome.reason),
            (Side::Blue, Reason::Timeout)
        );
    }

    #[test]
    fn refused_steps_and_clicks_say_why() {
        let human = PlayerKind::Human;
        let mut session = started(BySide::new(human, human), BySide::new(None, None), 0);
        session.step(Dir::E, at(1));
        assert!(
            session.status().starts_with("Not a legal step"),
            "{}",
            session.status()
        );
        session.step_to(Point::new(0, 0), at(1));
        assert_eq!(session.status(), "Click a point next to the ball.");
        session.step_to(Point::new(5, 6), at(1));
        assert_eq!(session.live().unwrap().record().to_string(), "8x10 red: 3");
        assert_eq!(
            session.status(),
            "Blue to move: click a ringed point or press 0–7."
        );
    }

    #[test]
    fn a_machine_not_ready_waits_and_is_asked_once_ready() {
        let mut session = Session::default();
        let waiting = Moment {
            now: 0,
            ready: BySide::new(false, true),
        };
        session.start(
            recorded(),
            BySide::new(ENGINE, ENGINE),
            BySide::new(Some(1000), None),
            waiting,
        );
        assert_eq!(session.state_name(), "starting");
        assert!(effects(&mut session).is_empty());
        // Its clock starts when it is asked, not before.
        session.ready(at(7000));
        asked(&mut session, Side::Red);
        session.tick(at(7999));
        assert_eq!(session.live().unwrap().outcome(), None);
        session.tick(at(8000));
        assert_eq!(session.state_name(), "over");
    }

    #[test]
    fn the_bar_shows_the_engines_own_estimate_after_its_turn_until_the_position_moves_on() {
        let mut session = started(
            BySide::new(ENGINE, PlayerKind::Human),
            BySide::new(None, None),
            0,
        );
        let token = asked(&mut session, Side::Red);
        let before = session.red_chance().unwrap();
        assert_eq!(
            before,
            Engine::new(0, 0).evaluate(session.shown().unwrap().game()),
            "the static evaluation, Red to move"
        );
        // A stale request's estimate is ignored; the current one's counts once its turn is in.
        session.estimated(token + 1, Side::Red, 0.1);
        session.estimated(token, Side::Red, 0.8);
        session.delivered(token, Side::Red, b"3", 250);
        finish_animation(&mut session, 300);
        assert_eq!(session.red_chance(), Some(0.8));
        // Blue's step makes a new position: the static evaluation again.
        session.step(Dir::S, at(400));
        let game = session.shown().unwrap().game();
        let static_red = for_red(game.to_move(), Engine::new(0, 0).evaluate(game));
        assert_ne!(static_red, 0.8);
        assert_eq!(session.red_chance(), Some(static_red));
    }

    #[test]
    fn a_forfeit_ends_the_game_for_the_opponent_only() {
        let mut session = started(BySide::new(ENGINE, ENGINE), BySide::new(None, None), 0);
        effects(&mut session);
        let blue_wins = Outcome {
            winner: Side::Blue,
            reason: Reason::Disconnect,
        };
        session.forfeit(Side::Blue, blue_wins);
        assert_eq!(
            session.live().unwrap().outcome(),
            None,
            "blue cannot forfeit a win"
        );
        session.forfeit(Side::Red, blue_wins);
        assert_eq!(effects(&mut session), [Effect::CancelAll]);
        assert_eq!(session.result(), Some(blue_wins));
        assert_eq!(session.red_chance(), Some(0.0));
        assert_eq!(session.export().unwrap(), "8x10 red: # blue disconnect");
    }

    #[test]
    fn the_scrubber_reads_the_games_history_and_continues_from_it() {
        let mut session = Session::default();
        let record = Record::parse("8x10 red: 3/01/2").unwrap();
        session.review(RecordedGame::from_record(&record).unwrap());
        assert_eq!(session.state_name(), "review");
        assert_eq!(session.history(), Some((3, 3)));
        session.scrub_to(1);
        assert_eq!(session.history(), Some((1, 3)));
        assert_eq!(session.shown().unwrap().record().to_string(), "8x10 red: 3");
        assert!(session.can_continue() && session.can_suggest());
        let from = session.continue_from().unwrap();
        assert_eq!(from.to_move(), Side::Blue);
        session.suggest();
        match effects(&mut session).as_slice() {
            [Effect::Suggest(record)] => assert_eq!(record.to_string(), "8x10 red: 3"),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            session.suggestion_text().unwrap(),
            "The engine is thinking…"
        );
        // Until the engine answers, the bar shows its static evaluation (Blue to move).
        let blue = Engine::new(0, 0).evaluate(session.shown().unwrap().game());
        assert_eq!(session.red_chance(), Some(1.0 - blue));
        assert_eq!(session.suggestion_search(), None);
        let search = SearchFigures {
            depth: 6,
            nodes: 600_012,
            millis: 41.5,
        };
        session.suggested(Ok(Suggested {
            turn: "0".into(),
            win: 0.75,
            search,
        }));
        // Then its search's estimate for the player to move, Blue, and how it searched.
        assert_eq!(session.red_chance(), Some(0.25));
        assert_eq!(session.suggestion_search(), Some(search));
        assert_eq!(
            session.suggestion_text().unwrap(),
            "The engine suggests 0 (6 turns ahead, 600012 steps in 42 ms)."
        );
        assert_eq!(
            session.suggestion_path(),
            [Point::new(5, 6), Point::new(5, 5)]
        );
        session.scrub_to(usize::MAX);
        assert_eq!(session.history(), Some((3, 3)));
        assert!(session.suggestion_text().is_none());
        assert_eq!(session.suggestion_search(), None, "gone with the position");
        let blue = Engine::new(0, 0).evaluate(session.shown().unwrap().game());
        assert_eq!(session.red_chance(), Some(1.0 - blue), "no search here");
        session.suggest();
        session.suggested(Err("over".into()));
        assert_eq!(session.status(), "No suggestion: over.");
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
}
