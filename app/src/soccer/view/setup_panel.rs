//! The set-up panel: the field's size, both sides, who starts, the engine's seed.

use engine::soccer::Side;
use engine::soccer::search::{MAX_LEVEL, level_label};
use yew::prelude::*;

use super::{input_value, select_value};
use crate::serial::{BoardKind, BoardSetup, Boards};
use crate::soccer::setup::{self, Edit, MACHINE_LIMIT_MS, Setup};

/// The size presets offered next to the size inputs.
const PRESETS: [(u8, u8); 2] = [(8, 10), (10, 8)];

#[derive(Properties, PartialEq)]
pub struct SetupPanelProps {
    pub setup: Setup,
    /// Why the last "Start game" did not start one.
    pub error: Option<AttrValue>,
    /// The boards a side may be.
    pub boards: Boards,
    pub on_edit: Callback<Edit>,
    pub on_start: Callback<()>,
    /// The record loader, shown below.
    #[prop_or_default]
    pub children: Html,
}

#[function_component]
pub fn SetupPanel(props: &SetupPanelProps) -> Html {
    let setup = &props.setup;
    let on_edit = &props.on_edit;
    let size_error = setup.field().err();
    let starter_options = [("random", "Random"), ("red", "Red"), ("blue", "Blue")];
    html! {
        <aside class="panel soccer-panel">
            <h1>{ "Paper Soccer" }</h1>
            <p>
                { "Red defends the top goal, blue the bottom one. Every step draws a line; \
                   landing on a point a line already touches means stepping again." }
            </p>
            <div class="size-form">
                { size_input(on_edit, "Width", "width", &setup.width, Edit::Width) }
                { size_input(on_edit, "Length", "length", &setup.length, Edit::Length) }
            </div>
            <div class="soccer-presets">
                { for PRESETS.iter().map(|&(w, l)| html! {
                    <button type="button" class="chip"
                            onclick={on_edit.reform(move |_: MouseEvent| Edit::Preset(w, l))}>
                        { format!("{w}×{l}") }
                    </button>
                }) }
            </div>
            if let Some(error) = size_error {
                <p class="error" role="alert" data-testid="size-error">{ error.to_string() }</p>
            }
            { for [Side::Red, Side::Blue].into_iter().map(|side| html! {
                <SideSetup {side} setup={setup.side(side).clone()} boards={props.boards.clone()}
                           on_edit={on_edit.clone()} />
            }) }
            <div class="soccer-row">
                <label>
                    { "Who starts" }
                    <select data-testid="starter"
                            onchange={on_edit.reform(|e: Event| Edit::Starter(select_value(&e)))}>
                        { for starter_options.iter().map(|&(value, text)| html! {
                            <option {value} selected={setup.starter.name() == value}>{ text }</option>
                        }) }
                    </select>
                </label>
                <label>
                    { "Engine seed" }
                    <input type="number" min="0" data-testid="seed" value={setup.seed.clone()}
                           oninput={on_edit.reform(|e: InputEvent| Edit::Seed(input_value(&e)))} />
                </label>
            </div>
            if let Some(error) = &props.error {
                <p class="error" role="alert" data-testid="setup-error">{ error }</p>
            }
            <button type="button" class="button soccer-start" data-testid="start-game"
                    onclick={props.on_start.reform(|_: MouseEvent| ())}>
                { "Start game" }
            </button>
            { props.children.clone() }
        </aside>
    }
}

/// One side of the field-size form, labelled `label`: the browser offers the even numbers in
/// 2..=254 that a field side may be (spec §1), and each edit is sent as `edit` of the text.
fn size_input(
    on_edit: &Callback<Edit>,
    label: &'static str,
    testid: &'static str,
    value: &str,
    edit: fn(String) -> Edit,
) -> Html {
    html! {
        <label>
            { label }
            <input type="number" min="2" max="254" step="2" inputmode="numeric"
                   data-testid={testid} value={value.to_owned()}
                   oninput={on_edit.reform(move |e: InputEvent| edit(input_value(&e)))} />
        </label>
    }
}

#[derive(Properties, PartialEq)]
pub struct SideSetupProps {
    pub side: Side,
    pub setup: setup::SideSetup,
    pub boards: Boards,
    pub on_edit: Callback<Edit>,
}

/// One side's player, engine level and time limit (and its board, if it is one).
#[function_component]
pub fn SideSetup(props: &SideSetupProps) -> Html {
    let SideSetupProps {
        side,
        setup,
        on_edit,
        ..
    } = props;
    let side = *side;
    let name = side.name();
    let title = match side {
        Side::Red => "Red (top goal)",
        Side::Blue => "Blue (bottom goal)",
    };
    // Left empty, a board still answers to its referee's clock (an emulated board's in
    // simulated time); a person or the page's engine then has none.
    let limit_placeholder = match BoardKind::from_value(&setup.kind) {
        Some(_) => MACHINE_LIMIT_MS.to_string(),
        None => "none".to_owned(),
    };
    let option = |value: &'static str, text: &'static str| {
        html! { <option {value} selected={setup.kind == value}>{ text }</option> }
    };
    html! {
        <fieldset class={classes!("soccer-side", name)}>
            <legend>{ title }</legend>
            <div class="soccer-row">
                <label>
                    { "Player" }
                    <select data-testid={format!("side-{name}")}
                            onchange={on_edit.reform(move |e: Event| Edit::Kind(side, select_value(&e)))}>
                        { option("human", "Human") }
                        { option("engine", "Engine") }
                        { option("serial", "Serial port") }
                        { option("emulated", "Emulated board") }
                    </select>
                </label>
                if setup.kind == "engine" {
                    <label class="narrow">
                        { "Level" }
                        <select data-testid={format!("level-{name}")} title={level_label(setup.level)}
                                onchange={on_edit.reform(move |e: Event| Edit::Level(side, select_value(&e)))}>
                            { for (0..=MAX_LEVEL).map(|level| html! {
                                <option value={level.to_string()} selected={setup.level == level}>
                                    { level_label(level) }
                                </option>
                            }) }
                        </select>
                    </label>
                }
                <label class="narrow">
                    { "Limit (ms)" }
                    <input type="number" min="1" placeholder={limit_placeholder}
                           data-testid={format!("limit-{name}")} value={setup.limit.clone()}
                           oninput={on_edit.reform(move |e: InputEvent| Edit::Limit(side, input_value(&e)))} />
                </label>
            </div>
            if let Some(kind) = BoardKind::from_value(&setup.kind) {
                <BoardSetup boards={props.boards.clone()} {side} {kind} />
            }
        </fieldset>
    }
}
