//! The built-in player: alpha-beta over the distinct outcomes of whole turns, with a
//! transposition table keyed by Zobrist hashes, iteratively deepened within a budget of nodes
//! and, when the caller has a clock, of time (the search is in `tree.rs`, the evaluation in
//! `eval.rs`).
//!
//! The engine crate has no clock (WebAssembly has none, and tests must not depend on the
//! machine), so there are two ways to limit a search:
//!
//! * **Deterministic**: a budget of *nodes* (one node = one step drawn),
//!   [`Engine::new`] (a level) or [`Engine::with_budget`]. The same position, level and seed
//!   always give the same turn, on every machine: tests, leagues and reproducible matches.
//! * **Timed**: [`Engine::timed`] (milliseconds per turn) searched with
//!   [`Engine::analyse_with_clock`], given the caller's clock; a deterministic engine given a
//!   clock and [`Engine::with_time_cap`] also stops at the cap, as a safety net only.
//!
//! Level 0 plays uniformly at random among the legal turns (or, when there are more than
//! 4096, by a random walk of legal steps); levels 1..=[`MAX_LEVEL`] search with growing
//! budgets. The engine as it was before this search is kept in [`legacy`] for measuring.

pub mod eval;
pub mod legacy;
pub mod net;
mod table;
mod tree;
mod weights;
mod zobrist;

use std::sync::Arc;

use crate::rng::SplitMix64;

use super::game::{Game, StepEffect};
use super::protocol::Turn;
use super::turns::count_turns;

use table::Table;
use zobrist::Keys;

/// The strongest level; higher levels are clamped to it.
pub const MAX_LEVEL: u8 = 6;

/// The score of winning at once; a win `p` turns later scores `WIN - p`.
const WIN: i32 = 1_000_000;
/// Scores beyond this are proven wins or losses.
const PROVEN: i32 = WIN - 100_000;
const INF: i32 = i32::MAX;

/// The node budget of each level (index = level), in deterministic play. Level 1 sees one turn
/// ahead (the best outcome of its own turn by the evaluation). The Elo a doubling of the budget
/// buys falls with depth (about +140 below 500 steps, +50 above 3 K on 8×10), so the budgets
/// grow fourfold at the bottom and twenty-fourfold at the top, which measured 190–360 Elo a
/// level (README: the Elo ladder). Level 5's budget is about a twentieth of what the timed top
/// level searches in its 650 ms natively; level 6's is for deterministic play only (the top
/// level is timed).
const BUDGETS: [u64; MAX_LEVEL as usize + 1] = [0, 40, 150, 600, 5_000, 120_000, 6_000_000];

/// The time per turn of each level in timed play, milliseconds (level 6 is the contest's
/// 1000 ms turn minus [`safety_margin_ms`]).
pub const LEVEL_MILLIS: [u32; MAX_LEVEL as usize + 1] = [0, 10, 30, 80, 200, 400, 650];

/// A level as a menu shows it: what it does with its turn (random play, or the time its search
/// may take), so that a player picks an opponent by what it costs and how it plays, not by a
/// bare number. The same words in every level menu of the pages.
///
/// It describes [`Engine::at_level`]: levels below the top search a fixed number of steps,
/// the top level searches for a time.
pub fn level_label(level: u8) -> String {
    let level = level.min(MAX_LEVEL);
    match level {
        0 => "0 · random (weakest)".to_owned(),
        MAX_LEVEL => format!("{level} · {} ms a turn (strongest)", top_level_millis()),
        _ => {
            let budget = BUDGETS[usize::from(level)];
            let steps = if budget >= 1_000_000 {
                format!("{}M", budget as f64 / 1e6)
            } else if budget >= 1_000 {
                format!("{}k", budget as f64 / 1e3)
            } else {
                budget.to_string()
            };
            format!("{level} · {steps} steps a turn")
        }
    }
}

/// The time of the top level: the contest's turn minus its safety margin.
fn top_level_millis() -> u32 {
    level_millis(MAX_LEVEL, crate::soccer::protocol::TURN_MS)
}

