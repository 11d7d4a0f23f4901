//! The circuit editor's model and worker handler in a real browser (wasm-bindgen-test, headless
//! Chromium via `cargo xtask test`): the bitmap the canvas is painted from, undo across a
//! flood fill, and the optimal pilot compiled to WebAssembly answering a par-time request.
#![cfg(target_arch = "wasm32")]

use app::editor::document::Document;
use app::editor::render;
use app::editor::view::{Frame, View};
use app::workers::racetrack::{Request, Response, handle};
use engine::racetrack::pilot::Pilot;
use engine::racetrack::samples;
use engine::racetrack::{Circuit, Pos, paint};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::CanvasRenderingContext2d;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn the_bitmap_holds_one_pixel_per_cell_in_the_spec_colours() {
    let mut circuit = Circuit::blank();
    circuit.set(Pos::new(0, 0), b'J').unwrap();
    circuit.set(Pos::new(149, 99), b'P').unwrap();
    let bitmap = render::bitmap().expect("a canvas");
    render::update_bitmap(&bitmap, &circuit).expect("pixels written");
    let ctx = bitmap
        .get_context("2d")
        .unwrap()
        .unwrap()
        .dyn_into::<CanvasRenderingContext2d>()
        .unwrap();
    let at = |x: i32, y: i32| ctx.get_image_data(x, y, 1, 1).unwrap().data().0;
    assert_eq!(at(0, 0), vec![255, 0, 0, 255]);
    assert_eq!(at(149, 99), vec![255, 255, 255, 255]);
    assert_eq!(at(40, 4), vec![128, 128, 128, 255]);
    assert_eq!(at(1, 1), vec![0, 128, 0, 255]);
}

#[wasm_bindgen_test]
fn a_flood_fill_is_one_undo_step() {
    let mut doc = Document::new(Circuit::blank());
    let cells = paint::flood(doc.circuit(), Pos::new(40, 4));
    assert_eq!(cells.len(), 200);
    assert!(doc.paint(cells, b'M'));
    assert!(doc.end_stroke());
    assert_eq!(doc.circuit().cell(Pos::new(59, 6)), b'M');
    assert!(doc.undo());
    assert_eq!(doc.circuit(), &Circuit::blank());
}

#[wasm_bindgen_test]
fn the_view_maps_pointer_to_cell_at_a_fractional_pixel_ratio() {
    let frame = Frame {
        width: 1350,
        height: 960,
        ratio: 1.5,
    };
    let view = View::fit(frame);
    assert_eq!(view.scale, 9);
    let (x, y) = view.centre_of(Pos::new(40, 4));
    assert_eq!(view.cell_at(x, y), Pos::new(40, 4));
    assert_eq!(frame.one_scale(), 2);
}

#[wasm_bindgen_test]
fn the_worker_handler_solves_a_sample_in_wasm() {
    let ring = samples::by_name("ring").unwrap().text.to_owned();
    let response = handle(
        Request::Solve {
            id: 3,
            circuit: ring,
            pilot: Pilot::Optimal,
        },
        || 0.0,
    );
    let Response::Solved { id, outcome, .. } = response else {
        panic!("not a solve answer: {response:?}");
    };
    assert_eq!(id, 3);
    let lap = outcome.expect("ring has a lap");
    assert_eq!(lap.positions()[0], Pos::new(40, 4));
    assert_eq!(lap.time_shown(), "52.38");
}
