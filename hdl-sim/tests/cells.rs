//! One cell at a time against a bit-serial reference model (written independently of the
//! simulator's word-level code), at widths 1, 63, 64, 65 and 200 and mixed operand widths, with
//! random signedness; plus the errors a bad netlist must produce.

#![cfg(not(target_arch = "wasm32"))]

use hdl_sim::{LoadError, Simulator};
use proptest::prelude::*;

const WIDTHS: [usize; 5] = [1, 63, 64, 65, 200];

// ---- the reference model: little-endian bit vectors --------------------------------------

type Bits = Vec<bool>;

fn ext(v: &Bits, w: usize, signed: bool) -> Bits {
    let fill = signed && v.last().copied().unwrap_or(false);
    (0..w).map(|i| v.get(i).copied().unwrap_or(fill)).collect()
}

fn add(a: &Bits, b: &Bits) -> Bits {
    let mut c = false;
    a.iter()
        .zip(b)
        .map(|(&x, &y)| {
            let s = x ^ y ^ c;
            c = (x & y) | (c & (x ^ y));
            s
        })
        .collect()
}

fn not(a: &Bits) -> Bits {
    a.iter().map(|b| !b).collect()
}

fn neg(a: &Bits) -> Bits {
    let mut one = vec![false; a.len()];
    if !one.is_empty() {
        one[0] = true;
    }
    add(&not(a), &one)
}

fn mul(a: &Bits, b: &Bits) -> Bits {
    let w = a.len();
    let mut acc = vec![false; w];
    for (i, &bit) in b.iter().enumerate() {
        if bit {
            let shifted: Bits = (0..w).map(|k| k >= i && a[k - i]).collect();
            acc = add(&acc, &shifted);
        }
    }
    acc
}

fn is_zero(a: &Bits) -> bool {
    a.iter().all(|b| !b)
}

/// Unsigned compare.
fn ucmp(a: &Bits, b: &Bits) -> std::cmp::Ordering {
    for i in (0..a.len()).rev() {
        if a[i] != b[i] {
            return if a[i] {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Less
            };
        }
    }
    std::cmp::Ordering::Equal
}

fn scmp(a: &Bits, b: &Bits) -> std::cmp::Ordering {
    let flip = |v: &Bits| {
        let mut v = v.clone();
        if let Some(l) = v.last_mut() {
            *l = !*l;
        }
        v
    };
    ucmp(&flip(a), &flip(b))
}

/// Restoring division, unsigned, equal widths.
fn udivmod(a: &Bits, b: &Bits) -> (Bits, Bits) {
    let w = a.len();
    let mut q = vec![false; w];
    let mut r = vec![false; w + 1];
    let bx = ext(b, w + 1, false);
    for i in (0..w).rev() {
        r.rotate_right(1);
        r[0] = a[i];
        if ucmp(&r, &bx) != std::cmp::Ordering::Less {
            r = add(&r, &neg(&bx));
            q[i] = true;
        }
    }
    r.truncate(w);
    (q, r)
}

fn divmod(a: &Bits, b: &Bits, signed: bool) -> (Bits, Bits) {
    if !signed {
        return udivmod(a, b);
    }
    let (an, bn) = (*a.last().unwrap(), *b.last().unwrap());
    let mag = |v: &Bits, n: bool| if n { neg(v) } else { v.clone() };
    let (q, r) = udivmod(&mag(a, an), &mag(b, bn));
    (
        if an != bn { neg(&q) } else { q },
        if an { neg(&r) } else { r },
    )
}

fn bit(v: bool, w: usize) -> Bits {
    let mut out = vec![false; w];
    if w > 0 {
        out[0] = v;
    }
    out
}

/// Shift: result bit i = src[i + amount], with `fill` above the source and 0 below.
fn shift(src: &Bits, amount: i64, yw: usize, fill: bool) -> Bits {
    (0..yw)
        .map(|i| {
            let p = i as i64 + amount;
            if p < 0 {
                false
            } else if p >= src.len() as i64 {
                fill
            } else {
                src[p as usize]
            }
        })
        .collect()
}

