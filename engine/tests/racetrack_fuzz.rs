//! Property tests of the racetrack readers and rules: arbitrary input never panics, and what
//! is written reads back the same.

#![cfg(not(target_arch = "wasm32"))]

use engine::racetrack::conformity;
use engine::racetrack::judge::{self, Verdict};
use engine::racetrack::physics::{self, FinishLine, Pos};
use engine::racetrack::samples::SAMPLES;
use engine::racetrack::{Circuit, CircuitError, LineEnding, NonAscii, ResultFile, bmp, colour};
use proptest::prelude::*;

/// A circuit from a byte per cell, drawn from `alphabet`.
fn circuit_from(alphabet: &'static [u8]) -> impl Strategy<Value = Circuit> {
    prop::collection::vec(prop::sample::select(alphabet), (150 * 100) as usize).prop_map(|cells| {
        let mut c = Circuit::filled(b'A').unwrap();
        for (i, ch) in cells.into_iter().enumerate() {
            c.set(Pos::new(i as i32 % 150, i as i32 / 150), ch).unwrap();
        }
        c
    })
}

/// A sample circuit with a few random cells repainted: mostly still a loop, sometimes broken.
fn painted_sample() -> impl Strategy<Value = Circuit> {
    let conforming: Vec<&'static str> = SAMPLES
        .iter()
        .filter(|s| s.conforming)
        .map(|s| s.text)
        .collect();
    (
        prop::sample::select(conforming),
        prop::collection::vec(
            (0..150i32, 0..100i32, prop::sample::select(&b" ACKPx"[..])),
            0..40,
        ),
    )
        .prop_map(|(text, paint)| {
            let mut c = Circuit::parse(text.as_bytes()).unwrap();
            for (x, y, ch) in paint {
                c.set(Pos::new(x, y), ch).unwrap();
            }
            c
        })
}

