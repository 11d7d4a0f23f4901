//! A Paper Soccer position and the rules of steps, turns and the end of the game (spec §2, §3).
//!
//! # Decisions
//!
//! The spec leaves a few corners open; this module settles them, and the tests pin them down:
//!
//! * **Goal** ends the game at the step that scores, even in the middle of a bounce chain;
//!   anything after it in the same message is ignored ([`Game::play_turn`]). Scoring in one's own
//!   goal is an `own_goal` win for the opponent; in the opponent's goal, a `goal` win.
//! * **Stuck** is judged at the moment the ball arrives at a bounce point with no legal step
//!   left: the mover must step again and cannot, so the mover loses at once (`stuck`), before
//!   any further byte of the message is looked at. A turn can never *start* stuck: a turn ends
//!   only on a point that had no line, which then has exactly one line (the arrival) and seven
//!   free neighbours inside the field, and the kick-off point has six. [`Game::play_message`]
//!   still checks it, so the rule holds whatever the position.
//! * **Incomplete turn**: a message that stops while the mover must still step (on a bounce
//!   point with a legal step), including the empty message `{}`.
//! * **After end**: any byte after the step that ended the turn on a fresh point is a fault of
//!   the mover (`after_end`), whatever the byte is; the drawn turn stays drawn.
//! * **Illegal step**: a byte that is not `'0'..='7'`, a step off the field or through a
//!   goal-box corner, or along a drawn line. The steps before it stay drawn; the ball stays
//!   where the illegal step started.
//! * The turn that ends the game counts as played: [`Game::turn_number`] is `k` when the game
//!   ended during turn `k`, and [`Game::to_move`] names the player of that turn.

use thiserror::Error;

use super::field::Field;
use super::protocol::Turn;
use super::types::{Dir, Outcome, Point, Reason, Side};

/// What a legal step did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StepEffect {
    /// The ball arrived at a point that already had a line: the same player steps again.
    Bounce,
    /// The ball arrived at a fresh point: the turn is over and the opponent is to move.
    TurnOver,
    /// The step scored (in either goal) or left the mover stuck.
    GameOver(Outcome),
}

/// Why [`Game::step`] refused a step. The position is unchanged: a refused step is not a fault
/// here (a human's click can be refused); [`Game::play_message`] turns it into `illegal_step`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Error)]
pub enum IllegalStep {
    #[error("the game is over")]
    GameOver,
    #[error("step {dir} from {from} leaves the field")]
    OffField { from: Point, dir: Dir },
    #[error("step {dir} from {from} runs along a drawn line")]
    Drawn { from: Point, dir: Dir },
}

/// How a recorded step ended, for undo.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Ended {
    Bounce,
    Turn,
    Game,
}

/// One entry of the undo history.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Action {
    /// A drawn step; `pos` is how many steps of the same turn came before it.
    Step { dir: Dir, ended: Ended, pos: u32 },
    /// The game was ended without a step (a fault or an adjudication); the fields are what
    /// to restore.
    End {
        to_move: Side,
        turn_number: usize,
        steps_in_turn: u32,
    },
}

/// The initial per-point masks of a field: bit `d` is set when the step in direction `d` is
/// impossible, because its segment is pre-drawn or leaves the field.
///
/// Every point with a step leaving the field also has a pre-drawn line (borders, goal boxes),
/// and the ball can only stand on field points, so "mask ≠ 0" is exactly "a line touches the
/// point" wherever it matters: one byte answers both "is this step legal" and "is this a
/// bounce point". A test checks this invariant on many fields.
fn initial_masks(field: &Field) -> Vec<u8> {
    let mut masks = vec![0u8; field.index_len()];
    for (i, mask) in masks.iter_mut().enumerate() {
        let p = field.point_at(i);
        for d in Dir::ALL {
            if !field.segment_inside(p, d) {
                *mask |= 1 << d as u8;
            }
        }
    }
    for (a, b) in field.predrawn_segments() {
        let d = super::field::dir_between(a, b).expect("pre-drawn segments join neighbours");
        let (ia, ib) = (field.index(a), field.index(b));
        masks[ia.expect("on the grid")] |= 1 << d as u8;
        masks[ib.expect("on the grid")] |= 1 << d.reverse() as u8;
    }
    masks
}

