//! `#/pilots`: the Racetrack pilot lab (TESTF1 in the browser).

use yew::prelude::*;

#[function_component]
pub fn Pilots() -> Html {
    html! {
        <div class="page narrow" data-testid="pilots-page">
            <h1>{ "Pilot lab" }</h1>
            <p class="lead">
                { "A pilot drives one lap: from the start point (40, 4), each move keeps or \
                   changes the velocity by one square per axis, and the lap ends when the car \
                   crosses the finish line clockwise." }
            </p>
            <p>
                { "This page will run pilots on the sample circuits and judge their laps with \
                   the referee's rules: time, average speed, and the first fault if any. Until \
                   then, the " }<code>{ "quadrille" }</code>{ " command judges " }
                <code>{ ".F1" }</code>{ " files." }
            </p>
        </div>
    }
}
