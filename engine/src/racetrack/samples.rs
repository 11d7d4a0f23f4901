//! The sample circuits shipped with the project (`engine/samples/*.cir`, drawn by
//! `engine/samples/gen.py`): the app's presets and the test bed of the judge and the pilots.
//!
//! Every conforming sample can be driven clockwise from the start zone. The non-conforming ones
//! break one rule each (`bad_<rule>`); `bad_size` does not even parse (it has 99 lines), since a
//! shape error is reported as a read error, never as a padded circuit.

/// A sample circuit: its file text and whether VERIFCIR accepts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// File stem, e.g. `"ring"` for `ring.cir`.
    pub name: &'static str,
    /// The `.cir` text (CRLF line endings).
    pub text: &'static str,
    /// Whether the circuit is conforming (spec §2).
    pub conforming: bool,
}

macro_rules! sample {
    ($name:literal, $conforming:expr) => {
        Sample {
            name: $name,
            text: include_str!(concat!("../../samples/", $name, ".cir")),
            conforming: $conforming,
        }
    };
}

/// All samples: the nine conforming circuits first, then one non-conforming circuit per rule
/// (in rule order, 1 to 5).
pub const SAMPLES: &[Sample] = &[
    sample!("ring", true),
    sample!("street", true),
    sample!("hairpins", true),
    sample!("serpentine", true),
    sample!("traps", true),
    sample!("narrow", true),
    sample!("diagonals", true),
    sample!("spiral", true),
    sample!("needle", true),
    sample!("bad_size", false),
    sample!("bad_border", false),
    sample!("bad_start", false),
    sample!("bad_islands", false),
    sample!("bad_width", false),
];

/// The sample called `name`, if any.
pub fn by_name(name: &str) -> Option<&'static Sample> {
    SAMPLES.iter().find(|s| s.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::racetrack::Circuit;

    #[test]
    fn every_sample_but_bad_size_parses() {
        for s in SAMPLES {
            let parsed = Circuit::parse(s.text.as_bytes());
            assert_eq!(parsed.is_ok(), s.name != "bad_size", "{}", s.name);
        }
        assert!(SAMPLES.iter().filter(|s| s.conforming).count() >= 8);
        assert_eq!(by_name("ring").map(|s| s.conforming), Some(true));
        assert!(by_name("nope").is_none());
    }
}
