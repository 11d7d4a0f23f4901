//! Multiplexer cones: the instructions whose results are used only through one input of one
//! `$mux` (or one case of one `$pmux`), which the generated code computes only when that input
//! is selected — what makes Verilator fast on `proc`-style netlists, where every branch of every
//! `if` and `case` is a cone.
//!
//! An instruction is placed in the innermost *context* from which all its readers are reached:
//! the top level, or the arm of a multiplexer (itself placed in a context, so cones nest).
//! Anything read at a clock edge (registers' inputs, memory ports) or watched by `run` stays at
//! the top level, exact after every cycle. A skipped cone's stored values go stale, but nothing
//! outside its arm reads them within a cycle; `run` recomputes every cone before it returns
//! (the *fixup*), so the host and the interpreter always find the interpreter's settled state.

use std::collections::{HashMap, HashSet};

use crate::compile::{Kind, Program};

use super::Watch;

/// The most cases of a `$pmux` whose cases become cones (a `br_table` of that many targets).
const MAX_CASES: u32 = 256;

/// Where an instruction is evaluated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Ctx {
    /// At the top level of its block: every settle that runs the block.
    Root,
    /// Inside arm `arm` of multiplexer `mux` (a `$mux`: 0 is `a`, 1 is `b`; a `$pmux`: 0 is
    /// the default `a`, `k + 1` is case `k`), when that arm is selected.
    Arm { mux: u32, arm: u32 },
    /// A gather that only assembles a `$pmux`'s cases, or only feeds a reduction (`|{a, b}`,
    /// `&{…}`, `!{…}`): never evaluated as such (the `$pmux` reads each case from its sources,
    /// the reduction reduces the sources' parts), only by the fixup.
    Absorbed { pmux: u32 },
}

/// The cones of a program.
pub(crate) struct Cones {
    pub ctx: Vec<Ctx>,
    /// Members of each arm, in evaluation order.
    pub arms: HashMap<(u32, u32), Vec<u32>>,
    /// Per `$pmux` (or reduction): the gather of its cases (its operand) it reads directly,
    /// if absorbed.
    pub absorbed: HashMap<u32, u32>,
    /// Per instruction: the top-level instruction whose code contains it (itself at the top).
    pub unit: Vec<u32>,
    /// The multiplexers with at least one cone or an absorbed gather.
    branching: HashSet<u32>,
}

impl Cones {
    /// No cones: every instruction at the top level.
    pub fn none(p: &Program) -> Cones {
        let n = p.insts.len();
        Cones {
            ctx: vec![Ctx::Root; n],
            arms: HashMap::new(),
            absorbed: HashMap::new(),
            unit: (0..n as u32).collect(),
            branching: HashSet::new(),
        }
    }

    /// Finds the cones of `p`; the instructions writing watched words stay at the top level.
    pub fn find(p: &Program, watch: &[Watch]) -> Cones {
        let n = p.insts.len();
        let nsig = p.inst_fanout_start.len().saturating_sub(1);
        let readers = |sig: u32| {
            let s = sig as usize;
            if s >= nsig {
                return &[][..];
            }
            &p.inst_fanout[p.inst_fanout_start[s] as usize..p.inst_fanout_start[s + 1] as usize]
        };
        let edge_read = |sig: u32| {
            let s = sig as usize;
            s < nsig && p.reg_fanout_start[s] != p.reg_fanout_start[s + 1]
        };
        let watched = |i: usize| {
            let y = p.insts[i].y;
            let words = y.words().max(1) as u32;
            watch
                .iter()
                .any(|w| w.word >= y.off && w.word < y.off + words)
        };
        let pinned = |i: usize| edge_read(p.insts[i].y.sig) || watched(i);
        let mut driver: Vec<Option<u32>> = vec![None; nsig];
        for (i, inst) in p.insts.iter().enumerate() {
            if let Some(d) = driver.get_mut(inst.y.sig as usize) {
                *d = Some(i as u32);
            }
        }
        let pmux_ok = |i: usize| {
            let inst = &p.insts[i];
            inst.kind == Kind::Pmux && inst.s.width >= 1 && inst.s.width <= MAX_CASES
        };

        let mut ctx = vec![Ctx::Root; n];
        let mut depth = vec![0u32; n];
        let mut absorbed: HashMap<u32, u32> = HashMap::new();
        // Readers come after what they read: decide from the last instruction back.
        for c in (0..n).rev() {
            let sig = p.insts[c].y.sig;
            let rs = readers(sig);
            if pinned(c) || rs.is_empty() {
                continue;
            }
            // A gather of a `$pmux`'s cases, read by nothing else: absorbed.
            if let Kind::Gather(_) = p.insts[c].kind
                && let [r] = *rs
                && pmux_ok(r as usize)
            {
                let pm = &p.insts[r as usize];
                if pm.b.sig == sig && pm.a.sig != sig && pm.s.sig != sig {
                    ctx[c] = Ctx::Absorbed { pmux: r };
                    depth[c] = depth[r as usize];
                    absorbed.insert(r, c as u32);
                    continue;
                }
            }
            // A gather of at most 64 bits reduced whole, read by nothing else: absorbed.
            if let Kind::Gather(_) = p.insts[c].kind
                && let [r] = *rs
                && reduces(p, r as usize, c)
            {
                ctx[c] = Ctx::Absorbed { pmux: r };
                depth[c] = depth[r as usize];
                absorbed.insert(r, c as u32);
                continue;
            }
            let parent = |x: Ctx, depth: &[u32], ctx: &[Ctx]| match x {
                Ctx::Arm { mux, .. } => (ctx[mux as usize], depth[mux as usize]),
                _ => (Ctx::Root, 0),
            };
            let depth_of = |x: Ctx, depth: &[u32]| match x {
                Ctx::Arm { mux, .. } => depth[mux as usize] + 1,
                _ => 0,
            };
            let mut here: Option<Ctx> = None;
            for &r in rs {
                let slot = slot(p, &ctx, r as usize, c, pmux_ok(r as usize));
                here = Some(match here {
                    None => slot,
                    Some(mut x) => {
                        // The lowest common ancestor of the two contexts.
                        let mut y = slot;
                        let (mut dx, mut dy) = (depth_of(x, &depth), depth_of(y, &depth));
                        while dx > dy {
                            (x, _) = parent(x, &depth, &ctx);
                            dx -= 1;
                        }
                        while dy > dx {
                            (y, _) = parent(y, &depth, &ctx);
                            dy -= 1;
                        }
                        while x != y {
                            (x, _) = parent(x, &depth, &ctx);
                            (y, _) = parent(y, &depth, &ctx);
                        }
                        x
                    }
                });
                if here == Some(Ctx::Root) {
                    break;
                }
            }
            let here = here.unwrap_or(Ctx::Root);
            ctx[c] = here;
            depth[c] = depth_of(here, &depth);
        }

        let mut arms: HashMap<(u32, u32), Vec<u32>> = HashMap::new();
        for (i, x) in ctx.iter().enumerate() {
            if let Ctx::Arm { mux, arm } = *x {
                arms.entry((mux, arm)).or_default().push(i as u32);
            }
        }
        let mut unit: Vec<u32> = (0..n as u32).collect();
        for i in (0..n).rev() {
            match ctx[i] {
                Ctx::Root => {}
                Ctx::Arm { mux: m, .. } | Ctx::Absorbed { pmux: m } => {
                    unit[i] = unit[m as usize];
                }
            }
        }
        let branching = arms
            .keys()
            .map(|&(m, _)| m)
            .chain(absorbed.keys().copied())
            .collect();
        Cones {
            ctx,
            arms,
            absorbed,
            unit,
            branching,
        }
    }

