//! What each combinational operator computes, on one 64-bit word (the fast path) and on
//! multi-word values of any width.
//!
//! The semantics are yosys' (`kernel/calc.cc`, the `simlib.v` models): operands are extended to
//! the operation's width (sign-extended when the cell's operands are signed), results are cut to
//! `Y_WIDTH`. The simulator is two-valued: where yosys would produce `x` (division by zero, a
//! `$shiftx` reading outside its input, a `$bmux` out of range) the result is 0.

use std::cmp::Ordering;

/// Operators with one operand.
///
/// Those with a one-word form are mirrored in [`crate::fast::Code`]: keep the two lists in step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum UnOp {
    Not,
    Pos,
    Neg,
    ReduceAnd,
    ReduceOr,
    ReduceXor,
    ReduceXnor,
    ReduceBool,
    LogicNot,
}

/// Operators with two operands.
///
/// Those with a one-word form are mirrored in [`crate::fast::Code`]: keep the two lists in step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BinOp {
    And,
    Or,
    Xor,
    Xnor,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    DivFloor,
    ModFloor,
    Pow,
    Shl,
    Shr,
    Sshl,
    Sshr,
    Shift,
    Shiftx,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    LogicAnd,
    LogicOr,
}

/// Number of 64-bit words holding `width` bits (at least one, so zero-width values have a home).
pub(crate) fn words(width: u32) -> usize {
    (width as usize).div_ceil(64).max(1)
}

/// The mask of the low `width` bits of a word (`width` ≤ 64).
#[inline]
pub(crate) fn mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// Extends the low `width` bits of `v` to 64 bits.
#[inline]
pub(crate) fn extend(v: u64, width: u32, signed: bool) -> u64 {
    if width == 0 {
        0
    } else if width >= 64 {
        v
    } else if signed {
        let sh = 64 - width;
        (((v << sh) as i64) >> sh) as u64
    } else {
        v & mask(width)
    }
}

/// Evaluates a unary operator on the fast path: `a` already extended to 64 bits per the cell's
/// signedness; the caller masks the result to `Y_WIDTH`.
#[inline]
pub(crate) fn un_narrow(op: UnOp, a: u64, a_width: u32) -> u64 {
    let a_raw = a & mask(a_width);
    match op {
        UnOp::Not => !a,
        UnOp::Pos => a,
        UnOp::Neg => a.wrapping_neg(),
        UnOp::ReduceAnd => (a_width == 0 || a_raw == mask(a_width)) as u64,
        UnOp::ReduceOr | UnOp::ReduceBool => (a_raw != 0) as u64,
        UnOp::ReduceXor => (a_raw.count_ones() & 1) as u64,
        UnOp::ReduceXnor => (a_raw.count_ones() & 1 == 0) as u64,
        UnOp::LogicNot => (a_raw == 0) as u64,
    }
}

/// Operand widths and signedness of a binary cell, for the fast path.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Shape {
    pub a_width: u32,
    pub b_width: u32,
    pub y_width: u32,
    pub a_signed: bool,
    pub b_signed: bool,
}

impl Shape {
    /// The shape of a cell whose operands are plain bit vectors (multiplexers, slices,
    /// concatenations, memory ports), where signedness means nothing.
    pub(crate) fn unsigned(a_width: u32, b_width: u32, y_width: u32) -> Shape {
        Shape {
            a_width,
            b_width,
            y_width,
            a_signed: false,
            b_signed: false,
        }
    }

    /// Arithmetic and comparisons are signed only when both operands are.
    fn signed(&self) -> bool {
        self.a_signed && self.b_signed
    }
}

/// Roughly how many word operations one evaluation of `op` takes on operands of `s`: schoolbook
/// multiplication is quadratic in words, long division is bits times words, a power is a
/// multiplication per exponent bit. The compiler refuses cells above [`MAX_WORK`], whose every
/// evaluation would take seconds to hours (a 2^20-bit division).
pub(crate) fn work(op: BinOp, s: &Shape) -> u64 {
    let w = s.a_width.max(s.b_width).max(s.y_width);
    let n = words(w) as u64;
    let ny = words(s.y_width) as u64;
    match op {
        BinOp::Mul => n * n,
        BinOp::Div | BinOp::Mod | BinOp::DivFloor | BinOp::ModFloor => u64::from(w) * n,
        BinOp::Pow if s.y_width > 64 || s.b_width > 64 => 2 * u64::from(s.b_width) * ny * ny,
        _ => n,
    }
}

