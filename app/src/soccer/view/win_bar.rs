//! The bar beside the field that shows who the engine thinks is winning.

use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct WinBarProps {
    /// The chance that Red wins (0 to 1), by the engine; Blue's is the rest.
    pub red: f64,
}

/// A two-coloured bar, Red's share on the left, with both chances in words: the engine's
/// estimate for the position shown (its search's after a suggestion, its static evaluation
/// otherwise), so a player sees a game's swings as the history is scrubbed.
#[function_component]
pub fn WinBar(props: &WinBarProps) -> Html {
    let red = if props.red.is_finite() {
        props.red.clamp(0.0, 1.0)
    } else {
        0.5
    };
    let red_percent = (red * 100.0).round();
    let blue_percent = 100.0 - red_percent;
    let title = format!("The engine's estimate: Red wins {red_percent} %, Blue {blue_percent} %");
    html! {
        <div class="win-bar" data-testid="win-bar" data-red={format!("{red:.3}")}
             role="meter" aria-label="Chance that Red wins" aria-valuemin="0" aria-valuemax="100"
             aria-valuenow={red_percent.to_string()} {title}>
            <span class="win-bar-red" style={format!("width: {red_percent}%")}>
                { format!("Red {red_percent} %") }
            </span>
            <span class="win-bar-blue" style={format!("width: {blue_percent}%")}>
                { format!("Blue {blue_percent} %") }
            </span>
        </div>
    }
}