/// How much of a referee's turn a timed engine leaves unused: 35 %, and at least 200 ms (the
/// thread may be descheduled on a busy machine between two looks at the clock — turns of
/// 100 ms were seen to take 284 ms at `nice -n 10` on the loaded 2-core machine — and the
/// answer still has to cross the wire).
pub fn safety_margin_ms(turn_ms: u64) -> u64 {
    (turn_ms * 35 / 100).max(200)
}

/// The time a timed engine of `level` may use within a referee's turn of `turn_ms`: the
/// level's time, never more than the turn minus its safety margin.
pub fn level_millis(level: u8, turn_ms: u64) -> u32 {
    let cap = turn_ms.saturating_sub(safety_margin_ms(turn_ms)).max(1);
    let cap = u32::try_from(cap).unwrap_or(u32::MAX);
    LEVEL_MILLIS[usize::from(level.min(MAX_LEVEL))].min(cap)
}

/// Nodes a timed engine searches per millisecond of its budget when it is given no clock.
const NODES_PER_MS: u64 = 3_000;

/// How the engine spends its budget.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Method {
    /// Alpha-beta over whole turns, iteratively deepened, with a transposition table.
    #[default]
    AlphaBeta,
    /// Unbounded best-first minimax over whole turns: deepens the lines that look best.
    BestFirst,
}

/// What a search found, from the point of view of the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// A proven win; the game ends within this many turns (the first being the engine's).
    Win(u32),
    /// A proven loss within this many turns.
    Loss(u32),
    /// A heuristic value: positive is good for the player to move.
    Eval(i32),
}

impl Score {
    fn from_raw(raw: i32) -> Score {
        if raw >= PROVEN {
            Score::Win((WIN - raw) as u32 + 1)
        } else if raw <= -PROVEN {
            Score::Loss((WIN + raw) as u32 + 1)
        } else {
            Score::Eval(raw)
        }
    }

    /// Whether the score is a proof rather than an estimate.
    pub fn is_proven(self) -> bool {
        !matches!(self, Score::Eval(_))
    }

    /// The probability that the player to move wins: 1 or 0 when proven, otherwise a
    /// logistic of the evaluation (an uncalibrated estimate, for a bar beside the field).
    pub fn win_probability(self) -> f64 {
        match self {
            Score::Win(_) => 1.0,
            Score::Loss(_) => 0.0,
            Score::Eval(v) => eval::win_probability(v),
        }
    }
}

/// The result of [`Engine::analyse`].
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The turn to play.
    pub turn: Turn,
    /// Its value.
    pub score: Score,
    /// The deepest search completed, in turns (0 for a random or forced choice).
    pub depth: u32,
    /// Steps tried.
    pub nodes: u64,
    /// The time the search took, by the caller's clock, when it gave one.
    pub millis: Option<f64>,
}

/// A Paper Soccer player. Deterministic for a given level (or budget) and seed, unless timed.
#[derive(Clone, Debug)]
pub struct Engine {
    level: u8,
    budget: u64,
    /// Milliseconds per turn, heeded when a clock is given.
    millis: Option<f64>,
    max_depth: u32,
    method: Method,
    seed: u64,
    rng: SplitMix64,
    /// The evaluation: the one in use, or a trainer's candidate.
    model: eval::Model,
    /// The Zobrist keys of the field last played on, kept from turn to turn.
    keys: Option<Arc<Keys>>,
    /// A timed engine's transposition table, kept from turn to turn on the same field (a
    /// position's value does not depend on how it was reached, so the next turn's search
    /// starts from what this one learnt); made afresh for another field.
    table: Option<Table>,
}

