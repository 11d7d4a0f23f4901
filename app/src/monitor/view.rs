//! The serial monitor panel: one row per message with direction, time, hex and printable
//! bytes and the decoded meaning; pause, clear, copy and save as a log file.

use std::cell::RefCell;
use std::rc::Rc;

use gloo_timers::callback::Interval;
use wasm_bindgen::JsValue;
use yew::prelude::*;

use super::log::{Log, hex, printable, seconds};
use crate::browser_file::download_text;
use crate::clipboard::copy_text;

/// The log a page shares between its boards (writers) and its monitors (readers).
#[derive(Clone, Debug, Default)]
pub struct SharedLog(pub Rc<RefCell<Log>>);

impl PartialEq for SharedLog {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl SharedLog {
    pub fn borrow_mut(&self) -> std::cell::RefMut<'_, Log> {
        self.0.borrow_mut()
    }

    pub fn borrow(&self) -> std::cell::Ref<'_, Log> {
        self.0.borrow()
    }
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub log: SharedLog,
    #[prop_or_else(|| AttrValue::from("Serial monitor"))]
    pub title: AttrValue,
    /// Show only this source's rows (a side's or a port's name); all when `None`.
    #[prop_or_default]
    pub source: Option<AttrValue>,
    /// The file name "save" offers.
    #[prop_or_else(|| AttrValue::from("serial-log.txt"))]
    pub file_name: AttrValue,
}

pub enum Msg {
    Poll,
    TogglePause,
    Clear,
    Copy,
    Save,
}

/// Rows kept in the page at most (the log itself keeps more; "save" writes them all).
const SHOWN: usize = 1_000;

/// The monitor panel. It looks at the log ten times a second and redraws when it changed.
pub struct SerialMonitor {
    seen: u64,
    paused: bool,
    list: NodeRef,
    _poll: Interval,
}

impl Component for SerialMonitor {
    type Message = Msg;
    type Properties = Props;

    fn create(ctx: &Context<Self>) -> Self {
        let link = ctx.link().clone();
        SerialMonitor {
            seen: ctx.props().log.borrow().version(),
            paused: false,
            list: NodeRef::default(),
            _poll: Interval::new(100, move || link.send_message(Msg::Poll)),
        }
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        let log = &ctx.props().log;
        match msg {
            Msg::Poll => {
                let version = log.borrow().version();
                if self.paused || version == self.seen {
                    return false;
                }
                self.seen = version;
            }
            Msg::TogglePause => self.paused = !self.paused,
            Msg::Clear => match ctx.props().source.as_deref() {
                Some(source) => log.borrow_mut().clear_source(source),
                None => log.borrow_mut().clear(),
            },
            Msg::Copy => {
                copy_text(&log.borrow().to_text_of(ctx.props().source.as_deref()));
                return false;
            }
            Msg::Save => {
                let text = log.borrow().to_text_of(ctx.props().source.as_deref());
                download_text(&text, &ctx.props().file_name);
                return false;
            }
        }
        true
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let log = ctx.props().log.borrow();
        let source = ctx.props().source.as_deref();
        let entries: Vec<_> = log
            .entries()
            .iter()
            .filter(|e| source.is_none_or(|s| e.source == s))
            .collect();
        let skip = entries.len().saturating_sub(SHOWN);
        let link = ctx.link();
        html! {
            <section class="monitor" aria-label={ctx.props().title.clone()}>
                <header class="monitor-bar">
                    <h2 class="monitor-title">{ ctx.props().title.clone() }</h2>
                    <button type="button" class="chip" data-testid="monitor-pause"
                            aria-pressed={self.paused.to_string()}
                            onclick={link.callback(|_| Msg::TogglePause)}>
                        { if self.paused { "Resume" } else { "Pause" } }
                    </button>
                    <button type="button" class="chip" data-testid="monitor-clear"
                            onclick={link.callback(|_| Msg::Clear)}>{ "Clear" }</button>
                    <button type="button" class="chip" data-testid="monitor-copy"
                            onclick={link.callback(|_| Msg::Copy)}>{ "Copy" }</button>
                    <button type="button" class="chip" data-testid="monitor-save"
                            onclick={link.callback(|_| Msg::Save)}>{ "Save" }</button>
                </header>
                <ol class="monitor-rows" data-testid="serial-log" ref={self.list.clone()}>
                    { for entries[skip..].iter().map(|e| html! {
                        <li class={classes!("monitor-row", e.dir.name(), e.partial.then_some("partial"))}
                            data-dir={e.dir.name()} data-side={e.source.clone()}
                            data-label={e.label.clone()} data-hex={hex(&e.bytes)}
                            data-partial={e.partial.then_some("true")}>
                            <span class="monitor-time">{ seconds(e.at_ms) }</span>
                            <span class="monitor-source">{ &e.source }</span>
                            <span class="monitor-dir">{ if e.dir.name() == "tx" { "→" } else { "←" } }</span>
                            <code class="monitor-label">{ &e.label }</code>
                            <code class="monitor-hex">{ hex(&e.bytes) }</code>
                            <code class="monitor-text">{ printable(&e.bytes) }</code>
                        </li>
                    }) }
                </ol>
            </section>
        }
    }

    fn rendered(&mut self, _ctx: &Context<Self>, _first_render: bool) {
        if !self.paused
            && let Some(list) = self.list.cast::<web_sys::Element>()
        {
            // (`scrollTop` is an `i32` or an `f64` depending on web-sys' unstable APIs.)
            let _ = js_sys::Reflect::set(
                &list,
                &JsValue::from_str("scrollTop"),
                &JsValue::from(list.scroll_height()),
            );
        }
    }
}
