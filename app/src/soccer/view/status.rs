//! The line above the field (both sides' chips with their clocks, and a message) and the
//! banner of the result.

use engine::soccer::{BySide, Outcome};
use yew::prelude::*;

use crate::soccer::session::{Chip, capitalised};

#[derive(Properties, PartialEq)]
pub struct StatusProps {
    /// Both sides' chips; `None` before the first game.
    pub chips: Option<BySide<Chip>>,
    pub message: AttrValue,
}

/// The players' chips and what is going on.
#[function_component]
pub fn StatusLine(props: &StatusProps) -> Html {
    let Some(chips) = &props.chips else {
        return html! {
            <div class="soccer-status">
                <span class="soccer-hint">{ props.message.clone() }</span>
            </div>
        };
    };
    html! {
        <div class="soccer-status">
            { for chips.iter().map(|(_, c)| chip(c)) }
            <span class="soccer-hint" data-testid="status">{ props.message.clone() }</span>
        </div>
    }
}

fn chip(chip: &Chip) -> Html {
    let name = chip.side.name();
    html! {
        <div class={classes!("soccer-player", name, chip.active.then_some("active"))}
             data-testid={format!("player-{name}")}>
            <span class="dot" />
            <span class="name">{ format!("{} · {}", capitalised(chip.side), chip.who) }</span>
            if let Some(took) = &chip.took {
                <span class="took" data-testid={format!("took-{name}")}>{ took }</span>
            }
            if let Some(clock) = &chip.clock {
                <span class={classes!("clock", chip.running.then_some("running"))}
                      data-testid={format!("clock-{name}")}>{ clock }</span>
            }
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct ResultProps {
    pub outcome: Option<Outcome>,
}

/// Who won and why, once the game is over.
#[function_component]
pub fn ResultBanner(props: &ResultProps) -> Html {
    let Some(Outcome { winner, reason }) = props.outcome else {
        return Html::default();
    };
    html! {
        <div class={classes!("soccer-result", winner.name())} data-testid="result" role="status"
             data-winner={winner.name()} data-reason={reason.name()}>
            <strong>{ format!("{} wins", capitalised(winner)) }</strong>
            <span>{ format!(" — {} ({reason}).", why(reason.name())) }</span>
        </div>
    }
}

/// The banner's words for a reason of spec §5.
fn why(reason: &str) -> &'static str {
    match reason {
        "goal" => "scored a goal",
        "own_goal" => "won by an own goal",
        "stuck" => "won: the opponent is stuck",
        "illegal_step" => "won: the opponent made an illegal step",
        "incomplete_turn" => "won: the opponent's turn was incomplete",
        "after_end" => "won: the opponent stepped after the turn ended",
        "timeout" => "won on time",
        _ => "won: the opponent left",
    }
}
