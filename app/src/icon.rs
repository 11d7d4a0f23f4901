//! The small inline SVG icons of the pages' buttons (inline SVG: the media-control and tool
//! characters are missing from many fonts).

use yew::prelude::*;

use crate::editor::tool::Tool;

/// An icon: line drawings for the editor's tools and actions and for zooming, solid shapes for
/// moving through a replay or a game's history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Icon {
    Tool(Tool),
    New,
    Open,
    Save,
    Undo,
    Redo,
    Grid,
    Lap,
    ZoomIn,
    ZoomOut,
    /// To the first position.
    First,
    /// One step or turn back.
    Back,
    /// One step or turn forward.
    Forward,
    /// To the latest position.
    Last,
    Play,
    Pause,
}

impl Icon {
    /// The SVG path, in a 24 × 24 box.
    fn path(self) -> &'static str {
        match self {
            Icon::Tool(tool) => match tool {
                Tool::Pencil => "M4 20l4-1 11-11-3-3L5 16l-1 4zM14 6l3 3",
                Tool::Brush => "M5 19c2 0 3-1 3-3s-1-3-3-3M8 16l9-9 2 2-9 9M5 19H3",
                Tool::Line => "M5 19L19 5M4 20h2v-2M18 6V4h2v2",
                Tool::Rectangle => "M4 6h16v12H4z",
                Tool::FilledRectangle => "M4 6h16v12H4zM7 9h10v6H7z",
                Tool::Fill => "M5 12l7-7 7 7-7 7zM19 15c1 2 2 3 2 4a2 2 0 01-4 0c0-1 1-2 2-4z",
                Tool::Select => {
                    "M4 4h3M10 4h4M17 4h3v3M20 10v4M20 17v3h-3M14 20h-4M7 20H4v-3M4 14v-4M4 7V4"
                }
                Tool::Eyedropper => "M14 4l6 6-2 2-6-6zM13 7l-8 8v4h4l8-8",
                Tool::Eraser => "M8 20h12M4 15l9-9 6 6-7 7H8z M9 10l6 6",
                Tool::Replace => "M4 7h11l-3-3M20 17H9l3 3M4 7v3M20 17v-3",
            },
            Icon::New => "M6 3h8l5 5v13H6zM14 3v5h5M12 11v6M9 14h6",
            Icon::Open => "M3 7h6l2 2h10v10H3zM3 7V5h6",
            Icon::Save => "M5 4h11l3 3v13H5zM8 4v5h7V4M8 20v-6h8v6",
            Icon::Undo => "M9 5L4 10l5 5M4 10h10a5 5 0 010 10h-3",
            Icon::Redo => "M15 5l5 5-5 5M20 10H10a5 5 0 000 10h3",
            Icon::Grid => "M4 4h16v16H4zM4 9h16M4 14h16M9 4v16M14 4v16",
            Icon::Lap => "M5 17c0-6 4-10 9-10 3 0 5 2 5 4s-2 4-5 4H9M9 15l-3 2 3 2",
            Icon::ZoomIn => "M5 12h14M12 5v14",
            Icon::ZoomOut => "M5 12h14",
            Icon::First => "M4 5h2v14H4zM13 5v14l-6-7zM20 5v14l-6-7z",
            Icon::Last => "M18 5h2v14h-2zM11 5v14l6-7zM4 5v14l6-7z",
            Icon::Back => "M6 5h2v14H6zM20 5v14L9 12z",
            Icon::Forward => "M16 5h2v14h-2zM4 5v14l11-7z",
            Icon::Pause => "M7 5h4v14H7zM13 5h4v14h-4z",
            Icon::Play => "M7 4v16l13-8z",
        }
    }

    /// Whether it is a solid shape (the replay's) rather than a line drawing.
    fn solid(self) -> bool {
        matches!(
            self,
            Icon::First | Icon::Back | Icon::Forward | Icon::Last | Icon::Play | Icon::Pause
        )
    }

    /// The icon as inline SVG, hidden from assistive technology (its button has the label).
    pub fn html(self) -> Html {
        if self.solid() {
            html! {
                <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
                    <path d={self.path()} fill="currentColor" />
                </svg>
            }
        } else {
            html! {
                <svg class="icon" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor"
                    stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round">
                    <path d={self.path()} />
                </svg>
            }
        }
    }
}
