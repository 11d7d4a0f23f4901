//! Turns a netlist [`Module`] into a [`Program`]: word-level signals laid out in one `u64`
//! arena, combinational instructions in topological order, and the state elements (registers,
//! memories) updated at clock edges.
//!
//! Every cell output port becomes one signal. A cell input whose bits are exactly the low bits
//! of one signal reads that signal in place; any other mix of bits (slices, concatenations,
//! constants) gets a *gather* instruction that assembles it once, shared by every reader.

use std::collections::HashMap;

use crate::error::{LOOP_NAMES_SHOWN, LoadError, clip_name, plural};
use crate::limits::{Limits, MAX_BITS};
use crate::netlist::{Bit, Cell, Direction, Module, Param};
use crate::ops::{self, BinOp, Shape, UnOp, words};

/// Index of a signal.
pub(crate) type SigId = u32;

/// Where a signal's value is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Operand {
    pub sig: SigId,
    /// First arena word.
    pub off: u32,
    /// Bits read (may be fewer than the signal has: the low bits of it).
    pub width: u32,
}

impl Operand {
    pub fn words(&self) -> usize {
        words(self.width)
    }
}

/// Who writes a signal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Driver {
    Input,
    Const,
    Inst(u32),
    State,
}

#[derive(Clone, Debug)]
pub(crate) struct Signal {
    pub off: u32,
    pub width: u32,
    pub driver: Driver,
}

/// What a combinational instruction computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Un(UnOp),
    Bin(BinOp),
    /// `y = s ? b : a`
    Mux,
    /// `y = b[k]` for the lowest set bit k of `s`, else `a`
    Pmux,
    /// `y = a[s*W +: W]`
    Bmux,
    /// `y[s*W +: W] = a`, zero elsewhere
    Demux,
    /// per bit `s ? b : a`
    Bwmux,
    /// assemble bits: index into [`Program::gathers`]
    Gather(u32),
    /// asynchronous memory read: `a` is the address; index into [`Program::memories`]
    MemRead(u32),
    /// a register's output with its asynchronous controls applied: index into [`Program::regs`]
    Override(u32),
}

#[derive(Clone, Debug)]
pub(crate) struct Inst {
    pub kind: Kind,
    pub y: Operand,
    pub a: Operand,
    pub b: Operand,
    pub s: Operand,
    pub shape: Shape,
    /// Every operand and the result fit in one word.
    pub narrow: bool,
    /// Index into [`Program::cell_names`].
    pub cell: u32,
}

/// One piece of a gather: `len` (≤ 64) bits of a source into the destination.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Segment {
    pub src_off: u32,
    pub src_bit: u32,
    pub dst_bit: u32,
    pub len: u32,
}

#[derive(Clone, Debug)]
pub(crate) struct Gather {
    pub segments: Vec<Segment>,
    /// The constant bits of the result (the rest are zero here).
    pub constant: Vec<u64>,
}

/// A one-bit control input and the level that activates it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Control {
    pub sig: Operand,
    pub active_high: bool,
}

/// A flip-flop of any yosys flavour, reduced to one shape.
#[derive(Clone, Debug)]
pub(crate) struct Reg {
    /// The stored value.
    pub state: Operand,
    pub d: Operand,
    pub posedge: bool,
    pub en: Option<Control>,
    pub srst: Option<(Control, Operand)>,
    pub ce_over_srst: bool,
    pub arst: Option<(Control, Operand)>,
    pub aload: Option<(Control, Operand)>,
    /// Per-bit asynchronous set and clear (`$dffsr`): operand and active level.
    pub set: Option<(Operand, bool)>,
    pub clr: Option<(Operand, bool)>,
    /// Only a constant clock: never updates.
    pub clocked: bool,
}

impl Reg {
    /// A plain `$dff` of at most 64 bits: next value = D.
    pub fn plain_narrow(&self) -> bool {
        self.state.width <= 64
            && self.en.is_none()
            && self.srst.is_none()
            && self.arst.is_none()
            && self.aload.is_none()
            && self.set.is_none()
            && self.clr.is_none()
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Memory {
    pub name: String,
    pub width: u32,
    pub size: u32,
    pub offset: i64,
    /// Initial contents, `size * words(width)` words.
    pub init: Vec<u64>,
    /// Asynchronous read instructions to re-run after a write.
    pub readers: Vec<u32>,
}

#[derive(Clone, Debug)]
pub(crate) struct SyncRead {
    pub mem: u32,
    pub addr: Operand,
    pub state: Operand,
    pub en: Operand,
    pub srst: Option<(Control, Operand)>,
    pub ce_over_srst: bool,
    pub posedge: bool,
    /// Write ports (indices into [`Program::writes`]) whose data this port sees in the same edge.
    pub transparent: Vec<u32>,
}

#[derive(Clone, Debug)]
pub(crate) struct WritePort {
    pub mem: u32,
    pub addr: Operand,
    pub data: Operand,
    pub en: Operand,
    pub posedge: bool,
}

/// A named group of bits that can be read (a port or a wire).
#[derive(Clone, Debug)]
pub(crate) struct Probe {
    pub width: u32,
    pub gather: Gather,
}

/// The compiled design. Immutable once built; a [`crate::Simulator`] holds the mutable state.
#[derive(Clone, Debug)]
pub(crate) struct Program {
    pub top: String,
    /// Initial arena contents: constants and `init` values.
    pub arena_init: Vec<u64>,
    /// Combinational instructions, in evaluation order.
    pub insts: Vec<Inst>,
    pub gathers: Vec<Gather>,
    pub regs: Vec<Reg>,
    pub memories: Vec<Memory>,
    pub reads: Vec<SyncRead>,
    pub writes: Vec<WritePort>,
    /// For each signal: the instructions that read it (CSR: `inst_fanout[fanout_start[s]..]`).
    pub inst_fanout_start: Vec<u32>,
    pub inst_fanout: Vec<u32>,
    /// For each signal: the registers whose next value depends on it, then the synchronous
    /// read ports (numbered `regs.len() + k` for `reads[k]`), then the write ports (numbered
    /// `regs.len() + reads.len() + k` for `writes[k]`).
    pub reg_fanout_start: Vec<u32>,
    pub reg_fanout: Vec<u32>,
    /// Top-level inputs: name, operand (its whole signal).
    pub inputs: Vec<(String, Operand)>,
    /// Ports (in declaration order as yosys lists them) and named wires.
    pub ports: Vec<PortInfo>,
    pub wires: Vec<(String, Probe, i64, bool)>,
    /// The clock: input index and bit, when the design has clocked elements or a chosen clock.
    pub clock: Option<(usize, u32)>,
    pub max_words: usize,
}

#[derive(Clone, Debug)]
pub(crate) struct PortInfo {
    pub name: String,
    pub direction: Direction,
    pub probe: Probe,
    pub offset: i64,
    pub upto: bool,
}

/// Who drives a signal's bits, for naming the two drivers of a net.
#[derive(Clone, Copy, Debug)]
struct Origin {
    owner: Owner,
    port: &'static str,
    /// The port bit that the signal's bit 0 is.
    base: u32,
}

#[derive(Clone, Copy, Debug)]
enum Owner {
    /// Index into the module's ports.
    Input(usize),
    /// Index into the module's cells.
    Cell(usize),
}

/// The name of a net: bit `bit` of a port or wire (indices into the module's lists), worked
/// out when a message needs it, so that long names on wide wires cost nothing.
#[derive(Clone, Copy, Debug)]
enum NetLabel {
    Port(usize, u32),
    Wire(usize, u32),
}

/// Why compiling failed.
#[derive(Debug)]
pub(crate) enum Failure {
    Load(LoadError),
    /// A combinational loop; `cells` are the module's cells (indices) on loops or between
    /// them, the ones worth splitting into bits.
    Loop {
        error: LoadError,
        cells: Vec<usize>,
    },
}

impl From<LoadError> for Failure {
    fn from(e: LoadError) -> Failure {
        Failure::Load(e)
    }
}

/// Builder state.
struct Builder<'m> {
    module: &'m Module,
    limits: Limits,
    signals: Vec<Signal>,
    arena_init: Vec<u64>,
    /// Words of memory contents so far (memories live outside the arena).
    mem_words: u64,
    drivers: HashMap<u32, (SigId, u32)>,
    origins: HashMap<SigId, Origin>,
    gather_cache: HashMap<Vec<Bit>, Operand>,
    const_cache: HashMap<Vec<bool>, Operand>,
    insts: Vec<Inst>,
    gathers: Vec<Gather>,
    regs: Vec<Reg>,
    memories: Vec<Memory>,
    reads: Vec<SyncRead>,
    writes: Vec<WritePort>,
    cell_names: Vec<String>,
    /// Per entry of `cell_names`: the cell's index in the module.
    cell_index_in_module: Vec<u32>,
    /// The module cell being built.
    current: usize,
    inst_inputs: Vec<Vec<SigId>>,
    clock_net: Option<(u32, String)>,
    net_names: HashMap<u32, NetLabel>,
}

const NO_OPERAND: Operand = Operand {
    sig: 0,
    off: 0,
    width: 0,
};

impl<'m> Builder<'m> {
    fn new_signal(&mut self, width: u32, driver: Driver) -> Operand {
        let off = self.arena_init.len() as u32;
        self.arena_init
            .resize(self.arena_init.len() + words(width), 0);
        let sig = self.signals.len() as SigId;
        self.signals.push(Signal { off, width, driver });
        Operand { sig, off, width }
    }

