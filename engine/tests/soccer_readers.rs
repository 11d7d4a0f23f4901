//! The readers of untrusted Paper Soccer input — records ([`Record::parse_bytes`]), the
//! referee → player stream ([`Decoder`], [`PlayerSession`]) and the player → referee stream
//! ([`Referee::handle_input`], over `TurnScanner`) — take any bytes without panicking, and their
//! error messages stay short whatever the input's size (issue 19). These are the entry points
//! the fuzz stage drives; these properties are its quick, always-run part.

#![cfg(not(target_arch = "wasm32"))]

use engine::rng::SplitMix64;
use engine::soccer::Side;
use engine::soccer::field::Field;
use engine::soccer::game::Game;
use engine::soccer::player::{PlayerEvent, PlayerSession};
use engine::soccer::protocol::Decoder;
use engine::soccer::record::{QUOTE_CHARS, Record, RecordTurn};
use engine::soccer::referee::{Referee, RefereeEvent, Settings};
use engine::soccer::turns::count_turns;
use proptest::prelude::*;

/// The longest message a record error may give: the quote (each character escaped to at most
/// 10) and a sentence around it.
const RECORD_MESSAGE_MAX: usize = 10 * QUOTE_CHARS + 200;
/// The longest message a protocol error may give.
const PROTOCOL_MESSAGE_MAX: usize = 200;

/// The record of a game of random legal turns on a small field.
fn random_record(seed: u64, turns: usize) -> String {
    let mut rng = SplitMix64::new(seed);
    let field = Field::new(2 + 2 * rng.below(6) as u8, 2 + 2 * rng.below(6) as u8).unwrap();
    let starter = if rng.coin() { Side::Red } else { Side::Blue };
    let mut game = Game::new(field, starter);
    for _ in 0..turns {
        let n = count_turns(&game, 50);
        if n == 0 {
            break;
        }
        let turn = game.legal_turns().nth(rng.below(n) as usize).unwrap();
        if game.play_turn(&turn).is_some() {
            break;
        }
    }
    let record = Record {
        width: field.width(),
        length: field.length(),
        starter,
        turns: game.turns().into_iter().map(RecordTurn::from).collect(),
        result: game.outcome(),
    };
    record.to_string()
}