fn to_i64(v: &Bits, signed: bool) -> i64 {
    // Shift amounts: saturate.
    let neg = signed && v.last().copied().unwrap_or(false);
    let mag = if neg { self::neg(v) } else { v.clone() };
    let mut m: i64 = 0;
    for (i, &b) in mag.iter().enumerate() {
        if b {
            if i >= 40 {
                m = 1 << 40;
                break;
            }
            m |= 1 << i;
        }
    }
    if neg { -m } else { m }
}

fn reference(kind: &str, a: &Bits, b: &Bits, yw: usize, asg: bool, bsg: bool) -> Bits {
    let sg = asg && bsg;
    let (aw, bw) = (a.len(), b.len());
    let wmax = aw.max(bw);
    match kind {
        "$not" => not(&ext(a, yw, asg)),
        "$pos" => ext(a, yw, asg),
        "$neg" => neg(&ext(a, yw, asg)),
        "$reduce_and" => bit(a.iter().all(|&x| x), yw),
        "$reduce_or" | "$reduce_bool" => bit(a.iter().any(|&x| x), yw),
        "$reduce_xor" => bit(a.iter().filter(|&&x| x).count() % 2 == 1, yw),
        "$reduce_xnor" => bit(a.iter().filter(|&&x| x).count() % 2 == 0, yw),
        "$logic_not" => bit(is_zero(a), yw),
        "$and" | "$or" | "$xor" | "$xnor" => {
            let (x, y) = (ext(a, yw, sg), ext(b, yw, sg));
            x.iter()
                .zip(&y)
                .map(|(&p, &q)| match kind {
                    "$and" => p & q,
                    "$or" => p | q,
                    "$xor" => p ^ q,
                    _ => !(p ^ q),
                })
                .collect()
        }
        "$add" => add(&ext(a, yw, sg), &ext(b, yw, sg)),
        "$sub" => add(&ext(a, yw, sg), &neg(&ext(b, yw, sg))),
        "$mul" => mul(&ext(a, yw, sg), &ext(b, yw, sg)),
        "$div" | "$mod" => {
            let w = wmax.max(yw);
            let (x, y) = (ext(a, w, sg), ext(b, w, sg));
            if is_zero(&y) {
                return vec![false; yw];
            }
            let (q, r) = divmod(&x, &y, sg);
            ext(if kind == "$div" { &q } else { &r }, yw, false)
        }
        "$eq" | "$ne" | "$lt" | "$le" | "$gt" | "$ge" => {
            let (x, y) = (ext(a, wmax, sg), ext(b, wmax, sg));
            let o = if sg { scmp(&x, &y) } else { ucmp(&x, &y) };
            use std::cmp::Ordering::*;
            bit(
                match kind {
                    "$eq" => o == Equal,
                    "$ne" => o != Equal,
                    "$lt" => o == Less,
                    "$le" => o != Greater,
                    "$gt" => o == Greater,
                    _ => o != Less,
                },
                yw,
            )
        }
        "$logic_and" => bit(!is_zero(a) && !is_zero(b), yw),
        "$logic_or" => bit(!is_zero(a) || !is_zero(b), yw),
        "$shl" | "$sshl" => shift(&ext(a, yw, asg), -to_i64(b, false), yw, false),
        "$shr" => shift(&ext(a, yw.max(aw), asg), to_i64(b, false), yw, false),
        "$sshr" => {
            if asg {
                shift(a, to_i64(b, false), yw, *a.last().unwrap())
            } else {
                shift(a, to_i64(b, false), yw, false)
            }
        }
        "$shift" => shift(&ext(a, yw.max(aw), asg), to_i64(b, bsg), yw, false),
        "$shiftx" => shift(a, to_i64(b, bsg), yw, false),
        other => panic!("no reference for {other}"),
    }
}

// ---- single-cell netlists -----------------------------------------------------------------

fn bits_json(start: usize, n: usize) -> String {
    let v: Vec<String> = (start..start + n).map(|i| i.to_string()).collect();
    format!("[{}]", v.join(","))
}

fn param(v: usize) -> String {
    format!("\"{:032b}\"", v)
}

