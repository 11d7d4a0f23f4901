//! `quadrille sim`: drive a netlist's clock and dump its ports to VCD.

use std::fs::File;
use std::io::{BufWriter, Write as _};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, bail};
// The VCD's times are hdl-sim's (`TIME_PER_CYCLE`), chosen to line up with an Icarus Verilog
// testbench that does `initial clk = 0; always #5 clk = ~clk;` under `timescale 1ns`.
use hdl_sim::wasm::{Compiled, CompiledError, Options, UartLink};
use hdl_sim::{
    Direction, Limits, Module, Simulator, StampedByte, TIME_PER_CYCLE, UartConfig, UartDriver,
    UartMonitor, VcdSignal, VcdWriter,
};

#[derive(clap::Args)]
#[command(after_help = "\
Simulation: the netlist starts in its initial state (`init` values and memory INIT; every other \
bit, and every x or z bit, is 0). Inputs are 0 unless set with --set; the UART receive pin idles \
high when --uart-in is given. At t = 0 the clock goes from x to 0, which Verilog counts as a falling \
edge: negedge elements update once. Cycle k (k = 0..N-1) is the clock's rising edge at t = 10k+5 \
and its falling edge at t = 10k+10.

VCD: timescale 1ns; the clock is low at t = 0 and has a period of 10 (rising edges at 5, 15, 25, \
...); the dump holds the clock and every top-level port under its own name inside \
`$scope module TOP`, with all values at #0 and then the changes at each edge, ending at t = 10N. \
This is what Icarus Verilog's $dumpvars writes for a testbench driving the same design with \
`initial clk = 0; always #5 clk = ~clk;` under `timescale 1ns/1ns`.

--uart-in BYTES: bytes with C escapes (\\n \\r \\t \\0 \\\\ \\xHH), e.g. 'w\\x08\\nl\\x0a\\ncr\\n{}\\n'. \
They are sent back to back on the receive pin from cycle 0. Bytes the design sends on its transmit \
pin are printed on stdout, one per line: `CYCLE 0xHH 'c'`.

Back ends: the design runs compiled to machine code (through WebAssembly) unless --interpret is \
given, --vcd is given (a VCD needs the values between edges, which only the interpreter shows), or \
the netlist has something the compiler does not cover yet (a note on stderr says so). Both give the \
same values on every cycle. At the end, the speed goes to stderr (`N cycles in S s: R cycles/s \
(BACKEND)`), or with --json to stdout as `{"cycles":N,"seconds":S,"backend":"compiled"}` (or \
"interpreted"); S counts the cycles only, not loading or compiling.")]
pub struct Args {
    /// The yosys JSON netlist (flattened with hdl/netlist.sh).
    netlist: PathBuf,
    /// Clock input [default: CLOCK_50 if the design has it, else clk].
    #[arg(long, value_name = "NAME")]
    clock: Option<String>,
    /// Clock cycles to run.
    #[arg(long, default_value_t = 100, value_name = "N")]
    cycles: u64,
    /// Hold an input at a value: `PORT=VALUE` or `PORT[BIT]=VALUE`; decimal, 0x…, 0b… or 0o…, a
    /// leading - for a negative value in two's complement.
    #[arg(long = "set", value_name = "PORT=VALUE")]
    sets: Vec<String>,
    /// Write a VCD of the clock and every top-level port.
    #[arg(long, value_name = "OUT.vcd")]
    vcd: Option<PathBuf>,
    /// Send these bytes on the UART receive pin (C escapes, see below).
    #[arg(long, value_name = "BYTES")]
    uart_in: Option<String>,
    /// UART receive input [default: UART_RXD, else rx].
    #[arg(long, value_name = "PIN")]
    uart_rx: Option<String>,
    /// UART transmit output to decode [default: UART_TXD, else tx].
    #[arg(long, value_name = "PIN")]
    uart_tx: Option<String>,
    /// Clock frequency, for the UART bit timing.
    #[arg(long, default_value_t = 50_000_000, value_name = "HZ",
          value_parser = clap::value_parser!(u64).range(1..))]
    clock_hz: u64,
    /// UART baud rate.
    #[arg(long, default_value_t = 115_200, value_parser = clap::value_parser!(u64).range(1..))]
    baud: u64,
    /// UART stop bits.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=2))]
    stop_bits: u8,
    /// Refuse a netlist whose simulated state (signals and memories) would take more than this
    /// many MiB.
    #[arg(long, default_value_t = Limits::DEFAULT_STATE_MIB, value_name = "MIB")]
    max_state_mib: u64,
    /// Run the interpreter (hdl-sim's reference) instead of the compiled back end.
    #[arg(long)]
    interpret: bool,
    /// Print the run's figures as one JSON object on stdout (see below).
    #[arg(long)]
    json: bool,
}

