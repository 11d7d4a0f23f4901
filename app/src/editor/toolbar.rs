//! The editor's bars: the file and view bar above the canvas and the tool column beside it.
//! Every button hands the page an [`Input`] for the session.

use engine::racetrack::samples::SAMPLES;
use web_sys::{File, HtmlSelectElement};
use yew::prelude::*;

use super::session::Input;
use super::tool::{Command, Tool};
use crate::browser_file;
use crate::icon::Icon;

#[derive(Properties, PartialEq)]
pub struct BarProps {
    /// The circuit's name (selects its preset, if it is one).
    pub name: AttrValue,
    pub can_undo: bool,
    pub can_redo: bool,
    /// How close the view is ("6×").
    pub zoom: AttrValue,
    pub grid: bool,
    pub show_lap: bool,
    /// The hidden `.cir` and `.bmp` file inputs (the page opens them on `Ctrl+O`).
    pub cir_input: NodeRef,
    pub bmp_input: NodeRef,
    pub on_input: Callback<Input>,
    /// Files chosen in either picker.
    pub on_files: Callback<Vec<File>>,
}

/// The file and view bar.
#[function_component]
pub fn EditorBar(props: &BarProps) -> Html {
    let send = |input: Input| {
        let on_input = props.on_input.clone();
        Callback::from(move |_: MouseEvent| on_input.emit(input.clone()))
    };
    let cmd = |c: Command| send(Input::Command(c));
    let on_files = browser_file::on_chosen(props.on_files.clone());
    let on_preset = {
        let on_input = props.on_input.clone();
        Callback::from(move |e: Event| {
            let name = e.target_unchecked_into::<HtmlSelectElement>().value();
            on_input.emit(Input::Preset(name));
        })
    };
    let toggle = |on: bool| classes!("ebtn", on.then_some("on"));
    html! {
        <div class="editor-bar" role="toolbar" aria-label="File and view">
            <div class="editor-group">
                <button class="ebtn" title="New blank circuit" data-testid="new"
                    onclick={send(Input::New)}>{ Icon::New.html() }<span>{ "New" }</span></button>
                <button class="ebtn" title="Open a .cir (Ctrl+O), or drop one anywhere"
                    onclick={cmd(Command::Open)}>{ Icon::Open.html() }<span>{ "Open" }</span></button>
                <button class="ebtn" title="Save as .cir (Ctrl+S)" data-testid="save-cir"
                    onclick={send(Input::SaveCir)}>{ Icon::Save.html() }<span>{ "Save" }</span></button>
                <button class="ebtn" title="Import a 150×100 BMP" data-testid="import-bmp"
                    onclick={send(Input::ImportBmp)}>{ "BMP in" }</button>
                <button class="ebtn" title="Export as 16-colour BMP" data-testid="export-bmp"
                    onclick={send(Input::ExportBmp)}>{ "BMP out" }</button>
                <button class="ebtn" title="Export as PNG" data-testid="export-png"
                    onclick={send(Input::ExportPng)}>{ "PNG" }</button>
                <input ref={props.cir_input.clone()} type="file" accept=".cir,.txt,.bmp"
                    class="editor-hidden" data-testid="cir-file" onchange={on_files.clone()} />
                <input ref={props.bmp_input.clone()} type="file" accept=".bmp"
                    class="editor-hidden" data-testid="bmp-file" onchange={on_files} />
            </div>
            <label class="editor-preset">
                <span>{ "Preset" }</span>
                <select data-testid="circuit-sample" onchange={on_preset}>
                    { for SAMPLES.iter().map(|s| html! {
                        <option value={s.name} selected={s.name == props.name.as_str()}>
                            { s.name }{ if s.conforming { "" } else { " (not conforming)" } }
                        </option>
                    }) }
                </select>
            </label>
            <div class="editor-group">
                <button class="ebtn icon" title="Undo (Ctrl+Z)" data-testid="undo"
                    disabled={!props.can_undo} onclick={cmd(Command::Undo)}>{ Icon::Undo.html() }</button>
                <button class="ebtn icon" title="Redo (Ctrl+Shift+Z, Ctrl+Y)" data-testid="redo"
                    disabled={!props.can_redo} onclick={cmd(Command::Redo)}>{ Icon::Redo.html() }</button>
            </div>
            <div class="editor-group">
                <button class="ebtn icon" title="Zoom out (−)" data-testid="zoom-out"
                    onclick={cmd(Command::ZoomOut)}>{ "−" }</button>
                <span class="editor-zoom" data-testid="zoom">{ props.zoom.clone() }</span>
                <button class="ebtn icon" title="Zoom in (+)" data-testid="zoom-in"
                    onclick={cmd(Command::ZoomIn)}>{ "+" }</button>
                <button class="ebtn" title="Fit (0)" data-testid="zoom-fit"
                    onclick={cmd(Command::ZoomFit)}>{ "Fit" }</button>
                <button class="ebtn" title="1:1 (1)" onclick={cmd(Command::ZoomOne)}>{ "1:1" }</button>
            </div>
            <div class="editor-group">
                <button class={toggle(props.grid)} title="Cell grid (G)"
                    aria-pressed={props.grid.to_string()} onclick={cmd(Command::ToggleGrid)}>
                    { Icon::Grid.html() }<span>{ "Grid" }</span>
                </button>
                <button class={toggle(props.show_lap)} title="Optimal lap (O)"
                    data-testid="show-lap" aria-pressed={props.show_lap.to_string()}
                    onclick={cmd(Command::ToggleLap)}>{ Icon::Lap.html() }<span>{ "Lap" }</span></button>
                <button class="ebtn icon" title="Keyboard shortcuts (?)" data-testid="cheatsheet-button"
                    onclick={cmd(Command::Cheatsheet)}>{ "?" }</button>
            </div>
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct ToolButtonProps {
    pub tool: Tool,
    pub active: bool,
    pub on_input: Callback<Input>,
}

/// One tool of the tool column: its icon and key.
#[function_component]
pub fn ToolButton(props: &ToolButtonProps) -> Html {
    let t = props.tool;
    let on_input = props.on_input.clone();
    html! {
        <button class={classes!("tool", props.active.then_some("active"))}
            title={format!("{} ({})", t.name(), t.key())} aria-label={t.name()}
            aria-pressed={props.active.to_string()}
            data-testid={format!("tool-{}", t.id())}
            onclick={Callback::from(move |_: MouseEvent| on_input.emit(Input::Command(Command::Tool(t))))}>
            { Icon::Tool(t).html() }
            <kbd>{ t.key().trim_start_matches("Shift+") }</kbd>
        </button>
    }
}

#[derive(Properties, PartialEq)]
pub struct ToolsProps {
    pub tool: Tool,
    pub on_input: Callback<Input>,
}

/// The tool column (a row on narrow screens).
#[function_component]
pub fn Tools(props: &ToolsProps) -> Html {
    html! {
        <div class="editor-tools" role="toolbar" aria-label="Tools">
            { for Tool::ALL.iter().map(|&t| html! {
                <ToolButton tool={t} active={t == props.tool} on_input={props.on_input.clone()} />
            }) }
        </div>
    }
}
