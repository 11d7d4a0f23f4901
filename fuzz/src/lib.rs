//! What each fuzz target does with its input. Shared by the libFuzzer binaries
//! (`fuzz/fuzz_targets/*.rs`) and by `cli/tests/fuzz_regressions.rs`, which includes this file
//! by path and replays every kept crash input through the very same checks in `cargo test`.
//!
//! A target fails by panicking: a reader that panics, an error message longer than
//! [`MESSAGE_MAX`] (a reader must quote a bounded part of its input), or a written file that does
//! not read back the same. Whatever a reader *refuses* is fine.

use std::sync::OnceLock;

use engine::racetrack::{Circuit, LineEnding, ResultFile, bmp, conformity, judge, samples};
use engine::soccer::Side;
use engine::soccer::player::PlayerSession;
use engine::soccer::protocol::{Decoder, Turn, TurnScanner};
use engine::soccer::record::Record;
use engine::soccer::referee::{Referee, Settings};

/// What a target does with one input; it panics on a finding.
pub type Body = fn(&[u8]);

/// Every target, by the name `cargo fuzz` and `fuzz/regressions/<name>/` know it by.
pub const TARGETS: [(&str, Body); 6] = [
    ("cir", cir),
    ("f1", f1),
    ("bmp", bmp),
    ("record", record),
    ("protocol", protocol),
    ("netlist", netlist),
];

/// The longest error message a racetrack reader may give, whatever the input's size: it quotes
/// at most about 60 bytes of it, plus the words around.
pub const MESSAGE_MAX: usize = 400;

fn bounded(message: String) {
    assert!(
        message.len() <= MESSAGE_MAX,
        "a {}-byte error message: {message:.200}",
        message.len()
    );
}

/// The `.cir` reader: a circuit it accepts writes back to the same text, and the conformity
/// check (flood fills, the finish line) runs on anything it accepts.
pub fn cir(data: &[u8]) {
    match Circuit::parse(data) {
        Ok(circuit) => {
            let text = circuit.to_text(LineEnding::CrLf);
            assert_eq!(Circuit::parse(text.as_bytes()).as_ref(), Ok(&circuit));
            for v in conformity::check(&circuit).violations {
                bounded(v.to_string());
            }
        }
        Err(e) => bounded(e.to_string()),
    }
}

fn ring() -> &'static Circuit {
    static RING: OnceLock<Circuit> = OnceLock::new();
    RING.get_or_init(|| {
        let ring = samples::by_name("ring").expect("the ring sample");
        Circuit::parse(ring.text.as_bytes()).expect("the ring sample reads")
    })
}

/// The `.F1` reader, then the judge on the `ring` sample: any positions (huge, negative, far
/// apart) get a verdict, and what the reader accepts writes back to the same positions.
pub fn f1(data: &[u8]) {
    match ResultFile::parse(data) {
        Ok(file) => {
            let again = ResultFile::parse(file.to_text(LineEnding::CrLf).as_bytes())
                .expect("a written result file reads back");
            assert_eq!(again.positions, file.positions);
            let verdict = judge::judge(ring(), &file);
            if let judge::Verdict::Invalid(fault) = verdict {
                bounded(fault.to_string());
            }
        }
        Err(e) => bounded(e.to_string()),
    }
}

/// The BMP reader: any bytes give a circuit or an error naming the place; a circuit read writes
/// to the spec's BMP, which reads back to the same colours.
pub fn bmp(data: &[u8]) {
    match bmp::read(data) {
        Ok(circuit) => {
            let again = bmp::read(&bmp::write(&circuit)).expect("a written BMP reads back");
            assert_eq!(
                again.to_text(LineEnding::Lf),
                circuit.to_text(LineEnding::Lf)
            );
        }
        Err(e) => bounded(e.to_string()),
    }
}

/// The game-record reader (raw bytes, as from a file or a wire) and its replay: the moves
/// judged, the verdict suffix checked.
pub fn record(data: &[u8]) {
    if let Ok(record) = Record::parse_bytes(data) {
        let _ = record.replay();
        let _ = record.to_string();
    }
}

/// The serial protocol's readers: the referee → player decoder (the same items whether the bytes
/// come all at once or one by one), the referee's turn scanner, a turn's digits, and both
/// protocol state machines, the player's session and the referee (red sends the first half of
/// the bytes, blue the rest, with no time passing).
pub fn protocol(data: &[u8]) {
    let whole = Decoder::new().decode_all(data);
    let mut decoder = Decoder::new();
    let one_by_one: Vec<_> = data.iter().filter_map(|&b| decoder.push(b)).collect();
    assert_eq!(whole, one_by_one);
    let mut scanner = TurnScanner::new();
    for &b in data {
        let _ = scanner.push(b);
    }
    let _ = Turn::new(data);
    PlayerSession::new().handle_input(data);
    if let Ok(mut referee) = Referee::new(Settings::default(), Side::Red, 0) {
        let (red, blue) = data.split_at(data.len() / 2);
        referee.handle_input(Side::Red, red, 0);
        referee.handle_input(Side::Blue, blue, 0);
    }
}

/// The yosys-netlist loader and compiler, then two clock cycles of whatever compiled.
pub fn netlist(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(mut sim) = hdl_sim::Simulator::from_json(&text, None) {
        sim.run(2);
    }
}
