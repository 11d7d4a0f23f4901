//! [`Program`] → WebAssembly bytes.
//!
//! The module's interface (exports, memory layout, what `run` returns) is [`crate::wasm`]'s
//! [`WasmModule`](super::WasmModule); what is covered is listed there, and [`check`] refuses the
//! rest before anything is emitted.
//!
//! # Skipping what did not change
//!
//! With [`Options::tracking`] (the default) the code does what the interpreter does, at a
//! coarser grain: instructions are cut, in evaluation order, into *blocks* of about [`BLOCK`],
//! and blocks into *groups* of up to [`GROUP`] blocks (one function each, with a mask word: bit
//! `k` for its block `k`). A block runs only when one of its inputs changed: an instruction
//! whose result differs from the stored one sets the bit of every later block that reads it
//! (readers in its own block run anyway, after it). A group runs its marked blocks lowest
//! first, jumping to each through a `br_table` on the mask's lowest set bit, so unmarked blocks
//! cost nothing. Registers are cut into *chunks* of [`CHUNK`] per clock edge, and each
//! synchronous read port is a chunk of its own, with a bit per chunk in mask words: a chunk is
//! staged only when one of its inputs changed (or, for a read port, its memory was written),
//! and an edge visits the marked chunks the same way, lowest bit first (so a register that
//! changes every cycle, a counter, costs its own chunk and not a test of every other chunk).
//! Write ports are evaluated at every edge. A design doing little (the reference player waiting
//! for a byte) then costs a few tests a cycle; a busy one pays a compare per instruction whose
//! readers lie in other blocks. So tracking is adaptive (designs of up to [`ADAPT_MAX_INSTS`]
//! instructions): `run` counts the instructions of the blocks that ran over [`PROBE_CYCLES`]
//! cycles, and when half of them did, runs the next [`FULL_CYCLES`] (twice as many after each
//! busy measure in a row, up to [`FULL_CYCLES_MAX`]) with an untracked copy of
//! the group functions and of the edges (every chunk staged, no compares, no marks), then marks
//! everything and measures again.

//! # Computing a multiplexer's inputs only when selected
//!
//! With [`Options::cones`] (the default), the instructions used only through one input of one
//! `$mux` or one case of one `$pmux` ([`Cones`]) are emitted inside that multiplexer's code:
//! an `if` on a `$mux`'s select, a `br_table` on the lowest set bit of a `$pmux`'s. Blocks are
//! then cut over the top-level instructions (each weighing itself and its cones): a cone's
//! readers are all in its block, so its instructions store without compare or mark. Skipped
//! cones keep stale values, which nothing reads within a cycle; the last function of the
//! module (the *fixup*) recomputes them all before `run` returns.

use wasm_encoder::{
    BlockType, CodeSection, ExportKind, ExportSection, Function, FunctionSection, Instruction,
    MemArg, MemorySection, MemoryType, Module, TypeSection, ValType,
};

use crate::compile::{Control, Inst, Kind, Operand, Program};
use crate::ops::{BinOp, UnOp, mask};

use super::cones::{Cones, Ctx};
use super::{Unsupported, WasmModule, Watch};

/// Instructions per change-tracked block. Small blocks pay on a design that does little per
/// cycle (the reference player thinking: 94 M cycles/s in Node with 8, 71 M with 16, 58 M with
/// 4), and cost a busy one nothing while adaptive tracking runs it untracked.
pub(crate) const BLOCK: usize = 8;
/// Blocks per group (one function of the module): the bits of its mask word.
pub(crate) const GROUP: usize = 64;
/// Registers per change-tracked chunk (the player thinking: 91 M cycles/s with 2, 80 M with 1
/// or 8).
pub(crate) const CHUNK: usize = 2;
/// Adaptive tracking (see [`Plan::adaptive`]): cycles measured under tracking, …
const PROBE_CYCLES: i64 = 64;
/// … the share of instructions (in sixteenths) that must have run in them to go untracked (a
/// tracked instruction costs about twice an untracked one: PicoRV32 runs about 70 % of its
/// instructions a cycle, and is faster untracked), …
const BUSY_SIXTEENTHS: u64 = 8;
/// … and the cycles then run untracked before measuring again: [`FULL_CYCLES`] after a
/// tracked stretch, twice as many after each busy measure in a row up to [`FULL_CYCLES_MAX`]
/// (a design busy for good then pays its tracked measures on one cycle in 256, not one in
/// 32).
const FULL_CYCLES: i64 = 2048;
const FULL_CYCLES_MAX: i64 = 16384;
/// The most instructions a design may have for its module to hold the untracked copy of its
/// logic as well (it doubles the code to compile).
const ADAPT_MAX_INSTS: usize = 4096;

/// How to generate: see [`crate::wasm::Options`].
#[derive(Clone, Debug)]
pub(crate) struct Options {
    pub watch: Vec<Watch>,
    pub tracking: bool,
    pub cones: bool,
}

const I64: u32 = 3; // log2 of the alignment of an i64 access

fn at(offset: u64) -> MemArg {
    MemArg {
        offset,
        align: I64,
        memory_index: 0,
    }
}

/// Generates the module for `p` (whose `arena_init` may already have moved out), given the
/// arena as it is now: its length, and the words nothing writes (constants), which the code
/// uses as immediates.
pub(crate) fn generate(
    p: &Program,
    arena: &[u64],
    opts: &Options,
) -> Result<WasmModule, Unsupported> {
    let arena_words = arena.len();
    check(p)?;
    let cones = if opts.cones {
        Cones::find(p, &opts.watch)
    } else {
        Cones::none(p)
    };
    let plan = Plan::new(p, &cones, arena, opts.tracking)?;
    let ngroups = plan.groups.len();
    let mut funcs: Vec<Function> = Vec::with_capacity(2 + ngroups);
    {
        let mut g = Gen::new(
            p,
            &plan,
            &cones,
            opts,
            Function::new([(
                LOCALS + opts.watch.len() as u32 + 4 + plan.chunk_words() as u32,
                ValType::I64,
            )]),
        );
        g.run();
        funcs.push(g.f);
    }
    // One function per group of blocks, for a plan (tracked, or the adaptive untracked copy).
    let group = |plan: &Plan, k: usize| {
        let mut g = Gen::new(
            p,
            plan,
            &cones,
            opts,
            Function::new([(CACHE0 + CACHED + LOADED, ValType::I64)]),
        );
        g.caching = true;
        g.group(k);
        g.f
    };
    for k in 0..ngroups {
        funcs.push(group(&plan, k));
    }
    if plan.fixup {
        let mut g = Gen::new(
            p,
            &plan,
            &cones,
            opts,
            Function::new([(LOCALS, ValType::I64)]),
        );
        g.fixup();
        funcs.push(g.f);
    }
    let full = Plan {
        tracking: false,
        adaptive: false,
        ..plan.clone()
    };
    if plan.adaptive {
        for k in 0..ngroups {
            funcs.push(group(&full, k));
        }
    }

    let mut module = Module::new();
    let mut types = TypeSection::new();
    types.ty().function([ValType::I64], [ValType::I64]);
    types.ty().function([], []);
    module.section(&types);
    let mut fs = FunctionSection::new();
    fs.function(0);
    let full_groups = if plan.adaptive { ngroups } else { 0 };
    for _ in 0..ngroups + usize::from(plan.fixup) + full_groups {
        fs.function(1);
    }
    module.section(&fs);
    let mut mems = MemorySection::new();
    mems.memory(MemoryType {
        minimum: plan.total.div_ceil(65536).max(1),
        maximum: None,
        memory64: false,
        shared: false,
        page_size_log2: None,
    });
    module.section(&mems);
    let mut exports = ExportSection::new();
    exports.export("mem", ExportKind::Memory, 0);
    exports.export("run", ExportKind::Func, 0);
    module.section(&exports);
    let mut code = CodeSection::new();
    for f in &funcs {
        code.function(f);
    }
    module.section(&code);
    Ok(WasmModule {
        bytes: module.finish(),
        memory_bases: plan.mem_base.clone(),
        arena_words: arena_words as u32,
        state_bytes: plan.total as u32,
    })
}

/// Refuses what the generator does not cover, before emitting anything.
fn check(p: &Program) -> Result<(), Unsupported> {
    for (index, inst) in p.insts.iter().enumerate() {
        let refuse = |what: &str| Unsupported::Instruction {
            index,
            what: what.to_string(),
        };
        // A gather of any width; a `$pmux`/`$bmux` choosing at most 64 bits by a selector of
        // at most 64 bits, among parts of any width; everything else within one word.
        let covered = inst.narrow
            || matches!(inst.kind, Kind::Gather(_))
            || matches!(inst.kind, Kind::Pmux | Kind::Bmux)
                && inst.y.width <= 64
                && inst.s.width <= 64
                && inst.a.width.max(inst.b.width) < (1 << 26);
        if !covered {
            return Err(refuse(&format!(
                "{} on more than 64 bits",
                kind_name(inst.kind)
            )));
        }
        match inst.kind {
            Kind::MemRead(m) if p.memories[m as usize].width > 64 => {
                return Err(refuse("a read of a memory wider than 64 bits"));
            }
            Kind::Override(r) if p.regs[r as usize].state.width > 64 => {
                return Err(refuse("a register wider than 64 bits"));
            }
            _ => {}
        }
    }
    let narrow = |op: &Operand| op.width <= 64;
    for r in &p.regs {
        let controls = [
            r.srst.as_ref().map(|x| x.1),
            r.arst.as_ref().map(|x| x.1),
            r.aload.as_ref().map(|x| x.1),
            r.set.as_ref().map(|x| x.0),
            r.clr.as_ref().map(|x| x.0),
        ];
        if !narrow(&r.state) || !narrow(&r.d) || controls.iter().flatten().any(|o| !narrow(o)) {
            return Err(Unsupported::State(
                "a register wider than 64 bits".to_string(),
            ));
        }
    }
    for m in &p.memories {
        if m.width > 64 {
            return Err(Unsupported::State(format!(
                "memory {} ({} bits wide)",
                m.name, m.width
            )));
        }
    }
    for rd in &p.reads {
        if !narrow(&rd.addr) || !narrow(&rd.state) {
            return Err(Unsupported::State(
                "a read port with a wide address".to_string(),
            ));
        }
    }
    for wp in &p.writes {
        if !narrow(&wp.addr) {
            return Err(Unsupported::State(
                "a write port with a wide address".to_string(),
            ));
        }
    }
    Ok(())
}

fn kind_name(kind: Kind) -> String {
    match kind {
        Kind::Un(op) => format!("{op:?}"),
        Kind::Bin(op) => format!("{op:?}"),
        Kind::Gather(_) => "a bit gather".to_string(),
        Kind::MemRead(_) => "a memory read".to_string(),
        Kind::Override(_) => "an asynchronous register control".to_string(),
        other => format!("{other:?}"),
    }
}

