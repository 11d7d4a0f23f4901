//! `quadrille sim`: VCD output compared with Icarus Verilog's, the UART transactor, errors.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{assert_success, code, quadrille};

fn design(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../hdl-sim/tests/designs")
        .join(name)
}

/// Runs `quadrille sim <netlist> <args>` to completion.
fn sim(netlist: &Path, args: &[&str]) -> Output {
    quadrille(&["sim"])
        .arg(netlist)
        .args(args)
        .output()
        .expect("run quadrille")
}

/// Runs `quadrille sim <netlist> --cycles <cycles>` with a `--set` per entry of `sets`
/// (`PORT=VALUE`) and `--vcd` into a temporary file; asserts success and answers the VCD's text.
fn sim_vcd(netlist: &Path, cycles: u64, sets: &[&str]) -> String {
    let dir = testkit::scratch_dir("cli");
    let vcd = dir.path().join("sim.vcd");
    let cycles = cycles.to_string();
    let mut args = vec!["--cycles", &cycles, "--vcd", vcd.to_str().unwrap()];
    for set in sets {
        args.extend(["--set", set]);
    }
    assert_success(&sim(netlist, &args));
    std::fs::read_to_string(&vcd).unwrap()
}

/// A parsed VCD: per signal name (range suffix dropped), its changes as (time, bits).
fn parse_vcd(text: &str) -> BTreeMap<String, Vec<(u64, String)>> {
    let mut names: BTreeMap<String, String> = BTreeMap::new();
    let mut out: BTreeMap<String, Vec<(u64, String)>> = BTreeMap::new();
    let mut time = 0;
    let mut tokens = text.split_whitespace().peekable();
    while let Some(t) = tokens.next() {
        match t {
            "$var" => {
                let fields: Vec<&str> = tokens.by_ref().take_while(|t| *t != "$end").collect();
                // type width id name [range]
                names.insert(fields[2].to_string(), fields[3].to_string());
            }
            "$scope" | "$upscope" | "$enddefinitions" | "$timescale" | "$date" | "$version"
            | "$comment" => {
                for t in tokens.by_ref() {
                    if t == "$end" {
                        break;
                    }
                }
            }
            "$dumpvars" | "$end" | "$dumpall" | "$dumpon" | "$dumpoff" => {}
            _ if t.starts_with('#') => time = t[1..].parse().expect("time"),
            _ if t.starts_with('b') || t.starts_with('B') => {
                let id = tokens.next().expect("identifier");
                let name = &names[id];
                out.entry(name.clone())
                    .or_default()
                    .push((time, t[1..].to_lowercase()));
            }
            _ => {
                let (v, id) = t.split_at(1);
                let name = &names[id];
                out.entry(name.clone())
                    .or_default()
                    .push((time, v.to_lowercase()));
            }
        }
    }
    out
}

/// The value a signal holds at `time` (after that time's changes), as a bit string of `width`.
fn value_at(changes: &[(u64, String)], time: u64, width: usize) -> String {
    let v = changes
        .iter()
        .take_while(|(t, _)| *t <= time)
        .last()
        .map(|(_, v)| v.as_str())
        .unwrap_or("x");
    // VCD left-extends with 0, or with x/z when the leftmost bit is x/z.
    let fill = match v.chars().next() {
        Some('x') => 'x',
        Some('z') => 'z',
        _ => '0',
    };
    let pad: String = std::iter::repeat_n(fill, width.saturating_sub(v.len())).collect();
    pad + v
}

