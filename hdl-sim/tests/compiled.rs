//! The compiled back end against the interpreter, cycle for cycle: every test design, the
//! reference player's netlist, and random inputs changed between runs of random length.
#![cfg(all(feature = "compiled", not(target_arch = "wasm32")))]

use std::path::Path;

use hdl_sim::wasm::{Compiled, CompiledError, Options};
use hdl_sim::{BoardConfig, BoardEmulator, Direction, Simulator};
use testkit::Rng;

/// Every port and visible wire of `sim`, whole, with the cycle count.
fn snapshot(sim: &Simulator) -> Vec<(String, Vec<u64>)> {
    let mut names: Vec<String> = sim.ports().into_iter().map(|p| p.name).collect();
    names.extend(sim.wire_names().into_iter().map(str::to_string));
    let mut out: Vec<(String, Vec<u64>)> = names
        .into_iter()
        .map(|n| {
            let probe = sim.probe(&n).expect("listed signal");
            (n, sim.get_wide(&probe))
        })
        .collect();
    out.push(("<cycle>".into(), vec![sim.cycle()]));
    out
}

/// Runs `sim` on both back ends (the compiled one with and without change tracking) for about
/// `cycles` cycles under random inputs, comparing every signal after every run. `Err` when the
/// design is not compiled yet.
fn compare(name: &str, sim: Simulator, seed: u64, cycles: u64) -> Result<(), CompiledError> {
    for tracking in [true, false] {
        let options = Options {
            tracking,
            ..Options::default()
        };
        compare_with(name, sim.clone(), seed, cycles, &options)?;
    }
    Ok(())
}

fn compare_with(
    name: &str,
    sim: Simulator,
    seed: u64,
    cycles: u64,
    options: &Options,
) -> Result<(), CompiledError> {
    let mut interp = sim.clone();
    let mut comp = sim;
    let mut compiled = Compiled::with_options(&comp, options)?;
    let inputs: Vec<(String, u32)> = comp
        .ports()
        .into_iter()
        .filter(|p| p.direction == Direction::Input)
        .map(|p| (p.name, p.width))
        .filter(|(n, _)| {
            let pin = comp.input(n).expect("input");
            !comp.is_clock(pin)
        })
        .collect();
    let mut rng = Rng::new(seed);
    let mut done = 0;
    while done < cycles {
        for (n, w) in &inputs {
            let words = (*w as usize).div_ceil(64).max(1);
            let mut v: Vec<u64> = (0..words).map(|_| rng.next_u64()).collect();
            for (i, word) in v.iter_mut().enumerate() {
                let lo = i as u32 * 64;
                if lo >= *w {
                    *word = 0;
                } else if *w - lo < 64 {
                    *word &= (1 << (*w - lo)) - 1;
                }
            }
            // Reset-like inputs are mostly inactive, so that the design gets somewhere.
            if !rng.next_u64().is_multiple_of(4)
                && (n.contains("rst") || n.contains("reset") || n == "KEY")
            {
                continue;
            }
            let a = interp.input(n).expect("input");
            interp.set_wide(a, &v).expect("fits");
            comp.set_wide(a, &v).expect("fits");
        }
        let n = if done < 64 {
            1
        } else if rng.next_u64().is_multiple_of(8) {
            // Long enough for adaptive tracking to measure, go untracked on a busy design,
            // and come back.
            200 + rng.next_u64() % 1200
        } else {
            1 + rng.next_u64() % 40
        };
        interp.run(n);
        compiled.run(&mut comp, n)?;
        done += n;
        let (a, b) = (snapshot(&interp), snapshot(&comp));
        for ((name_a, va), (_, vb)) in a.iter().zip(&b) {
            assert_eq!(
                va, vb,
                "{name}: {name_a} differs after cycle {done} (interpreter, compiled; {options:?})"
            );
        }
        // The interpreter continues from the compiled state as well.
        if rng.next_u64().is_multiple_of(8) {
            comp.step();
            interp.step();
            done += 1;
        }
    }
    Ok(())
}

/// The test designs the generator must cover; the others are reported as not compiled yet.
const COVERED: &[&str] = &["async", "cpu", "loop", "loops", "negedge"];