/// Where everything lives, and which flags a change of each signal sets.
#[derive(Clone)]
struct Plan {
    tracking: bool,
    /// Tracking that steps aside on a busy design: `run` counts the instructions of the blocks
    /// that ran over [`PROBE_CYCLES`]; when half did, it runs [`FULL_CYCLES`] with an untracked
    /// copy of the
    /// group functions (no compares, no marks; every chunk staged), then measures again.
    adaptive: bool,
    /// The function index of the first untracked group function (adaptive only).
    full_base: u32,
    /// Byte offset of the counter of blocks run (adaptive only).
    counter: u64,
    mem_base: Vec<u32>,
    /// Byte offset of the staging words: one per register, then one per synchronous read port.
    stage_base: u64,
    /// Byte offset of the groups' masks: per group, an i64 whose bit `k` says its block `k`
    /// must run.
    group_mask: u64,
    /// Byte offset of the chunks' masks: an i64 per 64 chunks, bit `c % 64` of word `c / 64`
    /// saying chunk `c` must be staged at its next edge (an edge runs the marked ones through a
    /// `br_table` on the lowest set bit, as a group runs its blocks).
    chunk_mask: u64,
    total: u64,
    /// The top-level instructions in evaluation order (the others are in cones: see
    /// [`Cones`]).
    root: Vec<usize>,
    /// Per block: its range of positions in `root`.
    blocks: Vec<(usize, usize)>,
    /// Per block: its instructions, with those of its cones (what the adaptive counter adds
    /// when it runs).
    block_weight: Vec<u64>,
    /// Per group: its blocks.
    groups: Vec<std::ops::Range<usize>>,
    /// Per instruction: its block (that of the top-level instruction containing it).
    block_of_inst: Vec<usize>,
    /// Whether any instruction is in a cone: `run` then ends with the fixup function.
    fixup: bool,
    /// Per signal: its width when every value stored in it is known to have no bits above it
    /// (instruction results, registers, read ports, inputs), so that reading all of it needs
    /// no mask.
    exact_width: Vec<Option<u32>>,
    /// Per arena word: the width of the one-word signal stored in it, when every value stored
    /// there is known to have no bits above it (so a part reaching its top needs no mask).
    word_exact: Vec<Option<u32>>,
    /// Per arena word: its value, when nothing writes it (a constant).
    constant: Vec<Option<u64>>,
    /// Per instruction: its result lives in a local only (see [`local_only`]).
    local_only: Vec<bool>,
    /// Per clock polarity (rising first): chunks of register indices.
    chunks: [Vec<Vec<usize>>; 2],
    /// Per register: its chunk number (over both polarities), if clocked.
    /// Per register, then per synchronous read port (the numbering of
    /// [`Program::reg_fanout`]): its chunk number, if clocked. A read port is a chunk of its
    /// own, numbered after the registers'.
    reg_chunk: Vec<Option<usize>>,
    /// Chunks in all.
    nchunks: usize,
}

impl Plan {
    fn new(p: &Program, cones: &Cones, arena: &[u64], tracking: bool) -> Result<Plan, Unsupported> {
        let arena_words = arena.len();
        let mut base = arena_words as u64 * 8;
        let mut mem_base = Vec::with_capacity(p.memories.len());
        for m in &p.memories {
            mem_base.push(u32::try_from(base).map_err(|_| Unsupported::TooBig(base))?);
            base += u64::from(m.size) * 8;
        }
        let stage_base = base;
        base += (p.regs.len() + p.reads.len()) as u64 * 8;

        let n = p.insts.len();
        let root: Vec<usize> = (0..n).filter(|&i| cones.ctx[i] == Ctx::Root).collect();
        // Blocks of about `BLOCK` instructions, counting the cones of each top-level one.
        let mut weight = vec![0usize; n];
        for &u in &cones.unit {
            weight[u as usize] += 1;
        }
        let mut blocks: Vec<(usize, usize)> = Vec::new();
        let mut block_weight: Vec<u64> = Vec::new();
        let (mut start, mut acc) = (0, 0);
        for (k, &i) in root.iter().enumerate() {
            acc += weight[i];
            if acc >= BLOCK || k + 1 == root.len() {
                blocks.push((start, k + 1));
                block_weight.push(acc as u64);
                (start, acc) = (k + 1, 0);
            }
        }
        let mut block_of_root = vec![0usize; n];
        for (b, &(s, e)) in blocks.iter().enumerate() {
            for &i in &root[s..e] {
                block_of_root[i] = b;
            }
        }
        let block_of_inst: Vec<usize> = (0..n)
            .map(|i| block_of_root[cones.unit[i] as usize])
            .collect();
        let groups: Vec<std::ops::Range<usize>> = (0..blocks.len())
            .step_by(GROUP)
            .map(|s| s..(s + GROUP).min(blocks.len()))
            .collect();
        let fixup = root.len() < n;
        let local_only = local_only(p, cones, &root);
        let mut exact_width = vec![None; p.inst_fanout_start.len().saturating_sub(1)];
        // Every signal the design writes: results, register and read-port states, inputs.
        let written = p
            .insts
            .iter()
            .map(|i| i.y)
            .chain(p.regs.iter().map(|r| r.state))
            .chain(p.reads.iter().map(|r| r.state))
            .chain(p.inputs.iter().map(|i| i.1));
        // Per arena word: the width of the one-word signal stored from its bit 0, when known
        // to have no bits above it (several signals on one word: unknown).
        let mut word_exact: Vec<Option<u32>> = vec![None; arena_words];
        let mut shared = vec![false; arena_words];
        for op in written.clone() {
            if let Some(w) = exact_width.get_mut(op.sig as usize) {
                *w = Some(op.width);
            }
            if let Some(slot) = word_exact.get_mut(op.off as usize)
                && (1..=64).contains(&op.width)
            {
                let k = op.off as usize;
                shared[k] |= slot.is_some_and(|w| w != op.width);
                *slot = Some(op.width);
            }
        }
        for (w, s) in word_exact.iter_mut().zip(&shared) {
            if *s {
                *w = None;
            }
        }
        // The words nothing writes: constants (and unused words).
        let mut constant: Vec<Option<u64>> = arena.iter().copied().map(Some).collect();
        for op in written {
            let end = (op.off as usize + op.words().max(1)).min(arena_words);
            for c in constant.iter_mut().take(end).skip(op.off as usize) {
                *c = None;
            }
        }
        let mut chunks: [Vec<Vec<usize>>; 2] = [Vec::new(), Vec::new()];
        let mut reg_chunk = vec![None; p.regs.len() + p.reads.len()];
        for (k, posedge) in [true, false].into_iter().enumerate() {
            let regs: Vec<usize> = (0..p.regs.len())
                .filter(|&r| p.regs[r].clocked && p.regs[r].posedge == posedge)
                .collect();
            for c in regs.chunks(CHUNK) {
                chunks[k].push(c.to_vec());
            }
        }
        let reg_chunks = chunks[0].len() + chunks[1].len();
        for (c, regs) in chunks.iter().flatten().enumerate() {
            for &r in regs {
                reg_chunk[r] = Some(c);
            }
        }
        for k in 0..p.reads.len() {
            reg_chunk[p.regs.len() + k] = Some(reg_chunks + k);
        }
        let nchunks = reg_chunks + p.reads.len();
        let group_mask = base;
        let chunk_mask = group_mask + groups.len() as u64 * 8;
        let counter = chunk_mask + nchunks.div_ceil(64) as u64 * 8;
        let total = counter + 8;
        let adaptive = tracking && n <= ADAPT_MAX_INSTS && !blocks.is_empty();
        let full_base = 1 + groups.len() as u32 + u32::from(root.len() < n);
        if total > u64::from(u32::MAX) {
            return Err(Unsupported::TooBig(total));
        }
        Ok(Plan {
            tracking,
            adaptive,
            full_base,
            counter,
            mem_base,
            stage_base,
            group_mask,
            chunk_mask,
            total,
            root,
            blocks,
            block_weight,
            groups,
            block_of_inst,
            fixup,
            exact_width,
            word_exact,
            constant,
            local_only,
            chunks,
            reg_chunk,
            nchunks,
        })
    }

    fn block_of(&self, inst: usize) -> usize {
        self.block_of_inst[inst]
    }

    fn group_of_block(&self, block: usize) -> usize {
        block / GROUP
    }

    /// The byte offset of block `b`'s group's mask, and the bit of `b` in it.
    fn mask_bit(&self, b: usize) -> (u64, u64) {
        (
            self.group_mask + self.group_of_block(b) as u64 * 8,
            1 << (b % GROUP),
        )
    }

    fn stage_slot(&self, k: usize) -> u64 {
        self.stage_base + k as u64 * 8
    }

    /// Words of chunk masks.
    fn chunk_words(&self) -> usize {
        self.nchunks.div_ceil(64)
    }

    /// The byte offset of chunk `c`'s mask word, and the bit of `c` in it.
    fn chunk_bit(&self, c: u64) -> (u64, u64) {
        (self.chunk_mask + c / 64 * 8, 1 << (c % 64))
    }
}

/// The instructions of cones whose results a group function need not store: every reader is
/// in the same cone, emitted fewer than [`CACHED`] results later (so the local holding the
/// result has not been handed out again), and reads it through the locals (not a `$pmux` or
/// `$bmux`, which may load parts from memory at a computed address). Their stored values are
/// stale until the fixup recomputes every cone, as for any cone that was not selected.
fn local_only(p: &Program, cones: &Cones, root: &[usize]) -> Vec<bool> {
    let n = p.insts.len();
    // Where each instruction hands out its local in a group function: after its cones.
    fn walk(p: &Program, cones: &Cones, i: usize, pos: &mut [usize], next: &mut usize) {
        if cones.branches(i) {
            let inst = &p.insts[i];
            let arms: Vec<u32> = match inst.kind {
                Kind::Mux => vec![1, 0],
                _ => (1..=inst.s.width).chain([0]).collect(),
            };
            for arm in arms {
                for &m in cones.arm(i, arm) {
                    walk(p, cones, m as usize, pos, next);
                }
            }
        }
        pos[i] = *next;
        *next += 1;
    }
    let mut pos = vec![usize::MAX; n];
    let mut next = 0;
    for &i in root {
        walk(p, cones, i, &mut pos, &mut next);
    }
    let nsig = p.inst_fanout_start.len().saturating_sub(1);
    (0..n)
        .map(|m| {
            let inst = &p.insts[m];
            let s = inst.y.sig as usize;
            if !matches!(cones.ctx[m], Ctx::Arm { .. })
                || inst.y.width == 0
                || inst.y.width > 64
                || s >= nsig
                || pos[m] == usize::MAX
            {
                return false;
            }
            let readers = &p.inst_fanout
                [p.inst_fanout_start[s] as usize..p.inst_fanout_start[s + 1] as usize];
            !readers.is_empty()
                && readers.iter().all(|&r| {
                    let r = r as usize;
                    // A gather absorbed by a `$pmux` is read where the `$pmux` is emitted.
                    let at = match cones.ctx[r] {
                        Ctx::Absorbed { pmux } => pos[pmux as usize],
                        _ => pos[r],
                    };
                    !matches!(p.insts[r].kind, Kind::Pmux | Kind::Bmux)
                        && at != usize::MAX
                        && at > pos[m]
                        && at - pos[m] < CACHED as usize - 1
                })
        })
        .collect()
}

/// Scratch locals (local 0 is `run`'s parameter, unused elsewhere).
const N: u32 = 0; // the parameter: cycles asked for
const T1: u32 = 2;
const ROW: u32 = 3;
const T2: u32 = 4;
const T3: u32 = 5;
const V: u32 = 6;
const COUNT: u32 = 7;
/// Locals declared in every function beyond local 0 (the watches follow in `run`).
const LOCALS: u32 = 7;
const WATCH0: u32 = 8;
/// The first of the group functions' locals that keep results for later readers in the same
/// straight line of code (so they are not loaded again), and how many there are.
const CACHE0: u32 = 8;
const CACHED: u32 = 48;
/// The locals after those that keep arena words loaded in the same straight line (a register
/// read by several comparisons is loaded once), and how many there are. A word read in a
/// group function is not written after it there (readers come after writers), but for the
/// results written since, which replace it.
const LOADED: u32 = 32;