impl Engine {
    /// An engine of `level` (0 = random legal turns, 1..=[`MAX_LEVEL`] = search with a node
    /// budget growing four- to twenty-fourfold per level; higher values are clamped).
    /// Deterministic.
    pub fn new(level: u8, seed: u64) -> Engine {
        let level = level.min(MAX_LEVEL);
        Engine {
            level,
            budget: BUDGETS[usize::from(level)],
            millis: None,
            max_depth: u32::MAX,
            method: Method::default(),
            seed,
            rng: SplitMix64::new(seed),
            model: eval::Model::in_use(),
            keys: None,
            table: None,
        }
    }

    /// The engine a player picks by level (`engine:LEVEL` in the CLI, the level menus of the
    /// pages): below [`MAX_LEVEL`] a fixed number of nodes (the same games for the same seeds,
    /// on any machine), with the top level's time as a safety cap for a slow or busy machine;
    /// the top level is timed, the contest's 1000 ms turn minus a safety margin. Give it a clock
    /// ([`Engine::analyse_with_clock`]): without one it has no time limit.
    pub fn at_level(level: u8, seed: u64) -> Engine {
        let top = top_level_millis();
        if level >= MAX_LEVEL {
            Engine::timed(top, seed)
        } else {
            Engine::new(level, seed).with_time_cap(top)
        }
    }

    /// A searching engine with an explicit node budget (`u64::MAX` searches until the value
    /// of the position is proven, which is only sensible on tiny fields).
    pub fn with_budget(budget: u64, seed: u64) -> Engine {
        Engine {
            budget: budget.max(1),
            ..Engine::new(MAX_LEVEL, seed)
        }
    }

    /// A searching engine limited by time: `millis` per turn by the clock given to
    /// [`Engine::analyse_with_clock`] (without a clock, about 3,000 nodes per millisecond).
    pub fn timed(millis: u32, seed: u64) -> Engine {
        Engine {
            budget: u64::MAX,
            millis: Some(f64::from(millis.max(1))),
            ..Engine::new(MAX_LEVEL, seed)
        }
    }

    /// Also stops a search after `millis` by the caller's clock: for a deterministic engine,
    /// a safety net that only a very slow or busy machine reaches.
    pub fn with_time_cap(mut self, millis: u32) -> Engine {
        let millis = f64::from(millis.max(1));
        self.millis = Some(self.millis.map_or(millis, |m| m.min(millis)));
        self
    }

    /// Evaluates positions with `model` instead of the evaluation in use: for the training
    /// program, which measures a candidate against the one in use.
    pub fn with_model(mut self, model: eval::Model) -> Engine {
        self.model = model;
        self
    }

    /// Searches by `method` instead of alpha-beta (for measuring one against the other).
    pub fn with_method(mut self, method: Method) -> Engine {
        self.method = method;
        self
    }

    /// Limits the search depth, in turns (at least 1).
    pub fn with_max_depth(mut self, depth: u32) -> Engine {
        self.max_depth = depth.max(1);
        self
    }

    /// The level (for an engine made by [`Engine::with_budget`] or [`Engine::timed`],
    /// [`MAX_LEVEL`]).
    pub fn level(&self) -> u8 {
        self.level
    }

    /// The node budget per turn (0 for the random level, `u64::MAX` when timed).
    pub fn budget(&self) -> u64 {
        self.budget
    }

    /// The time limit per turn, in milliseconds, if any.
    pub fn millis(&self) -> Option<f64> {
        self.millis
    }

    /// The turn to play: always a legal complete turn of the player to move, or `None` when
    /// there is none (the game is over).
    pub fn choose_turn(&mut self, game: &Game) -> Option<Turn> {
        self.analyse(game).map(|a| a.turn)
    }

    /// Chooses a turn and says why, without a clock (a timed engine searches about 3,000
    /// nodes per millisecond of its time instead); `None` when there is no turn to play.
    pub fn analyse(&mut self, game: &Game) -> Option<Analysis> {
        self.analyse_inner(game, None)
    }

    /// Chooses a turn within the engine's time (if it has one) by `now`, a clock in
    /// milliseconds; [`Analysis::millis`] says how long it took.
    pub fn analyse_with_clock(&mut self, game: &Game, now: &dyn Fn() -> f64) -> Option<Analysis> {
        let start = now();
        let mut analysis = self.analyse_inner(game, Some((now, start)))?;
        analysis.millis = Some(now() - start);
        Some(analysis)
    }

