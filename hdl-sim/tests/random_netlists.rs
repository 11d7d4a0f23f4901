//! Random, structurally plausible netlists through the whole load path: every cell kind the
//! simulator knows (and some it does not), consistent to begin with, then mutated — parameters
//! set to huge or malformed values, connections resized or rewired. Loading (and, when it
//! succeeds, running) must give a simulator or an error, never a panic, and must never
//! allocate much beyond the budget it was given.
//!
//! This file holds a single test, so that the counting allocator below sees only its work.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use hdl_sim::{Limits, Simulator};
use proptest::prelude::*;
use serde_json::{Value, json};

/// The system allocator, keeping the bytes in use and their peak.
struct Counting;

static IN_USE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is passed on unchanged to the system allocator, which upholds the
// `GlobalAlloc` contract; the counters only observe sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's `layout` obligations are the system allocator's.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = IN_USE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System.alloc` (above) with this `layout`.
        unsafe { System.dealloc(ptr, layout) };
        IN_USE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The budget the netlists are loaded with.
const BUDGET: u64 = 1 << 20;
/// What loading may allocate at its peak: a few times the budget (the state, its staging and
/// the program around it) and the parsed text. The parameters of these netlists ask for up to
/// tens of gigabytes.
const PEAK_ALLOWED: usize = 8 << 20;

/// A parameter as yosys writes it: a 32-bit bit string.
fn p(v: u64) -> Value {
    Value::String(format!("{:032b}", v & 0xffff_ffff))
}

fn nets(start: u64, n: u64) -> Value {
    Value::Array((start..start + n).map(|i| json!(i)).collect())
}

