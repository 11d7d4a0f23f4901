//! The project's reference Paper Soccer player, as the simulator loads it.

/// The reference player's netlist: `hdl/netlist/de2_115_top.json`, synthesised from
/// `hdl/src/*.v` by `hdl/netlist.sh` (the `hdl_netlist` test checks it is not stale). Embedded
/// once here so the CLI's `sim` players, the app's board worker and the tests all run the same
/// bytes from anywhere, with no file to find at run time. A `static`, so a program that embeds
/// it carries one copy however many places read it.
pub static NETLIST: &str = include_str!("../../hdl/netlist/de2_115_top.json");

/// The netlist's clock input, the DE2-115's 50 MHz `CLOCK_50`.
pub const CLOCK: &str = "CLOCK_50";
