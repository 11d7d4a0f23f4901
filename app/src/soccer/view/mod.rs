//! The soccer page's pieces, each a small function component fed plain values and callbacks:
//! the set-up panel, the status line and result banner, the engine's win bar, the history
//! scrubber, the record box and the tool buttons. The page (`pages::soccer`) wires them to its [`Session`].
//!
//! [`Session`]: super::session::Session

mod field;
mod history;
mod record;
mod setup_panel;
mod status;
mod tool_button;
mod win_bar;

pub use field::{CanvasEvent, FieldCanvas};
pub use history::HistoryScrubber;
pub use record::{RecordBox, RecordLoader};
pub use setup_panel::{SetupPanel, SideSetup};
pub use status::{ResultBanner, StatusLine};
pub use tool_button::{ToolButton, ZoomControls};
pub use win_bar::WinBar;

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::{Event, InputEvent, TargetCast};

/// The text of the input an `input` event came from.
fn input_value(event: &InputEvent) -> String {
    event.target_unchecked_into::<HtmlInputElement>().value()
}

/// The value of the select a `change` event came from.
fn select_value(event: &Event) -> String {
    event.target_unchecked_into::<HtmlSelectElement>().value()
}
