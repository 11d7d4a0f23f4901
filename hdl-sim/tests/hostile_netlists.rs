//! Netlists a hostile user could write: each input of issue 19's probe (kept in `tests/bad/`)
//! gives the exact error here, without panicking or allocating what the parameters ask for.

use std::collections::BTreeMap;
use std::path::Path;

use hdl_sim::netlist::{Bit, Cell, Direction, Module, Param, Port};
use hdl_sim::{LOOP_NAMES_SHOWN, Limits, LoadError, Simulator};

fn bad(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/bad")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The error loading the fixture `name` with the default limits.
fn refusal(name: &str) -> String {
    match Simulator::from_json(&bad(name), None) {
        Ok(_) => panic!("{name} was accepted"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_bmux_whose_width_wraps_in_32_bits_is_refused() {
    assert_eq!(
        refusal("bmux_width_wraps.json"),
        "cell c ($bmux): WIDTH 256 << S_WIDTH 24 is more than the 134217728 bits a port may have"
    );
}

#[test]
fn a_demux_whose_width_wraps_in_32_bits_is_refused() {
    assert_eq!(
        refusal("demux_width_wraps.json"),
        "cell c ($demux): WIDTH 256 << S_WIDTH 24 is more than the 134217728 bits a port may have"
    );
}

#[test]
fn parameters_wider_than_32_bits_are_refused_with_their_value() {
    assert_eq!(
        refusal("param_integer_too_wide.json"),
        "cell c, parameter A_WIDTH: 1099511627776 does not fit in 32 bits (write wider values \
         as bit strings)"
    );
    assert_eq!(
        refusal("param_bits_too_wide.json"),
        "cell c ($not): parameter A_WIDTH is 1099511627776, more than the 134217728 allowed"
    );
}

#[test]
fn four_billion_read_ports_are_refused_by_the_budget_before_allocating() {
    let err = Simulator::from_json(&bad("mem_read_ports.json"), None).unwrap_err();
    assert_eq!(
        err,
        LoadError::OverBudget {
            cell: "m".into(),
            needed: 8 * u64::from(u32::MAX),
            budget: 256 << 20
        }
    );
    assert_eq!(
        err.to_string(),
        "cell m: the design would need 32768.0 MiB of simulated state with this cell, over the \
         budget of 256 MiB"
    );
}

#[test]
fn a_memory_of_2_to_the_27_words_is_refused_by_the_budget() {
    let msg = refusal("mem_size_2_27.json");
    assert!(
        msg.starts_with("cell m: the design would need 1024.0 MiB of simulated state"),
        "{msg}"
    );
    assert!(msg.ends_with("over the budget of 256 MiB"), "{msg}");
}

#[test]
fn the_budget_is_the_callers() {
    let text = bad("mem_2_mib.json");
    let mut sim = Simulator::from_json(&text, None).expect("2 MiB fits the default budget");
    sim.set_by_name("addr", 5).unwrap();
    assert_eq!(sim.get_by_name("q").unwrap(), 0);
    let err = Simulator::from_json_with(&text, None, Limits::with_state_mib(1)).unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.starts_with("cell m: the design would need 2.0 MiB"),
        "{msg}"
    );
    assert!(msg.ends_with("over the budget of 1 MiB"), "{msg}");
}

#[test]
fn concat_and_slice_outputs_must_add_up() {
    assert_eq!(
        refusal("concat_y_width.json"),
        "cell c ($concat): port Y has 3 bits, the parameters say 2"
    );
    assert_eq!(
        refusal("slice_y_width.json"),
        "cell c ($slice): port Y has 3 bits, the parameters say 2"
    );
}

#[test]
fn one_cell_driving_a_net_twice_says_which_bits() {
    assert_eq!(
        refusal("one_cell_two_drivers.json"),
        "net 65 has two drivers: cell c0 (port Y, bit 0) and cell c0 (port Y, bit 1)"
    );
}

fn param(v: u64) -> Param {
    Param::Bits((0..32).map(|i| Some((v >> i) & 1 == 1)).collect())
}

fn not_cell(name: String, a: u32, y: u32) -> Cell {
    Cell {
        name,
        kind: "$not".into(),
        parameters: BTreeMap::from([("A_WIDTH".into(), param(1)), ("Y_WIDTH".into(), param(1))]),
        connections: BTreeMap::from([
            ("A".into(), vec![Bit::Net(a)]),
            ("Y".into(), vec![Bit::Net(y)]),
        ]),
    }
}

/// A ring of `n` inverters, cell `c{i}` driving net `i + 3` from net `i + 2`.
fn ring(n: u32) -> Module {
    let cells = (0..n)
        .map(|i| not_cell(format!("c{i}"), 2 + i, 2 + (i + 1) % n))
        .collect();
    Module {
        name: "ring".into(),
        ports: vec![Port {
            name: "y".into(),
            direction: Direction::Output,
            bits: vec![Bit::Net(2)],
            offset: 0,
            upto: false,
        }],
        cells,
        netnames: Vec::new(),
    }
}

/// A 200,000-cell ring is refused with a one-line message. (Refusing it used to split loops in
/// quadratic time: this test would then run for minutes.)
#[test]
fn a_huge_combinational_ring_is_refused_with_a_short_message() {
    let n = 200_000;
    let err = Simulator::new(&ring(n), None).unwrap_err();
    let LoadError::CombinationalLoop { path, more, .. } = &err else {
        panic!("{err}");
    };
    assert_eq!(path.len(), LOOP_NAMES_SHOWN);
    assert_eq!(*more, n as usize - LOOP_NAMES_SHOWN);
    let msg = err.to_string();
    assert!(msg.len() < 200, "{} bytes: {msg}", msg.len());
    assert!(msg.ends_with(" -> ... and 199994 more cells)"), "{msg}");
    // Consecutive names follow the signal: c5 -> c6 -> ...
    let k: u32 = path[0][1..].parse().unwrap();
    assert_eq!(path[1], format!("c{}", (k + 1) % n));
}

#[test]
fn a_small_loop_is_named_whole() {
    let err = Simulator::new(&ring(3), None).unwrap_err().to_string();
    assert!(
        err.starts_with("combinational loop through cell c"),
        "{err}"
    );
    assert!(!err.contains("more"), "{err}");
    for c in ["c0", "c1", "c2"] {
        assert!(err.contains(c), "{err}");
    }
}

#[test]
fn quoted_input_is_cut_to_sixty_characters() {
    let long = "q".repeat(100_000);
    let json = format!(
        r#"{{"modules":{{"t":{{"ports":{{"a":{{"direction":"input","bits":["{long}"]}}}}}}}}}}"#
    );
    let msg = Simulator::from_json(&json, None).unwrap_err().to_string();
    assert_eq!(
        msg,
        format!(
            "port a, bit 0: bad constant bit \"{}... (99940 more characters)\"",
            "q".repeat(60)
        )
    );
    let json = format!(r#"{{"modules": "{long}"}}"#);
    let msg = Simulator::from_json(&json, None).unwrap_err().to_string();
    assert_eq!(
        msg,
        format!(
            "netlist is not valid JSON at line 1, column 100014: invalid type: string \"{}... \
             (99940 more characters)\", expected a map",
            "q".repeat(60)
        )
    );
}

#[test]
fn a_long_cell_name_is_cut() {
    let name = "n".repeat(50_000);
    let json = format!(r#"{{"modules":{{"t":{{"cells":{{"{name}":{{"type":"$frob"}}}}}}}}}}"#);
    let msg = Simulator::from_json(&json, None).unwrap_err().to_string();
    assert!(msg.len() < 400, "{} bytes", msg.len());
    assert!(msg.contains("(49840 more characters)"), "{msg}");
}

#[test]
fn a_thousand_top_modules_are_counted_not_listed() {
    let modules: Vec<String> = (0..1000)
        .map(|i| format!(r#""m{i}":{{"attributes":{{"top":1}}}}"#))
        .collect();
    let json = format!(r#"{{"modules":{{{}}}}}"#, modules.join(","));
    let msg = Simulator::from_json(&json, None).unwrap_err().to_string();
    assert_eq!(
        msg,
        "netlist has several top modules: m0, m1, m10, m100, m101, m102 and 994 more"
    );
}

#[test]
fn a_flip_flop_gate_drives_only_q() {
    // `$_DFF_P_` with a stray Y connection: Y is not an output of the cell, so nothing drives
    // net 9 and reading it gives 0 (it used to be left without an instruction).
    let json = r#"{"modules":{"t":{
      "ports":{"clk":{"direction":"input","bits":[2]},"d":{"direction":"input","bits":[3]},
               "q":{"direction":"output","bits":[4]},"y":{"direction":"output","bits":[10]}},
      "cells":{
        "f":{"type":"$_DFF_P_","connections":{"C":[2],"D":[3],"Q":[4],"Y":[9]}},
        "n":{"type":"$_NOT_","connections":{"A":[9],"Y":[10]}}}}}}"#;
    let mut sim = Simulator::from_json(json, None).unwrap();
    sim.set_by_name("d", 1).unwrap();
    sim.step();
    assert_eq!(sim.get_by_name("q").unwrap(), 1);
    assert_eq!(sim.get_by_name("y").unwrap(), 1);
}

/// A `w`-bit `$div` reading input `a` twice.
fn division(w: u32) -> Module {
    let a: Vec<Bit> = (0..w).map(|i| Bit::Net(2 + i)).collect();
    let y: Vec<Bit> = (0..w).map(|i| Bit::Net(2 + w + i)).collect();
    let port = |name: &str, direction, bits: &[Bit]| Port {
        name: name.into(),
        direction,
        bits: bits.to_vec(),
        offset: 0,
        upto: false,
    };
    Module {
        name: "div".into(),
        ports: vec![
            port("a", Direction::Input, &a),
            port("y", Direction::Output, &y),
        ],
        cells: vec![Cell {
            name: "d".into(),
            kind: "$div".into(),
            parameters: BTreeMap::from([
                ("A_WIDTH".into(), param(w.into())),
                ("B_WIDTH".into(), param(w.into())),
                ("Y_WIDTH".into(), param(w.into())),
            ]),
            connections: BTreeMap::from([
                ("A".into(), a.clone()),
                ("B".into(), a),
                ("Y".into(), y),
            ]),
        }],
        netnames: Vec::new(),
    }
}

/// Every evaluation of a 2^18-bit division would take about 2^30 word operations (minutes in
/// a debug build): refused when loading rather than hanging at the first settle.
#[test]
fn a_division_too_wide_to_evaluate_is_refused() {
    let err = Simulator::new(&division(1 << 18), None).unwrap_err();
    assert_eq!(
        err.to_string(),
        "cell d ($div): one evaluation at these widths (A 262144, B 262144, Y 262144 bits) \
         takes about 1073741824 word operations, more than the 268435456 allowed"
    );
    let mut sim = Simulator::new(&division(256), None).expect("a 256-bit division is fine");
    sim.set_by_name("a", 7).unwrap();
    assert_eq!(sim.get_by_name("y").unwrap(), 1);
}

#[test]
fn a_board_loads_within_its_configured_budget() {
    use hdl_sim::{BoardConfig, BoardEmulator, BoardError};
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/designs/loop.json"
    ))
    .unwrap();
    BoardEmulator::from_json(&text, BoardConfig::default()).expect("the default budget");
    let tight = BoardConfig {
        limits: Limits { max_state_bytes: 8 },
        ..BoardConfig::default()
    };
    match BoardEmulator::from_json(&text, tight) {
        Err(BoardError::Load(LoadError::OverBudget { budget: 8, .. })) => {}
        other => panic!("{:?}", other.map(|_| ())),
    }
}
