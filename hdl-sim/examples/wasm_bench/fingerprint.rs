//! A fingerprint of a simulated board's state, so that `benches/sim.rs` can check that the
//! WebAssembly build simulated exactly what the native build did (this file is compiled into both).

use hdl_sim::BoardEmulator;

/// FNV-1a over the cycle count and every visible wire's name and value, in netlist order: two
/// runs of the same netlist with the same inputs agree on it only if they reached the same state.
pub fn fingerprint(board: &BoardEmulator) -> u64 {
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut write = |bytes: &[u8]| {
        for &b in bytes {
            hash = (hash ^ u64::from(b)).wrapping_mul(PRIME);
        }
    };
    let sim = board.simulator();
    write(&sim.cycle().to_le_bytes());
    for name in sim.wire_names() {
        write(name.as_bytes());
        if let Ok(probe) = sim.probe(name) {
            for word in sim.get_wide(&probe) {
                write(&word.to_le_bytes());
            }
        }
    }
    hash
}