/// The most word operations one evaluation of a cell may take (about a tenth of a second).
pub(crate) const MAX_WORK: u64 = 1 << 28;

/// Evaluates a binary operator on the fast path. `a` and `b` are the raw operand bits (only the
/// low `a_width`/`b_width` bits may be set); the caller masks the result to `Y_WIDTH`.
#[inline]
pub(crate) fn bin_narrow(op: BinOp, a: u64, b: u64, s: &Shape) -> u64 {
    let signed = s.signed();
    let xa = extend(a, s.a_width, signed);
    let xb = extend(b, s.b_width, signed);
    match op {
        BinOp::And => xa & xb,
        BinOp::Or => xa | xb,
        BinOp::Xor => xa ^ xb,
        BinOp::Xnor => !(xa ^ xb),
        BinOp::Add => xa.wrapping_add(xb),
        BinOp::Sub => xa.wrapping_sub(xb),
        BinOp::Mul => xa.wrapping_mul(xb),
        BinOp::Div | BinOp::DivFloor | BinOp::Mod | BinOp::ModFloor => {
            div_narrow(op, xa, xb, signed)
        }
        BinOp::Pow => pow_narrow(
            extend(a, s.a_width, s.a_signed),
            extend(b, s.b_width, s.b_signed),
            s.a_signed,
            s.b_signed,
        ),
        BinOp::Eq => (xa == xb) as u64,
        BinOp::Ne => (xa != xb) as u64,
        BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
            let ord = if signed {
                (xa as i64).cmp(&(xb as i64))
            } else {
                xa.cmp(&xb)
            };
            compare(op, ord) as u64
        }
        BinOp::LogicAnd => (a != 0 && b != 0) as u64,
        BinOp::LogicOr => (a != 0 || b != 0) as u64,
        BinOp::Shl | BinOp::Sshl => {
            let a = extend(a, s.a_width, s.a_signed);
            if b >= 64 { 0 } else { a << b }
        }
        BinOp::Shr => {
            // Sign-extended to max(Y, A) bits, then a logical shift.
            let w = s.y_width.max(s.a_width);
            let a = extend(a, s.a_width, s.a_signed) & mask(w);
            if b >= 64 { 0 } else { a >> b }
        }
        BinOp::Sshr => {
            if s.a_signed {
                let a = extend(a, s.a_width, true) as i64;
                (a >> b.min(63)) as u64
            } else {
                let a = a & mask(s.a_width);
                if b >= 64 { 0 } else { a >> b }
            }
        }
        BinOp::Shift | BinOp::Shiftx => {
            let amount = if s.b_signed {
                extend(b, s.b_width, true) as i64
            } else if b > i64::MAX as u64 {
                i64::MAX
            } else {
                b as i64
            };
            let (a, w) = if op == BinOp::Shift {
                let w = s.y_width.max(s.a_width);
                (extend(a, s.a_width, s.a_signed) & mask(w), w)
            } else {
                (a & mask(s.a_width), s.a_width)
            };
            let _ = w;
            if amount >= 64 || amount <= -64 {
                0
            } else if amount >= 0 {
                a >> amount
            } else {
                a << (-amount)
            }
        }
    }
}

fn compare(op: BinOp, ord: Ordering) -> bool {
    match op {
        BinOp::Lt => ord == Ordering::Less,
        BinOp::Le => ord != Ordering::Greater,
        BinOp::Gt => ord == Ordering::Greater,
        BinOp::Ge => ord != Ordering::Less,
        _ => unreachable!("not a comparison"),
    }
}

