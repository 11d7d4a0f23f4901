//! `quadrille contest` end to end, with tiny script pilots (spec §7, §8).

#![cfg(unix)]

mod common;
mod wasm;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::{Duration, Instant};

use common::{assert_success, code, run_in, write_sample};
use serde_json::Value;

fn script(dir: &Path, name: &str, body: &str) {
    let path = dir.join(name);
    fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
}

/// The JSON report of `quadrille contest <plan> --json` run in `dir`.
fn run_json(dir: &Path, plan: &str) -> Value {
    let out = run_in(dir, &["contest", plan, "--json"]);
    assert_success(&out);
    serde_json::from_slice(&out.stdout).unwrap()
}

fn standing<'a>(pool: &'a Value, name: &str) -> &'a Value {
    pool["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("{name} not in {pool}"))
}

#[test]
fn a_single_pool_contest_with_script_pilots_under_the_limits() {
    let dir = testkit::scratch_dir("cli");
    let d = dir.path();
    for (sample, name) in [
        ("ring", "ring.cir"),
        ("narrow", "narrow.cir"),
        ("traps", "traps.cir"),
        ("needle", "needle.cir"),
        ("street", "street.cir"),
        ("ring", "ring2.cir"),
    ] {
        write_sample(d, sample, name);
    }
    let bin = env!("CARGO_BIN_EXE_quadrille");
    // Computes its lap with the optimal pilot and writes `copycat.F1`, as a pilot must.
    script(
        d,
        "copycat.sh",
        &format!("exec {bin} pilot \"$1\" --name copycat -o copycat.F1"),
    );
    // Never finishes in time.
    script(d, "sleepy.sh", "sleep 30");
    // Writes garbage.
    script(
        d,
        "junk.sh",
        "printf 'junk\\n%s\\n40,4\\n12;34\\n' \"$1\" > junk.F1",
    );
    // Eats memory (tail keeps the whole unterminated line).
    script(
        d,
        "hog.sh",
        "head -c 400000000 /dev/zero | tail -c 400000000 > /dev/null",
    );
    fs::write(
        d.join("plan.toml"),
        r#"
time_limit_secs = 2
memory_limit_mb = 64

[[entrant]]
name = "Opt"
circuit = "ring.cir"
estimate = 60.0
builtin = "optimal"

[[entrant]]
name = "Copycat"
circuit = "narrow.cir"
estimate = 1000.0
command = ["./copycat.sh"]

[[entrant]]
name = "Demo"
circuit = "traps.cir"
builtin = "demo"

[[entrant]]
name = "Sleepy"
circuit = "needle.cir"
command = "./sleepy.sh"

[[entrant]]
name = "Junk"
circuit = "street.cir"
command = ["./junk.sh"]

[[entrant]]
name = "Hog"
circuit = "ring2.cir"
command = ["./hog.sh"]
"#,
    )
    .unwrap();
    let started = Instant::now();
    let c = run_json(d, "plan.toml");
    // Six pilots on six circuits; the slow ones are killed at 2 s each (and the hog earlier).
    assert!(started.elapsed() < Duration::from_secs(60));
    let rounds = c["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 1, "8 or fewer entrants: one pool, the final");
    assert_eq!(rounds[0]["final"], true);
    let pool = &rounds[0]["pools"][0];
    assert_eq!(pool["circuits"].as_array().unwrap().len(), 6);
    // Opt and Copycat drive the same optimal laps: tied first everywhere (10 points each),
    // Demo is third everywhere (4 points: the second place is skipped).
    let opt = standing(pool, "Opt");
    let copy = standing(pool, "Copycat");
    let demo = standing(pool, "Demo");
    assert_eq!(
        opt["circuit_points"],
        serde_json::json!([10, 10, 10, 10, 10, 10])
    );
    assert_eq!(copy["points"], 60);
    assert_eq!(
        demo["circuit_points"],
        serde_json::json!([4, 4, 4, 4, 4, 4])
    );
    // The tie is broken by the estimate closest to the pool's mean valid lap time.
    assert_eq!(
        (opt["place"].as_u64(), copy["place"].as_u64()),
        (Some(1), Some(2))
    );
    assert_eq!(copy["separation"], "estimate");
    for name in ["Sleepy", "Junk", "Hog"] {
        let s = standing(pool, name);
        assert_eq!(s["points"], 0, "{name}");
        assert_eq!(
            s["place"], 4,
            "{name}: the three without a lap share the next place"
        );
        assert!(
            s["laps"]
                .as_array()
                .unwrap()
                .iter()
                .all(|l| l["valid"] == false)
        );
    }
    let verdict = |name: &str| {
        standing(pool, name)["laps"][0]["verdict"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    assert!(
        verdict("Sleepy").contains("killed after 2.0 s"),
        "{}",
        verdict("Sleepy")
    );
    assert!(
        verdict("Hog").contains("MB of memory"),
        "{}",
        verdict("Hog")
    );
    assert!(verdict("Junk").contains("line"), "{}", verdict("Junk"));
    let ranking: Vec<&str> = c["ranking"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(ranking[..3], ["Opt", "Copycat", "Demo"]);
    let pilots = c["pilots"].as_array().unwrap();
    let operational: Vec<&str> = pilots
        .iter()
        .filter(|p| p["operational"] == true)
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(operational, ["Opt", "Copycat", "Demo"]);
}

#[test]
fn thirteen_entrants_play_two_pools_then_a_final() {
    let dir = testkit::scratch_dir("cli");
    let d = dir.path();
    // One valid ring lap, reused on thirteen copies of the ring under distinct names.
    write_sample(d, "ring", "ring.cir");
    let out = run_in(d, &["pilot", "ring.cir", "-o", "ring.F1"]);
    assert_eq!(code(&out), 0);
    let mut plan = String::new();
    for i in 0..13 {
        write_sample(d, "ring", &format!("r{i}.cir"));
        // Entrant i has a lap for circuits r0..r{i}: later entrants are valid more often.
        plan.push_str(&format!(
            "[[entrant]]\nname = \"E{i}\"\ncircuit = \"r{i}.cir\"\n[entrant.results]\n"
        ));
        for j in 0..=i {
            plan.push_str(&format!("\"r{j}.cir\" = \"ring.F1\"\n"));
        }
    }
    fs::write(d.join("plan.toml"), plan).unwrap();
    let c = run_json(d, "plan.toml");
    let rounds = c["rounds"].as_array().unwrap();
    let sizes: Vec<Vec<usize>> = rounds
        .iter()
        .map(|r| {
            r["pools"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p["standings"].as_array().unwrap().len())
                .collect()
        })
        .collect();
    assert_eq!(sizes, vec![vec![7, 6], vec![7]]);
    // Pool 1 is E0, E2, …, E12: E12 is valid everywhere in it and wins.
    let pool1 = &rounds[0]["pools"][0];
    assert_eq!(pool1["standings"][0]["name"], "E12");
    let qualified = pool1["standings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["qualified"] == true)
        .count();
    assert_eq!(qualified, 4);
    assert_eq!(rounds[1]["final"], true);
    assert_eq!(c["ranking"][0]["name"], "E12");
    // Text output too.
    let text = run_in(d, &["contest", "plan.toml"]);
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("Round 1, pool 2"), "{text}");
    assert!(text.contains("Final pool"));
    assert!(text.contains("Final ranking"));
}

#[test]
fn bad_plans_are_errors_naming_the_entrant() {
    let dir = testkit::scratch_dir("cli");
    let d = dir.path();
    write_sample(d, "ring", "ring.cir");
    let cases = [
        (
            "[[entrant]]\nname = \"A\"\ncircuit = \"ring.cir\"\n",
            "exactly one of",
        ),
        (
            "[[entrant]]\nname = \"A\"\ncircuit = \"ring.cir\"\nbuiltin = \"2cv\"\n",
            "no built-in pilot",
        ),
        (
            "[[entrant]]\nname = \"A\"\ncircuit = \"nope.cir\"\nbuiltin = \"demo\"\n",
            "nope.cir",
        ),
        ("", "no [[entrant]]"),
        ("[[entrant]]\nname = 3\n", "not a contest plan"),
    ];
    for (plan, needle) in cases {
        fs::write(d.join("plan.toml"), plan).unwrap();
        let out = run_in(d, &["contest", "plan.toml"]);
        assert_eq!(code(&out), 2, "{plan}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{plan}: {err}");
    }
}

#[test]
fn the_contest_log_holds_the_judges_line_of_every_lap_in_the_standings() {
    let dir = testkit::scratch_dir("cli");
    let d = dir.path();
    write_sample(d, "ring", "ring.cir");
    write_sample(d, "narrow", "narrow.cir");
    write_sample(d, "traps", "traps.cir");
    wasm::save(d, "crash.wasm", &wasm::module(1, &[], "unreachable"));
    fs::write(
        d.join("plan.toml"),
        r#"
time_limit_secs = 5

[[entrant]]
name = "Opt"
circuit = "ring.cir"
builtin = "optimal"

[[entrant]]
name = "Crash"
circuit = "narrow.cir"
wasm = "crash.wasm"

[[entrant]]
name = "Demo"
circuit = "traps.cir"
builtin = "demo"
"#,
    )
    .unwrap();
    let c = run_json(d, "plan.toml");
    // Beside the plan, as `<circuit>.log` is beside the circuit.
    let log = fs::read_to_string(d.join("plan.log")).expect("quadrille contest writes plan.log");
    let lines: Vec<Vec<&str>> = log.lines().map(|l| l.split('\t').collect()).collect();
    assert!(log.ends_with('\n'));
    // One line per lap of the standings, in the judge's format (spec §5): pilot, result file,
    // verdict, moves, time, speed, date; circuit by circuit, pilots in order of submission.
    let pool = &c["rounds"][0]["pools"][0];
    let circuits: Vec<&str> = pool["circuits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert_eq!(circuits, ["ring.cir", "narrow.cir", "traps.cir"]);
    assert_eq!(lines.len(), 9, "{log}");
    for (i, fields) in lines.iter().enumerate() {
        assert_eq!(fields.len(), 7, "{fields:?}");
        let (pilot, circuit) = (["Opt", "Crash", "Demo"][i % 3], i / 3);
        assert_eq!(fields[0], pilot, "{log}");
        let lap = &standing(pool, pilot)["laps"][circuit];
        assert_eq!(lap["circuit"], circuits[circuit]);
        match pilot {
            "Crash" => {
                assert_eq!(fields[1], "crash.F1");
                assert_eq!(fields[2], "pilot_crash");
                assert_eq!(fields[3..6], ["-", "-", "-"]);
            }
            _ => {
                let builtin = if pilot == "Opt" { "optimal" } else { "demo" };
                assert_eq!(fields[1], format!("{builtin}.F1"));
                assert_eq!(fields[2], "valid");
                assert_eq!(fields[3], lap["moves"].to_string());
                assert_eq!(fields[4], format!("{:.2}", lap["time"].as_f64().unwrap()));
                assert_eq!(fields[5], format!("{:.1}", lap["speed"].as_f64().unwrap()));
            }
        }
        // `YYYY-MM-DD HH:MM:SS`
        assert_eq!(fields[6].len(), 19, "{}", fields[6]);
    }
    // Elsewhere with --log, or not at all with --no-log.
    fs::remove_file(d.join("plan.log")).unwrap();
    assert_success(&run_in(
        d,
        &["contest", "plan.toml", "--log", "elsewhere.log"],
    ));
    assert_eq!(
        fs::read_to_string(d.join("elsewhere.log"))
            .unwrap()
            .lines()
            .count(),
        9
    );
    assert_success(&run_in(d, &["contest", "plan.toml", "--no-log"]));
    assert!(!d.join("plan.log").exists());
}

#[test]
fn the_example_plan_runs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // Without a log: the example's directory is the repository's.
    let out = run_in(
        root,
        &[
            "contest",
            "examples/contest/plan.toml",
            "--json",
            "--no-log",
        ],
    );
    assert_success(&out);
    let c: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(c["ranking"][0]["name"], "Optimal");
    assert_eq!(c["ranking"][2]["name"], "Stubborn");
}

/// The lap records of the single (final) pool's standing `name`, as (fault, verdict) pairs.
fn faults(pool: &Value, name: &str) -> Vec<(Value, String)> {
    standing(pool, name)["laps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["fault"].clone(),
                l["verdict"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn wasm_entrants_race_beside_builtin_ones() {
    let dir = testkit::scratch_dir("cli");
    let d = dir.path();
    write_sample(d, "ring", "ring.cir");
    write_sample(d, "ring", "ring2.cir");
    write_sample(d, "narrow", "narrow.cir");
    write_sample(d, "traps", "traps.cir");
    let plan = |extra: &str| {
        format!(
            r#"
time_limit_secs = 1
seed = 7

[[entrant]]
name = "Opt"
circuit = "ring.cir"
builtin = "optimal"

[[entrant]]
name = "Crash"
circuit = "ring2.cir"
wasm = "crash.wasm"

[[entrant]]
name = "Spin"
circuit = "narrow.cir"
wasm = "spin.wasm"

[[entrant]]
name = "Hog"
circuit = "traps.cir"
wasm = "hog.wasm"
{extra}"#
        )
    };
    wasm::save(d, "crash.wasm", &wasm::module(1, &[], "unreachable"));
    wasm::save(d, "spin.wasm", &wasm::module(1, &[], "(loop (br 0))"));
    wasm::save(
        d,
        "hog.wasm",
        &wasm::module(1, &[], "(drop (memory.grow (i32.const 1600)))"),
    );
    fs::write(d.join("plan.toml"), plan("")).unwrap();
    let started = Instant::now();
    let c = run_json(d, "plan.toml");
    assert!(started.elapsed() < Duration::from_secs(60));
    let pool = &c["rounds"][0]["pools"][0];
    assert_eq!(standing(pool, "Opt")["place"], 1);
    for (name, kind) in [
        ("Crash", "pilot_crash"),
        ("Spin", "pilot_timeout"),
        ("Hog", "pilot_memory"),
    ] {
        let laps = faults(pool, name);
        assert_eq!(laps.len(), 4);
        for (fault, verdict) in laps {
            assert_eq!(fault, kind, "{name}: {verdict}");
        }
        assert_eq!(standing(pool, name)["points"], 0);
    }
    // The builtin pilot's laps have no fault field at all.
    assert!(standing(pool, "Opt")["laps"][0].get("fault").is_none());
    // A module that is not a WASI command refuses the whole plan, naming the entrant.
    fs::write(d.join("bad.wasm"), b"not wasm").unwrap();
    fs::write(
        d.join("plan.toml"),
        plan("\n[[entrant]]\nname = \"Bad\"\ncircuit = \"x.cir\"\nwasm = \"bad.wasm\"\n"),
    )
    .unwrap();
    write_sample(d, "ring", "x.cir");
    let out = run_in(d, &["contest", "plan.toml", "--json"]);
    assert_eq!(code(&out), 2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("\"Bad\"") && err.contains("not a WebAssembly module"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn the_example_wasm_pilots_run_a_contest() {
    let dir = testkit::scratch_dir("cli");
    let d = dir.path();
    let mut plan = String::from("time_limit_secs = 60\n");
    for (i, (name, sample)) in [
        ("demo.wasm", "ring"),
        ("greedy.wasm", "narrow"),
        ("crawler.wasm", "traps"),
    ]
    .into_iter()
    .enumerate()
    {
        write_sample(d, sample, &format!("{sample}.cir"));
        let path = wasm::example(name);
        plan.push_str(&format!(
            "[[entrant]]\nname = \"P{i}\"\ncircuit = \"{sample}.cir\"\nwasm = {:?}\n",
            path.to_str().unwrap()
        ));
    }
    fs::write(d.join("plan.toml"), plan).unwrap();
    let c = run_json(d, "plan.toml");
    let pilots = c["pilots"].as_array().unwrap();
    assert_eq!(pilots.len(), 3);
    for p in pilots {
        assert_eq!(p["operational"], true, "{p}");
        assert_eq!(p["valid"], 3, "{p}");
    }
}

#[test]
fn result_files_are_read_without_trusting_them() {
    let dir = testkit::scratch_dir("cli");
    let d = dir.path();
    let names = ["fifo", "passwd", "zero", "sparse", "big", "dir", "segv"];
    let bodies = [
        "mkfifo fifo.F1",
        "ln -s /etc/passwd passwd.F1",
        "ln -s /dev/zero zero.F1",
        "truncate -s 5G sparse.F1",
        "printf 'big\\n%s\\n40,4\\n' \"$1\" > big.F1; head -c 2000000 /dev/zero | tr '\\0' '\\n' >> big.F1",
        "mkdir dir.F1",
        "kill -SEGV $$",
    ];
    let mut plan = String::from("time_limit_secs = 5\nmemory_limit_mb = 200\n");
    for (name, body) in names.iter().zip(bodies) {
        script(d, &format!("{name}.sh"), body);
        write_sample(d, "ring", &format!("{name}.cir"));
        plan.push_str(&format!(
            "[[entrant]]\nname = \"{name}\"\ncircuit = \"{name}.cir\"\ncommand = \"./{name}.sh\"\n"
        ));
    }
    // Result files given beforehand are held to the same rule.
    std::os::unix::fs::symlink("/etc/passwd", d.join("given.F1")).unwrap();
    write_sample(d, "ring", "given.cir");
    plan.push_str("[[entrant]]\nname = \"given\"\ncircuit = \"given.cir\"\n[entrant.results]\n");
    for name in names.iter().chain(["given"].iter()) {
        plan.push_str(&format!("\"{name}.cir\" = \"given.F1\"\n"));
    }
    fs::write(d.join("plan.toml"), plan).unwrap();
    let started = Instant::now();
    let out = run_in(d, &["contest", "plan.toml", "--json"]);
    assert_success(&out);
    // Nothing blocks on the FIFO, nothing reads 5 GB: far within the entrants' 5 s each.
    assert!(started.elapsed() < Duration::from_secs(60));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        !text.contains("root:"),
        "a line of /etc/passwd leaked: {text}"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("confined by Landlock"), "{stderr}");
    let c: Value = serde_json::from_slice(&out.stdout).unwrap();
    let pool = &c["rounds"][0]["pools"][0];
    let expect = [
        ("fifo", "bad_result", "a FIFO"),
        ("passwd", "bad_result", "a symbolic link"),
        ("zero", "bad_result", "a symbolic link"),
        ("sparse", "bad_result", "5368709120 bytes"),
        ("big", "bad_result", "more than the 1048576 allowed"),
        ("dir", "bad_result", "a directory"),
        ("segv", "pilot_crash", "killed by signal 11"),
        ("given", "bad_result", "a symbolic link"),
    ];
    for (name, kind, words) in expect {
        for (fault, verdict) in faults(pool, name) {
            assert_eq!(fault, kind, "{name}: {verdict}");
            assert!(verdict.contains(words), "{name}: {verdict}");
        }
    }
}

#[test]
fn native_pilots_are_confined_to_their_directory() {
    let dir = testkit::scratch_dir("cli");
    let d = dir.path();
    write_sample(d, "ring", "ring.cir");
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let outside = d.join("leaked.txt");
    script(
        d,
        "escapee.sh",
        &format!(
            "echo leak > {outside}\n\
             python3 -c \"import socket; socket.create_connection(('127.0.0.1', {port}))\" \
               && echo connected > {net}\n\
             echo tmp > \"$TMPDIR/scratch\"\n\
             printf 'escapee\\n%s\\n40,4\\n' \"$1\" > escapee.F1",
            outside = outside.display(),
            net = d.join("net.txt").display()
        ),
    );
    fs::write(
        d.join("plan.toml"),
        "memory_limit_mb = 200\n[[entrant]]\nname = \"E\"\ncircuit = \"ring.cir\"\ncommand = \"./escapee.sh\"\n",
    )
    .unwrap();
    let out = run_in(d, &["contest", "plan.toml", "--json"]);
    assert_success(&out);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("confined by Landlock"), "{stderr}");
    assert!(!outside.exists(), "the pilot wrote outside its directory");
    assert!(
        !d.join("net.txt").exists(),
        "the pilot opened a TCP connection"
    );
    assert!(listener.accept().is_err(), "the pilot reached the listener");
    // Inside its directory it works as before: its lap was written and judged.
    let c: Value = serde_json::from_slice(&out.stdout).unwrap();
    let lap = &c["rounds"][0]["pools"][0]["standings"][0]["laps"][0];
    assert_eq!(lap["fault"], "did_not_finish", "{lap}");
}