#[test]
fn vcd_matches_icarus_cycle_by_cycle() {
    if testkit::tool("iverilog").is_none() {
        return;
    }
    let cycles = 300;
    let ours = parse_vcd(&sim_vcd(&design("cpu.json"), cycles, &["din=0x1234"]));
    let dir = testkit::scratch_dir("cli");
    let tb = dir.path().join("tb.v");
    let theirs = dir.path().join("iv.vcd");
    std::fs::write(
        &tb,
        format!(
            "`timescale 1ns/1ns\nmodule tb;\n  reg clk = 0;\n  always #5 clk = ~clk;\n  reg rst = 0;\n  \
             reg [15:0] din = 16'h1234;\n  wire [15:0] dout;\n  wire [7:0] pc_out;\n  wire tx;\n  \
             cpu cpu (.clk(clk), .rst(rst), .din(din), .dout(dout), .pc_out(pc_out), .tx(tx));\n  \
             initial begin $dumpfile(\"{}\"); $dumpvars(1, cpu); #{} $finish; end\nendmodule\n",
            theirs.display(),
            10 * cycles
        ),
    )
    .unwrap();
    let vvp = dir.path().join("tb.vvp");
    let st = Command::new("iverilog")
        .arg("-o")
        .arg(&vvp)
        .arg(&tb)
        .arg(design("cpu.v"))
        .status()
        .unwrap();
    assert!(st.success());
    let st = Command::new("vvp").arg("-n").arg(&vvp).output().unwrap();
    assert!(st.status.success());
    let theirs = parse_vcd(&std::fs::read_to_string(&theirs).unwrap());
    let widths = [
        ("clk", 1),
        ("rst", 1),
        ("din", 16),
        ("dout", 16),
        ("pc_out", 8),
        ("tx", 1),
    ];
    assert_eq!(ours.keys().cloned().collect::<Vec<_>>(), {
        let mut v: Vec<String> = widths.iter().map(|(n, _)| n.to_string()).collect();
        v.sort();
        v
    });
    for k in 0..=2 * cycles {
        let t = 5 * k;
        for (name, w) in widths {
            let a = value_at(&ours[name], t, w);
            let b = value_at(&theirs[name], t, w);
            assert_eq!(a, b, "{name} at t={t}");
        }
    }
    // The clock toggles every 5 time units from low at t = 0.
    assert_eq!(
        &ours["clk"][..3],
        &[(0, "0".into()), (5, "1".into()), (10, "0".into())]
    );
}

#[test]
fn vcd_follows_the_documented_clock_convention() {
    let text = sim_vcd(&design("mem.json"), 5, &[]);
    assert!(text.contains("$timescale\n\t1ns\n$end"));
    assert!(text.contains("$scope module mem $end"));
    assert!(text.contains("$var wire 8 ") && text.contains(" cnt_async [7:0] $end"));
    let v = parse_vcd(&text);
    // cnt_async starts at 200 and counts down at each rising edge.
    for k in 0..5u64 {
        let expect = format!("{:08b}", 200 - (k + 1));
        assert_eq!(
            value_at(&v["cnt_async"], 10 * k + 5, 8),
            expect,
            "cycle {k}"
        );
        assert_eq!(value_at(&v["clk"], 10 * k + 5, 1), "1");
        assert_eq!(value_at(&v["clk"], 10 * k + 10, 1), "0");
    }
    let last_time = text.lines().rfind(|l| l.starts_with('#'));
    assert_eq!(last_time, Some("#50"), "the dump ends at t = 10N");
}

#[test]
fn uart_in_goes_through_the_transactor() {
    // The loop design echoes RX on TX: the decoded bytes are the sent ones, one frame
    // (10 bits of 434 cycles) apart.
    let out = sim(
        &design("loop.json"),
        &["--cycles", "30000", "--uart-in", r"w\x0a\n{}"],
    );
    assert_success(&out);
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 5, "{stdout}");
    let bytes: Vec<&str> = lines.iter().map(|l| l.split(' ').nth(1).unwrap()).collect();
    assert_eq!(bytes, ["0x77", "0x0a", "0x0a", "0x7b", "0x7d"]);
    let cycles: Vec<u64> = lines
        .iter()
        .map(|l| l.split(' ').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(cycles[1] - cycles[0], 4340);
}

