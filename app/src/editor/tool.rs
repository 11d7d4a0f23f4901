//! The editor's tools and commands, and the keyboard shortcut of each (one table, so the
//! cheatsheet can never disagree with the keys that work).

/// A drawing tool: what a press on the canvas does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tool {
    /// One cell at a time, following the pointer.
    Pencil,
    /// The 3×3 brush.
    Brush,
    /// A straight line, walked as the referee walks a move.
    Line,
    /// A rectangle outline.
    Rectangle,
    /// A filled rectangle.
    FilledRectangle,
    /// Flood fill of the 4-connected region under the pointer.
    Fill,
    /// Rectangular selection; drag inside it to move it.
    Select,
    /// Picks the colour under the pointer.
    Eyedropper,
    /// Paints track, whatever the colour chosen.
    Eraser,
    /// Replaces every cell of the clicked colour.
    Replace,
}

impl Tool {
    /// Every tool, in toolbar order.
    pub const ALL: [Tool; 10] = [
        Tool::Pencil,
        Tool::Brush,
        Tool::Line,
        Tool::Rectangle,
        Tool::FilledRectangle,
        Tool::Fill,
        Tool::Select,
        Tool::Eyedropper,
        Tool::Eraser,
        Tool::Replace,
    ];

    /// The tool's name in the interface.
    pub fn name(self) -> &'static str {
        match self {
            Tool::Pencil => "Pencil",
            Tool::Brush => "Brush 3×3",
            Tool::Line => "Line",
            Tool::Rectangle => "Rectangle",
            Tool::FilledRectangle => "Filled rectangle",
            Tool::Fill => "Flood fill",
            Tool::Select => "Select, copy, move",
            Tool::Eyedropper => "Eyedropper",
            Tool::Eraser => "Eraser (paints track)",
            Tool::Replace => "Replace colour",
        }
    }

    /// A stable identifier for tests and CSS.
    pub fn id(self) -> &'static str {
        match self {
            Tool::Pencil => "pencil",
            Tool::Brush => "brush",
            Tool::Line => "line",
            Tool::Rectangle => "rectangle",
            Tool::FilledRectangle => "filled-rectangle",
            Tool::Fill => "fill",
            Tool::Select => "select",
            Tool::Eyedropper => "eyedropper",
            Tool::Eraser => "eraser",
            Tool::Replace => "replace",
        }
    }

    /// The key that selects it (its cheatsheet label).
    pub fn key(self) -> &'static str {
        match self {
            Tool::Pencil => "P",
            Tool::Brush => "B",
            Tool::Line => "L",
            Tool::Rectangle => "R",
            Tool::FilledRectangle => "Shift+R",
            Tool::Fill => "F",
            Tool::Select => "S",
            Tool::Eyedropper => "I",
            Tool::Eraser => "E",
            Tool::Replace => "K",
        }
    }

    /// Whether the tool draws a shape from the press to the release (previewed meanwhile).
    pub fn is_shape(self) -> bool {
        matches!(self, Tool::Line | Tool::Rectangle | Tool::FilledRectangle)
    }
}

/// Everything a key can ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    Tool(Tool),
    Undo,
    Redo,
    Copy,
    Cut,
    Paste,
    /// Clears the selection to the secondary colour.
    Delete,
    /// Drops the selection (writing a floating block down).
    Deselect,
    SwapColours,
    ToggleGrid,
    ToggleLap,
    ZoomIn,
    ZoomOut,
    ZoomFit,
    ZoomOne,
    Cheatsheet,
    Save,
    Open,
}

/// The keys of one shortcut, as typed in [`shortcut`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Keys<'a> {
    /// `KeyboardEvent.key`.
    pub key: &'a str,
    /// Ctrl or ⌘.
    pub ctrl: bool,
    pub shift: bool,
    pub alt: bool,
}

