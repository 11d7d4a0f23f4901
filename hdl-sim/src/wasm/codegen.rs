//! [`Program`] → WebAssembly bytes.
//!
//! The module exports its memory as `mem` and one function, `run(n: i64)`, which runs `n`
//! clock cycles exactly as [`crate::Simulator::step`] does: for each half of the cycle, the
//! clock bit is driven (nothing happens when it already has that level), the elements of that
//! edge sample the settled values and are then written, and every instruction is evaluated in
//! order.
//!
//! What is covered is listed in [`crate::wasm`]; [`check`] refuses the rest.

use wasm_encoder::{
    BlockType, CodeSection, ExportKind, ExportSection, Function, FunctionSection, Instruction,
    MemArg, MemorySection, MemoryType, Module, TypeSection, ValType,
};

use crate::compile::{Control, Inst, Kind, Operand, Program};
use crate::ops::{BinOp, UnOp, mask};

/// Why a program cannot be compiled (yet): the caller runs it with the interpreter.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unsupported {
    /// A combinational instruction (numbered in evaluation order) of a kind or width the
    /// generator does not handle.
    #[error("instruction {index} ({what}) is not compiled yet")]
    Instruction { index: usize, what: String },
    /// A register, memory or port the generator does not handle.
    #[error("{0} is not compiled yet")]
    State(String),
    /// The state does not fit in a 32-bit WebAssembly memory.
    #[error("the design's state ({0} bytes) does not fit in a WebAssembly memory")]
    TooBig(u64),
}

/// A generated module and where it keeps the memories.
#[derive(Clone, Debug)]
pub struct WasmModule {
    /// The module: exports `mem` (the state) and `run(n: i64)` (runs `n` cycles).
    pub bytes: Vec<u8>,
    /// Per memory of the design (in the simulator's order): the byte offset of its row 0 in
    /// `mem`, one little-endian word per row. The arena starts at byte 0.
    pub memory_bases: Vec<u32>,
}

const I64: u32 = 3; // log2 of the alignment of an i64 access

fn at(offset: u64) -> MemArg {
    MemArg {
        offset,
        align: I64,
        memory_index: 0,
    }
}