#[test]
fn set_drives_inputs_and_rejects_unknown_ports() {
    let v = parse_vcd(&sim_vcd(&design("loop.json"), 4, &["KEY=0xf", "SW=3"]));
    assert_eq!(value_at(&v["LEDG"], 35, 8), "00001100");
    assert!(v.contains_key("CLOCK_50"), "the clock defaults to CLOCK_50");

    for (set, complaint) in [("NOPE=1", "NOPE"), ("SW=0x40000", "18 bits")] {
        let out = sim(&design("loop.json"), &["--set", set]);
        assert_eq!(code(&out), 2, "a usage error: {set}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(complaint), "{set}: {err}");
    }
}

#[test]
fn bad_netlists_are_reported_with_their_place() {
    let dir = testkit::scratch_dir("cli");
    let bad = dir.path().join("bad.json");
    std::fs::write(
        &bad,
        "{\"modules\": {\"m\": {\"cells\": {\"c\": {\"type\": \"$frob\"}}}}}",
    )
    .unwrap();
    let out = sim(&bad, &[]);
    assert_eq!(code(&out), 2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cell c") && err.contains("$frob"), "{err}");
}

/// Runs `quadrille sim` on the committed netlist of the test design `name` with each input of
/// `sets` held at its value, and Icarus Verilog on its Verilog with a testbench that does the
/// same (`initial clk = 0; always #5 clk = ~clk;`); asserts that the two VCDs agree on every
/// top-level port at t = 0 and after every edge. Returns our VCD; `None` (with a notice) when
/// iverilog is not installed.
fn assert_vcd_matches_icarus(
    name: &str,
    sets: &[(&str, u64)],
    cycles: u64,
) -> Option<BTreeMap<String, Vec<(u64, String)>>> {
    let module = hdl_sim::Module::from_json(
        &std::fs::read_to_string(design(&format!("{name}.json"))).unwrap(),
    )
    .unwrap();
    let set_args: Vec<String> = sets.iter().map(|(port, v)| format!("{port}={v}")).collect();
    let set_args: Vec<&str> = set_args.iter().map(String::as_str).collect();
    let ours = parse_vcd(&sim_vcd(
        &design(&format!("{name}.json")),
        cycles,
        &set_args,
    ));
    if testkit::tool("iverilog").is_none() {
        return Some(ours);
    }
    let clock = ["CLOCK_50", "clk"]
        .into_iter()
        .find(|c| module.ports.iter().any(|p| p.name == *c))
        .expect("a clock input");
    let mut tb = format!("`timescale 1ns/1ns\nmodule tb;\n  reg {clock};\n");
    tb += &format!("  initial {clock} = 0;\n  always #5 {clock} = ~{clock};\n");
    for p in module.ports.iter().filter(|p| p.name != clock) {
        let w = p.bits.len();
        let kind = match p.direction {
            hdl_sim::Direction::Output => "wire",
            _ => "reg",
        };
        let value = sets.iter().find(|(n, _)| *n == p.name).map_or(0, |s| s.1);
        let init = match p.direction {
            hdl_sim::Direction::Output => String::new(),
            _ => format!(" = {value}"),
        };
        tb += &format!("  {kind} [{}:0] {}{init};\n", w - 1, p.name);
    }
    let conns: Vec<String> = module
        .ports
        .iter()
        .map(|p| format!(".{0}({0})", p.name))
        .collect();
    let dir = testkit::scratch_dir("cli");
    let theirs_path = dir.path().join("iv.vcd");
    tb += &format!(
        "  {} dut ({});\n  initial begin $dumpfile(\"{}\"); $dumpvars(1, dut); #{} $finish; end\nendmodule\n",
        module.name,
        conns.join(", "),
        theirs_path.display(),
        10 * cycles
    );
    let tb_path = dir.path().join("tb.v");
    std::fs::write(&tb_path, tb).unwrap();
    let vvp = dir.path().join("tb.vvp");
    let st = Command::new("iverilog")
        .arg("-o")
        .arg(&vvp)
        .arg(&tb_path)
        .arg(design(&format!("{name}.v")))
        .status()
        .unwrap();
    assert!(st.success(), "iverilog failed on {name}");
    let st = Command::new("vvp").arg("-n").arg(&vvp).output().unwrap();
    assert!(st.status.success());
    let theirs = parse_vcd(&std::fs::read_to_string(&theirs_path).unwrap());
    for k in 0..=2 * cycles {
        let t = 5 * k;
        for p in &module.ports {
            let w = p.bits.len();
            let a = value_at(&ours[&p.name], t, w);
            let b = value_at(&theirs[&p.name], t, w);
            assert_eq!(a, b, "{name}: {} at t={t}", p.name);
        }
    }
    Some(ours)
}

#[test]
fn falling_edge_elements_update_when_the_clock_starts_low() {
    // The clock goes from x to 0 at t = 0: Icarus runs every @(negedge clk) block then.
    let ours = assert_vcd_matches_icarus("negedge", &[("step", 3)], 40).unwrap();
    assert_eq!(value_at(&ours["down"], 0, 8), format!("{:08b}", 100 - 3));
    assert_eq!(value_at(&ours["slot0"], 0, 8), format!("{:08b}", 7 + 3));
    assert_eq!(value_at(&ours["down"], 10, 8), format!("{:08b}", 100 - 6));
}

#[test]
fn set_takes_negative_values_in_twos_complement() {
    let v = parse_vcd(&sim_vcd(&design("negedge.json"), 1, &["step=-1"]));
    assert_eq!(value_at(&v["step"], 0, 4), "1111");
    assert_eq!(value_at(&v["down"], 0, 8), format!("{:08b}", 100 - 15));
    let out = sim(&design("negedge.json"), &["--set", "step=-9"]);
    assert_eq!(code(&out), 2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("step=-9") && err.contains("signed range"),
        "{err}"
    );
}

#[test]
fn power_signs_base_and_exponent_separately_like_icarus() {
    // u = 13, b = -1, c from -8 up to -1 (0 ** -1 is x): (-8) ** 13 = -2^39, so the low 8
    // bits are 0 and the wide result is sign-extended; 13 ** -1 = 0 and (-8) ** -1 = 0.
    let ours = assert_vcd_matches_icarus("pow", &[("u", 13), ("b", 15)], 7).unwrap();
    assert_eq!(value_at(&ours["signed_base"], 0, 8), "00000000");
    assert_eq!(
        value_at(&ours["wide_signed_base"], 0, 70),
        format!("{:070b}", (1u128 << 70) - (1u128 << 39))
    );
    // c = -7 after the first edge: (-7) ** 13 mod 256 = 25.
    assert_eq!(value_at(&ours["signed_base"], 5, 8), format!("{:08b}", 25));
    assert_eq!(value_at(&ours["unsigned_base"], 5, 8), "00000000");
}

#[test]
fn a_latch_is_rejected_as_a_latch() {
    let out = sim(&design("latch.json"), &[]);
    assert_eq!(code(&out), 2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("proc_dlatch") && err.contains("latch"),
        "{err}"
    );
    assert!(!err.contains("flatten"), "the netlist is flattened: {err}");
}

// ---- hostile netlists and arguments (issue 19) ---------------------------------------------

fn bad_netlist(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../hdl-sim/tests/bad")
        .join(name)
}

/// Runs `quadrille sim`, expects a usage error (exit 2, no panic) and answers its message.
fn refusal(netlist: &Path, args: &[&str]) -> String {
    let out = sim(netlist, args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(code(&out), 2, "{err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

#[test]
fn a_demux_whose_width_wraps_is_refused_before_it_runs() {
    let netlist = bad_netlist("demux_width_wraps.json");
    let err = refusal(&netlist, &["--set", "s=0xffffff", "--cycles", "2"]);
    assert_eq!(
        err,
        format!(
            "quadrille: {}: cell c ($demux): WIDTH 256 << S_WIDTH 24 is more than the 134217728 \
             bits a port may have\n",
            netlist.display()
        )
    );
}

#[test]
fn a_demux_fed_from_inputs_places_its_input_at_the_largest_select_value() {
    let dir = testkit::scratch_dir("cli");
    let netlist = dir.path().join("demux.json");
    let nets = |from: u32, n: u32| format!("{:?}", (from..from + n).collect::<Vec<_>>());
    std::fs::write(
        &netlist,
        format!(
            r#"{{"modules":{{"t":{{"ports":{{"a":{{"direction":"input","bits":{a}}},
            "s":{{"direction":"input","bits":{s}}},"y":{{"direction":"output","bits":{y}}}}},
            "cells":{{"c":{{"type":"$demux","parameters":{{"WIDTH":"10","S_WIDTH":"11"}},
            "connections":{{"A":{a},"S":{s},"Y":{y}}}}}}}}}}}}}"#,
            a = nets(2, 2),
            s = nets(4, 3),
            y = nets(7, 16)
        ),
    )
    .unwrap();
    let v = parse_vcd(&sim_vcd(&netlist, 1, &["s=7", "a=0b11"]));
    assert_eq!(value_at(&v["y"], 0, 16), "1100000000000000");
    let err = refusal(&netlist, &["--set", "s=8"]);
    assert!(
        err.contains("--set s=8: value does not fit in s, which is 3 bits wide"),
        "{err}"
    );
}

