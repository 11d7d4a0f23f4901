//! An example Paper Soccer bot (docs/bots.md): the wire protocol (spec §4) on standard input and
//! output, as a board speaks it on its serial line, playing a random legal turn each time.
//!
//! The protocol itself (framing, the size bytes, whose turn it is) is the `engine` crate's
//! [`PlayerSession`]; the bot only follows the game and chooses its turns.

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::io::{self, Read, Write};

use engine::soccer::Side;
use engine::soccer::field::Field;
use engine::soccer::game::Game;
use engine::soccer::player::{PlayerEvent, PlayerSession};
use engine::soccer::search::Engine;

fn main() -> io::Result<()> {
    // The host seeds `random_get`, which the standard library's hasher keys come from.
    let seed = RandomState::new().hash_one(0u8);
    // Level 0: a uniformly random legal turn.
    let mut engine = Engine::new(0, seed);
    let mut session = PlayerSession::new();
    let mut setup: Option<(Field, Side)> = None;
    let mut game: Option<Game> = None;
    let (mut input, mut output) = (io::stdin().lock(), io::stdout().lock());
    let mut buf = [0u8; 1024];
    loop {
        let n = input.read(&mut buf)?;
        if n == 0 {
            return Ok(()); // The referee closed the wire.
        }
        session.handle_input(&buf[..n]);
        while let Some(event) = session.poll_event() {
            match event {
                PlayerEvent::NewGame {
                    width,
                    length,
                    colour,
                } => {
                    game = None;
                    setup = Field::new(width, length).ok().map(|f| (f, colour));
                }
                PlayerEvent::YourTurn { opponent_turn } => {
                    let Some((field, colour)) = setup else {
                        continue;
                    };
                    let game = game.get_or_insert_with(|| {
                        let starter = match opponent_turn {
                            None => colour,
                            Some(_) => colour.opponent(),
                        };
                        Game::new(field, starter)
                    });
                    if let Some(turn) = &opponent_turn
                        && game.play_turn(turn).is_some()
                    {
                        continue; // Their turn ended the game.
                    }
                    if let Some(turn) = engine.choose_turn(game) {
                        game.play_turn(&turn);
                        let _ = session.send_turn(&turn);
                    }
                }
                PlayerEvent::Ignored(_) => {}
            }
        }
        if let Some(bytes) = session.poll_transmit() {
            // Standard output is line-buffered and a turn need not end a line: flush.
            output.write_all(&bytes)?;
            output.flush()?;
        }
    }
}
