//! The BMP headers, checked field by field before any pixel is decoded.
//!
//! A general-purpose decoder answers a bad file with "failed to fill whole buffer" or "More than
//! one plane": true, but the user cannot tell which byte is wrong. Every check here names the
//! header field and its byte offset (counted from 0, as a hex editor shows it), and a file cut
//! short says in which part it ends — a field, the colour table, or which row of pixels.

use std::fmt;

use super::BmpError;

/// The size of the `BITMAPFILEHEADER`, where the DIB header starts.
const FILE_HEADER: usize = 14;

/// The DIB header sizes the decoder knows: core (OS/2 1.x), info, and the V2–V5 extensions.
const HEADER_SIZES: [u32; 6] = [12, 40, 52, 56, 108, 124];

/// Where in the file a cut-short BMP ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part {
    /// Inside a header field.
    Field { name: &'static str, offset: usize },
    /// Inside the colour table, in entry `entry` (from 0).
    ColourTable { entry: usize },
    /// Before the pixel data starts (at `offset`, as the header says).
    BeforePixels { offset: usize },
    /// Inside the pixels of image row `y` (0 = top, as in a circuit); the rows are stored
    /// bottom-up unless the height is negative, so `stored` (from 1) says how far the file got.
    PixelRow { y: u32, stored: u32 },
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Part::Field { name, offset } => {
                write!(f, "inside the header field {name} (byte {offset})")
            }
            Part::ColourTable { entry } => write!(f, "inside entry {entry} of the colour table"),
            Part::BeforePixels { offset } => {
                write!(
                    f,
                    "before its pixel data, which the header puts at byte {offset}"
                )
            }
            Part::PixelRow { y, stored } => write!(
                f,
                "inside the pixel data of row {y} (stored row {stored} of {})",
                super::Circuit::HEIGHT
            ),
        }
    }
}

/// What the checked headers say about the pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Layout {
    /// 0 none, 1 RLE8, 2 RLE4, 3 bit fields (always 0 for a core header).
    pub compression: u32,
    /// Rows stored top row first (a negative height).
    pub top_down: bool,
    /// Where the pixel data starts.
    pub pixel_offset: usize,
}

/// Reads little-endian fields, refusing a read past the end with the field's name.
struct Fields<'a>(&'a [u8]);

impl Fields<'_> {
    fn bytes<const N: usize>(
        &self,
        name: &'static str,
        offset: usize,
    ) -> Result<[u8; N], BmpError> {
        self.0
            .get(offset..offset + N)
            .and_then(|b| b.try_into().ok())
            .ok_or(BmpError::Truncated {
                len: self.0.len(),
                inside: Part::Field { name, offset },
            })
    }
    fn u16(&self, name: &'static str, offset: usize) -> Result<u16, BmpError> {
        self.bytes(name, offset).map(u16::from_le_bytes)
    }
    fn u32(&self, name: &'static str, offset: usize) -> Result<u32, BmpError> {
        self.bytes(name, offset).map(u32::from_le_bytes)
    }
    fn i32(&self, name: &'static str, offset: usize) -> Result<i32, BmpError> {
        self.bytes(name, offset).map(i32::from_le_bytes)
    }
}

fn field(field: &'static str, offset: usize, found: i64, expected: impl Into<String>) -> BmpError {
    BmpError::Field {
        field,
        offset,
        found,
        expected: expected.into(),
    }
}

