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

/// The lines of `bytes`, without terminators. A terminator at the very end does not open an
/// empty last line; `"a\r\n\r\n"` is two lines, `"a"` and `""`.
pub(crate) fn lines(bytes: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                out.push(&bytes[start..i]);
                i += 1;
                start = i;
            }
            b'\r' => {
                out.push(&bytes[start..i]);
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
        out.push(&bytes[start..]);
    }
    out
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
    }
}
