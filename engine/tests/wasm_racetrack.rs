//! The racetrack engine in the browser: the samples parse and check, a lap is judged, BMPs
//! convert, exactly as natively.

#![cfg(target_arch = "wasm32")]

use engine::racetrack::conformity;
use engine::racetrack::judge::{self, FaultKind};
use engine::racetrack::physics::{self, Pos};
use engine::racetrack::samples::SAMPLES;
use engine::racetrack::{Circuit, LineEnding, bmp};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn samples_check_as_labelled() {
    for s in SAMPLES {
        let report = conformity::check_bytes(s.text.as_bytes());
        assert_eq!(report.is_conforming(), s.conforming, "{}", s.name);
    }
}

#[wasm_bindgen_test]
fn judge_names_a_collision() {
    let ring = Circuit::parse(SAMPLES[0].text.as_bytes()).unwrap();
    let lap = b"me\r\nring.cir\r\n40,4\r\n41,4\r\n41,3\r\n41,1\r\n41,0\r\n";
    let verdict = judge::judge_bytes(&ring, lap);
    let fault = verdict.fault().unwrap();
    assert_eq!(fault.kind(), FaultKind::Collision);
    assert_eq!(fault.step(), Some(4));
    assert!(physics::on_track(&ring, Pos::new(40, 4), Pos::new(45, 5)));
}

#[wasm_bindgen_test]
fn bmp_and_text_round_trip() {
    let ring = Circuit::parse(SAMPLES[0].text.as_bytes()).unwrap();
    assert_eq!(bmp::read(&bmp::write(&ring)).unwrap(), ring);
    assert_eq!(
        Circuit::parse(ring.to_text(LineEnding::Lf).as_bytes()).unwrap(),
        ring
    );
}
