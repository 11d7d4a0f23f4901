//! `#/board`: Paper Soccer players on DE2-115 boards, simulated or real.

use yew::prelude::*;

#[function_component]
pub fn Board() -> Html {
    html! {
        <div class="page narrow" data-testid="board-page">
            <h1>{ "FPGA board" }</h1>
            <p class="lead">
                { "In the FPGA Challenge each player is a circuit on a Terasic DE2-115 board \
                   that receives the field size and the opponent's turns over RS-232 \
                   (115200 baud, 8N2) and answers with its own turn." }
            </p>
            <p>
                { "This page will run Verilog players in the cycle-based simulator and referee \
                   a real board over Web Serial." }
            </p>
        </div>
    }
}
