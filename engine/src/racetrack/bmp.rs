//! Circuits as BMP images (spec §6, the original CIR2BMP / BMP2CIR).
//!
//! Writing produces the spec's exact file: uncompressed, 150 × 100, 4 bits per pixel, the 16
//! colours in the Decision's palette order, so every cell maps to one palette index. Reading
//! accepts any 150 × 100 BMP the `image` crate decodes (1, 4, 8, 24 and 32 bits; also 16-bit
//! and RLE) and maps each pixel to the nearest of the 16 colours. The round trip keeps the
//! colours; characters outside the table (drawn bright green) come back as `K`.

mod header;

use super::Circuit;
use super::colour::{self, PALETTE};
use super::physics::Pos;

pub use header::Part;

/// Why an image could not be read as a circuit. Each names the place: the header field and its
/// byte offset (from 0), or where a file cut short ends.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BmpError {
    /// The data does not start with the `BM` signature.
    #[error("not a BMP file (it does not start with \"BM\")")]
    NotBmp,
    /// A header field with a value this reader cannot take.
    #[error("BMP header: {field} (byte {offset}) is {found}, expected {expected}")]
    Field {
        field: &'static str,
        offset: usize,
        found: i64,
        expected: String,
    },
    /// The file ends before all its headers, colours and pixels (`len` bytes in all).
    #[error("the BMP ends after {len} bytes, {inside}")]
    Truncated { len: usize, inside: Part },
    /// Something the headers do not show that the decoder still refuses (bit-field masks,
    /// a run-length code): its message, with where that part of the file starts.
    #[error("BMP {part} (from byte {offset}): {message}")]
    Decode {
        part: &'static str,
        offset: usize,
        message: String,
    },
}

const HEADER: usize = 14 + 40 + 16 * 4;
const ROW: usize = 76; // 150 pixels × 4 bits = 75 bytes, padded to a multiple of 4

/// The spec's 16-colour BMP of a circuit (7718 bytes).
pub fn write(circuit: &Circuit) -> Vec<u8> {
    let (w, h) = (Circuit::WIDTH as usize, Circuit::HEIGHT as usize);
    let size = HEADER + ROW * h;
    let mut out = Vec::with_capacity(size);
    // BITMAPFILEHEADER
    out.extend_from_slice(b"BM");
    out.extend_from_slice(&(size as u32).to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&(HEADER as u32).to_le_bytes());
    // BITMAPINFOHEADER
    out.extend_from_slice(&40u32.to_le_bytes());
    out.extend_from_slice(&(w as i32).to_le_bytes());
    out.extend_from_slice(&(h as i32).to_le_bytes()); // positive: bottom-up rows
    out.extend_from_slice(&1u16.to_le_bytes()); // planes
    out.extend_from_slice(&4u16.to_le_bytes()); // bits per pixel
    out.extend_from_slice(&0u32.to_le_bytes()); // BI_RGB, uncompressed
    out.extend_from_slice(&((ROW * h) as u32).to_le_bytes());
    out.extend_from_slice(&2835i32.to_le_bytes()); // 72 dpi
    out.extend_from_slice(&2835i32.to_le_bytes());
    out.extend_from_slice(&16u32.to_le_bytes()); // colours used
    out.extend_from_slice(&16u32.to_le_bytes()); // colours important
    for [r, g, b] in PALETTE {
        out.extend_from_slice(&[b, g, r, 0]);
    }
    for y in (0..Circuit::HEIGHT).rev() {
        let row = circuit.row(y).unwrap_or_default();
        let start = out.len();
        for pair in row.chunks(2) {
            let hi = colour::index(pair[0]) as u8;
            let lo = pair.get(1).map_or(0, |&c| colour::index(c) as u8);
            out.push(hi << 4 | lo);
        }
        out.resize(start + ROW, 0);
    }
    debug_assert_eq!(out.len(), size);
    out
}