fn binary_cell(kind: &str, aw: usize, bw: usize, yw: usize, asg: bool, bsg: bool) -> String {
    let (a0, b0, y0) = (2, 2 + aw, 2 + aw + bw);
    format!(
        r#"{{"modules":{{"t":{{"attributes":{{"top":"1"}},
        "ports":{{"A":{{"direction":"input","bits":{a}}},"B":{{"direction":"input","bits":{b}}},"Y":{{"direction":"output","bits":{y}}}}},
        "cells":{{"c":{{"type":"{kind}","parameters":{{"A_SIGNED":{asg},"B_SIGNED":{bsg},"A_WIDTH":{aw},"B_WIDTH":{bw},"Y_WIDTH":{yw}}},
        "connections":{{"A":{a},"B":{b},"Y":{y}}}}}}},"netnames":{{}}}}}}}}"#,
        a = bits_json(a0, aw),
        b = bits_json(b0, bw),
        y = bits_json(y0, yw),
        asg = param(asg as usize),
        bsg = param(bsg as usize),
        aw = param(aw),
        bw = param(bw),
        yw = param(yw),
    )
}

fn unary_cell(kind: &str, aw: usize, yw: usize, asg: bool) -> String {
    format!(
        r#"{{"modules":{{"t":{{"attributes":{{"top":"1"}},
        "ports":{{"A":{{"direction":"input","bits":{a}}},"Y":{{"direction":"output","bits":{y}}}}},
        "cells":{{"c":{{"type":"{kind}","parameters":{{"A_SIGNED":{asg},"A_WIDTH":{aw},"Y_WIDTH":{yw}}},
        "connections":{{"A":{a},"Y":{y}}}}}}},"netnames":{{}}}}}}}}"#,
        a = bits_json(2, aw),
        y = bits_json(2 + aw, yw),
        asg = param(asg as usize),
        aw = param(aw),
        yw = param(yw),
    )
}

fn words(v: &Bits) -> Vec<u64> {
    let mut out = vec![0u64; v.len().div_ceil(64).max(1)];
    for (i, &b) in v.iter().enumerate() {
        if b {
            out[i / 64] |= 1 << (i % 64);
        }
    }
    out
}

fn read(sim: &Simulator, name: &str, w: usize) -> Bits {
    let v = sim.get_wide(&sim.probe(name).unwrap());
    (0..w).map(|i| (v[i / 64] >> (i % 64)) & 1 == 1).collect()
}

fn show(v: &Bits) -> String {
    v.iter().rev().map(|&b| if b { '1' } else { '0' }).collect()
}

fn check_binary(kind: &str, a: &Bits, b: &Bits, yw: usize, asg: bool, bsg: bool) {
    let json = binary_cell(kind, a.len(), b.len(), yw, asg, bsg);
    let mut sim = Simulator::from_json(&json, None).unwrap();
    sim.set_wide(sim.input("A").unwrap(), &words(a)).unwrap();
    sim.set_wide(sim.input("B").unwrap(), &words(b)).unwrap();
    let want = reference(kind, a, b, yw, asg, bsg);
    let got = read(&sim, "Y", yw);
    assert_eq!(
        show(&got),
        show(&want),
        "{kind} A={} ({}signed) B={} ({}signed) Y_WIDTH={yw}",
        show(a),
        if asg { "" } else { "un" },
        show(b),
        if bsg { "" } else { "un" }
    );
}

fn operand(max: usize) -> impl Strategy<Value = Bits> {
    (0..WIDTHS.len()).prop_flat_map(move |i| {
        let w = WIDTHS[i].min(max);
        prop_oneof![
            proptest::collection::vec(any::<bool>(), w),
            Just(vec![true; w]),
            Just(vec![false; w]),
            (0..w).prop_map(move |k| (0..w).map(|i| i == k).collect()),
            Just((0..w).map(|i| i == w - 1).collect()),
        ]
    })
}