#[test]
fn every_test_design_matches_the_interpreter() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/designs");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("designs")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    let mut compiled = Vec::new();
    for path in paths {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).expect("netlist");
        let sim =
            Simulator::from_json(&text, Some("clk")).or_else(|_| Simulator::from_json(&text, None));
        let Ok(sim) = sim else {
            continue; // not a runnable design (the bad-netlist fixtures live elsewhere)
        };
        match compare(&name, sim, 0x5eed, 3000) {
            Ok(()) => compiled.push(name),
            Err(CompiledError::Unsupported(why)) => {
                eprintln!("{name}: not compiled yet: {why}");
                assert!(!COVERED.contains(&name.as_str()), "{name}: {why}");
            }
            Err(e) => panic!("{name}: {e}"),
        }
    }
    eprintln!("compiled and equal: {compiled:?}");
    for name in COVERED {
        assert!(
            compiled.iter().any(|c| c == name),
            "{name} was not compared"
        );
    }
}

#[test]
fn the_reference_player_matches_the_interpreter() {
    let text = include_str!("../../hdl/netlist/de2_115_top.json");
    let sim = Simulator::from_json(text, Some("CLOCK_50")).expect("reference netlist");
    compare("de2_115_top", sim, 7, 20_000).expect("the reference player compiles");
}

/// The reference player as a board, set up for a game it moves first in.
fn player_board(compiled: bool) -> BoardEmulator {
    let config = BoardConfig {
        switch_value: 2,
        ..BoardConfig::default()
    };
    let mut board =
        BoardEmulator::from_json(hdl_sim::reference::NETLIST, config).expect("reference player");
    if compiled {
        board.use_compiled().expect("the player compiles");
    }
    assert_eq!(board.is_compiled(), compiled);
    board.send(b"w\x08\nl\x0a\ncr\n{}\n");
    board
}

#[test]
fn the_compiled_board_sends_the_same_bytes_at_the_same_cycles() {
    let (mut interp, mut comp) = (player_board(false), player_board(true));
    // In slices of odd lengths, so that runs end inside frames and inside bits.
    let mut sent = 0;
    for slice in [1u64, 433, 5_000, 77_777, 400_000, 1_000_000, 1_500_000] {
        let (a, b) = (interp.run(slice), comp.run(slice));
        assert_eq!(a, b, "bytes in a slice of {slice}");
        let (a, b) = (interp.take_output(), comp.take_output());
        assert_eq!(a, b, "the bytes and their cycles");
        sent += a.len();
        assert_eq!(interp.cycle(), comp.cycle());
        for port in interp.simulator().ports() {
            let probe = interp.simulator().probe(&port.name).unwrap();
            assert_eq!(
                interp.simulator().get_wide(&probe),
                comp.simulator().get_wide(&probe),
                "{} after cycle {}",
                port.name,
                interp.cycle()
            );
        }
    }
    assert!(sent > 0, "the player answered its first turn");
    // Byte by byte as well: run_until_byte stops after the same cycle.
    let (mut interp, mut comp) = (player_board(false), player_board(true));
    loop {
        let (a, b) = (
            interp.run_until_byte(3_000_000),
            comp.run_until_byte(3_000_000),
        );
        assert_eq!(a, b);
        assert_eq!(interp.cycle(), comp.cycle());
        if a.is_none_or(|b| b.byte == b'\n') {
            break;
        }
    }
}

#[test]
fn a_watched_bit_ends_a_run_after_the_cycle_it_changed() {
    // The loop design's LEDG adds SW every cycle: still while SW = 0.
    let text = include_str!("designs/loop.json");
    let mut sim = Simulator::from_json(text, Some("CLOCK_50")).expect("loop");
    sim.set_by_name("KEY", 0xf).unwrap();
    let (ledg, sw) = (sim.probe("LEDG").unwrap(), sim.input("SW").unwrap());
    let options = Options::default().watching(&[&ledg]);
    let mut compiled = Compiled::with_options(&sim, &options).expect("loop compiles");
    compiled.load(&sim).unwrap();
    assert_eq!(compiled.run_loaded(50).unwrap(), 50, "LEDG stays 0");
    compiled.set_loaded(&sim, sw, 3);
    assert_eq!(compiled.run_loaded(0).unwrap(), 0, "run(0) only settles");
    assert_eq!(
        compiled.run_loaded(1000).unwrap(),
        1,
        "LEDG changes at once"
    );
    assert_eq!(compiled.get_loaded(&ledg), 3);
    compiled.set_loaded(&sim, sw, 0);
    assert_eq!(compiled.run_loaded(70).unwrap(), 70);
    compiled.store(&mut sim);
    assert_eq!(sim.cycle(), 121);
    assert_eq!(sim.get(&ledg), 3);

    // Unwatched, a run goes to its end however LEDG moves.
    sim.set(sw, 1).unwrap();
    let mut unwatched = Compiled::new(&sim).expect("loop compiles");
    unwatched.load(&sim).unwrap();
    assert_eq!(unwatched.run_loaded(1000).unwrap(), 1000);
    assert_eq!(unwatched.get_loaded(&ledg), (3 + 1000) % 256);
}

