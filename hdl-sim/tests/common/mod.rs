//! Shared harness of the equivalence tests: random stimuli, running hdl-sim and Icarus Verilog
//! on the same design, and comparing their per-cycle outputs.

#![allow(
    dead_code,
    reason = "each test binary that includes this module uses only some of it"
)]

pub mod verilog;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use hdl_sim::{Direction, Simulator};

pub fn designs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/designs")
}

/// A test design: Verilog source, top module, committed netlist.
pub struct Design {
    pub name: &'static str,
    pub top: &'static str,
    /// More Verilog files (relative to the designs directory) the top instantiates.
    pub extra: &'static [&'static str],
}

pub const DESIGNS: &[Design] = &[
    Design {
        name: "ops",
        top: "ops_top",
        extra: &[],
    },
    Design {
        name: "mem",
        top: "mem",
        extra: &[],
    },
    Design {
        name: "cpu",
        top: "cpu",
        extra: &[],
    },
    Design {
        name: "ffs",
        top: "ffs",
        extra: &[],
    },
    Design {
        name: "loops",
        top: "loops",
        extra: &[],
    },
    Design {
        name: "picorv32_soc",
        top: "picorv32_soc",
        extra: &["picorv32/picorv32.v"],
    },
];

impl Design {
    pub fn verilog(&self) -> PathBuf {
        designs_dir().join(format!("{}.v", self.name))
    }
    pub fn json(&self) -> PathBuf {
        designs_dir().join(format!("{}.json", self.name))
    }
    pub fn trace(&self) -> PathBuf {
        designs_dir().join(format!("{}.trace", self.name))
    }
    pub fn load(&self) -> Simulator {
        let text = std::fs::read_to_string(self.json()).expect("committed netlist");
        Simulator::from_json(&text, Some("clk")).expect("netlist compiles")
    }
}

/// Inputs (name, width) other than the clock, in port order.
pub fn inputs(sim: &Simulator) -> Vec<(String, u32)> {
    sim.ports()
        .into_iter()
        .filter(|p| p.direction == Direction::Input && p.name != "clk")
        .map(|p| (p.name, p.width))
        .collect()
}

pub fn outputs(sim: &Simulator) -> Vec<(String, u32)> {
    sim.ports()
        .into_iter()
        .filter(|p| p.direction == Direction::Output)
        .map(|p| (p.name, p.width))
        .collect()
}

/// Random values per cycle per input. Values are biased toward interesting patterns: small
/// numbers, all ones, sign boundaries. Inputs named `rst` are high one cycle in 16.
pub fn stimuli(sim: &Simulator, seed: u64, cycles: usize) -> Vec<Vec<Vec<u64>>> {
    let ins = inputs(sim);
    let mut rng = testkit::Rng::new(seed);
    (0..cycles)
        .map(|_| {
            ins.iter()
                .map(|(name, w)| {
                    let n = (*w as usize).div_ceil(64).max(1);
                    let mut v: Vec<u64> = match rng.next_u64() % 8 {
                        0 => vec![0; n],
                        1 => vec![u64::MAX; n],
                        2 => {
                            let mut v = vec![0; n];
                            v[0] = rng.next_u64() % 8;
                            v
                        }
                        3 => {
                            let mut v = vec![u64::MAX; n];
                            v[0] = !(rng.next_u64() % 8);
                            v
                        }
                        _ => (0..n).map(|_| rng.next_u64()).collect(),
                    };
                    if name == "rst" {
                        v[0] = rng.next_u64().is_multiple_of(16) as u64;
                    }
                    mask(&mut v, *w);
                    v
                })
                .collect()
        })
        .collect()
}

pub fn mask(v: &mut [u64], w: u32) {
    for (i, word) in v.iter_mut().enumerate() {
        let lo = i as u32 * 64;
        if lo >= w {
            *word = 0;
        } else if w - lo < 64 {
            *word &= (1u64 << (w - lo)) - 1;
        }
    }
}

/// `%h` formatting: ceil(w/4) lower-case hex digits.
pub fn hex(v: &[u64], w: u32) -> String {
    let digits = (w as usize).div_ceil(4).max(1);
    (0..digits)
        .rev()
        .map(|d| {
            let bit = d * 4;
            let nib = (v.get(bit / 64).copied().unwrap_or(0) >> (bit % 64)) & 0xf;
            char::from_digit(nib as u32, 16).expect("nibble")
        })
        .collect()
}

/// Runs hdl-sim: per cycle, set the inputs, read every output (one line, space separated),
/// then clock once.
pub fn run_ours(sim: &mut Simulator, stim: &[Vec<Vec<u64>>]) -> Vec<String> {
    let ins: Vec<_> = inputs(sim)
        .iter()
        .map(|(n, _)| sim.input(n).expect("input"))
        .collect();
    let outs: Vec<_> = outputs(sim)
        .iter()
        .map(|(n, w)| (sim.probe(n).expect("output"), *w))
        .collect();
    let mut lines = Vec::with_capacity(stim.len());
    for values in stim {
        for (pin, v) in ins.iter().zip(values) {
            sim.set_wide(*pin, v).expect("value fits");
        }
        let line: Vec<String> = outs
            .iter()
            .map(|(p, w)| hex(&sim.get_wide(p), *w))
            .collect();
        lines.push(line.join(" "));
        sim.step();
    }
    lines
}

