//! Quadrille in the browser.
use yew::prelude::*;

#[function_component]
fn App() -> Html {
    html! { <h1>{ "Quadrille" }</h1> }
}

fn main() {
    console_error_panic_hook::set_once();
    yew::Renderer::<App>::new().render();
}
