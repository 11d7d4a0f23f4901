//! Value Change Dump output of chosen signals.
//!
//! The layout follows what Icarus Verilog's `$dumpvars` writes, so that the two dumps of one
//! design can be compared line for line after the header: one `$scope module TOP` holding a
//! `$var wire N id name [msb:lsb] $end` per signal, `#0` with a `$dumpvars` block of every
//! value, then `#t` blocks listing only the values that changed. Multi-bit values are written
//! in binary without leading zeros (`b1010 id`), as Icarus does; one-bit values as `0id`.

use std::fmt::Write as _;
use std::io;

use crate::sim::{Probe, Simulator};

/// Time units per clock cycle in the dumps this crate writes: the clock is low at `10k`, rises
/// at `10k + 5` and falls at `10k + 10` for cycle `k` (`timescale 1ns`, a 100 MHz-looking clock,
/// as an Icarus testbench with `always #5 clk = ~clk` would dump it).
pub const TIME_PER_CYCLE: u64 = 10;

/// One signal in a dump.
#[derive(Clone, Debug)]
pub struct VcdSignal {
    pub probe: Probe,
    /// Name in the dump, with its range suffix already applied (e.g. `count [7:0]`).
    pub label: String,
}

impl VcdSignal {
    /// A signal named after its probe, with a `[msb:lsb]` range when wider than one bit.
    pub fn new(probe: Probe) -> VcdSignal {
        let label = if probe.width() == 1 {
            probe.name().to_string()
        } else {
            format!("{} [{}:0]", probe.name(), probe.width() - 1)
        };
        VcdSignal { probe, label }
    }

    /// Same, with the declared range of a port (`offset` = index of the LSB, `upto` = `[0:7]`).
    pub fn with_range(probe: Probe, offset: i64, upto: bool) -> VcdSignal {
        let w = i64::from(probe.width());
        let label = if w == 1 && offset == 0 {
            probe.name().to_string()
        } else if upto {
            format!("{} [{}:{}]", probe.name(), offset, offset + w - 1)
        } else {
            format!("{} [{}:{}]", probe.name(), offset + w - 1, offset)
        };
        VcdSignal { probe, label }
    }
}

/// Writes a VCD incrementally: [`VcdWriter::sample`] at each time point.
pub struct VcdWriter<W: io::Write> {
    out: W,
    signals: Vec<VcdSignal>,
    ids: Vec<String>,
    last: Vec<Option<Vec<u64>>>,
    line: String,
    /// The last `#time` written.
    written: Option<u64>,
}

impl<W: io::Write> VcdWriter<W> {
    /// Writes the header. `timescale` is e.g. `"1ns"`; `scope` is the module name.
    pub fn new(
        mut out: W,
        scope: &str,
        timescale: &str,
        signals: Vec<VcdSignal>,
    ) -> io::Result<Self> {
        writeln!(out, "$date\n\tquadrille sim\n$end")?;
        writeln!(
            out,
            "$version\n\thdl-sim {}\n$end",
            env!("CARGO_PKG_VERSION")
        )?;
        writeln!(out, "$timescale\n\t{timescale}\n$end")?;
        writeln!(out, "$scope module {scope} $end")?;
        let ids: Vec<String> = (0..signals.len()).map(identifier).collect();
        for (s, id) in signals.iter().zip(&ids) {
            writeln!(out, "$var wire {} {} {} $end", s.probe.width(), id, s.label)?;
        }
        writeln!(out, "$upscope $end\n$enddefinitions $end")?;
        let n = signals.len();
        Ok(VcdWriter {
            out,
            signals,
            ids,
            last: vec![None; n],
            line: String::new(),
            written: None,
        })
    }