#[test]
fn four_billion_read_ports_are_refused_by_the_state_budget() {
    let netlist = bad_netlist("mem_read_ports.json");
    assert_eq!(
        refusal(&netlist, &[]),
        format!(
            "quadrille: {}: cell m: the design would need 32768.0 MiB of simulated state with \
             this cell, over the budget of 256 MiB\n",
            netlist.display()
        )
    );
}

#[test]
fn max_state_mib_sets_the_budget() {
    let netlist = bad_netlist("mem_2_mib.json");
    assert_success(&sim(&netlist, &["--cycles", "2"]));
    let err = refusal(&netlist, &["--max-state-mib", "1"]);
    assert!(
        err.contains("cell m: the design would need 2.0 MiB of simulated state")
            && err.ends_with("over the budget of 1 MiB\n"),
        "{err}"
    );
}

#[test]
fn the_clock_cannot_be_driven_through_uart_rx_either() {
    let netlist = design("loop.json");
    let err = refusal(&netlist, &["--uart-in", "a", "--uart-rx", "CLOCK_50"]);
    assert_eq!(
        err,
        "quadrille: --uart-rx CLOCK_50: CLOCK_50 is the clock, which the simulator drives\n"
    );
    let err = refusal(&netlist, &["--set", "CLOCK_50=1"]);
    assert_eq!(
        err,
        "quadrille: --set CLOCK_50=1: CLOCK_50 is the clock, which the simulator drives\n"
    );
}