fn ring() -> Circuit {
    Circuit::parse(SAMPLES[0].text.as_bytes()).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn cir_reader_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..20_000)) {
        if let Ok(c) = Circuit::parse(&bytes) {
            prop_assert_eq!(Circuit::parse(c.to_text(LineEnding::Lf).as_bytes()).unwrap(), c);
        }
    }

    #[test]
    fn cir_round_trips_with_any_line_endings(
        c in circuit_from(b" ABCDEFGHIJKLMNOPQxyz#.~\t"),
        endings in prop::collection::vec(prop::sample::select(vec!["\n", "\r\n", "\r"]), 100),
        last in any::<bool>(),
    ) {
        let crlf = c.to_text(LineEnding::CrLf);
        prop_assert_eq!(&Circuit::parse(crlf.as_bytes()).unwrap(), &c);
        // Rebuild the text with mixed terminators, maybe none after the last line.
        let mut text = String::new();
        for (y, nl) in endings.iter().enumerate() {
            text.push_str(std::str::from_utf8(c.row(y as i32).unwrap()).unwrap());
            if y < 99 || last {
                text.push_str(nl);
            }
        }
        prop_assert_eq!(Circuit::parse(text.as_bytes()).unwrap(), c);
    }

    #[test]
    fn cir_mutations_give_precise_errors(
        pos in 0usize..15_200,
        edit in 0u8..3,
        byte in any::<u8>(),
    ) {
        let mut bytes = SAMPLES[0].text.as_bytes().to_vec();
        let pos = pos.min(bytes.len() - 1);
        match edit {
            0 => { bytes.remove(pos); }
            1 => bytes.insert(pos, byte),
            _ => bytes[pos] = byte,
        }
        match Circuit::parse(&bytes) {
            Ok(c) => prop_assert_eq!(c.to_text(LineEnding::CrLf).len(), 15_200),
            Err(CircuitError::NonAscii(NonAscii { line, column, byte: b, .. })) => {
                prop_assert!(!b.is_ascii() && (1..=100).contains(&line) && (1..=151).contains(&column));
            }
            Err(CircuitError::LineLength { line, found }) => {
                prop_assert!((1..=100).contains(&line) && found != 150);
            }
            Err(CircuitError::LineCount { found }) => prop_assert!(found != 100),
        }
    }

    #[test]
    fn f1_reader_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..2_000)) {
        if let Ok(f) = ResultFile::parse(&bytes) {
            let _ = judge::judge(&ring(), &f);
        }
        let _ = judge::judge_bytes(&ring(), &bytes);
    }

    #[test]
    fn f1_round_trips(
        pilot in "[^\r\n]{0,30}",
        circuit in "[ -~]{0,20}",
        positions in prop::collection::vec((any::<i32>(), any::<i32>()), 0..50),
        crlf in any::<bool>(),
    ) {
        let file = ResultFile {
            pilot,
            circuit,
            positions: positions.into_iter().map(|(x, y)| Pos::new(x, y)).collect(),
        };
        let ending = if crlf { LineEnding::CrLf } else { LineEnding::Lf };
        prop_assert_eq!(ResultFile::parse(file.to_text(ending).as_bytes()).unwrap(), file);
    }

    #[test]
    fn judge_is_consistent_on_random_laps(
        accels in prop::collection::vec((-1i32..=1, -1i32..=1), 0..60),
        first in 0usize..3,
    ) {
        // Legal accelerations only: every fault is then about the track or the finish.
        let mut lap = vec![physics::START, physics::FIRST_MOVES[first]];
        let mut v = Pos::new(1, lap[1].y - 4);
        for (ax, ay) in accels {
            v = Pos::new(v.x + ax, v.y + ay);
            let p = *lap.last().unwrap();
            lap.push(Pos::new(p.x + v.x, p.y + v.y));
        }
        let c = ring();
        match judge::judge_positions(&c, &lap) {
            Verdict::Valid(l) => {
                prop_assert_eq!(l.moves, lap.len() - 1);
                prop_assert!(l.time > (l.moves - 1) as f64 && l.time <= l.moves as f64);
            }
            Verdict::Invalid(f) => {
                let k = f.step().unwrap();
                prop_assert!(k <= lap.len());
                match f.kind().as_str() {
                    "collision" => prop_assert!(!physics::on_track(&c, lap[k - 1], lap[k])),
                    "off_grid" => prop_assert!(!Circuit::contains(lap[k])),
                    "did_not_finish" => prop_assert_eq!(k, lap.len() - 1),
                    "after_finish" => prop_assert!(k < lap.len()),
                    other => prop_assert!(false, "unexpected fault {}", other),
                }
            }
        }
    }

    #[test]
    fn bmp_reader_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..9_000)) {
        let _ = bmp::read(&bytes);
        let mut with_magic = b"BM".to_vec();
        with_magic.extend_from_slice(&bytes);
        let _ = bmp::read(&with_magic);
    }

    #[test]
    fn bmp_mutations_never_panic(
        edits in prop::collection::vec((0usize..7718, any::<u8>()), 1..8),
        cut in 0usize..7718,
    ) {
        let mut bytes = bmp::write(&ring());
        for (i, b) in edits {
            bytes[i] = b;
        }
        if let Ok(c) = bmp::read(&bytes) {
            let _ = conformity::check(&c);
        }
        bytes.truncate(cut);
        let _ = bmp::read(&bytes);
    }

    #[test]
    fn bmp_round_trips_palette_circuits(c in circuit_from(&colour::PALETTE_CHARS)) {
        prop_assert_eq!(bmp::read(&bmp::write(&c)).unwrap(), c);
    }

    #[test]
    fn conformity_never_panics_and_names_cells(c in painted_sample()) {
        let report = conformity::check(&c);
        for v in &report.violations {
            prop_assert!(!v.cells.is_empty() && !v.message.is_empty());
        }
        prop_assert_eq!(report.is_conforming(), report.rules().is_empty());
    }

    #[test]
    fn conformity_of_random_grids(c in circuit_from(b"       AC")) {
        let report = conformity::check(&c);
        prop_assert!(!report.is_conforming());
    }

    #[test]
    fn crossing_is_antisymmetric(
        (x0, y0, x1, y1) in (0i32..150, 0i32..100, 0i32..150, 0i32..100),
        top in 0i32..10,
        len in 0i32..10,
    ) {
        let line = FinishLine { top, bottom: top + len };
        let (a, b) = (Pos::new(x0, y0), Pos::new(x1, y1));
        prop_assert_eq!(physics::crossing(&line, a, b), -physics::crossing(&line, b, a));
    }

    #[test]
    fn everything_is_on_track_on_an_open_grid(
        (x0, y0, x1, y1) in (0i32..150, 0i32..100, 0i32..150, 0i32..100),
    ) {
        let open = Circuit::filled(b' ').unwrap();
        prop_assert!(physics::on_track(&open, Pos::new(x0, y0), Pos::new(x1, y1)));
    }

    #[test]
    fn a_blocked_cell_lies_on_the_segments_box(
        c in painted_sample(),
        (x0, y0, x1, y1) in (0i32..150, 0i32..100, 0i32..150, 0i32..100),
    ) {
        let (a, b) = (Pos::new(x0, y0), Pos::new(x1, y1));
        if let Some(hit) = physics::first_blocked(&c, a, b) {
            prop_assert!(!c.is_track(hit));
            prop_assert!(hit.x >= x0.min(x1) && hit.x <= x0.max(x1));
            prop_assert!(hit.y >= y0.min(y1) && hit.y <= y0.max(y1));
        } else {
            prop_assert!(c.is_track(a) && c.is_track(b));
        }
    }
}