/// Which back end ran the cycles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Backend {
    Compiled,
    Interpreted,
}

impl Backend {
    fn name(self) -> &'static str {
        match self {
            Backend::Compiled => "compiled",
            Backend::Interpreted => "interpreted",
        }
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let bytes = std::fs::read(&args.netlist)
        .with_context(|| format!("cannot read {}", args.netlist.display()))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "{}: not UTF-8 text: invalid byte at offset {}",
            args.netlist.display(),
            e.utf8_error().valid_up_to()
        )
    })?;
    let module = Module::from_json(&text).with_context(|| format!("{}", args.netlist.display()))?;
    let has_input = |name: &str| {
        module
            .ports
            .iter()
            .any(|p| p.name == name && p.direction != Direction::Output)
    };
    let clock = match &args.clock {
        Some(c) => Some(c.clone()),
        None => ["CLOCK_50", "clk"]
            .iter()
            .find(|c| has_input(c))
            .map(|c| c.to_string()),
    };
    let limits = Limits::with_state_mib(args.max_state_mib);
    let mut sim = Simulator::with_limits(&module, clock.as_deref(), limits)
        .with_context(|| format!("{}", args.netlist.display()))?;

    let uart = UartConfig::new(args.clock_hz, args.baud).with_stop_bits(args.stop_bits);
    let mut driver = None;
    if let Some(spec) = &args.uart_in {
        let bytes = parse_escapes(spec).context("--uart-in")?;
        let name = pick(&args.uart_rx, &["UART_RXD", "rx"], |n| has_input(n))
            .context("--uart-in: no UART receive input (name it with --uart-rx)")?;
        let pin = sim
            .input(&name)
            .with_context(|| format!("--uart-rx {name}"))?;
        if sim.is_clock(pin) {
            bail!("--uart-rx {name}: {name} is the clock, which the simulator drives");
        }
        sim.set(pin, 1)?;
        let mut d = UartDriver::new(uart);
        d.send(&bytes);
        driver = Some((pin, d));
    }
    for full in &args.sets {
        // The argument as messages quote it: at most 60 characters.
        let s = &quoted(full);
        let (name, value) = full
            .split_once('=')
            .with_context(|| format!("--set {s}: expected PORT=VALUE"))?;
        let pin = sim.input(name).with_context(|| format!("--set {s}"))?;
        if sim.is_clock(pin) {
            bail!("--set {s}: {name} is the clock, which the simulator drives");
        }
        let words =
            parse_input_value(value, sim.input_width(pin)).with_context(|| format!("--set {s}"))?;
        sim.set_wide(pin, &words)
            .with_context(|| format!("--set {s}"))?;
    }
    let has_output = |name: &str| {
        module
            .ports
            .iter()
            .any(|p| p.name == name && p.direction == Direction::Output)
    };
    let monitor = if args.uart_in.is_some() || args.uart_tx.is_some() {
        match pick(&args.uart_tx, &["UART_TXD", "tx"], |n| has_output(n)) {
            Some(name) => Some((
                sim.probe(&name)
                    .with_context(|| format!("--uart-tx {name}"))?,
                UartMonitor::new(uart),
            )),
            None if args.uart_tx.is_some() => bail!("--uart-tx: no such output"),
            None => None,
        }
    } else {
        None
    };

    // Every write to the VCD names the file when it fails (a full disk, a closed pipe).
    let vcd_context = || match &args.vcd {
        Some(path) => format!("cannot write {}", path.display()),
        None => String::new(),
    };
    let mut vcd = match &args.vcd {
        Some(path) => {
            let file =
                File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
            let signals = sim
                .ports()
                .into_iter()
                .map(|p| Ok(VcdSignal::with_range(sim.probe(&p.name)?, p.offset, p.upto)))
                .collect::<Result<Vec<_>, hdl_sim::PinError>>()?;
            Some(
                VcdWriter::new(BufWriter::new(file), sim.top(), "1ns", signals)
                    .with_context(vcd_context)?,
            )
        }
        None => None,
    };

    let mut compiled = None;
    if !args.interpret {
        let watched: Vec<_> = monitor.iter().map(|(probe, _)| probe).collect();
        let why = if args.vcd.is_some() {
            Some("--vcd shows the values between edges, which only the interpreter keeps".into())
        } else {
            match Compiled::with_options(&sim, &Options::default().watching(&watched)) {
                Ok(c) => {
                    compiled = Some(c);
                    None
                }
                Err(CompiledError::Unsupported(why)) => Some(why.to_string()),
                Err(e) => Some(e.to_string()),
            }
        };
        if let Some(why) = why {
            eprintln!("note: the interpreter runs this design: {why}");
        }
    }
    let backend = if compiled.is_some() {
        Backend::Compiled
    } else {
        Backend::Interpreted
    };

    let mut out = crate::out::line();
    let mut monitor = monitor;
    let mut rx_level = true;
    let started = Instant::now();
    // The interpreter runs every cycle here; with the compiled back end only the first (the
    // initial falling edge and the VCD's first sample happen there), then the rest below.
    let first = if compiled.is_some() {
        args.cycles.min(1)
    } else {
        args.cycles
    };
    for k in 0..first {
        if let Some((pin, d)) = &mut driver {
            let level = d.next_level();
            if level != rx_level {
                rx_level = level;
                sim.set(*pin, u64::from(level))?;
            }
        }
        if k == 0 {
            sim.initial_falling_edge();
            if let Some(v) = &mut vcd {
                v.sample(0, &sim).with_context(vcd_context)?;
            }
        }
        if let Some((probe, m)) = &mut monitor
            && let Some(b) = m.sample(sim.get(probe) & 1 == 1, k)
        {
            print_byte(&mut out, &b)?;
        }
        match &mut vcd {
            Some(v) => v.dump_cycle(&mut sim).with_context(vcd_context)?,
            None => sim.step(),
        }
    }
    if let Some(c) = &mut compiled {
        let link = UartLink {
            rx: driver.as_mut().map(|(pin, d)| (*pin, d, &mut rx_level)),
            tx: monitor.as_mut().map(|(probe, m)| (&*probe, m)),
        };
        let mut failed = Ok(());
        c.run_uart(&mut sim, link, args.cycles - first, false, |b| {
            if failed.is_ok() {
                failed = print_byte(&mut out, &b);
            }
        })
        .context("the compiled back end")?;
        failed?;
    }
    let seconds = started.elapsed().as_secs_f64();
    if args.cycles == 0 {
        sim.initial_falling_edge();
        if let Some(v) = &mut vcd {
            v.sample(0, &sim).with_context(vcd_context)?;
        }
    }
    if let Some(v) = vcd {
        v.finish(TIME_PER_CYCLE * args.cycles)
            .with_context(vcd_context)?;
    }
    if args.json {
        // In the documented order (a JSON map would sort the keys).
        writeln!(
            out,
            "{{\"cycles\":{},\"seconds\":{},\"backend\":\"{}\"}}",
            args.cycles,
            serde_json::Value::from(seconds),
            backend.name()
        )?;
    } else {
        eprintln!(
            "{} cycles in {seconds:.3} s: {:.0} cycles/s ({})",
            args.cycles,
            args.cycles as f64 / seconds.max(1e-9),
            backend.name()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints a byte the design sent: `CYCLE 0xHH 'c'`, flagged when its stop bit was low.
fn print_byte(out: &mut impl std::io::Write, b: &StampedByte) -> std::io::Result<()> {
    let shown = if b.byte.is_ascii_graphic() || b.byte == b' ' {
        format!("'{}'", b.byte as char)
    } else {
        format!("'\\x{:02x}'", b.byte)
    };
    let flag = if b.framing_error {
        " framing-error"
    } else {
        ""
    };
    writeln!(out, "{} 0x{:02x} {shown}{flag}", b.cycle, b.byte)
}

/// The explicitly named pin, else the first default the design has.
fn pick(
    explicit: &Option<String>,
    defaults: &[&str],
    exists: impl Fn(&str) -> bool,
) -> Option<String> {
    match explicit {
        Some(n) => Some(n.clone()),
        None => defaults.iter().find(|n| exists(n)).map(|n| n.to_string()),
    }
}

/// `s` cut to 60 characters for a message, saying how many more there were.
fn quoted(s: &str) -> String {
    const SHOWN: usize = 60;
    match s.char_indices().nth(SHOWN) {
        None => s.to_string(),
        Some((cut, _)) => {
            let more = s[cut..].chars().count();
            let unit = if more == 1 { "character" } else { "characters" };
            format!("{}... ({more} more {unit})", &s[..cut])
        }
    }
}

/// Parses C-style escapes: `\n \r \t \0 \\ \' \" \xHH`; other bytes stand for themselves.
fn parse_escapes(s: &str) -> anyhow::Result<Vec<u8>> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b != b'\\' {
            out.push(b);
            i += 1;
            continue;
        }
        let Some(&e) = bytes.get(i + 1) else {
            bail!("byte {i}: a lone backslash ends the string")
        };
        i += 2;
        out.push(match e {
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'0' => 0,
            b'\\' => b'\\',
            b'\'' => b'\'',
            b'"' => b'"',
            b'x' => {
                let hex = bytes
                    .get(i..i + 2)
                    .and_then(|h| std::str::from_utf8(h).ok());
                let v = hex
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .with_context(|| format!("byte {}: \\x needs two hex digits", i - 2))?;
                i += 2;
                v
            }
            other => bail!("byte {}: unknown escape \\{}", i - 2, other as char),
        });
    }
    Ok(out)
}

