//! Best-first search over whole turns: unbounded best-first minimax (UBFM, Cohen-Solal 2020;
//! the search QtPaperSoccer's AI runs over its value network), the other way of spending a
//! budget that issue 17 asks to measure against the alpha-beta of [`super::Search::root`].
//!
//! Each iteration walks down from the root along the best turn of every expanded position (by
//! the values learnt so far, for the player to move there) to a position not yet expanded,
//! lists that position's distinct outcomes ([`super::Search::outcomes`]), scores each by the
//! opponent's best reply to it (its outcomes by the static evaluation, with a cut-off against
//! the best so far, as alpha-beta's horizon does), and backs the best value up the path as a
//! minimax value. The tree thus grows deep along the lines both sides believe best, and wide
//! only where the values are close; alpha-beta instead spends the same steps on every turn to
//! a uniform depth.
//!
//! * Values are relative to their position: a win this turn is `WIN`, a win `k` turns later
//!   `WIN - k` (the faster win and the slower loss are preferred), as the table stores them.
//! * An outcome after which the opponent can score at once is a proven loss. A position is
//!   *solved* when its best outcome is a solved win or all its outcomes are solved; solved
//!   outcomes are not walked into again, so the budget goes to what is still open.
//! * Positions are kept by Zobrist hash, so a position reached by two turn orders is expanded
//!   once (the game only ever adds lines: the positions form a graph without cycles).
//! * The limits are the search's own (steps, clock): an expansion cut short is thrown away and
//!   the root's best so far is played.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use crate::soccer::types::Dir;

use super::{Identity, Outcomes, RootResult, Search};
use crate::soccer::search::{INF, PROVEN, WIN};

/// At most this many outcomes kept in the tree (about 30 bytes each with their steps): past
/// it the search stops and plays its best so far.
const MAX_CHILDREN: usize = 4_000_000;
/// At most this many steps of outcomes kept (bytes).
const MAX_STEPS: usize = 64 << 20;

/// One outcome of an expanded position.
#[derive(Clone, Copy, Debug)]
struct Child {
    /// Its steps: `steps[start..start + len]` of the tree.
    start: u32,
    len: u32,
    solved: bool,
    /// Its value for the player to move in the position (the opponent of the one after it).
    value: i32,
}

/// An expanded position: its outcomes are `children[first..first + count]` of the tree.
#[derive(Clone, Copy, Debug)]
struct Node {
    first: u32,
    count: u32,
    /// The best outcome's value, and whether the position's value is proven.
    value: i32,
    solved: bool,
}

impl Node {
    /// The node of `children`, its value backed up from theirs.
    fn new(first: usize, children: &[Child]) -> Node {
        let mut node = Node {
            first: first as u32,
            count: children.len() as u32,
            value: -INF,
            solved: false,
        };
        node.back_up(children);
        node
    }

    fn range(&self) -> std::ops::Range<usize> {
        self.first as usize..self.first as usize + self.count as usize
    }

    /// Recomputes the node's value and whether it is solved from its children's.
    fn back_up(&mut self, children: &[Child]) {
        let mut best = -INF;
        let mut best_solved = false;
        let mut all_solved = true;
        for c in children {
            if c.value > best || (c.value == best && c.solved) {
                best = c.value;
                best_solved = c.solved;
            }
            all_solved &= c.solved;
        }
        self.value = best;
        self.solved = all_solved || (best_solved && best >= PROVEN);
    }
}

/// The child to walk into: the best of those not yet solved.
fn select(children: &[Child]) -> Option<usize> {
    let mut pick = None;
    let mut best = -INF;
    for (i, c) in children.iter().enumerate() {
        if !c.solved && (pick.is_none() || c.value > best) {
            best = c.value;
            pick = Some(i);
        }
    }
    pick
}

/// The turn to play: the best value (the first found among equals).
fn best(children: &[Child]) -> usize {
    let mut pick = 0;
    for (i, c) in children.iter().enumerate() {
        if c.value > children[pick].value {
            pick = i;
        }
    }
    pick
}

/// A value for the player after a turn, seen by the player before it.
fn negate(value: i32) -> i32 {
    if value >= PROVEN {
        -(value - 1)
    } else if value <= -PROVEN {
        -(value + 1)
    } else {
        -value
    }
}

type Nodes = HashMap<u64, Node, BuildHasherDefault<Identity>>;

/// The best-first search's tree, over one [`Search`]'s position and limits. Nodes, outcomes
/// and steps each live in one array (the tree is built and dropped at every turn).
pub(in crate::soccer::search) struct BestFirst {
    nodes: Nodes,
    children: Vec<Child>,
    steps: Vec<u8>,
    /// The deepest position expanded, in turns below the root.
    deepest: u32,
}

impl BestFirst {
    pub fn new() -> BestFirst {
        BestFirst {
            nodes: Nodes::default(),
            children: Vec::new(),
            steps: Vec::new(),
            deepest: 0,
        }
    }

    fn steps_of(&self, c: Child) -> &[u8] {
        &self.steps[c.start as usize..c.start as usize + c.len as usize]
    }

