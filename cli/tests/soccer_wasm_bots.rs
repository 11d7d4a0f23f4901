//! WebAssembly Paper Soccer bots (`wasm:PATH.wasm`): the example bot plays whole legal games,
//! purpose-built bad bots lose by the referee's usual reasons, and a league of both goes on to
//! the same standings whatever the number of jobs.
//!
//! The example bot is built by `cargo xtask pilots`; the bad bots are assembled here from
//! WebAssembly text.

mod common;
mod wasm;

use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;

use common::soccer::*;
use engine::soccer::record::Record;
use engine::soccer::{Reason, Side};

/// Generous: debug-build wasmtime compiles the modules, on a machine shared with other tests.
const LIMIT: Duration = Duration::from_secs(300);

/// A bot that reads standard input byte by byte and runs `on_turn` at every `}` (the start
/// signal `{}` or the opponent's turn: its cue to play), and exits at end of file. Memory:
/// scratch below 300, `}` at 300 and `{` at 301 (the data is written `}}{{` in `format!`),
/// 4096 bytes of `7` from 400.
fn bad_bot(on_turn: &str) -> Vec<u8> {
    let text = format!(
        r#"(module
  (import "wasi_snapshot_preview1" "fd_read" (func $fd_read (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (data (i32.const 300) "}}{{")
  (func $byte (result i32)
    (i32.store (i32.const 100) (i32.const 200))
    (i32.store (i32.const 104) (i32.const 1))
    (if (call $fd_read (i32.const 0) (i32.const 100) (i32.const 1) (i32.const 108))
      (then (return (i32.const -1))))
    (if (i32.eqz (i32.load (i32.const 108))) (then (return (i32.const -1))))
    (i32.load8_u (i32.const 200)))
  (func $write (param $ptr i32) (param $len i32)
    (i32.store (i32.const 112) (local.get $ptr))
    (i32.store (i32.const 116) (local.get $len))
    (drop (call $fd_write (i32.const 1) (i32.const 112) (i32.const 1) (i32.const 120))))
  (func (export "_start") (local $b i32)
    (memory.fill (i32.const 400) (i32.const 55) (i32.const 4096))
    (loop $next
      (local.set $b (call $byte))
      (if (i32.eq (local.get $b) (i32.const -1)) (then (return)))
      (if (i32.eq (local.get $b) (i32.const 125)) (then {on_turn}))
      (br $next))))"#
    );
    wat::parse_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// The bad bots: name, module, the reason each loses by.
fn bad_bots() -> Vec<(&'static str, Vec<u8>, Reason)> {
    vec![
        // A trap (what a Rust panic ends in) when asked to play.
        ("trap", bad_bot("unreachable"), Reason::Disconnect),
        // Reads everything and never answers.
        ("silent", bad_bot("nop"), Reason::Timeout),
        // Answers with a `}` that no `{` opened.
        (
            "junk",
            bad_bot("(call $write (i32.const 300) (i32.const 1))"),
            Reason::IllegalStep,
        ),
        // Grows its memory past the 64 MiB limit.
        (
            "greedy",
            bad_bot("(drop (memory.grow (i32.const 1100)))"),
            Reason::Disconnect,
        ),
        // Opens a turn and floods its standard output with digits, forever, ignoring every
        // failed write: more than 65,535 digits is a fault, and the flood must neither fill
        // the host's memory nor keep running after the game.
        (
            "flood",
            bad_bot(
                "(call $write (i32.const 301) (i32.const 1))
                 (loop $flood (call $write (i32.const 400) (i32.const 4096)) (br $flood))",
            ),
            Reason::IllegalStep,
        ),
        // Spins forever without reading: killed after its time-out.
        ("spin", bad_bot("(loop $spin (br $spin))"), Reason::Timeout),
    ]
}

fn referee(red: &str, blue: &str, extra: &[&str]) -> Vec<String> {
    let mut args = vec!["soccer", "referee", "--red", red, "--blue", blue];
    args.extend_from_slice(extra);
    stdout_lines(&run(quadrille(&args), LIMIT))
}

fn spec(path: &Path) -> String {
    format!("wasm:{}", path.display())
}

#[test]
fn the_example_bot_plays_whole_legal_games_against_the_engine_with_either_colour() {
    let bot = spec(&wasm::example("random-bot.wasm"));
    let options = [
        "--games",
        "3",
        "--seed",
        "5",
        "--turn-ms",
        "5000",
        "--width",
        "6",
        "--length",
        "8",
    ];
    for (red, blue) in [(bot.as_str(), "engine:1"), ("engine:1", bot.as_str())] {
        let lines = referee(red, blue, &options);
        assert_eq!(lines.len(), 3, "{red} v {blue}: {lines:?}");
        for line in &lines {
            let record = assert_ended_on_the_field(line);
            assert!(record.turns.len() >= 2, "both played: {line}");
        }
    }
}

#[test]
fn bad_bots_lose_by_the_usual_reasons_and_the_engine_wins() {
    let dir = testkit::scratch_dir("cli");
    for (name, module, reason) in bad_bots() {
        let path = wasm::save(dir.path(), &format!("{name}.wasm"), &module);
        for (starter, red, blue) in [
            ("red", spec(&path), "engine:1".to_string()),
            ("blue", "engine:1".to_string(), spec(&path)),
        ] {
            let lines = referee(
                &red,
                &blue,
                &[
                    "--starter",
                    starter,
                    "--turn-ms",
                    "2000",
                    "--width",
                    "4",
                    "--length",
                    "4",
                ],
            );
            assert_eq!(lines.len(), 1, "{name}: {lines:?}");
            let record = Record::parse(&lines[0]).unwrap();
            let result = record.result.expect("a verdict");
            let bad_side = if red.starts_with("wasm:") {
                Side::Red
            } else {
                Side::Blue
            };
            assert_eq!(result.reason, reason, "{name}: {}", lines[0]);
            assert_eq!(result.winner, bad_side.opponent(), "{name}: {}", lines[0]);
        }
    }
}

/// `quadrille soccer referee` of the bot at `path` (red) against the engine, with `extra`
/// options, for the cases it must refuse before any game.
fn refused_referee(path: &Path, extra: &[&str]) -> std::process::Output {
    let red = spec(path);
    let mut args = vec!["soccer", "referee", "--red", &red, "--blue", "engine"];
    args.extend_from_slice(extra);
    run(quadrille(&args), LIMIT)
}

#[test]
fn a_module_that_is_no_wasi_command_is_refused_with_its_path() {
    let dir = testkit::scratch_dir("cli");
    let path = dir.path().join("nothing.wasm");
    std::fs::write(&path, b"not wasm").unwrap();
    let out = refused_referee(&path, &[]);
    assert_ne!(code(&out), 0);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("nothing.wasm"), "{stderr}");
}

fn toml_string(s: &str) -> String {
    format!("{s:?}")
}

#[test]
fn a_league_of_wasm_bots_good_and_bad_and_engines_is_the_same_with_any_jobs() {
    let dir = testkit::scratch_dir("cli");
    let mut plan = String::from("seed = 11\nturn_ms = 1500\nsizes = [\"4x4\"]\n");
    let good = [
        ("rand", spec(&wasm::example("random-bot.wasm"))),
        ("eng1", "engine:1".to_string()),
    ];
    let bad: Vec<(&str, String, Reason)> = bad_bots()
        .into_iter()
        .filter(|(name, ..)| ["trap", "silent", "junk", "greedy"].contains(name))
        .map(|(name, module, reason)| {
            let path = wasm::save(dir.path(), &format!("{name}.wasm"), &module);
            (name, spec(&path), reason)
        })
        .collect();
    for (name, spec) in good
        .iter()
        .map(|(n, s)| (*n, s))
        .chain(bad.iter().map(|(n, s, _)| (*n, s)))
    {
        plan += &format!(
            "[[player]]\nname = \"{name}\"\nspec = {}\n",
            toml_string(spec)
        );
    }
    let plan_path = dir.path().join("plan.toml");
    std::fs::write(&plan_path, plan).unwrap();
    let plan = plan_path.to_str().unwrap();

    let (text4, json, records4) = league(dir.path(), plan, "4");
    let (text1, _, records1) = league(dir.path(), plan, "1");
    assert_eq!(text1, text4, "the same league with --jobs 1 and --jobs 4");
    assert_eq!(records1, records4);

    let reason_of: HashMap<&str, Reason> = bad.iter().map(|b| (b.0, b.2)).collect();
    let games = json["games"].as_array().unwrap();
    assert_eq!(games.len(), 30, "6 players, every pair twice");
    for game in games {
        let (red, blue) = (
            game["red"].as_str().unwrap(),
            game["blue"].as_str().unwrap(),
        );
        let line = game["record"].as_str().unwrap();
        let record = Record::parse(line).unwrap();
        let result = record.result.expect("a verdict");
        record.replay().unwrap_or_else(|e| panic!("{line}: {e}"));
        // A bad bot loses every game it has to play in: as red at once, as blue after red's
        // first turn. Between two bad bots, red is the one.
        let (loser, why) = match (reason_of.get(red), reason_of.get(blue)) {
            (Some(why), _) => (Side::Red, Some(*why)),
            (None, Some(why)) => (Side::Blue, Some(*why)),
            (None, None) => (result.winner.opponent(), None),
        };
        match why {
            Some(why) => {
                assert_eq!(result.winner, loser.opponent(), "{red} v {blue}: {line}");
                assert_eq!(result.reason, why, "{red} v {blue}: {line}");
            }
            None => {
                assert_ended_on_the_field(line);
            }
        }
    }
    let standings = json["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 6);
    for (k, row) in standings.iter().enumerate() {
        let name = row["name"].as_str().unwrap();
        assert_eq!(row["played"], 10, "{row}");
        if k < 2 {
            // Both games against each of the four bad bots.
            assert!(good.iter().any(|g| g.0 == name), "{name} at {}", k + 1);
            assert!(row["points"].as_u64().unwrap() >= 8, "{row}");
        } else {
            // Only as blue against the three other bad bots.
            assert!(reason_of.contains_key(name), "{name} at {}", k + 1);
            assert_eq!(row["points"], 3, "{row}");
        }
    }
}

#[test]
fn the_bot_memory_limit_is_a_flag_and_a_plan_field() {
    let dir = testkit::scratch_dir("cli");
    // Grows its memory to about 69 MiB when asked to play, then never answers.
    let greedy = bad_bots()
        .into_iter()
        .find(|b| b.0 == "greedy")
        .expect("the greedy bot");
    let path = wasm::save(dir.path(), "greedy.wasm", &greedy.1);
    let game = [
        "--starter",
        "red",
        "--turn-ms",
        "1000",
        "--width",
        "4",
        "--length",
        "4",
    ];
    let reason_with = |extra: &[&str]| {
        let mut args = game.to_vec();
        args.extend_from_slice(extra);
        let lines = referee(&spec(&path), "engine:1", &args);
        assert_eq!(lines.len(), 1, "{extra:?}: {lines:?}");
        let result = Record::parse(&lines[0]).unwrap().result.expect("a verdict");
        assert_eq!(result.winner, Side::Blue, "{extra:?}: {}", lines[0]);
        result.reason
    };
    // Past the default 64 MiB the growth traps; under a 128 MiB limit it succeeds, and the bot
    // loses only by its silence.
    assert_eq!(reason_with(&[]), Reason::Disconnect);
    assert_eq!(reason_with(&["--bot-memory-mb", "128"]), Reason::Timeout);
    assert_eq!(reason_with(&["--bot-memory-mb", "64"]), Reason::Disconnect);
    let refused = refused_referee(&path, &["--bot-memory-mb", "0"]);
    assert_ne!(code(&refused), 0);
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--bot-memory-mb"));

    // The league: the plan's `bot_memory_mb`, which the flag overrides.
    let plan_path = dir.path().join("plan.toml");
    std::fs::write(
        &plan_path,
        format!(
            "seed = 3\nturn_ms = 1000\nsizes = [\"4x4\"]\nbot_memory_mb = 128\n\
             [[player]]\nname = \"greedy\"\nspec = {}\n[[player]]\nname = \"eng1\"\nspec = \"engine:1\"\n",
            toml_string(&spec(&path))
        ),
    )
    .unwrap();
    let reasons = |extra: &[&str]| -> Vec<String> {
        let mut args = vec!["soccer", "league", plan_path.to_str().unwrap(), "--json"];
        args.extend_from_slice(extra);
        let out = run(quadrille(&args), LIMIT);
        assert_success(&out);
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        json["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| {
                assert_eq!(
                    g["winner"],
                    if g["red"] == "greedy" { "blue" } else { "red" },
                    "{g}"
                );
                g["reason"].as_str().unwrap().to_string()
            })
            .collect()
    };
    assert_eq!(reasons(&[]), ["timeout", "timeout"]);
    assert_eq!(
        reasons(&["--bot-memory-mb", "64"]),
        ["disconnect", "disconnect"]
    );
}

/// The bad bots the page's league plays in the e2e suite (`e2e/tests/league-fixtures/`) are
/// these modules, byte for byte, so the page and the CLI are tried on the same bots.
/// `QUADRILLE_WRITE_FIXTURES=1` (re)writes them.
#[test]
fn the_e2e_suites_bad_bots_are_these() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../e2e/tests/league-fixtures");
    let write = std::env::var_os("QUADRILLE_WRITE_FIXTURES").is_some();
    for (name, module, _) in bad_bots()
        .into_iter()
        .filter(|b| ["trap", "silent", "junk"].contains(&b.0))
    {
        let path = dir.join(format!("{name}.wasm"));
        if write {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &module).unwrap();
        }
        assert!(
            std::fs::read(&path).is_ok_and(|bytes| bytes == module),
            "{} is not the `{name}` bot: QUADRILLE_WRITE_FIXTURES=1 writes it",
            path.display()
        );
    }
}
