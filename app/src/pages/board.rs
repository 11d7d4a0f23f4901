//! `#/board`: FPGA boards on their own, outside a game — real boards on serial ports and the
//! emulated reference player, each with a serial monitor and a manual console.

use engine::soccer::Side;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::monitor::SerialMonitor;
use crate::serial::{BoardConsole, BoardKind, BoardSetup, Boards, api};

#[function_component]
pub fn Board() -> Html {
    let boards = use_memo((), |()| Boards::new());
    {
        // Leaving the page closes its ports: the soccer page may want them next.
        let boards = boards.clone();
        use_effect_with((), move |()| move || boards.release());
    }
    let kinds = use_state(|| [BoardKind::Serial, BoardKind::Emulated]);
    let slot = |side: Side, number: usize| {
        let name = side.name();
        let kind = kinds[number];
        let choose = {
            let kinds = kinds.clone();
            Callback::from(move |event: Event| {
                let Some(select) = event.target_dyn_into::<HtmlSelectElement>() else {
                    return;
                };
                if let Some(kind) = BoardKind::from_value(&select.value()) {
                    let mut next = *kinds;
                    next[number] = kind;
                    kinds.set(next);
                }
            })
        };
        html! {
            <section class="board-slot" data-testid={format!("board-slot-{name}")}>
                <header class="board-slot-head">
                    <h2>{ format!("Board {}", number + 1) }</h2>
                    <select data-testid={format!("board-kind-{name}")} onchange={choose}
                            aria-label="Kind of board">
                        <option value="serial" selected={kind == BoardKind::Serial}>{ "Serial port" }</option>
                        <option value="emulated" selected={kind == BoardKind::Emulated}>{ "Emulated board" }</option>
                    </select>
                </header>
                <BoardSetup boards={(*boards).clone()} side={side} kind={kind} />
                <BoardConsole boards={(*boards).clone()} side={side} kind={kind} />
                <SerialMonitor log={boards.log()} source={Some(AttrValue::from(name))}
                               title={format!("Board {} monitor", number + 1)}
                               file_name={format!("board-{}-serial.log", number + 1)} />
            </section>
        }
    };
    html! {
        <div class="page board-page" data-testid="board-page">
            <h1>{ "FPGA boards" }</h1>
            <p class="lead">
                { "In the FPGA Challenge each player is a circuit on a Terasic DE2-115 board that \
                   receives the field size and the opponent's turns over RS-232 (115200 baud, \
                   8N2) and answers with its own turn. Connect a board here to watch and poke \
                   its serial line; to play it, choose “Serial port” or “Emulated board” for a \
                   side on the Paper Soccer page." }
            </p>
            if !api::is_supported() {
                <p class="board-note" data-testid="serial-unsupported-note">
                    { "This browser has no Web Serial API, so real boards cannot be reached \
                       from here (use Chrome, Edge or Opera); the emulated board works \
                       everywhere." }
                </p>
            }
            <div class="board-slots">
                { slot(Side::Red, 0) }
                { slot(Side::Blue, 1) }
            </div>
        </div>
    }
}
