//! The engine as it was before the transposition-table search ([`super::Engine`]): kept so the
//! match example and the bench can measure the new search against it in the same run (issue
//! 17 asks for "the new engine against the current one"). Nothing else plays it.
//!
//! It is a frozen copy, kept as the bench's and the match example's baseline: leave it as it is.
//! Its likeness to the new search ([`super`], `tree.rs`, `tests.rs`) is deliberate, not a rule
//! written twice.
//!
//! Iterative-deepening alpha-beta over complete turns, with a node budget.
//!
//! The engine has no clock (WebAssembly has none, and results must not depend on the machine):
//! its strength is set by a budget of *nodes*, one node being one step tried. A search at depth
//! `d` looks `d` complete turns ahead. Inside a turn the walk is depth-first over steps with an
//! explicit stack, because one turn can be thousands of steps long on a degenerate field; only
//! the recursion from one turn to the next uses the call stack.
//!
//! * Terminal positions score `±(WIN - ply)`: a goal (either goal) or a stuck mover, so the
//!   engine prefers the fastest win and the slowest loss. A depth-limited search that returns
//!   such a score has proved it, so deepening stops there.
//! * At the horizon the position is scored for the player to move by how much closer the ball
//!   is to the goal they attack than to the goal they defend (king-move distance), by the
//!   bounce chains they can start from there (steps onto points that already have a line,
//!   weighted by the progress they make), plus a small seeded jitter on the ball's point so
//!   different seeds vary their play.
//! * Steps are tried in order of the distance to the goal attacked, and the previous
//!   iteration's best turn is searched first at the root.
//! * The budget is checked only once a complete turn is known, so the engine always answers
//!   with a legal complete turn (possibly a losing one: an own goal or a walk into a dead end
//!   when nothing else exists).
//!
//! Level 0 plays uniformly at random among the legal turns (or, when there are more than
//! 4096, by a random walk of legal steps); levels 1..=[`MAX_LEVEL`] search with growing
//! budgets. Everything is deterministic for a given seed.

use crate::rng::SplitMix64;

use crate::soccer::field::Field;
use crate::soccer::game::{Game, StepEffect};
use crate::soccer::protocol::Turn;
use crate::soccer::turns::count_turns;
use crate::soccer::types::{Dir, Point, Side};

pub use super::{Analysis, Score};

/// The strongest level; higher levels are clamped to it.
pub const MAX_LEVEL: u8 = 6;

/// The score of winning at once; a win `p` turns later scores `WIN - p`.
const WIN: i32 = 1_000_000;
/// Scores beyond this are proven wins or losses.
const PROVEN: i32 = WIN - 100_000;
const INF: i32 = i32::MAX;

/// Evaluation weights: per square of ball progress, and per unit of [`Search::mobility`]
/// (tuned by engine-against-engine matches; see the README's tuning notes).
const PROGRESS: i32 = 16;
const MOBILITY: i32 = 6;

/// The node budget of each level (index = level). At about seven million nodes a second
/// natively (see `benches/soccer.rs`), the top level answers in under half a second, well
/// within the contest's 1000 ms per turn.
const BUDGETS: [u64; MAX_LEVEL as usize + 1] =
    [0, 2_000, 20_000, 200_000, 600_000, 1_500_000, 3_000_000];

/// A Paper Soccer player. Deterministic for a given level (or budget) and seed.
#[derive(Clone, Debug)]
pub struct Engine {
    level: u8,
    budget: u64,
    max_depth: u32,
    seed: u64,
    rng: SplitMix64,
}

impl Engine {
    /// An engine of `level` (0 = random legal turns, 1..=[`MAX_LEVEL`] = search with a node
    /// budget growing about tenfold per level; higher values are clamped).
    pub fn new(level: u8, seed: u64) -> Engine {
        let level = level.min(MAX_LEVEL);
        Engine {
            level,
            budget: BUDGETS[usize::from(level)],
            max_depth: u32::MAX,
            seed,
            rng: SplitMix64::new(seed),
        }
    }

