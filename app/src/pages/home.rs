//! `#/`: what Quadrille is, and a card for each game.

use yew::prelude::*;

use crate::route::Route;

#[function_component]
pub fn Home() -> Html {
    html! {
        <div class="page home">
            <section class="hero">
                <h1>{ "Quadrille" }</h1>
                <p class="lead">
                    { "Two games played on squared paper, rebuilt from their contests' rule \
                       books: one engine in Rust, in your browser and on the command line." }
                </p>
            </section>
            <section class="cards">
                <article class="card" data-testid="intro-soccer">
                    <h2>{ "Paper Soccer" }</h2>
                    <p>
                        { "The FPGA Challenge: two players push a ball from point to point \
                           across a field of squares, drawing every step. A step that lands on \
                           a point already touched by a line bounces and plays again; a player \
                           who scores in the opponent's goal — or leaves the opponent stuck — \
                           wins. Entrants built their players on DE2-115 FPGA boards that talk \
                           to a referee over RS-232." }
                    </p>
                    <a class="button" href={Route::Soccer.href()}>{ "Open the field" }</a>
                </article>
                <article class="card" data-testid="intro-racetrack">
                    <h2>{ "Racetrack" }</h2>
                    <p>
                        { "The 1995 “F1 pilot” contest: a car moves on a 150 × 100 grid, and \
                           each second it may change its velocity by at most one square in \
                           each direction. Pilot programs race round circuits drawn in sixteen \
                           colours; the fastest clean lap wins the pool." }
                    </p>
                    <div class="card-actions">
                        <a class="button" href={Route::Circuits.href()}>{ "See the circuits" }</a>
                        <a class="button ghost" href={Route::Pilots.href()}>{ "Pilot lab" }</a>
                    </div>
                </article>
            </section>
            <section class="cards small">
                <article class="card">
                    <h3>{ "FPGA boards" }</h3>
                    <p>
                        { "Run Verilog players in the built-in simulator, or referee a real \
                           board over Web Serial." }
                    </p>
                    <a class="link" href={Route::Board.href()}>{ "Board page →" }</a>
                </article>
                <article class="card">
                    <h3>{ "Command line" }</h3>
                    <p>
                        { "The same rules judge laps, check circuits and referee boards from \
                           the " }<code>{ "quadrille" }</code>{ " command." }
                    </p>
                </article>
            </section>
        </div>
    }
}