/// The instruction that emitted a mark, so that marks of its own block (which runs on after
/// it) and of blocks later in its own group (whose flags are still to be tested) stay light.
#[derive(Clone, Copy)]
enum Origin {
    Edge,
    Inst(usize),
}

struct Gen<'p> {
    p: &'p Program,
    plan: &'p Plan,
    cones: &'p Cones,
    opts: &'p Options,
    f: Function,
    /// Keep results in locals (a group function): see [`CACHE0`].
    caching: bool,
    /// Arena words whose current value a local holds, on every path to the code being
    /// emitted: (word, local).
    cache: Vec<(u32, u32)>,
    /// Locals handed out so far (round robin over the `CACHED` ones).
    handed: u64,
    /// Loaded words kept so far (round robin over the `LOADED` locals after the results').
    loads: u64,
    /// Emitting a [`Gen::straight_edge`]: everything is staged, nothing is marked.
    straight: bool,
}

/// What the cache was before a branch: its entries and how many locals had been handed out.
struct Snapshot(Vec<(u32, u32)>, u64, u64);

impl<'p> Gen<'p> {
    fn new(
        p: &'p Program,
        plan: &'p Plan,
        cones: &'p Cones,
        opts: &'p Options,
        f: Function,
    ) -> Gen<'p> {
        Gen {
            p,
            plan,
            cones,
            opts,
            f,
            caching: false,
            cache: Vec::new(),
            handed: 0,
            loads: 0,
            straight: false,
        }
    }

    // -- results kept in locals ------------------------------------------------------------

    /// A local for a new result (evicting what it held).
    fn hand_out(&mut self) -> u32 {
        let local = CACHE0 + (self.handed % u64::from(CACHED)) as u32;
        self.handed += 1;
        self.cache.retain(|&(_, l)| l != local);
        local
    }

    /// A local for a word just loaded (evicting what it held).
    fn hand_out_load(&mut self) -> u32 {
        let local = CACHE0 + CACHED + (self.loads % u64::from(LOADED)) as u32;
        self.loads += 1;
        self.cache.retain(|&(_, l)| l != local);
        local
    }

    /// Forgets what the locals say of arena word `w` (it is being written).
    fn forget(&mut self, w: u32) {
        self.cache.retain(|&(x, _)| x != w);
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot(self.cache.clone(), self.handed, self.loads)
    }

    /// The cache as it was at `snap`, less the locals handed out since (on the branch just
    /// emitted they may hold something else).
    fn restore(&mut self, snap: &Snapshot) {
        let (from, to, n) = (snap.1, self.handed, u64::from(CACHED));
        let (lfrom, lto, ln) = (snap.2, self.loads, u64::from(LOADED));
        let clobbered = |l: u32| {
            if l < CACHE0 + CACHED {
                to - from >= n || (from..to).any(|c| c % n == u64::from(l - CACHE0))
            } else {
                let k = u64::from(l - CACHE0 - CACHED);
                lto - lfrom >= ln || (lfrom..lto).any(|c| c % ln == k)
            }
        };
        self.cache = snap
            .0
            .iter()
            .copied()
            .filter(|&(_, l)| !clobbered(l))
            .collect();
    }

    // -- emit helpers --------------------------------------------------------------------

    fn i(&mut self, ins: Instruction<'_>) -> &mut Self {
        self.f.instruction(&ins);
        self
    }

    fn c(&mut self, v: u64) -> &mut Self {
        self.i(Instruction::I64Const(v as i64))
    }

    fn get(&mut self, local: u32) -> &mut Self {
        self.i(Instruction::LocalGet(local))
    }

    fn set(&mut self, local: u32) -> &mut Self {
        self.i(Instruction::LocalSet(local))
    }

    /// Pushes the i64 at byte `addr`.
    fn load_at(&mut self, addr: u64) -> &mut Self {
        self.i(Instruction::I32Const(0))
            .i(Instruction::I64Load(at(addr)))
    }

    /// Pushes arena word `off`.
    fn word(&mut self, off: u32) -> &mut Self {
        if let Some(&(_, local)) = self.cache.iter().find(|&&(w, _)| w == off) {
            return self.get(local);
        }
        if let Some(&Some(v)) = self.plan.constant.get(off as usize) {
            return self.c(v);
        }
        if self.caching {
            let local = self.hand_out_load();
            self.load_at(u64::from(off) * 8)
                .i(Instruction::LocalTee(local));
            self.cache.push((off, local));
            return self;
        }
        self.load_at(u64::from(off) * 8)
    }

    /// Stores what `value` pushes at byte `addr`.
    fn store_at(&mut self, addr: u64, value: impl FnOnce(&mut Self)) -> &mut Self {
        self.i(Instruction::I32Const(0));
        value(self);
        self.i(Instruction::I64Store(at(addr)))
    }

    /// Pushes an operand's value (its low `width` bits).
    fn read(&mut self, op: &Operand) -> &mut Self {
        self.word(op.off);
        if self
            .plan
            .exact_width
            .get(op.sig as usize)
            .is_some_and(|w| w.is_some_and(|w| w <= op.width))
        {
            return self;
        }
        self.and_mask(op.width)
    }

    /// Pushes an operand's value extended to 64 bits.
    fn read_ext(&mut self, op: &Operand, signed: bool) -> &mut Self {
        self.read(op).extend(op.width, signed)
    }

    fn and_mask(&mut self, width: u32) -> &mut Self {
        if width < 64 {
            self.c(mask(width)).i(Instruction::I64And);
        }
        self
    }

    /// Extends the top of the stack (`width` bits, already masked) to 64 bits.
    fn extend(&mut self, width: u32, signed: bool) -> &mut Self {
        if width == 0 {
            self.i(Instruction::Drop).c(0);
        } else if signed && width < 64 {
            let sh = u64::from(64 - width);
            self.c(sh)
                .i(Instruction::I64Shl)
                .c(sh)
                .i(Instruction::I64ShrS);
        }
        self
    }

    fn not(&mut self) -> &mut Self {
        self.c(u64::MAX).i(Instruction::I64Xor)
    }

    /// Pushes (i32) whether an operand is non-zero: a one-bit operand (read as 0 or 1) is
    /// only wrapped.
    fn truth(&mut self, op: &Operand) -> &mut Self {
        self.read(op);
        if op.width == 1 {
            self.i(Instruction::I32WrapI64)
        } else {
            self.nonzero()
        }
    }

    /// i64 → i32: is it non-zero?
    fn nonzero(&mut self) -> &mut Self {
        self.i(Instruction::I64Eqz).i(Instruction::I32Eqz)
    }

    /// Pushes bit 0 of arena word `off` as an i32.
    fn bit0(&mut self, off: u32) -> &mut Self {
        self.word(off)
            .c(1)
            .i(Instruction::I64And)
            .i(Instruction::I32WrapI64)
    }

    /// Pushes whether a one-bit control is active, as an i32.
    fn active(&mut self, c: &Control) -> &mut Self {
        self.bit0(c.sig.off);
        if !c.active_high {
            self.i(Instruction::I32Eqz);
        }
        self
    }

    /// The value on the stack, replaced by `val` when `cond` (an i32) is true.
    fn replace_if(&mut self, val: &Operand, cond: impl FnOnce(&mut Self)) -> &mut Self {
        self.set(T1).read(val).get(T1);
        cond(self);
        self.i(Instruction::Select)
    }

    /// `value <op> amount`, or 0 when the amount (pushed by `amount`) is 64 or more.
    fn shift_or_zero(&mut self, op: Instruction<'static>, amount: impl FnOnce(&mut Self)) {
        amount(self);
        self.i(Instruction::LocalTee(T1))
            .i(op)
            .c(0)
            .get(T1)
            .c(64)
            .i(Instruction::I64LtU)
            .i(Instruction::Select);
    }

    /// The row value on the stack merged with a write port's data under its enable bits.
    fn merge_enabled(&mut self, en: u32, data: u32) -> &mut Self {
        self.word(en)
            .not()
            .i(Instruction::I64And)
            .word(data)
            .word(en)
            .i(Instruction::I64And)
            .i(Instruction::I64Or)
    }

    /// `cond ? then : else`, where `cond` (i32) is on the stack and the branches push an i64.
    fn if_else(&mut self, then: impl FnOnce(&mut Self), els: impl FnOnce(&mut Self)) {
        self.i(Instruction::If(BlockType::Result(ValType::I64)));
        then(self);
        self.i(Instruction::Else);
        els(self);
        self.i(Instruction::End);
    }

    // -- change tracking -------------------------------------------------------------------

    /// Sets the flags of what reads signal `sig` (emitted where it changed, from `from`).
    fn mark(&mut self, sig: u32, from: Origin) {
        let (p, plan) = (self.p, self.plan);
        let s = sig as usize;
        let mut blocks: Vec<usize> = p.inst_fanout
            [p.inst_fanout_start[s] as usize..p.inst_fanout_start[s + 1] as usize]
            .iter()
            .map(|&i| plan.block_of(i as usize))
            .collect();
        if let Origin::Inst(i) = from {
            // Readers in its own block run on after it.
            let own = plan.block_of(i);
            blocks.retain(|&b| b != own);
        }
        self.mark_blocks(blocks);
        let chunks: Vec<usize> = p.reg_fanout
            [p.reg_fanout_start[s] as usize..p.reg_fanout_start[s + 1] as usize]
            .iter()
            .filter_map(|&r| plan.reg_chunk.get(r as usize).copied().flatten())
            .collect();
        self.mark_chunks(chunks.into_iter().map(|c| c as u64).collect());
    }

    /// Sets the bits of `chunks` in their masks: one or per word.
    fn mark_chunks(&mut self, chunks: Vec<u64>) {
        let bits = chunks.into_iter().map(|c| self.plan.chunk_bit(c)).collect();
        self.set_mask_bits(bits);
    }

    /// Sets the bits of `blocks` in their groups' masks: one or per group.
    fn mark_blocks(&mut self, blocks: Vec<usize>) {
        let bits = blocks.into_iter().map(|b| self.plan.mask_bit(b)).collect();
        self.set_mask_bits(bits);
    }

    /// ORs each `(address, bit)` into its mask word: one load, or and store per word.
    fn set_mask_bits(&mut self, mut bits: Vec<(u64, u64)>) {
        bits.sort_unstable();
        bits.dedup();
        let mut k = 0;
        while k < bits.len() {
            let addr = bits[k].0;
            let mut word = 0u64;
            while k < bits.len() && bits[k].0 == addr {
                word |= bits[k].1;
                k += 1;
            }
            self.store_at(addr, |g| {
                g.load_at(addr).c(word).i(Instruction::I64Or);
            });
        }
    }

    /// Whether a change of `sig` (made by instruction `i`) must set any flag.
    fn needs_mark(&self, sig: u32, i: usize) -> bool {
        let (p, plan) = (self.p, self.plan);
        let s = sig as usize;
        let own = plan.block_of(i);
        p.inst_fanout[p.inst_fanout_start[s] as usize..p.inst_fanout_start[s + 1] as usize]
            .iter()
            .any(|&r| plan.block_of(r as usize) != own)
            || p.reg_fanout[p.reg_fanout_start[s] as usize..p.reg_fanout_start[s + 1] as usize]
                .iter()
                .any(|&r| plan.reg_chunk.get(r as usize).copied().flatten().is_some())
    }

    /// Pops a value into the i64 at byte `addr`; with tracking, only when it differs, then
    /// marking the readers of `sig`.
    fn update(&mut self, addr: u64, sig: u32, from: Origin, tracked: bool) {
        self.update_in(addr, sig, from, tracked, V);
    }

    /// [`Gen::update`] through local `v`, which holds the value afterwards.
    fn update_in(&mut self, addr: u64, sig: u32, from: Origin, tracked: bool, v: u32) {
        if !(self.plan.tracking && tracked) {
            self.set(v).store_at(addr, |g| {
                g.get(v);
            });
            return;
        }
        self.i(Instruction::LocalTee(v))
            .load_at(addr)
            .i(Instruction::I64Ne)
            .i(Instruction::If(BlockType::Empty));
        self.store_at(addr, |g| {
            g.get(v);
        });
        self.mark(sig, from);
        self.i(Instruction::End);
    }

    // -- the module's functions ------------------------------------------------------------

    /// `run(n)`: settle everything, then up to `n` cycles.
    fn run(&mut self) {
        let p = self.p;
        let has_edge = |posedge: bool| {
            p.regs.iter().any(|r| r.posedge == posedge && r.clocked)
                || p.reads.iter().any(|r| r.posedge == posedge)
                || p.writes.iter().any(|w| w.posedge == posedge)
        };
        let has_edge = [has_edge(true), has_edge(false)];
        if self.plan.adaptive {
            let (mode, window) = (self.mode(), self.window());
            self.c(0).set(mode).c(PROBE_CYCLES as u64).set(window);
            let span = self.span();
            self.c(FULL_CYCLES as u64 / 2).set(span);
            self.store_at(self.plan.counter, |g| {
                g.c(0);
            });
        }
        // Every flag up: whatever the host changed takes effect, every register is staged.
        if self.plan.tracking {
            self.all_flags_up();
        }
        self.settle();
        for (k, w) in self.opts.watch.iter().enumerate() {
            self.word(w.word)
                .c(w.mask)
                .i(Instruction::I64And)
                .set(WATCH0 + k as u32);
        }
        self.c(0).set(COUNT);
        // block { loop { if count >= n break; count += 1; cycle; if a watch changed break } }
        self.i(Instruction::Block(BlockType::Empty))
            .i(Instruction::Loop(BlockType::Empty))
            .get(COUNT)
            .get(N)
            .i(Instruction::I64GeU)
            .i(Instruction::BrIf(1))
            .get(COUNT)
            .c(1)
            .i(Instruction::I64Add)
            .set(COUNT);
        if self.plan.adaptive {
            self.adapt();
        }
        for (k, level) in [true, false].into_iter().enumerate() {
            let edge = has_edge[k];
            match p.clock {
                Some((idx, bit)) => {
                    let op = p.inputs[idx].1;
                    let w = op.off + bit / 64;
                    let b = 1u64 << (bit % 64);
                    // if the clock bit differs from `level`: flip it, edge, settle.
                    self.word(w)
                        .c(b)
                        .i(Instruction::I64And)
                        .i(Instruction::I64Eqz);
                    if !level {
                        self.i(Instruction::I32Eqz);
                    }
                    self.i(Instruction::If(BlockType::Empty));
                    self.store_at(u64::from(w) * 8, |g| {
                        g.word(w).c(b).i(Instruction::I64Xor);
                    });
                    if self.plan.tracking {
                        self.mark(op.sig, Origin::Edge);
                    }
                    if edge {
                        self.edge(level);
                    }
                    // Without an edge, only readers of the clock can change: when there are
                    // none (a design clocked on one edge), the logic is still settled.
                    let sig = op.sig as usize;
                    let clock_read = p.inst_fanout_start[sig] != p.inst_fanout_start[sig + 1];
                    if edge || clock_read {
                        self.settle();
                    }
                    self.i(Instruction::End);
                }
                None if edge => {
                    self.edge(level);
                    self.settle();
                }
                None => {}
            }
        }
        for (k, w) in self.opts.watch.iter().enumerate() {
            self.word(w.word)
                .c(w.mask)
                .i(Instruction::I64And)
                .get(WATCH0 + k as u32)
                .i(Instruction::I64Ne)
                .i(Instruction::BrIf(1));
        }
        self.i(Instruction::Br(0))
            .i(Instruction::End)
            .i(Instruction::End);
        if self.plan.fixup {
            // The cones skipped in the last cycle, recomputed: the state is exact for the host.
            self.i(Instruction::Call(1 + self.plan.groups.len() as u32));
        }
        self.get(COUNT).i(Instruction::End);
    }

    /// `run`'s local holding the mode (adaptive): 0 tracked, 1 untracked.
    fn mode(&self) -> u32 {
        WATCH0 + self.opts.watch.len() as u32
    }

    /// `run`'s local counting down the cycles left in the mode (adaptive).
    fn window(&self) -> u32 {
        self.mode() + 1
    }

    /// `run`'s local holding which chunks of mask word `w` are staged at the edge being run.
    fn staged(&self, w: u64) -> u32 {
        self.mode() + 2 + w as u32
    }

    /// `run`'s local holding the chunks of a mask word still to visit in a dispatch loop.
    fn left(&self) -> u32 {
        self.mode() + 2 + self.plan.chunk_words() as u32
    }

    /// `run`'s local holding the length of the next untracked window (adaptive).
    fn span(&self) -> u32 {
        self.left() + 1
    }

    /// Chunk `c` was staged at this edge.
    fn set_staged(&mut self, c: u64) {
        let (_, bit) = self.plan.chunk_bit(c);
        let l = self.staged(c / 64);
        self.get(l).c(bit).i(Instruction::I64Or).set(l);
    }

    /// Pushes (i32) whether chunk `c` was staged at this edge.
    fn was_staged(&mut self, c: u64) {
        let (_, bit) = self.plan.chunk_bit(c);
        let l = self.staged(c / 64);
        self.get(l).c(bit).i(Instruction::I64And).nonzero();
    }

    /// Sets every group's mask and every chunk's bit: everything runs at the next settle and
    /// every chunk is staged at its next edge.
    fn all_flags_up(&mut self) {
        for (g, blocks) in self.plan.groups.iter().enumerate() {
            let bits = mask(blocks.len() as u32);
            self.store_at(self.plan.group_mask + g as u64 * 8, |e| {
                e.c(bits);
            });
        }
        for w in 0..self.plan.chunk_words() {
            let bits = mask((self.plan.nchunks - 64 * w).min(64) as u32);
            self.store_at(self.plan.chunk_mask + w as u64 * 8, |e| {
                e.c(bits);
            });
        }
    }

    /// At the start of a cycle (adaptive): at the end of a window, untracked after a busy
    /// measure, tracked (everything marked: the untracked code marks nothing) after untracked.
    fn adapt(&mut self) {
        let (mode, window) = (self.mode(), self.window());
        let weight: u64 = self.plan.block_weight.iter().sum();
        let busy = (PROBE_CYCLES as u64 * weight * BUSY_SIXTEENTHS).div_ceil(16);
        self.get(window)
            .c(1)
            .i(Instruction::I64Sub)
            .i(Instruction::LocalTee(window))
            .i(Instruction::I64Eqz)
            .i(Instruction::If(BlockType::Empty));
        self.get(mode)
            .nonzero()
            .i(Instruction::If(BlockType::Empty));
        self.all_flags_up();
        self.c(0).set(mode).c(PROBE_CYCLES as u64).set(window);
        self.i(Instruction::Else);
        // mode = counter >= busy; span = mode ? min(2 span, MAX) : FULL / 2;
        // window = mode ? span : PROBE
        let span = self.span();
        self.load_at(self.plan.counter)
            .c(busy)
            .i(Instruction::I64GeU)
            .i(Instruction::I64ExtendI32U)
            .set(mode)
            .get(span)
            .c(1)
            .i(Instruction::I64Shl)
            .i(Instruction::LocalTee(T1))
            .c(FULL_CYCLES_MAX as u64)
            .get(T1)
            .c(FULL_CYCLES_MAX as u64)
            .i(Instruction::I64LtU)
            .i(Instruction::Select)
            .c(FULL_CYCLES as u64 / 2)
            .get(mode)
            .nonzero()
            .i(Instruction::Select)
            .set(span)
            .get(span)
            .c(PROBE_CYCLES as u64)
            .get(mode)
            .nonzero()
            .i(Instruction::Select)
            .set(window);
        self.i(Instruction::End);
        self.store_at(self.plan.counter, |g| {
            g.c(0);
        });
        self.i(Instruction::End);
    }

    /// Calls every group function (with tracking, those whose flag is up; adaptive and
    /// untracked, every untracked copy).
    fn settle(&mut self) {
        if self.plan.adaptive {
            self.get(self.mode())
                .nonzero()
                .i(Instruction::If(BlockType::Empty));
            for k in 0..self.plan.groups.len() {
                self.i(Instruction::Call(self.plan.full_base + k as u32));
            }
            self.i(Instruction::Else);
            self.settle_tracked();
            self.i(Instruction::End);
        } else {
            self.settle_tracked();
        }
    }

    fn settle_tracked(&mut self) {
        for k in 0..self.plan.groups.len() {
            let call = Instruction::Call(1 + k as u32);
            if self.plan.tracking {
                let mask = self.plan.group_mask + k as u64 * 8;
                self.load_at(mask)
                    .nonzero()
                    .i(Instruction::If(BlockType::Empty))
                    .i(call)
                    .i(Instruction::End);
            } else {
                self.i(call);
            }
        }
    }

    /// The function of group `k`: its blocks in order. With tracking, those whose bit is set
    /// in the group's mask, lowest first, reading the mask again after each (a block sets the
    /// bits of later blocks only): `loop { m = mask; if !m break; mask = m & (m - 1);
    /// br_table ctz(m) to the block's code, which continues the loop }`.
    fn group(&mut self, k: usize) {
        let plan = self.plan;
        let blocks = plan.groups[k].clone();
        let body = |g: &mut Self, b: usize| {
            if plan.tracking {
                // Reached from the dispatch: nothing before it is known to have run.
                g.cache.clear();
            }
            if plan.adaptive {
                g.store_at(plan.counter, |g| {
                    g.load_at(plan.counter)
                        .c(plan.block_weight[b])
                        .i(Instruction::I64Add);
                });
            }
            let (start, end) = plan.blocks[b];
            for &i in &plan.root[start..end] {
                g.inst(i);
            }
        };
        if !plan.tracking {
            for b in blocks {
                body(self, b);
            }
            self.i(Instruction::End);
            return;
        }
        let n = blocks.len() as u32;
        let mask = plan.group_mask + k as u64 * 8;
        // block $exit { loop $next { block $b[n-1] { … block $b0 {
        self.i(Instruction::Block(BlockType::Empty))
            .i(Instruction::Loop(BlockType::Empty));
        for _ in 0..n {
            self.i(Instruction::Block(BlockType::Empty));
        }
        self.load_at(mask)
            .i(Instruction::LocalTee(T1))
            .i(Instruction::I64Eqz)
            .i(Instruction::BrIf(n + 1));
        self.store_at(mask, |g| {
            g.get(T1)
                .get(T1)
                .c(1)
                .i(Instruction::I64Sub)
                .i(Instruction::I64And);
        });
        self.get(T1)
            .i(Instruction::I64Ctz)
            .i(Instruction::I32WrapI64)
            .i(Instruction::BrTable(
                (0..n).collect::<Vec<u32>>().into(),
                n + 1,
            ));
        for (j, b) in blocks.enumerate() {
            self.i(Instruction::End);
            body(self, b);
            // Out of $b[j+1..n] to $next.
            self.i(Instruction::Br(n - 1 - j as u32));
        }
        self.i(Instruction::End)
            .i(Instruction::End)
            .i(Instruction::End);
    }

    /// The fixup function: every instruction in a cone, in evaluation order, from the
    /// (exact) top-level values, so that none is left stale when `run` returns.
    fn fixup(&mut self) {
        for i in 0..self.p.insts.len() {
            if self.cones.ctx[i] != Ctx::Root {
                self.plain(i);
            }
        }
        self.i(Instruction::End);
    }

    /// Evaluates instruction `i` and stores its result, without cones or change tracking.
    fn plain(&mut self, i: usize) {
        let inst = &self.p.insts[i];
        if let Kind::Gather(g) = inst.kind
            && inst.y.width > 64
        {
            self.wide_gather(inst.y.off, g as usize);
            return;
        }
        self.value(inst);
        if !self.fits(inst) {
            self.and_mask(inst.y.width);
        }
        self.update(
            u64::from(inst.y.off) * 8,
            inst.y.sig,
            Origin::Inst(i),
            false,
        );
    }

    /// Evaluates instruction `i` (with its cones) and stores its result.
    fn inst(&mut self, i: usize) {
        let inst = &self.p.insts[i];
        // In a cone, every reader is in the same block, after it: nothing to mark.
        let tracked = self.cones.ctx[i] == Ctx::Root && self.needs_mark(inst.y.sig, i);
        if let Kind::Gather(g) = inst.kind
            && inst.y.width > 64
        {
            self.wide_gather(inst.y.off, g as usize);
            if self.plan.tracking && tracked {
                self.mark(inst.y.sig, Origin::Inst(i));
            }
            return;
        }
        if self.cones.branches(i) {
            match inst.kind {
                Kind::Mux => self.mux_cones(i),
                Kind::Pmux => self.pmux_cones(i),
                _ => self.reduce_gather(i),
            }
        } else {
            self.value(inst);
        }
        if !self.fits(inst) {
            self.and_mask(inst.y.width);
        }
        // (A zero-width result may share its word with another signal: never kept.)
        self.forget(inst.y.off);
        if self.caching && inst.y.width > 0 {
            let local = self.hand_out();
            if self.plan.local_only[i] {
                self.set(local);
                self.cache.push((inst.y.off, local));
                return;
            }
            self.update_in(
                u64::from(inst.y.off) * 8,
                inst.y.sig,
                Origin::Inst(i),
                tracked,
                local,
            );
            self.cache.push((inst.y.off, local));
            return;
        }
        self.update(
            u64::from(inst.y.off) * 8,
            inst.y.sig,
            Origin::Inst(i),
            tracked,
        );
    }

    /// Whether the value [`Gen::value`] (or the cone code) pushes for `inst` is known to have
    /// no bits above its width, so that storing it needs no mask.
    fn fits(&self, inst: &Inst) -> bool {
        let y = inst.y.width;
        if y == 0 || y > 64 {
            return false;
        }
        let within = |op: &Operand| op.width <= y;
        match inst.kind {
            Kind::Un(op) => !matches!(op, UnOp::Not | UnOp::Pos | UnOp::Neg),
            Kind::Bin(op) => match op {
                BinOp::Eq
                | BinOp::Ne
                | BinOp::Lt
                | BinOp::Le
                | BinOp::Gt
                | BinOp::Ge
                | BinOp::LogicAnd
                | BinOp::LogicOr => true,
                BinOp::And | BinOp::Or | BinOp::Xor => {
                    !(inst.shape.a_signed && inst.shape.b_signed)
                        && within(&inst.a)
                        && within(&inst.b)
                }
                _ => false,
            },
            Kind::Mux => within(&inst.a) && within(&inst.b),
            Kind::Pmux => within(&inst.a),
            Kind::Bmux => true,
            Kind::Gather(g) => {
                let g = &self.p.gathers[g as usize];
                g.constant.first().is_none_or(|&c| c & !mask(y) == 0)
                    && g.segments.iter().all(|s| s.dst_bit + s.len <= y)
            }
            _ => false,
        }
    }

    /// Pushes `$mux` `i`'s (unmasked) result, computing each input's cone only when selected.
    fn mux_cones(&mut self, i: usize) {
        let (p, cones) = (self.p, self.cones);
        let inst = &p.insts[i];
        self.truth(&inst.s);
        let snap = self.snapshot();
        self.if_else(
            |g| {
                for &m in cones.arm(i, 1) {
                    g.inst(m as usize);
                }
                g.read(&inst.b);
                g.restore(&snap);
            },
            |g| {
                for &m in cones.arm(i, 0) {
                    g.inst(m as usize);
                }
                g.read(&inst.a);
                g.restore(&snap);
            },
        );
    }

    /// Pushes `$pmux` `i`'s (unmasked) result: a `br_table` on the lowest set bit of the
    /// select, each case computing its cone and reading its part (from the sources of an
    /// absorbed gather, else from `b`), the default its own cone and `a`.
    fn pmux_cones(&mut self, i: usize) {
        let (p, cones) = (self.p, self.cones);
        let inst = &p.insts[i];
        let n = inst.s.width;
        // block $done (i64) { block $default { block $case[n-1] { … block $case0 {
        self.i(Instruction::Block(BlockType::Result(ValType::I64)))
            .i(Instruction::Block(BlockType::Empty));
        for _ in 0..n {
            self.i(Instruction::Block(BlockType::Empty));
        }
        // ctz(s): the case, or 64 (the default) when no bit is set.
        self.read(&inst.s)
            .i(Instruction::I64Ctz)
            .i(Instruction::I32WrapI64)
            .i(Instruction::BrTable((0..n).collect::<Vec<u32>>().into(), n));
        let snap = self.snapshot();
        for k in 0..n {
            self.i(Instruction::End);
            for &m in cones.arm(i, k + 1) {
                self.inst(m as usize);
            }
            self.case_part(i, k);
            self.restore(&snap);
            // Out of $case[k+1..n], $default, to $done.
            self.i(Instruction::Br(n - k));
        }
        self.i(Instruction::End);
        for &m in cones.arm(i, 0) {
            self.inst(m as usize);
        }
        self.read(&inst.a).i(Instruction::End);
        self.restore(&snap);
    }

    /// Pushes reduction `i`'s result from the parts of the gather it absorbed (see
    /// [`super::cones::reduces`]): or-ed unshifted for `|` and `!`; for `&`, every part all
    /// ones (one-bit parts: and-ed) and every bit no part covers a constant one.
    fn reduce_gather(&mut self, i: usize) {
        let p = self.p;
        let inst = &p.insts[i];
        let gi = self.cones.absorbed[&(i as u32)];
        let Kind::Gather(g) = p.insts[gi as usize].kind else {
            unreachable!("only gathers are absorbed")
        };
        let g = &p.gathers[g as usize];
        let w = inst.a.width;
        let constant = g.constant.first().copied().unwrap_or(0) & mask(w);
        let Kind::Un(op) = inst.kind else {
            unreachable!("only reductions absorb gathers besides `$pmux`")
        };
        if op == UnOp::ReduceAnd {
            let covered = g
                .segments
                .iter()
                .fold(0u64, |m, s| m | mask(s.len) << s.dst_bit);
            if (covered | constant) & mask(w) != mask(w) {
                // A bit that no part covers is a constant zero.
                self.c(0);
                return;
            }
            if g.segments.iter().all(|s| s.len == 1) {
                self.c(1);
                for s in &g.segments {
                    self.extract(s.src_off, s.src_bit, 1).i(Instruction::I64And);
                }
                return;
            }
            self.c(0);
            for s in &g.segments {
                self.extract(s.src_off, s.src_bit, s.len)
                    .c(mask(s.len))
                    .i(Instruction::I64Xor)
                    .i(Instruction::I64Or);
            }
            self.i(Instruction::I64Eqz).i(Instruction::I64ExtendI32U);
            return;
        }
        self.c(constant);
        for s in &g.segments {
            self.extract(s.src_off, s.src_bit, s.len)
                .i(Instruction::I64Or);
        }
        if constant <= 1 && g.segments.iter().all(|s| s.len == 1) {
            // Bits or-ed unshifted: already 0 or 1.
            if op == UnOp::LogicNot {
                self.c(1).i(Instruction::I64Xor);
            }
            return;
        }
        if op == UnOp::LogicNot {
            self.i(Instruction::I64Eqz);
        } else {
            self.nonzero();
        }
        self.i(Instruction::I64ExtendI32U);
    }

    /// Pushes case `k` of `$pmux` `i`: bits `k * W ..` of its `b`.
    fn case_part(&mut self, i: usize, k: u32) {
        let p = self.p;
        let inst = &p.insts[i];
        let w = inst.y.width;
        let lo = k * w;
        let hi = (lo + w).min(inst.b.width);
        if hi <= lo {
            self.c(0);
            return;
        }
        let Some(&gi) = self.cones.absorbed.get(&(i as u32)) else {
            self.extract(inst.b.off, lo, hi - lo);
            return;
        };
        let Kind::Gather(g) = p.insts[gi as usize].kind else {
            unreachable!("only gathers are absorbed")
        };
        let g = &p.gathers[g as usize];
        // The constant bits of the part, then every segment's overlap with it.
        let mut constant = 0u64;
        for bit in lo..hi {
            if g.constant.get((bit / 64) as usize).copied().unwrap_or(0) >> (bit % 64) & 1 == 1 {
                constant |= 1 << (bit - lo);
            }
        }
        self.c(constant);
        for s in &g.segments {
            let (a, b) = (s.dst_bit.max(lo), (s.dst_bit + s.len).min(hi));
            if a >= b {
                continue;
            }
            self.extract(s.src_off, s.src_bit + (a - s.dst_bit), b - a);
            if a > lo {
                self.c(u64::from(a - lo)).i(Instruction::I64Shl);
            }
            self.i(Instruction::I64Or);
        }
    }

    /// A gather into several words: the constant bits, then each segment or-ed into the word
    /// it lands in (the compiler never lets a segment cross a destination word).
    fn wide_gather(&mut self, y_off: u32, g: usize) {
        let g = &self.p.gathers[g];
        for (k, &c) in g.constant.iter().enumerate() {
            self.forget(y_off + k as u32);
            self.store_at(u64::from(y_off + k as u32) * 8, |e| {
                e.c(c);
            });
        }
        for s in &g.segments {
            let w = y_off + s.dst_bit / 64;
            self.store_at(u64::from(w) * 8, |e| {
                // Its own word, as far as assembled: from memory, never from a local.
                e.load_at(u64::from(w) * 8)
                    .extract(s.src_off, s.src_bit, s.len);
                if s.dst_bit % 64 > 0 {
                    e.c(u64::from(s.dst_bit % 64)).i(Instruction::I64Shl);
                }
                e.i(Instruction::I64Or);
            });
        }
    }

    /// Pushes `len` bits at bit `bit` of the value at arena word `off` (the interpreter's
    /// `extract`).
    fn extract(&mut self, off: u32, bit: u32, len: u32) -> &mut Self {
        if len == 0 {
            return self.c(0);
        }
        let w = off + bit / 64;
        let sh = bit % 64;
        self.word(w);
        if sh != 0 {
            self.c(u64::from(sh)).i(Instruction::I64ShrU);
            if sh + len > 64 {
                self.word(w + 1)
                    .c(u64::from(64 - sh))
                    .i(Instruction::I64Shl)
                    .i(Instruction::I64Or);
            }
        }
        // A part that reaches the top of an exact one-word signal has nothing above it.
        let top = self.plan.word_exact.get(w as usize).copied().flatten();
        if top.is_some_and(|e| e <= sh + len) && sh + len <= 64 {
            return self;
        }
        self.and_mask(len)
    }

    /// Pops a bit index; pushes the `len` (≤ 64) bits there of the value at arena word `off`,
    /// `total` bits long (the interpreter's `extract` at a computed position). Uses `T1`.
    fn extract_at(&mut self, off: u32, len: u32, total: u32) {
        let base = u64::from(off) * 8;
        let word_addr = |g: &mut Self| {
            g.get(T1)
                .c(6)
                .i(Instruction::I64ShrU)
                .c(3)
                .i(Instruction::I64Shl)
                .i(Instruction::I32WrapI64);
        };
        self.set(T1);
        word_addr(self);
        self.i(Instruction::I64Load(at(base)))
            .get(T1)
            .i(Instruction::I64ShrU);
        if len > 1 && total > 64 {
            // Bits from the next word when the part straddles two.
            self.get(T1)
                .c(63)
                .i(Instruction::I64And)
                .c(u64::from(len))
                .i(Instruction::I64Add)
                .c(64)
                .i(Instruction::I64GtU);
            self.if_else(
                |g| {
                    word_addr(g);
                    g.i(Instruction::I64Load(at(base + 8)))
                        .c(64)
                        .get(T1)
                        .c(63)
                        .i(Instruction::I64And)
                        .i(Instruction::I64Sub)
                        .i(Instruction::I64Shl);
                },
                |g| {
                    g.c(0);
                },
            );
            self.i(Instruction::I64Or);
        }
        self.and_mask(len);
    }

    /// Pushes an instruction's (unmasked) result.
    fn value(&mut self, inst: &Inst) {
        match inst.kind {
            Kind::Un(op) => self.un(inst, op),
            Kind::Bin(op) => self.bin(inst, op),
            Kind::Mux => {
                self.read(&inst.b).read(&inst.a).truth(&inst.s);
                self.i(Instruction::Select);
            }
            Kind::Bwmux => {
                self.read(&inst.a)
                    .read(&inst.s)
                    .not()
                    .i(Instruction::I64And)
                    .read(&inst.b)
                    .read(&inst.s)
                    .i(Instruction::I64And)
                    .i(Instruction::I64Or);
            }
            Kind::Pmux => {
                // s == 0 ? a : (b >> ctz(s) * w); ctz(0) = 64 may point past `b`: part 0 then.
                let w = u64::from(inst.y.width);
                self.read(&inst.a)
                    .read(&inst.s)
                    .i(Instruction::I64Ctz)
                    .c(w)
                    .i(Instruction::I64Mul)
                    .set(T1)
                    .get(T1)
                    .c(0)
                    .read(&inst.s)
                    .nonzero()
                    .i(Instruction::Select);
                self.extract_at(inst.b.off, inst.y.width, inst.b.width);
                self.read(&inst.s)
                    .i(Instruction::I64Eqz)
                    .i(Instruction::Select);
            }
            Kind::Bmux => {
                let w = u64::from(inst.y.width);
                self.read(&inst.s).c(w).i(Instruction::I64Mul);
                self.extract_at(inst.a.off, inst.y.width, inst.a.width);
            }
            Kind::Demux => {
                // a << s * w, 0 when that is 64 or more (and when w is 0)
                let w = u64::from(inst.a.width);
                self.read(&inst.a);
                self.shift_or_zero(Instruction::I64Shl, |g| {
                    g.read(&inst.s).c(w).i(Instruction::I64Mul);
                });
                if w == 0 {
                    self.i(Instruction::Drop).c(0);
                }
            }
            Kind::Gather(g) => {
                let g = &self.p.gathers[g as usize];
                self.c(g.constant[0]);
                // Copies of one part (`{32{x}}`, byte enables spread to bytes) are one product:
                // the part times the sum of its destinations' bits, which do not overlap.
                let mut parts: Vec<((u32, u32, u32), u64)> = Vec::new();
                for s in &g.segments {
                    let key = (s.src_off, s.src_bit, s.len);
                    let bit = 1u64 << s.dst_bit;
                    match parts.iter_mut().find(|(k, _)| *k == key) {
                        Some((_, m)) => *m |= bit,
                        None => parts.push((key, bit)),
                    }
                }
                for ((off, bit, len), m) in parts {
                    self.extract(off, bit, len);
                    if m.is_power_of_two() {
                        if m > 1 {
                            self.c(u64::from(m.trailing_zeros())).i(Instruction::I64Shl);
                        }
                    } else {
                        self.c(m).i(Instruction::I64Mul);
                    }
                    self.i(Instruction::I64Or);
                }
            }
            Kind::MemRead(m) => {
                self.read(&inst.a);
                self.mem_load(m as usize);
            }
            Kind::Override(r) => {
                self.read(&inst.a);
                self.overrides(r as usize);
            }
        }
    }

    /// Pops an address, pushes the memory word it selects (0 out of range); uses `ROW`.
    fn mem_load(&mut self, m: usize) {
        let mem = &self.p.memories[m];
        self.row(mem.offset, mem.size);
        let base = u64::from(self.plan.mem_base[m]);
        self.if_else(
            |g| {
                g.get(ROW)
                    .i(Instruction::I32WrapI64)
                    .i(Instruction::I32Const(3))
                    .i(Instruction::I32Shl)
                    .i(Instruction::I64Load(at(base)));
            },
            |g| {
                g.c(0);
            },
        );
    }

    /// Pops an address; sets `ROW` to its row and pushes (i32) whether it is in range.
    /// Wrapping subtraction and an unsigned bound give the interpreter's `checked_sub` and
    /// range check.
    fn row(&mut self, offset: i64, size: u32) {
        self.c(offset as u64)
            .i(Instruction::I64Sub)
            .i(Instruction::LocalTee(ROW))
            .c(u64::from(size))
            .i(Instruction::I64LtU);
    }

    /// Applies register `r`'s asynchronous controls to the value on the stack.
    fn overrides(&mut self, r: usize) {
        let reg = &self.p.regs[r];
        for (c, val) in [&reg.arst, &reg.aload].into_iter().flatten() {
            self.replace_if(val, |g| {
                g.active(c);
            });
        }
        if let Some((s, pol)) = &reg.set {
            self.read(s);
            if !*pol {
                self.not();
            }
            self.i(Instruction::I64Or);
        }
        if let Some((c, pol)) = &reg.clr {
            self.read(c);
            if *pol {
                self.not();
            }
            self.i(Instruction::I64And);
        }
    }

    fn un(&mut self, inst: &Inst, op: UnOp) {
        let aw = inst.a.width;
        let signed = inst.shape.a_signed;
        self.read(&inst.a);
        match op {
            UnOp::Not => {
                self.extend(aw, signed).not();
            }
            UnOp::Pos => {
                self.extend(aw, signed);
            }
            UnOp::Neg => {
                self.extend(aw, signed)
                    .set(T1)
                    .c(0)
                    .get(T1)
                    .i(Instruction::I64Sub);
            }
            UnOp::ReduceAnd if aw == 0 => {
                self.i(Instruction::Drop).c(1);
            }
            // A one-bit operand (read as 0 or 1) is its own reduction.
            UnOp::ReduceAnd | UnOp::ReduceOr | UnOp::ReduceBool | UnOp::ReduceXor if aw == 1 => {}
            UnOp::ReduceAnd => {
                self.c(mask(aw))
                    .i(Instruction::I64Eq)
                    .i(Instruction::I64ExtendI32U);
            }
            UnOp::ReduceOr | UnOp::ReduceBool => {
                self.nonzero().i(Instruction::I64ExtendI32U);
            }
            UnOp::ReduceXor | UnOp::ReduceXnor => {
                self.i(Instruction::I64Popcnt).c(1).i(Instruction::I64And);
                if op == UnOp::ReduceXnor {
                    self.c(1).i(Instruction::I64Xor);
                }
            }
            UnOp::LogicNot if aw == 1 => {
                self.c(1).i(Instruction::I64Xor);
            }
            UnOp::LogicNot => {
                self.i(Instruction::I64Eqz).i(Instruction::I64ExtendI32U);
            }
        }
    }

    fn bin(&mut self, inst: &Inst, op: BinOp) {
        let s = inst.shape;
        let signed = s.a_signed && s.b_signed;
        let aw = inst.a.width;
        // The operators that are one WebAssembly instruction on the extended operands (the
        // comparisons then widen their i32 to i64).
        let simple = match (op, signed) {
            (BinOp::And, _) => Some((Instruction::I64And, false)),
            (BinOp::Or, _) => Some((Instruction::I64Or, false)),
            (BinOp::Xor | BinOp::Xnor, _) => Some((Instruction::I64Xor, false)),
            (BinOp::Add, _) => Some((Instruction::I64Add, false)),
            (BinOp::Sub, _) => Some((Instruction::I64Sub, false)),
            (BinOp::Mul, _) => Some((Instruction::I64Mul, false)),
            (BinOp::Eq, _) => Some((Instruction::I64Eq, true)),
            (BinOp::Ne, _) => Some((Instruction::I64Ne, true)),
            (BinOp::Lt, true) => Some((Instruction::I64LtS, true)),
            (BinOp::Lt, false) => Some((Instruction::I64LtU, true)),
            (BinOp::Le, true) => Some((Instruction::I64LeS, true)),
            (BinOp::Le, false) => Some((Instruction::I64LeU, true)),
            (BinOp::Gt, true) => Some((Instruction::I64GtS, true)),
            (BinOp::Gt, false) => Some((Instruction::I64GtU, true)),
            (BinOp::Ge, true) => Some((Instruction::I64GeS, true)),
            (BinOp::Ge, false) => Some((Instruction::I64GeU, true)),
            _ => None,
        };
        if let Some((ins, boolean)) = simple {
            self.read_ext(&inst.a, signed)
                .read_ext(&inst.b, signed)
                .i(ins);
            if boolean {
                self.i(Instruction::I64ExtendI32U);
            }
            if op == BinOp::Xnor {
                self.not();
            }
            return;
        }
        match op {
            BinOp::LogicAnd | BinOp::LogicOr if aw == 1 && inst.b.width == 1 => {
                // Two bits (read as 0 or 1): the bitwise operator.
                self.read(&inst.a).read(&inst.b);
                if op == BinOp::LogicAnd {
                    self.i(Instruction::I64And);
                } else {
                    self.i(Instruction::I64Or);
                }
            }
            BinOp::LogicAnd | BinOp::LogicOr => {
                self.read(&inst.a).nonzero().read(&inst.b).nonzero();
                if op == BinOp::LogicAnd {
                    self.i(Instruction::I32And);
                } else {
                    self.i(Instruction::I32Or);
                }
                self.i(Instruction::I64ExtendI32U);
            }
            BinOp::Shl | BinOp::Sshl => {
                self.read_ext(&inst.a, s.a_signed);
                self.shift_or_zero(Instruction::I64Shl, |g| {
                    g.read(&inst.b);
                });
            }
            BinOp::Shr => {
                self.read_ext(&inst.a, s.a_signed)
                    .and_mask(s.y_width.max(aw));
                self.shift_or_zero(Instruction::I64ShrU, |g| {
                    g.read(&inst.b);
                });
            }
            BinOp::Sshr if s.a_signed => {
                // ext(a) >>s min(b, 63)
                self.read_ext(&inst.a, true)
                    .read(&inst.b)
                    .i(Instruction::LocalTee(T1))
                    .c(63)
                    .get(T1)
                    .c(63)
                    .i(Instruction::I64LtU)
                    .i(Instruction::Select)
                    .i(Instruction::I64ShrS);
            }
            BinOp::Sshr => {
                self.read(&inst.a);
                self.shift_or_zero(Instruction::I64ShrU, |g| {
                    g.read(&inst.b);
                });
            }
            BinOp::Shift | BinOp::Shiftx => {
                // The shifted value in T2, the amount in T1.
                if op == BinOp::Shift {
                    self.read_ext(&inst.a, s.a_signed)
                        .and_mask(s.y_width.max(aw));
                } else {
                    self.read(&inst.a);
                }
                self.set(T2);
                if s.b_signed {
                    // amount >= 64 || amount <= -64 ? 0 : amount >= 0 ? a >> amount : a << -amount
                    self.read_ext(&inst.b, true)
                        .set(T1)
                        .get(T2)
                        .get(T1)
                        .i(Instruction::I64ShrU)
                        .get(T2)
                        .c(0)
                        .get(T1)
                        .i(Instruction::I64Sub)
                        .i(Instruction::I64Shl)
                        .get(T1)
                        .c(0)
                        .i(Instruction::I64GeS)
                        .i(Instruction::Select)
                        .c(0)
                        // -64 < amount < 64  ⇔  amount + 63 <u 127
                        .get(T1)
                        .c(63)
                        .i(Instruction::I64Add)
                        .c(127)
                        .i(Instruction::I64LtU)
                        .i(Instruction::Select);
                } else {
                    self.get(T2);
                    self.shift_or_zero(Instruction::I64ShrU, |g| {
                        g.read(&inst.b);
                    });
                }
            }
            BinOp::Div | BinOp::Mod | BinOp::DivFloor | BinOp::ModFloor => {
                self.read_ext(&inst.a, signed)
                    .set(T1)
                    .read_ext(&inst.b, signed)
                    .i(Instruction::LocalTee(T2))
                    .i(Instruction::I64Eqz);
                self.if_else(
                    |g| {
                        g.c(0);
                    },
                    |g| g.divide(op, signed),
                );
            }
            BinOp::Pow => self.pow(inst),
            _ => unreachable!("one-instruction operators are handled above"),
        }
    }

    /// `a ** b` as the interpreter's `pow_narrow`: each operand extended by its own sign flag;
    /// a negative exponent gives 1 for a base of 1, ±1 for a signed -1, else 0; otherwise
    /// square and multiply over the exponent's bits. Uses T1 (base), T2 (exponent), T3.
    fn pow(&mut self, inst: &Inst) {
        let s = inst.shape;
        self.read_ext(&inst.a, s.a_signed)
            .set(T1)
            .read_ext(&inst.b, s.b_signed)
            .set(T2);
        if s.b_signed {
            self.get(T2).c(0).i(Instruction::I64LtS);
        } else {
            self.i(Instruction::I32Const(0));
        }
        self.if_else(
            |g| {
                // base == 1 ? 1 : (a_signed && base == -1 ? (b odd ? -1 : 1) : 0)
                g.c(1);
                if s.a_signed {
                    g.c(u64::MAX)
                        .c(1)
                        .get(T2)
                        .c(1)
                        .i(Instruction::I64And)
                        .i(Instruction::I32WrapI64)
                        .i(Instruction::Select)
                        .c(0)
                        .get(T1)
                        .c(u64::MAX)
                        .i(Instruction::I64Eq)
                        .i(Instruction::Select);
                } else {
                    g.c(0);
                }
                g.get(T1).c(1).i(Instruction::I64Eq).i(Instruction::Select);
            },
            |g| {
                g.c(1).set(T3);
                g.i(Instruction::Block(BlockType::Empty))
                    .i(Instruction::Loop(BlockType::Empty))
                    .get(T2)
                    .i(Instruction::I64Eqz)
                    .i(Instruction::BrIf(1))
                    // result *= exponent odd ? base : 1
                    .get(T3)
                    .get(T1)
                    .c(1)
                    .get(T2)
                    .c(1)
                    .i(Instruction::I64And)
                    .i(Instruction::I32WrapI64)
                    .i(Instruction::Select)
                    .i(Instruction::I64Mul)
                    .set(T3)
                    .get(T1)
                    .get(T1)
                    .i(Instruction::I64Mul)
                    .set(T1)
                    .get(T2)
                    .c(1)
                    .i(Instruction::I64ShrU)
                    .set(T2)
                    .i(Instruction::Br(0))
                    .i(Instruction::End)
                    .i(Instruction::End)
                    .get(T3);
            },
        );
    }

    /// `T1 / T2` (or the remainder) for a non-zero `T2`, as the interpreter's `div_narrow`:
    /// wrapping (`MIN / -1` is `MIN`, where WebAssembly's `div_s` would trap).
    fn divide(&mut self, op: BinOp, signed: bool) {
        if !signed {
            self.get(T1).get(T2);
            match op {
                BinOp::Div | BinOp::DivFloor => self.i(Instruction::I64DivU),
                _ => self.i(Instruction::I64RemU),
            };
            return;
        }
        let minus_one = |g: &mut Self| {
            g.get(T2).c(u64::MAX).i(Instruction::I64Eq);
        };
        // T3 = r (rem_s does not trap on MIN % -1: it is 0)
        self.get(T1).get(T2).i(Instruction::I64RemS).set(T3);
        // q = b == -1 ? 0 - a : a / b
        self.c(0)
            .get(T1)
            .i(Instruction::I64Sub)
            .get(T1)
            .c(1)
            .get(T2);
        minus_one(self);
        self.i(Instruction::Select).i(Instruction::I64DivS);
        minus_one(self);
        self.i(Instruction::Select);
        let floor = |g: &mut Self| {
            // r != 0 && (r < 0) != (b < 0)
            g.get(T3)
                .nonzero()
                .get(T3)
                .c(0)
                .i(Instruction::I64LtS)
                .get(T2)
                .c(0)
                .i(Instruction::I64LtS)
                .i(Instruction::I32Ne)
                .i(Instruction::I32And);
        };
        match op {
            BinOp::Div => {}
            BinOp::Mod => {
                self.i(Instruction::Drop).get(T3);
            }
            BinOp::DivFloor => {
                floor(self);
                self.i(Instruction::I64ExtendI32U).i(Instruction::I64Sub);
            }
            _ => {
                self.i(Instruction::Drop).get(T3).get(T2).c(0);
                floor(self);
                self.i(Instruction::Select).i(Instruction::I64Add);
            }
        }
    }

    /// One clock edge: stage every element of that polarity, run the write ports, apply.
    /// With tracking, only the chunks whose bit is up (adaptive and untracked, all of them, in
    /// straight-line code that neither compares nor marks: see [`Gen::straight_edge`]).
    fn edge(&mut self, posedge: bool) {
        let plan = self.plan;
        if !plan.tracking {
            self.straight_edge(posedge);
        } else if plan.adaptive {
            self.get(self.mode())
                .nonzero()
                .i(Instruction::If(BlockType::Empty));
            self.straight_edge(posedge);
            self.i(Instruction::Else);
            self.tracked_edge(posedge);
            self.i(Instruction::End);
        } else {
            self.tracked_edge(posedge);
        }
    }

    /// The chunks of one edge: its registers' (rising edge first), then its read ports'.
    fn edge_chunks(&self, posedge: bool) -> Vec<u64> {
        let (p, plan) = (self.p, self.plan);
        let side = usize::from(!posedge);
        let first_chunk = if posedge { 0 } else { plan.chunks[0].len() };
        (first_chunk..first_chunk + plan.chunks[side].len())
            .map(|c| c as u64)
            .chain(
                (0..p.reads.len())
                    .filter(|&k| p.reads[k].posedge == posedge)
                    .map(|k| self.read_chunk(k)),
            )
            .collect()
    }

    /// Stages chunk `c`: its registers, or its read port.
    fn stage_chunk(&mut self, c: u64) {
        let plan = self.plan;
        let reg_chunks = plan.chunks[0].len() + plan.chunks[1].len();
        let c = c as usize;
        if c >= reg_chunks {
            self.stage_read(c - reg_chunks);
            return;
        }
        let regs = plan.chunks.iter().flatten().nth(c).expect("a chunk");
        for &r in regs {
            self.stage_reg(r);
        }
    }

    /// Applies chunk `c`'s staged values; `tracked`: only what changed, marking its readers.
    fn apply_chunk(&mut self, c: u64, tracked: bool) {
        let (p, plan) = (self.p, self.plan);
        let reg_chunks = plan.chunks[0].len() + plan.chunks[1].len();
        let c = c as usize;
        let states: Vec<(u64, crate::compile::Operand)> = if c >= reg_chunks {
            let k = c - reg_chunks;
            vec![(plan.stage_slot(p.regs.len() + k), p.reads[k].state)]
        } else {
            let regs = plan.chunks.iter().flatten().nth(c).expect("a chunk");
            regs.iter()
                .map(|&r| (plan.stage_slot(r), p.regs[r].state))
                .collect()
        };
        for (slot, state) in states {
            if tracked {
                self.load_at(slot);
                self.update(u64::from(state.off) * 8, state.sig, Origin::Edge, true);
            } else {
                self.store_at(u64::from(state.off) * 8, |g| {
                    g.load_at(slot);
                });
            }
        }
    }

    /// An edge that stages everything and applies it without comparing or marking (no
    /// tracking, or adaptive tracking while untracked: whatever runs next computes everything).
    ///
    /// A register whose next value reads no state this edge changes (but its own) is not
    /// staged: it is computed straight into its state after the write ports (which read the
    /// old states), saving a store and a load of its staging word.
    fn straight_edge(&mut self, posedge: bool) {
        let (p, plan) = (self.p, self.plan);
        let chunks = self.edge_chunks(posedge);
        let reg_chunks = plan.chunks[0].len() + plan.chunks[1].len();
        let regs: Vec<usize> = chunks
            .iter()
            .filter(|&&c| (c as usize) < reg_chunks)
            .flat_map(|&c| {
                plan.chunks
                    .iter()
                    .flatten()
                    .nth(c as usize)
                    .expect("a chunk")
            })
            .copied()
            .collect();
        let reads: Vec<usize> = chunks
            .iter()
            .filter(|&&c| (c as usize) >= reg_chunks)
            .map(|&c| c as usize - reg_chunks)
            .collect();
        let state_words = |op: &Operand| op.off..op.off + op.words().max(1) as u32;
        let written: std::collections::HashSet<u32> = regs
            .iter()
            .map(|&r| p.regs[r].state)
            .chain(reads.iter().map(|&k| p.reads[k].state))
            .flat_map(|op| state_words(&op))
            .collect();
        let (direct, staged): (Vec<usize>, Vec<usize>) = regs.iter().partition(|&&r| {
            let own = state_words(&p.regs[r].state);
            self.reg_inputs(r)
                .iter()
                .all(|w| own.contains(w) || !written.contains(w))
        });
        for &r in &staged {
            self.stage_reg(r);
        }
        for &k in &reads {
            self.stage_read(k);
        }
        self.straight = true;
        for k in (0..p.writes.len()).filter(|&k| p.writes[k].posedge == posedge) {
            self.write_port(k);
        }
        self.straight = false;
        for &r in &direct {
            let state = p.regs[r].state;
            self.store_at(u64::from(state.off) * 8, |g| g.next_reg(r));
        }
        for &r in &staged {
            let state = p.regs[r].state;
            self.store_at(u64::from(state.off) * 8, |g| {
                g.load_at(plan.stage_slot(r));
            });
        }
        for &k in &reads {
            self.apply_chunk(self.read_chunk(k), false);
        }
    }

    /// An edge with tracking: per mask word, the chunks of this edge whose bit is up are
    /// taken (into the word's staged local) and staged; then the write ports; then the staged
    /// chunks (and read ports a transparent write staged) are applied.
    fn tracked_edge(&mut self, posedge: bool) {
        let (p, plan) = (self.p, self.plan);
        let chunks = self.edge_chunks(posedge);
        let mut words: Vec<(u64, Vec<u64>)> = Vec::new();
        for &c in &chunks {
            match words.last_mut() {
                Some((w, cs)) if *w == c / 64 => cs.push(c),
                _ => words.push((c / 64, vec![c])),
            }
        }
        // Words may come twice (a read port's chunk after the other edge's registers).
        words.sort_by_key(|(w, _)| *w);
        let mut merged: Vec<(u64, Vec<u64>)> = Vec::new();
        for (w, cs) in words {
            match merged.last_mut() {
                Some((m, mcs)) if *m == w => mcs.extend(cs),
                _ => merged.push((w, cs)),
            }
        }
        let words = merged;
        for (w, cs) in &words {
            let addr = plan.chunk_mask + w * 8;
            let bits = cs.iter().fold(0u64, |b, &c| b | plan.chunk_bit(c).1);
            let all = mask((plan.nchunks - 64 * *w as usize).min(64) as u32);
            let staged = self.staged(*w);
            self.load_at(addr);
            if bits != all {
                self.c(bits).i(Instruction::I64And);
            }
            self.set(staged);
            self.store_at(addr, |g| {
                if bits == all {
                    g.c(0);
                } else {
                    g.load_at(addr).c(!bits).i(Instruction::I64And);
                }
            });
            self.dispatch(staged, cs, |g, c| g.stage_chunk(c));
        }
        for k in (0..p.writes.len()).filter(|&k| p.writes[k].posedge == posedge) {
            self.write_port(k);
        }
        for (w, cs) in &words {
            let staged = self.staged(*w);
            self.dispatch(staged, cs, |g, c| g.apply_chunk(c, true));
        }
    }

    /// Runs `body` for each chunk of `chunks` (all in one mask word) whose bit is set in local
    /// `bits`, lowest first: `left = bits; loop { if !left break; c = ctz(left); left &=
    /// left - 1; br_table c to its code, which continues the loop }`.
    fn dispatch(&mut self, bits: u32, chunks: &[u64], mut body: impl FnMut(&mut Self, u64)) {
        if let [c] = chunks {
            let bit = self.plan.chunk_bit(*c).1;
            self.get(bits)
                .c(bit)
                .i(Instruction::I64And)
                .nonzero()
                .i(Instruction::If(BlockType::Empty));
            body(self, *c);
            self.i(Instruction::End);
            return;
        }
        let n = chunks.len() as u32;
        let left = self.left();
        self.get(bits).set(left);
        self.i(Instruction::Block(BlockType::Empty))
            .i(Instruction::Loop(BlockType::Empty));
        for _ in 0..n {
            self.i(Instruction::Block(BlockType::Empty));
        }
        self.get(left)
            .i(Instruction::I64Eqz)
            .i(Instruction::BrIf(n + 1));
        self.get(left)
            .i(Instruction::I64Ctz)
            .i(Instruction::I32WrapI64)
            .get(left)
            .get(left)
            .c(1)
            .i(Instruction::I64Sub)
            .i(Instruction::I64And)
            .set(left);
        let top = chunks.iter().map(|&c| c % 64).max().unwrap_or(0) as usize;
        let mut table = vec![n + 1; top + 1];
        for (j, &c) in chunks.iter().enumerate() {
            table[(c % 64) as usize] = j as u32;
        }
        self.i(Instruction::BrTable(table.into(), n + 1));
        for (j, &c) in chunks.iter().enumerate() {
            self.i(Instruction::End);
            body(self, c);
            self.i(Instruction::Br(n - 1 - j as u32));
        }
        self.i(Instruction::End).i(Instruction::End);
    }

    /// The chunk of synchronous read port `k`.
    fn read_chunk(&self, k: usize) -> u64 {
        self.plan.reg_chunk[self.p.regs.len() + k].expect("a read port has a chunk") as u64
    }

    /// Stages register `r`'s next value (the interpreter's `next_narrow`).
    fn stage_reg(&mut self, r: usize) {
        let slot = self.plan.stage_slot(r);
        self.store_at(slot, |g| g.next_reg(r));
    }

    /// The arena words register `r`'s next value reads.
    fn reg_inputs(&self, r: usize) -> Vec<u32> {
        let reg = &self.p.regs[r];
        let mut ops = vec![reg.d, reg.state];
        ops.extend(reg.en.map(|c| c.sig));
        for (c, v) in [reg.srst, reg.arst, reg.aload].into_iter().flatten() {
            ops.push(c.sig);
            ops.push(v);
        }
        ops.extend(reg.set.map(|x| x.0));
        ops.extend(reg.clr.map(|x| x.0));
        ops.iter()
            .flat_map(|o| o.off..o.off + o.words().max(1) as u32)
            .collect()
    }

    /// Pushes register `r`'s next value (the interpreter's `next_narrow`).
    fn next_reg(&mut self, r: usize) {
        let reg = &self.p.regs[r];
        {
            let g = self;
            g.read(&reg.d);
            if let Some(c) = &reg.en {
                g.set(T1)
                    .get(T1)
                    .read(&reg.state)
                    .active(c)
                    .i(Instruction::Select);
            }
            if let Some((c, val)) = &reg.srst {
                g.replace_if(val, |g| {
                    g.active(c);
                    if reg.ce_over_srst
                        && let Some(en) = &reg.en
                    {
                        g.active(en).i(Instruction::I32And);
                    }
                });
            }
            g.overrides(r);
            // Each value it may take is read within its own width (per-bit set and clear may
            // set any bit).
            let w = reg.state.width;
            let fits = reg.d.width <= w
                && [reg.srst, reg.arst, reg.aload]
                    .iter()
                    .flatten()
                    .all(|(_, v)| v.width <= w)
                && reg.set.is_none()
                && reg.clr.is_none();
            if !fits {
                g.and_mask(w);
            }
        }
    }

    /// Stages synchronous read port `k`: `en ? mem[addr] : state`, then the reset when active
    /// (and enabled, with `ce_over_srst`).
    fn stage_read(&mut self, k: usize) {
        let rd = &self.p.reads[k];
        let slot = self.plan.stage_slot(self.p.regs.len() + k);
        self.store_at(slot, |g| {
            g.bit0(rd.en.off);
            g.if_else(
                |g| {
                    g.read(&rd.addr);
                    g.mem_load(rd.mem as usize);
                },
                |g| {
                    g.word(rd.state.off);
                },
            );
            if let Some((c, val)) = &rd.srst {
                g.replace_if(val, |g| {
                    g.active(c);
                    if rd.ce_over_srst {
                        g.bit0(rd.en.off).i(Instruction::I32And);
                    }
                });
            }
        });
    }

    /// A write port: when enabled and in range, merge its data into the row under its enable
    /// bits, then let the transparent read ports at that row see it.
    fn write_port(&mut self, k: usize) {
        let p = self.p;
        let wp = &p.writes[k];
        let m = wp.mem as usize;
        let mem = &p.memories[m];
        let base = u64::from(self.plan.mem_base[m]);
        // if en != 0 && row in range
        self.word(wp.en.off).nonzero().read(&wp.addr);
        self.row(mem.offset, mem.size);
        self.i(Instruction::I32And)
            .i(Instruction::If(BlockType::Empty));
        // T2 = row's byte address (as i64, wrapped to i32 at each use)
        self.get(ROW).c(3).i(Instruction::I64Shl).set(T2);
        // mem[row] = (mem[row] & !en) | (data & en)
        self.get(T2)
            .i(Instruction::I32WrapI64)
            .get(T2)
            .i(Instruction::I32WrapI64)
            .i(Instruction::I64Load(at(base)))
            .merge_enabled(wp.en.off, wp.data.off)
            .i(Instruction::I64Store(at(base)));
        if self.plan.tracking && !self.straight {
            // The asynchronous readers of the memory see the new contents.
            let blocks: Vec<usize> = mem
                .readers
                .iter()
                .map(|&i| self.plan.block_of(i as usize))
                .collect();
            self.mark_blocks(blocks);
            // Its synchronous read ports read the new contents at their next edge.
            let reads: Vec<u64> = (0..p.reads.len())
                .filter(|&rk| p.reads[rk].mem as usize == m)
                .map(|rk| self.read_chunk(rk))
                .collect();
            self.mark_chunks(reads);
        }
        for (rk, rd) in p.reads.iter().enumerate() {
            if rd.posedge != wp.posedge || !rd.transparent.contains(&(k as u32)) {
                continue;
            }
            let slot = self.plan.stage_slot(p.regs.len() + rk);
            // read enabled, reset inactive, same row
            self.bit0(rd.en.off);
            if let Some((c, _)) = &rd.srst {
                self.active(c).i(Instruction::I32Eqz).i(Instruction::I32And);
            }
            // ROW still holds the write's row: compare the read's row with it (T1).
            self.get(ROW).set(T1);
            self.read(&rd.addr);
            self.row(mem.offset, mem.size);
            self.i(Instruction::I32And)
                .get(ROW)
                .get(T1)
                .i(Instruction::I64Eq)
                .i(Instruction::I32And)
                .get(T1)
                .set(ROW)
                .i(Instruction::If(BlockType::Empty));
            if self.plan.tracking && !self.straight {
                // Not staged at this edge (nothing changed): it would have staged its state.
                let c = self.read_chunk(rk);
                self.was_staged(c);
                self.i(Instruction::I32Eqz)
                    .i(Instruction::If(BlockType::Empty));
                self.store_at(slot, |g| {
                    g.word(rd.state.off);
                });
                self.set_staged(c);
                self.i(Instruction::End);
            }
            self.store_at(slot, |g| {
                g.load_at(slot).merge_enabled(wp.en.off, wp.data.off);
            });
            self.i(Instruction::End);
        }
        self.i(Instruction::End);
    }
}
