//! Issue 19: `quadrille … | head` ended with `Broken pipe (os error 32)` and exit 2 (or a
//! panic from `println!`). Every command that writes to standard output ends quietly with
//! exit 0 when its reader has gone; standard output is closed here before the command writes.

mod common;

use common::{run_with_closed_stdout, write_sample};

/// Runs `args` with standard output a pipe whose reading end is already closed.
fn with_closed_stdout(args: &[&str]) -> (Option<i32>, String) {
    let out = run_with_closed_stdout(args);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn every_writing_command_ends_quietly_on_a_closed_pipe() {
    let dir = testkit::scratch_dir("cli");
    let ring = write_sample(dir.path(), "ring", "ring.cir");
    let ring = ring.to_str().unwrap();
    let plan = dir.path().join("league.toml");
    std::fs::write(
        &plan,
        "seed = 1\nsizes = [\"4x4\"]\nturn_ms = 3000\n\
         [[player]]\nname = \"a\"\nspec = \"engine:1\"\n\
         [[player]]\nname = \"b\"\nspec = \"engine:1\"\n",
    )
    .unwrap();
    let plan = plan.to_str().unwrap();
    let commands: Vec<Vec<&str>> = vec![
        vec!["soccer", "moves", "254x2 red: "],
        vec![
            "soccer",
            "moves",
            "12x2 red: ",
            "--count",
            "--budget",
            "1000",
        ],
        vec!["soccer", "judge", "8x10 red: 3"],
        vec!["verifcir", ring],
        vec!["verifcir", ring, "--json"],
        vec!["soccer", "league", plan],
    ];
    for args in &commands {
        let (code, stderr) = with_closed_stdout(args);
        assert_eq!(code, Some(0), "{args:?}: {stderr}");
        // The league reports its progress on standard error; nothing else may complain.
        if args[..2] != ["soccer", "league"] {
            assert_eq!(stderr, "", "{args:?}");
        }
        assert!(
            !stderr.contains("Broken pipe") && !stderr.contains("panicked"),
            "{stderr}"
        );
    }
}