    /// Refuses the cell being built when the state so far plus `extra_words` more is over the
    /// budget. Called before a memory is allocated and after every cell.
    fn charge(&self, cell: &Cell, extra_words: u64) -> Result<(), LoadError> {
        let words = (self.arena_init.len() as u64)
            .saturating_add(self.mem_words)
            .saturating_add(extra_words);
        let needed = words.saturating_mul(8);
        let budget = self.limits.budget();
        if needed > budget {
            return Err(LoadError::OverBudget {
                cell: clip_name(&cell.name),
                needed,
                budget,
            });
        }
        Ok(())
    }

    fn drive(&mut self, bits: &[Bit], sig: Operand, origin: Origin) -> Result<(), LoadError> {
        self.origins.insert(sig.sig, origin);
        for (i, bit) in bits.iter().enumerate() {
            if let Bit::Net(n) = bit {
                if let Some(&(first_sig, first_bit)) = self.drivers.get(n) {
                    return Err(LoadError::MultipleDrivers {
                        net: *n,
                        name: self.net_name(*n),
                        first: self.describe_driver(first_sig, first_bit),
                        second: self.describe_driver(sig.sig, i as u32),
                    });
                }
                self.drivers.insert(*n, (sig.sig, i as u32));
            }
        }
        Ok(())
    }

    /// `cell c0 (port Y, bit 1)` or `input port a (bit 3)`: who drives bit `bit` of `sig`.
    fn describe_driver(&self, sig: SigId, bit: u32) -> String {
        let Some(o) = self.origins.get(&sig) else {
            return "an internal signal".into();
        };
        let bit = u64::from(o.base) + u64::from(bit);
        match o.owner {
            Owner::Input(p) => {
                let port = &self.module.ports[p];
                if port.bits.len() == 1 {
                    format!("input port {}", clip_name(&port.name))
                } else {
                    format!("input port {} (bit {bit})", clip_name(&port.name))
                }
            }
            Owner::Cell(c) => format!(
                "cell {} (port {}, bit {bit})",
                clip_name(&self.module.cells[c].name),
                o.port
            ),
        }
    }

    /// The name of net `n`: the port or wire bit it carries (`y[3]`), else its number.
    fn net_name(&self, n: u32) -> String {
        let (name, width, bit) = match self.net_names.get(&n) {
            Some(NetLabel::Port(p, bit)) => {
                let p = &self.module.ports[*p];
                (&p.name, p.bits.len(), *bit)
            }
            Some(NetLabel::Wire(w, bit)) => {
                let w = &self.module.netnames[*w];
                (&w.name, w.bits.len(), *bit)
            }
            None => return n.to_string(),
        };
        if width == 1 {
            clip_name(name)
        } else {
            format!("{}[{bit}]", clip_name(name))
        }
    }

    fn constant(&mut self, bits: &[bool]) -> Operand {
        if let Some(op) = self.const_cache.get(bits) {
            return *op;
        }
        let op = self.new_signal(bits.len() as u32, Driver::Const);
        for (i, &b) in bits.iter().enumerate() {
            if b {
                self.arena_init[op.off as usize + i / 64] |= 1 << (i % 64);
            }
        }
        self.const_cache.insert(bits.to_vec(), op);
        op
    }

    /// Where a bit's value comes from: a signal and bit, or a constant (undriven nets read 0).
    fn source(&self, bit: Bit) -> Result<(SigId, u32), bool> {
        match bit {
            Bit::Const(v) => Err(v),
            Bit::Net(n) => self.drivers.get(&n).copied().ok_or(false),
        }
    }

    /// An operand reading exactly `bits`.
    fn operand(&mut self, bits: &[Bit]) -> Operand {
        if bits.is_empty() {
            return self.constant(&[]);
        }
        let sources: Vec<Result<(SigId, u32), bool>> =
            bits.iter().map(|&b| self.source(b)).collect();
        if sources.iter().all(|s| s.is_err()) {
            let consts: Vec<bool> = sources.iter().map(|s| matches!(s, Err(true))).collect();
            return self.constant(&consts);
        }
        // The low bits of one signal, in order: read it in place.
        if let Ok((sig, 0)) = sources[0] {
            let in_place = sources
                .iter()
                .enumerate()
                .all(|(i, s)| *s == Ok((sig, i as u32)));
            if in_place {
                let s = &self.signals[sig as usize];
                return Operand {
                    sig,
                    off: s.off,
                    width: bits.len() as u32,
                };
            }
        }
        if let Some(op) = self.gather_cache.get(bits) {
            return *op;
        }
        let width = bits.len() as u32;
        let y = self.new_signal(width, Driver::Inst(self.insts.len() as u32));
        let gather = self.plan_gather(&sources);
        let mut deps: Vec<SigId> = gather_deps(&sources);
        deps.dedup();
        let g = self.gathers.len() as u32;
        self.gathers.push(gather);
        self.push_inst(
            Inst {
                kind: Kind::Gather(g),
                y,
                a: NO_OPERAND,
                b: NO_OPERAND,
                s: NO_OPERAND,
                shape: Shape::unsigned(0, 0, width),
                narrow: width <= 64,
                cell: u32::MAX,
            },
            deps,
        );
        self.gather_cache.insert(bits.to_vec(), y);
        y
    }

    fn plan_gather(&self, sources: &[Result<(SigId, u32), bool>]) -> Gather {
        let width = sources.len() as u32;
        let mut constant = vec![0u64; words(width)];
        let mut segments: Vec<Segment> = Vec::new();
        for (i, s) in sources.iter().enumerate() {
            let i = i as u32;
            match *s {
                Err(v) => {
                    if v {
                        constant[(i / 64) as usize] |= 1 << (i % 64);
                    }
                }
                Ok((sig, bit)) => {
                    let src_off = self.signals[sig as usize].off;
                    if let Some(last) = segments.last_mut()
                        && last.src_off == src_off
                        && last.src_bit + last.len == bit
                        && last.dst_bit + last.len == i
                        && last.len < 64
                        && (last.dst_bit % 64) + last.len < 64
                    {
                        last.len += 1;
                        continue;
                    }
                    segments.push(Segment {
                        src_off,
                        src_bit: bit,
                        dst_bit: i,
                        len: 1,
                    });
                }
            }
        }
        Gather { segments, constant }
    }

