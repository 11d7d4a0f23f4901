//! One entrant's row in the contest form: name, pilot, circuit (sample or file), estimate.

use std::rc::Rc;

use engine::racetrack::samples;
use wasm_bindgen_futures::spawn_local;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::browser_file;
use crate::contest::session::{CircuitFile, Entrant};

/// A change to one entrant of the form.
pub(crate) enum EntrantChange {
    Remove,
    Name(String),
    Estimate(String),
    Circuit(CircuitFile),
}

#[derive(Properties, PartialEq)]
pub(crate) struct EntrantProps {
    pub(crate) index: usize,
    pub(crate) entrant: Entrant,
    pub(crate) edit: Callback<(usize, EntrantChange)>,
}

#[function_component]
pub(crate) fn EntrantRow(p: &EntrantProps) -> Html {
    let k = p.index;
    let e = &p.entrant;
    let send = |make: fn(String) -> EntrantChange| {
        let edit = p.edit.clone();
        Callback::from(move |ev: Event| {
            edit.emit((
                k,
                make(ev.target_unchecked_into::<HtmlInputElement>().value()),
            ))
        })
    };
    let pick_sample = {
        let edit = p.edit.clone();
        Callback::from(move |ev: Event| {
            let name = ev.target_unchecked_into::<HtmlSelectElement>().value();
            if let Some(c) = CircuitFile::sample(&name, format!("{name}.cir")) {
                edit.emit((k, EntrantChange::Circuit(c)));
            }
        })
    };
    let pick_file = {
        let edit = p.edit.clone();
        Callback::from(move |ev: Event| {
            let input: HtmlInputElement = ev.target_unchecked_into();
            let Some(file) = input.files().and_then(|l| l.get(0)) else {
                return;
            };
            let edit = edit.clone();
            spawn_local(async move {
                let name = file.name();
                if let Ok(bytes) = browser_file::read(file).await {
                    edit.emit((
                        k,
                        EntrantChange::Circuit(CircuitFile {
                            name,
                            bytes: Rc::new(bytes),
                        }),
                    ));
                }
            });
        })
    };
    let remove = {
        let edit = p.edit.clone();
        Callback::from(move |_: MouseEvent| edit.emit((k, EntrantChange::Remove)))
    };
    html! {
        <li data-testid="contest-entrant" data-name={e.name.clone()}
            data-circuit={e.circuit.name.clone()}>
            <input aria-label="Name" value={e.name.clone()} onchange={send(EntrantChange::Name)} />
            <span class="contest-pilot">{ e.pilot.label() }</span>
            <select aria-label="Circuit" onchange={pick_sample}>
                <option selected=true>{ e.circuit.name.clone() }</option>
                { for samples::SAMPLES.iter().filter(|s| s.conforming).map(|s| html! {
                    <option value={s.name}>{ format!("sample {}", s.name) }</option>
                }) }
            </select>
            <label class="chip">{ "Circuit file " }
                <input type="file" accept=".cir" onchange={pick_file} /></label>
            <input aria-label="Estimate (s)" placeholder="estimate (s)" inputmode="decimal"
                   data-testid="contest-estimate"
                   value={e.estimate.map(|v| v.to_string()).unwrap_or_default()}
                   onchange={send(EntrantChange::Estimate)} />
            <button type="button" class="chip" data-testid="contest-remove" onclick={remove}>
                { "Remove" }</button>
        </li>
    }
}
