//! The editor's panels: colours, conformity, par time, the status line, the notice and the
//! cheatsheet. Each shows part of the session and hands the page an [`Input`] when used.

use std::rc::Rc;

use engine::racetrack::conformity::Report;
use engine::racetrack::{Circuit, Pos, colour};
use yew::prelude::*;

use super::session::{Input, Notice, Par};
use super::tool::{self, Command, Tool};

/// The spec's name of the colour `ch` is drawn in.
pub fn colour_name(ch: u8) -> &'static str {
    colour::PALETTE_NAMES[colour::index(ch)]
}

#[derive(Properties, PartialEq)]
pub struct PaletteProps {
    pub primary: u8,
    pub secondary: u8,
    pub on_input: Callback<Input>,
}

/// The colours: left click picks the primary, right click the secondary.
#[function_component]
pub fn Palette(props: &PaletteProps) -> Html {
    let (primary, secondary) = (props.primary, props.secondary);
    let pick = |secondary: bool, ch: u8| {
        let on_input = props.on_input.clone();
        Callback::from(move |e: MouseEvent| {
            e.prevent_default();
            on_input.emit(Input::SetColour { secondary, ch });
        })
    };
    let swatch = |ch: u8| {
        let label = colour_name(ch);
        let id = if ch == Circuit::TRACK {
            "track".to_owned()
        } else {
            (ch as char).to_string()
        };
        let letter = if ch == Circuit::TRACK {
            String::new()
        } else {
            format!(" ({})", ch as char)
        };
        html! {
            <button class={classes!("swatch", (ch == primary).then_some("primary"),
                    (ch == secondary).then_some("secondary"))}
                style={format!("--swatch:{}", colour::css(ch))}
                title={format!("{label}{letter} — left click: primary, right click: secondary")}
                aria-label={label}
                data-testid={format!("colour-{id}")}
                onclick={pick(false, ch)} oncontextmenu={pick(true, ch)}>
                { if ch == Circuit::TRACK { "track" } else { "" } }
            </button>
        }
    };
    let order = std::iter::once(Circuit::TRACK).chain(
        colour::PALETTE_CHARS
            .iter()
            .copied()
            .filter(|&c| c != Circuit::TRACK),
    );
    let swap = {
        let on_input = props.on_input.clone();
        Callback::from(move |_: MouseEvent| on_input.emit(Input::Command(Command::SwapColours)))
    };
    html! {
        <section class="editor-card">
            <h2>{ "Colours" }</h2>
            <div class="editor-current">
                <div class="pair">
                    <i class="chip big secondary-chip" style={format!("background:{}", colour::css(secondary))}
                        title="secondary (right button)"></i>
                    <i class="chip big primary-chip" style={format!("background:{}", colour::css(primary))}
                        title="primary (left button)" data-testid="primary" data-char={(primary as char).to_string()}></i>
                </div>
                <div class="pair-text">
                    <span>{ format!("Left: {}", colour_name(primary)) }</span>
                    <span>{ format!("Right: {}", colour_name(secondary)) }</span>
                </div>
                <button class="ebtn icon" title="Swap (X)" onclick={swap}>{ "⇄" }</button>
            </div>
            <div class="editor-palette">{ for order.map(swatch) }</div>
        </section>
    }
}

#[derive(Properties, PartialEq)]
pub struct ConformityProps {
    pub report: Rc<Report>,
    /// The revision the report is of.
    pub revision: u64,
    pub millis: f64,
    pub on_input: Callback<Input>,
}

/// The five rules' verdict, each violation a button that zooms to it.
#[function_component]
pub fn Conformity(props: &ConformityProps) -> Html {
    let report = &props.report;
    let conforming = report.is_conforming();
    let rules: Vec<String> = report
        .rules()
        .iter()
        .map(|r| r.number().to_string())
        .collect();
    let problems = report.violations.len();
    html! {
        <section class="editor-card" data-testid="conformity"
            data-conforming={conforming.to_string()} data-rules={rules.join(",")}
            data-revision={props.revision.to_string()}
            data-check-ms={format!("{:.1}", props.millis)}>
            <h2>
                { "Conformity " }
                if conforming {
                    <span class="badge ok">{ "conforming" }</span>
                } else {
                    <span class="badge warn">{ format!("{problems} problem{}",
                        if problems == 1 { "" } else { "s" }) }</span>
                }
            </h2>
            if conforming {
                <p class="hint">{ "All five rules hold: the start zone is on one loop around one infield, at least two cells wide." }</p>
            } else {
                <ul class="editor-violations">
                    { for report.violations.iter().enumerate().map(|(i, v)| {
                        let on_input = props.on_input.clone();
                        let focus = Callback::from(move |_: MouseEvent| on_input.emit(Input::FocusViolation(i)));
                        html! {
                            <li>
                                <button class="violation" data-testid="violation" data-rule={v.rule.number().to_string()}
                                    title="Zoom to it" onclick={focus}>
                                    <span class="rule">{ v.rule.number().to_string() }</span>
                                    <span class="what">
                                        <b>{ v.rule.title() }</b>
                                        <span>{ &v.message }</span>
                                    </span>
                                    if let Some(p) = v.cells.first() {
                                        <span class="where">{ format!("{},{}", p.x, p.y) }</span>
                                    }
                                </button>
                            </li>
                        }
                    }) }
                </ul>
            }
        </section>
    }
}

