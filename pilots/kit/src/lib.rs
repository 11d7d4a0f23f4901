//! What every pilot program does around its driving (spec §7): argument 1 is the circuit's file
//! name, the file is in the current directory, and the lap goes to `<stem>.F1` there, where
//! `<stem>` is the pilot's own file stem (argument 0, e.g. `greedy` for `greedy.wasm`).

use std::path::Path;
use std::process::ExitCode;

use engine::racetrack::{Circuit, Pos};

/// Runs a pilot: reads the circuit, asks `drive` for the lap's positions (`p0 = (40,4)` to the
/// finishing move), writes the result file. Problems go to standard error with exit status 1.
pub fn run(drive: impl FnOnce(&Circuit) -> Result<Vec<Pos>, String>) -> ExitCode {
    match try_run(drive) {
        Ok(()) => ExitCode::SUCCESS,
        Err(why) => {
            eprintln!("{why}");
            ExitCode::from(1)
        }
    }
}

fn try_run(drive: impl FnOnce(&Circuit) -> Result<Vec<Pos>, String>) -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    let [me, circuit_name] = args.as_slice() else {
        return Err("usage: PILOT CIRCUIT.cir".into());
    };
    let stem = Path::new(me)
        .file_stem()
        .and_then(|s| s.to_str())
        .ok_or("argument 0 has no file stem")?;
    let bytes = std::fs::read(circuit_name).map_err(|e| format!("{circuit_name}: {e}"))?;
    let circuit = Circuit::parse(&bytes).map_err(|e| format!("{circuit_name}: {e}"))?;
    let positions = drive(&circuit)?;
    let mut text = format!("{stem}\r\n{circuit_name}\r\n");
    for p in positions {
        text.push_str(&format!("{},{}\r\n", p.x, p.y));
    }
    let out = format!("{stem}.F1");
    std::fs::write(&out, text).map_err(|e| format!("{out}: {e}"))
}
