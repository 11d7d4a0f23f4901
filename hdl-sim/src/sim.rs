//! The cycle-based evaluator and its pin API.
//!
//! State lives in one `u64` arena. After every public call the combinational logic is settled:
//! changing a signal marks the instructions reading it in a bitset indexed in evaluation order,
//! and settling walks that bitset forward, so a cycle costs only what actually changed. At a
//! clock edge every register, memory write and synchronous read port samples the settled values
//! first, and only then are the new values written (two phases, as in hardware).

use crate::compile::{Failure, Gather, Kind, Operand, Program, compile};
use crate::error::{LoadError, PinError};
use crate::fast::{self, Code, Fast};
use crate::limits::Limits;
use crate::netlist::{Direction, Module};
use crate::ops::{self, Scratch, bin_narrow, bin_wide, extend, mask, un_narrow, un_wide, words};
use crate::split::split_cells;

/// A compiled netlist with its current state.
#[derive(Clone, Debug)]
pub struct Simulator {
    p: Program,
    /// `p.insts` in the compact form the hot loop runs.
    fast: Vec<Fast>,
    /// Per signal: where its readers are, in `fan_words` and `p.reg_fanout`.
    fan: Vec<SigFanout>,
    /// The instructions reading a signal as words of the dirty bitset: (word, bits).
    fan_words: Vec<(u32, u64)>,
    arena: Vec<u64>,
    mems: Vec<Vec<u64>>,
    dirty: Vec<u64>,
    /// Words of `dirty` that may be non-zero: `dirty_lo..dirty_hi`.
    dirty_lo: usize,
    dirty_hi: usize,
    /// Staged next values of one word: (arena word, signal, value).
    stage1: Vec<(u32, u32, u64)>,
    /// Where each synchronous read port staged its value this edge: (one-word?, index).
    read_slots: Vec<(bool, u32)>,
    /// Registers whose inputs changed since their last edge, per clock polarity.
    pending_pos: Vec<u32>,
    pending_neg: Vec<u32>,
    /// Per register, then per synchronous read port, then per write port: its inputs (or, for
    /// a port, its memory) changed since its last edge, so it must be evaluated at the next one.
    is_pending: Vec<bool>,
    /// Per write port: some transparent read port sees its data, so it runs at every edge.
    write_feeds_read: Vec<bool>,
    /// Per register: a plain one-word `$dff`, whose next value is its D input.
    plain: Vec<bool>,
    /// Staged next values: (state operand, first word in `stage_words`).
    stage: Vec<(Operand, u32)>,
    stage_words: Vec<u64>,
    scratch: Scratch,
    tmp: Vec<u64>,
    cycle: u64,
    has_negedge: bool,
    has_posedge: bool,
}

/// A handle on a top-level input, resolved once (see [`Simulator::input`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputPin {
    index: usize,
    /// A single bit of the port, or the whole port.
    bit: Option<u32>,
}

/// A handle on a readable group of bits: a port or a named wire (see [`Simulator::probe`]).
#[derive(Clone, Debug)]
pub struct Probe {
    name: String,
    width: u32,
    gather: Gather,
}

impl Probe {
    pub fn name(&self) -> &str {
        &self.name
    }
    pub fn width(&self) -> u32 {
        self.width
    }
}

/// A top-level port as the simulator sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortDesc {
    pub name: String,
    pub direction: Direction,
    pub width: u32,
    /// The Verilog index of the least significant bit and whether the range is ascending
    /// (`[0:7]`), for naming bits the way the source does.
    pub offset: i64,
    pub upto: bool,
}

impl Simulator {
    /// Loads a yosys JSON netlist (see [`Module::from_json`]) and compiles it. `clock` names the
    /// clock input; `None` infers it from the flip-flops.
    pub fn from_json(text: &str, clock: Option<&str>) -> Result<Simulator, LoadError> {
        Simulator::from_json_with(text, clock, Limits::default())
    }

    /// [`Simulator::from_json`] within `limits`. This is the whole path from untrusted text to
    /// a running simulator: for any input it answers a simulator or an error, never panics,
    /// and allocates no more than the text's own size and `limits` allow (the netlist fuzz
    /// target calls it).
    pub fn from_json_with(
        text: &str,
        clock: Option<&str>,
        limits: Limits,
    ) -> Result<Simulator, LoadError> {
        Simulator::with_limits(&Module::from_json(text)?, clock, limits)
    }

    /// Compiles `module` and puts it in its initial state (`init` attributes, memory `INIT`,
    /// every other bit 0, inputs 0), settled; within the default [`Limits`].
    pub fn new(module: &Module, clock: Option<&str>) -> Result<Simulator, LoadError> {
        Simulator::with_limits(module, clock, Limits::default())
    }