// A data table: the two-operand kinds checked against the reference model here, in the order
// the random cases draw them (tests/compiled.rs keeps its own list, of what it compiles).
const BINARY: [&str; 21] = [
    "$and",
    "$or",
    "$xor",
    "$xnor",
    "$add",
    "$sub",
    "$mul",
    "$div",
    "$mod",
    "$eq",
    "$ne",
    "$lt",
    "$le",
    "$gt",
    "$ge",
    "$logic_and",
    "$logic_or",
    "$shl",
    "$shr",
    "$sshl",
    "$sshr",
];
const UNARY: [&str; 9] = [
    "$not",
    "$pos",
    "$neg",
    "$reduce_and",
    "$reduce_or",
    "$reduce_xor",
    "$reduce_xnor",
    "$reduce_bool",
    "$logic_not",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn binary_cells_match_the_reference(
        k in 0..BINARY.len(),
        a in operand(200),
        b in operand(200),
        yi in 0..WIDTHS.len(),
        asg in any::<bool>(),
        bsg in any::<bool>(),
    ) {
        let kind = BINARY[k];
        let yw = WIDTHS[yi];
        let (asg, bsg) = if kind.contains("sh") { (asg, false) } else { (asg, asg && bsg) };
        // Shift amounts are mostly small in practice: also try the low bits only.
        let b = if kind.contains("sh") && b.len() > 8 { b[..8].to_vec() } else { b };
        check_binary(kind, &a, &b, yw, asg, bsg);
    }

    #[test]
    fn shift_and_shiftx_with_signed_amounts(
        a in operand(200),
        b in proptest::collection::vec(any::<bool>(), 1..9),
        yi in 0..WIDTHS.len(),
        asg in any::<bool>(),
        bsg in any::<bool>(),
        x in any::<bool>(),
    ) {
        check_binary(if x { "$shiftx" } else { "$shift" }, &a, &b, WIDTHS[yi], asg, bsg);
    }

    #[test]
    fn unary_cells_match_the_reference(k in 0..UNARY.len(), a in operand(200), yi in 0..WIDTHS.len(), asg in any::<bool>()) {
        let kind = UNARY[k];
        let yw = WIDTHS[yi];
        let mut sim = Simulator::from_json(&unary_cell(kind, a.len(), yw, asg), None).unwrap();
        sim.set_wide(sim.input("A").unwrap(), &words(&a)).unwrap();
        let want = reference(kind, &a, &Vec::new(), yw, asg, false);
        prop_assert_eq!(show(&read(&sim, "Y", yw)), show(&want), "{} A={}", kind, show(&a));
    }

    #[test]
    fn pmux_takes_the_lowest_selected_case(w in 0usize..5, sel in proptest::collection::vec(any::<bool>(), 1..5), seed in any::<u64>()) {
        let w = WIDTHS[w];
        let n = sel.len();
        let json = format!(
            r#"{{"modules":{{"t":{{"attributes":{{"top":"1"}},
            "ports":{{"A":{{"direction":"input","bits":{a}}},"B":{{"direction":"input","bits":{b}}},"S":{{"direction":"input","bits":{s}}},"Y":{{"direction":"output","bits":{y}}}}},
            "cells":{{"c":{{"type":"$pmux","parameters":{{"WIDTH":{w},"S_WIDTH":{n}}},"connections":{{"A":{a},"B":{b},"S":{s},"Y":{y}}}}}}}}}}}}}"#,
            a = bits_json(2, w), b = bits_json(2 + w, w * n), s = bits_json(2 + w * (n + 1), n),
            y = bits_json(2 + w * (n + 1) + n, w), w = param(w), n = param(n));
        let mut sim = Simulator::from_json(&json, None).unwrap();
        let mut rng = seed | 1;
        let mut rand = || { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; rng };
        let a: Bits = (0..w).map(|_| rand() & 1 == 1).collect();
        let b: Bits = (0..w * n).map(|_| rand() & 1 == 1).collect();
        sim.set_wide(sim.input("A").unwrap(), &words(&a)).unwrap();
        sim.set_wide(sim.input("B").unwrap(), &words(&b)).unwrap();
        sim.set_wide(sim.input("S").unwrap(), &words(&sel)).unwrap();
        let want = match sel.iter().position(|&x| x) {
            Some(k) => b[k * w..(k + 1) * w].to_vec(),
            None => a,
        };
        prop_assert_eq!(show(&read(&sim, "Y", w)), show(&want));
    }
}

