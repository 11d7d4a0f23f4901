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
    #[error("netlist has several top modules: {}", some_names(.0))]
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
        /// The wire or port bit the net belongs to (`y[3]`), or the net's number if it has no
        /// name.
        name: String,
        /// Who drives it, with the port and bit (`cell c0 (port Y, bit 1)`), so that a cell
        /// driving one net from two of its own bits reads as such.
        first: String,
        second: String,
    },
    /// A loop of combinational logic. `path` names at most [`LOOP_NAMES_SHOWN`] of the cells on
    /// it, in signal order; `more` counts the others, so a loop through 200,000 cells gives a
    /// message of one line.
    #[error(
        "combinational loop through cell {cell} (loop: {}{})",
        .path.join(" -> "),
        more_cells(*.more)
    )]
    CombinationalLoop {
        cell: String,
        path: Vec<String>,
        more: usize,
    },
    /// The design would need more memory than the caller allows (see [`crate::Limits`]):
    /// named at the cell that crosses the budget, with the figure it would reach.
    #[error(
        "cell {cell}: the design would need {} of simulated state with this cell, over the \
         budget of {}",
        size(*.needed),
        size(*.budget)
    )]
    OverBudget {
        cell: String,
        /// Bytes of simulated state (signals and memories) with this cell.
        needed: u64,
        budget: u64,
    },
    #[error("cell {cell}: clocked by {found}, but the simulator's clock is {expected}")]
    ForeignClock {
        cell: String,
        found: String,
        expected: String,
    },
    #[error("no input port named {:?}", clip_name(.0))]
    NoSuchInput(String),
}

/// The first few names of a list, and how many more there are.
fn some_names(names: &[String]) -> String {
    let shown = names
        .iter()
        .take(LOOP_NAMES_SHOWN)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    match names.len().saturating_sub(LOOP_NAMES_SHOWN) {
        0 => shown,
        more => format!("{shown} and {more} more"),
    }
}

/// How many cells of a loop its message names.
pub const LOOP_NAMES_SHOWN: usize = 6;

fn more_cells(more: usize) -> String {
    match more {
        0 => String::new(),
        1 => " -> ... and 1 more cell".to_string(),
        n => format!(" -> ... and {n} more cells"),
    }
}

/// A byte count for people: bytes below 1 KiB, else KiB or MiB with one decimal when needed.
fn size(bytes: u64) -> String {
    const KIB: u64 = 1 << 10;
    const MIB: u64 = 1 << 20;
    let scaled = |unit: u64, name: &str| {
        if bytes.is_multiple_of(unit) {
            format!("{} {name}", bytes / unit)
        } else {
            format!("{:.1} {name}", bytes as f64 / unit as f64)
        }
    };
    if bytes >= MIB {
        scaled(MIB, "MiB")
    } else if bytes >= KIB {
        scaled(KIB, "KiB")
    } else {
        plural(bytes, "byte")
    }
}

/// `1 bit`, `2 bits`.
pub(crate) fn plural(n: u64, unit: &str) -> String {
    if n == 1 {
        format!("1 {unit}")
    } else {
        format!("{n} {unit}s")
    }
}

/// Quotes at most [`QUOTE_CHARS`] characters of `s` (a piece of the offending input), saying how
/// much was left out, so that a 50 MB value gives a one-line message.
pub(crate) fn clip(s: &str) -> String {
    clip_to(s, QUOTE_CHARS)
}

/// A name (of a cell, port or wire) for a message: yosys names carry a source path and line,
/// so they get more room than a value, but a 50 MB name is still cut.
pub(crate) fn clip_name(s: &str) -> String {
    clip_to(s, NAME_CHARS)
}

const NAME_CHARS: usize = 160;

fn clip_to(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        None => s.to_string(),
        Some((cut, _)) => {
            let rest = s[cut..].chars().count();
            let unit = if rest == 1 { "character" } else { "characters" };
            format!("{}... ({rest} more {unit})", &s[..cut])
        }
    }
}

/// How many characters of the offending input a message quotes.
pub(crate) const QUOTE_CHARS: usize = 60;

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
    #[error("no input port named {:?}", clip_name(.0))]
    NoSuchInput(String),
    #[error("no port or net named {:?}", clip_name(.0))]
    NoSuchSignal(String),
    #[error("value does not fit in {name}, which is {} wide", plural(u64::from(*.width), "bit"))]
    TooWide { name: String, width: u32 },
    #[error("bad pin reference {:?} (expected NAME or NAME[BIT])", clip(.0))]
    BadPinRef(String),
    #[error(
        "{name}[{bit}] is out of range: {name} is {} wide",
        plural(u64::from(*.width), "bit")
    )]
    BitOutOfRange { name: String, bit: u32, width: u32 },
}