    fn push_inst(&mut self, inst: Inst, deps: Vec<SigId>) {
        self.insts.push(inst);
        self.inst_inputs.push(deps);
    }

    fn cell_index(&mut self, cell: &Cell) -> u32 {
        self.cell_names.push(cell.name.clone());
        self.cell_index_in_module.push(self.current as u32);
        (self.cell_names.len() - 1) as u32
    }

    fn net_label(&self, bit: Bit) -> String {
        match bit {
            Bit::Const(v) => format!("constant {}", v as u8),
            Bit::Net(n) if self.net_names.contains_key(&n) => self.net_name(n),
            Bit::Net(n) => format!("net {n}"),
        }
    }

    /// Checks a clock connection against the design's clock; `None` for a constant clock.
    fn clock(&mut self, cell: &Cell, bits: &[Bit]) -> Result<Option<()>, LoadError> {
        let bit = match bits.first() {
            Some(b) => *b,
            None => return Err(bad(cell, "clock port is empty")),
        };
        match bit {
            Bit::Const(_) => Ok(None),
            Bit::Net(n) => match &self.clock_net {
                Some((c, label)) if *c != n => Err(LoadError::ForeignClock {
                    cell: clip_name(&cell.name),
                    found: self.net_label(bit),
                    expected: label.clone(),
                }),
                Some(_) => Ok(Some(())),
                None => {
                    self.clock_net = Some((n, self.net_label(bit)));
                    Ok(Some(()))
                }
            },
        }
    }
}

fn gather_deps(sources: &[Result<(SigId, u32), bool>]) -> Vec<SigId> {
    let mut deps: Vec<SigId> = sources
        .iter()
        .filter_map(|s| s.ok().map(|(sig, _)| sig))
        .collect();
    deps.sort_unstable();
    deps.dedup();
    deps
}

fn bad(cell: &Cell, message: impl Into<String>) -> LoadError {
    LoadError::BadCell {
        cell: clip_name(&cell.name),
        kind: clip_name(&cell.kind),
        message: message.into(),
    }
}

fn unknown(cell: &Cell) -> LoadError {
    LoadError::UnknownCell {
        cell: clip_name(&cell.name),
        kind: clip_name(&cell.kind),
    }
}

/// A parameter that is a number of at most `max`, refused with its value otherwise.
fn param_upto(cell: &Cell, name: &str, max: u64) -> Result<u32, LoadError> {
    debug_assert!(max <= u64::from(u32::MAX));
    let p = cell
        .parameters
        .get(name)
        .ok_or_else(|| bad(cell, format!("parameter {name} is missing")))?;
    let v = p.as_u64().ok_or_else(|| {
        bad(
            cell,
            format!("parameter {name} is {}, not a number", p.shown()),
        )
    })?;
    if v > max {
        return Err(bad(
            cell,
            format!("parameter {name} is {v}, more than the {max} allowed"),
        ));
    }
    Ok(v as u32)
}

/// A width parameter (bits of a port or memory word): at most [`MAX_BITS`].
fn param_width(cell: &Cell, name: &str) -> Result<u32, LoadError> {
    param_upto(cell, name, MAX_BITS)
}

/// A count parameter (ports, memory words): at most `u32::MAX`; what it costs is checked
/// against the widths of the connections and the budget.
fn param_count(cell: &Cell, name: &str) -> Result<u32, LoadError> {
    param_upto(cell, name, u64::from(u32::MAX))
}

/// `a * b` for port-width arithmetic, or an error naming the cell when it is over [`MAX_BITS`].
fn product(cell: &Cell, a: u32, b: u32) -> Result<u32, LoadError> {
    let v = u64::from(a) * u64::from(b);
    if v > MAX_BITS {
        return Err(bad(
            cell,
            format!("{a} x {b} = {v} bits, more than the {MAX_BITS} a port may have"),
        ));
    }
    Ok(v as u32)
}

fn param_bool(cell: &Cell, name: &str) -> bool {
    cell.parameters
        .get(name)
        .and_then(Param::as_u64)
        .is_some_and(|v| v != 0)
}

fn param_bits(cell: &Cell, name: &str, width: usize) -> Vec<bool> {
    cell.parameters
        .get(name)
        .map(|p| p.bits(width))
        .unwrap_or_else(|| vec![false; width])
}

fn conn<'c>(cell: &'c Cell, port: &str, width: Option<u32>) -> Result<&'c [Bit], LoadError> {
    let bits = cell
        .connections
        .get(port)
        .ok_or_else(|| bad(cell, format!("port {port} is not connected")))?;
    if let Some(w) = width
        && bits.len() != w as usize
    {
        return Err(bad(
            cell,
            format!(
                "port {port} has {}, the parameters say {w}",
                plural(bits.len() as u64, "bit")
            ),
        ));
    }
    Ok(bits)
}

/// Cell types handled outside [`un_op`] and [`bin_op`].
const KNOWN: &[&str] = &[
    "$mux", "$bwmux", "$pmux", "$bmux", "$demux", "$slice", "$concat", "$dff", "$dffe", "$sdff",
    "$sdffe", "$sdffce", "$adff", "$adffe", "$aldff", "$aldffe", "$dffsr", "$dffsre",
];

fn un_op(kind: &str) -> Option<UnOp> {
    Some(match kind {
        "$not" => UnOp::Not,
        "$pos" => UnOp::Pos,
        "$neg" => UnOp::Neg,
        "$reduce_and" => UnOp::ReduceAnd,
        "$reduce_or" => UnOp::ReduceOr,
        "$reduce_xor" => UnOp::ReduceXor,
        "$reduce_xnor" => UnOp::ReduceXnor,
        "$reduce_bool" => UnOp::ReduceBool,
        "$logic_not" => UnOp::LogicNot,
        _ => return None,
    })
}

fn bin_op(kind: &str) -> Option<BinOp> {
    Some(match kind {
        "$and" => BinOp::And,
        "$or" => BinOp::Or,
        "$xor" => BinOp::Xor,
        "$xnor" => BinOp::Xnor,
        "$add" => BinOp::Add,
        "$sub" => BinOp::Sub,
        "$mul" => BinOp::Mul,
        "$div" => BinOp::Div,
        "$mod" => BinOp::Mod,
        "$divfloor" => BinOp::DivFloor,
        "$modfloor" => BinOp::ModFloor,
        "$pow" => BinOp::Pow,
        "$shl" => BinOp::Shl,
        "$shr" => BinOp::Shr,
        "$sshl" => BinOp::Sshl,
        "$sshr" => BinOp::Sshr,
        "$shift" => BinOp::Shift,
        "$shiftx" => BinOp::Shiftx,
        "$eq" | "$eqx" => BinOp::Eq,
        "$ne" | "$nex" => BinOp::Ne,
        "$lt" => BinOp::Lt,
        "$le" => BinOp::Le,
        "$gt" => BinOp::Gt,
        "$ge" => BinOp::Ge,
        "$logic_and" => BinOp::LogicAnd,
        "$logic_or" => BinOp::LogicOr,
        _ => return None,
    })
}

/// Single-bit gate cells (`$_AND_` …) as word-level ones: (kind, parameters).
fn gate(kind: &str) -> Option<&'static str> {
    Some(match kind {
        "$_NOT_" => "$not",
        "$_BUF_" => "$pos",
        "$_AND_" => "$and",
        "$_OR_" => "$or",
        "$_XOR_" => "$xor",
        "$_XNOR_" => "$xnor",
        "$_MUX_" => "$mux",
        _ => return None,
    })
}