// ---- asynchronous flip-flops (checked against their yosys semantics) ----------------------

#[test]
fn aldff_loads_while_held_and_counts_otherwise() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/designs/async.json");
    let mut sim =
        Simulator::from_json(&std::fs::read_to_string(path).unwrap(), Some("clk")).unwrap();
    let q = sim.probe("q_aldff").unwrap();
    sim.set_by_name("d", 40).unwrap();
    sim.set_by_name("ld", 1).unwrap();
    assert_eq!(sim.get(&q), 40, "the load is asynchronous");
    sim.set_by_name("d", 41).unwrap();
    assert_eq!(sim.get(&q), 41, "and transparent while held");
    sim.step();
    assert_eq!(sim.get(&q), 41);
    sim.set_by_name("ld", 0).unwrap();
    assert_eq!(sim.get(&q), 41);
    sim.run(2);
    assert_eq!(sim.get(&q), 47);
}

#[test]
fn dffsr_clear_beats_set_and_both_act_at_once() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/designs/async.json");
    let mut sim =
        Simulator::from_json(&std::fs::read_to_string(path).unwrap(), Some("clk")).unwrap();
    let q = sim.probe("q_sr").unwrap();
    sim.set_by_name("en", 1).unwrap();
    sim.step();
    assert_eq!(sim.get(&q), 0b1111);
    sim.set_by_name("en", 0).unwrap();
    sim.set_by_name("clr", 0b0011).unwrap();
    assert_eq!(sim.get(&q), 0b1100);
    sim.set_by_name("set", 0b0110).unwrap();
    assert_eq!(sim.get(&q), 0b1100, "clear wins on bit 1, set keeps bit 2");
    sim.set_by_name("clr", 0).unwrap();
    sim.step();
    assert_eq!(
        sim.get(&q),
        0b0110,
        "bits not set take D = en = 0 at the edge"
    );
}

// ---- errors -----------------------------------------------------------------------------

fn err(json: &str) -> LoadError {
    Simulator::from_json(json, None).unwrap_err()
}

#[test]
fn a_combinational_loop_is_rejected_naming_its_cells() {
    let json = r#"{"modules":{"t":{"attributes":{"top":"1"},
      "ports":{"a":{"direction":"input","bits":[2]},"y":{"direction":"output","bits":[3]}},
      "cells":{
        "first":{"type":"$and","parameters":{"A_WIDTH":"1","B_WIDTH":"1","Y_WIDTH":"1"},"connections":{"A":[2],"B":[4],"Y":[3]}},
        "second":{"type":"$not","parameters":{"A_WIDTH":"1","Y_WIDTH":"1"},"connections":{"A":[3],"Y":[4]}}}}}}"#;
    match err(json) {
        LoadError::CombinationalLoop { path, .. } => {
            assert!(
                path.contains(&"first".to_string()) && path.contains(&"second".to_string()),
                "{path:?}"
            )
        }
        other => panic!("{other}"),
    }
}

#[test]
fn an_unknown_cell_is_rejected_by_name() {
    let json = r#"{"modules":{"t":{"cells":{"u1":{"type":"$mystery","connections":{}}}}}}"#;
    assert_eq!(
        err(json),
        LoadError::UnknownCell {
            cell: "u1".into(),
            kind: "$mystery".into()
        }
    );
    let msg = err(json).to_string();
    assert!(msg.contains("u1") && msg.contains("$mystery"), "{msg}");
}

#[test]
fn two_drivers_on_a_net_are_rejected() {
    let json = r#"{"modules":{"t":{"ports":{"a":{"direction":"input","bits":[2]}},
      "cells":{"n":{"type":"$not","parameters":{"A_WIDTH":"1","Y_WIDTH":"1"},"connections":{"A":[2],"Y":[2]}}}}}}"#;
    assert!(matches!(
        err(json),
        LoadError::MultipleDrivers { net: 2, .. }
    ));
    let msg = err(json).to_string();
    assert!(msg.starts_with("net a has two drivers"), "{msg}");
}

