//! `quadrille soccer league`: round robins of engines, the emulated reference board and bots
//! that misbehave, judged again from their records, and the same for any number of jobs.

mod common;

use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;

use common::soccer::*;
use engine::soccer::record::Record;
use serde_json::Value;

/// Generous: the emulator and the bots share the machine with the rest of the test suite.
const LIMIT: Duration = Duration::from_secs(300);

/// The bad bots and the reason each loses by. Shell one-liners, so that they start at once even
/// on a loaded machine (a bot's start-up counts against its first turn's clock).
fn bad_bots() -> Vec<(&'static str, String, &'static str)> {
    vec![
        // Kills itself with a signal when it is asked to play (a line that ends with `}`: the
        // start signal or the opponent's turn).
        (
            "trap",
            "exec:while read -r line; do case $line in *'}') kill -SEGV $$;; esac; done"
                .to_string(),
            "disconnect",
        ),
        // Reads everything and never answers (the scripted bot told to stay silent).
        ("silent", bot(&["--silent-after", "0"]), "timeout"),
        // Answers every line it reads with a `}` that no `{` opened.
        (
            "junk",
            "exec:while read -r line; do printf '}'; done".to_string(),
            "illegal_step",
        ),
    ]
}

fn write_plan(dir: &Path, text: &str) -> String {
    let path = dir.join("plan.toml");
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn engines_the_emulated_board_and_bad_bots_play_a_league_the_same_with_any_jobs() {
    let dir = testkit::scratch_dir("cli");
    // 1.5 s per turn: the emulated board needs some 50 ms a turn on 4x4 on a loaded machine, and
    // the silent bot's ten time-outs cost a turn each.
    let mut plan = String::from("seed = 7\nturn_ms = 1500\nsizes = [\"4x4\"]\n");
    let good = ["eng0", "eng1", "eng2", "sim"];
    for (name, spec) in good.iter().zip(["engine:0", "engine:1", "engine:2", "sim"]) {
        plan += &format!("[[player]]\nname = \"{name}\"\nspec = \"{spec}\"\n");
    }
    let bad = bad_bots();
    for (name, spec, _) in &bad {
        plan += &format!(
            "[[player]]\nname = \"{name}\"\nspec = {}\n",
            toml_string(spec)
        );
    }
    let plan = write_plan(dir.path(), &plan);

    let (text4, json, records4) = league(dir.path(), &plan, "4");
    let (text1, _, records1) = league(dir.path(), &plan, "1");
    assert_eq!(text1, text4, "the same league with --jobs 1 and --jobs 4");
    assert_eq!(records1, records4);

    // Every pair twice, in schedule order: the one listed first is red in the first game.
    let names: Vec<&str> = good
        .iter()
        .copied()
        .chain(bad.iter().map(|b| b.0))
        .collect();
    let games = json["games"].as_array().unwrap();
    assert_eq!(games.len(), 42);
    let mut expected = Vec::new();
    for i in 0..names.len() {
        for j in i + 1..names.len() {
            expected.push((names[i], names[j]));
            expected.push((names[j], names[i]));
        }
    }
    let reason_of: HashMap<&str, &str> = bad.iter().map(|b| (b.0, b.2)).collect();
    let mut points: HashMap<&str, u64> = HashMap::new();
    let lines: Vec<&str> = records4.lines().collect();
    assert_eq!(lines.len(), 42);
    for ((game, (red, blue)), line) in games.iter().zip(&expected).zip(&lines) {
        assert_eq!(
            (game["red"].as_str(), game["blue"].as_str()),
            (Some(*red), Some(*blue))
        );
        let record_line = game["record"].as_str().unwrap();
        assert_eq!(record_line, *line, "the records file holds the same lines");
        // The record is a referee's: red starts, the verdict is the JSON's, the moves agree.
        let record = Record::parse(record_line).unwrap();
        assert_eq!(record.starter, engine::soccer::Side::Red, "{record_line}");
        let result = record.result.expect("a verdict");
        assert_eq!(game["winner"], result.winner.name(), "{record_line}");
        assert_eq!(game["reason"], result.reason.name(), "{record_line}");
        record
            .replay()
            .unwrap_or_else(|e| panic!("{record_line}: {e}"));
        let (winner, loser) = match result.winner {
            engine::soccer::Side::Red => (*red, *blue),
            engine::soccer::Side::Blue => (*blue, *red),
        };
        *points.entry(winner).or_default() += 1;
        // A bad bot loses every game in which it has to play first: as red at once, as blue
        // after red's first turn (which on 4x4 never ends the game). Between two bad bots,
        // red is the one.
        let reason = game["reason"].as_str().unwrap();
        if let Some(&why) = reason_of.get(red) {
            assert_eq!(
                (loser, reason),
                (*red, why),
                "{red} v {blue}: {record_line}"
            );
        } else if let Some(&why) = reason_of.get(blue) {
            assert_eq!(
                (loser, reason),
                (*blue, why),
                "{red} v {blue}: {record_line}"
            );
        } else {
            // Engines and the board play to the end on the field: no time-outs.
            assert!(
                ["goal", "own_goal", "stuck"].contains(&reason),
                "{red} v {blue}: {record_line}"
            );
        }
    }

    // The standings: the good players above, on 6 points or more (both games against each bad
    // bot); the bad bots on 2 each (as blue against each other), tied on everything — their
    // head-to-head, no goal wins, 10 faults — so lots place them, and say so.
    let standings = json["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 7);
    for (k, row) in standings.iter().enumerate() {
        assert_eq!(row["place"], k + 1);
        let name = row["name"].as_str().unwrap();
        assert_eq!(
            row["points"],
            points.get(name).copied().unwrap_or(0),
            "{name}"
        );
        assert_eq!(row["played"], 12, "{name}");
        assert_eq!(row["won"], row["points"]);
        assert_eq!(
            row["won"].as_u64().unwrap() + row["lost"].as_u64().unwrap(),
            12
        );
        if k < 4 {
            assert!(good.contains(&name), "{name} at {}", k + 1);
            assert!(row["points"].as_u64().unwrap() >= 6, "{row}");
            assert_eq!(row["faults"], 0, "{row}");
        } else {
            assert!(reason_of.contains_key(name), "{name} at {}", k + 1);
            assert_eq!(row["points"], 2, "{row}");
            assert_eq!(row["faults"], 10, "{row}");
            assert_eq!(row["goal_wins"], 0, "{row}");
            assert_eq!(row["lots"], true, "{row}");
            assert_eq!(row["tie_break"], "lots", "{row}");
        }
    }
    // Goal wins are goals scored: the JSON agrees with the records.
    for row in standings {
        let name = row["name"].as_str().unwrap();
        let goals = games
            .iter()
            .filter(|g| g["reason"] == "goal" && g[g["winner"].as_str().unwrap()] == name)
            .count();
        assert_eq!(row["goal_wins"], goals, "{name}");
    }
}

#[test]
fn the_interpreter_and_the_compiled_board_play_the_same_league() {
    let dir = testkit::scratch_dir("cli");
    let plan = write_plan(
        dir.path(),
        "seed = 3\nturn_ms = 1500\nsizes = [\"4x4\", \"6x4\"]\n\
         [[player]]\nname = \"board\"\nspec = \"sim\"\n\
         [[player]]\nname = \"eng1\"\nspec = \"engine:1\"\n",
    );
    let (compiled, json, records) = league_with(dir.path(), &plan, "2", &[]);
    let (interpreted, _, interpreted_records) =
        league_with(dir.path(), &plan, "2", &["--interpret"]);
    assert_eq!(
        interpreted, compiled,
        "the same games, standings and tables"
    );
    assert_eq!(interpreted_records, records);
    // Both games on both sizes were played to a verdict on the field.
    let games = json["games"].as_array().unwrap();
    assert_eq!(games.len(), 4, "{json}");
    for game in games {
        assert!(
            ["goal", "own_goal", "stuck"].contains(&game["reason"].as_str().unwrap()),
            "{game}"
        );
    }
}

/// A TOML basic string.
fn toml_string(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

#[test]
fn a_player_that_cannot_start_loses_every_game_by_disconnect_and_the_text_shows_the_tables() {
    let dir = testkit::scratch_dir("cli");
    let missing = dir.path().join("no-such-board");
    let plan = write_plan(
        dir.path(),
        &format!(
            "seed = 3\nturn_ms = 2000\nsizes = [\"4x4\", \"6x4\"]\n\
             [[player]]\nname = \"low\"\nspec = \"engine:0\"\n\
             [[player]]\nname = \"high\"\nspec = \"engine:2\"\n\
             [[player]]\nname = \"ghost\"\nspec = {}\n",
            toml_string(missing.to_str().unwrap())
        ),
    );
    let records = dir.path().join("records.txt");
    let out = run(
        quadrille(&[
            "soccer",
            "league",
            &plan,
            "--records",
            records.to_str().unwrap(),
        ]),
        LIMIT,
    );
    assert_success(&out);
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    // Three players, two sizes: 12 games; the ghost's 8 are lost by disconnect, reason given.
    let lines: Vec<String> = std::fs::read_to_string(&records)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(lines.len(), 12, "{lines:?}");
    assert!(lines[..6].iter().all(|l| l.starts_with("4x4 red: ")));
    assert!(lines[6..].iter().all(|l| l.starts_with("6x4 red: ")));
    // In schedule order: low v high, high v low, low v ghost, ghost v low, high v ghost, …
    for k in [2, 4, 8, 10] {
        assert!(lines[k].ends_with(" # red disconnect"), "{}", lines[k]);
        assert!(
            lines[k + 1].ends_with(" # blue disconnect"),
            "{}",
            lines[k + 1]
        );
    }
    assert_eq!(
        stderr.matches("cannot open the serial port").count(),
        8,
        "{stderr}"
    );
    assert!(stderr.contains("no-such-board"), "{stderr}");
    // The text: the standings with their columns, the crosstable, the places, the games.
    assert!(
        stdout.contains("place  name   played  won  lost  points  goal wins  faults  tie-break"),
        "{stdout}"
    );
    let ghost = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("3  ghost "))
        .unwrap_or_else(|| panic!("ghost is third: {stdout}"));
    let cells: Vec<&str> = ghost.split_whitespace().collect();
    assert_eq!(
        cells[..8],
        ["3", "ghost", "8", "0", "8", "0", "0", "8"],
        "{ghost}"
    );
    assert!(stdout.contains("Crosstable"), "{stdout}");
    assert!(stdout.contains("ghost    0-4    0-4      -"), "{stdout}");
    assert!(stdout.contains("Places:  1. "), "{stdout}");
    assert!(stdout.contains("3. ghost"), "{stdout}");
    assert!(stdout.contains("cannot open the serial port"), "{stdout}");
}

#[test]
fn the_plan_is_documented_and_bad_plans_are_usage_errors() {
    let out = run(quadrille(&["soccer", "league", "--help"]), LIMIT);
    assert_success(&out);
    let help = String::from_utf8(out.stdout).unwrap();
    for word in [
        "[[player]]",
        "turn_ms",
        "sizes",
        "seed",
        "--jobs",
        "--records",
        "lots",
    ] {
        assert!(help.contains(word), "{word}: {help}");
    }

    let dir = testkit::scratch_dir("cli");
    let plan = write_plan(
        dir.path(),
        "sizes = [\"4x5\"]\n[[player]]\nspec = \"engine\"\n[[player]]\nspec = \"engine:1\"\n",
    );
    let out = run(quadrille(&["soccer", "league", &plan]), LIMIT);
    assert_eq!(code(&out), 2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("sizes[0]") && err.contains("plan.toml"),
        "{err}"
    );

    let plan = write_plan(
        dir.path(),
        "[[player]]\nname = \"a\"\nspec = \"engine\"\n[[player]]\nname = \"a\"\nspec = \"engine:1\"\n",
    );
    let out = run(quadrille(&["soccer", "league", &plan]), LIMIT);
    assert_eq!(code(&out), 2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("already taken"), "{err}");
}

/// Plays the board on the master end of `pty` with the engine at level 0 until `stop` is set,
/// answering every game the league starts on the port; returns how many games it was set up
/// for. Two games at once on the port would mix their bytes, and end in faults and time-outs.
fn board(
    pty: Pty,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
) -> std::thread::JoinHandle<u32> {
    use engine::soccer::search::Engine;
    use engine::soccer::wire::{WireNote, WirePlayer};
    use std::io::{Read, Write};
    use std::sync::atomic::Ordering;

    std::thread::spawn(move || {
        let Pty {
            mut master, slave, ..
        } = pty;
        let mut player = WirePlayer::new(Engine::new(0, 1));
        let mut games = 0;
        let mut buf = [0u8; 256];
        while !stop.load(Ordering::Acquire) {
            let n = match master.read(&mut buf) {
                Ok(n) => n,
                Err(_) => continue,
            };
            player.handle_input(&buf[..n]);
            while let Some(note) = player.poll_note() {
                match note {
                    WireNote::NewGame(_) => games += 1,
                    WireNote::OutOfTurn | WireNote::NoTurn => panic!("{note}"),
                    WireNote::OpponentEnded { .. }
                    | WireNote::OwnEnded { .. }
                    | WireNote::Ignored(_) => {}
                }
            }
            if let Some(bytes) = player.poll_transmit() {
                master.write_all(&bytes).unwrap();
            }
        }
        drop(slave);
        games
    })
}

#[test]
fn a_board_on_a_serial_port_plays_its_games_one_at_a_time() {
    let dir = testkit::scratch_dir("cli");
    let pty = Pty::new();
    let plan = write_plan(
        dir.path(),
        &format!(
            "seed = 5\nturn_ms = 3000\nsizes = [\"4x4\", \"6x6\"]\n\
             [[player]]\nname = \"board\"\nspec = {}\n\
             [[player]]\nname = \"e0\"\nspec = \"engine:0\"\n\
             [[player]]\nname = \"e1\"\nspec = \"engine:1\"\n",
            toml_string(&pty.path)
        ),
    );
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let player = board(pty, stop.clone());
    let (_, json, _) = league(dir.path(), &plan, "4");
    stop.store(true, std::sync::atomic::Ordering::Release);
    let games_on_board = player.join().expect("the board played without a fault");
    let games = json["games"].as_array().unwrap();
    assert_eq!(games.len(), 12);
    // Every game ends on the field: the board answered in time with legal turns, each game
    // alone on the port.
    for game in games {
        assert!(
            ["goal", "own_goal", "stuck"].contains(&game["reason"].as_str().unwrap()),
            "{game}"
        );
    }
    assert_eq!(games_on_board, 8);
}

#[test]
fn paths_in_the_plan_are_the_plans() {
    // A netlist and a bot script beside the plan, named relatively, with quadrille started
    // somewhere else; the records file is named relatively to where quadrille starts.
    let dir = testkit::scratch_dir("cli");
    let elsewhere = testkit::scratch_dir("cli");
    let netlist = Path::new(env!("CARGO_MANIFEST_DIR")).join("../hdl/netlist/de2_115_top.json");
    std::fs::copy(netlist, dir.path().join("board.json")).unwrap();
    std::fs::write(dir.path().join("silent.sh"), "exec cat >/dev/null\n").unwrap();
    let plan = write_plan(
        dir.path(),
        "seed = 1\nturn_ms = 1500\nsizes = [\"4x4\"]\n\
         [[player]]\nname = \"board\"\nspec = \"sim:board.json\"\n\
         [[player]]\nname = \"bot\"\nspec = \"exec:sh silent.sh\"\n",
    );
    let mut cmd = quadrille(&["soccer", "league", &plan, "--json", "--records", "out.txt"]);
    cmd.current_dir(elsewhere.path());
    let out = run(cmd, LIMIT);
    assert_success(&out);
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let games = json["games"].as_array().unwrap();
    // Both started (a missing file would have lost by disconnect); the bot never answers.
    for game in games {
        assert_eq!(game["reason"], "timeout", "{game}");
        assert!(game.get("not_started").is_none(), "{game}");
    }
    assert_eq!(json["standings"][0]["name"], "board");
    assert_eq!(json["standings"][0]["points"], 2);
    let records = std::fs::read_to_string(elsewhere.path().join("out.txt")).unwrap();
    assert_eq!(records.lines().count(), 2);
}