    /// The members of arm `arm` of multiplexer `mux`, in evaluation order.
    pub fn arm(&self, mux: usize, arm: u32) -> &[u32] {
        self.arms
            .get(&(mux as u32, arm))
            .map_or(&[][..], Vec::as_slice)
    }

    /// Whether multiplexer `i` has any cone (or reads its cases from an absorbed gather).
    pub fn branches(&self, i: usize) -> bool {
        self.branching.contains(&(i as u32))
    }
}

/// Whether instruction `r` is a reduction of the whole of gather `c` (of at most 64 bits), which
/// can then reduce the gather's parts where they are instead.
pub(crate) fn reduces(p: &Program, r: usize, c: usize) -> bool {
    use crate::ops::UnOp;
    let (ri, ci) = (&p.insts[r], &p.insts[c]);
    matches!(
        ri.kind,
        Kind::Un(UnOp::ReduceOr | UnOp::ReduceBool | UnOp::ReduceAnd | UnOp::LogicNot)
    ) && ri.a.sig == ci.y.sig
        && ri.a.off == ci.y.off
        && ri.a.width == ci.y.width
        && (1..=64).contains(&ci.y.width)
}

/// The context from which reader `r` needs instruction `c`'s result: the arm it reads it
/// through, when `r` is a multiplexer reading it through one data input only; else `r`'s own.
fn slot(p: &Program, ctx: &[Ctx], r: usize, c: usize, pmux_ok: bool) -> Ctx {
    let ri = &p.insts[r];
    let sig = p.insts[c].y.sig;
    match ri.kind {
        Kind::Mux => {
            let (a, b, s) = (ri.a.sig == sig, ri.b.sig == sig, ri.s.sig == sig);
            if !s && a != b {
                return Ctx::Arm {
                    mux: r as u32,
                    arm: u32::from(b),
                };
            }
        }
        Kind::Pmux if pmux_ok && ri.a.sig == sig && ri.b.sig != sig && ri.s.sig != sig => {
            return Ctx::Arm {
                mux: r as u32,
                arm: 0,
            };
        }
        Kind::Gather(g) => {
            if let Ctx::Absorbed { pmux } = ctx[r] {
                if p.insts[pmux as usize].kind != Kind::Pmux {
                    // Absorbed by a reduction: read where the reduction is.
                    return ctx[pmux as usize];
                }
                // The cases of the `$pmux` that take bits of `c`.
                let pm = &p.insts[pmux as usize];
                let w = pm.y.width.max(1);
                let off = p.insts[c].y.off;
                let mut case = None;
                let mut one = true;
                for s in &p.gathers[g as usize].segments {
                    if s.src_off != off || s.len == 0 {
                        continue;
                    }
                    let (lo, hi) = (s.dst_bit / w, (s.dst_bit + s.len - 1) / w);
                    if lo != hi || case.is_some_and(|k| k != lo) {
                        one = false;
                    }
                    case = Some(lo);
                }
                return match case {
                    Some(k) if one && pm.y.width > 0 => Ctx::Arm {
                        mux: pmux,
                        arm: k + 1,
                    },
                    _ => ctx[pmux as usize],
                };
            }
        }
        _ => {}
    }
    ctx[r]
}