/// A position: the field, every drawn line, the ball, whose turn it is, and the outcome once
/// the game has ended. Cloning copies one byte per point plus the history; search clones once
/// and then uses [`Game::step`] / [`Game::undo_step`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Game {
    field: Field,
    /// Per point (by [`Field::index`]): bit `d` set = no step in direction `d` (drawn or off).
    masks: Vec<u8>,
    ball: Point,
    to_move: Side,
    starter: Side,
    outcome: Option<Outcome>,
    turn_number: usize,
    steps_in_turn: u32,
    history: Vec<Action>,
}

impl Game {
    /// The kick-off position: the ball on the centre point, only the pre-drawn lines, `starter`
    /// to move.
    pub fn new(field: Field, starter: Side) -> Game {
        Game {
            masks: initial_masks(&field),
            ball: field.centre(),
            field,
            to_move: starter,
            starter,
            outcome: None,
            turn_number: 0,
            steps_in_turn: 0,
            history: Vec::new(),
        }
    }

    /// The field's geometry.
    pub fn field(&self) -> &Field {
        &self.field
    }

    /// Who played the first turn.
    pub fn starter(&self) -> Side {
        self.starter
    }

    /// Where the ball is (a goal point once a goal was scored).
    pub fn ball(&self) -> Point {
        self.ball
    }

    /// Whose turn it is; once the game is over, the player whose turn ended it.
    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// How the game ended, or `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Turns played so far. The turn that ended the game counts: a game that ended during
    /// turn `k` reports `k`.
    pub fn turn_number(&self) -> usize {
        self.turn_number
    }

    /// How many steps of the current (unfinished) turn are drawn: what a human may take back.
    pub fn steps_in_turn(&self) -> usize {
        self.steps_in_turn as usize
    }

    /// How many actions [`Game::undo_step`] can take back (steps, and the end of the game by a
    /// fault or adjudication).
    pub fn history_len(&self) -> usize {
        self.history.len()
    }

    /// The digits of the current turn's steps so far (empty at the start of a turn).
    pub fn current_turn(&self) -> Vec<u8> {
        let n = self.steps_in_turn as usize;
        if self.outcome.is_some() {
            return Vec::new();
        }
        self.history[self.history.len() - n..]
            .iter()
            .filter_map(|a| match a {
                Action::Step { dir, .. } => Some(dir.digit()),
                Action::End { .. } => None,
            })
            .collect()
    }

    /// The steps left from `p`: bit `d` set = no step in direction `d` (drawn, or off the
    /// field); every bit set for a point that does not exist. What the evaluation's network
    /// reads around the ball.
    pub fn step_mask_at(&self, p: Point) -> u8 {
        self.mask_at(p)
    }

    /// The step masks of the `len` points from `p` eastwards, when they all lie on the index
    /// grid (one row of it): a patch read without a bounds check per point.
    pub fn step_mask_row(&self, p: Point, len: usize) -> Option<&[u8]> {
        let end = Point {
            x: p.x + i16::try_from(len).ok()? - 1,
            y: p.y,
        };
        self.field.index(end)?;
        let start = self.field.index(p)?;
        self.masks.get(start..start + len)
    }

    fn mask_at(&self, p: Point) -> u8 {
        match self.field.index(p) {
            Some(i) => self.masks[i],
            None => 0xFF,
        }
    }

    /// Bit `d` set = the step in direction `d` is legal now. Zero once the game is over.
    pub fn legal_step_mask(&self) -> u8 {
        if self.outcome.is_some() {
            0
        } else {
            !self.mask_at(self.ball)
        }
    }

    /// The legal steps from the ball now, in digit order; empty once the game is over.
    pub fn legal_steps(&self) -> Vec<Dir> {
        let mask = self.legal_step_mask();
        Dir::ALL
            .into_iter()
            .filter(|&d| mask & (1 << d as u8) != 0)
            .collect()
    }

    /// Whether a line touches `p` (a border, the centre line, a goal box or an earlier step):
    /// arriving there makes the mover step again. False for points that do not exist.
    pub fn is_bounce_point(&self, p: Point) -> bool {
        self.field.contains(p) && self.mask_at(p) != 0
    }

