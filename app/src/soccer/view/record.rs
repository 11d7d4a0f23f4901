//! The record: the game's (copy, download, the engine's suggestion) and one to load.

use engine::soccer::record::Record;
use web_sys::{HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

use crate::soccer::recorded::RecordedGame;
use crate::soccer::session::SearchFigures;

/// The record box's placeholder: a legal game (the judge accepts it), to show the format.
pub const EXAMPLE_RECORD: &str = "8x10 red: 3/01/2";

#[derive(Properties, PartialEq)]
pub struct RecordBoxProps {
    /// The record of the game on screen, if there is one.
    pub record: Option<AttrValue>,
    /// What the engine suggests (or that it is thinking).
    pub suggestion: Option<AttrValue>,
    /// How it searched, once it answered: `data-depth`, `data-nodes` and `data-millis` on the
    /// suggestion (the e2e suite compares them with the CLI's search).
    #[prop_or_default]
    pub search: Option<SearchFigures>,
    pub on_copy: Callback<()>,
    pub on_download: Callback<()>,
}

/// The game's record under the field.
#[function_component]
pub fn RecordBox(props: &RecordBoxProps) -> Html {
    let none = props.record.is_none();
    html! {
        <div class="soccer-record">
            <div class="soccer-record-head">
                <span>{ "Record" }</span>
                if let Some(text) = &props.suggestion {
                    <span class="soccer-suggestion" data-testid="suggestion"
                          data-depth={props.search.map(|s| s.depth.to_string())}
                          data-nodes={props.search.map(|s| s.nodes.to_string())}
                          data-millis={props.search.map(|s| format!("{:.3}", s.millis))}>
                        { text }
                    </span>
                }
                <span class="soccer-record-actions">
                    <button type="button" class="chip" data-testid="copy-record" disabled={none}
                            onclick={props.on_copy.reform(|_: MouseEvent| ())}>{ "Copy" }</button>
                    <button type="button" class="chip" data-testid="download-record" disabled={none}
                            onclick={props.on_download.reform(|_: MouseEvent| ())}>{ "Download" }</button>
                </span>
            </div>
            if let Some(record) = &props.record {
                <code data-testid="record">{ record }</code>
            } else {
                <code class="soccer-placeholder">{ "No game yet." }</code>
            }
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct RecordLoaderProps {
    /// A record to load as the page opens (a league game's link), as if typed and loaded.
    #[prop_or_default]
    pub initial: Option<AttrValue>,
    /// The game of a record the engine accepted.
    pub on_load: Callback<RecordedGame>,
}

/// The game of record `text`, or why there is none.
pub fn load(text: &str) -> Result<RecordedGame, String> {
    let record = Record::parse(text.trim()).map_err(|err| format!("Not a record: {err}."))?;
    RecordedGame::from_record(&record)
        .map_err(|err| format!("The moves contradict the record: {err}."))
}

/// The box to paste a record into, or open a file, and show its game.
#[function_component]
pub fn RecordLoader(props: &RecordLoaderProps) -> Html {
    let text = use_state(String::new);
    let error = use_state(|| None::<String>);
    let submit = {
        let (text, error, on_load) = (text.clone(), error.clone(), props.on_load.clone());
        Callback::from(move |typed: String| {
            match load(&typed) {
                Ok(recorded) => {
                    error.set(None);
                    on_load.emit(recorded);
                }
                Err(why) => error.set(Some(why)),
            }
            text.set(typed);
        })
    };
    let oninput = {
        let text = text.clone();
        Callback::from(move |e: InputEvent| {
            text.set(e.target_unchecked_into::<HtmlTextAreaElement>().value())
        })
    };
    let onclick = {
        let (text, submit) = (text.clone(), submit.clone());
        Callback::from(move |_: MouseEvent| submit.emit((*text).clone()))
    };
    {
        let (submit, initial) = (submit.clone(), props.initial.clone());
        use_effect_with((), move |()| {
            if let Some(record) = initial {
                submit.emit(record.to_string());
            }
        });
    }
    let on_file = submit.reform(|file: String| file.trim().to_owned());
    html! {
        <>
            <h2 class="soccer-subhead">{ "Records" }</h2>
            <textarea class="soccer-record-input" data-testid="record-input" rows="3"
                      placeholder={EXAMPLE_RECORD} spellcheck="false"
                      value={(*text).clone()} {oninput} />
            <div class="soccer-actions">
                <button type="button" class="button" data-testid="load-record" {onclick}>
                    { "Load record" }
                </button>
                <label class="button ghost soccer-file">
                    { "Open file…" }
                    <input type="file" accept=".txt,.rec,text/plain" data-testid="record-file"
                           onchange={open_file(on_file)} />
                </label>
            </div>
            if let Some(error) = &*error {
                <p class="error" role="alert" data-testid="record-error">{ error }</p>
            }
        </>
    }
}

/// An `onchange` for a file input that reads the chosen file as text.
fn open_file(done: Callback<String>) -> Callback<Event> {
    Callback::from(move |event: Event| {
        let input = event.target_unchecked_into::<HtmlInputElement>();
        let Some(file) = input.files().and_then(|files| files.get(0)) else {
            return;
        };
        let done = done.clone();
        wasm_bindgen_futures::spawn_local(async move {
            if let Ok(text) = wasm_bindgen_futures::JsFuture::from(file.text()).await {
                done.emit(text.as_string().unwrap_or_default());
            }
        });
        input.set_value("");
    })
}

#[cfg(test)]
mod tests {
    use engine::soccer::record::Record;

    use super::{EXAMPLE_RECORD, load};

    #[test]
    fn the_placeholder_is_a_legal_game() {
        let record = Record::parse(EXAMPLE_RECORD).unwrap();
        let game = record.replay().expect("the engine accepts the example");
        assert_eq!(game.outcome(), None);
        assert_eq!(game.turn_number(), record.turns.len());
        assert!(load(EXAMPLE_RECORD).is_ok());
    }

    #[test]
    fn records_that_are_not_games_say_why() {
        assert!(
            load("8x10 red 3")
                .unwrap_err()
                .starts_with("Not a record: ")
        );
        let err = load("8x10 red: 3/0/4452").unwrap_err();
        assert!(
            err.starts_with("The moves contradict the record: "),
            "{err}"
        );
    }
}
