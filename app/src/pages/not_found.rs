//! Any fragment that names no page.

use yew::prelude::*;

use crate::route::Route;

#[function_component]
pub fn NotFound() -> Html {
    html! {
        <div class="page narrow" data-testid="not-found">
            <h1>{ "Page not found" }</h1>
            <p>{ "This address names no page of Quadrille." }</p>
            <a class="button" href={Route::Home.href()}>{ "Back home" }</a>
        </div>
    }
}