    /// Whether the segment from `p` one step in `dir` is drawn (pre-drawn or by a step).
    pub fn is_drawn(&self, p: Point, dir: Dir) -> bool {
        self.field.segment_inside(p, dir) && self.mask_at(p) & (1 << dir as u8) != 0
    }

    /// Moves the ball one step for the player to move, drawing the segment.
    ///
    /// On a refused step nothing changes. Arriving at a bounce point with no legal step left
    /// ends the game at once: the mover is stuck and loses.
    pub fn step(&mut self, dir: Dir) -> Result<StepEffect, IllegalStep> {
        if self.outcome.is_some() {
            return Err(IllegalStep::GameOver);
        }
        let from = self.ball;
        let bit = 1u8 << dir as u8;
        let fi = self.field.index(from).expect("the ball is on the grid");
        if self.masks[fi] & bit != 0 {
            return Err(if self.field.segment_inside(from, dir) {
                IllegalStep::Drawn { from, dir }
            } else {
                IllegalStep::OffField { from, dir }
            });
        }
        let to = from.step(dir);
        let ti = self
            .field
            .index(to)
            .expect("a legal step stays on the grid");
        let bounce = self.masks[ti] != 0;
        self.masks[fi] |= bit;
        self.masks[ti] |= 1 << dir.reverse() as u8;
        self.ball = to;
        let pos = self.steps_in_turn;
        let mover = self.to_move;
        let (ended, effect) = if let Some(owner) = self.field.goal_of(to) {
            let outcome = if owner == mover {
                Outcome {
                    winner: mover.opponent(),
                    reason: Reason::OwnGoal,
                }
            } else {
                Outcome {
                    winner: mover,
                    reason: Reason::Goal,
                }
            };
            (Ended::Game, StepEffect::GameOver(outcome))
        } else if !bounce {
            (Ended::Turn, StepEffect::TurnOver)
        } else if self.masks[ti] == 0xFF {
            let outcome = Outcome {
                winner: mover.opponent(),
                reason: Reason::Stuck,
            };
            (Ended::Game, StepEffect::GameOver(outcome))
        } else {
            (Ended::Bounce, StepEffect::Bounce)
        };
        match effect {
            StepEffect::Bounce => self.steps_in_turn += 1,
            StepEffect::TurnOver => {
                self.to_move = mover.opponent();
                self.turn_number += 1;
                self.steps_in_turn = 0;
            }
            StepEffect::GameOver(outcome) => {
                self.outcome = Some(outcome);
                self.turn_number += 1;
                self.steps_in_turn = 0;
            }
        }
        self.history.push(Action::Step { dir, ended, pos });
        Ok(effect)
    }

    /// Takes back the last action: a step (even one that ended a turn or the game) or the
    /// end of the game by a fault or adjudication. Returns false when there is nothing to undo.
    /// The position afterwards equals (`==`) the one before that action.
    pub fn undo_step(&mut self) -> bool {
        match self.history.pop() {
            None => false,
            Some(Action::Step { dir, ended, pos }) => {
                let to = self.ball;
                let from = to.step(dir.reverse());
                let fi = self.field.index(from).expect("history stays on the grid");
                let ti = self.field.index(to).expect("history stays on the grid");
                self.masks[fi] &= !(1 << dir as u8);
                self.masks[ti] &= !(1 << dir.reverse() as u8);
                self.ball = from;
                match ended {
                    Ended::Bounce => {}
                    Ended::Turn => {
                        self.to_move = self.to_move.opponent();
                        self.turn_number -= 1;
                    }
                    Ended::Game => {
                        self.outcome = None;
                        self.turn_number -= 1;
                    }
                }
                self.steps_in_turn = pos;
                true
            }
            Some(Action::End {
                to_move,
                turn_number,
                steps_in_turn,
            }) => {
                self.outcome = None;
                self.to_move = to_move;
                self.turn_number = turn_number;
                self.steps_in_turn = steps_in_turn;
                true
            }
        }
    }