/// Compiles `module`. `clock` names the clock input; `None` takes whatever single net clocks the
/// flip-flops and memories (every clocked element must share it). Nothing is allocated beyond
/// what the connections of the netlist already hold, or `limits` allow.
pub(crate) fn compile(
    module: &Module,
    clock: Option<&str>,
    limits: Limits,
) -> Result<Program, Failure> {
    let mut net_names: HashMap<u32, NetLabel> = HashMap::new();
    for (w, n) in module
        .netnames
        .iter()
        .enumerate()
        .filter(|(_, n)| !n.hide_name)
    {
        for (i, b) in n.bits.iter().enumerate() {
            if let Bit::Net(id) = b {
                net_names.entry(*id).or_insert(NetLabel::Wire(w, i as u32));
            }
        }
    }
    for (k, p) in module.ports.iter().enumerate() {
        for (i, b) in p.bits.iter().enumerate() {
            if let Bit::Net(id) = b {
                net_names.insert(*id, NetLabel::Port(k, i as u32));
            }
        }
    }
    let mut b = Builder {
        module,
        limits,
        signals: Vec::new(),
        arena_init: Vec::new(),
        mem_words: 0,
        drivers: HashMap::new(),
        origins: HashMap::new(),
        gather_cache: HashMap::new(),
        const_cache: HashMap::new(),
        insts: Vec::new(),
        gathers: Vec::new(),
        regs: Vec::new(),
        memories: Vec::new(),
        reads: Vec::new(),
        writes: Vec::new(),
        cell_names: Vec::new(),
        cell_index_in_module: Vec::new(),
        current: 0,
        inst_inputs: Vec::new(),
        clock_net: None,
        net_names,
    };

    // Inputs first: they are the roots.
    let mut inputs = Vec::new();
    for (k, p) in module
        .ports
        .iter()
        .enumerate()
        .filter(|(_, p)| p.direction != Direction::Output)
    {
        let op = b.new_signal(p.bits.len() as u32, Driver::Input);
        let origin = Origin {
            owner: Owner::Input(k),
            port: "",
            base: 0,
        };
        b.drive(&p.bits, op, origin)?;
        inputs.push((p.name.clone(), op));
    }
    let mut clock_idx = None;
    if let Some(name) = clock {
        let idx = inputs
            .iter()
            .position(|(n, _)| n == name)
            .ok_or_else(|| LoadError::NoSuchInput(name.to_string()))?;
        let port = module
            .ports
            .iter()
            .find(|p| p.name == name)
            .expect("input port exists");
        if let Some(Bit::Net(n)) = port.bits.first() {
            b.clock_net = Some((*n, name.to_string()));
        }
        clock_idx = Some((idx, 0));
    }

    // Pass 1: create every cell's output signals so that inputs can be resolved in any order.
    let mut outputs: Vec<Vec<Operand>> = Vec::with_capacity(module.cells.len());
    for (k, cell) in module.cells.iter().enumerate() {
        b.current = k;
        outputs.push(declare_outputs(&mut b, cell)?);
        b.charge(cell, 0)?;
    }
    // Pass 2: instructions and state elements.
    for (k, (cell, outs)) in module.cells.iter().zip(&outputs).enumerate() {
        b.current = k;
        build_cell(&mut b, cell, outs)?;
        b.charge(cell, 0)?;
    }
    // If the clock was inferred, find which input carries it.
    if clock_idx.is_none()
        && let Some((net, label)) = &b.clock_net
    {
        match b.drivers.get(net) {
            Some((sig, bit)) if b.signals[*sig as usize].driver == Driver::Input => {
                let idx = inputs
                    .iter()
                    .position(|(_, op)| op.sig == *sig)
                    .expect("input signal");
                clock_idx = Some((idx, *bit));
            }
            _ => {
                let cell = module
                    .cells
                    .iter()
                    .find(|c| {
                        c.connections
                            .iter()
                            .any(|(k, v)| k.ends_with("CLK") && v.contains(&Bit::Net(*net)))
                    })
                    .map(|c| clip_name(&c.name))
                    .unwrap_or_default();
                return Err(Failure::Load(LoadError::ForeignClock {
                    cell,
                    found: label.clone(),
                    expected: "a top-level input".into(),
                }));
            }
        }
    }
    apply_init(&mut b);

    // Probes for ports and wires.
    let mut ports = Vec::new();
    for p in &module.ports {
        let probe = probe(&b, &p.bits);
        ports.push(PortInfo {
            name: p.name.clone(),
            direction: p.direction,
            probe,
            offset: p.offset,
            upto: p.upto,
        });
    }
    let wires = module
        .netnames
        .iter()
        .map(|n| (n.name.clone(), probe(&b, &n.bits), 0i64, false))
        .collect();

    let order = levelize(&b)?;
    Ok(finish(b, order, inputs, ports, wires, clock_idx))
}

fn probe(b: &Builder, bits: &[Bit]) -> Probe {
    let sources: Vec<Result<(SigId, u32), bool>> = bits.iter().map(|&x| b.source(x)).collect();
    Probe {
        width: bits.len() as u32,
        gather: b.plan_gather(&sources),
    }
}

/// The shape of a `$mem_v2`, its parameters checked.
struct MemShape {
    width: u32,
    size: u32,
    abits: u32,
    rd_ports: u32,
    wr_ports: u32,
}

impl MemShape {
    fn of(cell: &Cell) -> Result<MemShape, LoadError> {
        Ok(MemShape {
            width: param_width(cell, "WIDTH")?,
            size: param_count(cell, "SIZE")?,
            abits: param_width(cell, "ABITS")?,
            rd_ports: param_count(cell, "RD_PORTS")?,
            wr_ports: param_count(cell, "WR_PORTS")?,
        })
    }

    /// Arena words per read port (its output register), and words of contents.
    fn words(&self) -> (u64, u64) {
        let n = words(self.width) as u64;
        (n * u64::from(self.rd_ports), n * u64::from(self.size))
    }
}

fn declare_outputs(b: &mut Builder, cell: &Cell) -> Result<Vec<Operand>, LoadError> {
    let kind = gate(&cell.kind).unwrap_or(cell.kind.as_str());
    let out_ports: &[&str] = match kind {
        "$mem_v2" => {
            // The budget first: the parameters alone say how much this memory costs. The read
            // ports (one register each) are charged as soon as their number and width are read.
            let width = param_width(cell, "WIDTH")?;
            let rd_ports = param_count(cell, "RD_PORTS")?;
            b.charge(cell, words(width) as u64 * u64::from(rd_ports))?;
            let m = MemShape::of(cell)?;
            let (port_words, content_words) = m.words();
            b.charge(cell, port_words + content_words)?;
            b.mem_words += content_words;
            let (ports, width) = (m.rd_ports, m.width);
            let data = conn(cell, "RD_DATA", Some(product(cell, ports, width)?))?;
            for port in ["RD_CLK", "RD_EN", "RD_ARST", "RD_SRST"] {
                conn(cell, port, Some(ports))?;
            }
            let mut outs = Vec::with_capacity(ports as usize);
            for p in 0..ports {
                let at = p as usize * width as usize;
                let bits = &data[at..at + width as usize];
                let op = b.new_signal(width, Driver::State);
                let origin = Origin {
                    owner: Owner::Cell(b.current),
                    port: "RD_DATA",
                    base: p * width,
                };
                b.drive(bits, op, origin)?;
                outs.push(op);
            }
            return Ok(outs);
        }
        k if cell.kind.starts_with("$_DFF_") && k.starts_with("$_") => &["Q"],
        k if k.starts_with("$_") => &["Y"],
        "$dff" | "$dffe" | "$sdff" | "$sdffe" | "$sdffce" | "$adff" | "$adffe" | "$aldff"
        | "$aldffe" | "$dffsr" | "$dffsre" => &["Q"],
        "$scopeinfo" => &[],
        _ => &["Y"],
    };
    let mut outs = Vec::new();
    for port in out_ports {
        if let Some(bits) = cell.connections.get(*port) {
            let driver = if *port == "Q" {
                Driver::State
            } else {
                Driver::Inst(u32::MAX)
            };
            let op = b.new_signal(bits.len() as u32, driver);
            let origin = Origin {
                owner: Owner::Cell(b.current),
                port,
                base: 0,
            };
            b.drive(bits, op, origin)?;
            outs.push(op);
        }
    }
    Ok(outs)
}