    /// [`Simulator::new`] within `limits`.
    pub fn with_limits(
        module: &Module,
        clock: Option<&str>,
        limits: Limits,
    ) -> Result<Simulator, LoadError> {
        let mut p = compile_splitting_loops(module, clock, limits)?;
        // The initial state moves into the simulator rather than being copied: the budget
        // counts it once.
        let arena = std::mem::take(&mut p.arena_init);
        let mems: Vec<Vec<u64>> = p
            .memories
            .iter_mut()
            .map(|m| std::mem::take(&mut m.init))
            .collect();
        let n = p.insts.len();
        let has_posedge = p.regs.iter().any(|r| r.posedge && r.clocked)
            || p.reads.iter().any(|r| r.posedge)
            || p.writes.iter().any(|w| w.posedge);
        let has_negedge = p.regs.iter().any(|r| !r.posedge && r.clocked)
            || p.reads.iter().any(|r| !r.posedge)
            || p.writes.iter().any(|w| !w.posedge);
        let (fan, fan_words) = fanouts(&p);
        let mut sim = Simulator {
            fast: p.insts.iter().map(Fast::new).collect(),
            fan,
            fan_words,
            arena,
            mems,
            dirty: vec![0; n.div_ceil(64)],
            dirty_lo: 0,
            dirty_hi: 0,
            stage1: Vec::new(),
            read_slots: Vec::new(),
            pending_pos: Vec::new(),
            pending_neg: Vec::new(),
            is_pending: vec![false; p.regs.len() + p.reads.len() + p.writes.len()],
            write_feeds_read: write_feeds_read(&p),
            plain: p.regs.iter().map(|r| r.plain_narrow()).collect(),
            stage: Vec::new(),
            stage_words: Vec::new(),
            scratch: Scratch::default(),
            tmp: vec![0; p.max_words + 1],
            cycle: 0,
            has_negedge,
            has_posedge,
            p,
        };
        for i in 0..n {
            sim.mark_inst(i as u32);
        }
        for r in 0..sim.p.regs.len() + sim.p.reads.len() + sim.p.writes.len() {
            sim.mark_reg(r as u32);
        }
        sim.settle();
        Ok(sim)
    }

    /// The top module's name.
    pub fn top(&self) -> &str {
        &self.p.top
    }

    /// Clock cycles run so far.
    pub fn cycle(&self) -> u64 {
        self.cycle
    }

    /// The top-level ports, as yosys lists them.
    pub fn ports(&self) -> Vec<PortDesc> {
        self.p
            .ports
            .iter()
            .map(|p| PortDesc {
                name: p.name.clone(),
                direction: p.direction,
                width: p.probe.width,
                offset: p.offset,
                upto: p.upto,
            })
            .collect()
    }

    /// The clock input's name, when the design has one (given or inferred).
    pub fn clock_name(&self) -> Option<&str> {
        self.p.clock.map(|(i, _)| self.p.inputs[i].0.as_str())
    }

    /// Resolves an input: `NAME` for a whole port, `NAME[BIT]` for one bit of it (`BIT` is the
    /// bit's index in the Verilog declaration, whether `[7:0]`, `[8:1]` or `[0:7]`).
    pub fn input(&self, name: &str) -> Result<InputPin, PinError> {
        let (base, bit) = parse_pin_ref(name)?;
        let index = self
            .p
            .inputs
            .iter()
            .position(|(n, _)| *n == base)
            .ok_or_else(|| PinError::NoSuchInput(base.to_string()))?;
        let width = self.p.inputs[index].1.width;
        if let Some(b) = bit {
            // Verilog indices: `[8:1]` counts up from its LSB at 1, `[0:7]` down to its LSB at 7.
            let rel = match self.p.ports.iter().find(|p| p.name == base) {
                Some(p) if p.upto => p.offset + i64::from(width) - 1 - i64::from(b),
                Some(p) => i64::from(b) - p.offset,
                None => i64::from(b),
            };
            if rel < 0 || rel >= i64::from(width) {
                return Err(PinError::BitOutOfRange {
                    name: base.to_string(),
                    bit: b,
                    width,
                });
            }
            return Ok(InputPin {
                index,
                bit: Some(rel as u32),
            });
        }
        Ok(InputPin { index, bit: None })
    }

    /// Whether `pin` is the clock or a bit of it: the simulator drives the clock, so a caller
    /// that lets users drive pins refuses it.
    pub fn is_clock(&self, pin: InputPin) -> bool {
        match self.p.clock {
            Some((index, bit)) => pin.index == index && pin.bit.is_none_or(|b| b == bit),
            None => false,
        }
    }

    /// Width of an input pin handle.
    pub fn input_width(&self, pin: InputPin) -> u32 {
        if pin.bit.is_some() {
            1
        } else {
            self.p.inputs[pin.index].1.width
        }
    }

    /// Sets an input (≤ 64 bits, or the low 64 bits of a wider one) and settles the logic.
    pub fn set(&mut self, pin: InputPin, value: u64) -> Result<(), PinError> {
        self.set_wide(pin, &[value])
    }

    /// Sets an input from little-endian words and settles the logic.
    pub fn set_wide(&mut self, pin: InputPin, value: &[u64]) -> Result<(), PinError> {
        let (name, op) = &self.p.inputs[pin.index];
        let width = if pin.bit.is_some() { 1 } else { op.width };
        let fits = value.iter().enumerate().all(|(i, &w)| {
            let lo = i as u32 * 64;
            if lo >= width {
                w == 0
            } else {
                width - lo >= 64 || w >> (width - lo) == 0
            }
        });
        if !fits {
            return Err(PinError::TooWide {
                name: name.clone(),
                width,
            });
        }
        let op = *op;
        let changed = match pin.bit {
            Some(b) => {
                let word = &mut self.arena[op.off as usize + (b / 64) as usize];
                let old = *word;
                if value.first().copied().unwrap_or(0) & 1 == 1 {
                    *word |= 1 << (b % 64);
                } else {
                    *word &= !(1 << (b % 64));
                }
                old != *word
            }
            None => {
                let mut changed = false;
                for i in 0..op.words() {
                    let v = value.get(i).copied().unwrap_or(0);
                    let slot = &mut self.arena[op.off as usize + i];
                    changed |= *slot != v;
                    *slot = v;
                }
                changed
            }
        };
        if changed {
            self.signal_changed(op.sig);
            self.settle();
        }
        Ok(())
    }