    /// The probability that the player to move wins, by the static evaluation alone (no
    /// search: instant on any field). 0 or 1 once the game is over.
    pub fn evaluate(&self, game: &Game) -> f64 {
        match game.outcome() {
            Some(o) if o.winner == game.to_move() => 1.0,
            Some(_) => 0.0,
            None => eval::win_probability(eval::evaluate(game, &self.model, self.seed)),
        }
    }

    fn keys_for(&mut self, game: &Game) -> Arc<Keys> {
        match &self.keys {
            Some(k) if k.field() == *game.field() => Arc::clone(k),
            _ => {
                let k = Arc::new(Keys::new(*game.field()));
                self.keys = Some(Arc::clone(&k));
                self.table = None;
                k
            }
        }
    }

    fn analyse_inner(
        &mut self,
        game: &Game,
        clock: Option<(&dyn Fn() -> f64, f64)>,
    ) -> Option<Analysis> {
        if game.outcome().is_some() || game.legal_step_mask() == 0 {
            return None;
        }
        if self.budget == 0 {
            return Some(random_turn(game, &mut self.rng));
        }
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
        let (budget, deadline) = match (self.millis, clock) {
            (Some(ms), Some((now, start))) => (self.budget, Some((now, start + ms))),
            (Some(ms), None) if self.budget == u64::MAX => (ms as u64 * NODES_PER_MS, None),
            _ => (self.budget, None),
        };
        let keys = self.keys_for(game);
        let sized_for = match (self.millis, self.budget) {
            (Some(ms), u64::MAX) => ms as u64 * NODES_PER_MS,
            _ => budget,
        };
        let mut scratch;
        let table = if self.method == Method::BestFirst {
            // Best-first keeps its own tree: the table only has to exist.
            scratch = Table::new(1);
            &mut scratch
        } else if self.millis.is_some() && self.budget == u64::MAX {
            self.table
                .get_or_insert_with(|| Table::new(Table::bits_for(sized_for)))
        } else {
            // A deterministic engine's table lives for one search: an app keeps many such
            // engines (one per game of a league), and a kept table would hold megabytes each.
            scratch = Table::new(Table::bits_for(sized_for));
            &mut scratch
        };
        let mut search = tree::Search::new(
            game,
            &keys,
            table,
            budget,
            deadline,
            self.seed,
            self.model.clone(),
        );
        let found = match self.method {
            Method::AlphaBeta => search.root(self.max_depth),
            Method::BestFirst => tree::best_first::BestFirst::new().root(&mut search),
        };
        Some(Analysis {
            turn: Turn::from_steps(found.digits),
            score: Score::from_raw(found.score),
            depth: found.depth,
            nodes: search.nodes,
            millis: None,
        })
    }
}

/// Level 0: a uniformly random legal turn, or a random walk of legal steps when there are
/// more than 4096 turns.
fn random_turn(game: &Game, rng: &mut SplitMix64) -> Analysis {
    const CAP: u64 = 4096;
    let n = count_turns(game, CAP + 1);
    let turn = if n <= CAP {
        let k = rng.below(n) as usize;
        game.legal_turns().nth(k).expect("k < count")
    } else {
        let mut g = game.clone();
        let mut turn = Vec::new();
        loop {
            let steps = g.legal_steps();
            let dir = steps[rng.below(steps.len() as u64) as usize];
            turn.push(dir.digit());
            match g.step(dir).expect("a legal step") {
                StepEffect::Bounce => {}
                StepEffect::TurnOver | StepEffect::GameOver(_) => break,
            }
        }
        Turn::from_steps(turn)
    };
    Analysis {
        turn,
        score: Score::Eval(0),
        depth: 0,
        nodes: 0,
        millis: None,
    }
}

#[cfg(test)]
mod tests;