fn build_cell(b: &mut Builder, cell: &Cell, outs: &[Operand]) -> Result<(), LoadError> {
    let kind = gate(&cell.kind).unwrap_or(cell.kind.as_str());
    let is_gate = cell.kind.starts_with("$_");
    if outs.is_empty() && !matches!(kind, "$mem_v2" | "$scopeinfo") {
        if un_op(kind).is_none() && bin_op(kind).is_none() && !KNOWN.contains(&kind) && !is_gate {
            return Err(unknown(cell));
        }
        return Err(bad(cell, "its output port is not connected"));
    }
    // A width is its parameter when the cell has it (then it must be valid), else the width of
    // the connection.
    let width_of = |port: &str, param: &str| -> Result<u32, LoadError> {
        if is_gate {
            Ok(1)
        } else if cell.parameters.contains_key(param) {
            param_width(cell, param)
        } else {
            cell.connections
                .get(port)
                .map(|v| v.len() as u32)
                .ok_or_else(|| bad(cell, format!("port {port} is not connected")))
        }
    };
    if let Some(op) = un_op(kind) {
        let (aw, yw) = (width_of("A", "A_WIDTH")?, width_of("Y", "Y_WIDTH")?);
        let a_bits = conn(cell, "A", Some(aw))?;
        conn(cell, "Y", Some(yw))?;
        let a = b.operand(a_bits);
        let shape = Shape {
            a_width: aw,
            b_width: 0,
            y_width: yw,
            a_signed: param_bool(cell, "A_SIGNED"),
            b_signed: false,
        };
        return emit(
            b,
            cell,
            Kind::Un(op),
            outs[0],
            a,
            NO_OPERAND,
            NO_OPERAND,
            shape,
        );
    }
    if let Some(op) = bin_op(kind) {
        let (aw, bw, yw) = (
            width_of("A", "A_WIDTH")?,
            width_of("B", "B_WIDTH")?,
            width_of("Y", "Y_WIDTH")?,
        );
        let a_bits = conn(cell, "A", Some(aw))?;
        let b_bits = conn(cell, "B", Some(bw))?;
        conn(cell, "Y", Some(yw))?;
        let a = b.operand(a_bits);
        let bb = b.operand(b_bits);
        let shape = Shape {
            a_width: aw,
            b_width: bw,
            y_width: yw,
            a_signed: param_bool(cell, "A_SIGNED"),
            b_signed: param_bool(cell, "B_SIGNED"),
        };
        let work = ops::work(op, &shape);
        if work > ops::MAX_WORK {
            return Err(bad(
                cell,
                format!(
                    "one evaluation at these widths (A {aw}, B {bw}, Y {yw} bits) takes about \
                     {work} word operations, more than the {} allowed",
                    ops::MAX_WORK
                ),
            ));
        }
        return emit(b, cell, Kind::Bin(op), outs[0], a, bb, NO_OPERAND, shape);
    }
    match kind {
        "$mux" | "$bwmux" => {
            let w = width_of("Y", "WIDTH")?;
            let (k, sw) = if kind == "$mux" {
                (Kind::Mux, 1)
            } else {
                (Kind::Bwmux, w)
            };
            let ports = SelectPorts::new(w, Some(w), sw, w);
            emit_select(b, cell, k, outs[0], ports)
        }
        "$pmux" => {
            let w = param_width(cell, "WIDTH")?;
            let sw = param_width(cell, "S_WIDTH")?;
            let ports = SelectPorts::new(w, Some(product(cell, w, sw)?), sw, w);
            emit_select(b, cell, Kind::Pmux, outs[0], ports)
        }
        "$bmux" | "$demux" => {
            let w = param_width(cell, "WIDTH")?;
            let sw = param_width(cell, "S_WIDTH")?;
            // The wide side has W << S_WIDTH bits: computed in 64 bits, refused above MAX_BITS
            // (so that every select value indexes inside it).
            let wide = 1u64
                .checked_shl(sw)
                .filter(|&parts| parts <= MAX_BITS)
                .map(|parts| parts * u64::from(w))
                .filter(|&bits| bits <= MAX_BITS)
                .ok_or_else(|| {
                    bad(
                        cell,
                        format!(
                            "WIDTH {w} << S_WIDTH {sw} is more than the {MAX_BITS} bits a port \
                             may have"
                        ),
                    )
                })? as u32;
            let (k, aw, yw) = if kind == "$bmux" {
                (Kind::Bmux, wide, w)
            } else {
                (Kind::Demux, w, wide)
            };
            let ports = SelectPorts::new(aw, None, sw, yw);
            emit_select(b, cell, k, outs[0], ports)
        }
        "$slice" => {
            let aw = param_width(cell, "A_WIDTH")?;
            let yw = param_width(cell, "Y_WIDTH")?;
            let off = param_width(cell, "OFFSET")?;
            let a = conn(cell, "A", Some(aw))?;
            conn(cell, "Y", Some(yw))?;
            let end = u64::from(off) + u64::from(yw);
            if end > u64::from(aw) {
                return Err(bad(
                    cell,
                    format!("OFFSET {off} + Y_WIDTH {yw} is beyond A_WIDTH {aw}"),
                ));
            }
            emit_copy(b, cell, outs[0], &a[off as usize..end as usize])
        }
        "$concat" => {
            let aw = param_width(cell, "A_WIDTH")?;
            let bw = param_width(cell, "B_WIDTH")?;
            let mut bits = conn(cell, "A", Some(aw))?.to_vec();
            bits.extend_from_slice(conn(cell, "B", Some(bw))?);
            // A and B are each at most MAX_BITS: the sum fits in a u32.
            conn(cell, "Y", Some(aw + bw))?;
            emit_copy(b, cell, outs[0], &bits)
        }
        "$dff" | "$dffe" | "$sdff" | "$sdffe" | "$sdffce" | "$adff" | "$adffe" | "$aldff"
        | "$aldffe" | "$dffsr" | "$dffsre" => build_reg(b, cell, kind, outs[0]),
        "$mem_v2" => build_memory(b, cell, outs),
        "$scopeinfo" => Ok(()),
        "$_DFF_P_" | "$_DFF_N_" => {
            let q = outs[0];
            conn(cell, "Q", Some(1))?;
            let clk = conn(cell, "C", Some(1))?;
            let clocked = b.clock(cell, clk)?.is_some();
            let d = b.operand(conn(cell, "D", Some(1))?);
            b.regs.push(Reg {
                state: q,
                d,
                posedge: cell.kind.as_bytes()[6] == b'P',
                en: None,
                srst: None,
                ce_over_srst: false,
                arst: None,
                aload: None,
                set: None,
                clr: None,
                clocked,
            });
            Ok(())
        }
        _ => Err(unknown(cell)),
    }
}

/// The port widths of a selection cell (`$mux`, `$bwmux`, `$pmux`, `$bmux`, `$demux`), as its
/// parameters give them; `b` is `None` for the cells without a `B` port.
struct SelectPorts {
    a: u32,
    b: Option<u32>,
    s: u32,
    y: u32,
}

impl SelectPorts {
    /// The widths of `A`, `B` (if the cell has it), `S` and `Y`, in the order yosys lists them.
    fn new(a: u32, b: Option<u32>, s: u32, y: u32) -> SelectPorts {
        SelectPorts { a, b, s, y }
    }
}

