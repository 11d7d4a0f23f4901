//! Cell colours (spec §1) and the 16-entry palette order used by BMP files (spec §6 Decision).
//!
//! The physics only knows track / not track; colours are for display and for converting to and
//! from images.

/// The 16 colours of the classic Windows palette, in palette order (the order of a written
/// BMP's colour table): black, dark red, dark green, dark yellow, dark blue, dark magenta,
/// dark cyan, light grey, dark grey, bright red, bright green, bright yellow, bright blue,
/// bright magenta, bright cyan, white.
pub const PALETTE: [[u8; 3]; 16] = [
    [0, 0, 0],
    [128, 0, 0],
    [0, 128, 0],
    [128, 128, 0],
    [0, 0, 128],
    [128, 0, 128],
    [0, 128, 128],
    [192, 192, 192],
    [128, 128, 128],
    [255, 0, 0],
    [0, 255, 0],
    [255, 255, 0],
    [0, 0, 255],
    [255, 0, 255],
    [0, 255, 255],
    [255, 255, 255],
];

/// The names of the palette entries, for an editor's tooltips.
pub const PALETTE_NAMES: [&str; 16] = [
    "black",
    "dark red",
    "dark green",
    "dark yellow",
    "dark blue",
    "dark magenta",
    "dark cyan",
    "light grey",
    "dark grey (track)",
    "bright red",
    "bright green",
    "bright yellow",
    "bright blue",
    "bright magenta",
    "bright cyan",
    "white",
];

/// The circuit character of each palette entry: `A`..`H`, then the track (a space, dark grey),
/// then `J`..`P`. `I` is skipped because its colour is the track's.
pub const PALETTE_CHARS: [u8; 16] = *b"ABCDEFGH JKLMNOP";

/// Palette index of the track colour (dark grey).
pub const TRACK_INDEX: usize = 8;

/// Palette index of bright green, the colour of every character outside the table.
pub const OTHER_INDEX: usize = 10;

/// The palette index a character is drawn with: space → 8 (dark grey), `A`..`H` → 0..7,
/// `J`..`P` → 9..15, anything else (including `I` and lower case) → 10 (bright green).
pub fn index(ch: u8) -> usize {
    match ch {
        b' ' => TRACK_INDEX,
        b'A'..=b'H' => (ch - b'A') as usize,
        b'J'..=b'P' => (ch - b'J') as usize + 9,
        _ => OTHER_INDEX,
    }
}

/// The RGB colour a character is drawn with (spec §1 table).
pub fn rgb(ch: u8) -> [u8; 3] {
    PALETTE[index(ch)]
}

/// The palette index nearest to an RGB colour (squared Euclidean distance; on a tie the lower
/// index wins, so the answer is deterministic).
pub fn nearest(rgb: [u8; 3]) -> usize {
    let dist = |p: &[u8; 3]| -> u32 {
        p.iter()
            .zip(rgb)
            .map(|(&a, b)| (a as i32 - b as i32).pow(2) as u32)
            .sum()
    };
    (0..PALETTE.len())
        .min_by_key(|&i| (dist(&PALETTE[i]), i))
        .unwrap_or(TRACK_INDEX)
}

/// The circuit character for an RGB colour: the letter of the nearest palette entry, or a
/// space (track) for dark grey.
pub fn char_for_rgb(rgb: [u8; 3]) -> u8 {
    PALETTE_CHARS[nearest(rgb)]
}

/// A CSS colour (`#rrggbb`) for a character, for front ends.
pub fn css(ch: u8) -> String {
    let [r, g, b] = rgb(ch);
    format!("#{r:02x}{g:02x}{b:02x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_of_the_spec() {
        assert_eq!(rgb(b' '), [128, 128, 128]);
        assert_eq!(rgb(b'A'), [0, 0, 0]);
        assert_eq!(rgb(b'B'), [128, 0, 0]);
        assert_eq!(rgb(b'H'), [192, 192, 192]);
        assert_eq!(rgb(b'J'), [255, 0, 0]);
        assert_eq!(rgb(b'K'), [0, 255, 0]);
        assert_eq!(rgb(b'P'), [255, 255, 255]);
        for other in [b'I', b'a', b'#', b'Z', b'Q', b'\t'] {
            assert_eq!(rgb(other), [0, 255, 0], "{other}");
        }
        assert_eq!(css(b'O'), "#00ffff");
    }

    #[test]
    fn palette_chars_and_indices_agree() {
        for (i, &ch) in PALETTE_CHARS.iter().enumerate() {
            assert_eq!(index(ch), i);
            assert_eq!(char_for_rgb(PALETTE[i]), ch);
        }
        assert_eq!(PALETTE_CHARS[TRACK_INDEX], b' ');
    }

    #[test]
    fn nearest_colour() {
        assert_eq!(char_for_rgb([120, 130, 125]), b' ');
        assert_eq!(char_for_rgb([250, 10, 5]), b'J');
        assert_eq!(char_for_rgb([10, 10, 10]), b'A');
        assert_eq!(char_for_rgb([200, 200, 200]), b'H');
        assert_eq!(char_for_rgb([240, 240, 240]), b'P');
    }
}