    /// Ends the game with `outcome`, charged to the turn of `player` (who becomes
    /// [`Game::to_move`]). `turn_number` is the turn it ended in.
    fn finish(&mut self, outcome: Outcome, player: Side, turn_number: usize) -> Outcome {
        self.history.push(Action::End {
            to_move: self.to_move,
            turn_number: self.turn_number,
            steps_in_turn: self.steps_in_turn,
        });
        self.outcome = Some(outcome);
        self.to_move = player;
        self.turn_number = turn_number;
        self.steps_in_turn = 0;
        outcome
    }

    /// Ends an unfinished game with a verdict the moves cannot show (a `timeout`, a
    /// `disconnect`, a protocol fault seen by a referee), during the turn of the player to
    /// move. Does nothing once the game is over. Undone by [`Game::undo_step`].
    pub fn adjudicate(&mut self, outcome: Outcome) {
        if self.outcome.is_none() {
            let (player, turn) = (self.to_move, self.turn_number + 1);
            self.finish(outcome, player, turn);
        }
    }

    /// Plays a whole turn for the player to move, with the spec's semantics (see the module's
    /// decisions). Returns the outcome when the game ended (a goal, an own goal, stuck, or a
    /// fault of the mover), `None` when the turn is over and the opponent is to move. If steps
    /// of this turn were already made with [`Game::step`], the turn continues it. Once the game
    /// is over this changes nothing and returns the existing outcome.
    pub fn play_turn(&mut self, turn: &Turn) -> Option<Outcome> {
        self.play_message(turn.digits())
    }

    /// Plays the payload of a `{…}` message exactly as it arrived, which a [`Turn`] cannot
    /// always hold: the empty message `{}` (an incomplete turn) and, for callers that skip
    /// the protocol's byte filter, bytes other than `0`–`7` (illegal steps). Otherwise the
    /// same as [`Game::play_turn`]; referees and record replays judge through this.
    pub fn play_message(&mut self, digits: &[u8]) -> Option<Outcome> {
        if let Some(outcome) = self.outcome {
            return Some(outcome);
        }
        let mover = self.to_move;
        let turn = self.turn_number + 1;
        let lose = |reason| Outcome {
            winner: mover.opponent(),
            reason,
        };
        let mut bytes = digits.iter();
        loop {
            if self.legal_step_mask() == 0 {
                return Some(self.finish(lose(Reason::Stuck), mover, turn));
            }
            let Some(&byte) = bytes.next() else {
                return Some(self.finish(lose(Reason::IncompleteTurn), mover, turn));
            };
            let Some(dir) = Dir::from_digit(byte) else {
                return Some(self.finish(lose(Reason::IllegalStep), mover, turn));
            };
            match self.step(dir) {
                Err(_) => return Some(self.finish(lose(Reason::IllegalStep), mover, turn)),
                Ok(StepEffect::Bounce) => {}
                Ok(StepEffect::GameOver(outcome)) => return Some(outcome),
                Ok(StepEffect::TurnOver) => {
                    if bytes.len() == 0 {
                        return None;
                    }
                    return Some(self.finish(lose(Reason::AfterEnd), mover, turn));
                }
            }
        }
    }

    /// Every drawn line, pre-drawn ones first, then the steps in the order they were played.
    pub fn drawn_segments(&self) -> Vec<(Point, Point)> {
        let mut out = self.field.predrawn_segments();
        out.extend(self.step_segments());
        out
    }

    /// The segments drawn by steps, in play order.
    pub fn step_segments(&self) -> Vec<(Point, Point)> {
        let mut at = self.field.centre();
        let mut out = Vec::new();
        for action in &self.history {
            if let Action::Step { dir, .. } = action {
                let next = at.step(*dir);
                out.push((at, next));
                at = next;
            }
        }
        out
    }