/// Parses the value of an input `width` bits wide: a number (see [`parse_value`]), or `-` and a
/// number, which is stored in two's complement and must lie in the port's signed range (for 8
/// bits, -128 to -1), as `8'sd-5`-style stimuli of a Verilog testbench do.
fn parse_input_value(s: &str, width: u32) -> anyhow::Result<Vec<u64>> {
    let Some(magnitude) = s.trim().strip_prefix('-') else {
        return parse_value(s);
    };
    let m = parse_value(magnitude)?;
    let bit = |i: u32| {
        m.get((i / 64) as usize)
            .is_some_and(|w| (w >> (i % 64)) & 1 == 1)
    };
    let top = (0..64 * m.len() as u32).rev().find(|&i| bit(i));
    let fits = match top {
        None => true,
        Some(t) => t + 1 < width || (t + 1 == width && (0..t).all(|i| !bit(i))),
    };
    if !fits {
        let unit = if width == 1 { "bit" } else { "bits" };
        bail!("-{magnitude} is below the signed range of {width} {unit}");
    }
    // -m = !m + 1, cut to `width` bits.
    let n = (width as usize).div_ceil(64).max(1);
    let mut out: Vec<u64> = (0..n).map(|i| !m.get(i).copied().unwrap_or(0)).collect();
    for w in out.iter_mut() {
        let (v, carry) = w.overflowing_add(1);
        *w = v;
        if !carry {
            break;
        }
    }
    if !width.is_multiple_of(64) {
        out[n - 1] &= (1u64 << (width % 64)) - 1;
    }
    Ok(out)
}

