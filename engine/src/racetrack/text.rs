//! Line splitting shared by the `.cir` and `.f1` readers: both accept LF, CRLF and CR, and a
//! missing terminator after the last line.

/// How a writer ends its lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum LineEnding {
    /// `\r\n`, the original DOS convention and the default of every writer here.
    #[default]
    CrLf,
    /// `\n`.
    Lf,
}

impl LineEnding {
    /// The terminator itself.
    pub fn as_str(self) -> &'static str {
        match self {
            LineEnding::CrLf => "\r\n",
            LineEnding::Lf => "\n",
        }
    }
}

/// A byte outside ASCII in a `.cir` or `.F1` file, where an editor shows it (1-based line and
/// column) and where it is in the file (`offset`, in bytes from the start, from 0): both readers
/// refuse such a byte with this one wording.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column} (byte {offset}): byte 0x{byte:02X} is not ASCII")]
pub struct NonAscii {
    pub line: usize,
    pub column: usize,
    pub offset: usize,
    pub byte: u8,
}

/// Checks that `text`, line `line` (1-based) of a file where it starts at byte `start`, is
/// ASCII.
pub(crate) fn check_ascii(line: usize, start: usize, text: &[u8]) -> Result<(), NonAscii> {
    match text.iter().position(|b| !b.is_ascii()) {
        None => Ok(()),
        Some(col) => Err(NonAscii {
            line,
            column: col + 1,
            offset: start + col,
            byte: text[col],
        }),
    }
}

/// The lines of `bytes`, without terminators. A terminator at the very end does not open an
/// empty last line; `"a\r\n\r\n"` is two lines, `"a"` and `""`.
pub(crate) fn lines(bytes: &[u8]) -> Vec<&[u8]> {
    lines_at(bytes).into_iter().map(|(_, line)| line).collect()
}

/// [`lines`] with the byte offset where each line starts, so that a reader can say where in the
/// file a bad byte is.
pub(crate) fn lines_at(bytes: &[u8]) -> Vec<(usize, &[u8])> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                out.push((start, &bytes[start..i]));
                i += 1;
                start = i;
            }
            b'\r' => {
                out.push((start, &bytes[start..i]));
                i += if bytes.get(i + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
                start = i;
            }
            _ => i += 1,
        }
    }
    if start < bytes.len() {
        out.push((start, &bytes[start..]));
    }
    out
}

/// `n thing` or `n things`, for messages that count.
pub(crate) fn count(n: usize, thing: &str) -> String {
    if n == 1 {
        format!("1 {thing}")
    } else {
        format!("{n} {thing}s")
    }
}

/// How many bytes of the offending input an error message quotes, at most.
pub const QUOTE_MAX: usize = 60;

/// Bytes shown in an error message: quoted, anything unprintable escaped, and cut after
/// [`QUOTE_MAX`] bytes with an ellipsis, so that a huge input never makes a huge message (the
/// readers and the CLI quote input through this one function, in one style).
pub fn quote(bytes: &[u8]) -> String {
    let mut s: String = bytes
        .iter()
        .take(QUOTE_MAX)
        .flat_map(|&b| std::ascii::escape_default(b))
        .map(char::from)
        .collect();
    if bytes.len() > QUOTE_MAX {
        s.push('…');
    }
    format!("\"{s}\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_three_terminators_and_a_missing_last_one() {
        assert_eq!(lines(b"a\nb\r\nc\rd"), vec![&b"a"[..], b"b", b"c", b"d"]);
        assert_eq!(lines(b"a\r\n"), vec![&b"a"[..]]);
        assert_eq!(lines(b"a\r\n\r\n"), vec![&b"a"[..], b""]);
        assert_eq!(lines(b"\n\r"), vec![&b""[..], b""]);
        assert!(lines(b"").is_empty());
        assert_eq!(
            lines_at(b"ab\r\ncd\re"),
            vec![(0, &b"ab"[..]), (4, b"cd"), (7, b"e")]
        );
    }

    #[test]
    fn counts_and_quotes() {
        assert_eq!(count(1, "line"), "1 line");
        assert_eq!(count(0, "line"), "0 lines");
        assert_eq!(count(2, "character"), "2 characters");
        assert_eq!(quote(b"41;4\t\xe9"), "\"41;4\\t\\xe9\"");
        let long = quote(&[b'x'; 500]);
        assert_eq!(long, format!("\"{}…\"", "x".repeat(60)));
    }
}
