//! An example Paper Soccer bot (docs/bots.md): the wire protocol (spec §4) on standard input and
//! output, as a board speaks it on its serial line, playing a random legal turn each time.
//!
//! The protocol and the game (framing, the size bytes, whose turn it is, the position) are the
//! `engine` crate's [`WirePlayer`]; the bot only moves bytes and says how it chooses.

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::io::{self, Read, Write};

use engine::soccer::search::Engine;
use engine::soccer::wire::WirePlayer;

fn main() -> io::Result<()> {
    // The host seeds `random_get`, which the standard library's hasher keys come from.
    let seed = RandomState::new().hash_one(0u8);
    // Level 0: a uniformly random legal turn.
    let mut player = WirePlayer::new(Engine::new(0, seed));
    let (mut input, mut output) = (io::stdin().lock(), io::stdout().lock());
    let mut buf = [0u8; 1024];
    loop {
        let n = input.read(&mut buf)?;
        if n == 0 {
            return Ok(()); // The referee closed the wire.
        }
        player.handle_input(&buf[..n]);
        if let Some(bytes) = player.poll_transmit() {
            // Standard output is line-buffered and a turn need not end a line: flush.
            output.write_all(&bytes)?;
            output.flush()?;
        }
    }
}
