//! `#/circuits`: the bundled Racetrack circuits, drawn cell by cell in the spec's colours.

use engine::racetrack::Circuit;
use engine::racetrack::samples::{SAMPLES, Sample};
use web_sys::{HtmlCanvasElement, HtmlSelectElement};
use yew::prelude::*;

use crate::canvas::{Surface, annotate, use_viewport};
use crate::draw::circuit::paint;

/// The sample shown first: the first conforming one.
fn default_sample() -> &'static Sample {
    SAMPLES.iter().find(|s| s.conforming).unwrap_or(&SAMPLES[0])
}

#[function_component]
pub fn Circuits() -> Html {
    let sample = use_state(default_sample);
    let parsed = use_memo(*sample, |sample| Circuit::parse(sample.text.as_bytes()));

    let on_change = {
        let sample = sample.clone();
        Callback::from(move |event: Event| {
            let name = event.target_unchecked_into::<HtmlSelectElement>().value();
            if let Some(found) = SAMPLES.iter().find(|s| s.name == name) {
                sample.set(found);
            }
        })
    };

    let canvas_ref = use_node_ref();
    let viewport = use_viewport();
    {
        let canvas_ref = canvas_ref.clone();
        let parsed = parsed.clone();
        use_effect_with((sample.name, viewport), move |(name, _)| {
            if let (Some(canvas), Ok(circuit)) =
                (canvas_ref.cast::<HtmlCanvasElement>(), parsed.as_ref())
                && let Some(surface) = Surface::prepare(&canvas)
            {
                let grid = paint(&surface, circuit);
                annotate(&canvas, "sample", name);
                annotate(&canvas, "cell", grid.cell());
                annotate(&canvas, "origin", format!("{},{}", grid.x(0), grid.y(0)));
            }
        });
    }

    let status = match parsed.as_ref() {
        Ok(circuit) => html! {
            <p class="hint">
                { format!("{} track cells · ", circuit.track_cells()) }
                if sample.conforming {
                    <span class="badge ok">{ "conforming" }</span>
                } else {
                    <span class="badge warn">{ "not conforming" }</span>
                }
            </p>
        },
        Err(err) => html! {
            <p class="error" role="alert" data-testid="circuit-error">
                { format!("{}.cir cannot be read: {err}", sample.name) }
            </p>
        },
    };

    html! {
        <div class="page play">
            <aside class="panel">
                <h1>{ "Circuits" }</h1>
                <p>
                    { "A circuit is 150 × 100 cells: spaces are track (grey), every other \
                       character is decor in one of sixteen colours. The car starts at \
                       (40, 4) and must lap the infield clockwise." }
                </p>
                <label class="field">
                    { "Sample circuit" }
                    <select data-testid="circuit-sample" onchange={on_change}>
                        { for SAMPLES.iter().map(|s| html! {
                            <option value={s.name} selected={s.name == sample.name}>
                                { s.name }{ if s.conforming { "" } else { " (not conforming)" } }
                            </option>
                        }) }
                    </select>
                </label>
                { status }
            </aside>
            <section class="stage">
                <canvas ref={canvas_ref} class="circuit-canvas" data-testid="circuit-canvas"
                        aria-label={format!("circuit {}", sample.name)} role="img" />
            </section>
        </div>
    }
}