fn div_narrow(op: BinOp, a: u64, b: u64, signed: bool) -> u64 {
    if b == 0 {
        return 0;
    }
    if !signed {
        return match op {
            BinOp::Div | BinOp::DivFloor => a / b,
            _ => a % b,
        };
    }
    let (a, b) = (a as i64, b as i64);
    let q = a.wrapping_div(b);
    let r = a.wrapping_rem(b);
    let floor = r != 0 && ((r < 0) != (b < 0));
    (match op {
        BinOp::Div => q,
        BinOp::Mod => r,
        BinOp::DivFloor => q.wrapping_sub(floor as i64),
        _ => {
            if floor {
                r.wrapping_add(b)
            } else {
                r
            }
        }
    }) as u64
}

/// `a ** b` on operands extended to 64 bits. Unlike the other arithmetic cells, `$pow` reads
/// each operand as signed by its own flag (yosys' `const_pow`, Verilog's `$signed(a) ** b`).
fn pow_narrow(a: u64, b: u64, a_signed: bool, b_signed: bool) -> u64 {
    if b_signed && (b as i64) < 0 {
        // A negative exponent: 1 for a base of 1, ±1 for -1, else 0 (yosys' const_pow).
        return match a as i64 {
            1 => 1,
            -1 if a_signed => {
                if b & 1 == 1 {
                    u64::MAX
                } else {
                    1
                }
            }
            _ => 0,
        };
    }
    let mut result = 1u64;
    let mut base = a;
    let mut e = b;
    while e != 0 {
        if e & 1 == 1 {
            result = result.wrapping_mul(base);
        }
        base = base.wrapping_mul(base);
        e >>= 1;
    }
    result
}

// ---------------------------------------------------------------------------------------------
// Multi-word values. A value of width w lives in `words(w)` little-endian words; bits at and
// above w are zero.

/// Copies `src` (width `src_w`, possibly stored in more words than it needs) into `dst`,
/// extended or cut to `dst_w` bits.
pub(crate) fn load(dst: &mut [u64], src: &[u64], src_w: u32, dst_w: u32, signed: bool) {
    let neg = signed && src_w > 0 && get_bit(src, src_w - 1);
    for (i, d) in dst.iter_mut().enumerate() {
        let lo = i as u32 * 64;
        *d = if lo + 64 <= src_w {
            src[i]
        } else if lo < src_w {
            let m = mask(src_w - lo);
            (src[i] & m) | if neg { !m } else { 0 }
        } else if neg {
            u64::MAX
        } else {
            0
        };
    }
    mask_top(dst, dst_w);
}

/// Clears the bits at and above `width`.
pub(crate) fn mask_top(v: &mut [u64], width: u32) {
    for (i, w) in v.iter_mut().enumerate() {
        let lo = i as u32 * 64;
        if lo >= width {
            *w = 0;
        } else if width - lo < 64 {
            *w &= mask(width - lo);
        }
    }
}

#[inline]
pub(crate) fn get_bit(v: &[u64], i: u32) -> bool {
    v.get((i / 64) as usize)
        .is_some_and(|w| (w >> (i % 64)) & 1 == 1)
}

#[inline]
pub(crate) fn set_bit(v: &mut [u64], i: u32, bit: bool) {
    let w = &mut v[(i / 64) as usize];
    if bit {
        *w |= 1 << (i % 64);
    } else {
        *w &= !(1 << (i % 64));
    }
}

fn is_zero(v: &[u64]) -> bool {
    v.iter().all(|&w| w == 0)
}

fn add_into(y: &mut [u64], a: &[u64], b: &[u64]) {
    let mut carry = false;
    for i in 0..y.len() {
        let (s1, c1) = a[i].overflowing_add(b[i]);
        let (s2, c2) = s1.overflowing_add(carry as u64);
        y[i] = s2;
        carry = c1 || c2;
    }
}

fn sub_into(y: &mut [u64], a: &[u64], b: &[u64]) {
    let mut borrow = false;
    for i in 0..y.len() {
        let (d1, b1) = a[i].overflowing_sub(b[i]);
        let (d2, b2) = d1.overflowing_sub(borrow as u64);
        y[i] = d2;
        borrow = b1 || b2;
    }
}