    /// Sets an input by name (see [`Simulator::input`]).
    pub fn set_by_name(&mut self, name: &str, value: u64) -> Result<(), PinError> {
        let pin = self.input(name)?;
        self.set(pin, value)
    }

    /// Resolves a port or a named wire for reading.
    pub fn probe(&self, name: &str) -> Result<Probe, PinError> {
        if let Some(p) = self.p.ports.iter().find(|p| p.name == name) {
            return Ok(Probe {
                name: name.to_string(),
                width: p.probe.width,
                gather: p.probe.gather.clone(),
            });
        }
        if let Some((n, w, _, _)) = self.p.wires.iter().find(|(n, ..)| n == name) {
            return Ok(Probe {
                name: n.clone(),
                width: w.width,
                gather: w.gather.clone(),
            });
        }
        Err(PinError::NoSuchSignal(name.to_string()))
    }

    /// Names of the design's visible wires (without yosys' internal `$`-names).
    pub fn wire_names(&self) -> Vec<&str> {
        self.p
            .wires
            .iter()
            .map(|(n, ..)| n.as_str())
            .filter(|n| !n.starts_with('$'))
            .collect()
    }

    /// The low 64 bits of a probe's current value.
    #[inline]
    pub fn get(&self, probe: &Probe) -> u64 {
        let g = &probe.gather;
        let mut v = g.constant[0];
        for s in &g.segments {
            if s.dst_bit < 64 {
                v |= extract(&self.arena, s.src_off, s.src_bit, s.len) << s.dst_bit;
            }
        }
        v
    }

    /// A probe's whole value as little-endian words.
    pub fn get_wide(&self, probe: &Probe) -> Vec<u64> {
        let mut out = probe.gather.constant.clone();
        run_gather(&self.arena, &probe.gather, &mut out);
        out
    }

    /// Reads a port or wire by name (low 64 bits).
    pub fn get_by_name(&self, name: &str) -> Result<u64, PinError> {
        Ok(self.get(&self.probe(name)?))
    }

    /// Reads one word of a memory (for tests and debugging): `None` out of range.
    pub fn memory_word(&self, memory: &str, address: i64) -> Option<Vec<u64>> {
        let (i, m) = self
            .p
            .memories
            .iter()
            .enumerate()
            .find(|(_, m)| m.name == memory)?;
        let row = address.checked_sub(m.offset)?;
        if row < 0 || row >= i64::from(m.size) {
            return None;
        }
        let n = words(m.width);
        Some(self.mems[i][row as usize * n..(row as usize + 1) * n].to_vec())
    }

    /// Runs one clock cycle: the clock rises (posedge elements update), the logic settles, the
    /// clock falls (negedge elements update), the logic settles.
    pub fn step(&mut self) {
        self.half_step(true);
        self.half_step(false);
    }

    /// Runs `n` clock cycles.
    pub fn run(&mut self, n: u64) {
        for _ in 0..n {
            self.step();
        }
    }

    /// Drives the clock to `level` (an edge when it changes) and settles. [`Simulator::step`] is
    /// `half_step(true)` then `half_step(false)`; use this to observe the values between edges.
    /// The falling half completes a cycle: it advances [`Simulator::cycle`].
    pub fn half_step(&mut self, level: bool) {
        if !level {
            self.cycle += 1;
        }
        if let Some((idx, bit)) = self.p.clock {
            let op = self.p.inputs[idx].1;
            let word = &mut self.arena[op.off as usize + (bit / 64) as usize];
            let old = (*word >> (bit % 64)) & 1 == 1;
            if old == level {
                return;
            }
            if level {
                *word |= 1 << (bit % 64);
            } else {
                *word &= !(1 << (bit % 64));
            }
            if self.has_posedge && level || self.has_negedge && !level {
                self.edge(level);
            }
            self.signal_changed(op.sig);
            self.settle();
        } else if self.has_posedge && level || self.has_negedge && !level {
            self.edge(level);
            self.settle();
        }
    }

    /// Updates the falling-edge elements once while the clock stays low, without counting a
    /// cycle. A Verilog testbench that starts its clock at 0 drives it from `x` to 0 at time 0,
    /// and an `x` to 0 change is a falling edge: every `@(negedge clk)` block of the design
    /// runs once before the first rising edge. Call this after setting the inputs, before the
    /// first [`Simulator::step`], to follow that convention (`quadrille sim` does).
    pub fn initial_falling_edge(&mut self) {
        if self.has_negedge {
            self.edge(false);
            self.settle();
        }
    }

    // -- hooks for the compiled back end (crate::wasm) -----------------------------------

    /// The program and the state, for generating and loading the compiled module.
    pub(crate) fn compiled_parts(&self) -> (&Program, &[u64], &[Vec<u64>]) {
        (&self.p, &self.arena, &self.mems)
    }

    /// Where input `pin` lives: its signal's first arena word, the bit (for a one-bit handle)
    /// and its width.
    pub(crate) fn input_location(&self, pin: InputPin) -> (u32, Option<u32>, u32) {
        let op = self.p.inputs[pin.index].1;
        (op.off, pin.bit, op.width)
    }

    /// The arena bits a probe reads, and its constant bits.
    pub(crate) fn probe_gather(probe: &Probe) -> &Gather {
        &probe.gather
    }