#[derive(Properties, PartialEq)]
pub struct ParProps {
    pub par: Par,
}

/// The par time: the optimal pilot's lap of the circuit as it is.
#[function_component]
pub fn ParTime(props: &ParProps) -> Html {
    let (state, time, revision, body) = match &props.par {
        Par::NotConforming => (
            "none",
            None,
            None,
            html! { <p class="hint">{ "Make the circuit conform to get its par time." }</p> },
        ),
        Par::Pending { previous, .. } => (
            "pending",
            None,
            None,
            html! {
                <p class="par-value pending">
                    <span class="spinner"></span>
                    { previous.as_ref().map_or("solving…".to_owned(), |l| format!("{} s", l.time_shown())) }
                </p>
            },
        ),
        Par::Done {
            lap,
            revision,
            millis,
            cached,
        } => (
            "done",
            Some(lap.time_shown()),
            Some(*revision),
            html! {
                <>
                    <p class="par-value">{ format!("{} s", lap.time_shown()) }</p>
                    <p class="hint" data-testid="par-detail" data-solve-ms={format!("{millis:.1}")}
                        data-cached={cached.to_string()}>
                        { format!("{} moves by the optimal pilot", lap.moves()) }
                        { if *cached {
                            ", the same track as before.".to_owned()
                        } else {
                            format!(", solved in {millis:.0} ms.")
                        } }
                        { " Press O to draw the lap." }
                    </p>
                </>
            },
        ),
        Par::Failed { reason, revision } => (
            "failed",
            None,
            Some(*revision),
            html! { <p class="error">{ reason }</p> },
        ),
    };
    html! {
        <section class="editor-card" data-testid="par-time" data-state={state}
            data-time={time} data-revision={revision.map(|r| r.to_string())}>
            <h2>{ "Par time" }</h2>
            { body }
        </section>
    }
}

#[derive(Properties, PartialEq)]
pub struct StatusProps {
    /// The cell under the pointer and its character, when it is on the circuit.
    pub cell: Option<(Pos, u8)>,
    /// "selection 3×2", "floating 3×2" or nothing.
    pub selection: AttrValue,
    pub tool: Tool,
    pub track_cells: usize,
    pub name: AttrValue,
}

/// The status line under the canvas.
#[function_component]
pub fn Status(props: &StatusProps) -> Html {
    let cell = match props.cell {
        Some((p, ch)) => {
            let what = if ch == Circuit::TRACK {
                "track".to_owned()
            } else {
                format!("'{}' {}", ch as char, colour_name(ch))
            };
            html! {
                <>
                    <span class="editor-xy" data-testid="status-cell">{ format!("{},{}", p.x, p.y) }</span>
                    <span class="editor-char" data-testid="status-char" data-char={(ch as char).to_string()}>
                        <i class="chip" style={format!("background:{}", colour::css(ch))}></i>{ what }
                    </span>
                </>
            }
        }
        None => html! { <span class="editor-xy muted">{ "–,–" }</span> },
    };
    html! {
        <div class="editor-status" data-testid="status">
            { cell }
            <span class="editor-spacer"></span>
            <span>{ props.selection.clone() }</span>
            <span>{ props.tool.name() }</span>
            <span>{ format!("{} track cells", props.track_cells) }</span>
            <span class="editor-name">{ format!("{}.cir", props.name) }</span>
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct NoticeProps {
    pub notice: Notice,
    pub on_input: Callback<Input>,
}

/// A file opened, or why it could not be.
#[function_component]
pub fn NoticeBar(props: &NoticeProps) -> Html {
    let error = props.notice.error;
    let on_input = props.on_input.clone();
    html! {
        <div class={classes!("editor-notice", error.then_some("error"))}
            role={if error { "alert" } else { "status" }}
            data-testid={if error { "file-error" } else { "notice" }}>
            <span>{ &props.notice.text }</span>
            <button class="ebtn icon" aria-label="Dismiss"
                onclick={Callback::from(move |_: MouseEvent| on_input.emit(Input::DismissNotice))}>{ "×" }</button>
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct CheatsheetProps {
    pub on_input: Callback<Input>,
}

/// Every shortcut, in a dialog.
#[function_component]
pub fn Cheatsheet(props: &CheatsheetProps) -> Html {
    let on_input = props.on_input.clone();
    let close =
        Callback::from(move |_: MouseEvent| on_input.emit(Input::Command(Command::Cheatsheet)));
    html! {
        <div class="editor-modal" data-testid="cheatsheet" role="dialog" aria-label="Keyboard shortcuts"
            onclick={close.clone()}>
            <div class="editor-sheet" onclick={Callback::from(|e: MouseEvent| e.stop_propagation())}>
                <h2>{ "Keyboard shortcuts" }</h2>
                <div class="sheet-cols">
                    <table>
                        { for Tool::ALL.iter().map(|t| html! {
                            <tr><td><kbd>{ t.key() }</kbd></td><td>{ t.name() }</td></tr>
                        }) }
                    </table>
                    <table>
                        { for tool::OTHER_SHORTCUTS.iter().map(|(k, what)| html! {
                            <tr><td><kbd>{ *k }</kbd></td><td>{ *what }</td></tr>
                        }) }
                    </table>
                </div>
                <button class="ebtn" onclick={close}>{ "Close" }</button>
            </div>
        </div>
    }
}
