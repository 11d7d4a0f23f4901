//! The compiled back end against the interpreter, cycle for cycle: every test design, the
//! reference player's netlist, and random inputs changed between runs of random length.
#![cfg(all(feature = "compiled", not(target_arch = "wasm32")))]

use std::path::Path;

use hdl_sim::wasm::{Compiled, CompiledError};
use hdl_sim::{Direction, Simulator};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

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

/// Runs `sim` on both back ends for about `cycles` cycles under random inputs, comparing
/// every signal after every run. `Err` when the design is not compiled yet.
fn compare(name: &str, sim: Simulator, seed: u64, cycles: u64) -> Result<(), CompiledError> {
    let mut interp = sim.clone();
    let mut comp = sim;
    let mut compiled = Compiled::new(&comp)?;
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
    let mut rng = Rng(seed | 1);
    let mut done = 0;
    while done < cycles {
        for (n, w) in &inputs {
            let words = (*w as usize).div_ceil(64).max(1);
            let mut v: Vec<u64> = (0..words).map(|_| rng.next()).collect();
            for (i, word) in v.iter_mut().enumerate() {
                let lo = i as u32 * 64;
                if lo >= *w {
                    *word = 0;
                } else if *w - lo < 64 {
                    *word &= (1 << (*w - lo)) - 1;
                }
            }
            // Reset-like inputs are mostly inactive, so that the design gets somewhere.
            if !rng.next().is_multiple_of(4)
                && (n.contains("rst") || n.contains("reset") || n == "KEY")
            {
                continue;
            }
            let a = interp.input(n).expect("input");
            interp.set_wide(a, &v).expect("fits");
            comp.set_wide(a, &v).expect("fits");
        }
        let n = if done < 64 { 1 } else { 1 + rng.next() % 40 };
        interp.run(n);
        compiled.run(&mut comp, n)?;
        done += n;
        let (a, b) = (snapshot(&interp), snapshot(&comp));
        for ((name_a, va), (_, vb)) in a.iter().zip(&b) {
            assert_eq!(
                va, vb,
                "{name}: {name_a} differs after cycle {done} (interpreter, compiled)"
            );
        }
        // The interpreter continues from the compiled state as well.
        if rng.next().is_multiple_of(8) {
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