    /// Searches from `search`'s position until its limits run out (or the root is solved).
    pub fn root(&mut self, search: &mut Search<'_>) -> RootResult {
        let root = search.hash;
        // The root's own expansion: a win at once, a forced loss, or its outcomes (kept even
        // when the limits cut the listing short: then they are all the search has).
        match self.expand(search, 0) {
            Expanded::Win(digits) => {
                return RootResult {
                    digits,
                    score: WIN,
                    depth: 1,
                };
            }
            Expanded::Lost(digits) => {
                return RootResult {
                    digits,
                    score: -WIN,
                    depth: 1,
                };
            }
            Expanded::Cut | Expanded::Node => {}
        }
        let mut path = Vec::new();
        loop {
            let node = self.nodes[&root];
            if node.solved
                || search.aborted
                || self.children.len() >= MAX_CHILDREN
                || self.steps.len() >= MAX_STEPS
            {
                break;
            }
            path.clear();
            self.iterate(search, 0, &mut path);
        }
        let children = &self.children[self.nodes[&root].range()];
        let c = children[best(children)];
        RootResult {
            digits: self.steps_of(c).to_vec(),
            score: c.value,
            depth: self.deepest.max(1),
        }
    }

    /// One walk down from the current position (expanded) to a new one, and back up; returns
    /// the position's value and whether it is solved.
    fn iterate(&mut self, search: &mut Search<'_>, ply: u32, path: &mut Vec<u8>) -> (i32, bool) {
        let hash = search.hash;
        let Some(&node) = self.nodes.get(&hash) else {
            return match self.expand(search, ply) {
                Expanded::Win(_) => (WIN, true),
                Expanded::Lost(_) => (-WIN, true),
                Expanded::Cut => (0, false),
                Expanded::Node => {
                    self.deepest = self.deepest.max(ply + 1);
                    let n = self.nodes[&hash];
                    (n.value, n.solved)
                }
            };
        };
        let Some(i) = select(&self.children[node.range()]) else {
            return (node.value, node.solved);
        };
        let k = node.first as usize + i;
        let mark = path.len();
        path.extend_from_slice(self.steps_of(self.children[k]));
        for &digit in &path[mark..] {
            search.step(Dir::from_digit(digit).expect("digits of a turn"));
        }
        let (value, solved) = self.iterate(search, ply + 1, path);
        search.unwind(path.len() - mark);
        path.truncate(mark);
        if search.aborted {
            return (node.value, node.solved);
        }
        self.children[k].value = negate(value);
        self.children[k].solved = solved;
        let node = self.nodes.get_mut(&hash).expect("an expanded node stays");
        node.back_up(&self.children[node.range()]);
        (node.value, node.solved)
    }

    /// Lists and scores the outcomes of the position to move and keeps them as a node.
    fn expand(&mut self, search: &mut Search<'_>, ply: u32) -> Expanded {
        let hash = search.hash;
        let (children, losing) = match search.outcomes(ply) {
            Outcomes::Win(digits) => return Expanded::Win(digits),
            // The root keeps a listing cut short (it holds a turn: the limits only stop a
            // search that has one).
            Outcomes::List { .. } if search.aborted && ply > 0 => return Expanded::Cut,
            Outcomes::List { children, losing } => (children, losing),
        };
        if children.is_empty() {
            return Expanded::Lost(losing.expect("an open game has a turn"));
        }
        let mut children = children;
        // The statically best first: the replies' searches below cut off against it.
        children.sort_by_key(|c| std::cmp::Reverse(c.key));
        let mut values = Vec::with_capacity(children.len());
        let mut best = -INF + 1;
        for c in &children {
            // The outcome's value: the opponent's best reply by the static evaluation (a
            // proven loss when that reply scores), searched with a cut-off against the best
            // outcome so far — so below the best, a value is an upper bound.
            search.play(&c.digits);
            let (reply, _) = search.horizon(0, -INF + 1, negate(best).max(-INF + 1));
            search.take_back(&c.digits);
            if search.aborted {
                break;
            }
            let value = negate(reply);
            best = best.max(value);
            values.push(value);
        }
        if search.aborted {
            // A reply list cut short overrates its outcome: below the root the expansion is
            // dropped; the root keeps the outcomes scored in full or, when none was, scores
            // them by the static evaluation.
            if ply > 0 {
                return Expanded::Cut;
            }
            if values.is_empty() {
                values = children.iter().map(|c| c.key).collect();
            } else {
                children.truncate(values.len());
            }
        }
        let first = self.children.len();
        for (c, value) in children.iter().zip(values) {
            self.children.push(Child {
                start: self.steps.len() as u32,
                len: c.digits.len() as u32,
                solved: value >= PROVEN || value <= -PROVEN,
                value,
            });
            self.steps.extend_from_slice(&c.digits);
        }
        let node = Node::new(first, &self.children[first..]);
        self.nodes.insert(hash, node);
        Expanded::Node
    }
}

/// What [`BestFirst::expand`] found.
enum Expanded {
    /// The mover scores this turn, by these steps.
    Win(Vec<u8>),
    /// Every turn loses at once (own goal or stuck): these steps lose.
    Lost(Vec<u8>),
    /// The limits ran out while the turns were listed.
    Cut,
    Node,
}