#[test]
fn a_failed_vcd_write_names_the_file() {
    if !Path::new("/dev/full").exists() {
        eprintln!("no /dev/full here: skipped");
        return;
    }
    let err = refusal(
        &design("loop.json"),
        &["--cycles", "3", "--vcd", "/dev/full"],
    );
    // A note that --vcd runs the interpreter may come first; the error is the last line.
    assert!(
        err.lines()
            .last()
            .is_some_and(|l| l.starts_with("quadrille: cannot write /dev/full: ")),
        "{err}"
    );
}

#[test]
fn a_netlist_that_is_not_utf8_is_refused_with_the_byte_offset() {
    let dir = testkit::scratch_dir("cli");
    let netlist = dir.path().join("bin.json");
    std::fs::write(&netlist, b"{\"modules\": \xff}").unwrap();
    assert_eq!(
        refusal(&netlist, &[]),
        format!(
            "quadrille: {}: not UTF-8 text: invalid byte at offset 12\n",
            netlist.display()
        )
    );
}

#[test]
fn a_zero_baud_rate_or_clock_is_refused() {
    for flag in ["--baud", "--clock-hz"] {
        let out = sim(&design("loop.json"), &[flag, "0", "--uart-in", "a"]);
        assert_eq!(code(&out), 2, "{flag} 0");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(flag) && err.contains("0"), "{err}");
    }
}