/// Checks a selection cell's ports against `ports` (`A`, `B`, `S`, then `Y`) and emits it. Its
/// operands are plain bit vectors, so its shape is unsigned.
fn emit_select(
    b: &mut Builder,
    cell: &Cell,
    kind: Kind,
    y: Operand,
    ports: SelectPorts,
) -> Result<(), LoadError> {
    let a = conn(cell, "A", Some(ports.a))?;
    let bb = ports.b.map(|w| conn(cell, "B", Some(w))).transpose()?;
    let s = conn(cell, "S", Some(ports.s))?;
    conn(cell, "Y", Some(ports.y))?;
    let a = b.operand(a);
    let bb = bb.map_or(NO_OPERAND, |bits| b.operand(bits));
    let s = b.operand(s);
    let shape = Shape::unsigned(ports.a, ports.b.unwrap_or(0), ports.y);
    emit(b, cell, kind, y, a, bb, s, shape)
}

/// Emits a cell whose output is a copy of `bits` (`$slice`, `$concat`): a `$pos` of them,
/// gathered into one operand.
fn emit_copy(b: &mut Builder, cell: &Cell, y: Operand, bits: &[Bit]) -> Result<(), LoadError> {
    let src = b.operand(bits);
    let shape = Shape::unsigned(src.width, 0, src.width);
    let pos = Kind::Un(UnOp::Pos);
    emit(b, cell, pos, y, src, NO_OPERAND, NO_OPERAND, shape)
}

#[allow(
    clippy::too_many_arguments,
    reason = "one call per cell kind, each naming the three operands and the shape a cell of that kind has"
)]
fn emit(
    b: &mut Builder,
    cell: &Cell,
    kind: Kind,
    y: Operand,
    a: Operand,
    bb: Operand,
    s: Operand,
    shape: Shape,
) -> Result<(), LoadError> {
    let idx = b.cell_index(cell);
    let narrow = match kind {
        // These read their wide operand in place, a slice at a time.
        Kind::Pmux => [y, a, s].iter().all(|o| o.width <= 64),
        Kind::Bmux => y.width <= 64 && s.width <= 64,
        _ => [y, a, bb, s].iter().all(|o| o.width <= 64),
    };
    let inst_no = b.insts.len() as u32;
    b.signals[y.sig as usize].driver = Driver::Inst(inst_no);
    let mut deps: Vec<SigId> = Vec::new();
    for o in [a, bb, s] {
        if o.width > 0 {
            deps.push(o.sig);
        }
    }
    deps.sort_unstable();
    deps.dedup();
    b.push_inst(
        Inst {
            kind,
            y,
            a,
            b: bb,
            s,
            shape,
            narrow,
            cell: idx,
        },
        deps,
    );
    Ok(())
}

fn control(b: &mut Builder, cell: &Cell, port: &str, pol: &str) -> Result<Control, LoadError> {
    let bits = conn(cell, port, Some(1))?;
    Ok(Control {
        sig: b.operand(bits),
        active_high: param_bool(cell, pol),
    })
}

/// A register's reset input `port` (`SRST` or `ARST`), with its polarity and the `width`-bit
/// value it loads.
fn reset(
    b: &mut Builder,
    cell: &Cell,
    port: &str,
    width: u32,
) -> Result<(Control, Operand), LoadError> {
    let c = control(b, cell, port, &format!("{port}_POLARITY"))?;
    let v = param_bits(cell, &format!("{port}_VALUE"), width as usize);
    Ok((c, b.constant(&v)))
}

fn build_reg(b: &mut Builder, cell: &Cell, kind: &str, q: Operand) -> Result<(), LoadError> {
    let w = param_width(cell, "WIDTH")?;
    conn(cell, "Q", Some(w))?;
    let clocked = b.clock(cell, conn(cell, "CLK", Some(1))?)?.is_some();
    let posedge = param_bool(cell, "CLK_POLARITY");
    let d = b.operand(conn(cell, "D", Some(w))?);
    let has = |p: &str| kind.contains(p);
    let en =
        if has("e") && kind != "$sdff" && kind != "$adff" && kind != "$aldff" && kind != "$dffsr" {
            Some(control(b, cell, "EN", "EN_POLARITY")?)
        } else {
            None
        };
    let srst = kind
        .starts_with("$sdff")
        .then(|| reset(b, cell, "SRST", w))
        .transpose()?;
    let arst = kind
        .starts_with("$adff")
        .then(|| reset(b, cell, "ARST", w))
        .transpose()?;
    let aload = if kind.starts_with("$aldff") {
        let c = control(b, cell, "ALOAD", "ALOAD_POLARITY")?;
        let ad = b.operand(conn(cell, "AD", Some(w))?);
        Some((c, ad))
    } else {
        None
    };
    let (set, clr) = if kind.starts_with("$dffsr") {
        let s = b.operand(conn(cell, "SET", Some(w))?);
        let c = b.operand(conn(cell, "CLR", Some(w))?);
        (
            Some((s, param_bool(cell, "SET_POLARITY"))),
            Some((c, param_bool(cell, "CLR_POLARITY"))),
        )
    } else {
        (None, None)
    };
    let asynchronous = arst.is_some() || aload.is_some() || set.is_some();
    let state = if asynchronous {
        b.new_signal(w, Driver::State)
    } else {
        q
    };
    let idx = b.cell_index(cell);
    let reg_no = b.regs.len() as u32;
    b.regs.push(Reg {
        state,
        d,
        posedge,
        en,
        srst,
        ce_over_srst: kind == "$sdffce",
        arst,
        aload,
        set,
        clr,
        clocked,
    });
    if asynchronous {
        // Q = the state with the asynchronous controls applied, recomputed whenever they change.
        let inst_no = b.insts.len() as u32;
        b.signals[q.sig as usize].driver = Driver::Inst(inst_no);
        let mut deps = vec![state.sig];
        for (c, v) in arst.iter().chain(aload.iter()) {
            deps.push(c.sig.sig);
            deps.push(v.sig);
        }
        for (o, _) in set.iter().chain(clr.iter()) {
            deps.push(o.sig);
        }
        deps.sort_unstable();
        deps.dedup();
        let shape = Shape::unsigned(w, 0, w);
        b.push_inst(
            Inst {
                kind: Kind::Override(reg_no),
                y: q,
                a: state,
                b: NO_OPERAND,
                s: NO_OPERAND,
                shape,
                narrow: w <= 64,
                cell: idx,
            },
            deps,
        );
    }
    Ok(())
}