/// Runs Icarus Verilog on the design's Verilog with the same stimuli and protocol (inputs at
/// t+1, after the previous falling edge has been processed; outputs displayed at t+4; rising
/// edge at t+5, falling at t+10).
/// `None` (with a notice) when iverilog is not installed.
pub fn run_iverilog(
    design: &Design,
    sim: &Simulator,
    stim: &[Vec<Vec<u64>>],
) -> Option<Vec<String>> {
    testkit::tools(&["iverilog", "vvp"])?;
    let scratch = testkit::scratch_dir(&format!("hdl-sim-{}", design.name));
    let dir = scratch.path();
    let ins = inputs(sim);
    let outs = outputs(sim);
    let n = stim.len();
    let mut tb = String::from("`timescale 1ns/1ns\nmodule tb;\n  reg clk = 0;\n  integer i, f;\n");
    for (k, (name, w)) in ins.iter().enumerate() {
        tb += &format!(
            "  reg [{}:0] in_{name} = 0;\n  reg [{}:0] stim_{name} [0:{}];\n",
            w - 1,
            w - 1,
            n - 1
        );
        let body: String = stim.iter().map(|c| hex(&c[k], *w) + "\n").collect();
        std::fs::write(dir.join(format!("{name}.hex")), body).expect("write stimuli");
    }
    for (name, w) in &outs {
        tb += &format!("  wire [{}:0] out_{name};\n", w - 1);
    }
    let mut conns = vec![".clk(clk)".to_string()];
    conns.extend(ins.iter().map(|(n, _)| format!(".{n}(in_{n})")));
    conns.extend(outs.iter().map(|(n, _)| format!(".{n}(out_{n})")));
    tb += &format!(
        "  {} dut ({});\n  initial begin\n",
        design.top,
        conns.join(", ")
    );
    for (name, _) in &ins {
        tb += &format!(
            "    $readmemh(\"{}\", stim_{name});\n",
            dir.join(format!("{name}.hex")).display()
        );
    }
    tb += &format!(
        "    f = $fopen(\"{}\", \"w\");\n",
        dir.join("out.txt").display()
    );
    tb += &format!("    for (i = 0; i < {n}; i = i + 1) begin\n      #1;\n");
    for (name, _) in &ins {
        tb += &format!("      in_{name} = stim_{name}[i];\n");
    }
    let fmt = vec!["%h"; outs.len()].join(" ");
    let args: Vec<String> = outs.iter().map(|(n, _)| format!("out_{n}")).collect();
    tb += &format!("      #3 $fdisplay(f, \"{fmt}\", {});\n", args.join(", "));
    tb += "      #1 clk = 1;\n      #5 clk = 0;\n    end\n    $fclose(f);\n    $finish;\n  end\nendmodule\n";
    let tb_path = dir.join("tb.v");
    std::fs::write(&tb_path, tb).expect("write testbench");
    let vvp = dir.join("sim.vvp");
    let status = Command::new("iverilog")
        .arg("-g2012")
        .arg("-o")
        .arg(&vvp)
        .arg(&tb_path)
        .arg(design.verilog())
        .args(design.extra.iter().map(|f| designs_dir().join(f)))
        .status()
        .expect("run iverilog");
    assert!(status.success(), "iverilog failed on {}", design.name);
    run_ok(Command::new("vvp").arg("-n").arg(&vvp), "vvp");
    let text = std::fs::read_to_string(dir.join("out.txt")).expect("iverilog output");
    Some(text.lines().map(str::to_string).collect())
}

/// Runs `command` (named `what` in the failures) and returns its output; panics, with its
/// standard error, unless it succeeds.
pub fn run_ok(command: &mut Command, what: &str) -> Output {
    let out = command
        .output()
        .unwrap_or_else(|e| panic!("cannot run {what}: {e}"));
    assert!(
        out.status.success(),
        "{what} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Compares two traces line by line; a hex digit that Icarus printed as `x`/`z` (undefined in
/// four-valued logic) matches anything. Panics with the first difference, naming the cycle and
/// the output port.
pub fn compare(design: &str, port_names: &[String], ours: &[String], reference: &[String]) {
    assert_eq!(
        ours.len(),
        reference.len(),
        "{design}: trace lengths differ"
    );
    for (cycle, (a, b)) in ours.iter().zip(reference).enumerate() {
        let (fa, fb): (Vec<&str>, Vec<&str>) = (a.split(' ').collect(), b.split(' ').collect());
        assert_eq!(
            fa.len(),
            fb.len(),
            "{design}: cycle {cycle}: field counts differ"
        );
        for (k, (x, y)) in fa.iter().zip(&fb).enumerate() {
            let same = x.len() == y.len()
                && x.chars()
                    .zip(y.chars())
                    .all(|(c, d)| c == d || matches!(d, 'x' | 'X' | 'z' | 'Z'));
            assert!(
                same,
                "{design}: cycle {cycle}: output {} is {x} in hdl-sim, {y} in the reference",
                port_names[k]
            );
        }
    }
}
