//! The history scrubber: step through the turns played, continue from one, ask for a hint.

use yew::prelude::*;

use super::input_value;
use super::tool_button::ToolButton;
use crate::icon::Icon;

#[derive(Properties, PartialEq)]
pub struct HistoryProps {
    /// The turn shown and the number of completed turns.
    pub at: usize,
    pub total: usize,
    pub can_continue: bool,
    pub can_suggest: bool,
    /// Show the position after that many turns (`usize::MAX`: the latest).
    pub on_scrub: Callback<usize>,
    pub on_continue: Callback<()>,
    pub on_suggest: Callback<()>,
}

#[function_component]
pub fn HistoryScrubber(props: &HistoryProps) -> Html {
    let HistoryProps { at, total, .. } = *props;
    let scrub = |turns: usize| props.on_scrub.reform(move |()| turns);
    let on_continue = props.on_continue.reform(|_: MouseEvent| ());
    let on_suggest = props.on_suggest.reform(|_: MouseEvent| ());
    let oninput = props
        .on_scrub
        .reform(|e: InputEvent| input_value(&e).parse().unwrap_or(0));
    html! {
        <div class="soccer-history">
            <ToolButton icon={Icon::First} title="First position" testid="history-first"
                        onclick={scrub(0)} />
            <ToolButton icon={Icon::Back} title="One turn back" testid="history-back"
                        onclick={scrub(at.saturating_sub(1))} />
            <input type="range" min="0" max={total.to_string()} value={at.to_string()}
                   data-testid="history" aria-label="Turn" {oninput} />
            <ToolButton icon={Icon::Forward} title="One turn forward" testid="history-forward"
                        onclick={scrub(at + 1)} />
            <ToolButton icon={Icon::Last} title="Latest position" testid="history-last"
                        onclick={scrub(usize::MAX)} />
            <span class="soccer-turn" data-testid="history-turn">{ format!("turn {at}/{total}") }</span>
            <button type="button" class="chip" data-testid="continue" disabled={!props.can_continue}
                    title="A new game from this position, with the sides set up on the left"
                    onclick={on_continue}>{ "Continue from here" }</button>
            <button type="button" class="chip" data-testid="suggest" disabled={!props.can_suggest}
                    onclick={on_suggest}>{ "Suggest a turn" }</button>
        </div>
    }
}