#[test]
fn a_simulator_of_another_design_is_refused() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/designs");
    let load = |n: &str| {
        let text = std::fs::read_to_string(dir.join(n)).expect("netlist");
        Simulator::from_json(&text, None).expect("loads")
    };
    let (cpu, mut other) = (load("cpu.json"), load("loop.json"));
    let mut compiled = Compiled::new(&cpu).expect("cpu compiles");
    let err = compiled.run(&mut other, 10).expect_err("another design");
    assert!(matches!(err, CompiledError::OtherDesign(_)), "{err}");
    assert_eq!(other.cycle(), 0, "nothing ran");
}

/// A 128-bit concatenation of eight 16-bit registers, two parts per word, read by two `$pmux`
/// cells (so it is assembled in memory, not absorbed by either), which choose 32-bit parts of it.
#[test]
fn a_wide_concatenation_read_twice_matches_the_interpreter() {
    use serde_json::json;
    let bits = |from: u64, n: u64| (from..from + n).collect::<Vec<u64>>();
    let p = |v: u64| format!("{v:032b}");
    let mut cells = serde_json::Map::new();
    let mut wide = Vec::new();
    for k in 0..8u64 {
        let (q, d) = (bits(100 + 32 * k, 16), bits(116 + 32 * k, 16));
        // r_k <= r_k + a[15:0] + k (an adder per register, so each changes its own way).
        cells.insert(
            format!("add{k}"),
            json!({"type": "$add",
            "parameters": {"A_SIGNED": p(0), "B_SIGNED": p(0), "A_WIDTH": p(16),
                "B_WIDTH": p(16), "Y_WIDTH": p(16)},
            "connections": {"A": q, "B": bits(2 + k, 16), "Y": d}}),
        );
        cells.insert(
            format!("r{k}"),
            json!({"type": "$dff",
            "parameters": {"WIDTH": p(16), "CLK_POLARITY": p(1)},
            "connections": {"CLK": [1], "D": d, "Q": q}}),
        );
        wide.extend(q);
    }
    for (k, s) in [(0u64, 2u64), (1, 6)] {
        cells.insert(
            format!("pmux{k}"),
            json!({"type": "$pmux",
            "parameters": {"WIDTH": p(32), "S_WIDTH": p(4)},
            "connections": {"A": bits(2, 32), "B": wide, "S": bits(2 + s, 4),
                "Y": bits(400 + 32 * k, 32)}}),
        );
    }
    let text = json!({"modules": {"top": {
        "attributes": {"top": p(1)},
        "ports": {
            "clk": {"direction": "input", "bits": [1]},
            "a": {"direction": "input", "bits": bits(2, 32)},
            "y": {"direction": "output", "bits": bits(400, 64)}
        },
        "cells": cells,
        "netnames": {"wide": {"bits": wide}}
    }}})
    .to_string();
    let sim = Simulator::from_json(&text, Some("clk")).expect("the netlist loads");
    compare("wide concatenation", sim, 7, 3000).expect("compiled");
}

mod random {
    //! Random graphs of the word-level cells the generator covers, with registers feeding
    //! back into the logic, compiled vs interpreted for thousands of cycles.

    use proptest::prelude::*;
    use serde_json::{Value, json};

    use super::compare;
    use hdl_sim::Simulator;

    const COMB: &[&str] = &[
        "$not",
        "$neg",
        "$pos",
        "$reduce_and",
        "$reduce_or",
        "$reduce_xor",
        "$reduce_xnor",
        "$reduce_bool",
        "$logic_not",
        "$add",
        "$sub",
        "$mul",
        "$and",
        "$or",
        "$xor",
        "$xnor",
        "$shl",
        "$shr",
        "$sshl",
        "$sshr",
        "$shift",
        "$shiftx",
        "$eq",
        "$ne",
        "$lt",
        "$le",
        "$gt",
        "$ge",
        "$logic_and",
        "$logic_or",
        "$div",
        "$mod",
        "$divfloor",
        "$modfloor",
        "$pow",
        "$mux",
        "$bwmux",
        "$pmux",
    ];
    const REGS: &[&str] = &[
        "$dff", "$dffe", "$sdff", "$sdffe", "$sdffce", "$adff", "$adffe",
    ];