    /// A searching engine with an explicit node budget (`u64::MAX` searches until the value
    /// of the position is proven, which is only sensible on tiny fields).
    pub fn with_budget(budget: u64, seed: u64) -> Engine {
        Engine {
            level: MAX_LEVEL,
            budget: budget.max(1),
            max_depth: u32::MAX,
            seed,
            rng: SplitMix64::new(seed),
        }
    }

    /// Limits the search depth, in turns (at least 1).
    pub fn with_max_depth(mut self, depth: u32) -> Engine {
        self.max_depth = depth.max(1);
        self
    }

    /// The level (for an engine made by [`Engine::with_budget`], [`MAX_LEVEL`]).
    pub fn level(&self) -> u8 {
        self.level
    }

    /// The node budget per turn (0 for the random level).
    pub fn budget(&self) -> u64 {
        self.budget
    }

    /// The turn to play: always a legal complete turn of the player to move, or `None` when
    /// there is none (the game is over).
    pub fn choose_turn(&mut self, game: &Game) -> Option<Turn> {
        self.analyse(game).map(|a| a.turn)
    }

    /// Chooses a turn and says why; `None` when there is no turn to play (the game is over,
    /// or, in theory only, the player to move has no step at all).
    pub fn analyse(&mut self, game: &Game) -> Option<Analysis> {
        self.analyse_until(game, None)
    }

    /// [`Engine::analyse`], also stopping once `clock` (milliseconds) passes `deadline` — the
    /// old engine had no clock; the match example gives it one to compare at equal time.
    pub fn analyse_until(
        &mut self,
        game: &Game,
        deadline: Option<(&dyn Fn() -> f64, f64)>,
    ) -> Option<Analysis> {
        if game.outcome().is_some() || game.legal_step_mask() == 0 {
            return None;
        }
        if self.budget == 0 {
            return Some(self.random_turn(game));
        }
        let mut search = Search::new(game, self.budget, self.seed);
        search.deadline = deadline;
        let mut best: Option<(Vec<u8>, i32)> = None;
        let mut depth_done = 0;
        if count_turns(game, 2) == 1 {
            let turn = game.legal_turns().next().expect("one turn");
            return Some(Analysis {
                turn,
                score: Score::Eval(0),
                depth: 0,
                nodes: 0,
                millis: None,
            });
        }
        for depth in 1..=self.max_depth {
            let (score, root) = search.root(depth, best.as_ref().map(|b| b.0.as_slice()));
            // A partial iteration searched the previous best turn first, so a turn it returns
            // is that one or a better one at this depth.
            if let Some(turn) = root {
                best = Some((turn, score));
                if !search.aborted {
                    depth_done = depth;
                }
            }
            if search.aborted || score.abs() >= PROVEN {
                break;
            }
        }
        let (turn, raw) = best.expect("the first iteration always finds a turn");
        Some(Analysis {
            turn: Turn::from_steps(turn),
            score: Score::from_raw(raw),
            depth: depth_done,
            nodes: search.nodes,
            millis: None,
        })
    }

    /// Level 0: see [`super::random_turn`].
    fn random_turn(&mut self, game: &Game) -> Analysis {
        super::random_turn(game, &mut self.rng)
    }
}

/// One frame of the in-turn walk: the steps to try from the current point, best first.
#[derive(Clone, Copy)]
struct Frame {
    order: [Dir; 8],
    len: u8,
    next: u8,
}

/// The state of one [`Engine::analyse`] call.
struct Search<'c> {
    deadline: Option<(&'c dyn Fn() -> f64, f64)>,
    game: Game,
    field: Field,
    nodes: u64,
    budget: u64,
    aborted: bool,
    /// A turn is known at the root, so the search may stop.
    can_stop: bool,
    seed: u64,
}

