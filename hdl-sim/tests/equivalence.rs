//! hdl-sim against Icarus Verilog, cycle for cycle, on designs covering every supported cell
//! type at widths 1, 63, 64, 65 and 200.
//!
//! Each design has a committed trace (`tests/designs/NAME.trace`: Icarus' outputs for a short
//! random stimulus), checked even where iverilog is not installed; where it is, a long random
//! stimulus is also compared live. `HDL_SIM_BLESS=1` rewrites the traces (needs iverilog).

mod common;

use common::{DESIGNS, Design, compare, outputs, run_iverilog, run_ours, stimuli};
use hdl_sim::Simulator;

const TRACE_SEED: u64 = 1;
const TRACE_CYCLES: usize = 150;
const LIVE_SEED: u64 = 0x5eed;
const LIVE_CYCLES: usize = 3000;

fn port_names(design: &Design) -> Vec<String> {
    outputs(&design.load())
        .into_iter()
        .map(|(n, _)| n)
        .collect()
}

/// The stimuli of `design`: random, except that a soft CPU's reset (`rst`) is held for 4 cycles
/// and then released, so that it runs its program.
fn stimuli_for(design: &Design, sim: &Simulator, seed: u64, cycles: usize) -> Vec<Vec<Vec<u64>>> {
    let mut stim = stimuli(sim, seed, cycles);
    if design.name == "picorv32_soc" {
        for (k, cycle) in stim.iter_mut().enumerate() {
            cycle[0][0] = u64::from(k < 4);
        }
    }
    stim
}

fn check_trace(design: &Design) {
    let mut sim = design.load();
    let stim = stimuli_for(design, &sim, TRACE_SEED, TRACE_CYCLES);
    if std::env::var_os("HDL_SIM_BLESS").is_some() {
        let reference = run_iverilog(design, &sim, &stim).expect("blessing needs iverilog");
        std::fs::write(design.trace(), reference.join("\n") + "\n").expect("write trace");
    }
    let text = std::fs::read_to_string(design.trace()).expect("committed trace");
    let reference: Vec<String> = text.lines().map(str::to_string).collect();
    let ours = run_ours(&mut sim, &stim);
    compare(design.name, &port_names(design), &ours, &reference);
}

fn check_live(design: &Design) {
    let mut sim = design.load();
    let stim = stimuli_for(design, &sim, LIVE_SEED, LIVE_CYCLES);
    let Some(reference) = run_iverilog(design, &sim, &stim) else {
        return;
    };
    let ours = run_ours(&mut sim, &stim);
    compare(design.name, &port_names(design), &ours, &reference);
}

#[test]
fn ops_matches_committed_icarus_trace() {
    check_trace(&DESIGNS[0]);
}

#[test]
fn mem_matches_committed_icarus_trace() {
    check_trace(&DESIGNS[1]);
}

#[test]
fn cpu_matches_committed_icarus_trace() {
    check_trace(&DESIGNS[2]);
}

#[test]
fn ops_matches_icarus_on_long_random_stimuli() {
    check_live(&DESIGNS[0]);
}

#[test]
fn mem_matches_icarus_on_long_random_stimuli() {
    check_live(&DESIGNS[1]);
}

#[test]
fn cpu_matches_icarus_on_long_random_stimuli() {
    check_live(&DESIGNS[2]);
}

#[test]
fn ffs_matches_committed_icarus_trace() {
    check_trace(&DESIGNS[3]);
}

#[test]
fn ffs_matches_icarus_on_long_random_stimuli() {
    check_live(&DESIGNS[3]);
}

#[test]
fn false_loops_match_committed_icarus_trace() {
    check_trace(&DESIGNS[4]);
}

#[test]
fn false_loops_match_icarus_on_long_random_stimuli() {
    check_live(&DESIGNS[4]);
}

#[test]
fn picorv32_running_its_program_matches_committed_icarus_trace() {
    check_trace(&DESIGNS[5]);
}

#[test]
fn picorv32_running_its_program_matches_icarus_for_3000_cycles() {
    check_live(&DESIGNS[5]);
}