    /// Records the values at `time`: everything at the first call, the changes afterwards (a
    /// time with no change writes nothing).
    pub fn sample(&mut self, time: u64, sim: &Simulator) -> io::Result<()> {
        let first = self.last.iter().all(Option::is_none);
        self.line.clear();
        for (k, s) in self.signals.iter().enumerate() {
            let v = sim.get_wide(&s.probe);
            if self.last[k].as_ref() == Some(&v) {
                continue;
            }
            let w = s.probe.width();
            if w == 1 {
                let _ = writeln!(self.line, "{}{}", v[0] & 1, self.ids[k]);
            } else {
                // Leading zeros dropped, as Icarus writes them (`b101`, `b0`).
                self.line.push('b');
                let bit = |i: u32| (v[(i / 64) as usize] >> (i % 64)) & 1 == 1;
                let top = (0..w).rev().find(|&i| bit(i)).unwrap_or(0);
                for i in (0..=top).rev() {
                    self.line.push(if bit(i) { '1' } else { '0' });
                }
                let _ = writeln!(self.line, " {}", self.ids[k]);
            }
            self.last[k] = Some(v);
        }
        if self.line.is_empty() {
            return Ok(());
        }
        self.written = Some(time);
        if first {
            write!(self.out, "#{time}\n$dumpvars\n{}$end\n", self.line)
        } else {
            write!(self.out, "#{time}\n{}", self.line)
        }
    }

    /// Runs one clock cycle of `sim` and records both its edges: for cycle `k`, the rise at
    /// `10k + 5` and the fall at `10k + 10` (see [`TIME_PER_CYCLE`]). The clock loop of every dump
    /// this crate and the CLI write, so they all keep the same times.
    pub fn dump_cycle(&mut self, sim: &mut Simulator) -> io::Result<()> {
        let k = sim.cycle();
        sim.half_step(true);
        self.sample(TIME_PER_CYCLE * k + TIME_PER_CYCLE / 2, sim)?;
        sim.half_step(false);
        self.sample(TIME_PER_CYCLE * (k + 1), sim)
    }

    /// Ends the dump at `time` and returns the writer.
    pub fn finish(mut self, time: u64) -> io::Result<W> {
        if self.written != Some(time) {
            writeln!(self.out, "#{time}")?;
        }
        self.out.flush()?;
        Ok(self.out)
    }
}

/// Every top-level port with its declared range, then every named wire that is not a port
/// (yosys' internal `$`-names left out).
pub fn all_signals(sim: &Simulator) -> Vec<VcdSignal> {
    let ports = sim.ports();
    let mut out: Vec<VcdSignal> = ports
        .iter()
        .filter_map(|p| {
            sim.probe(&p.name)
                .ok()
                .map(|pr| VcdSignal::with_range(pr, p.offset, p.upto))
        })
        .collect();
    for name in sim.wire_names() {
        if !ports.iter().any(|p| p.name == name)
            && let Ok(pr) = sim.probe(name)
        {
            out.push(VcdSignal::new(pr));
        }
    }
    out
}

/// Runs `skip` cycles without recording, then `cycles` cycles dumping `signals` at every clock
/// edge (see [`TIME_PER_CYCLE`]; times count from the simulator's cycle 0). Returns the writer.
pub fn dump_window<W: io::Write>(
    sim: &mut Simulator,
    signals: Vec<VcdSignal>,
    skip: u64,
    cycles: u64,
    out: W,
) -> io::Result<W> {
    sim.run(skip);
    let top = sim.top().to_string();
    let mut vcd = VcdWriter::new(out, &top, "1ns", signals)?;
    vcd.sample(TIME_PER_CYCLE * sim.cycle(), sim)?;
    for _ in 0..cycles {
        vcd.dump_cycle(sim)?;
    }
    vcd.finish(TIME_PER_CYCLE * sim.cycle())
}

/// VCD identifiers: printable ASCII from `!`, base 94, as most writers do.
fn identifier(mut n: usize) -> String {
    let mut s = String::new();
    loop {
        s.push((b'!' + (n % 94) as u8) as char);
        n /= 94;
        if n == 0 {
            break;
        }
        n -= 1;
    }
    s
}

#[cfg(test)]
mod tests {
    use super::identifier;

    #[test]
    fn identifiers_are_distinct_and_printable() {
        let ids: Vec<String> = (0..10_000).map(identifier).collect();
        let set: std::collections::HashSet<&String> = ids.iter().collect();
        assert_eq!(set.len(), ids.len());
        assert!(
            ids.iter()
                .all(|s| s.bytes().all(|b| (b'!'..=b'~').contains(&b)))
        );
        assert_eq!(ids[0], "!");
        assert_eq!(ids[94], "!!");
    }
}