/// The command a key press asks for, if any.
pub fn shortcut(keys: Keys<'_>) -> Option<Command> {
    if keys.alt {
        return None;
    }
    let key = keys.key.to_ascii_lowercase();
    if keys.ctrl {
        return match (key.as_str(), keys.shift) {
            ("z", false) => Some(Command::Undo),
            ("z", true) | ("y", false) => Some(Command::Redo),
            ("c", false) => Some(Command::Copy),
            ("x", false) => Some(Command::Cut),
            ("v", false) => Some(Command::Paste),
            ("s", false) => Some(Command::Save),
            ("o", false) => Some(Command::Open),
            _ => None,
        };
    }
    Some(match key.as_str() {
        "p" => Command::Tool(Tool::Pencil),
        "b" => Command::Tool(Tool::Brush),
        "l" => Command::Tool(Tool::Line),
        "r" if keys.shift => Command::Tool(Tool::FilledRectangle),
        "r" => Command::Tool(Tool::Rectangle),
        "f" => Command::Tool(Tool::Fill),
        "s" => Command::Tool(Tool::Select),
        "i" => Command::Tool(Tool::Eyedropper),
        "e" => Command::Tool(Tool::Eraser),
        "k" => Command::Tool(Tool::Replace),
        "x" => Command::SwapColours,
        "g" => Command::ToggleGrid,
        "o" => Command::ToggleLap,
        "+" | "=" => Command::ZoomIn,
        "-" | "_" => Command::ZoomOut,
        "0" => Command::ZoomFit,
        "1" => Command::ZoomOne,
        "?" => Command::Cheatsheet,
        "delete" | "backspace" => Command::Delete,
        "escape" | "enter" => Command::Deselect,
        _ => return None,
    })
}

/// The cheatsheet: every shortcut that is not a tool's, with what it does.
pub const OTHER_SHORTCUTS: &[(&str, &str)] = &[
    (
        "Left / right button",
        "paint the primary / secondary colour",
    ),
    ("X", "swap primary and secondary colours"),
    ("Ctrl+Z", "undo"),
    ("Ctrl+Shift+Z, Ctrl+Y", "redo"),
    (
        "Ctrl+C / Ctrl+X / Ctrl+V",
        "copy / cut / paste the selection",
    ),
    ("Delete", "clear the selection to the secondary colour"),
    ("Enter, Esc", "drop the selection"),
    ("Wheel, pinch, + / −", "zoom"),
    ("0 / 1", "fit / 1:1"),
    ("Space+drag, middle drag, two fingers", "pan"),
    ("G", "toggle the cell grid"),
    ("O", "show the optimal lap"),
    ("Ctrl+S / Ctrl+O", "save / open a .cir"),
    ("?", "this cheatsheet"),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn press(key: &str, ctrl: bool, shift: bool) -> Option<Command> {
        shortcut(Keys {
            key,
            ctrl,
            shift,
            alt: false,
        })
    }

    #[test]
    fn every_tool_has_its_advertised_key() {
        for tool in Tool::ALL {
            let (shift, key) = match tool.key().strip_prefix("Shift+") {
                Some(k) => (true, k),
                None => (false, tool.key()),
            };
            assert_eq!(
                press(key, false, shift),
                Some(Command::Tool(tool)),
                "{tool:?}"
            );
            assert_eq!(
                press(&key.to_lowercase(), false, shift),
                Some(Command::Tool(tool))
            );
        }
    }

    #[test]
    fn undo_redo_and_friends() {
        assert_eq!(press("z", true, false), Some(Command::Undo));
        assert_eq!(press("Z", true, true), Some(Command::Redo));
        assert_eq!(press("y", true, false), Some(Command::Redo));
        assert_eq!(press("?", false, true), Some(Command::Cheatsheet));
        assert_eq!(press("Escape", false, false), Some(Command::Deselect));
        assert_eq!(press("q", false, false), None);
        assert_eq!(press("q", true, false), None);
        let alt = Keys {
            key: "p",
            ctrl: false,
            shift: false,
            alt: true,
        };
        assert_eq!(shortcut(alt), None);
    }
}