    /// The state, for the compiled module to write back.
    #[cfg_attr(
        not(all(feature = "compiled", not(target_arch = "wasm32"))),
        expect(dead_code, reason = "only the native compiled host writes the state")
    )]
    pub(crate) fn compiled_state_mut(&mut self) -> (&mut [u64], &mut [Vec<u64>]) {
        (&mut self.arena, &mut self.mems)
    }

    /// After the compiled module ran `n` cycles on the state: the logic is settled, but which
    /// element's inputs changed is unknown, so every element is evaluated at its next edge.
    #[cfg_attr(
        not(all(feature = "compiled", not(target_arch = "wasm32"))),
        expect(dead_code, reason = "only the native compiled host runs cycles")
    )]
    pub(crate) fn compiled_ran(&mut self, n: u64) {
        self.cycle += n;
        for r in 0..self.is_pending.len() {
            self.mark_reg(r as u32);
        }
    }

    // -- internals --------------------------------------------------------------------------

    #[inline]
    fn mark_inst(&mut self, i: u32) {
        let w = (i / 64) as usize;
        self.dirty[w] |= 1 << (i % 64);
        self.dirty_lo = self.dirty_lo.min(w);
        self.dirty_hi = self.dirty_hi.max(w + 1);
    }

    #[inline]
    fn mark_reg(&mut self, r: u32) {
        if !self.is_pending[r as usize] {
            self.is_pending[r as usize] = true;
            let Some(reg) = self.p.regs.get(r as usize) else {
                return; // a memory port: its edge looks at the flag
            };
            if reg.posedge {
                self.pending_pos.push(r);
            } else {
                self.pending_neg.push(r);
            }
        }
    }

    #[inline(always)]
    fn signal_changed(&mut self, sig: u32) {
        let f = self.fan[sig as usize];
        if f.words_start < f.words_end {
            for &(w, bits) in &self.fan_words[f.words_start as usize..f.words_end as usize] {
                self.dirty[w as usize] |= bits;
            }
            // Readers come later in the order: the first and last bound the marked words.
            self.dirty_lo = self.dirty_lo.min(f.lo as usize);
            self.dirty_hi = self.dirty_hi.max(f.hi as usize);
        }
        for k in f.regs_start..f.regs_end {
            let r = self.p.reg_fanout[k as usize];
            self.mark_reg(r);
        }
    }

    /// Evaluates dirty instructions in order until none is left. Instructions only mark
    /// later ones (their readers), so one forward pass suffices.
    fn settle(&mut self) {
        let mut w = self.dirty_lo;
        while w < self.dirty_hi {
            while self.dirty[w] != 0 {
                let bit = self.dirty[w].trailing_zeros();
                self.dirty[w] &= !(1 << bit);
                let i = w * 64 + bit as usize;
                let f = &self.fast[i];
                let (sig, changed) = if f.code == Code::General {
                    let sig = f.sig;
                    (sig, self.exec(i))
                } else {
                    let y = fast::eval(f, &self.arena);
                    let slot = &mut self.arena[f.y as usize];
                    let changed = *slot != y;
                    *slot = y;
                    (f.sig, changed)
                };
                if changed {
                    self.signal_changed(sig);
                }
            }
            w += 1;
        }
        self.dirty_lo = self.dirty.len();
        self.dirty_hi = 0;
    }

    #[inline]
    fn read1(&self, op: &Operand) -> u64 {
        self.arena[op.off as usize] & mask(op.width)
    }

    /// Runs one instruction; true when its output changed.
    fn exec(&mut self, i: usize) -> bool {
        let inst = &self.p.insts[i];
        if inst.narrow {
            let y = match inst.kind {
                Kind::Bin(op) => {
                    let a = self.read1(&inst.a);
                    let b = self.read1(&inst.b);
                    bin_narrow(op, a, b, &inst.shape)
                }
                Kind::Un(op) => {
                    let a = extend(self.read1(&inst.a), inst.a.width, inst.shape.a_signed);
                    un_narrow(op, a, inst.a.width)
                }
                Kind::Mux => {
                    if self.read1(&inst.s) != 0 {
                        self.read1(&inst.b)
                    } else {
                        self.read1(&inst.a)
                    }
                }
                Kind::Bwmux => {
                    let s = self.read1(&inst.s);
                    (self.read1(&inst.a) & !s) | (self.read1(&inst.b) & s)
                }
                Kind::Pmux => {
                    let s = self.read1(&inst.s);
                    if s == 0 {
                        self.read1(&inst.a)
                    } else {
                        let k = s.trailing_zeros();
                        let w = inst.y.width;
                        extract(&self.arena, inst.b.off, k * w, w)
                    }
                }
                Kind::Bmux => {
                    let s = self.read1(&inst.s) as u32;
                    let w = inst.y.width;
                    extract(&self.arena, inst.a.off, s * w, w)
                }
                Kind::Demux => {
                    let s = self.read1(&inst.s) as u32;
                    let w = inst.a.width;
                    let shifted = if s * w >= 64 {
                        0
                    } else {
                        self.read1(&inst.a) << (s * w)
                    };
                    if w == 0 { 0 } else { shifted }
                }
                Kind::Gather(g) => {
                    let g = &self.p.gathers[g as usize];
                    let mut v = g.constant[0];
                    for s in &g.segments {
                        v |= extract(&self.arena, s.src_off, s.src_bit, s.len) << s.dst_bit;
                    }
                    v
                }
                Kind::MemRead(m) => {
                    let mem = &self.p.memories[m as usize];
                    let addr = self.read1(&inst.a) as i64;
                    match addr.checked_sub(mem.offset) {
                        Some(row) if row >= 0 && row < i64::from(mem.size) => {
                            self.mems[m as usize][row as usize]
                        }
                        _ => 0,
                    }
                }
                Kind::Override(r) => {
                    let state = self.read1(&inst.a);
                    self.override_narrow(r as usize, state)
                }
            } & mask(inst.y.width);
            let slot = &mut self.arena[inst.y.off as usize];
            let changed = *slot != y;
            *slot = y;
            changed
        } else {
            self.exec_wide(i)
        }
    }

    fn override_narrow(&self, r: usize, state: u64) -> u64 {
        let reg = &self.p.regs[r];
        let mut v = state;
        if let Some((c, val)) = &reg.arst
            && self.active(c)
        {
            v = self.read1(val);
        }
        if let Some((c, ad)) = &reg.aload
            && self.active(c)
        {
            v = self.read1(ad);
        }
        if let Some((s, pol)) = &reg.set {
            let s = self.read1(s);
            v |= if *pol { s } else { !s };
        }
        if let Some((c, pol)) = &reg.clr {
            let c = self.read1(c);
            v &= !(if *pol { c } else { !c });
        }
        v
    }

    #[inline]
    fn active(&self, c: &crate::compile::Control) -> bool {
        (self.arena[c.sig.off as usize] & 1 == 1) == c.active_high
    }

    /// The multi-word path: compute into `tmp`, compare, copy.
    #[inline(never)]
    fn exec_wide(&mut self, i: usize) -> bool {
        let inst = self.p.insts[i].clone();
        let yn = words(inst.y.width);
        let arena = std::mem::take(&mut self.arena);
        let mut out = std::mem::take(&mut self.tmp);
        out.clear();
        out.resize(yn, 0);
        let slice = |op: &Operand| -> &[u64] {
            let start = op.off as usize;
            &arena[start..start + op.words()]
        };
        match inst.kind {
            Kind::Bin(op) => {
                bin_wide(
                    op,
                    &mut out,
                    slice(&inst.a),
                    slice(&inst.b),
                    &inst.shape,
                    &mut self.scratch,
                );
            }
            Kind::Un(op) => {
                un_wide(
                    op,
                    &mut out,
                    inst.y.width,
                    slice(&inst.a),
                    inst.a.width,
                    inst.shape.a_signed,
                );
            }
            Kind::Mux => {
                let src = if (arena[inst.s.off as usize] & 1) != 0 {
                    &inst.b
                } else {
                    &inst.a
                };
                ops::load(&mut out, slice(src), src.width, inst.y.width, false);
            }
            Kind::Bwmux => {
                let (a, b, s) = (slice(&inst.a), slice(&inst.b), slice(&inst.s));
                for k in 0..yn {
                    out[k] = (a[k] & !s[k]) | (b[k] & s[k]);
                }
                ops::mask_top(&mut out, inst.y.width);
            }
            Kind::Pmux => {
                let s = slice(&inst.s);
                let w = inst.y.width;
                match (0..inst.s.width).find(|&k| ops::get_bit(s, k)) {
                    None => ops::load(&mut out, slice(&inst.a), w, w, false),
                    Some(k) => copy_bits(&mut out, &arena, inst.b.off, k * w, w),
                }
            }
            Kind::Bmux => {
                let sel = selector(slice(&inst.s), inst.s.width);
                let w = inst.y.width;
                copy_bits(&mut out, &arena, inst.a.off, sel * w, w);
            }
            Kind::Demux => {
                let sel = selector(slice(&inst.s), inst.s.width);
                let w = inst.a.width;
                let a = slice(&inst.a);
                for k in 0..w {
                    if ops::get_bit(a, k) {
                        ops::set_bit(&mut out, sel * w + k, true);
                    }
                }
            }
            Kind::Gather(g) => {
                let g = &self.p.gathers[g as usize];
                out.copy_from_slice(&g.constant);
                run_gather(&arena, g, &mut out);
            }
            Kind::MemRead(m) => {
                let mem = &self.p.memories[m as usize];
                let mut a = [0u64];
                let aw = inst.a.width.min(64);
                ops::load(&mut a, slice(&inst.a), inst.a.width, aw, false);
                if let Some(row) = (a[0] as i64)
                    .checked_sub(mem.offset)
                    .filter(|r| *r >= 0 && *r < i64::from(mem.size))
                {
                    let n = words(mem.width);
                    out.copy_from_slice(
                        &self.mems[m as usize][row as usize * n..(row as usize + 1) * n],
                    );
                }
            }
            Kind::Override(r) => {
                let reg = self.p.regs[r as usize].clone();
                ops::load(&mut out, slice(&inst.a), inst.a.width, inst.y.width, false);
                if let Some((c, v)) = &reg.arst
                    && active(&arena, c)
                {
                    ops::load(&mut out, slice(v), v.width, inst.y.width, false);
                }
                if let Some((c, ad)) = &reg.aload
                    && active(&arena, c)
                {
                    ops::load(&mut out, slice(ad), ad.width, inst.y.width, false);
                }
                if let Some((s, pol)) = &reg.set {
                    let s = slice(s);
                    for k in 0..yn {
                        out[k] |= if *pol { s[k] } else { !s[k] };
                    }
                }
                if let Some((c, pol)) = &reg.clr {
                    let c = slice(c);
                    for k in 0..yn {
                        out[k] &= !(if *pol { c[k] } else { !c[k] });
                    }
                }
                ops::mask_top(&mut out, inst.y.width);
            }
        }
        self.arena = arena;
        let dst = &mut self.arena[inst.y.off as usize..inst.y.off as usize + yn];
        let changed = dst != &out[..];
        if changed {
            dst.copy_from_slice(&out);
        }
        self.tmp = out;
        changed
    }

    /// One clock edge of the given polarity: sample everything, then write.
    fn edge(&mut self, posedge: bool) {
        self.stage.clear();
        self.stage_words.clear();
        self.stage1.clear();
        let mut pending = if posedge {
            std::mem::take(&mut self.pending_pos)
        } else {
            std::mem::take(&mut self.pending_neg)
        };
        for &r in &pending {
            self.is_pending[r as usize] = false;
            let reg = &self.p.regs[r as usize];
            if !reg.clocked {
                continue;
            }
            if self.plain[r as usize] {
                let v = self.arena[reg.d.off as usize] & mask(reg.d.width);
                self.stage1.push((reg.state.off, reg.state.sig, v));
            } else if reg.state.width <= 64 {
                let v = self.next_narrow(r as usize);
                let reg = &self.p.regs[r as usize];
                self.stage1.push((reg.state.off, reg.state.sig, v));
            } else {
                self.stage_reg(r as usize);
            }
        }
        pending.clear();
        if posedge {
            self.pending_pos = pending;
        } else {
            self.pending_neg = pending;
        }
        if !self.p.reads.is_empty() || !self.p.writes.is_empty() {
            self.read_slots.clear();
            let nregs = self.p.regs.len();
            for k in 0..self.p.reads.len() {
                let rd = &self.p.reads[k];
                // A port whose address, enable, reset and memory are unchanged since its last
                // edge would read what it holds; transparent ports are always evaluated.
                if rd.posedge == posedge
                    && (self.is_pending[nregs + k] || !rd.transparent.is_empty())
                {
                    self.is_pending[nregs + k] = false;
                    self.stage_read(k);
                } else {
                    self.read_slots.push((true, u32::MAX));
                }
            }
            let first_write = nregs + self.p.reads.len();
            for k in 0..self.p.writes.len() {
                if self.p.writes[k].posedge == posedge
                    && (self.is_pending[first_write + k] || self.write_feeds_read[k])
                {
                    self.is_pending[first_write + k] = false;
                    self.write_port(k);
                }
            }
        }
        // Apply.
        for k in 0..self.stage1.len() {
            let (off, sig, v) = self.stage1[k];
            let slot = &mut self.arena[off as usize];
            if *slot != v {
                *slot = v;
                self.signal_changed(sig);
            }
        }
        for k in 0..self.stage.len() {
            let (op, at) = self.stage[k];
            let n = op.words();
            let new = &self.stage_words[at as usize..at as usize + n];
            let dst = &mut self.arena[op.off as usize..op.off as usize + n];
            if dst != new {
                dst.copy_from_slice(new);
                self.signal_changed(op.sig);
            }
        }
    }

    /// The next value of a register of at most 64 bits.
    #[inline]
    fn next_narrow(&self, r: usize) -> u64 {
        let reg = &self.p.regs[r];
        let a = &self.arena;
        let rd = |op: &Operand| a[op.off as usize] & mask(op.width);
        let mut v = rd(&reg.d);
        let en_active = reg.en.as_ref().is_none_or(|c| active(a, c));
        if !en_active {
            v = rd(&reg.state);
        }
        if let Some((c, val)) = &reg.srst
            && active(a, c)
            && (!reg.ce_over_srst || en_active)
        {
            v = rd(val);
        }
        if let Some((c, val)) = &reg.arst
            && active(a, c)
        {
            v = rd(val);
        }
        if let Some((c, ad)) = &reg.aload
            && active(a, c)
        {
            v = rd(ad);
        }
        if let Some((s, pol)) = &reg.set {
            let s = rd(s);
            v |= if *pol { s } else { !s };
        }
        if let Some((c, pol)) = &reg.clr {
            let c = rd(c);
            v &= !(if *pol { c } else { !c });
        }
        v & mask(reg.state.width)
    }

    fn push_stage(&mut self, op: Operand) -> usize {
        let at = self.stage_words.len();
        self.stage_words.resize(at + op.words(), 0);
        self.stage.push((op, at as u32));
        at
    }

    fn stage_reg(&mut self, r: usize) {
        let reg = &self.p.regs[r];
        let w = reg.state.width;
        let n = reg.state.words();
        let at = self.push_stage(reg.state);
        let reg = &self.p.regs[r];
        let copy = |arena: &[u64], dst: &mut [u64], op: &Operand| {
            ops::load(
                dst,
                &arena[op.off as usize..op.off as usize + op.words()],
                op.width,
                w,
                false,
            );
        };
        let dst = &mut self.stage_words[at..at + n];
        copy(&self.arena, dst, &reg.d);
        let en_active = reg
            .en
            .as_ref()
            .is_none_or(|c| (self.arena[c.sig.off as usize] & 1 == 1) == c.active_high);
        if !en_active {
            copy(&self.arena, dst, &reg.state);
        }
        if let Some((c, v)) = &reg.srst {
            let on = (self.arena[c.sig.off as usize] & 1 == 1) == c.active_high;
            if on && (!reg.ce_over_srst || en_active) {
                copy(&self.arena, dst, v);
            }
        }
        if let Some((c, v)) = &reg.arst
            && (self.arena[c.sig.off as usize] & 1 == 1) == c.active_high
        {
            copy(&self.arena, dst, v);
        }
        if let Some((c, v)) = &reg.aload
            && (self.arena[c.sig.off as usize] & 1 == 1) == c.active_high
        {
            copy(&self.arena, dst, v);
        }
        if let Some((s, pol)) = &reg.set {
            let src = &self.arena[s.off as usize..s.off as usize + n];
            for (d, &v) in dst.iter_mut().zip(src) {
                *d |= if *pol { v } else { !v };
            }
        }
        if let Some((c, pol)) = &reg.clr {
            let src = &self.arena[c.off as usize..c.off as usize + n];
            for (d, &v) in dst.iter_mut().zip(src) {
                *d &= !(if *pol { v } else { !v });
            }
        }
        ops::mask_top(dst, w);
    }

    fn stage_read(&mut self, k: usize) {
        let state = self.p.reads[k].state;
        if state.width <= 64 {
            let (p, arena) = (&self.p, &self.arena);
            let rd = &p.reads[k];
            let en = arena[rd.en.off as usize] & 1 == 1;
            let mut v = arena[state.off as usize];
            let srst = rd.srst.as_ref().filter(|(c, _)| active(arena, c));
            if let Some((_, val)) = srst.filter(|_| !rd.ce_over_srst || en) {
                v = arena[val.off as usize] & mask(val.width);
            } else if en {
                v = match mem_row(p, arena, rd.mem as usize, &rd.addr) {
                    Some(row) => self.mems[rd.mem as usize][row],
                    None => 0,
                };
            }
            self.read_slots.push((true, self.stage1.len() as u32));
            self.stage1.push((state.off, state.sig, v));
            return;
        }
        let at = self.push_stage(state);
        self.read_slots.push((false, (self.stage.len() - 1) as u32));
        let n = state.words();
        let (p, arena, mems) = (&self.p, &self.arena, &self.mems);
        let rd = &p.reads[k];
        let dst = &mut self.stage_words[at..at + n];
        dst.copy_from_slice(&arena[state.off as usize..state.off as usize + n]);
        let en = arena[rd.en.off as usize] & 1 == 1;
        let srst = rd.srst.as_ref().filter(|(c, _)| active(arena, c));
        if let Some((_, v)) = srst.filter(|_| !rd.ce_over_srst || en) {
            ops::load(
                dst,
                &arena[v.off as usize..v.off as usize + v.words()],
                v.width,
                state.width,
                false,
            );
        } else if en {
            match mem_row(p, arena, rd.mem as usize, &rd.addr) {
                Some(row) => dst.copy_from_slice(&mems[rd.mem as usize][row * n..(row + 1) * n]),
                None => dst.iter_mut().for_each(|w| *w = 0),
            }
        }
    }

    fn write_port(&mut self, k: usize) {
        let (p, arena) = (&self.p, &self.arena);
        let wp = &p.writes[k];
        let m = wp.mem as usize;
        let n = words(p.memories[m].width);
        let en = &arena[wp.en.off as usize..wp.en.off as usize + n];
        if en.iter().all(|&w| w == 0) {
            return;
        }
        let Some(row) = mem_row(p, arena, m, &wp.addr) else {
            return;
        };
        let data = &arena[wp.data.off as usize..wp.data.off as usize + n];
        let mut changed = false;
        for i in 0..n {
            let cell = &mut self.mems[m][row * n + i];
            let new = (*cell & !en[i]) | (data[i] & en[i]);
            changed |= new != *cell;
            *cell = new;
        }
        if changed {
            for &inst in &p.memories[m].readers {
                let w = (inst / 64) as usize;
                self.dirty[w] |= 1 << (inst % 64);
                self.dirty_lo = self.dirty_lo.min(w);
                self.dirty_hi = self.dirty_hi.max(w + 1);
            }
            let nregs = p.regs.len();
            for (rk, rd) in p.reads.iter().enumerate() {
                if rd.mem as usize == m {
                    self.is_pending[nregs + rk] = true;
                }
            }
            // Another port writing the same memory may overwrite what this one wrote.
            let first_write = nregs + p.reads.len();
            for (wk, other) in p.writes.iter().enumerate() {
                if other.mem as usize == m && wk != k {
                    self.is_pending[first_write + wk] = true;
                }
            }
        }
        // Transparent synchronous read ports at the same address see the new data.
        for (rk, rd) in p.reads.iter().enumerate() {
            if rd.posedge != wp.posedge
                || !rd.transparent.contains(&(k as u32))
                || arena[rd.en.off as usize] & 1 == 0
            {
                continue;
            }
            if rd.srst.as_ref().is_some_and(|(c, _)| active(arena, c)) {
                continue;
            }
            if mem_row(p, arena, m, &rd.addr) == Some(row) {
                let (narrow, idx) = self.read_slots[rk];
                if narrow {
                    let v = &mut self.stage1[idx as usize].2;
                    *v = (*v & !en[0]) | (data[0] & en[0]);
                } else {
                    let at = self.stage[idx as usize].1 as usize;
                    for i in 0..n {
                        let w = &mut self.stage_words[at + i];
                        *w = (*w & !en[i]) | (data[i] & en[i]);
                    }
                }
            }
        }
    }
}

