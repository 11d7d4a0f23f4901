//! The serial monitor's model: every byte each way, grouped into protocol messages and decoded.
//!
//! Bytes to a board (`tx`) are decoded by the engine's [`Decoder`] of referee messages, so the
//! log names them as the spec writes them (`w 8`, `l 10`, `c r`, `{}`, `{4452}`). Bytes from a
//! board (`rx`) are grouped for reading only — a message ends after `}` (with its line feed) or
//! at a line feed — and labelled `{digits}` when they frame a turn, `junk` otherwise. Judging
//! them is the referee's business, not the log's.

use std::collections::HashMap;
use std::fmt::Write as _;

use engine::soccer::protocol::{Decoder, ToPlayer};

/// Which way bytes went, seen from this page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// To the board.
    Tx,
    /// From the board.
    Rx,
}

impl Direction {
    /// `tx` or `rx` (the `data-dir` of the monitor's rows).
    pub fn name(self) -> &'static str {
        match self {
            Direction::Tx => "tx",
            Direction::Rx => "rx",
        }
    }
}

/// One message (or run of undecodable bytes) in the log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Where the bytes went to or came from: a side (`red`, `blue`) or a port's name.
    pub source: String,
    pub dir: Direction,
    /// Milliseconds since the log was started or cleared, when the first byte was seen.
    pub at_ms: u64,
    pub bytes: Vec<u8>,
    /// The decoded message, e.g. `w 8` or `{4452}`; `junk` for bytes that are none.
    pub label: String,
    /// Still being received (no end of message yet).
    pub partial: bool,
}

/// Where an unfinished rx message stands.
#[derive(Clone, Debug, Default)]
struct RxFramer {
    /// Index of the open entry in the log, if one is open.
    open: Option<usize>,
    /// The last row closed: a line feed right after its `}` still belongs to it.
    last: Option<usize>,
    /// The last byte was a `}` that closed `last`.
    after_brace: bool,
}

/// The log of one page: any number of sources, in arrival order, at most `capacity` entries.
#[derive(Clone, Debug)]
pub struct Log {
    entries: Vec<Entry>,
    decoders: HashMap<String, (Decoder, Vec<u8>)>,
    framers: HashMap<String, RxFramer>,
    /// Bumped at every change, so views know when to redraw.
    version: u64,
    /// The oldest entries are dropped beyond this many.
    capacity: usize,
    /// Entries dropped so far (kept in the text form's header).
    dropped: usize,
}

impl Default for Log {
    fn default() -> Self {
        Log::new(5_000)
    }
}

impl Log {
    pub fn new(capacity: usize) -> Log {
        Log {
            entries: Vec::new(),
            decoders: HashMap::new(),
            framers: HashMap::new(),
            version: 0,
            capacity: capacity.max(1),
            dropped: 0,
        }
    }

    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Changes whenever the log changes.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Forgets every entry (messages half received start afresh).
    pub fn clear(&mut self) {
        self.entries.clear();
        self.decoders.clear();
        self.framers.clear();
        self.dropped = 0;
        self.version += 1;
    }

    /// Forgets `source`'s entries only.
    pub fn clear_source(&mut self, source: &str) {
        self.entries.retain(|e| e.source != source);
        self.decoders.remove(source);
        self.framers.remove(source);
        // Indices of other sources' open rows moved: they start afresh.
        for framer in self.framers.values_mut() {
            *framer = RxFramer::default();
        }
        self.version += 1;
    }

    /// Bytes written to `source` at `at_ms`.
    pub fn push_tx(&mut self, source: &str, bytes: &[u8], at_ms: u64) {
        if bytes.is_empty() {
            return;
        }
        let (decoder, pending) = self
            .decoders
            .entry(source.to_owned())
            .or_insert_with(|| (Decoder::new(), Vec::new()));
        let mut done = Vec::new();
        for &byte in bytes {
            pending.push(byte);
            match decoder.push(byte) {
                None => {}
                Some(Ok(message)) => {
                    // Line feeds between messages are skipped by the decoder: they go with the
                    // message they precede, shown as its bytes.
                    done.push((std::mem::take(pending), label_of(&message), false));
                }
                Some(Err(_)) => done.push((std::mem::take(pending), "junk".into(), false)),
            }
        }
        if !pending.is_empty() {
            // The rest of a message the next write completes, or bytes that start none.
            done.push((std::mem::take(pending), "partial".into(), true));
        }
        for (bytes, label, partial) in done {
            self.add(Entry {
                source: source.to_owned(),
                dir: Direction::Tx,
                at_ms,
                bytes,
                label,
                partial,
            });
        }
        self.version += 1;
    }