fn neg_in_place(v: &mut [u64]) {
    let mut carry = true;
    for w in v.iter_mut() {
        let (s, c) = (!*w).overflowing_add(carry as u64);
        *w = s;
        carry = c;
    }
}

fn mul_into(y: &mut [u64], a: &[u64], b: &[u64]) {
    let n = y.len();
    y.iter_mut().for_each(|w| *w = 0);
    for i in 0..n {
        let mut carry: u128 = 0;
        for j in 0..n - i {
            let t = y[i + j] as u128 + (a[i] as u128) * (b[j] as u128) + carry;
            y[i + j] = t as u64;
            carry = t >> 64;
        }
    }
}

fn cmp_unsigned(a: &[u64], b: &[u64]) -> Ordering {
    for i in (0..a.len()).rev() {
        match a[i].cmp(&b[i]) {
            Ordering::Equal => {}
            o => return o,
        }
    }
    Ordering::Equal
}

/// Unsigned long division of `width`-bit values: quotient into `q`, remainder into `r`.
fn divmod_unsigned(q: &mut [u64], r: &mut [u64], a: &[u64], b: &[u64], width: u32) {
    q.iter_mut().for_each(|w| *w = 0);
    r.iter_mut().for_each(|w| *w = 0);
    for i in (0..width).rev() {
        // r = r << 1 | a[i]
        let mut carry = get_bit(a, i) as u64;
        for w in r.iter_mut() {
            let next = *w >> 63;
            *w = (*w << 1) | carry;
            carry = next;
        }
        if carry == 1 || cmp_unsigned(r, b) != Ordering::Less {
            let tmp: Vec<u64> = r.to_vec();
            sub_into(r, &tmp, b);
            set_bit(q, i, true);
        }
    }
}

/// Scratch space for the multi-word path, allocated once per simulator.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scratch {
    a: Vec<u64>,
    b: Vec<u64>,
    t: Vec<u64>,
    u: Vec<u64>,
}

impl Scratch {
    fn prepare(&mut self, n: usize) {
        for v in [&mut self.a, &mut self.b, &mut self.t, &mut self.u] {
            v.clear();
            v.resize(n, 0);
        }
    }
}

/// Unary operator on values of any width; `y` has `words(y_w)` words.
pub(crate) fn un_wide(op: UnOp, y: &mut [u64], y_w: u32, a: &[u64], a_w: u32, signed: bool) {
    let a_raw_n = words(a_w);
    let mut raw = a[..a_raw_n.min(a.len())].to_vec();
    raw.resize(a_raw_n, 0);
    mask_top(&mut raw, a_w);
    let ones: u32 = raw.iter().map(|w| w.count_ones()).sum();
    let bit = |v: bool, y: &mut [u64]| {
        y.iter_mut().for_each(|w| *w = 0);
        y[0] = v as u64;
    };
    match op {
        UnOp::Not | UnOp::Pos | UnOp::Neg => {
            load(y, a, a_w, y_w, signed);
            match op {
                UnOp::Not => y.iter_mut().for_each(|w| *w = !*w),
                UnOp::Neg => neg_in_place(y),
                _ => {}
            }
            mask_top(y, y_w);
        }
        UnOp::ReduceAnd => bit(ones == a_w, y),
        UnOp::ReduceOr | UnOp::ReduceBool => bit(ones != 0, y),
        UnOp::ReduceXor => bit(ones & 1 == 1, y),
        UnOp::ReduceXnor => bit(ones & 1 == 0, y),
        UnOp::LogicNot => bit(ones == 0, y),
    }
}