/// Where a signal's readers are: its instructions as dirty-bitset words
/// (`fan_words[words_start..words_end]`, spanning words `lo..hi`) and its registers and read
/// ports (`p.reg_fanout[regs_start..regs_end]`).
#[derive(Clone, Copy, Debug)]
struct SigFanout {
    words_start: u32,
    words_end: u32,
    lo: u32,
    hi: u32,
    regs_start: u32,
    regs_end: u32,
}

/// Groups each signal's reading instructions by dirty-bitset word, so a change marks one word
/// per 64 readers in evaluation order instead of one bit per reader.
fn fanouts(p: &Program) -> (Vec<SigFanout>, Vec<(u32, u64)>) {
    let nsig = p.inst_fanout_start.len().saturating_sub(1);
    let mut fan = Vec::with_capacity(nsig);
    let mut words: Vec<(u32, u64)> = Vec::new();
    for sig in 0..nsig {
        let (s, e) = (
            p.inst_fanout_start[sig] as usize,
            p.inst_fanout_start[sig + 1] as usize,
        );
        let words_start = words.len() as u32;
        let (mut lo, mut hi) = (u32::MAX, 0);
        // The readers are sorted: instructions in the same word are neighbours.
        for &i in &p.inst_fanout[s..e] {
            let w = i / 64;
            lo = lo.min(w);
            hi = hi.max(w + 1);
            match words[words_start as usize..].last_mut() {
                Some((x, bits)) if *x == w => *bits |= 1 << (i % 64),
                _ => words.push((w, 1 << (i % 64))),
            }
        }
        fan.push(SigFanout {
            words_start,
            words_end: words.len() as u32,
            lo,
            hi,
            regs_start: p.reg_fanout_start[sig],
            regs_end: p.reg_fanout_start[sig + 1],
        });
    }
    (fan, words)
}

