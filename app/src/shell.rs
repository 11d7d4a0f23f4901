//! The frame around every page: the navigation bar, hash routing and the footer.

use gloo_events::EventListener;
use yew::prelude::*;

use crate::pages;
use crate::route::Route;

fn current_route() -> Route {
    let hash = web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default();
    Route::from_hash(&hash)
}

/// The route in `location.hash`, following `hashchange` (links, back and forward).
#[hook]
fn use_route() -> Route {
    let route = use_state(current_route);
    {
        let route = route.clone();
        use_effect_with((), move |_| {
            let listener = web_sys::window().map(|window| {
                EventListener::new(&window, "hashchange", move |_| route.set(current_route()))
            });
            move || drop(listener)
        });
    }
    *route
}

/// The whole app.
#[function_component]
pub fn App() -> Html {
    let route = use_route();
    use_effect_with(route, |route| {
        if let Some(document) = web_sys::window().and_then(|w| w.document()) {
            document.set_title(&match route {
                Route::Home => "Quadrille".to_owned(),
                other => format!("{other} · Quadrille"),
            });
        }
    });
    let page = match route {
        Route::Home => html! { <pages::home::Home /> },
        Route::Soccer => html! { <pages::soccer::Soccer /> },
        Route::Circuits => html! { <pages::circuits::Circuits /> },
        Route::Pilots => html! { <pages::pilots::Pilots /> },
        Route::Board => html! { <pages::board::Board /> },
        Route::League => html! { <pages::league::League /> },
        Route::Contest => html! { <pages::contest::Contest /> },
        Route::NotFound => html! { <pages::not_found::NotFound /> },
    };
    html! {
        <>
            <header class="topbar">
                <a class="brand" href={Route::Home.href()}>
                    <span class="brand-mark" aria-hidden="true">{ "▦" }</span>
                    { "Quadrille" }
                </a>
                <nav aria-label="Pages">
                    { for Route::NAV.iter().map(|&r| nav_link(r, route)) }
                </nav>
            </header>
            <main data-route={route.href()}>{ page }</main>
            <footer class="footer">
                { "Quadrille — two squared-paper games in Rust and WebAssembly. " }
                { "Rules: Paper Soccer (FPGA Challenge) and Racetrack (F1 pilot, 1995)." }
            </footer>
        </>
    }
}

fn nav_link(target: Route, current: Route) -> Html {
    let active = target == current;
    let slug = target.href().trim_start_matches("#/");
    let testid = if slug.is_empty() {
        "nav-home".to_owned()
    } else {
        format!("nav-{slug}")
    };
    html! {
        <a href={target.href()}
           class={classes!("nav-link", active.then_some("active"))}
           aria-current={active.then_some("page")}
           data-testid={testid}>
            { target.title() }
        </a>
    }
}