/// Reads a shift amount: saturated to ±2^40 (beyond any real width).
fn shift_amount(b: &[u64], b_w: u32, signed: bool) -> i64 {
    const BIG: i64 = 1 << 40;
    let n = words(b_w);
    let mut v = vec![0u64; n];
    load(&mut v, b, b_w, b_w, false);
    let negative = signed && b_w > 0 && get_bit(&v, b_w - 1);
    if negative {
        // magnitude = -v in b_w bits
        neg_in_place(&mut v);
        mask_top(&mut v, b_w);
        if b_w == 1 {
            return -1;
        }
    }
    let mag = if v[1..].iter().any(|&w| w != 0) || v[0] > BIG as u64 {
        BIG
    } else {
        v[0] as i64
    };
    if negative { -mag } else { mag }
}

/// Binary operator on values of any width; `y` has `words(s.y_width)` words.
pub(crate) fn bin_wide(
    op: BinOp,
    y: &mut [u64],
    a: &[u64],
    b: &[u64],
    s: &Shape,
    sc: &mut Scratch,
) {
    let signed = s.signed();
    let y_w = s.y_width;
    let set_bool = |v: bool, y: &mut [u64]| {
        y.iter_mut().for_each(|w| *w = 0);
        y[0] = v as u64;
    };
    match op {
        BinOp::And
        | BinOp::Or
        | BinOp::Xor
        | BinOp::Xnor
        | BinOp::Add
        | BinOp::Sub
        | BinOp::Mul => {
            let n = words(y_w);
            sc.prepare(n);
            load(&mut sc.a, a, s.a_width, y_w, signed);
            load(&mut sc.b, b, s.b_width, y_w, signed);
            match op {
                BinOp::And => (0..n).for_each(|i| y[i] = sc.a[i] & sc.b[i]),
                BinOp::Or => (0..n).for_each(|i| y[i] = sc.a[i] | sc.b[i]),
                BinOp::Xor => (0..n).for_each(|i| y[i] = sc.a[i] ^ sc.b[i]),
                BinOp::Xnor => (0..n).for_each(|i| y[i] = !(sc.a[i] ^ sc.b[i])),
                BinOp::Add => add_into(y, &sc.a, &sc.b),
                BinOp::Sub => sub_into(y, &sc.a, &sc.b),
                _ => mul_into(y, &sc.a, &sc.b),
            }
            mask_top(y, y_w);
        }
        BinOp::Div | BinOp::Mod | BinOp::DivFloor | BinOp::ModFloor => {
            let w = s.a_width.max(s.b_width).max(y_w);
            let n = words(w);
            sc.prepare(n);
            load(&mut sc.a, a, s.a_width, w, signed);
            load(&mut sc.b, b, s.b_width, w, signed);
            if is_zero(&sc.b) {
                y.iter_mut().for_each(|w| *w = 0);
                return;
            }
            let a_neg = signed && get_bit(&sc.a, w - 1);
            let b_neg = signed && get_bit(&sc.b, w - 1);
            if a_neg {
                neg_in_place(&mut sc.a);
                mask_top(&mut sc.a, w);
            }
            if b_neg {
                neg_in_place(&mut sc.b);
                mask_top(&mut sc.b, w);
            }
            divmod_unsigned(&mut sc.t, &mut sc.u, &sc.a, &sc.b, w);
            // t = |q|, u = |r|; the truncating quotient is negative when the signs differ and
            // the remainder takes the dividend's sign.
            let (q, r) = (&mut sc.t, &mut sc.u);
            let r_nonzero = !is_zero(r);
            let mut res: Vec<u64> = match op {
                BinOp::Div | BinOp::DivFloor => {
                    let mut q = q.clone();
                    if a_neg != b_neg {
                        if op == BinOp::DivFloor && r_nonzero {
                            // floor: -(|q| + 1)
                            let one = {
                                let mut o = vec![0u64; n];
                                o[0] = 1;
                                o
                            };
                            let tmp = q.clone();
                            add_into(&mut q, &tmp, &one);
                        }
                        neg_in_place(&mut q);
                    }
                    q
                }
                _ => {
                    let mut r = r.clone();
                    if op == BinOp::ModFloor && a_neg != b_neg && r_nonzero {
                        // r_floor = sign(b) * (|b| - |r|)
                        let tmp = r.clone();
                        sub_into(&mut r, &sc.b, &tmp);
                        if b_neg {
                            neg_in_place(&mut r);
                        }
                    } else if a_neg {
                        neg_in_place(&mut r);
                    }
                    r
                }
            };
            mask_top(&mut res, w);
            load(y, &res, w, y_w, false);
        }
        BinOp::Pow => {
            let n = words(y_w);
            let amount = {
                let nb = words(s.b_width);
                let mut v = vec![0u64; nb];
                load(&mut v, b, s.b_width, s.b_width, false);
                v
            };
            // Each operand is signed by its own flag (see `pow_narrow`).
            let b_neg = s.b_signed && s.b_width > 0 && get_bit(&amount, s.b_width - 1);
            sc.prepare(n);
            load(&mut sc.a, a, s.a_width, y_w, s.a_signed);
            if b_neg {
                // 1 for a base of 1, ±1 for -1, else 0.
                let mut minus_one = vec![u64::MAX; n];
                mask_top(&mut minus_one, y_w);
                let mut a_full = vec![0u64; words(s.a_width.max(1))];
                load(&mut a_full, a, s.a_width, s.a_width, false);
                let a_is_one = a_full[0] == 1 && a_full[1..].iter().all(|&w| w == 0);
                let mut a_m1 = vec![u64::MAX; a_full.len()];
                mask_top(&mut a_m1, s.a_width);
                y.iter_mut().for_each(|w| *w = 0);
                if a_is_one {
                    y[0] = 1;
                } else if a_full == a_m1 && s.a_signed {
                    if amount[0] & 1 == 1 {
                        y.copy_from_slice(&minus_one);
                    } else {
                        y[0] = 1;
                    }
                }
                return;
            }
            // result in t, base in a
            sc.t.iter_mut().for_each(|w| *w = 0);
            sc.t[0] = 1;
            for i in 0..s.b_width {
                if get_bit(&amount, i) {
                    mul_into(&mut sc.u, &sc.t, &sc.a);
                    sc.t.copy_from_slice(&sc.u);
                }
                mul_into(&mut sc.u, &sc.a, &sc.a);
                sc.a.copy_from_slice(&sc.u);
            }
            y.copy_from_slice(&sc.t);
            mask_top(y, y_w);
        }
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
            let w = s.a_width.max(s.b_width);
            let n = words(w);
            sc.prepare(n);
            load(&mut sc.a, a, s.a_width, w, signed);
            load(&mut sc.b, b, s.b_width, w, signed);
            let ord = if signed && w > 0 {
                let (an, bn) = (get_bit(&sc.a, w - 1), get_bit(&sc.b, w - 1));
                if an != bn {
                    if an {
                        Ordering::Less
                    } else {
                        Ordering::Greater
                    }
                } else {
                    cmp_unsigned(&sc.a, &sc.b)
                }
            } else {
                cmp_unsigned(&sc.a, &sc.b)
            };
            let v = match op {
                BinOp::Eq => ord == Ordering::Equal,
                BinOp::Ne => ord != Ordering::Equal,
                _ => compare(op, ord),
            };
            set_bool(v, y);
        }
        BinOp::LogicAnd | BinOp::LogicOr => {
            let nz = |v: &[u64], w: u32| {
                let mut t = vec![0u64; words(w)];
                load(&mut t, v, w, w, false);
                !is_zero(&t)
            };
            let (x, z) = (nz(a, s.a_width), nz(b, s.b_width));
            set_bool(
                if op == BinOp::LogicAnd {
                    x && z
                } else {
                    x || z
                },
                y,
            );
        }
        BinOp::Shl | BinOp::Sshl | BinOp::Shr | BinOp::Sshr | BinOp::Shift | BinOp::Shiftx => {
            let b_signed = matches!(op, BinOp::Shift | BinOp::Shiftx) && s.b_signed;
            let amount = shift_amount(b, s.b_width, b_signed);
            // The source value, its width, the fill above it, and the direction.
            let (src_w, fill, amount) = match op {
                BinOp::Shl | BinOp::Sshl => (y_w, false, -amount),
                BinOp::Shr => (y_w.max(s.a_width), false, amount),
                BinOp::Sshr if s.a_signed => (s.a_width, true, amount),
                BinOp::Sshr => (s.a_width, false, amount),
                BinOp::Shift => (y_w.max(s.a_width), false, amount),
                _ => (s.a_width, false, amount),
            };
            let n = words(src_w);
            sc.prepare(n);
            let ext_signed = match op {
                BinOp::Shiftx => false,
                _ => s.a_signed,
            };
            load(&mut sc.a, a, s.a_width, src_w, ext_signed);
            let fill_bit = fill && src_w > 0 && get_bit(&sc.a, src_w - 1);
            y.iter_mut().for_each(|w| *w = 0);
            for i in 0..y_w {
                let pos = i as i64 + amount;
                let v = if pos < 0 {
                    false
                } else if pos >= src_w as i64 {
                    fill_bit
                } else {
                    get_bit(&sc.a, pos as u32)
                };
                if v {
                    set_bit(y, i, true);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extend_sign_and_zero() {
        assert_eq!(extend(0b101, 3, true), u64::MAX - 2);
        assert_eq!(extend(0b101, 3, false), 5);
        assert_eq!(extend(7, 0, true), 0);
    }

    #[test]
    fn wide_division_matches_narrow_at_64_bits() {
        let s = Shape {
            a_width: 64,
            b_width: 64,
            y_width: 64,
            a_signed: true,
            b_signed: true,
        };
        let mut sc = Scratch::default();
        for (a, b) in [(-7i64, 2i64), (7, -2), (-7, -2), (i64::MIN, -1), (5, 0)] {
            for op in [BinOp::Div, BinOp::Mod, BinOp::DivFloor, BinOp::ModFloor] {
                let mut y = [0u64];
                bin_wide(op, &mut y, &[a as u64], &[b as u64], &s, &mut sc);
                assert_eq!(
                    y[0],
                    bin_narrow(op, a as u64, b as u64, &s),
                    "{op:?} {a} {b}"
                );
            }
        }
    }

    #[test]
    fn pow_signs_each_operand_by_its_own_flag() {
        let shape = |a_signed, b_signed, y_width| Shape {
            a_width: 4,
            b_width: 4,
            y_width,
            a_signed,
            b_signed,
        };
        let mut sc = Scratch::default();
        // (a, b, a_signed, b_signed, expected a ** b in 8 bits)
        for (a, b, a_signed, b_signed, want) in [
            (9u64, 13u64, true, false, 25u64), // (-7) ** 13
            (9, 13, false, false, 233),        // 9 ** 13
            (9, 2, true, true, 49),            // (-7) ** 2
            (2, 15, false, true, 0),           // 2 ** -1
            (1, 15, false, true, 1),           // 1 ** -1
            (15, 15, false, true, 0),          // 15 ** -1
            (15, 15, true, true, 0xff),        // (-1) ** -1
            (15, 15, true, false, 0xff),       // (-1) ** 15
        ] {
            let s = shape(a_signed, b_signed, 8);
            assert_eq!(
                bin_narrow(BinOp::Pow, a, b, &s) & 0xff,
                want,
                "{a} ** {b} {s:?}"
            );
            let s = shape(a_signed, b_signed, 70);
            let mut y = [0u64; 2];
            bin_wide(BinOp::Pow, &mut y, &[a], &[b], &s, &mut sc);
            assert_eq!(y[0] & 0xff, want, "{a} ** {b} {s:?}, 70 bits");
        }
    }

    #[test]
    fn floor_division_rounds_down() {
        let s = Shape {
            a_width: 8,
            b_width: 8,
            y_width: 8,
            a_signed: true,
            b_signed: true,
        };
        let q = bin_narrow(BinOp::DivFloor, (-7i64) as u64 & 0xff, 2, &s) & 0xff;
        assert_eq!(q as u8 as i8, -4);
        let r = bin_narrow(BinOp::ModFloor, (-7i64) as u64 & 0xff, 2, &s) & 0xff;
        assert_eq!(r as u8 as i8, 1);
    }
}