/// Reads a 150 × 100 BMP as a circuit, each pixel becoming the character of the nearest of the
/// 16 palette colours (dark grey → track).
pub fn read(bytes: &[u8]) -> Result<Circuit, BmpError> {
    if !bytes.starts_with(b"BM") {
        return Err(BmpError::NotBmp);
    }
    let layout = header::check(bytes)?;
    // The headers are sound and the file long enough: what the decoder may still refuse is in
    // the masks (bit fields) or in the pixels.
    let (part, offset) = if layout.compression == 3 {
        ("bit-field masks", 54)
    } else {
        ("pixel data", layout.pixel_offset)
    };
    let failed = |e: image::ImageError| BmpError::Decode {
        part,
        offset,
        message: e.to_string(),
    };
    let decoder =
        image::codecs::bmp::BmpDecoder::new(std::io::Cursor::new(bytes)).map_err(failed)?;
    // The headers were checked to say 150 × 100, so the decoder's dimensions are those.
    let image = image::DynamicImage::from_decoder(decoder)
        .map_err(failed)?
        .to_rgb8();
    let mut circuit = Circuit::blank();
    for (x, y, pixel) in image.enumerate_pixels() {
        let ch = colour::char_for_rgb(pixel.0);
        // Every palette character is storable and (x, y) is inside the grid: cannot fail.
        let _ = circuit.set(Pos::new(x as i32, y as i32), ch);
    }
    Ok(circuit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::racetrack::samples::SAMPLES;

    fn u16_at(b: &[u8], i: usize) -> u16 {
        u16::from_le_bytes([b[i], b[i + 1]])
    }
    fn u32_at(b: &[u8], i: usize) -> u32 {
        u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]])
    }

    #[test]
    fn written_file_has_the_specs_layout() {
        let mut c = Circuit::blank();
        c.set(Pos::new(0, 99), b'P').unwrap();
        c.set(Pos::new(1, 99), b'I').unwrap();
        c.set(Pos::new(149, 0), b'J').unwrap();
        let b = write(&c);
        assert_eq!(b.len(), 7718);
        assert_eq!(&b[..2], b"BM");
        assert_eq!(u32_at(&b, 2), 7718);
        assert_eq!(u32_at(&b, 10), 118);
        assert_eq!(u32_at(&b, 18), 150);
        assert_eq!(u32_at(&b, 22), 100);
        assert_eq!(u16_at(&b, 28), 4);
        assert_eq!(u32_at(&b, 30), 0);
        // palette: index 8 is dark grey, index 10 bright green, stored B, G, R, 0
        assert_eq!(&b[54 + 8 * 4..54 + 9 * 4], &[128, 128, 128, 0]);
        assert_eq!(&b[54 + 9 * 4..54 + 10 * 4], &[0, 0, 255, 0]);
        // first stored row is y = 99: P (15) then I (drawn bright green, 10)
        assert_eq!(b[118], 0xFA);
        // last row is y = 0; its 150th pixel (x = 149) is the low nibble of byte 74: J = 9
        assert_eq!(b[118 + 99 * 76 + 74], 0x29);
        // start zone cell (40,4): row y = 4 is stored at index 95, byte 20, high nibble = track
        assert_eq!(b[118 + 95 * 76 + 20] >> 4, 8);
    }

    #[test]
    fn round_trip_keeps_every_sample() {
        for s in SAMPLES {
            let Ok(c) = Circuit::parse(s.text.as_bytes()) else {
                continue;
            };
            let back = read(&write(&c)).unwrap();
            for y in 0..Circuit::HEIGHT {
                for x in 0..Circuit::WIDTH {
                    assert_eq!(
                        colour::rgb(back.cell(Pos::new(x, y))),
                        colour::rgb(c.cell(Pos::new(x, y))),
                        "{} ({x},{y})",
                        s.name
                    );
                }
            }
            if !s
                .text
                .bytes()
                .any(|b| b == b'I' || (b.is_ascii_lowercase()))
            {
                assert_eq!(back, c, "{}", s.name);
            }
        }
    }

    /// A 24-bit BMP, top-down or bottom-up, built by hand.
    fn bmp24(width: i32, height: i32, pixel: impl Fn(i32, i32) -> [u8; 3]) -> Vec<u8> {
        let row = (width as usize * 3).div_ceil(4) * 4;
        let rows = height.unsigned_abs() as usize;
        let size = 54 + row * rows;
        let mut b = Vec::new();
        b.extend_from_slice(b"BM");
        b.extend_from_slice(&(size as u32).to_le_bytes());
        b.extend_from_slice(&[0; 4]);
        b.extend_from_slice(&54u32.to_le_bytes());
        b.extend_from_slice(&40u32.to_le_bytes());
        b.extend_from_slice(&width.to_le_bytes());
        b.extend_from_slice(&height.to_le_bytes());
        b.extend_from_slice(&1u16.to_le_bytes());
        b.extend_from_slice(&24u16.to_le_bytes());
        b.extend_from_slice(&[0; 24]);
        for i in 0..rows as i32 {
            let y = if height > 0 { rows as i32 - 1 - i } else { i };
            let start = b.len();
            for x in 0..width {
                let [r, g, bl] = pixel(x, y);
                b.extend_from_slice(&[bl, g, r]);
            }
            b.resize(start + row, 0);
        }
        b
    }

    /// A palettized (1, 4 or 8 bits) or 32-bit bottom-up BMP built by hand; `index` picks the
    /// palette entry (or, for 32 bits, the `palette` colour) of each pixel.
    fn bmp_bits(bits: u16, palette: &[[u8; 3]], index: impl Fn(i32, i32) -> usize) -> Vec<u8> {
        let (w, h) = (150usize, 100usize);
        let row = (w * bits as usize).div_ceil(32) * 4;
        let table = if bits == 32 { 0 } else { palette.len() * 4 };
        let offset = 54 + table;
        let mut b = Vec::new();
        b.extend_from_slice(b"BM");
        b.extend_from_slice(&((offset + row * h) as u32).to_le_bytes());
        b.extend_from_slice(&[0; 4]);
        b.extend_from_slice(&(offset as u32).to_le_bytes());
        b.extend_from_slice(&40u32.to_le_bytes());
        b.extend_from_slice(&(w as i32).to_le_bytes());
        b.extend_from_slice(&(h as i32).to_le_bytes());
        b.extend_from_slice(&1u16.to_le_bytes());
        b.extend_from_slice(&bits.to_le_bytes());
        b.extend_from_slice(&[0; 16]); // compression, image size, resolution
        let used = if bits == 32 { 0 } else { palette.len() as u32 };
        b.extend_from_slice(&used.to_le_bytes());
        b.extend_from_slice(&[0; 4]);
        if bits != 32 {
            for [r, g, bl] in palette {
                b.extend_from_slice(&[*bl, *g, *r, 0]);
            }
        }
        for y in (0..h as i32).rev() {
            let mut bytes = vec![0u8; row];
            for x in 0..w as i32 {
                let i = index(x, y);
                let xu = x as usize;
                match bits {
                    32 => {
                        let [r, g, bl] = palette[i];
                        bytes[xu * 4..xu * 4 + 4].copy_from_slice(&[bl, g, r, 255]);
                    }
                    8 => bytes[xu] = i as u8,
                    4 => bytes[xu / 2] |= (i as u8) << if xu.is_multiple_of(2) { 4 } else { 0 },
                    1 => bytes[xu / 8] |= (i as u8) << (7 - xu % 8),
                    _ => unreachable!(),
                }
            }
            b.extend_from_slice(&bytes);
        }
        b
    }

    #[test]
    fn reads_1_4_8_and_32_bit_images() {
        // Two colours: off-palette greys that snap to track and to black.
        let two = [[20, 20, 20], [130, 125, 131]];
        let stripes = |x: i32, y: i32| usize::from((x / 10 + y / 10) % 2 == 0);
        for bits in [1u16, 4, 8, 32] {
            let c =
                read(&bmp_bits(bits, &two, stripes)).unwrap_or_else(|e| panic!("{bits}-bit: {e}"));
            for (x, y) in [(0, 0), (15, 3), (149, 99), (40, 4)] {
                let expected = if stripes(x, y) == 1 { b' ' } else { b'A' };
                assert_eq!(c.cell(Pos::new(x, y)), expected, "{bits}-bit ({x},{y})");
            }
        }
        // All 16 palette colours through an 8-bit image.
        let c = read(&bmp_bits(8, &PALETTE, |x, _| x as usize % 16)).unwrap();
        for x in 0..16 {
            assert_eq!(c.cell(Pos::new(x, 50)), colour::PALETTE_CHARS[x as usize]);
        }
    }

    #[test]
    fn reads_24_bit_images_to_the_nearest_colour() {
        let paint = |x: i32, y: i32| {
            if y == 4 {
                [120, 131, 126]
            } else if x < 75 {
                [250, 3, 3]
            } else {
                [1, 1, 1]
            }
        };
        for h in [100, -100] {
            let c = read(&bmp24(150, h, paint)).unwrap();
            assert!(c.is_track(Pos::new(40, 4)) && c.is_track(Pos::new(0, 4)));
            assert_eq!(c.cell(Pos::new(3, 50)), b'J');
            assert_eq!(c.cell(Pos::new(100, 0)), b'A');
        }
    }

    /// The spec's BMP of a blank circuit with the little-endian `value` written at `offset`.
    fn patched(offset: usize, value: &[u8]) -> Vec<u8> {
        let mut b = write(&Circuit::blank());
        b[offset..offset + value.len()].copy_from_slice(value);
        b
    }

    fn message(bytes: &[u8]) -> String {
        read(bytes).unwrap_err().to_string()
    }

    #[test]
    fn clear_errors() {
        assert_eq!(read(b"PK\x03\x04"), Err(BmpError::NotBmp));
        assert_eq!(read(b""), Err(BmpError::NotBmp));
        assert_eq!(
            message(&bmp24(151, 100, |_, _| [0, 0, 0])),
            "BMP header: width (byte 18) is 151, expected 150 (a circuit is 150 × 100 pixels)"
        );
        assert_eq!(
            message(&patched(22, &(-7i32).to_le_bytes())),
            "BMP header: height (byte 22) is -7, expected 100, or -100 for rows stored top-down \
             (a circuit is 150 × 100 pixels)"
        );
    }

    #[test]
    fn header_errors_name_the_field_and_its_byte() {
        for (offset, value, expected) in [
            (
                26,
                &2u16.to_le_bytes()[..],
                "planes (byte 26) is 2, expected 1",
            ),
            (
                14,
                &20u32.to_le_bytes(),
                "header size (byte 14) is 20, expected 12, 40, 52, 56, 108 or 124",
            ),
            (
                28,
                &7u16.to_le_bytes(),
                "bits per pixel (byte 28) is 7, expected 1, 2, 4, 8, 16, 24 or 32",
            ),
            (
                30,
                &9u32.to_le_bytes(),
                "compression (byte 30) is 9, expected 0 (none), 1 (RLE8), 2 (RLE4) or 3 (bit \
                 fields)",
            ),
            (
                30,
                &1u32.to_le_bytes(),
                "bits per pixel (byte 28) is 4, expected a value that suits compression 1 \
                 (RLE8, which needs 8 bits per pixel)",
            ),
            (
                46,
                &17u32.to_le_bytes(),
                "colours used (byte 46) is 17, expected at most 16 for 4 bits per pixel",
            ),
            (
                10,
                &20u32.to_le_bytes(),
                "pixel data offset (byte 10) is 20, expected at least 118, where the headers \
                 and colour table end",
            ),
        ] {
            assert_eq!(
                message(&patched(offset, value)),
                format!("BMP header: {expected}")
            );
        }
    }

    #[test]
    fn a_file_cut_short_says_where_it_ends() {
        let whole = write(&Circuit::blank());
        for (len, expected) in [
            (2, "inside the header field pixel data offset (byte 10)"),
            (20, "inside the header field width (byte 18)"),
            (27, "inside the header field planes (byte 26)"),
            (64, "inside entry 2 of the colour table"),
            (
                118,
                "before its pixel data, which the header puts at byte 118",
            ),
            (500, "inside the pixel data of row 94 (stored row 6 of 100)"),
            (
                7717,
                "inside the pixel data of row 0 (stored row 100 of 100)",
            ),
        ] {
            assert_eq!(
                message(&whole[..len]),
                format!("the BMP ends after {len} bytes, {expected}")
            );
        }
        // Top-down rows: the first stored row is the circuit's row 0.
        let top_down = bmp24(150, -100, |_, _| [0, 0, 0]);
        assert_eq!(
            message(&top_down[..54 + 452 * 3 + 10]),
            format!(
                "the BMP ends after {} bytes, inside the pixel data of row 3 (stored row 4 of 100)",
                54 + 452 * 3 + 10
            )
        );
    }

    /// An 8-bit run-length encoded BMP: `rows` rows of one run of 150 black pixels, then (when
    /// `end`) the end-of-bitmap mark.
    fn rle8(rows: usize, end: bool) -> Vec<u8> {
        let mut b = bmp_bits(8, &[[0, 0, 0], [128, 128, 128]], |_, _| 0);
        let offset = 54 + 2 * 4;
        b.truncate(offset);
        b[30..34].copy_from_slice(&1u32.to_le_bytes());
        for _ in 0..rows {
            b.extend_from_slice(&[150, 1, 0, 0]);
        }
        if end {
            b.extend_from_slice(&[0, 1]);
        }
        b
    }

    #[test]
    fn run_length_encoded_images_read_and_a_cut_stream_is_placed() {
        let c = read(&rle8(100, true)).unwrap();
        assert!(c.is_track(Pos::new(0, 0)) && c.is_track(Pos::new(149, 99)));
        let cut = rle8(40, false);
        assert_eq!(
            message(&cut),
            format!(
                "the BMP ends after {} bytes, inside the pixel data of row 59 (stored row 41 \
                 of 100)",
                cut.len()
            )
        );
    }
}