/// One edit of a byte string: flip, insert or delete a byte at a position.
#[derive(Clone, Debug)]
enum Edit {
    Set(usize, u8),
    Insert(usize, u8),
    Delete(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    // Bytes of the record's own alphabet most of the time, any byte sometimes.
    let byte = prop_oneof![
        4 => prop::sample::select(b"0123456789x /:#{}rdbluengoaist_\n\r".to_vec()),
        1 => any::<u8>(),
    ];
    prop_oneof![
        (any::<usize>(), byte.clone()).prop_map(|(i, b)| Edit::Set(i, b)),
        (any::<usize>(), byte).prop_map(|(i, b)| Edit::Insert(i, b)),
        any::<usize>().prop_map(Edit::Delete),
    ]
}

fn apply(bytes: &mut Vec<u8>, edit: &Edit) {
    let n = bytes.len();
    match *edit {
        Edit::Set(i, b) if n > 0 => bytes[i % n] = b,
        Edit::Insert(i, b) => bytes.insert(i % (n + 1), b),
        Edit::Delete(i) if n > 0 => {
            bytes.remove(i % n);
        }
        _ => {}
    }
}

/// Parses `bytes` as a record and checks what any reader may rely on.
fn check_record(bytes: &[u8]) -> Result<(), TestCaseError> {
    match Record::parse_bytes(bytes) {
        Ok(record) => {
            // What parses writes back canonically, and replays to a game or a named error.
            prop_assert_eq!(Record::parse(&record.to_string()), Ok(record.clone()));
            if let Err(e) = record.replay() {
                prop_assert!(e.to_string().len() <= RECORD_MESSAGE_MAX, "{}", e);
            }
        }
        Err(e) => {
            prop_assert!(e.column >= 1 && e.column <= bytes.len() + 1, "{:?}", e);
            prop_assert!(e.near.chars().count() <= 10 * QUOTE_CHARS + 2, "{:?}", e);
            let text = e.to_string();
            prop_assert!(
                text.len() <= RECORD_MESSAGE_MAX,
                "{} bytes: {}",
                text.len(),
                text
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn any_bytes_parse_or_give_a_short_positioned_error(
        bytes in proptest::collection::vec(any::<u8>(), 0..400),
    ) {
        check_record(&bytes)?;
    }

    #[test]
    fn mutated_records_parse_or_give_a_short_positioned_error(
        seed: u64,
        turns in 0usize..30,
        edits in proptest::collection::vec(edit(), 1..6),
    ) {
        let mut bytes = random_record(seed, turns).into_bytes();
        for e in &edits {
            apply(&mut bytes, e);
        }
        check_record(&bytes)?;
    }

    #[test]
    fn the_player_session_takes_any_bytes_with_short_errors(
        chunks in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..64), 0..20),
    ) {
        let mut session = PlayerSession::new();
        for chunk in &chunks {
            session.handle_input(chunk);
            while let Some(event) = session.poll_event() {
                if let PlayerEvent::Ignored(e) = event {
                    let text = e.to_string();
                    prop_assert!(text.len() <= PROTOCOL_MESSAGE_MAX, "{}", text);
                }
            }
        }
        let total: usize = chunks.iter().map(Vec::len).sum();
        let mut decoder = Decoder::new();
        for chunk in &chunks {
            for item in decoder.decode_all(chunk) {
                if let Err(e) = item {
                    prop_assert!(e.offset < total as u64);
                    prop_assert!(e.to_string().len() <= PROTOCOL_MESSAGE_MAX);
                }
            }
        }
        prop_assert_eq!(decoder.offset(), total as u64);
    }

    #[test]
    fn the_referee_takes_any_bytes_from_either_side(
        input in proptest::collection::vec(
            (any::<bool>(), proptest::collection::vec(
                prop_oneof![4 => b'0'..=b'7', 2 => Just(b'{'), 2 => Just(b'}'), 1 => any::<u8>()],
                0..40,
            )),
            0..30,
        ),
    ) {
        let settings = Settings { width: 4, length: 4, turn_ms: 1000 };
        let mut referee = Referee::new(settings, Side::Red, 0).unwrap();
        for (t, (red, bytes)) in input.iter().enumerate() {
            let side = if *red { Side::Red } else { Side::Blue };
            referee.handle_input(side, bytes, t as u64);
            while let Some(event) = referee.poll_event() {
                if let RefereeEvent::Ended(end) = event {
                    // Whatever ended the game, the referee's record of it is a valid record.
                    let replayed = referee.record().replay();
                    prop_assert!(replayed.is_ok(), "{:?}: {:?}", end, replayed);
                }
            }
            while referee.poll_transmit().is_some() {}
        }
    }
}

/// A long turn that arrives when none is expected is named in a line, not echoed whole.
#[test]
fn an_unexpected_long_turn_is_cut_in_the_message() {
    let mut session = PlayerSession::new();
    let mut bytes = b"{".to_vec();
    bytes.extend(std::iter::repeat_n(b'4', 60_000));
    bytes.extend_from_slice(b"}\n");
    session.handle_input(&bytes);
    let Some(PlayerEvent::Ignored(e)) = session.poll_event() else {
        panic!("the turn before any set-up is refused");
    };
    assert_eq!(
        e.to_string(),
        "unexpected turn {44444444444444444444…} of 60000 digits ending at byte 60002 while no \
         game is set up"
    );
}

/// Megabytes of input give messages of a line.
#[test]
fn huge_records_give_short_messages() {
    let mut rng = SplitMix64::new(19);
    for _ in 0..20 {
        let mut bytes = random_record(rng.next_u64(), 40).into_bytes();
        let filler: Vec<u8> = (0..1 << 20).map(|i| b"34/"[i % 3]).collect();
        let at = rng.below(bytes.len() as u64 + 1) as usize;
        bytes.splice(at..at, filler);
        let bad = rng.below(bytes.len() as u64) as usize;
        bytes[bad] = [b'9', 0xff, b'#', b' '][rng.below(4) as usize];
        if let Err(e) = Record::parse_bytes(&bytes) {
            assert!(e.to_string().len() <= RECORD_MESSAGE_MAX, "{e}");
        }
    }
}