/// A consistent cell of kind number `k`, reading nets from 2 up and driving nets from `out` up,
/// `w` bits wide (`sw` select bits).
fn template(k: usize, w: u64, sw: u64, out: u64) -> Value {
    let a = || nets(2, w);
    let y = |n: u64| nets(out, n);
    let bit = || nets(2, 1);
    match KINDS[k] {
        kind @ ("$not" | "$neg" | "$reduce_or" | "$logic_not") => json!({"type": kind,
            "parameters": {"A_SIGNED": p(1), "A_WIDTH": p(w), "Y_WIDTH": p(w)},
            "connections": {"A": a(), "Y": y(w)}}),
        kind @ ("$add" | "$and" | "$shl" | "$sshr" | "$mul" | "$pow" | "$eq" | "$shiftx"
        | "$divfloor") => json!({"type": kind,
            "parameters": {"A_SIGNED": p(0), "B_SIGNED": p(1), "A_WIDTH": p(w), "B_WIDTH": p(w),
                           "Y_WIDTH": p(w)},
            "connections": {"A": a(), "B": a(), "Y": y(w)}}),
        kind @ ("$mux" | "$bwmux") => {
            let s = if kind == "$mux" { 1 } else { w };
            json!({"type": kind, "parameters": {"WIDTH": p(w)},
                "connections": {"A": a(), "B": a(), "S": nets(2, s), "Y": y(w)}})
        }
        "$pmux" => json!({"type": "$pmux", "parameters": {"WIDTH": p(w), "S_WIDTH": p(sw)},
            "connections": {"A": a(), "B": nets(2, w * sw), "S": nets(2, sw), "Y": y(w)}}),
        "$bmux" => json!({"type": "$bmux", "parameters": {"WIDTH": p(w), "S_WIDTH": p(sw)},
            "connections": {"A": nets(2, w << sw), "S": nets(2, sw), "Y": y(w)}}),
        "$demux" => json!({"type": "$demux", "parameters": {"WIDTH": p(w), "S_WIDTH": p(sw)},
            "connections": {"A": a(), "S": nets(2, sw), "Y": y(w << sw)}}),
        "$concat" => json!({"type": "$concat", "parameters": {"A_WIDTH": p(w), "B_WIDTH": p(sw)},
            "connections": {"A": a(), "B": nets(2, sw), "Y": y(w + sw)}}),
        "$slice" => json!({"type": "$slice",
            "parameters": {"A_WIDTH": p(w + sw), "Y_WIDTH": p(w), "OFFSET": p(sw)},
            "connections": {"A": nets(2, w + sw), "Y": y(w)}}),
        kind @ ("$dff" | "$adff" | "$sdffce" | "$aldffe" | "$dffsr") => json!({"type": kind,
            "parameters": {"WIDTH": p(w), "CLK_POLARITY": p(1), "EN_POLARITY": p(1),
                "ARST_POLARITY": p(1), "ARST_VALUE": p(3), "SRST_POLARITY": p(0),
                "SRST_VALUE": p(5), "ALOAD_POLARITY": p(1), "SET_POLARITY": p(1),
                "CLR_POLARITY": p(0)},
            "connections": {"CLK": nets(20, 1), "D": a(), "Q": y(w), "EN": bit(), "ARST": bit(),
                "SRST": bit(), "ALOAD": bit(), "AD": a(), "SET": a(), "CLR": a()}}),
        kind @ ("$_AND_" | "$_XOR_" | "$_MUX_" | "$_NOT_") => json!({"type": kind,
            "connections": {"A": bit(), "B": nets(3, 1), "S": nets(4, 1), "Y": y(1)}}),
        "$_DFF_P_" => json!({"type": "$_DFF_P_",
            "connections": {"C": nets(20, 1), "D": bit(), "Q": y(1)}}),
        "$mem_v2" => json!({"type": "$mem_v2",
            "parameters": {"MEMID": "\\mem ", "SIZE": p(1 << sw), "OFFSET": p(0), "ABITS": p(sw),
                "WIDTH": p(w), "INIT": "1".repeat((w << sw) as usize + 1),
                "RD_PORTS": p(2), "RD_CLK_ENABLE": "01", "RD_CLK_POLARITY": "11",
                "RD_TRANSPARENCY_MASK": "11", "RD_CE_OVER_SRST": "00",
                "RD_SRST_VALUE": "1".repeat(2 * w as usize + 1),
                "RD_INIT_VALUE": "0".repeat(2 * w as usize + 1),
                "WR_PORTS": p(1), "WR_CLK_ENABLE": "1", "WR_CLK_POLARITY": "1"},
            "connections": {"RD_CLK": nets(20, 2), "RD_EN": nets(2, 2), "RD_ARST": ["0", "0"],
                "RD_SRST": nets(3, 2), "RD_ADDR": nets(2, 2 * sw), "RD_DATA": y(2 * w),
                "WR_CLK": nets(20, 1), "WR_EN": nets(2, w), "WR_ADDR": nets(2, sw),
                "WR_DATA": a()}}),
        kind => json!({"type": kind, "parameters": {"WIDTH": p(w)},
            "connections": {"A": a(), "Y": y(w)}}),
    }
}

const KINDS: &[&str] = &[
    "$not",
    "$neg",
    "$reduce_or",
    "$logic_not",
    "$add",
    "$and",
    "$shl",
    "$sshr",
    "$mul",
    "$pow",
    "$eq",
    "$shiftx",
    "$divfloor",
    "$mux",
    "$bwmux",
    "$pmux",
    "$bmux",
    "$demux",
    "$concat",
    "$slice",
    "$dff",
    "$adff",
    "$sdffce",
    "$aldffe",
    "$dffsr",
    "$_AND_",
    "$_XOR_",
    "$_MUX_",
    "$_NOT_",
    "$_DFF_P_",
    "$mem_v2",
    "$frob",
    "$_DFF_X_",
    "$scopeinfo",
];

/// A parameter value worth trying: huge, malformed, or ordinary.
fn wild_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        (0u64..10).prop_map(p),
        (0i64..10).prop_map(|v| json!(v)),
        (0u64..10).prop_map(p),
        Just(p(u64::from(u32::MAX))),
        Just(p(1 << 31)),
        Just(p(1 << 24)),
        Just(p(1 << 27)),
        Just(p((1 << 27) + 1)),
        Just(p(u64::from(u32::MAX) / 8)),
        Just(json!(1u64 << 40)),
        Just(json!(-1)),
        Just(json!(4_294_967_295u64)),
        Just(json!(1.5)),
        Just(Value::String(format!("1{}", "0".repeat(32)))),
        Just(Value::String(format!("1{}", "0".repeat(70)))),
        Just(Value::String("x".repeat(40))),
        Just(Value::String("hello".into())),
        "[01xz]{1,40}".prop_map(Value::String),
    ]
}