#[test]
fn a_width_mismatch_names_the_cell_and_port() {
    let json = r#"{"modules":{"t":{"ports":{"a":{"direction":"input","bits":[2,3]}},
      "cells":{"bad":{"type":"$not","parameters":{"A_WIDTH":"11","Y_WIDTH":"1"},"connections":{"A":[2],"Y":[4]}}}}}}"#;
    let msg = err(json).to_string();
    assert!(msg.contains("bad") && msg.contains("port A"), "{msg}");
}

#[test]
fn flip_flops_on_two_clocks_are_rejected() {
    let json = r#"{"modules":{"t":{"ports":{"c1":{"direction":"input","bits":[2]},"c2":{"direction":"input","bits":[3]}},
      "cells":{
        "f1":{"type":"$dff","parameters":{"WIDTH":"1","CLK_POLARITY":"1"},"connections":{"CLK":[2],"D":[4],"Q":[4]}},
        "f2":{"type":"$dff","parameters":{"WIDTH":"1","CLK_POLARITY":"1"},"connections":{"CLK":[3],"D":[5],"Q":[5]}}}}}}"#;
    let e = err(json);
    assert!(matches!(e, LoadError::ForeignClock { .. }), "{e}");
    assert!(e.to_string().contains("f2") || e.to_string().contains("f1"));
}

proptest! {
    /// Corrupting a real netlist never panics the loader or the simulator.
    #[test]
    fn mutated_netlists_never_panic(pos in 0usize..39_000, byte in any::<u8>(), cycles in 0u64..4) {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/designs/mem.json");
        let mut text = std::fs::read(path).unwrap();
        let pos = pos % text.len();
        text[pos] = byte;
        if let Ok(text) = String::from_utf8(text)
            && let Ok(mut sim) = Simulator::from_json(&text, None)
        {
            sim.run(cycles);
        }
    }
}

fn select_cell(kind: &str, w: usize, sw: usize) -> String {
    let (aw, yw) = if kind == "$bmux" {
        (w << sw, w)
    } else {
        (w, w << sw)
    };
    format!(
        r#"{{"modules":{{"t":{{"attributes":{{"top":"1"}},
        "ports":{{"A":{{"direction":"input","bits":{a}}},"S":{{"direction":"input","bits":{s}}},"Y":{{"direction":"output","bits":{y}}}}},
        "cells":{{"c":{{"type":"{kind}","parameters":{{"WIDTH":{w},"S_WIDTH":{sw}}},"connections":{{"A":{a},"S":{s},"Y":{y}}}}}}}}}}}}}"#,
        a = bits_json(2, aw),
        s = bits_json(2 + aw, sw),
        y = bits_json(2 + aw + sw, yw),
        w = param(w),
        sw = param(sw),
    )
}

proptest! {
    #[test]
    fn bmux_selects_and_demux_places_a_slice(
        wi in 0..WIDTHS.len(),
        sw in 1usize..4,
        sel in any::<u8>(),
        seed in any::<u64>(),
    ) {
        let w = WIDTHS[wi];
        let sel = (sel as usize) % (1 << sw);
        let mut rng = seed | 1;
        let mut rand = move || { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; rng & 1 == 1 };
        // $bmux: Y = A[sel*W +: W]
        let a: Bits = (0..w << sw).map(|_| rand()).collect();
        let mut sim = Simulator::from_json(&select_cell("$bmux", w, sw), None).unwrap();
        sim.set_wide(sim.input("A").unwrap(), &words(&a)).unwrap();
        sim.set(sim.input("S").unwrap(), sel as u64).unwrap();
        prop_assert_eq!(show(&read(&sim, "Y", w)), show(&a[sel * w..(sel + 1) * w].to_vec()));
        // $demux: Y[sel*W +: W] = A, zero elsewhere
        let a: Bits = (0..w).map(|_| rand()).collect();
        let mut sim = Simulator::from_json(&select_cell("$demux", w, sw), None).unwrap();
        sim.set_wide(sim.input("A").unwrap(), &words(&a)).unwrap();
        sim.set(sim.input("S").unwrap(), sel as u64).unwrap();
        let want: Bits = (0..w << sw).map(|i| i / w == sel && a[i % w]).collect();
        prop_assert_eq!(show(&read(&sim, "Y", w << sw)), show(&want));
    }
}

