//! What can go wrong loading a netlist or driving a simulation.

use thiserror::Error;

/// A netlist that cannot be simulated. Every variant names the place: JSON line and column, the
/// port, or the cell (by its yosys name, which carries the Verilog source position).
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum LoadError {
    #[error("netlist is not valid JSON at line {line}, column {column}: {message}")]
    Json {
        line: usize,
        column: usize,
        message: String,
    },
    #[error(
        "netlist has {modules} modules and none is marked top (flatten it with hdl/netlist.sh)"
    )]
    NoTop { modules: usize },
    #[error("netlist has several top modules: {}", .0.join(", "))]
    ManyTops(Vec<String>),
    #[error("{place}: {message}")]
    Malformed { place: String, message: String },
    #[error(
        "cell {cell}: unsupported cell type {kind} ({})",
        unsupported_hint(kind)
    )]
    UnknownCell { cell: String, kind: String },
    #[error("cell {cell} ({kind}): {message}")]
    BadCell {
        cell: String,
        kind: String,
        message: String,
    },
    #[error("net {name} has two drivers: {first} and {second}")]
    MultipleDrivers {
        net: u32,
        /// The wire or port bit the net belongs to (`y[3]`), or `net N` if it has no name.
        name: String,
        first: String,
        second: String,
    },
    #[error("combinational loop through cell {cell} (loop: {})", .path.join(" -> "))]
    CombinationalLoop { cell: String, path: Vec<String> },
    #[error("cell {cell}: clocked by {found}, but the simulator's clock is {expected}")]
    ForeignClock {
        cell: String,
        found: String,
        expected: String,
    },
    #[error("no input port named {0:?}")]
    NoSuchInput(String),
}

/// What to do about a cell type the simulator does not know. A latch (`async2sync` turns yosys'
/// `$dlatch` into a `$ff` on the global clock) needs a change to the design, not to the flow.
fn unsupported_hint(kind: &str) -> &'static str {
    let latch = matches!(
        kind,
        "$ff" | "$dlatch" | "$adlatch" | "$dlatchsr" | "$sr" | "$_FF_"
    ) || kind.starts_with("$_DLATCH")
        || kind.starts_with("$_SR_");
    if latch {
        "a latch, or a flip-flop without a clock edge: an always @* block that does not assign \
         every signal it drives on every path makes one; hdl-sim simulates edge-triggered logic"
    } else {
        "flatten the design with hdl/netlist.sh"
    }
}

/// A pin operation the design does not allow.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum PinError {
    #[error("no input port named {0:?}")]
    NoSuchInput(String),
    #[error("no port or net named {0:?}")]
    NoSuchSignal(String),
    #[error("value does not fit in {name}, which is {width} bits wide")]
    TooWide { name: String, width: u32 },
    #[error("bad pin reference {0:?} (expected NAME or NAME[BIT])")]
    BadPinRef(String),
    #[error("{name}[{bit}] is out of range: {name} is {width} bits wide")]
    BitOutOfRange { name: String, bit: u32, width: u32 },
}