/// Generates the module for `p` (whose `arena_init` may already have moved out: only its
/// length, `arena_words`, is needed).
pub(crate) fn generate(p: &Program, arena_words: usize) -> Result<WasmModule, Unsupported> {
    check(p)?;
    let mut base = arena_words as u64 * 8;
    let mut mem_base = Vec::with_capacity(p.memories.len());
    for m in &p.memories {
        mem_base.push(u32::try_from(base).map_err(|_| Unsupported::TooBig(base))?);
        base += u64::from(m.size) * 8;
    }
    let stage_base = base;
    let stages = p.regs.len() + p.reads.len();
    let total = stage_base + stages as u64 * 8;
    if total > u64::from(u32::MAX) {
        return Err(Unsupported::TooBig(total));
    }
    let g = Gen {
        p,
        mem_base: &mem_base,
        stage_base,
        f: Function::new([(5, ValType::I64)]),
    };
    let run = g.run();

    let mut module = Module::new();
    let mut types = TypeSection::new();
    types.ty().function([ValType::I64], []);
    module.section(&types);
    let mut funcs = FunctionSection::new();
    funcs.function(0);
    module.section(&funcs);
    let mut mems = MemorySection::new();
    mems.memory(MemoryType {
        minimum: total.div_ceil(65536).max(1),
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
    code.function(&run);
    module.section(&code);
    Ok(WasmModule {
        bytes: module.finish(),
        memory_bases: mem_base,
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
            Kind::Bin(BinOp::Pow) => return Err(refuse(&kind_name(inst.kind))),
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

struct Gen<'p> {
    p: &'p Program,
    mem_base: &'p [u32],
    stage_base: u64,
    f: Function,
}

/// Scratch locals of `run`.
const N: u32 = 0; // the parameter: cycles left
const T0: u32 = 1;
const T1: u32 = 2;
const ROW: u32 = 3;
const T2: u32 = 4;
const T3: u32 = 5;

impl Gen<'_> {
    fn i(&mut self, ins: Instruction<'_>) -> &mut Self {
        self.f.instruction(&ins);
        self
    }

    fn c(&mut self, v: u64) -> &mut Self {
        self.i(Instruction::I64Const(v as i64))
    }

    /// Pushes arena word `off`.
    fn word(&mut self, off: u32) -> &mut Self {
        self.i(Instruction::I32Const(0))
            .i(Instruction::I64Load(at(u64::from(off) * 8)))
    }

    /// Pushes an operand's value (its low `width` bits).
    fn read(&mut self, op: &Operand) -> &mut Self {
        self.word(op.off);
        self.and_mask(op.width)
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

    /// Pops a value into arena word `off`.
    fn store_word(&mut self, off: u32) -> &mut Self {
        self.i(Instruction::LocalSet(T0))
            .i(Instruction::I32Const(0))
            .i(Instruction::LocalGet(T0))
            .i(Instruction::I64Store(at(u64::from(off) * 8)))
    }

    /// Pushes whether a one-bit control is active, as an i32.
    fn active(&mut self, c: &Control) -> &mut Self {
        self.word(c.sig.off).c(1).i(Instruction::I64And);
        if c.active_high {
            self.i(Instruction::I64Eqz).i(Instruction::I32Eqz)
        } else {
            self.i(Instruction::I64Eqz)
        }
    }

    /// `cond ? then : else`, where `cond` (i32) is on the stack and the branches push an i64.
    fn if_else(&mut self, then: impl FnOnce(&mut Self), els: impl FnOnce(&mut Self)) {
        self.i(Instruction::If(BlockType::Result(ValType::I64)));
        then(self);
        self.i(Instruction::Else);
        els(self);
        self.i(Instruction::End);
    }

    /// Pushes `(value >> shift) & mask(len)` for `len` bits at bit `bit` of the value at arena
    /// word `off` (the interpreter's `extract`).
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
        self.and_mask(len)
    }

    fn run(mut self) -> Function {
        let p = self.p;
        let has_posedge = p.regs.iter().any(|r| r.posedge && r.clocked)
            || p.reads.iter().any(|r| r.posedge)
            || p.writes.iter().any(|w| w.posedge);
        let has_negedge = p.regs.iter().any(|r| !r.posedge && r.clocked)
            || p.reads.iter().any(|r| !r.posedge)
            || p.writes.iter().any(|w| !w.posedge);
        // block { loop { if n == 0 break; n -= 1; cycle; continue } }
        self.i(Instruction::Block(BlockType::Empty))
            .i(Instruction::Loop(BlockType::Empty))
            .i(Instruction::LocalGet(N))
            .i(Instruction::I64Eqz)
            .i(Instruction::BrIf(1))
            .i(Instruction::LocalGet(N))
            .c(1)
            .i(Instruction::I64Sub)
            .i(Instruction::LocalSet(N));
        for level in [true, false] {
            let edge = if level { has_posedge } else { has_negedge };
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
                    self.word(w).c(b).i(Instruction::I64Xor).store_word(w);
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
        self.i(Instruction::Br(0))
            .i(Instruction::End)
            .i(Instruction::End)
            .i(Instruction::End);
        self.f
    }

    fn settle(&mut self) {
        for inst in &self.p.insts {
            if let Kind::Gather(g) = inst.kind
                && inst.y.width > 64
            {
                self.wide_gather(inst.y.off, g as usize);
                continue;
            }
            self.inst(inst);
            self.and_mask(inst.y.width).store_word(inst.y.off);
        }
    }

    /// A gather into several words: the constant bits, then each segment or-ed into the word
    /// it lands in (the compiler never lets a segment cross a destination word).
    fn wide_gather(&mut self, y_off: u32, g: usize) {
        let g = &self.p.gathers[g];
        for (k, &c) in g.constant.iter().enumerate() {
            self.c(c).store_word(y_off + k as u32);
        }
        for s in &g.segments {
            let w = y_off + s.dst_bit / 64;
            self.word(w).extract(s.src_off, s.src_bit, s.len);
            if s.dst_bit % 64 > 0 {
                self.c(u64::from(s.dst_bit % 64)).i(Instruction::I64Shl);
            }
            self.i(Instruction::I64Or).store_word(w);
        }
    }

    /// Pops a bit index; pushes the `len` (≤ 64) bits there of the value at arena word `off`,
    /// `total` bits long (the interpreter's `extract` at a computed position). Uses `T1`.
    fn extract_at(&mut self, off: u32, len: u32, total: u32) {
        let base = u64::from(off) * 8;
        let word_addr = |g: &mut Self| {
            g.i(Instruction::LocalGet(T1))
                .c(6)
                .i(Instruction::I64ShrU)
                .c(3)
                .i(Instruction::I64Shl)
                .i(Instruction::I32WrapI64);
        };
        self.i(Instruction::LocalSet(T1));
        word_addr(self);
        self.i(Instruction::I64Load(at(base)))
            .i(Instruction::LocalGet(T1))
            .i(Instruction::I64ShrU);
        if len > 1 && total > 64 {
            // Bits from the next word when the part straddles two.
            self.i(Instruction::LocalGet(T1))
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
                        .i(Instruction::LocalGet(T1))
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
    fn inst(&mut self, inst: &Inst) {
        match inst.kind {
            Kind::Un(op) => self.un(inst, op),
            Kind::Bin(op) => self.bin(inst, op),
            Kind::Mux => {
                self.read(&inst.b).read(&inst.a).read(&inst.s);
                self.i(Instruction::I64Eqz)
                    .i(Instruction::I32Eqz)
                    .i(Instruction::Select);
            }
            Kind::Bwmux => {
                self.read(&inst.a)
                    .read(&inst.s)
                    .c(u64::MAX)
                    .i(Instruction::I64Xor)
                    .i(Instruction::I64And)
                    .read(&inst.b)
                    .read(&inst.s)
                    .i(Instruction::I64And)
                    .i(Instruction::I64Or);
            }
            Kind::Pmux => {
                // s == 0 ? a : (b >> ctz(s) * w)
                let w = u64::from(inst.y.width);
                self.read(&inst.a)
                    .read(&inst.s)
                    .i(Instruction::I64Ctz)
                    .c(w)
                    .i(Instruction::I64Mul);
                // ctz(0) = 64 may point past `b`: clamp to part 0 (the result is `a` then).
                self.i(Instruction::LocalSet(T1))
                    .i(Instruction::LocalGet(T1))
                    .c(0)
                    .read(&inst.s)
                    .i(Instruction::I64Eqz)
                    .i(Instruction::I32Eqz)
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
                // s * w >= 64 ? 0 : a << s * w (w == 0: 0)
                let w = u64::from(inst.a.width);
                self.read(&inst.s)
                    .c(w)
                    .i(Instruction::I64Mul)
                    .i(Instruction::LocalSet(T1))
                    .read(&inst.a)
                    .i(Instruction::LocalGet(T1))
                    .i(Instruction::I64Shl)
                    .c(0)
                    .i(Instruction::LocalGet(T1))
                    .c(64)
                    .i(Instruction::I64LtU)
                    .i(Instruction::Select);
                if w == 0 {
                    self.i(Instruction::Drop).c(0);
                }
            }
            Kind::Gather(g) => {
                let g = &self.p.gathers[g as usize];
                self.c(g.constant[0]);
                for s in &g.segments {
                    self.extract(s.src_off, s.src_bit, s.len);
                    if s.dst_bit > 0 {
                        self.c(u64::from(s.dst_bit)).i(Instruction::I64Shl);
                    }
                    self.i(Instruction::I64Or);
                }
            }
            Kind::MemRead(m) => {
                let (offset, size) = {
                    let mem = &self.p.memories[m as usize];
                    (mem.offset, mem.size)
                };
                self.read(&inst.a);
                self.mem_load(m as usize, offset, size);
            }
            Kind::Override(r) => {
                self.read(&inst.a);
                self.overrides(r as usize);
            }
        }
    }

    /// Pops an address, pushes the memory word it selects (0 out of range); uses `ROW`.
    fn mem_load(&mut self, m: usize, offset: i64, size: u32) {
        self.row(offset, size);
        let base = u64::from(self.mem_base[m]);
        self.if_else(
            |g| {
                g.i(Instruction::LocalGet(ROW))
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
        if let Some((c, val)) = &reg.arst {
            self.i(Instruction::LocalSet(T1))
                .read(val)
                .i(Instruction::LocalGet(T1))
                .active(c)
                .i(Instruction::Select);
        }
        if let Some((c, ad)) = &reg.aload {
            self.i(Instruction::LocalSet(T1))
                .read(ad)
                .i(Instruction::LocalGet(T1))
                .active(c)
                .i(Instruction::Select);
        }
        if let Some((s, pol)) = &reg.set {
            self.read(s);
            if !*pol {
                self.c(u64::MAX).i(Instruction::I64Xor);
            }
            self.i(Instruction::I64Or);
        }
        if let Some((c, pol)) = &reg.clr {
            self.read(c);
            if *pol {
                self.c(u64::MAX).i(Instruction::I64Xor);
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
                self.extend(aw, signed).c(u64::MAX).i(Instruction::I64Xor);
            }
            UnOp::Pos => {
                self.extend(aw, signed);
            }
            UnOp::Neg => {
                self.extend(aw, signed)
                    .i(Instruction::LocalSet(T1))
                    .c(0)
                    .i(Instruction::LocalGet(T1))
                    .i(Instruction::I64Sub);
            }
            UnOp::ReduceAnd => {
                if aw == 0 {
                    self.i(Instruction::Drop).c(1);
                } else {
                    self.c(mask(aw))
                        .i(Instruction::I64Eq)
                        .i(Instruction::I64ExtendI32U);
                }
            }
            UnOp::ReduceOr | UnOp::ReduceBool => {
                self.i(Instruction::I64Eqz)
                    .i(Instruction::I32Eqz)
                    .i(Instruction::I64ExtendI32U);
            }
            UnOp::ReduceXor => {
                self.i(Instruction::I64Popcnt).c(1).i(Instruction::I64And);
            }
            UnOp::ReduceXnor => {
                self.i(Instruction::I64Popcnt)
                    .c(1)
                    .i(Instruction::I64And)
                    .c(1)
                    .i(Instruction::I64Xor);
            }
            UnOp::LogicNot => {
                self.i(Instruction::I64Eqz).i(Instruction::I64ExtendI32U);
            }
        }
    }

    fn bin(&mut self, inst: &Inst, op: BinOp) {
        let s = inst.shape;
        let signed = s.a_signed && s.b_signed;
        let (aw, bw) = (inst.a.width, inst.b.width);
        let bool_result = |g: &mut Self, ins: Instruction<'static>| {
            g.i(ins).i(Instruction::I64ExtendI32U);
        };
        match op {
            BinOp::And
            | BinOp::Or
            | BinOp::Xor
            | BinOp::Xnor
            | BinOp::Add
            | BinOp::Sub
            | BinOp::Mul
            | BinOp::Eq
            | BinOp::Ne
            | BinOp::Lt
            | BinOp::Le
            | BinOp::Gt
            | BinOp::Ge => {
                self.read(&inst.a)
                    .extend(aw, signed)
                    .read(&inst.b)
                    .extend(bw, signed);
                match op {
                    BinOp::And => {
                        self.i(Instruction::I64And);
                    }
                    BinOp::Or => {
                        self.i(Instruction::I64Or);
                    }
                    BinOp::Xor => {
                        self.i(Instruction::I64Xor);
                    }
                    BinOp::Xnor => {
                        self.i(Instruction::I64Xor)
                            .c(u64::MAX)
                            .i(Instruction::I64Xor);
                    }
                    BinOp::Add => {
                        self.i(Instruction::I64Add);
                    }
                    BinOp::Sub => {
                        self.i(Instruction::I64Sub);
                    }
                    BinOp::Mul => {
                        self.i(Instruction::I64Mul);
                    }
                    BinOp::Eq => bool_result(self, Instruction::I64Eq),
                    BinOp::Ne => bool_result(self, Instruction::I64Ne),
                    BinOp::Lt if signed => bool_result(self, Instruction::I64LtS),
                    BinOp::Lt => bool_result(self, Instruction::I64LtU),
                    BinOp::Le if signed => bool_result(self, Instruction::I64LeS),
                    BinOp::Le => bool_result(self, Instruction::I64LeU),
                    BinOp::Gt if signed => bool_result(self, Instruction::I64GtS),
                    BinOp::Gt => bool_result(self, Instruction::I64GtU),
                    BinOp::Ge if signed => bool_result(self, Instruction::I64GeS),
                    _ => bool_result(self, Instruction::I64GeU),
                }
            }
            BinOp::LogicAnd | BinOp::LogicOr => {
                self.read(&inst.a)
                    .i(Instruction::I64Eqz)
                    .i(Instruction::I32Eqz)
                    .read(&inst.b)
                    .i(Instruction::I64Eqz)
                    .i(Instruction::I32Eqz);
                if op == BinOp::LogicAnd {
                    self.i(Instruction::I32And);
                } else {
                    self.i(Instruction::I32Or);
                }
                self.i(Instruction::I64ExtendI32U);
            }
            BinOp::Shl | BinOp::Sshl => {
                // b >= 64 ? 0 : ext(a) << b
                self.read(&inst.a)
                    .extend(aw, s.a_signed)
                    .read(&inst.b)
                    .i(Instruction::LocalTee(T1))
                    .i(Instruction::I64Shl)
                    .c(0)
                    .i(Instruction::LocalGet(T1))
                    .c(64)
                    .i(Instruction::I64LtU)
                    .i(Instruction::Select);
            }
            BinOp::Shr => {
                let w = s.y_width.max(aw);
                self.read(&inst.a)
                    .extend(aw, s.a_signed)
                    .and_mask(w)
                    .read(&inst.b)
                    .i(Instruction::LocalTee(T1))
                    .i(Instruction::I64ShrU)
                    .c(0)
                    .i(Instruction::LocalGet(T1))
                    .c(64)
                    .i(Instruction::I64LtU)
                    .i(Instruction::Select);
            }
            BinOp::Sshr if s.a_signed => {
                // ext(a) >>s min(b, 63)
                self.read(&inst.a)
                    .extend(aw, true)
                    .read(&inst.b)
                    .i(Instruction::LocalTee(T1))
                    .c(63)
                    .i(Instruction::LocalGet(T1))
                    .c(63)
                    .i(Instruction::I64LtU)
                    .i(Instruction::Select)
                    .i(Instruction::I64ShrS);
            }
            BinOp::Sshr => {
                self.read(&inst.a)
                    .read(&inst.b)
                    .i(Instruction::LocalTee(T1))
                    .i(Instruction::I64ShrU)
                    .c(0)
                    .i(Instruction::LocalGet(T1))
                    .c(64)
                    .i(Instruction::I64LtU)
                    .i(Instruction::Select);
            }
            BinOp::Shift | BinOp::Shiftx => {
                // The shifted value in T2, the amount in T1.
                if op == BinOp::Shift {
                    let w = s.y_width.max(aw);
                    self.read(&inst.a).extend(aw, s.a_signed).and_mask(w);
                } else {
                    self.read(&inst.a);
                }
                self.i(Instruction::LocalSet(T2)).read(&inst.b);
                if s.b_signed {
                    // amount >= 64 || amount <= -64 ? 0 : amount >= 0 ? a >> amount : a << -amount
                    self.extend(bw, true).i(Instruction::LocalSet(T1));
                    self.i(Instruction::LocalGet(T2))
                        .i(Instruction::LocalGet(T1))
                        .i(Instruction::I64ShrU)
                        .i(Instruction::LocalGet(T2))
                        .c(0)
                        .i(Instruction::LocalGet(T1))
                        .i(Instruction::I64Sub)
                        .i(Instruction::I64Shl)
                        .i(Instruction::LocalGet(T1))
                        .c(0)
                        .i(Instruction::I64GeS)
                        .i(Instruction::Select)
                        .c(0)
                        // -64 < amount < 64  ⇔  amount + 63 <u 127
                        .i(Instruction::LocalGet(T1))
                        .c(63)
                        .i(Instruction::I64Add)
                        .c(127)
                        .i(Instruction::I64LtU)
                        .i(Instruction::Select);
                } else {
                    self.i(Instruction::LocalSet(T1))
                        .i(Instruction::LocalGet(T2))
                        .i(Instruction::LocalGet(T1))
                        .i(Instruction::I64ShrU)
                        .c(0)
                        .i(Instruction::LocalGet(T1))
                        .c(64)
                        .i(Instruction::I64LtU)
                        .i(Instruction::Select);
                }
            }
            BinOp::Div | BinOp::Mod | BinOp::DivFloor | BinOp::ModFloor => {
                self.read(&inst.a)
                    .extend(aw, signed)
                    .i(Instruction::LocalSet(T1))
                    .read(&inst.b)
                    .extend(bw, signed)
                    .i(Instruction::LocalTee(T2))
                    .i(Instruction::I64Eqz);
                self.if_else(
                    |g| {
                        g.c(0);
                    },
                    |g| g.divide(op, signed),
                );
            }
            BinOp::Pow => unreachable!("refused by `check`"),
        }
    }

    /// `T1 / T2` (or the remainder) for a non-zero `T2`, as the interpreter's `div_narrow`:
    /// wrapping (`MIN / -1` is `MIN`, where WebAssembly's `div_s` would trap).
    fn divide(&mut self, op: BinOp, signed: bool) {
        if !signed {
            self.i(Instruction::LocalGet(T1))
                .i(Instruction::LocalGet(T2));
            match op {
                BinOp::Div | BinOp::DivFloor => self.i(Instruction::I64DivU),
                _ => self.i(Instruction::I64RemU),
            };
            return;
        }
        let minus_one = |g: &mut Self| {
            g.i(Instruction::LocalGet(T2))
                .c(u64::MAX)
                .i(Instruction::I64Eq);
        };
        // T3 = r (rem_s does not trap on MIN % -1: it is 0)
        self.i(Instruction::LocalGet(T1))
            .i(Instruction::LocalGet(T2))
            .i(Instruction::I64RemS)
            .i(Instruction::LocalSet(T3));
        // q = b == -1 ? 0 - a : a / b
        self.c(0)
            .i(Instruction::LocalGet(T1))
            .i(Instruction::I64Sub)
            .i(Instruction::LocalGet(T1))
            .c(1)
            .i(Instruction::LocalGet(T2));
        minus_one(self);
        self.i(Instruction::Select).i(Instruction::I64DivS);
        minus_one(self);
        self.i(Instruction::Select);
        let floor = |g: &mut Self| {
            // r != 0 && (r < 0) != (b < 0)
            g.i(Instruction::LocalGet(T3))
                .i(Instruction::I64Eqz)
                .i(Instruction::I32Eqz)
                .i(Instruction::LocalGet(T3))
                .c(0)
                .i(Instruction::I64LtS)
                .i(Instruction::LocalGet(T2))
                .c(0)
                .i(Instruction::I64LtS)
                .i(Instruction::I32Ne)
                .i(Instruction::I32And);
        };
        match op {
            BinOp::Div => {}
            BinOp::Mod => {
                self.i(Instruction::Drop).i(Instruction::LocalGet(T3));
            }
            BinOp::DivFloor => {
                floor(self);
                self.i(Instruction::I64ExtendI32U).i(Instruction::I64Sub);
            }
            _ => {
                self.i(Instruction::Drop)
                    .i(Instruction::LocalGet(T3))
                    .i(Instruction::LocalGet(T2))
                    .c(0);
                floor(self);
                self.i(Instruction::Select).i(Instruction::I64Add);
            }
        }
    }

    /// One clock edge: stage every element of that polarity, run the write ports, apply.
    fn edge(&mut self, posedge: bool) {
        let p = self.p;
        let nregs = p.regs.len();
        for (r, reg) in p.regs.iter().enumerate() {
            if reg.posedge != posedge || !reg.clocked {
                continue;
            }
            // The interpreter's `next_narrow`.
            self.i(Instruction::I32Const(0));
            self.read(&reg.d);
            if let Some(c) = &reg.en {
                self.i(Instruction::LocalSet(T1))
                    .i(Instruction::LocalGet(T1))
                    .read(&reg.state)
                    .active(c)
                    .i(Instruction::Select);
            }
            if let Some((c, val)) = &reg.srst {
                self.i(Instruction::LocalSet(T1))
                    .read(val)
                    .i(Instruction::LocalGet(T1))
                    .active(c);
                if reg.ce_over_srst
                    && let Some(en) = &reg.en
                {
                    self.active(en).i(Instruction::I32And);
                }
                self.i(Instruction::Select);
            }
            self.overrides(r);
            self.and_mask(reg.state.width);
            self.i(Instruction::I64Store(at(self.stage_base + r as u64 * 8)));
        }
        for (k, rd) in p.reads.iter().enumerate() {
            if rd.posedge != posedge {
                continue;
            }
            let slot = self.stage_base + (nregs + k) as u64 * 8;
            let (offset, size) = {
                let mem = &p.memories[rd.mem as usize];
                (mem.offset, mem.size)
            };
            self.i(Instruction::I32Const(0));
            // en ? mem[addr] : state, then the reset when active (and enabled, with ce_over_srst)
            self.word(rd.en.off)
                .c(1)
                .i(Instruction::I64And)
                .i(Instruction::I32WrapI64);
            self.if_else(
                |g| {
                    g.read(&rd.addr);
                    g.mem_load(rd.mem as usize, offset, size);
                },
                |g| {
                    g.word(rd.state.off);
                },
            );
            if let Some((c, val)) = &rd.srst {
                self.i(Instruction::LocalSet(T1))
                    .read(val)
                    .i(Instruction::LocalGet(T1))
                    .active(c);
                if rd.ce_over_srst {
                    self.word(rd.en.off)
                        .c(1)
                        .i(Instruction::I64And)
                        .i(Instruction::I32WrapI64)
                        .i(Instruction::I32And);
                }
                self.i(Instruction::Select);
            }
            self.i(Instruction::I64Store(at(slot)));
        }
        for (k, wp) in p.writes.iter().enumerate() {
            if wp.posedge != posedge {
                continue;
            }
            self.write_port(k);
        }
        for (r, reg) in p.regs.iter().enumerate() {
            if reg.posedge == posedge && reg.clocked {
                let slot = self.stage_base + r as u64 * 8;
                self.i(Instruction::I32Const(0))
                    .i(Instruction::I64Load(at(slot)))
                    .store_word(reg.state.off);
            }
        }
        for (k, rd) in p.reads.iter().enumerate() {
            if rd.posedge == posedge {
                let slot = self.stage_base + (nregs + k) as u64 * 8;
                self.i(Instruction::I32Const(0))
                    .i(Instruction::I64Load(at(slot)))
                    .store_word(rd.state.off);
            }
        }
    }

    /// A write port: when enabled and in range, merge its data into the row under its enable
    /// bits, then let the transparent read ports at that row see it.
    fn write_port(&mut self, k: usize) {
        let p = self.p;
        let wp = &p.writes[k];
        let m = wp.mem as usize;
        let mem = &p.memories[m];
        let base = u64::from(self.mem_base[m]);
        // if en != 0 && row in range
        self.word(wp.en.off)
            .i(Instruction::I64Eqz)
            .i(Instruction::I32Eqz)
            .read(&wp.addr);
        self.row(mem.offset, mem.size);
        self.i(Instruction::I32And)
            .i(Instruction::If(BlockType::Empty));
        // T2 = row's byte address (as i64, wrapped to i32 at each use)
        self.i(Instruction::LocalGet(ROW))
            .c(3)
            .i(Instruction::I64Shl)
            .i(Instruction::LocalSet(T2));
        // mem[row] = (mem[row] & !en) | (data & en)
        self.i(Instruction::LocalGet(T2))
            .i(Instruction::I32WrapI64)
            .i(Instruction::LocalGet(T2))
            .i(Instruction::I32WrapI64)
            .i(Instruction::I64Load(at(base)))
            .word(wp.en.off)
            .c(u64::MAX)
            .i(Instruction::I64Xor)
            .i(Instruction::I64And)
            .word(wp.data.off)
            .word(wp.en.off)
            .i(Instruction::I64And)
            .i(Instruction::I64Or)
            .i(Instruction::I64Store(at(base)));
        let nregs = p.regs.len();
        for (rk, rd) in p.reads.iter().enumerate() {
            if rd.posedge != wp.posedge || !rd.transparent.contains(&(k as u32)) {
                continue;
            }
            let slot = self.stage_base + (nregs + rk) as u64 * 8;
            // read enabled, reset inactive, same row
            self.word(rd.en.off)
                .c(1)
                .i(Instruction::I64And)
                .i(Instruction::I32WrapI64);
            if let Some((c, _)) = &rd.srst {
                self.active(c).i(Instruction::I32Eqz).i(Instruction::I32And);
            }
            // ROW still holds the write's row: compare the read's row with it (T1).
            self.i(Instruction::LocalGet(ROW))
                .i(Instruction::LocalSet(T1));
            self.read(&rd.addr);
            self.row(mem.offset, mem.size);
            self.i(Instruction::I32And)
                .i(Instruction::LocalGet(ROW))
                .i(Instruction::LocalGet(T1))
                .i(Instruction::I64Eq)
                .i(Instruction::I32And)
                .i(Instruction::LocalGet(T1))
                .i(Instruction::LocalSet(ROW))
                .i(Instruction::If(BlockType::Empty));
            self.i(Instruction::I32Const(0))
                .i(Instruction::I32Const(0))
                .i(Instruction::I64Load(at(slot)))
                .word(wp.en.off)
                .c(u64::MAX)
                .i(Instruction::I64Xor)
                .i(Instruction::I64And)
                .word(wp.data.off)
                .word(wp.en.off)
                .i(Instruction::I64And)
                .i(Instruction::I64Or)
                .i(Instruction::I64Store(at(slot)))
                .i(Instruction::End);
        }
        self.i(Instruction::End);
    }
}