#[test]
fn single_bit_gates_and_their_flip_flop() {
    // A toggle flip-flop from fine-grained cells: q <= q ^ t, y = !(q & t).
    let json = r#"{"modules":{"t":{"attributes":{"top":"1"},
      "ports":{"clk":{"direction":"input","bits":[2]},"t":{"direction":"input","bits":[3]},"q":{"direction":"output","bits":[4]},"y":{"direction":"output","bits":[6]}},
      "cells":{
        "x":{"type":"$_XOR_","connections":{"A":[4],"B":[3],"Y":[5]}},
        "f":{"type":"$_DFF_P_","connections":{"C":[2],"D":[5],"Q":[4]}},
        "a":{"type":"$_AND_","connections":{"A":[4],"B":[3],"Y":[7]}},
        "n":{"type":"$_NOT_","connections":{"A":[7],"Y":[6]}}}}}}"#;
    let mut sim = Simulator::from_json(json, None).unwrap();
    assert_eq!(sim.clock_name(), Some("clk"), "the clock is inferred");
    sim.set_by_name("t", 1).unwrap();
    let seen: Vec<(u64, u64)> = (0..4)
        .map(|_| {
            sim.step();
            (sim.get_by_name("q").unwrap(), sim.get_by_name("y").unwrap())
        })
        .collect();
    assert_eq!(seen, [(1, 0), (0, 1), (1, 0), (0, 1)]);
}

#[test]
fn a_real_loop_through_a_wide_cell_is_still_rejected_after_splitting() {
    // y = ~y on 4 bits: every bit depends on itself, splitting cannot help.
    let json = r#"{"modules":{"t":{"attributes":{"top":"1"},
      "ports":{"y":{"direction":"output","bits":[2,3,4,5]}},
      "cells":{"inv":{"type":"$not","parameters":{"A_WIDTH":"100","Y_WIDTH":"100"},"connections":{"A":[2,3,4,5],"Y":[2,3,4,5]}}}}}}"#;
    match err(json) {
        LoadError::CombinationalLoop { cell, .. } => assert!(cell.starts_with("inv["), "{cell}"),
        other => panic!("{other}"),
    }
}

proptest! {
    /// Structural corruption of a real netlist (a parameter set to any value, a connection
    /// dropped or resized) gives an error or a working simulator, never a panic.
    #[test]
    fn corrupted_cells_never_panic(
        cell_pick in any::<usize>(),
        param_pick in any::<usize>(),
        value in any::<u32>(),
        drop_pick in any::<usize>(),
        action in 0u8..3,
        design in 0usize..4,
    ) {
        let top = ["mem", "ffs", "cpu", "async"][design];
        let path = format!("{}/tests/designs/{top}.json", env!("CARGO_MANIFEST_DIR"));
        let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let cells = v["modules"][top]["cells"].as_object_mut().unwrap();
        let name = cells.keys().nth(cell_pick % cells.len()).unwrap().clone();
        let cell = cells.get_mut(&name).unwrap();
        match action {
            0 => {
                let params = cell["parameters"].as_object_mut().unwrap();
                if !params.is_empty() {
                    let key = params.keys().nth(param_pick % params.len()).unwrap().clone();
                    params.insert(key, serde_json::Value::String(format!("{value:b}")));
                }
            }
            1 => {
                let conns = cell["connections"].as_object_mut().unwrap();
                let key = conns.keys().nth(drop_pick % conns.len()).unwrap().clone();
                conns.remove(&key);
            }
            _ => {
                let conns = cell["connections"].as_object_mut().unwrap();
                let key = conns.keys().nth(drop_pick % conns.len()).unwrap().clone();
                let bits = conns.get_mut(&key).unwrap().as_array_mut().unwrap();
                bits.truncate((value as usize) % (bits.len() + 1));
            }
        }
        if let Ok(mut sim) = Simulator::from_json(&v.to_string(), None) {
            sim.run(3);
        }
    }
}