/// Builds a `$mem_v2` whose read ports [`declare_outputs`] made (and whose size it charged to
/// the budget).
fn build_memory(b: &mut Builder, cell: &Cell, outs: &[Operand]) -> Result<(), LoadError> {
    let shape = MemShape::of(cell)?;
    let (_, content_words) = shape.words();
    let MemShape {
        width,
        size,
        abits,
        rd_ports,
        wr_ports,
    } = shape;
    // A 32-bit two's complement value (yosys writes OFFSET in 32 bits).
    let offset = match cell.parameters.get("OFFSET") {
        None => 0,
        Some(_) => param_count(cell, "OFFSET")? as i32 as i64,
    };
    let n = words(width);
    let content_words = usize::try_from(content_words).map_err(|_| {
        bad(
            cell,
            format!(
                "{} of {} do not fit in this machine's memory",
                plural(size.into(), "word"),
                plural(width.into(), "bit")
            ),
        )
    })?;
    let mut init = vec![0u64; content_words];
    // Only the bits the INIT value has: a short INIT for a large memory costs nothing.
    if let Some(p) = cell.parameters.get("INIT") {
        let total = u64::from(size) * u64::from(width);
        for i in p.ones().take_while(|&i| i < total) {
            let (row, col) = (i / u64::from(width), i % u64::from(width));
            init[row as usize * n + (col / 64) as usize] |= 1 << (col % 64);
        }
    }
    let name = match cell.parameters.get("MEMID") {
        Some(Param::Str(s)) => s.trim_start_matches('\\').trim_end().to_string(),
        _ => cell.name.clone(),
    };
    let mem = b.memories.len() as u32;
    b.memories.push(Memory {
        name,
        width,
        size,
        offset,
        init,
        readers: Vec::new(),
    });
    let idx = b.cell_index(cell);

    let wr_clk = conn(cell, "WR_CLK", Some(wr_ports))?.to_vec();
    let wr_en = conn(cell, "WR_EN", Some(product(cell, wr_ports, width)?))?.to_vec();
    let wr_addr = conn(cell, "WR_ADDR", Some(product(cell, wr_ports, abits)?))?.to_vec();
    let wr_data = conn(cell, "WR_DATA", Some(product(cell, wr_ports, width)?))?.to_vec();
    let wr_clk_enable = param_bits(cell, "WR_CLK_ENABLE", wr_ports as usize);
    let wr_clk_pol = param_bits(cell, "WR_CLK_POLARITY", wr_ports as usize);
    let first_write = b.writes.len() as u32;
    for p in 0..wr_ports as usize {
        if !wr_clk_enable[p] {
            return Err(bad(
                cell,
                format!("write port {p} is asynchronous (not supported)"),
            ));
        }
        if b.clock(cell, &wr_clk[p..p + 1])?.is_none() {
            // Never clocked: the port can never write. Keep the slot so indices line up.
        }
        let slice = |v: &[Bit], w: u32| v[p * w as usize..(p + 1) * w as usize].to_vec();
        let addr = b.operand(&slice(&wr_addr, abits));
        let data = b.operand(&slice(&wr_data, width));
        let en = if matches!(wr_clk[p], Bit::Const(_)) {
            b.constant(&vec![false; width as usize])
        } else {
            b.operand(&slice(&wr_en, width))
        };
        b.writes.push(WritePort {
            mem,
            addr,
            data,
            en,
            posedge: wr_clk_pol[p],
        });
    }

    let rd_clk = conn(cell, "RD_CLK", Some(rd_ports))?.to_vec();
    let rd_en = conn(cell, "RD_EN", Some(rd_ports))?.to_vec();
    let rd_arst = conn(cell, "RD_ARST", Some(rd_ports))?.to_vec();
    let rd_srst = conn(cell, "RD_SRST", Some(rd_ports))?.to_vec();
    let rd_addr = conn(cell, "RD_ADDR", Some(product(cell, rd_ports, abits)?))?.to_vec();
    let clk_enable = param_bits(cell, "RD_CLK_ENABLE", rd_ports as usize);
    let clk_pol = param_bits(cell, "RD_CLK_POLARITY", rd_ports as usize);
    let ce_over = param_bits(cell, "RD_CE_OVER_SRST", rd_ports as usize);
    // Bit p * WR_PORTS + w: read port p sees write port w. Read from the bits that are set, so
    // that many ports of both kinds cost what the parameter holds, not their product.
    let mut transparency: Vec<Vec<u32>> = vec![Vec::new(); rd_ports as usize];
    if let Some(mask) = cell.parameters.get("RD_TRANSPARENCY_MASK")
        && wr_ports > 0
    {
        let total = u64::from(rd_ports) * u64::from(wr_ports);
        for i in mask.ones().take_while(|&i| i < total) {
            let (p, w) = (i / u64::from(wr_ports), i % u64::from(wr_ports));
            transparency[p as usize].push(first_write + w as u32);
        }
    }
    let srst_values = param_bits(
        cell,
        "RD_SRST_VALUE",
        product(cell, rd_ports, width)? as usize,
    );
    let init_values = param_bits(
        cell,
        "RD_INIT_VALUE",
        product(cell, rd_ports, width)? as usize,
    );
    for p in 0..rd_ports as usize {
        let out = outs[p];
        let addr = b.operand(&rd_addr[p * abits as usize..(p + 1) * abits as usize]);
        if !clk_enable[p] {
            let inst_no = b.insts.len() as u32;
            b.signals[out.sig as usize].driver = Driver::Inst(inst_no);
            b.memories[mem as usize].readers.push(inst_no);
            let shape = Shape::unsigned(abits, 0, width);
            b.push_inst(
                Inst {
                    kind: Kind::MemRead(mem),
                    y: out,
                    a: addr,
                    b: NO_OPERAND,
                    s: NO_OPERAND,
                    shape,
                    narrow: width <= 64 && abits <= 64,
                    cell: idx,
                },
                vec![addr.sig],
            );
            continue;
        }
        if rd_arst[p] != Bit::Const(false) {
            return Err(bad(
                cell,
                format!("read port {p} has an asynchronous reset (not supported; run async2sync)"),
            ));
        }
        if b.clock(cell, &rd_clk[p..p + 1])?.is_none() {
            continue;
        }
        let en = b.operand(&rd_en[p..p + 1]);
        let srst = if rd_srst[p] != Bit::Const(false) {
            let c = Control {
                sig: b.operand(&rd_srst[p..p + 1]),
                active_high: true,
            };
            let v = b.constant(&srst_values[p * width as usize..(p + 1) * width as usize]);
            Some((c, v))
        } else {
            None
        };
        for (i, bit) in init_values[p * width as usize..(p + 1) * width as usize]
            .iter()
            .enumerate()
        {
            if *bit {
                b.arena_init[out.off as usize + i / 64] |= 1 << (i % 64);
            }
        }
        let transparent = std::mem::take(&mut transparency[p]);
        b.reads.push(SyncRead {
            mem,
            addr,
            state: out,
            en,
            srst,
            ce_over_srst: ce_over[p],
            posedge: clk_pol[p],
            transparent,
        });
    }
    Ok(())
}

/// Writes the `init` attributes of wires into the registers that drive them.
fn apply_init(b: &mut Builder) {
    // A register with asynchronous controls keeps its value in a hidden state signal: map its
    // visible Q signal there.
    let mut hidden: HashMap<SigId, Operand> = HashMap::new();
    for inst in &b.insts {
        if let Kind::Override(r) = inst.kind {
            hidden.insert(inst.y.sig, b.regs[r as usize].state);
        }
    }
    for n in &b.module.netnames {
        let Some(init) = &n.init else { continue };
        for (i, bit) in n.bits.iter().enumerate() {
            let Some(Some(v)) = init.get(i) else { continue };
            let Bit::Net(net) = bit else { continue };
            let Some(&(sig, pos)) = b.drivers.get(net) else {
                continue;
            };
            let target = match b.signals[sig as usize].driver {
                Driver::State => b.signals[sig as usize].off,
                Driver::Inst(_) => match hidden.get(&sig) {
                    Some(state) => state.off,
                    None => continue,
                },
                _ => continue,
            };
            let word = &mut b.arena_init[target as usize + (pos / 64) as usize];
            if *v {
                *word |= 1 << (pos % 64);
            } else {
                *word &= !(1 << (pos % 64));
            }
        }
    }
}