    /// The turns played so far as digit strings (a turn ended by a fault is not included; the
    /// current unfinished turn is, if it has steps).
    pub fn turns(&self) -> Vec<Turn> {
        let mut out: Vec<Vec<u8>> = Vec::new();
        let mut open = false;
        for action in &self.history {
            if let Action::Step { dir, ended, .. } = action {
                if !open {
                    out.push(Vec::new());
                    open = true;
                }
                out.last_mut().expect("pushed").push(dir.digit());
                if *ended != Ended::Bounce {
                    open = false;
                }
            }
        }
        out.into_iter().map(Turn::from_steps).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(w: u8, l: u8) -> Game {
        Game::new(Field::new(w, l).unwrap(), Side::Red)
    }

    #[test]
    fn a_nonzero_mask_means_a_line_touches_the_point() {
        // Every point with a step leaving the field carries a pre-drawn line, so the mask
        // alone tells bounce points apart (see `initial_masks`).
        for (w, l) in [
            (2, 2),
            (2, 4),
            (4, 2),
            (4, 4),
            (6, 8),
            (8, 10),
            (254, 2),
            (2, 254),
        ] {
            let f = Field::new(w, l).unwrap();
            let masks = initial_masks(&f);
            let predrawn = f.predrawn_segments();
            for (i, &m) in masks.iter().enumerate() {
                let p = f.point_at(i);
                if !f.is_field_point(p) {
                    continue;
                }
                let touched = predrawn.iter().any(|&(a, b)| a == p || b == p);
                assert_eq!(m != 0, touched, "{w}x{l} at {p}");
            }
        }
    }

    #[test]
    fn kick_off_has_six_steps_and_the_centre_line_blocks_east_west() {
        let g = game(8, 10);
        assert_eq!(g.ball(), Point::new(4, 5));
        let digits: Vec<u8> = g.legal_steps().iter().map(|d| d.digit()).collect();
        assert_eq!(digits, b"013457");
        assert!(g.is_bounce_point(g.ball()));
    }

    #[test]
    fn a_fresh_point_ends_the_turn_and_undo_restores_everything() {
        let mut g = game(8, 10);
        let before = g.clone();
        assert_eq!(g.step(Dir::S), Ok(StepEffect::TurnOver));
        assert_eq!(g.to_move(), Side::Blue);
        assert_eq!(g.turn_number(), 1);
        assert_eq!(
            g.step(Dir::N),
            Err(IllegalStep::Drawn {
                from: Point::new(4, 6),
                dir: Dir::N
            })
        );
        assert!(g.undo_step());
        assert_eq!(g, before);
        assert!(!g.undo_step());
    }

    #[test]
    fn steps_along_the_border_bounce() {
        // 2x2: the centre (1, 1) is on the centre line; every other field point is on a border.
        let mut g = game(2, 2);
        assert_eq!(g.step(Dir::SE), Ok(StepEffect::Bounce));
        assert_eq!(g.to_move(), Side::Red);
        assert_eq!(g.steps_in_turn(), 1);
        assert_eq!(g.current_turn(), b"3");
        // From the corner (2, 2) into the goal point (1, 3): inside the mouth, red scores.
        assert_eq!(
            g.step(Dir::SW),
            Ok(StepEffect::GameOver(Outcome {
                winner: Side::Red,
                reason: Reason::Goal
            }))
        );
        assert_eq!(g.turn_number(), 1);
        assert_eq!(g.step(Dir::N), Err(IllegalStep::GameOver));
    }

    #[test]
    fn own_goal_is_a_win_for_the_opponent() {
        let mut g = game(2, 2);
        // Red goes north into its own goal: (1,1) -> (2,0) -> (1,-1).
        assert_eq!(
            g.play_message(b"17"),
            Some(Outcome {
                winner: Side::Blue,
                reason: Reason::OwnGoal
            })
        );
    }

    #[test]
    fn play_turn_faults() {
        let lose = |reason| {
            Some(Outcome {
                winner: Side::Blue,
                reason,
            })
        };
        assert_eq!(game(8, 10).play_message(b""), lose(Reason::IncompleteTurn));
        assert_eq!(game(8, 10).play_message(b"2"), lose(Reason::IllegalStep));
        assert_eq!(game(8, 10).play_message(b"8"), lose(Reason::IllegalStep));
        assert_eq!(game(8, 10).play_message(b"44"), lose(Reason::AfterEnd));
        assert_eq!(game(8, 10).play_message(b"4x"), lose(Reason::AfterEnd));
        // Stop on a bounce point with steps left: along the right border on 2x2.
        assert_eq!(game(2, 2).play_message(b"3"), lose(Reason::IncompleteTurn));
        let mut g = game(8, 10);
        assert_eq!(g.play_message(b"44"), lose(Reason::AfterEnd));
        assert_eq!(g.to_move(), Side::Red);
        assert_eq!(g.turn_number(), 1);
        assert_eq!(g.ball(), Point::new(4, 6));
    }

    #[test]
    fn a_goal_mid_message_ignores_the_rest() {
        let mut g = game(2, 2);
        let out = g.play_message(b"3577777");
        assert_eq!(
            out,
            Some(Outcome {
                winner: Side::Red,
                reason: Reason::Goal
            })
        );
        assert_eq!(g.ball(), Point::new(1, 3));
    }

    #[test]
    fn corner_cut_is_refused_and_corners_can_trap() {
        let lose = |reason| {
            Some(Outcome {
                winner: Side::Blue,
                reason,
            })
        };
        // 6x2, m = 3: (3,1) -7-> (2,0) post -5-> (1,1) centre line -0-> (1,0) end line; the
        // diagonal from there to the goal point (2,-1) cuts the goal-box corner.
        let mut g = game(6, 2);
        assert_eq!(g.play_message(b"7501"), lose(Reason::IllegalStep));
        assert_eq!(g.ball(), Point::new(1, 0));
        // 4x2, m = 2: (2,1) -7-> (1,0) -4-> (1,1) -7-> (0,0): the corner's only other way out
        // would be the corner cut, so red is stuck there, whatever it sends next.
        let mut g = game(4, 2);
        assert_eq!(g.play_message(b"7471"), lose(Reason::Stuck));
        assert_eq!(g.ball(), Point::new(0, 0));
        // Inside the mouth every diagonal into the goal is open: (1,0) -1-> (2,-1), own goal.
        let mut g = game(4, 2);
        assert_eq!(
            g.step(Dir::NW).and_then(|_| g.step(Dir::NE)),
            Ok(StepEffect::GameOver(Outcome {
                winner: Side::Blue,
                reason: Reason::OwnGoal
            }))
        );
    }

    #[test]
    fn adjudication_ends_an_open_game_and_undoes() {
        let mut g = game(8, 10);
        assert_eq!(g.play_message(b"3"), None);
        let open = g.clone();
        let timeout = Outcome {
            winner: Side::Red,
            reason: Reason::Timeout,
        };
        g.adjudicate(timeout);
        assert_eq!(g.outcome(), Some(timeout));
        assert_eq!((g.to_move(), g.turn_number()), (Side::Blue, 2));
        assert!(g.legal_steps().is_empty());
        // A finished game keeps its first verdict.
        g.adjudicate(Outcome {
            winner: Side::Blue,
            reason: Reason::Disconnect,
        });
        assert_eq!(g.outcome(), Some(timeout));
        assert!(g.undo_step());
        assert_eq!(g, open);
    }

    #[test]
    fn turns_and_segments_follow_the_play() {
        let mut g = game(8, 10);
        assert_eq!(g.play_message(b"3"), None);
        assert_eq!(g.play_message(b"4"), None);
        assert_eq!(g.step(Dir::E), Ok(StepEffect::TurnOver));
        assert_eq!(
            g.turns().iter().map(Turn::as_str).collect::<Vec<_>>(),
            ["3", "4", "2"]
        );
        let steps = g.step_segments();
        assert_eq!(
            steps,
            vec![
                (Point::new(4, 5), Point::new(5, 6)),
                (Point::new(5, 6), Point::new(5, 7)),
                (Point::new(5, 7), Point::new(6, 7)),
            ]
        );
        let all = g.drawn_segments();
        assert_eq!(all.len(), g.field().predrawn_segments().len() + 3);
        assert!(g.is_drawn(Point::new(6, 7), Dir::W));
        assert!(g.is_drawn(Point::new(0, 3), Dir::S));
        assert!(!g.is_drawn(Point::new(6, 7), Dir::E));
        // The fresh points of the turns are now bounce points.
        assert!(g.is_bounce_point(Point::new(5, 6)));
        assert!(!g.is_bounce_point(Point::new(1, 1)));
        assert!(!g.is_bounce_point(Point::new(-1, 1)));
        // A faulty turn is not one of the played turns.
        assert!(g.play_message(b"6").is_some());
        assert_eq!(g.turns().len(), 3);
    }
}
