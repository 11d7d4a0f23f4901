//! How much a netlist may make the simulator allocate.
//!
//! A netlist's parameters are untrusted numbers: a 164-byte file can ask for a memory of 2^27
//! words or 4 billion read ports. Every width and count is read as a `u64`, checked against the
//! fixed limits below, and the state they add up to is checked against a budget the caller
//! sets ([`Limits`]) *before* anything is allocated.

/// The widest port, wire or memory word accepted (in bits): far beyond any FPGA design, small
/// enough that every bit index of a port fits in a `u32` with room to spare.
pub(crate) const MAX_BITS: u64 = 1 << 27;

/// The most words of simulated state any budget allows: arena offsets are `u32` word indices.
const MAX_STATE_BYTES: u64 = (u32::MAX as u64) * 8;

/// The caller's allowance for one design.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Bytes of simulated state allowed: every signal's value and every memory's contents (8
    /// bytes per started 64 bits). Above it, loading fails with [`crate::LoadError::OverBudget`]
    /// naming the cell that crosses it. Capped at 32 GiB whatever is asked.
    pub max_state_bytes: u64,
}

impl Limits {
    /// The default budget: 256 MiB, a thousand times what the largest designs of this project
    /// need, and little enough for a browser tab.
    pub const DEFAULT_STATE_MIB: u64 = 256;

    /// A budget of `mib` MiB of simulated state.
    pub fn with_state_mib(mib: u64) -> Limits {
        Limits {
            max_state_bytes: mib.saturating_mul(1 << 20),
        }
    }

    /// The budget in bytes, capped at what the simulator can address.
    pub(crate) fn budget(&self) -> u64 {
        self.max_state_bytes.min(MAX_STATE_BYTES)
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits::with_state_mib(Limits::DEFAULT_STATE_MIB)
    }
}