impl Search<'_> {
    fn new<'c>(game: &Game, budget: u64, seed: u64) -> Search<'c> {
        Search {
            deadline: None,
            game: game.clone(),
            field: *game.field(),
            nodes: 0,
            budget,
            aborted: false,
            can_stop: false,
            seed,
        }
    }

    /// The legal steps from the ball, nearest to the goal attacked by `side` first.
    fn frame(&self, side: Side) -> Frame {
        let mask = self.game.legal_step_mask();
        let ball = self.game.ball();
        let mut order = [Dir::N; 8];
        let mut keys = [0i16; 8];
        let mut len = 0;
        for d in Dir::ALL {
            if mask & (1 << d as u8) == 0 {
                continue;
            }
            let key = self.field.distance_to_goal(ball.step(d), side.opponent());
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

    /// The heuristic value of the position for the player to move: ball progress, plus the
    /// bounce chains the mover can start (see [`Search::mobility`]).
    fn eval(&self) -> i32 {
        let side = self.game.to_move();
        let ball = self.game.ball();
        let attack = i32::from(self.field.distance_to_goal(ball, side.opponent()));
        let defend = i32::from(self.field.distance_to_goal(ball, side));
        (defend - attack) * PROGRESS + self.mobility(side, ball) * MOBILITY + self.jitter(ball)
    }

    /// How well the player to move can chain: each legal step onto a bounce point (a free
    /// extra step) counts 1, plus the progress toward the goal attacked that it makes.
    fn mobility(&self, side: Side, ball: Point) -> i32 {
        let mask = self.game.legal_step_mask();
        let here = i32::from(self.field.distance_to_goal(ball, side.opponent()));
        let mut total = 0;
        for d in Dir::ALL {
            let q = ball.step(d);
            if mask & (1 << d as u8) != 0 && self.game.is_bounce_point(q) {
                let there = i32::from(self.field.distance_to_goal(q, side.opponent()));
                total += 1 + (here - there).max(0);
            }
        }
        total
    }

    fn jitter(&self, p: Point) -> i32 {
        let mut h = SplitMix64::new(self.seed ^ ((p.x as u64) << 16) ^ (p.y as u64 & 0xFFFF));
        (h.next_u64() & 7) as i32
    }

    /// Searches the root to `depth` turns, trying `pv` first; returns the best score and turn.
    fn root(&mut self, depth: u32, pv: Option<&[u8]>) -> (i32, Option<Vec<u8>>) {
        self.aborted = false;
        let mut best = -INF;
        let mut best_turn = None;
        if let Some(pv) = pv {
            let score = self.score_turn(pv, depth);
            if !self.aborted {
                best = score;
                best_turn = Some(pv.to_vec());
            }
        }
        if !self.aborted {
            let mut root = RootBest {
                skip: pv.map(<[u8]>::to_vec),
                score: best,
                turn: best_turn.take().unwrap_or_default(),
                found: best > -INF,
            };
            let score = self.turn(depth, 0, best.max(-INF + 1), INF, Some(&mut root));
            let _ = score;
            if root.found {
                best = root.score;
                best_turn = Some(root.turn);
            }
        }
        (best, best_turn)
    }

    /// Plays the complete turn `digits` and searches the rest to `depth` turns in all.
    fn score_turn(&mut self, digits: &[u8], depth: u32) -> i32 {
        let mover = self.game.to_move();
        let mut played = 0;
        let mut score = 0;
        for &b in digits {
            let dir = Dir::from_digit(b).expect("a turn of digits");
            self.nodes += 1;
            let effect = self.game.step(dir).expect("a legal turn");
            played += 1;
            match effect {
                StepEffect::Bounce => continue,
                StepEffect::GameOver(o) => score = if o.winner == mover { WIN } else { -WIN },
                StepEffect::TurnOver => {
                    score = if depth <= 1 {
                        -self.eval()
                    } else {
                        -self.turn(depth - 1, 1, -INF, INF, None)
                    }
                }
            }
        }
        for _ in 0..played {
            self.game.undo_step();
        }
        score
    }

    /// Negamax over the complete turns of the player to move, `depth` turns deep, `ply` turns
    /// below the root. At the root, `root` collects the best turn.
    fn turn(
        &mut self,
        depth: u32,
        ply: u32,
        mut alpha: i32,
        beta: i32,
        mut root: Option<&mut RootBest>,
    ) -> i32 {
        let mover = self.game.to_move();
        let win = WIN - ply as i32;
        let mut best = -INF;
        let mut stack = vec![self.frame(mover)];
        let mut path: Vec<u8> = Vec::new();
        while let Some(top) = stack.last_mut() {
            if top.next == top.len {
                stack.pop();
                if stack.is_empty() {
                    break;
                }
                self.game.undo_step();
                path.pop();
                continue;
            }
            let dir = top.order[usize::from(top.next)];
            top.next += 1;
            self.nodes += 1;
            let effect = self.game.step(dir).expect("ordered steps are legal");
            path.push(dir.digit());
            let score = match effect {
                StepEffect::Bounce => {
                    let frame = self.frame(mover);
                    stack.push(frame);
                    continue;
                }
                StepEffect::GameOver(o) => {
                    if o.winner == mover {
                        win
                    } else {
                        -win
                    }
                }
                StepEffect::TurnOver => {
                    if root
                        .as_ref()
                        .is_some_and(|r| r.skip.as_deref() == Some(path.as_slice()))
                    {
                        // Already searched first as the previous best turn.
                        self.game.undo_step();
                        path.pop();
                        continue;
                    }
                    if depth <= 1 {
                        -self.eval()
                    } else {
                        -self.turn(depth - 1, ply + 1, -beta, -alpha, None)
                    }
                }
            };
            self.game.undo_step();
            if self.aborted {
                self.unwind(stack.len() - 1);
                return best;
            }
            if let Some(r) = root.as_deref_mut() {
                if !r.found || score > r.score {
                    r.found = true;
                    r.score = score;
                    r.turn.clone_from(&path);
                }
                self.can_stop = true;
            }
            path.pop();
            if score > best {
                best = score;
                if best > alpha {
                    alpha = best;
                    if alpha >= beta {
                        self.unwind(stack.len() - 1);
                        return best;
                    }
                }
            }
            if self.can_stop
                && (self.nodes >= self.budget
                    || (self.nodes.is_multiple_of(1024)
                        && self.deadline.is_some_and(|(now, end)| now() >= end)))
            {
                self.aborted = true;
                self.unwind(stack.len() - 1);
                return best;
            }
        }
        if best == -INF {
            // No step at all at the start of the turn: stuck (cannot happen in play).
            return -win;
        }
        best
    }

    /// Takes back `steps` steps of the current turn.
    fn unwind(&mut self, steps: usize) {
        for _ in 0..steps {
            self.game.undo_step();
        }
    }
}

/// The best turn found so far at the root.
struct RootBest {
    /// A turn already scored before the walk (the previous iteration's best).
    skip: Option<Vec<u8>>,
    score: i32,
    turn: Vec<u8>,
    found: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::soccer::types::Outcome;

    fn legal(game: &Game, turn: &Turn) -> bool {
        let mut g = game.clone();
        g.play_turn(turn)
            .is_none_or(|o: Outcome| !o.reason.is_fault())
    }

    #[test]
    fn takes_a_goal_in_one() {
        // 2x2: red scores at once with 35 (3 to the corner, 5 into the mouth).
        let g = Game::new(Field::new(2, 2).unwrap(), Side::Red);
        let mut e = Engine::new(1, 7);
        let a = e.analyse(&g).unwrap();
        assert_eq!(a.score, Score::Win(1));
        let mut h = g.clone();
        assert_eq!(
            h.play_turn(&a.turn).map(|o| o.winner),
            Some(Side::Red),
            "{:?}",
            a.turn
        );
    }

    #[test]
    fn every_level_plays_legal_turns_on_odd_shapes() {
        for (w, l) in [(2, 2), (254, 2), (2, 254), (254, 254), (8, 10)] {
            let g = Game::new(Field::new(w, l).unwrap(), Side::Blue);
            for level in [0, 1, 2] {
                let turn = Engine::new(level, 3).choose_turn(&g).expect("a turn");
                assert!(legal(&g, &turn), "{w}x{l} level {level}: {turn:?}");
            }
        }
    }

    #[test]
    fn same_seed_same_turn() {
        let g = Game::new(Field::new(8, 10).unwrap(), Side::Red);
        let a = Engine::new(2, 11).choose_turn(&g);
        let b = Engine::new(2, 11).choose_turn(&g);
        assert_eq!(a, b);
    }
}