#[test]
fn set_quotes_at_most_sixty_characters_and_names_the_bad_digit() {
    let long = format!("SW={}", "9".repeat(10_000));
    let err = refusal(&design("loop.json"), &["--set", &long]);
    assert!(
        err.starts_with(&format!(
            "quadrille: --set SW={}... (9943 more characters): ",
            "9".repeat(57)
        )),
        "{}",
        &err[..err.len().min(300)]
    );
    assert!(err.len() < 300, "{} bytes", err.len());
    let err = refusal(&design("loop.json"), &["--set", "SW=0x1g"]);
    assert_eq!(
        err,
        "quadrille: --set SW=0x1g: 'g' (character 4) is not a base-16 digit\n"
    );
}

/// The JSON figures `--json` prints as the last line of stdout, and the lines before it.
fn json_run(netlist: &Path, args: &[&str]) -> (serde_json::Value, Vec<String>, String) {
    let mut all = args.to_vec();
    all.push("--json");
    let out = sim(netlist, &all);
    assert_success(&out);
    let stdout = String::from_utf8(out.stdout).unwrap();
    let mut lines: Vec<String> = stdout.lines().map(str::to_string).collect();
    let last = lines.pop().expect("a JSON line");
    let figures: serde_json::Value = serde_json::from_str(&last).expect("JSON");
    (figures, lines, String::from_utf8(out.stderr).unwrap())
}

#[test]
fn the_compiled_back_end_is_the_default_and_matches_the_interpreter() {
    let args = ["--cycles", "30000", "--uart-in", r"w\x0a\n{}"];
    let (compiled, bytes, err) = json_run(&design("loop.json"), &args);
    assert_eq!(compiled["backend"], "compiled", "{err}");
    assert_eq!(compiled["cycles"], 30000);
    assert!(compiled["seconds"].as_f64().expect("seconds") > 0.0);
    assert!(!err.contains("note:"), "{err}");
    let mut with_flag = args.to_vec();
    with_flag.push("--interpret");
    let (interpreted, reference, _) = json_run(&design("loop.json"), &with_flag);
    assert_eq!(interpreted["backend"], "interpreted");
    assert_eq!(bytes.len(), 5, "{bytes:?}");
    assert_eq!(bytes, reference, "the same bytes at the same cycles");
}

#[test]
fn a_run_ends_with_its_speed_on_stderr() {
    let out = sim(&design("cpu.json"), &["--cycles", "1000", "--set", "din=5"]);
    assert_success(&out);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("1000 cycles in ") && err.contains("cycles/s (compiled)"),
        "{err}"
    );
    assert!(out.stdout.is_empty(), "figures go to stderr without --json");
}

#[test]
fn a_design_the_compiler_does_not_cover_falls_back_to_the_interpreter_and_says_so() {
    // pow.json has a 70-bit result.
    let (figures, _, err) = json_run(&design("pow.json"), &["--cycles", "5"]);
    assert_eq!(figures["backend"], "interpreted");
    assert!(
        err.contains("note: the interpreter runs this design") && err.contains("not compiled"),
        "{err}"
    );
    // A VCD needs the interpreter too.
    let dir = testkit::scratch_dir("cli");
    let vcd = dir.path().join("x.vcd");
    let (figures, _, err) = json_run(
        &design("loop.json"),
        &["--cycles", "5", "--vcd", vcd.to_str().unwrap()],
    );
    assert_eq!(figures["backend"], "interpreted");
    assert!(err.contains("--vcd"), "{err}");
}
