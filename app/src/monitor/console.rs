//! The manual console: bytes typed as hex or as text (with escapes) to send to a board, for
//! debugging it outside a game.

use std::fmt;

/// How the console's line is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputMode {
    /// Pairs of hex digits, spaces allowed: `7b 34 7d 0a`.
    Hex,
    /// Text; `\n`, `\r`, `\t`, `\\` and `\xNN` are escapes: `w\x08\n`.
    Text,
}

/// Why a console line is not bytes, with the character position (0-based) of the trouble.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub at: usize,
    pub what: &'static str,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "character {}: {}", self.at + 1, self.what)
    }
}

/// The bytes a console line stands for.
pub fn parse(line: &str, mode: InputMode) -> Result<Vec<u8>, ParseError> {
    match mode {
        InputMode::Hex => parse_hex(line),
        InputMode::Text => parse_text(line),
    }
}

fn hex_value(c: char) -> Option<u8> {
    c.to_digit(16).map(|d| d as u8)
}

fn parse_hex(line: &str) -> Result<Vec<u8>, ParseError> {
    let mut out = Vec::new();
    let mut high: Option<(usize, u8)> = None;
    for (at, c) in line.chars().enumerate() {
        if c.is_whitespace() || c == ',' {
            if let Some((at, _)) = high {
                return Err(ParseError {
                    at,
                    what: "a lone hex digit (write bytes as two digits)",
                });
            }
            continue;
        }
        let Some(value) = hex_value(c) else {
            return Err(ParseError {
                at,
                what: "not a hex digit",
            });
        };
        match high.take() {
            Some((_, h)) => out.push(h << 4 | value),
            None => high = Some((at, value)),
        }
    }
    if let Some((at, _)) = high {
        return Err(ParseError {
            at,
            what: "a lone hex digit (write bytes as two digits)",
        });
    }
    Ok(out)
}

fn parse_text(line: &str) -> Result<Vec<u8>, ParseError> {
    let mut out = Vec::new();
    let mut chars = line.chars().enumerate();
    while let Some((at, c)) = chars.next() {
        if c != '\\' {
            if !c.is_ascii() {
                return Err(ParseError {
                    at,
                    what: "not ASCII (use \\xNN for other bytes)",
                });
            }
            out.push(c as u8);
            continue;
        }
        let bad = ParseError {
            at,
            what: "an unknown escape (\\n, \\r, \\t, \\\\ or \\xNN)",
        };
        match chars.next().map(|(_, c)| c) {
            Some('n') => out.push(b'\n'),
            Some('r') => out.push(b'\r'),
            Some('t') => out.push(b'\t'),
            Some('\\') => out.push(b'\\'),
            Some('x') => {
                let digits: Option<Vec<u8>> = (0..2)
                    .map(|_| chars.next().and_then(|(_, c)| hex_value(c)))
                    .collect();
                match digits.as_deref() {
                    Some([h, l]) => out.push(h << 4 | l),
                    _ => return Err(bad),
                }
            }
            _ => return Err(bad),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_lines_are_pairs_of_digits() {
        assert_eq!(parse("7b 34 7D,0a", InputMode::Hex), Ok(b"{4}\n".to_vec()));
        assert_eq!(parse("7b347d", InputMode::Hex), Ok(b"{4}".to_vec()));
        assert_eq!(parse("", InputMode::Hex), Ok(vec![]));
        assert_eq!(parse("7 b", InputMode::Hex).unwrap_err().at, 0);
        assert_eq!(parse("7bz", InputMode::Hex).unwrap_err().at, 2);
        assert_eq!(parse("7b3", InputMode::Hex).unwrap_err().at, 2);
    }

    #[test]
    fn text_lines_have_escapes_for_any_byte() {
        assert_eq!(parse("w\\x0a\\n", InputMode::Text), Ok(b"w\x0a\n".to_vec()));
        assert_eq!(
            parse("{}\\r\\t\\\\", InputMode::Text),
            Ok(b"{}\r\t\\".to_vec())
        );
        let err = parse("a\\q", InputMode::Text).unwrap_err();
        assert_eq!(err.at, 1);
        assert_eq!(
            err.to_string(),
            "character 2: an unknown escape (\\n, \\r, \\t, \\\\ or \\xNN)"
        );
        assert!(parse("\\x4", InputMode::Text).is_err());
        assert_eq!(parse("é", InputMode::Text).unwrap_err().at, 0);
    }

    #[test]
    fn every_byte_survives_the_log_printable_form() {
        // What the monitor prints as text is a console line that sends the same bytes.
        let all: Vec<u8> = (0..=255).collect();
        let shown = super::super::log::printable(&all);
        assert_eq!(parse(&shown, InputMode::Text), Ok(all));
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod fuzz {
    use proptest::prelude::*;

    use super::*;
    use crate::monitor::log::{hex, printable};

    proptest! {
        #[test]
        fn any_line_parses_or_names_a_place_in_it(line in ".{0,64}") {
            for mode in [InputMode::Hex, InputMode::Text] {
                if let Err(err) = parse(&line, mode) {
                    prop_assert!(err.at < line.chars().count());
                }
            }
        }

        #[test]
        fn the_monitors_forms_send_the_same_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            prop_assert_eq!(parse(&printable(&bytes), InputMode::Text), Ok(bytes.clone()));
            prop_assert_eq!(parse(&hex(&bytes), InputMode::Hex), Ok(bytes));
        }
    }
}
