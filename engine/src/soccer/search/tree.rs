//! The search itself: negamax alpha-beta over the *distinct positions* a turn can reach,
//! iteratively deepened, with a transposition table.
//!
//! A turn is a walk of steps, and many walks draw the same lines and stop on the same point
//! (a bounce chain around a square can be walked either way round). The walk of one turn
//! therefore skips every mid-turn position it has already been in (same lines, same ball: the
//! same continuations), and every end position it has already produced; what is left are the
//! turn's distinct outcomes, each searched once. Across turns the transposition table does the
//! same for whole positions.
//!
//! * A goal for the mover found while walking a turn ends that node at once: a proven win.
//!   Own goals and walks into a dead end ("stuck") are kept only as a last resort. Scores of
//!   proven results are `±(WIN − ply)`, so the fastest win and the slowest loss are preferred.
//! * Interior nodes list their distinct outcomes, order them (the table's best first, then by
//!   the static evaluation of the outcome) and search them; the nodes one turn above the
//!   horizon evaluate each outcome as the walk produces it and cut off at once.
//! * The limits (nodes, and a clock when there is one) are checked at every step, the clock
//!   every 1,024 steps; once the root knows one complete turn, an exhausted limit unwinds the
//!   whole search. An iteration cut short keeps its result only when it searched the previous
//!   iteration's best turn first (then its best is at least as good at the deeper depth).

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use crate::soccer::game::{Game, StepEffect};
use crate::soccer::types::{Dir, Side};

use super::eval::{Model, evaluate};
use super::table::{Bound, Entry, Table};
use super::zobrist::Keys;
use super::{INF, PROVEN, WIN};

pub(super) mod best_first;

/// Zobrist hashes are already uniformly random: a set of them needs no further hashing.
#[derive(Default, Clone, Copy)]
struct Identity(u64);

