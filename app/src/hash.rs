//! Short fingerprints of bytes: FNV-1a, 64 bits. Nothing here guards against an adversary;
//! they only tell "the same bytes (or plan) or not", to decide whether results kept across a
//! reload still belong to what the page holds now. No dependency for so little.

use std::fmt;

/// An FNV-1a hasher over a sequence of byte strings.
#[derive(Clone, Copy, Debug)]
pub struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    /// Hashes `bytes` as they are.
    pub fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }

    /// Hashes `bytes` as one field of several: followed by a byte no UTF-8 text holds, so
    /// `["ab", "c"]` and `["a", "bc"]` differ.
    pub fn field(&mut self, bytes: &[u8]) {
        self.write(bytes);
        self.write(&[0xff]);
    }

    pub fn finish(self) -> u64 {
        self.0
    }
}

/// The hash of a file's contents, written as 16 hex digits. Uploaded players are kept and
/// found by it, so a different file under a name already used is another player, never the
/// old one's results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ContentHash(u64);

impl ContentHash {
    pub fn of(bytes: &[u8]) -> ContentHash {
        let mut h = Fnv::default();
        h.write(bytes);
        ContentHash(h.finish())
    }

    /// The hash written by [`ContentHash`]'s `Display` (16 hex digits), if `hex` is one.
    pub fn parse(hex: &str) -> Option<ContentHash> {
        if hex.len() != 16 {
            return None;
        }
        u64::from_str_radix(hex, 16).ok().map(ContentHash)
    }
}

impl fmt::Display for ContentHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_are_fnv1a_and_tell_contents_apart() {
        // The published FNV-1a 64 test vectors.
        assert_eq!(ContentHash::of(b"").to_string(), "cbf29ce484222325");
        assert_eq!(ContentHash::of(b"a").to_string(), "af63dc4c8601ec8c");
        assert_eq!(ContentHash::of(b"foobar").to_string(), "85944171f73967e8");
        let one = ContentHash::of(b"\0asm\x01\0\0\0 one bot");
        assert_eq!(one, ContentHash::of(b"\0asm\x01\0\0\0 one bot"));
        assert_ne!(one, ContentHash::of(b"\0asm\x01\0\0\0 another"));
        assert_eq!(ContentHash::parse(&one.to_string()), Some(one));
        for bad in [
            "",
            "cbf29ce48422232",
            "cbf29ce4842223250",
            "xbf29ce484222325",
        ] {
            assert_eq!(ContentHash::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn fields_are_kept_apart() {
        let hash = |fields: &[&str]| {
            let mut h = Fnv::default();
            for f in fields {
                h.field(f.as_bytes());
            }
            h.finish()
        };
        assert_ne!(hash(&["ab", "c"]), hash(&["a", "bc"]));
        assert_eq!(hash(&["ab", "c"]), hash(&["ab", "c"]));
    }
}