/// Orders the instructions so that each comes after the instructions computing its inputs. A
/// loop is reported with the cells on one cycle (a few named, the rest counted) and every cell
/// on a cycle or between cycles, for [`crate::split`]; all of it in linear time.
fn levelize(b: &Builder) -> Result<Vec<u32>, Failure> {
    let n = b.insts.len();
    let producer = |sig: SigId| match b.signals[sig as usize].driver {
        Driver::Inst(d) if (d as usize) < n => Some(d as usize),
        _ => None,
    };
    let mut users: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut indegree = vec![0u32; n];
    for (i, deps) in b.inst_inputs.iter().enumerate() {
        for &sig in deps {
            if let Some(d) = producer(sig) {
                users[d].push(i as u32);
                indegree[i] += 1;
            }
        }
    }
    let mut order: Vec<u32> = (0..n as u32)
        .filter(|&i| indegree[i as usize] == 0)
        .collect();
    let mut head = 0;
    while head < order.len() {
        let i = order[head] as usize;
        head += 1;
        for &u in &users[i] {
            indegree[u as usize] -= 1;
            if indegree[u as usize] == 0 {
                order.push(u);
            }
        }
    }
    if order.len() == n {
        return Ok(order);
    }
    // The unordered instructions are on loops or downstream of one. Peel off, from the end,
    // those that feed no other unordered one: what remains lies on a loop or between loops.
    let unordered = |i: usize| indegree[i] > 0;
    let mut live_users: Vec<u32> = (0..n)
        .map(|i| {
            if unordered(i) {
                users[i].iter().filter(|&&u| unordered(u as usize)).count() as u32
            } else {
                0
            }
        })
        .collect();
    let mut on_loop: Vec<bool> = (0..n).map(unordered).collect();
    let mut sinks: Vec<usize> = (0..n)
        .filter(|&i| on_loop[i] && live_users[i] == 0)
        .collect();
    while let Some(i) = sinks.pop() {
        on_loop[i] = false;
        for &sig in &b.inst_inputs[i] {
            if let Some(d) = producer(sig)
                && on_loop[d]
            {
                live_users[d] -= 1;
                if live_users[d] == 0 {
                    sinks.push(d);
                }
            }
        }
    }
    // Every remaining instruction has an input computed by another remaining one: walk back
    // through those until one repeats, which closes a cycle.
    let start = (0..n)
        .find(|&i| on_loop[i])
        .expect("an unordered instruction lies on a loop");
    let mut seen: Vec<u32> = vec![u32::MAX; n];
    let mut path = Vec::new();
    let mut cur = start;
    let cycle: Vec<usize> = loop {
        if seen[cur] != u32::MAX {
            let mut cycle = path[seen[cur] as usize..].to_vec();
            cycle.reverse();
            break cycle;
        }
        seen[cur] = path.len() as u32;
        path.push(cur);
        cur = b.inst_inputs[cur]
            .iter()
            .filter_map(|&sig| producer(sig))
            .find(|&d| on_loop[d])
            .expect("an instruction on a loop has an input on it");
    };
    let shown: Vec<String> = cycle
        .iter()
        .take(LOOP_NAMES_SHOWN)
        .map(|&i| inst_label(b, i))
        .collect();
    let error = LoadError::CombinationalLoop {
        cell: shown[0].clone(),
        more: cycle.len() - shown.len(),
        path: shown,
    };
    let mut cells: Vec<usize> = (0..n)
        .filter(|&i| on_loop[i] && b.insts[i].cell != u32::MAX)
        .map(|i| b.cell_index_in_module[b.insts[i].cell as usize] as usize)
        .collect();
    cells.sort_unstable();
    cells.dedup();
    Err(Failure::Loop { error, cells })
}

fn inst_label(b: &Builder, i: usize) -> String {
    let inst = &b.insts[i];
    if inst.cell != u32::MAX {
        return clip_name(&b.cell_names[inst.cell as usize]);
    }
    // A gather has no cell of its own: name the cell it feeds.
    let reader = b
        .inst_inputs
        .iter()
        .enumerate()
        .find(|(k, deps)| deps.contains(&inst.y.sig) && b.insts[*k].cell != u32::MAX)
        .map(|(k, _)| clip_name(&b.cell_names[b.insts[k].cell as usize]));
    match reader {
        Some(cell) => format!("(bit wiring into {cell})"),
        None => "(bit wiring)".to_string(),
    }
}

fn finish(
    b: Builder,
    order: Vec<u32>,
    inputs: Vec<(String, Operand)>,
    ports: Vec<PortInfo>,
    wires: Vec<(String, Probe, i64, bool)>,
    clock: Option<(usize, u32)>,
) -> Program {
    let mut position = vec![0u32; order.len()];
    for (pos, &i) in order.iter().enumerate() {
        position[i as usize] = pos as u32;
    }
    let mut signals = b.signals;
    for s in signals.iter_mut() {
        if let Driver::Inst(i) = s.driver
            && i != u32::MAX
        {
            s.driver = Driver::Inst(position[i as usize]);
        }
    }
    let insts: Vec<Inst> = order.iter().map(|&i| b.insts[i as usize].clone()).collect();
    let mut memories = b.memories;
    for m in memories.iter_mut() {
        for r in m.readers.iter_mut() {
            *r = position[*r as usize];
        }
    }
    // Fanouts.
    let nsig = signals.len();
    let mut inst_lists: Vec<Vec<u32>> = vec![Vec::new(); nsig];
    for (old, deps) in b.inst_inputs.iter().enumerate() {
        for &sig in deps {
            inst_lists[sig as usize].push(position[old]);
        }
    }
    let mut reg_lists: Vec<Vec<u32>> = vec![Vec::new(); nsig];
    for (r, reg) in b.regs.iter().enumerate() {
        let mut deps = vec![reg.d.sig];
        deps.extend(reg.en.iter().map(|c| c.sig.sig));
        deps.extend(reg.srst.iter().flat_map(|(c, v)| [c.sig.sig, v.sig]));
        deps.extend(reg.arst.iter().flat_map(|(c, v)| [c.sig.sig, v.sig]));
        deps.extend(reg.aload.iter().flat_map(|(c, v)| [c.sig.sig, v.sig]));
        deps.extend(reg.set.iter().chain(reg.clr.iter()).map(|(o, _)| o.sig));
        deps.sort_unstable();
        deps.dedup();
        for d in deps {
            reg_lists[d as usize].push(r as u32);
        }
    }
    // Synchronous read ports are numbered after the registers: their next value depends on
    // these signals (and on the memory's contents, tracked by the simulator).
    for (k, rd) in b.reads.iter().enumerate() {
        let mut deps = vec![rd.addr.sig, rd.en.sig];
        deps.extend(rd.srst.iter().flat_map(|(c, v)| [c.sig.sig, v.sig]));
        deps.sort_unstable();
        deps.dedup();
        for d in deps {
            reg_lists[d as usize].push((b.regs.len() + k) as u32);
        }
    }
    // Then the write ports: one whose inputs are unchanged would write what it wrote last edge.
    for (k, wp) in b.writes.iter().enumerate() {
        let mut deps = vec![wp.addr.sig, wp.data.sig, wp.en.sig];
        deps.sort_unstable();
        deps.dedup();
        for d in deps {
            reg_lists[d as usize].push((b.regs.len() + b.reads.len() + k) as u32);
        }
    }
    let csr = |lists: Vec<Vec<u32>>| {
        let mut start = Vec::with_capacity(lists.len() + 1);
        let mut flat = Vec::new();
        for mut l in lists {
            start.push(flat.len() as u32);
            l.sort_unstable();
            l.dedup();
            flat.extend(l);
        }
        start.push(flat.len() as u32);
        (start, flat)
    };
    let (inst_fanout_start, inst_fanout) = csr(inst_lists);
    let (reg_fanout_start, reg_fanout) = csr(reg_lists);
    let max_words = signals
        .iter()
        .map(|s| words(s.width))
        .max()
        .unwrap_or(1)
        .max(
            insts
                .iter()
                .map(|i| words(i.shape.a_width.max(i.shape.b_width).max(i.shape.y_width)))
                .max()
                .unwrap_or(1),
        );
    Program {
        top: b.module.name.clone(),
        arena_init: b.arena_init,
        insts,
        gathers: b.gathers,
        regs: b.regs,
        memories,
        reads: b.reads,
        writes: b.writes,
        inst_fanout_start,
        inst_fanout,
        reg_fanout_start,
        reg_fanout,
        inputs,
        ports,
        wires,
        clock,
        max_words,
    }
}
