//! Keys that play: the protocol's digits `0`–`7` as they are, the numeric keypad by its layout
//! (`8` up, `9` up-right, … `7` up-left, as the keys sit around `5`), the arrow keys, and
//! Backspace to take back a step; `+` and `-` (on the keypad too) zoom the field.

use engine::soccer::Dir;

/// What a key asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyAction {
    Step(Dir),
    TakeBack,
    /// Zoom steps: `1` in, `-1` out.
    Zoom(i32),
}

/// The action of a key, from the event's `key` (the character) and `code` (the physical key).
pub fn key_action(key: &str, code: &str) -> Option<KeyAction> {
    if let Some(pad) = code.strip_prefix("Numpad") {
        // The keypad by position, whatever NumLock says (without it `key` is an arrow or Home).
        let dir = match pad {
            "8" => Dir::N,
            "9" => Dir::NE,
            "6" => Dir::E,
            "3" => Dir::SE,
            "2" => Dir::S,
            "1" => Dir::SW,
            "4" => Dir::W,
            "7" => Dir::NW,
            "Add" => return Some(KeyAction::Zoom(1)),
            "Subtract" => return Some(KeyAction::Zoom(-1)),
            _ => return None,
        };
        return Some(KeyAction::Step(dir));
    }
    let dir = match key {
        "Backspace" => return Some(KeyAction::TakeBack),
        "+" | "=" => return Some(KeyAction::Zoom(1)),
        "-" | "_" => return Some(KeyAction::Zoom(-1)),
        "ArrowUp" => Dir::N,
        "ArrowRight" => Dir::E,
        "ArrowDown" => Dir::S,
        "ArrowLeft" => Dir::W,
        _ => match key.as_bytes() {
            [digit] => Dir::from_digit(*digit)?,
            _ => return None,
        },
    };
    Some(KeyAction::Step(dir))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_are_the_protocols_directions() {
        for dir in Dir::ALL {
            let key = dir.to_string();
            let code = format!("Digit{key}");
            assert_eq!(key_action(&key, &code), Some(KeyAction::Step(dir)));
        }
        assert_eq!(key_action("8", "Digit8"), None);
        assert_eq!(key_action("9", "Digit9"), None);
        assert_eq!(key_action("a", "KeyA"), None);
    }

    #[test]
    fn the_keypad_goes_by_position() {
        assert_eq!(key_action("8", "Numpad8"), Some(KeyAction::Step(Dir::N)));
        assert_eq!(key_action("1", "Numpad1"), Some(KeyAction::Step(Dir::SW)));
        assert_eq!(
            key_action("ArrowLeft", "Numpad4"),
            Some(KeyAction::Step(Dir::W))
        );
        assert_eq!(key_action("9", "Numpad9"), Some(KeyAction::Step(Dir::NE)));
        assert_eq!(key_action("5", "Numpad5"), None);
        assert_eq!(key_action("0", "Numpad0"), None);
    }

    #[test]
    fn arrows_and_backspace() {
        assert_eq!(
            key_action("ArrowDown", "ArrowDown"),
            Some(KeyAction::Step(Dir::S))
        );
        assert_eq!(
            key_action("Backspace", "Backspace"),
            Some(KeyAction::TakeBack)
        );
    }

    #[test]
    fn plus_and_minus_zoom() {
        assert_eq!(key_action("+", "Equal"), Some(KeyAction::Zoom(1)));
        assert_eq!(key_action("=", "Equal"), Some(KeyAction::Zoom(1)));
        assert_eq!(key_action("-", "Minus"), Some(KeyAction::Zoom(-1)));
        assert_eq!(key_action("+", "NumpadAdd"), Some(KeyAction::Zoom(1)));
        assert_eq!(key_action("-", "NumpadSubtract"), Some(KeyAction::Zoom(-1)));
    }
}