#[inline]
fn active(arena: &[u64], c: &crate::compile::Control) -> bool {
    (arena[c.sig.off as usize] & 1 == 1) == c.active_high
}

/// The memory row an address operand selects, if it is in range.
fn mem_row(p: &Program, arena: &[u64], m: usize, addr: &Operand) -> Option<usize> {
    let mem = &p.memories[m];
    if addr.width <= 64 {
        let a = arena[addr.off as usize] & mask(addr.width);
        let row = (a as i64).wrapping_sub(mem.offset);
        return (row >= 0 && row < i64::from(mem.size)).then_some(row as usize);
    }
    let mut a = [0u64];
    let aw = addr.width.min(64);
    ops::load(
        &mut a,
        &arena[addr.off as usize..addr.off as usize + addr.words()],
        addr.width,
        aw,
        false,
    );
    if addr.width > 64
        && arena[addr.off as usize + 1..addr.off as usize + addr.words()]
            .iter()
            .any(|&w| w != 0)
    {
        return None;
    }
    (a[0] as i64)
        .checked_sub(mem.offset)
        .filter(|r| *r >= 0 && *r < i64::from(mem.size))
        .map(|r| r as usize)
}

/// Per write port: whether some transparent read port sees its data.
fn write_feeds_read(p: &Program) -> Vec<bool> {
    let mut feeds = vec![false; p.writes.len()];
    for r in &p.reads {
        for &w in &r.transparent {
            if let Some(f) = feeds.get_mut(w as usize) {
                *f = true;
            }
        }
    }
    feeds
}