/// Checks the headers of a file that starts with `BM`, and that the file is long enough for its
/// colour table and (uncompressed or run-length encoded) pixels.
pub(super) fn check(bytes: &[u8]) -> Result<Layout, BmpError> {
    let f = Fields(bytes);
    let pixel_offset = f.u32("pixel data offset", 10)? as usize;
    let header_size = f.u32("header size", 14)?;
    if !HEADER_SIZES.contains(&header_size) {
        return Err(field(
            "header size",
            14,
            header_size.into(),
            "12, 40, 52, 56, 108 or 124",
        ));
    }
    let core = header_size == 12;
    let (width, height, planes, bits, compression, colours_used);
    if core {
        width = i64::from(f.u16("width", 18)?);
        height = i64::from(f.u16("height", 20)?);
        planes = (f.u16("planes", 22)?, 22);
        bits = (f.u16("bits per pixel", 24)?, 24);
        compression = 0;
        colours_used = 0;
    } else {
        width = i64::from(f.i32("width", 18)?);
        height = i64::from(f.i32("height", 22)?);
        planes = (f.u16("planes", 26)?, 26);
        bits = (f.u16("bits per pixel", 28)?, 28);
        compression = f.u32("compression", 30)?;
        colours_used = f.u32("colours used", 46)?;
    }
    let (w, h) = (super::Circuit::WIDTH as i64, super::Circuit::HEIGHT as i64);
    let (width_at, height_at) = if core { (18, 20) } else { (18, 22) };
    if width != w {
        let expected = format!("{w} (a circuit is {w} × {h} pixels)");
        return Err(field("width", width_at, width, expected));
    }
    if height.abs() != h {
        let expected = if core {
            format!("{h} (a circuit is {w} × {h} pixels)")
        } else {
            format!("{h}, or -{h} for rows stored top-down (a circuit is {w} × {h} pixels)")
        };
        return Err(field("height", height_at, height, expected));
    }
    let top_down = height < 0;
    if planes.0 != 1 {
        return Err(field("planes", planes.1, planes.0.into(), "1"));
    }
    let (bits, bits_at) = bits;
    let allowed: &[u16] = if core {
        &[1, 4, 8, 24]
    } else {
        &[1, 2, 4, 8, 16, 24, 32]
    };
    if !allowed.contains(&bits) {
        let expected = if core {
            "1, 4, 8 or 24 (with a 12-byte header)"
        } else {
            "1, 2, 4, 8, 16, 24 or 32"
        };
        return Err(field("bits per pixel", bits_at, bits.into(), expected));
    }
    let needs = match compression {
        0 => None,
        1 => Some((&[8u16][..], "RLE8, which needs 8 bits per pixel")),
        2 => Some((&[4u16][..], "RLE4, which needs 4 bits per pixel")),
        3 => Some((
            &[16u16, 32][..],
            "bit fields, which need 16 or 32 bits per pixel",
        )),
        _ => {
            return Err(field(
                "compression",
                30,
                compression.into(),
                "0 (none), 1 (RLE8), 2 (RLE4) or 3 (bit fields)",
            ));
        }
    };
    if let Some((ok, what)) = needs
        && !ok.contains(&bits)
    {
        return Err(field(
            "bits per pixel",
            bits_at,
            bits.into(),
            format!("a value that suits compression {compression} ({what})"),
        ));
    }
    if top_down && (compression == 1 || compression == 2) {
        return Err(field(
            "height",
            22,
            height,
            "100 (a run-length encoded image is stored bottom-up)",
        ));
    }
    // The colour table follows the header (and, for bit fields with a 40-byte header, the
    // three masks).
    let masks = if compression == 3 && header_size == 40 {
        12
    } else {
        0
    };
    let mut headers_end = FILE_HEADER + header_size as usize + masks;
    if bits <= 8 {
        let most = 1u32 << bits;
        if colours_used > most {
            return Err(field(
                "colours used",
                46,
                colours_used.into(),
                format!("at most {most} for {bits} bits per pixel"),
            ));
        }
        let entries = if colours_used == 0 {
            most
        } else {
            colours_used
        } as usize;
        let entry_size = if core { 3 } else { 4 };
        let table_end = headers_end + entries * entry_size;
        if bytes.len() < table_end {
            return Err(BmpError::Truncated {
                len: bytes.len(),
                inside: Part::ColourTable {
                    entry: bytes.len().saturating_sub(headers_end) / entry_size,
                },
            });
        }
        headers_end = table_end;
    } else if bytes.len() < headers_end {
        return Err(BmpError::Truncated {
            len: bytes.len(),
            inside: Part::Field {
                name: "bit-field masks",
                offset: headers_end - masks,
            },
        });
    }
    if pixel_offset < headers_end {
        return Err(field(
            "pixel data offset",
            10,
            pixel_offset as i64,
            format!("at least {headers_end}, where the headers and colour table end"),
        ));
    }
    if bytes.len() <= pixel_offset {
        return Err(BmpError::Truncated {
            len: bytes.len(),
            inside: Part::BeforePixels {
                offset: pixel_offset,
            },
        });
    }
    let layout = Layout {
        compression,
        top_down,
        pixel_offset,
    };
    let stored_rows = match compression {
        1 | 2 => rle_rows(&bytes[pixel_offset..], compression == 2),
        _ => {
            let row = (w as usize * bits as usize).div_ceil(32) * 4;
            Some((bytes.len() - pixel_offset) / row)
        }
    };
    match stored_rows {
        Some(done) if done < h as usize => Err(BmpError::Truncated {
            len: bytes.len(),
            inside: layout.row_part(done as u32),
        }),
        _ => Ok(layout),
    }
}

impl Layout {
    /// The place of stored row `k` (from 0) in the image.
    fn row_part(&self, k: u32) -> Part {
        let h = super::Circuit::HEIGHT as u32;
        Part::PixelRow {
            y: if self.top_down { k } else { h - 1 - k },
            stored: k + 1,
        }
    }
}

/// How many rows a run-length encoded stream completes before its data runs out, or `None`
/// when it reaches its end-of-bitmap mark (or at least every row) first. Only the framing is
/// read: runs, absolute runs, end of line, delta and end of bitmap.
fn rle_rows(data: &[u8], four_bit: bool) -> Option<usize> {
    let h = super::Circuit::HEIGHT as usize;
    let mut row = 0usize;
    let mut i = 0;
    while row < h {
        let (Some(&count), Some(&code)) = (data.get(i), data.get(i + 1)) else {
            return Some(row);
        };
        i += 2;
        match (count, code) {
            (0, 0) => row += 1,
            (0, 1) => return None,
            (0, 2) => {
                let Some(&dy) = data.get(i + 1) else {
                    return Some(row);
                };
                row += dy as usize;
                i += 2;
            }
            (0, n) => {
                // Absolute run: n pixels (two a byte in RLE4), padded to a 16-bit boundary.
                let len = if four_bit {
                    (n as usize).div_ceil(2)
                } else {
                    n as usize
                };
                if data.len() < i + len {
                    return Some(row);
                }
                i += len.div_ceil(2) * 2;
            }
            _ => {}
        }
    }
    None
}