/// Parses a value of any width into little-endian words.
fn parse_value(s: &str) -> anyhow::Result<Vec<u64>> {
    let s = s.trim();
    let (digits, radix, prefix) = match s.get(..2) {
        Some("0x") | Some("0X") => (&s[2..], 16u32, 2),
        Some("0b") | Some("0B") => (&s[2..], 2, 2),
        Some("0o") | Some("0O") => (&s[2..], 8, 2),
        _ => (s, 10, 0),
    };
    if !digits.chars().any(|c| c != '_') {
        bail!("empty value");
    }
    let mut words: Vec<u64> = vec![0];
    for (i, c) in digits.chars().enumerate().filter(|(_, c)| *c != '_') {
        let d = c.to_digit(radix).with_context(|| {
            format!(
                "{c:?} (character {}) is not a base-{radix} digit",
                prefix + i + 1
            )
        })?;
        // words = words * radix + d
        let mut carry = u128::from(d);
        for w in words.iter_mut() {
            let t = u128::from(*w) * u128::from(radix) + carry;
            *w = t as u64;
            carry = t >> 64;
        }
        if carry != 0 {
            words.push(carry as u64);
        }
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes() {
        assert_eq!(
            parse_escapes(r"w\x08\nl\x0a\ncr\n{}\n").unwrap(),
            b"w\x08\nl\x0a\ncr\n{}\n"
        );
        assert!(
            parse_escapes(r"\q")
                .unwrap_err()
                .to_string()
                .contains("byte 0")
        );
        assert!(parse_escapes(r"ab\x4").is_err());
        assert!(parse_escapes("ab\\").is_err());
    }

    #[test]
    fn values() {
        assert_eq!(parse_value("42").unwrap(), vec![42]);
        assert_eq!(parse_value("0xff_ff").unwrap(), vec![0xffff]);
        assert_eq!(parse_value("0b101").unwrap(), vec![5]);
        assert_eq!(parse_value("0x1_0000_0000_0000_0000").unwrap(), vec![0, 1]);
        assert!(parse_value("0x").is_err());
        assert!(parse_value("0x__").is_err());
        assert_eq!(
            parse_value("12a").unwrap_err().to_string(),
            "'a' (character 3) is not a base-10 digit"
        );
        assert_eq!(
            parse_value("0b1_0_2").unwrap_err().to_string(),
            "'2' (character 7) is not a base-2 digit"
        );
        assert_eq!(
            quoted(&"v".repeat(61)),
            format!("{}... (1 more character)", "v".repeat(60))
        );
    }

    #[test]
    fn negative_values_are_twos_complement_in_the_port_width() {
        assert_eq!(parse_input_value("-1", 4).unwrap(), vec![0xf]);
        assert_eq!(parse_input_value("-8", 4).unwrap(), vec![0x8]);
        assert_eq!(parse_input_value("-0x3", 8).unwrap(), vec![0xfd]);
        assert_eq!(parse_input_value("-0", 8).unwrap(), vec![0]);
        assert_eq!(parse_input_value("-1", 64).unwrap(), vec![u64::MAX]);
        assert_eq!(parse_input_value("-2", 65).unwrap(), vec![u64::MAX - 1, 1]);
        assert_eq!(
            parse_input_value("-0x1_0000_0000_0000_0000", 65).unwrap(),
            vec![0, 1]
        );
        assert_eq!(parse_input_value("-1", 1).unwrap(), vec![1]);
        assert_eq!(parse_input_value("5", 4).unwrap(), vec![5]);
        for (v, w) in [("-9", 4), ("-2", 1), ("-0x1_0000_0000_0000_0001", 65)] {
            let err = parse_input_value(v, w).unwrap_err().to_string();
            assert!(err.contains("signed range"), "{v} in {w} bits: {err}");
        }
        assert!(parse_input_value("-", 8).is_err());
        assert!(parse_input_value("--1", 8).is_err());
    }
}
