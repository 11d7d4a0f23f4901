//! A compact form of the common one-word instructions, resolved once when the simulator is
//! built so the hot loop does no width or signedness dispatch.
//!
//! Most cells of a real design are narrow, unsigned logic, arithmetic, comparisons, reductions
//! and two-way multiplexers. For them an operand read is one load and one `and` with a
//! precomputed mask, and the operator is one arm of a dense `match`. Everything else (signed
//! cells, shifts, division, gathers, memories, wide values) keeps the general path in
//! [`crate::sim`], marked [`Code::General`].

use crate::compile::{Inst, Kind};
use crate::ops::{BinOp, UnOp, mask};

/// What a [`Fast`] instruction computes; operands are the masked, zero-extended words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Code {
    And,
    Or,
    Xor,
    Xnor,
    Add,
    Sub,
    Mul,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    LogicAnd,
    LogicOr,
    Not,
    Pos,
    Neg,
    ReduceOr,
    ReduceAnd,
    ReduceXor,
    ReduceXnor,
    LogicNot,
    /// `s ? b : a`
    Mux,
    /// Not encoded here: run the instruction through the general evaluator.
    General,
}

/// One instruction with its operands resolved to arena words and masks.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fast {
    pub code: Code,
    /// The result's signal, to propagate a change.
    pub sig: u32,
    pub y: u32,
    pub a: u32,
    pub b: u32,
    pub s: u32,
    pub ma: u64,
    pub mb: u64,
    pub ms: u64,
    pub my: u64,
}

impl Fast {
    /// Encodes `inst`, or marks it [`Code::General`] when it needs the general path.
    pub(crate) fn new(inst: &Inst) -> Fast {
        let code = if inst.narrow {
            code(inst)
        } else {
            Code::General
        };
        // Unary instructions read `b` as a harmless copy of `a` with an empty mask.
        let unary = matches!(inst.kind, Kind::Un(_));
        Fast {
            code,
            sig: inst.y.sig,
            y: inst.y.off,
            a: inst.a.off,
            b: if unary { inst.a.off } else { inst.b.off },
            s: if code == Code::Mux {
                inst.s.off
            } else {
                inst.a.off
            },
            ma: mask(inst.a.width),
            mb: if unary { 0 } else { mask(inst.b.width) },
            ms: if code == Code::Mux {
                mask(inst.s.width)
            } else {
                0
            },
            my: mask(inst.y.width),
        }
    }
}

fn code(inst: &Inst) -> Code {
    let unsigned_bin = !(inst.shape.a_signed && inst.shape.b_signed);
    match inst.kind {
        Kind::Mux => Code::Mux,
        // Logical operators look at the raw bits, whatever the signedness.
        Kind::Bin(BinOp::LogicAnd) => Code::LogicAnd,
        Kind::Bin(BinOp::LogicOr) => Code::LogicOr,
        Kind::Bin(op) if unsigned_bin => match op {
            BinOp::And => Code::And,
            BinOp::Or => Code::Or,
            BinOp::Xor => Code::Xor,
            BinOp::Xnor => Code::Xnor,
            BinOp::Add => Code::Add,
            BinOp::Sub => Code::Sub,
            BinOp::Mul => Code::Mul,
            BinOp::Eq => Code::Eq,
            BinOp::Ne => Code::Ne,
            BinOp::Lt => Code::Lt,
            BinOp::Le => Code::Le,
            BinOp::Gt => Code::Gt,
            BinOp::Ge => Code::Ge,
            _ => Code::General,
        },
        // Reductions look at the operand's own bits only.
        Kind::Un(UnOp::ReduceOr | UnOp::ReduceBool) => Code::ReduceOr,
        Kind::Un(UnOp::ReduceAnd) => Code::ReduceAnd,
        Kind::Un(UnOp::ReduceXor) => Code::ReduceXor,
        Kind::Un(UnOp::ReduceXnor) => Code::ReduceXnor,
        Kind::Un(UnOp::LogicNot) => Code::LogicNot,
        Kind::Un(op) if !inst.shape.a_signed => match op {
            UnOp::Not => Code::Not,
            UnOp::Pos => Code::Pos,
            UnOp::Neg => Code::Neg,
            _ => Code::General,
        },
        _ => Code::General,
    }
}

/// The result of a fast instruction (any code but [`Code::General`]), masked to its width.
#[inline(always)]
pub(crate) fn eval(f: &Fast, arena: &[u64]) -> u64 {
    let a = arena[f.a as usize] & f.ma;
    let b = arena[f.b as usize] & f.mb;
    let y = match f.code {
        Code::And => a & b,
        Code::Or => a | b,
        Code::Xor => a ^ b,
        Code::Xnor => !(a ^ b),
        Code::Add => a.wrapping_add(b),
        Code::Sub => a.wrapping_sub(b),
        Code::Mul => a.wrapping_mul(b),
        Code::Eq => (a == b) as u64,
        Code::Ne => (a != b) as u64,
        Code::Lt => (a < b) as u64,
        Code::Le => (a <= b) as u64,
        Code::Gt => (a > b) as u64,
        Code::Ge => (a >= b) as u64,
        Code::LogicAnd => (a != 0 && b != 0) as u64,
        Code::LogicOr => (a != 0 || b != 0) as u64,
        Code::Not => !a,
        Code::Pos => a,
        Code::Neg => a.wrapping_neg(),
        Code::ReduceOr => (a != 0) as u64,
        Code::ReduceAnd => (a == f.ma) as u64,
        Code::ReduceXor => (a.count_ones() & 1) as u64,
        Code::ReduceXnor => (a.count_ones() & 1 == 0) as u64,
        Code::LogicNot => (a == 0) as u64,
        Code::Mux => {
            if arena[f.s as usize] & f.ms != 0 {
                b
            } else {
                a
            }
        }
        Code::General => 0,
    };
    y & f.my
}