/// Compiles, splitting bitwise cells into bits while they form false loops (see
/// [`crate::split`]). Each round splits every cell on or between loops, so a loop that
/// remains after a round with nothing left to split is real; there are a handful of rounds
/// whatever the design's size.
fn compile_splitting_loops(
    module: &Module,
    clock: Option<&str>,
    limits: Limits,
) -> Result<Program, LoadError> {
    let mut current: Option<Module> = None;
    loop {
        let m = current.as_ref().unwrap_or(module);
        match compile(m, clock, limits) {
            Ok(p) => return Ok(p),
            Err(Failure::Load(e)) => return Err(e),
            Err(Failure::Loop { error, cells }) => match split_cells(m, &cells, limits)? {
                Some(next) => current = Some(next),
                None => return Err(error),
            },
        }
    }
}

/// Reads `len` (≤ 64) bits starting at bit `bit` of the value at arena word `off`.
#[inline]
fn extract(arena: &[u64], off: u32, bit: u32, len: u32) -> u64 {
    if len == 0 {
        return 0;
    }
    let w = off as usize + (bit / 64) as usize;
    let sh = bit % 64;
    let mut v = arena[w] >> sh;
    if sh != 0 && sh + len > 64 {
        v |= arena[w + 1] << (64 - sh);
    }
    v & mask(len)
}

