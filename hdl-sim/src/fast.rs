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
///
/// The list mirrors, on purpose, the subset of [`UnOp`], [`BinOp`] and [`Kind`] that has a
/// one-word form: a flat enum keeps [`eval`] one dense `match` in the hot loop, where nesting
/// the general operator enums would cost a second dispatch. The two lists must stay in step:
/// when an operator changes meaning in [`crate::ops`], change its arm here and in [`code`]
/// (the only mapping between them) too.
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

/// The fast form of `inst`'s operator: the one place that maps [`Kind`] to [`Code`].
///
/// An operator has a fast form only when its result on the masked, zero-extended operands is
/// the same as [`crate::ops`] computes, so the sign flags matter: a binary operator reads its
/// operands as signed only when both are, a unary one when its operand is. Logical operators
/// and reductions look at the raw bits whatever the signedness.
fn code(inst: &Inst) -> Code {
    let signed = match inst.kind {
        Kind::Un(_) => inst.shape.a_signed,
        _ => inst.shape.a_signed && inst.shape.b_signed,
    };
    match (inst.kind, signed) {
        (Kind::Mux, _) => Code::Mux,
        (Kind::Bin(BinOp::LogicAnd), _) => Code::LogicAnd,
        (Kind::Bin(BinOp::LogicOr), _) => Code::LogicOr,
        (Kind::Bin(BinOp::And), false) => Code::And,
        (Kind::Bin(BinOp::Or), false) => Code::Or,
        (Kind::Bin(BinOp::Xor), false) => Code::Xor,
        (Kind::Bin(BinOp::Xnor), false) => Code::Xnor,
        (Kind::Bin(BinOp::Add), false) => Code::Add,
        (Kind::Bin(BinOp::Sub), false) => Code::Sub,
        (Kind::Bin(BinOp::Mul), false) => Code::Mul,
        (Kind::Bin(BinOp::Eq), false) => Code::Eq,
        (Kind::Bin(BinOp::Ne), false) => Code::Ne,
        (Kind::Bin(BinOp::Lt), false) => Code::Lt,
        (Kind::Bin(BinOp::Le), false) => Code::Le,
        (Kind::Bin(BinOp::Gt), false) => Code::Gt,
        (Kind::Bin(BinOp::Ge), false) => Code::Ge,
        (Kind::Un(UnOp::ReduceOr | UnOp::ReduceBool), _) => Code::ReduceOr,
        (Kind::Un(UnOp::ReduceAnd), _) => Code::ReduceAnd,
        (Kind::Un(UnOp::ReduceXor), _) => Code::ReduceXor,
        (Kind::Un(UnOp::ReduceXnor), _) => Code::ReduceXnor,
        (Kind::Un(UnOp::LogicNot), _) => Code::LogicNot,
        (Kind::Un(UnOp::Not), false) => Code::Not,
        (Kind::Un(UnOp::Pos), false) => Code::Pos,
        (Kind::Un(UnOp::Neg), false) => Code::Neg,
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