    fn p(v: u64) -> Value {
        Value::String(format!("{:032b}", v & 0xffff_ffff))
    }

    /// Draws from a seed: a tiny deterministic generator, so that a proptest case is its seed.
    struct Draw(u64);
    impl Draw {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n.max(1)
        }
        fn width(&mut self) -> u64 {
            match self.below(4) {
                0 => 1,
                1 => 1 + self.below(8),
                2 => 1 + self.below(32),
                _ => 1 + self.below(64),
            }
        }
        /// `n` bits from the pool, some of them constants.
        fn bits(&mut self, pool: &[u64], n: u64) -> Value {
            Value::Array(
                (0..n)
                    .map(|_| match self.below(12) {
                        0 => json!("0"),
                        1 => json!("1"),
                        _ => json!(pool[self.below(pool.len() as u64) as usize]),
                    })
                    .collect(),
            )
        }
    }

    /// A netlist of `cells` combinational cells and `regs` registers from `seed`.
    pub(super) fn netlist(seed: u64, cells: usize, regs: usize) -> String {
        let mut d = Draw(seed | 1);
        let mut next_net = 40u64;
        let mut fresh = |n: u64| {
            let v: Vec<u64> = (next_net..next_net + n).collect();
            next_net += n;
            v
        };
        let mut pool: Vec<u64> = (2..34).collect();
        let mut all = serde_json::Map::new();
        let mut names = serde_json::Map::new();
        // Registers first, so that the logic can read their outputs (feedback without loops).
        let mut reg_cells = Vec::new();
        for r in 0..regs {
            let w = d.width();
            let q = fresh(w);
            pool.extend(&q);
            names.insert(format!("r{r}"), json!({"bits": q}));
            reg_cells.push((REGS[d.below(REGS.len() as u64) as usize], w, q));
        }
        for c in 0..cells {
            let kind = COMB[d.below(COMB.len() as u64) as usize];
            let (aw, bw, yw) = (d.width(), d.width(), d.width());
            let signed = (d.below(2), d.below(2));
            let cell = match kind {
                "$mux" | "$bwmux" => {
                    let sw = if kind == "$mux" { 1 } else { yw };
                    json!({"type": kind, "parameters": {"WIDTH": p(yw)},
                        "connections": {"A": d.bits(&pool, yw), "B": d.bits(&pool, yw),
                            "S": d.bits(&pool, sw), "Y": fresh(yw)}})
                }
                "$pmux" => {
                    let sw = 1 + d.below(4);
                    json!({"type": kind, "parameters": {"WIDTH": p(yw), "S_WIDTH": p(sw)},
                        "connections": {"A": d.bits(&pool, yw), "B": d.bits(&pool, yw * sw),
                            "S": d.bits(&pool, sw), "Y": fresh(yw)}})
                }
                k if COMB[..9].contains(&k) => json!({"type": k,
                    "parameters": {"A_SIGNED": p(signed.0), "A_WIDTH": p(aw), "Y_WIDTH": p(yw)},
                    "connections": {"A": d.bits(&pool, aw), "Y": fresh(yw)}}),
                k => {
                    // Shift amounts mostly in range.
                    let bw = if k.contains("sh") { 1 + d.below(7) } else { bw };
                    json!({"type": k,
                        "parameters": {"A_SIGNED": p(signed.0), "B_SIGNED": p(signed.1),
                            "A_WIDTH": p(aw), "B_WIDTH": p(bw), "Y_WIDTH": p(yw)},
                        "connections": {"A": d.bits(&pool, aw), "B": d.bits(&pool, bw),
                            "Y": fresh(yw)}})
                }
            };
            let y = cell["connections"]["Y"].clone();
            pool.extend(y.as_array().unwrap().iter().map(|v| v.as_u64().unwrap()));
            names.insert(format!("w{c}"), json!({"bits": y}));
            all.insert(format!("c{c}"), cell);
        }
        // Controls come from the inputs: an asynchronous reset fed by the logic would loop.
        let inputs: Vec<u64> = (2..34).collect();
        for (r, (kind, w, q)) in reg_cells.into_iter().enumerate() {
            let cell = json!({"type": kind,
                "parameters": {"WIDTH": p(w), "CLK_POLARITY": p(d.below(2)),
                    "EN_POLARITY": p(d.below(2)), "ARST_POLARITY": p(d.below(2)),
                    "ARST_VALUE": p(d.next()), "SRST_POLARITY": p(d.below(2)),
                    "SRST_VALUE": p(d.next())},
                "connections": {"CLK": [1], "D": d.bits(&pool, w), "Q": q,
                    "EN": d.bits(&inputs, 1), "ARST": d.bits(&inputs, 1),
                    "SRST": d.bits(&inputs, 1)}});
            all.insert(format!("reg{r}"), cell);
        }
        let y: Vec<u64> = (0..64)
            .map(|_| pool[d.below(pool.len() as u64) as usize])
            .collect();
        json!({"modules": {"top": {
            "attributes": {"top": p(1)},
            "ports": {
                "clk": {"direction": "input", "bits": [1]},
                "a": {"direction": "input", "bits": (2..34).collect::<Vec<u64>>()},
                "y": {"direction": "output", "bits": y}
            },
            "cells": all,
            "netnames": names
        }}})
        .to_string()
    }

    /// Builds trees of logic whose inner nodes are often `$mux` and `$pmux` cells, so that most
    /// values are used only through one input of one multiplexer (the cones the generator
    /// computes only when selected), nested, and some shared with other readers (which must
    /// not be skipped).
    struct Trees {
        d: Draw,
        next_net: u64,
        /// Nets a leaf reads: the input, the registers' outputs.
        leaves: Vec<u64>,
        /// Every tree node built so far: its output nets.
        made: Vec<Vec<u64>>,
        cells: serde_json::Map<String, Value>,
        names: serde_json::Map<String, Value>,
    }

    impl Trees {
        fn fresh(&mut self, n: u64) -> Vec<u64> {
            let v: Vec<u64> = (self.next_net..self.next_net + n).collect();
            self.next_net += n;
            v
        }

        fn cell(&mut self, cell: Value, y: Vec<u64>) -> Vec<Value> {
            let k = self.cells.len();
            self.names
                .insert(format!("t{k}"), json!({"bits": y.clone()}));
            self.cells.insert(format!("t{k}"), cell);
            self.made.push(y.clone());
            y.into_iter().map(|b| json!(b)).collect()
        }

        /// `w` bits computed by a tree of depth at most `depth`.
        fn expr(&mut self, depth: u32, w: u64) -> Vec<Value> {
            let r = self.d.below(12);
            if depth == 0 || r < 2 {
                let leaves = self.leaves.clone();
                return self.d.bits(&leaves, w).as_array().unwrap().clone();
            }
            if r < 4 && !self.made.is_empty() {
                // A node already read elsewhere, read again (whole when it fits).
                let k = self.d.below(self.made.len() as u64) as usize;
                let node = self.made[k].clone();
                return (0..w)
                    .map(|i| json!(node[(i as usize) % node.len()]))
                    .collect();
            }
            match r {
                4..=6 => {
                    let (a, b, s) = (
                        self.expr(depth - 1, w),
                        self.expr(depth - 1, w),
                        self.expr(depth - 1, 1),
                    );
                    let y = self.fresh(w);
                    self.cell(
                        json!({"type": "$mux", "parameters": {"WIDTH": p(w)},
                            "connections": {"A": a, "B": b, "S": s, "Y": y.clone()}}),
                        y,
                    )
                }
                7..=8 => {
                    let sw = 1 + self.d.below(5);
                    let a = self.expr(depth - 1, w);
                    let mut b = Vec::new();
                    for _ in 0..sw {
                        b.extend(self.expr(depth - 1, w));
                    }
                    let s = self.expr(depth - 1, sw);
                    let y = self.fresh(w);
                    self.cell(
                        json!({"type": "$pmux", "parameters": {"WIDTH": p(w), "S_WIDTH": p(sw)},
                            "connections": {"A": a, "B": b, "S": s, "Y": y.clone()}}),
                        y,
                    )
                }
                9 => {
                    // A reduction of a concatenation of subtrees (of one bit and wider), which
                    // the generator reduces part by part without assembling it.
                    const OPS: &[&str] =
                        &["$reduce_and", "$reduce_or", "$reduce_bool", "$logic_not"];
                    let kind = OPS[self.d.below(OPS.len() as u64) as usize];
                    let mut a = Vec::new();
                    for _ in 0..2 + self.d.below(3) {
                        let aw = if self.d.below(2) == 0 {
                            1
                        } else {
                            1 + self.d.below(6)
                        };
                        a.extend(self.expr(depth - 1, aw));
                    }
                    let y = self.fresh(w);
                    self.cell(
                        json!({"type": kind, "parameters": {"A_SIGNED": p(0),
                            "A_WIDTH": p(a.len() as u64), "Y_WIDTH": p(w)},
                            "connections": {"A": a, "Y": y.clone()}}),
                        y,
                    )
                }
                _ => {
                    const OPS: &[&str] = &[
                        "$add", "$sub", "$mul", "$xor", "$and", "$div", "$mod", "$eq", "$lt",
                        "$shl", "$shr",
                    ];
                    let kind = OPS[self.d.below(OPS.len() as u64) as usize];
                    let (aw, bw) = (1 + self.d.below(w.max(8)), 1 + self.d.below(w.max(8)));
                    let bw = if kind.contains("sh") { bw.min(6) } else { bw };
                    let (a, b) = (self.expr(depth - 1, aw), self.expr(depth - 1, bw));
                    let y = self.fresh(w);
                    let signed = self.d.below(2);
                    self.cell(
                        json!({"type": kind, "parameters": {"A_SIGNED": p(signed),
                            "B_SIGNED": p(signed), "A_WIDTH": p(aw), "B_WIDTH": p(bw),
                            "Y_WIDTH": p(w)},
                            "connections": {"A": a, "B": b, "Y": y.clone()}}),
                        y,
                    )
                }
            }
        }
    }

    /// A netlist of `regs` registers whose next values are trees of multiplexers (depth at
    /// most `depth`), some of their nodes also read by other trees and by the output.
    pub(super) fn mux_trees(seed: u64, regs: usize, depth: u32) -> String {
        let mut t = Trees {
            d: Draw(seed | 1),
            next_net: 40,
            leaves: (2..34).collect(),
            made: Vec::new(),
            cells: serde_json::Map::new(),
            names: serde_json::Map::new(),
        };
        let mut qs = Vec::new();
        for r in 0..regs {
            let w = t.d.width();
            let q = t.fresh(w);
            t.leaves.extend(&q);
            t.names.insert(format!("r{r}"), json!({"bits": q.clone()}));
            qs.push((w, q));
        }
        let inputs: Vec<u64> = (2..34).collect();
        for (r, (w, q)) in qs.into_iter().enumerate() {
            // A register's D is read through its tree's root only.
            let d = t.expr(depth, w);
            let kind = ["$dff", "$dffe", "$sdff"][t.d.below(3) as usize];
            let cell = json!({"type": kind,
                "parameters": {"WIDTH": p(w), "CLK_POLARITY": p(1), "EN_POLARITY": p(1),
                    "SRST_POLARITY": p(1), "SRST_VALUE": p(t.d.next())},
                "connections": {"CLK": [1], "D": d, "Q": q,
                    "EN": t.d.bits(&inputs, 1), "SRST": t.d.bits(&inputs, 1)}});
            t.cells.insert(format!("reg{r}"), cell);
        }
        // The output reads a few tree nodes (and a register) as well.
        let mut pool: Vec<u64> = t.leaves.clone();
        for _ in 0..3 {
            if !t.made.is_empty() {
                let k = t.d.below(t.made.len() as u64) as usize;
                pool.extend(t.made[k].clone());
            }
        }
        let y = t.d.bits(&pool, 64);
        json!({"modules": {"top": {
            "attributes": {"top": p(1)},
            "ports": {
                "clk": {"direction": "input", "bits": [1]},
                "a": {"direction": "input", "bits": (2..34).collect::<Vec<u64>>()},
                "y": {"direction": "output", "bits": y}
            },
            "cells": t.cells,
            "netnames": t.names
        }}})
        .to_string()
    }

    /// Loads a generated netlist and compares the back ends on it for `cycles` cycles.
    fn loads_and_matches(what: &str, text: &str, seed: u64, cycles: u64) {
        let sim = Simulator::from_json(text, Some("clk")).unwrap_or_else(|e| panic!("{e}\n{text}"));
        compare(what, sim, seed, cycles).unwrap_or_else(|e| panic!("{e}\n{text}"));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        #[test]
        fn mux_trees_match_the_interpreter(
            seed in any::<u64>(),
            regs in 1usize..8,
            depth in 1u32..6,
        ) {
            loads_and_matches("mux trees", &mux_trees(seed, regs, depth), seed, 2000);
        }

        #[test]
        fn random_cell_graphs_match_the_interpreter(
            seed in any::<u64>(),
            cells in 1usize..60,
            regs in 0usize..12,
        ) {
            loads_and_matches("random", &netlist(seed, cells, regs), seed, 3000);
        }
    }
}