/// The value of a `$bmux`/`$demux` select input `s` of `width` bits, as a part index (the
/// compiler bounds `S_WIDTH` to 24 bits).
fn selector(s: &[u64], width: u32) -> u32 {
    let mut sel = [0u64];
    ops::load(&mut sel, s, width, 64.min(width), false);
    sel[0] as u32
}

/// Copies `len` bits starting at bit `bit` of the value at `off` into `out` (from bit 0).
fn copy_bits(out: &mut [u64], arena: &[u64], off: u32, bit: u32, len: u32) {
    let mut done = 0;
    while done < len {
        let chunk = (len - done).min(64);
        let v = extract(arena, off, bit + done, chunk);
        let (w, sh) = ((done / 64) as usize, done % 64);
        out[w] |= v << sh;
        if sh != 0 && sh + chunk > 64 {
            out[w + 1] |= v >> (64 - sh);
        }
        done += chunk;
    }
}

fn run_gather(arena: &[u64], g: &Gather, out: &mut [u64]) {
    for s in &g.segments {
        let v = extract(arena, s.src_off, s.src_bit, s.len);
        let (w, sh) = ((s.dst_bit / 64) as usize, s.dst_bit % 64);
        out[w] |= v << sh;
        if sh != 0 && sh + s.len > 64 {
            out[w + 1] |= v >> (64 - sh);
        }
    }
}

/// Splits `NAME` or `NAME[BIT]`.
pub(crate) fn parse_pin_ref(s: &str) -> Result<(&str, Option<u32>), PinError> {
    match s.find('[') {
        None if !s.is_empty() => Ok((s, None)),
        None => Err(PinError::BadPinRef(s.to_string())),
        Some(open) => {
            let rest = &s[open + 1..];
            let bit = rest
                .strip_suffix(']')
                .and_then(|b| b.parse::<u32>().ok())
                .ok_or_else(|| PinError::BadPinRef(s.to_string()))?;
            if open == 0 {
                return Err(PinError::BadPinRef(s.to_string()));
            }
            Ok((&s[..open], Some(bit)))
        }
    }
}
