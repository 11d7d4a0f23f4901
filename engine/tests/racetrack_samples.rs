//! Every conforming sample circuit is drivable: a lap found by search over the engine's physics
//! is judged valid, with the stopwatch figures the spec defines.

use engine::racetrack::conformity;
use engine::racetrack::judge::{self, Verdict};
use engine::racetrack::physics::{self, FIRST_MOVES, START};
use engine::racetrack::samples::SAMPLES;
use engine::racetrack::{Circuit, LineEnding, ResultFile};

#[test]
fn every_conforming_sample_has_a_valid_clockwise_lap() {
    for sample in SAMPLES.iter().filter(|s| s.conforming) {
        let circuit = Circuit::parse(sample.text.as_bytes()).unwrap();
        assert!(
            conformity::check(&circuit).is_conforming(),
            "{}",
            sample.name
        );
        let lap = testkit::racetrack::find_lap(&circuit)
            .unwrap_or_else(|| panic!("{}: no lap found", sample.name));
        assert_eq!(lap[0], START);
        assert!(FIRST_MOVES.contains(&lap[1]), "{}", sample.name);
        // Through the file format and back, as a pilot would hand it in.
        let file = testkit::racetrack::result_file("bfs", &format!("{}.cir", sample.name), &lap);
        let text = file.to_text(LineEnding::CrLf);
        let verdict = judge::judge_bytes(&circuit, text.as_bytes());
        let Verdict::Valid(result) = verdict else {
            panic!("{}: {:?}", sample.name, verdict);
        };
        let n = lap.len() - 1;
        assert_eq!(result.moves, n);
        let f = physics::finish_fraction(lap[n - 1], lap[n]);
        assert!(f > 0.0 && f <= 1.0);
        assert_eq!(result.time, (n - 1) as f64 + f);
        assert!(result.speed_kmh > 0.0);
        // The lap really goes around: it reaches the bottom half of the grid.
        assert!(lap.iter().any(|p| p.y > 50), "{}", sample.name);
        // Any proper prefix did not finish; one more position is too many.
        let short = judge::judge_positions(&circuit, &lap[..n]);
        assert_eq!(
            short.fault().map(|f| f.kind().as_str()),
            Some("did_not_finish")
        );
        let mut long = lap.clone();
        long.push(lap[n]);
        let after = judge::judge_positions(&circuit, &long);
        assert_eq!(after.fault().and_then(|f| f.step()), Some(n + 1));
        println!(
            "{:12} {:3} moves  {:7.2} s  {:6.1} km/h",
            sample.name, n, result.time, result.speed_kmh
        );
        let _ = ResultFile::parse(text.as_bytes()).unwrap();
    }
}
