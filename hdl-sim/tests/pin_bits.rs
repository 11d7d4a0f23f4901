//! `NAME[BIT]` pin references use the Verilog indices of the port's declaration, whichever way
//! its range runs: `[8:1]` counts up from its LSB at 1, `[0:7]` counts down to its LSB at 7.

use hdl_sim::{PinError, Simulator};

/// `module m(input [0:7] up, input [8:1] off, output [0:7] up_o, output [8:1] off_o);`
/// with `assign up_o = up; assign off_o = off;`, as yosys' `write_json` writes it (bits LSB
/// first: `up[7]` is net 2, `up[0]` net 9).
const NETLIST: &str = r#"{"modules": {"m": {
  "attributes": {"top": "00000000000000000000000000000001"},
  "ports": {
    "up": {"direction": "input", "offset": 0, "upto": 1, "bits": [2,3,4,5,6,7,8,9]},
    "off": {"direction": "input", "offset": 1, "bits": [10,11,12,13,14,15,16,17]},
    "up_o": {"direction": "output", "offset": 0, "upto": 1, "bits": [2,3,4,5,6,7,8,9]},
    "off_o": {"direction": "output", "offset": 1, "bits": [10,11,12,13,14,15,16,17]}
  },
  "cells": {},
  "netnames": {}
}}}"#;

#[test]
fn a_bit_of_an_ascending_range_is_counted_from_the_left() {
    let mut sim = Simulator::from_json(NETLIST, None).unwrap();
    // up[0] is the leftmost, most significant bit of [0:7].
    sim.set_by_name("up[0]", 1).unwrap();
    assert_eq!(sim.get_by_name("up_o").unwrap(), 0x80);
    sim.set_by_name("up[0]", 0).unwrap();
    sim.set_by_name("up[7]", 1).unwrap();
    assert_eq!(sim.get_by_name("up_o").unwrap(), 0x01);
    sim.set_by_name("up[6]", 1).unwrap();
    assert_eq!(sim.get_by_name("up_o").unwrap(), 0x03);
    assert!(matches!(
        sim.input("up[8]"),
        Err(PinError::BitOutOfRange { bit: 8, .. })
    ));
}

#[test]
fn a_bit_of_a_descending_range_is_counted_from_its_offset() {
    let mut sim = Simulator::from_json(NETLIST, None).unwrap();
    sim.set_by_name("off[1]", 1).unwrap();
    assert_eq!(sim.get_by_name("off_o").unwrap(), 0x01);
    sim.set_by_name("off[8]", 1).unwrap();
    assert_eq!(sim.get_by_name("off_o").unwrap(), 0x81);
    assert!(matches!(
        sim.input("off[0]"),
        Err(PinError::BitOutOfRange { bit: 0, .. })
    ));
    assert!(matches!(
        sim.input("off[9]"),
        Err(PinError::BitOutOfRange { bit: 9, .. })
    ));
}