/// One change to a cell.
#[derive(Clone, Debug)]
enum Mutation {
    Param(usize, Value),
    Resize(usize, usize),
    Rewire(usize, usize, u64),
    Kind(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        3 => (any::<usize>(), wild_value()).prop_map(|(i, v)| Mutation::Param(i, v)),
        1 => (any::<usize>(), 0usize..12).prop_map(|(i, n)| Mutation::Resize(i, n)),
        1 => (any::<usize>(), any::<usize>(), 0u64..40).prop_map(|(i, b, n)| Mutation::Rewire(i, b, n)),
        1 => (0..KINDS.len()).prop_map(Mutation::Kind),
    ]
}

fn mutate(cell: &mut Value, m: &Mutation) {
    let pick = |obj: &mut serde_json::Map<String, Value>, i: usize| {
        (!obj.is_empty()).then(|| obj.keys().nth(i % obj.len()).unwrap().clone())
    };
    match m {
        Mutation::Param(i, v) => {
            if let Some(obj) = cell.get_mut("parameters").and_then(Value::as_object_mut)
                && let Some(k) = pick(obj, *i)
            {
                obj.insert(k, v.clone());
            }
        }
        Mutation::Resize(i, n) => {
            if let Some(obj) = cell.get_mut("connections").and_then(Value::as_object_mut)
                && let Some(k) = pick(obj, *i)
            {
                let bits = obj[&k].as_array_mut().unwrap();
                let fill = bits.first().cloned().unwrap_or(json!(2));
                bits.resize(*n, fill);
            }
        }
        Mutation::Rewire(i, b, net) => {
            if let Some(obj) = cell.get_mut("connections").and_then(Value::as_object_mut)
                && let Some(k) = pick(obj, *i)
            {
                let bits = obj[&k].as_array_mut().unwrap();
                if !bits.is_empty() {
                    let at = b % bits.len();
                    bits[at] = match net {
                        0 => json!("0"),
                        1 => json!("1"),
                        n => json!(n),
                    };
                }
            }
        }
        Mutation::Kind(k) => cell["type"] = json!(KINDS[*k]),
    }
}

fn netlist(cells: &[(usize, u64, u64, Vec<Mutation>)]) -> String {
    let mut out = 40;
    let mut all = serde_json::Map::new();
    for (n, (k, w, sw, muts)) in cells.iter().enumerate() {
        let mut cell = template(*k, *w, *sw, out);
        out += 2 * (*w << *sw) + 2;
        for m in muts {
            mutate(&mut cell, m);
        }
        all.insert(format!("c{n}"), cell);
    }
    json!({"modules": {"top": {
        "attributes": {"top": p(1)},
        "ports": {
            "clk": {"direction": "input", "bits": [20]},
            "a": {"direction": "input", "bits": nets(2, 18)},
            "y": {"direction": "output", "bits": nets(40, 8)}
        },
        "cells": all
    }}})
    .to_string()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn random_netlists_load_or_fail_within_the_budget(
        cells in proptest::collection::vec(
            (0..KINDS.len(), 0u64..5, 0u64..3, proptest::collection::vec(mutation(), 0..4)),
            1..5,
        ),
        input in any::<u64>(),
    ) {
        let text = netlist(&cells);
        let before = IN_USE.load(Ordering::Relaxed);
        PEAK.store(before, Ordering::Relaxed);
        let limits = Limits { max_state_bytes: BUDGET };
        if let Ok(mut sim) = Simulator::from_json_with(&text, None, limits) {
            sim.set_by_name("a", input & 0x3ffff).unwrap();
            sim.run(2);
            sim.set_by_name("a", 0x3ffff).unwrap();
            sim.run(1);
        }
        let peak = PEAK.load(Ordering::Relaxed) - before;
        prop_assert!(peak <= PEAK_ALLOWED, "{peak} bytes at the peak for {text}");
    }
}