impl Hasher for Identity {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

type HashSeen = HashSet<u64, BuildHasherDefault<Identity>>;

/// How near its goal (king moves) the ball must be for [`Search::threatens_goal`] to look,
/// and how many steps that look may take.
const THREAT_DISTANCE: i16 = 4;
const THREAT_STEPS: u32 = 200;

/// One distinct outcome of a turn that hands the move to the opponent.
#[derive(Clone, Debug)]
struct Child {
    digits: Vec<u8>,
    hash: u64,
    /// For ordering: the static value of the outcome for the mover, then the last search's.
    key: i32,
}

/// The outcomes of the turn to play.
enum Outcomes {
    /// A turn that scores for the mover.
    Win(Vec<u8>),
    /// The turns that hand over the move, and a turn that loses at once (own goal, stuck),
    /// when one exists; `complete` is false when the walk was cut short by the limits.
    List {
        children: Vec<Child>,
        losing: Option<Vec<u8>>,
    },
}

/// The steps to try from the ball, nearest to the goal attacked first.
#[derive(Clone, Copy)]
struct Frame {
    order: [Dir; 8],
    len: u8,
    next: u8,
}

/// What [`Search::walk_turn`] does after its visitor has seen a step.
enum Walk {
    /// The step bounced onto a new mid-turn position: walk the steps from there.
    Deeper,
    /// Take the step back and try the next one.
    Next,
    /// Take every step back and end the walk.
    Stop,
}

fn frame(game: &Game, mover: Side) -> Frame {
    let mask = game.legal_step_mask();
    let ball = game.ball();
    let field = game.field();
    let mut order = [Dir::N; 8];
    let mut keys = [0i16; 8];
    let mut len = 0;
    for d in Dir::ALL {
        if mask & (1 << d as u8) == 0 {
            continue;
        }
        let key = field.distance_to_goal(ball.step(d), mover.opponent());
        let mut i = len;
        while i > 0 && keys[i - 1] > key {
            order[i] = order[i - 1];
            keys[i] = keys[i - 1];
            i -= 1;
        }
        order[i] = d;
        keys[i] = key;
        len += 1;
    }
    Frame {
        order,
        len: len as u8,
        next: 0,
    }
}

/// A proven score as stored in the table: relative to the position, not the root.
fn to_table(score: i32, ply: u32) -> i32 {
    if score >= PROVEN {
        score + ply as i32
    } else if score <= -PROVEN {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: u32) -> i32 {
    if score >= PROVEN {
        score - ply as i32
    } else if score <= -PROVEN {
        score + ply as i32
    } else {
        score
    }
}

/// What the root search found.
pub(super) struct RootResult {
    pub digits: Vec<u8>,
    pub score: i32,
    pub depth: u32,
}

/// The state of one search.
pub(super) struct Search<'a> {
    game: Game,
    keys: &'a Keys,
    hash: u64,
    /// The hash before each step made, to take it back.
    undo_hashes: Vec<u64>,
    pub nodes: u64,
    budget: u64,
    clock: Option<(&'a dyn Fn() -> f64, f64)>,
    pub aborted: bool,
    /// The root knows a complete turn: the search may stop.
    can_stop: bool,
    table: &'a mut Table,
    /// Per ply: the positions the walk of the current turn has been in.
    seen: Vec<HashSeen>,
    /// The positions [`Search::threatens_goal`]'s walk has been in (kept to reuse its memory).
    threat_seen: HashSeen,
    seed: u64,
    model: Model,
}

impl<'a> Search<'a> {
    pub fn new(
        game: &Game,
        keys: &'a Keys,
        table: &'a mut Table,
        budget: u64,
        clock: Option<(&'a dyn Fn() -> f64, f64)>,
        seed: u64,
        model: Model,
    ) -> Search<'a> {
        Search {
            hash: keys.position(game),
            game: game.clone(),
            keys,
            undo_hashes: Vec::new(),
            nodes: 0,
            budget,
            clock,
            aborted: false,
            can_stop: false,
            table,
            seen: Vec::new(),
            threat_seen: HashSeen::default(),
            seed,
            model,
        }
    }

    fn step(&mut self, dir: Dir) -> StepEffect {
        let from = self.game.ball();
        let effect = self
            .game
            .step(dir)
            .expect("the search only makes legal steps");
        self.undo_hashes.push(self.hash);
        self.hash ^= self.keys.step(from, dir);
        if effect == StepEffect::TurnOver {
            self.hash ^= self.keys.blue;
        }
        self.nodes += 1;
        if self.can_stop
            && (self.nodes >= self.budget
                || (self.nodes.is_multiple_of(1024)
                    && self.clock.is_some_and(|(now, end)| now() >= end)))
        {
            self.aborted = true;
        }
        effect
    }

    fn undo(&mut self) {
        self.game.undo_step();
        self.hash = self.undo_hashes.pop().expect("a step to take back");
    }

    fn unwind(&mut self, steps: usize) {
        for _ in 0..steps {
            self.undo();
        }
    }

    fn eval(&self) -> i32 {
        evaluate(&self.game, &self.model, self.seed)
    }

    fn take_seen(&mut self, ply: u32) -> HashSeen {
        let ply = ply as usize;
        if self.seen.len() <= ply {
            self.seen.resize_with(ply + 1, HashSeen::default);
        }
        let mut seen = std::mem::take(&mut self.seen[ply]);
        seen.clear();
        seen
    }

    fn give_seen(&mut self, ply: u32, seen: HashSeen) {
        self.seen[ply as usize] = seen;
    }

    /// Walks the turn of the player to move and lists its distinct outcomes; stops at the
    /// first goal for the mover. Cut short (with what it has) when the limits run out.
    fn outcomes(&mut self, ply: u32) -> Outcomes {
        let mover = self.game.to_move();
        let mut seen = self.take_seen(ply);
        let mut children = Vec::new();
        let mut losing = None;
        let mut stack = vec![frame(&self.game, mover)];
        let mut path: Vec<u8> = Vec::new();
        let mut win = None;
        while let Some(top) = stack.last_mut() {
            if top.next == top.len {
                stack.pop();
                if stack.is_empty() {
                    break;
                }
                self.undo();
                path.pop();
                continue;
            }
            let dir = top.order[usize::from(top.next)];
            top.next += 1;
            let effect = self.step(dir);
            path.push(dir.digit());
            match effect {
                StepEffect::Bounce => {
                    if seen.insert(self.hash) {
                        stack.push(frame(&self.game, mover));
                        continue;
                    }
                }
                StepEffect::GameOver(o) => {
                    if o.winner == mover {
                        win = Some(path.clone());
                        self.undo();
                        self.unwind(stack.len() - 1);
                        break;
                    }
                    if losing.is_none() {
                        losing = Some(path.clone());
                    }
                    if ply == 0 {
                        self.can_stop = true;
                    }
                }
                StepEffect::TurnOver => {
                    if seen.insert(self.hash) {
                        children.push(Child {
                            digits: path.clone(),
                            hash: self.hash,
                            key: -self.eval(),
                        });
                        if ply == 0 {
                            self.can_stop = true;
                        }
                    }
                }
            }
            self.undo();
            path.pop();
            if self.aborted {
                self.unwind(stack.len() - 1);
                break;
            }
        }
        self.give_seen(ply, seen);
        match win {
            Some(digits) => Outcomes::Win(digits),
            None => Outcomes::List { children, losing },
        }
    }

    /// A node one turn above the horizon: the best of its outcomes by the static evaluation,
    /// walked lazily with a cut-off at `beta`.
    fn horizon(&mut self, ply: u32, mut alpha: i32, beta: i32) -> (i32, u64) {
        let mover = self.game.to_move();
        let win = WIN - ply as i32;
        let mut seen = self.take_seen(ply);
        let mut best = -INF;
        let mut best_hash = 0;
        self.walk_turn(mover, u32::MAX, |s, effect| {
            let score = match effect {
                StepEffect::Bounce => {
                    if seen.insert(s.hash) {
                        return Walk::Deeper;
                    }
                    None
                }
                StepEffect::GameOver(o) => Some(if o.winner == mover { win } else { -win }),
                StepEffect::TurnOver => seen.insert(s.hash).then(|| {
                    if s.threatens_goal() {
                        // The opponent scores on its turn: proven.
                        -(WIN - ply as i32 - 1)
                    } else {
                        -s.eval()
                    }
                }),
            };
            if s.aborted {
                return Walk::Stop;
            }
            if let Some(score) = score
                && score > best
            {
                best = score;
                best_hash = s.hash;
                if best > alpha {
                    alpha = best;
                    if alpha >= beta {
                        return Walk::Stop;
                    }
                }
            }
            Walk::Next
        });
        self.give_seen(ply, seen);
        if best == -INF {
            // No step at all (cannot happen in play: a turn never starts stuck).
            best = -win;
        }
        (best, best_hash)
    }

    /// Whether the player to move (at the start of a turn, near the goal it attacks) can
    /// score this turn: a walk of at most [`THREAT_STEPS`] steps, nearest the goal first, over
    /// distinct mid-turn positions. A `true` is a proof; a `false` only means none was found.
    fn threatens_goal(&mut self) -> bool {
        let mover = self.game.to_move();
        let field = self.game.field();
        if field.distance_to_goal(self.game.ball(), mover.opponent()) > THREAT_DISTANCE {
            return false;
        }
        let mut seen = std::mem::take(&mut self.threat_seen);
        seen.clear();
        let mut found = false;
        self.walk_turn(mover, THREAT_STEPS, |s, effect| match effect {
            StepEffect::Bounce if seen.insert(s.hash) => Walk::Deeper,
            StepEffect::GameOver(o) if o.winner == mover => {
                found = true;
                Walk::Stop
            }
            _ => Walk::Next,
        });
        self.threat_seen = seen;
        found
    }

    /// Walks the steps of `mover`'s turn depth-first, nearest the goal first, for at most
    /// `max_steps` steps: `visit` sees each step's effect with the step played and says whether
    /// to go on from there, try the next step, or stop; the position is back where it was when
    /// this returns.
    fn walk_turn(
        &mut self,
        mover: Side,
        max_steps: u32,
        mut visit: impl FnMut(&mut Self, StepEffect) -> Walk,
    ) {
        let mut stack = vec![frame(&self.game, mover)];
        let mut steps = 0;
        while let Some(top) = stack.last_mut() {
            if top.next == top.len || steps >= max_steps {
                stack.pop();
                if stack.is_empty() {
                    break;
                }
                self.undo();
                continue;
            }
            let dir = top.order[usize::from(top.next)];
            top.next += 1;
            steps += 1;
            let effect = self.step(dir);
            match visit(self, effect) {
                Walk::Deeper => stack.push(frame(&self.game, mover)),
                Walk::Next => self.undo(),
                Walk::Stop => {
                    self.undo();
                    self.unwind(stack.len() - 1);
                    break;
                }
            }
        }
    }

    /// Plays an outcome's steps.
    fn play(&mut self, digits: &[u8]) {
        for &b in digits {
            self.step(Dir::from_digit(b).expect("digits of a turn"));
        }
    }

    fn take_back(&mut self, digits: &[u8]) {
        self.unwind(digits.len());
    }

    /// Negamax value of the position for the player to move, `depth` turns deep, `ply` turns
    /// below the root.
    fn negamax(&mut self, depth: u32, ply: u32, mut alpha: i32, beta: i32) -> i32 {
        let key = self.hash;
        let alpha0 = alpha;
        let mut first = 0;
        if let Some(e) = self.table.probe(key) {
            first = e.best;
            if u32::from(e.depth) >= depth {
                let s = from_table(e.score, ply);
                match e.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        let (best, best_hash) = if depth <= 1 {
            self.horizon(ply, alpha, beta)
        } else {
            match self.outcomes(ply) {
                _ if self.aborted => return 0,
                Outcomes::Win(_) => (WIN - ply as i32, 0),
                Outcomes::List { children, .. } if children.is_empty() => (-(WIN - ply as i32), 0),
                Outcomes::List { mut children, .. } => {
                    children.sort_by_key(|c| std::cmp::Reverse(c.key));
                    if first != 0
                        && let Some(i) = children.iter().position(|c| c.hash == first)
                    {
                        children[..=i].rotate_right(1);
                    }
                    let mut best = -INF;
                    let mut best_hash = 0;
                    for child in &children {
                        self.play(&child.digits);
                        let score = -self.negamax(depth - 1, ply + 1, -beta, -alpha);
                        self.take_back(&child.digits);
                        if self.aborted {
                            return 0;
                        }
                        if score > best {
                            best = score;
                            best_hash = child.hash;
                            if best > alpha {
                                alpha = best;
                                if alpha >= beta {
                                    break;
                                }
                            }
                        }
                    }
                    (best, best_hash)
                }
            }
        };
        if self.aborted {
            return 0;
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table.store(Entry {
            key,
            best: best_hash,
            score: to_table(best, ply),
            depth: depth.min(u32::from(u16::MAX)) as u16,
            bound,
        });
        best
    }

    /// Iterative deepening at the root, up to `max_depth` turns.
    pub fn root(&mut self, max_depth: u32) -> RootResult {
        let (mut children, losing) = match self.outcomes(0) {
            Outcomes::Win(digits) => {
                return RootResult {
                    digits,
                    score: WIN,
                    depth: 1,
                };
            }
            Outcomes::List { children, losing } => (children, losing),
        };
        if children.is_empty() {
            return RootResult {
                digits: losing.expect("an open game has a turn"),
                score: -WIN,
                depth: 1,
            };
        }
        children.sort_by_key(|c| std::cmp::Reverse(c.key));
        let complete = !self.aborted;
        let mut best = RootResult {
            digits: children[0].digits.clone(),
            score: children[0].key,
            depth: 0,
        };
        if !complete {
            return best;
        }
        for depth in 1..=max_depth {
            let mut alpha = -INF;
            let mut found: Option<usize> = None;
            for (i, child) in children.iter_mut().enumerate() {
                self.play(&child.digits);
                let score = if depth == 1 {
                    -self.eval()
                } else {
                    -self.negamax(depth - 1, 1, -INF, -alpha.max(-INF + 1))
                };
                self.take_back(&child.digits);
                if self.aborted {
                    break;
                }
                child.key = score;
                if score > alpha {
                    alpha = score;
                    found = Some(i);
                }
            }
            if let Some(i) = found {
                // Cut short, this iteration still searched the previous best first.
                best = RootResult {
                    digits: children[i].digits.clone(),
                    score: alpha,
                    depth: if self.aborted { depth - 1 } else { depth },
                };
            }
            if self.aborted {
                break;
            }
            if alpha >= PROVEN || alpha <= -PROVEN {
                break;
            }
            // The best first; the rest by their (bounded) scores of this iteration.
            let i = found.expect("a complete iteration scores every turn");
            children[..=i].rotate_right(1);
            children[1..].sort_by_key(|c| std::cmp::Reverse(c.key));
        }
        best
    }
}
