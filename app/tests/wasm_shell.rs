//! The app shell in a real browser: routing from `location.hash`, and the Paper Soccer page
//! drawing its field on a canvas (wasm-bindgen-test, headless Chromium via `cargo xtask test`).
#![cfg(target_arch = "wasm32")]

use std::time::Duration;

use app::geometry::{FieldView, buffer_size};
use app::route::Route;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn routes_parse_the_same_in_the_browser() {
    for route in Route::NAV {
        assert_eq!(Route::from_hash(route.href()), route);
    }
    assert_eq!(Route::from_hash("#/nowhere"), Route::NotFound);
}

#[wasm_bindgen_test]
fn geometry_is_exact_in_wasm_floats() {
    assert_eq!(buffer_size(301.5, 200.25, 1.5), (452, 300));
    let view = FieldView::fit(8, 10, 800, 600);
    assert_eq!(view.point(4, 5), (400, 300));
}

async fn settle() {
    // Two frames' worth: yew renders, then effects draw.
    yew::platform::time::sleep(Duration::from_millis(50)).await;
}

fn document() -> web_sys::Document {
    web_sys::window()
        .and_then(|w| w.document())
        .expect("a document")
}

#[wasm_bindgen_test]
async fn the_soccer_route_draws_the_ball_on_the_centre_point() {
    let window = web_sys::window().expect("a window");
    window.location().set_hash("#/soccer").expect("hash");
    let host: HtmlElement = document().create_element("div").unwrap().unchecked_into();
    host.set_attribute("style", "width: 640px; height: 480px")
        .unwrap();
    document().body().unwrap().append_child(&host).unwrap();
    yew::Renderer::<app::App>::with_root(host.clone().into()).render();
    settle().await;

    let main = host
        .query_selector("main")
        .unwrap()
        .expect("the shell renders <main>");
    assert_eq!(
        main.get_attribute("data-route").as_deref(),
        Some("#/soccer")
    );
    let canvas: HtmlCanvasElement = host
        .query_selector("canvas[data-testid=soccer-board]")
        .unwrap()
        .expect("the soccer page has a canvas")
        .unchecked_into();
    assert_eq!(canvas.get_attribute("data-field").as_deref(), Some("8x10"));
    let ball = canvas
        .get_attribute("data-ball")
        .expect("the ball position is published");
    let (x, y) = ball.split_once(',').expect("x,y");
    let (x, y): (i32, i32) = (x.parse().unwrap(), y.parse().unwrap());
    let ctx: CanvasRenderingContext2d = canvas.get_context("2d").unwrap().unwrap().unchecked_into();
    let rgba = ctx.get_image_data(x, y, 1, 1).unwrap().data().to_vec();
    assert_eq!(rgba, vec![0xf5, 0x9e, 0x0b, 0xff], "amber ball at {ball}");

    // Following a link re-routes without a reload.
    window.location().set_hash("#/circuits").expect("hash");
    settle().await;
    let main = host.query_selector("main").unwrap().unwrap();
    assert_eq!(
        main.get_attribute("data-route").as_deref(),
        Some("#/circuits")
    );
    assert!(
        host.query_selector("canvas[data-testid=circuit-canvas]")
            .unwrap()
            .is_some()
    );
}