    /// Bytes read from `source` at `at_ms`, in any chunking.
    pub fn push_rx(&mut self, source: &str, bytes: &[u8], at_ms: u64) {
        for &byte in bytes {
            let mut state = self.framers.remove(source).unwrap_or_default();
            // A line feed right after `}` ends that message.
            if std::mem::take(&mut state.after_brace) && byte == b'\n' {
                if let Some(i) = state.last {
                    self.entries[i].bytes.push(byte);
                }
                self.framers.insert(source.to_owned(), state);
                continue;
            }
            // Junk before a `{` is a row of its own.
            if byte == b'{'
                && let Some(i) = state.open
                && self.entries[i]
                    .bytes
                    .iter()
                    .any(|b| !b.is_ascii_whitespace())
            {
                self.close_rx(i);
                state.open = None;
            }
            let i = match state.open {
                Some(i) => {
                    self.entries[i].bytes.push(byte);
                    i
                }
                None => {
                    let (i, dropped) = self.add(Entry {
                        source: source.to_owned(),
                        dir: Direction::Rx,
                        at_ms,
                        bytes: vec![byte],
                        label: String::new(),
                        partial: true,
                    });
                    state.last = state.last.and_then(|l| l.checked_sub(dropped));
                    i
                }
            };
            self.entries[i].label = rx_label(&self.entries[i].bytes);
            state.open = Some(i);
            if byte == b'}' || byte == b'\n' {
                self.close_rx(i);
                state.open = None;
                state.after_brace = byte == b'}';
                state.last = Some(i);
            }
            self.framers.insert(source.to_owned(), state);
        }
        self.version += 1;
    }

    fn close_rx(&mut self, i: usize) {
        self.entries[i].partial = false;
    }

    /// Appends `entry`, dropping the oldest beyond the capacity; returns its index and how many
    /// were dropped (open rows of other sources are re-indexed here).
    fn add(&mut self, entry: Entry) -> (usize, usize) {
        self.entries.push(entry);
        let mut excess = 0;
        if self.entries.len() > self.capacity {
            excess = self.entries.len() - self.capacity;
            self.entries.drain(..excess);
            self.dropped += excess;
            for framer in self.framers.values_mut() {
                framer.open = framer.open.and_then(|i| i.checked_sub(excess));
                framer.last = framer.last.and_then(|i| i.checked_sub(excess));
            }
        }
        (self.entries.len() - 1, excess)
    }

    /// The log as a text file: one line per entry with time, source, direction, hex, printable
    /// form and meaning.
    pub fn to_text(&self) -> String {
        self.to_text_of(None)
    }

    /// The same, of one source's entries only (all with `None`).
    pub fn to_text_of(&self, source: Option<&str>) -> String {
        let mut out = String::from("# time(s)  source  dir  hex  |  printable  |  message\n");
        if self.dropped > 0 {
            let _ = writeln!(out, "# {} older entries dropped", self.dropped);
        }
        for e in self
            .entries
            .iter()
            .filter(|e| source.is_none_or(|s| e.source == s))
        {
            let _ = writeln!(
                out,
                "{:>9} {} {} {} | {} | {}",
                seconds(e.at_ms),
                e.source,
                e.dir.name(),
                hex(&e.bytes),
                printable(&e.bytes),
                e.label
            );
        }
        out
    }
}

fn label_of(message: &ToPlayer) -> String {
    match message {
        ToPlayer::Width(w) => format!("w {w}"),
        ToPlayer::Length(l) => format!("l {l}"),
        ToPlayer::Colour(side) => format!("c {}", side.letter() as char),
        ToPlayer::Start => "{}".into(),
        ToPlayer::Turn(turn) => format!("{{{turn}}}"),
    }
}

/// `{digits}` for a framed turn (a line feed after it allowed), `junk` for anything else.
fn rx_label(bytes: &[u8]) -> String {
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    match body {
        [b'{', digits @ .., b'}'] if digits.iter().all(|b| (b'0'..=b'7').contains(b)) => {
            format!("{{{}}}", String::from_utf8_lossy(digits))
        }
        [b'{', rest @ ..] if rest.iter().all(|b| (b'0'..=b'7').contains(b)) => "…".into(),
        _ => "junk".into(),
    }
}

/// `12.345`: milliseconds as seconds.
pub fn seconds(ms: u64) -> String {
    format!("{}.{:03}", ms / 1000, ms % 1000)
}

/// `7b 34 7d 0a`
pub fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 3);
    for (i, b) in bytes.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let _ = write!(out, "{b:02x}");
    }
    out
}

