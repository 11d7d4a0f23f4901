//! The row of download buttons under a running contest or league: each a text the page has
//! (results, records, the plan) saved as a file.

use yew::prelude::*;

use crate::browser_file::download_text;

/// One download: its button's hook and words, the file's name and its text.
#[derive(Clone, Debug, PartialEq)]
pub struct Export {
    pub testid: &'static str,
    pub label: &'static str,
    pub file: &'static str,
    pub text: String,
}

impl Export {
    pub fn new(
        testid: &'static str,
        label: &'static str,
        file: &'static str,
        text: String,
    ) -> Self {
        Export {
            testid,
            label,
            file,
            text,
        }
    }
}

#[derive(Properties, PartialEq)]
pub struct ExportsProps {
    /// The `class` of the row (the page's).
    pub class: AttrValue,
    pub exports: Vec<Export>,
}

/// The buttons, in order.
#[function_component]
pub fn Exports(props: &ExportsProps) -> Html {
    html! {
        <div class={props.class.clone()}>
            { for props.exports.iter().map(|e| {
                let (text, file) = (e.text.clone(), e.file);
                let onclick = Callback::from(move |_: MouseEvent| download_text(&text, file));
                html! {
                    <button type="button" class="chip" data-testid={e.testid} {onclick}>
                        { e.label }</button>
                }
            }) }
        </div>
    }
}