/// Printable ASCII as is, `\n`, `\r`, `\t` escaped, any other byte as `\xNN`.
pub fn printable(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes {
        match b {
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            b'\\' => out.push_str("\\\\"),
            0x20..=0x7e => out.push(b as char),
            _ => {
                let _ = write!(out, "\\x{b:02x}");
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(log: &Log) -> Vec<(&str, String, bool)> {
        log.entries()
            .iter()
            .map(|e| (e.dir.name(), e.label.clone(), e.partial))
            .collect()
    }

    #[test]
    fn referee_messages_are_decoded_one_row_each_even_with_a_size_of_ten() {
        let mut log = Log::default();
        log.push_tx("red", b"w\x08\nl\x0a\ncr\n{}\n", 5);
        log.push_tx("red", b"{4452}\n", 9);
        let labels: Vec<String> = log.entries().iter().map(|e| e.label.clone()).collect();
        assert_eq!(labels, ["w 8", "l 10", "c r", "{}", "{4452}"]);
        assert_eq!(log.entries()[1].bytes, b"l\x0a\n");
        assert!(
            log.entries()
                .iter()
                .all(|e| e.dir == Direction::Tx && !e.partial)
        );
        assert_eq!(log.entries()[4].at_ms, 9);
    }

    #[test]
    fn board_turns_are_reassembled_from_any_chunking() {
        let stream = b"\xffBOOT\r\n{4452}\n{3}{}junk{0";
        for split in 0..stream.len() {
            let mut log = Log::default();
            log.push_rx("blue", &stream[..split], 1);
            log.push_rx("blue", &stream[split..], 2);
            let got: Vec<(Vec<u8>, String)> = log
                .entries()
                .iter()
                .map(|e| (e.bytes.clone(), e.label.clone()))
                .collect();
            assert_eq!(
                got,
                [
                    (b"\xffBOOT\r\n".to_vec(), "junk".to_string()),
                    (b"{4452}\n".to_vec(), "{4452}".into()),
                    (b"{3}".to_vec(), "{3}".into()),
                    (b"{}".to_vec(), "{}".into()),
                    (b"junk".to_vec(), "junk".into()),
                    (b"{0".to_vec(), "…".into()),
                ],
                "split at {split}"
            );
            assert!(log.entries().last().unwrap().partial);
        }
    }

    #[test]
    fn sources_are_framed_apart() {
        let mut log = Log::default();
        log.push_rx("red", b"{12", 1);
        log.push_rx("blue", b"{5}\n", 2);
        log.push_rx("red", b"3}\n", 3);
        assert_eq!(
            rows(&log),
            [("rx", "{123}".into(), false), ("rx", "{5}".into(), false)]
        );
    }

    #[test]
    fn the_oldest_rows_go_first_and_open_messages_survive() {
        let mut log = Log::new(2);
        log.push_rx("red", b"{1}\n{2}\n{3", 1);
        log.push_rx("red", b"4}\n", 1);
        assert_eq!(
            rows(&log),
            [("rx", "{2}".into(), false), ("rx", "{34}".into(), false)]
        );
        assert!(log.to_text().contains("# 1 older entries dropped"));
    }

    #[test]
    fn text_form_shows_hex_printable_and_meaning() {
        let mut log = Log::default();
        log.push_tx("red", b"w\x0a\n", 1234);
        let text = log.to_text();
        assert!(
            text.ends_with("    1.234 red tx 77 0a 0a | w\\n\\n | w 10\n"),
            "{text}"
        );
        assert_eq!(printable(b"\x00a\\"), "\\x00a\\\\");
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod fuzz {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        /// Whatever the bytes and their chunking, the rows hold every byte once, in order.
        #[test]
        fn no_byte_is_lost_or_moved(
            bytes in proptest::collection::vec(
                prop_oneof![Just(b'{'), Just(b'}'), Just(b'\n'), Just(b'w'), Just(b'3'), any::<u8>()],
                0..200,
            ),
            cuts in proptest::collection::vec(0usize..200, 0..8),
            capacity in 1usize..50,
        ) {
            for dir in [Direction::Rx, Direction::Tx] {
                let mut log = Log::new(1_000);
                let mut small = Log::new(capacity);
                let mut cuts = cuts.clone();
                cuts.push(0);
                cuts.push(bytes.len());
                cuts.retain(|&c| c <= bytes.len());
                cuts.sort_unstable();
                for pair in cuts.windows(2) {
                    let chunk = &bytes[pair[0]..pair[1]];
                    match dir {
                        Direction::Rx => {
                            log.push_rx("red", chunk, 0);
                            small.push_rx("red", chunk, 0);
                        }
                        Direction::Tx => {
                            log.push_tx("red", chunk, 0);
                            small.push_tx("red", chunk, 0);
                        }
                    }
                }
                let joined: Vec<u8> = log.entries().iter().flat_map(|e| e.bytes.clone()).collect();
                prop_assert_eq!(&joined, &bytes);
                prop_assert!(small.entries().len() <= capacity);
                let tail: Vec<u8> = small.entries().iter().flat_map(|e| e.bytes.clone()).collect();
                prop_assert!(bytes.ends_with(&tail));
            }
        }
    }
}
