//! The wire codec and the player session (spec §4): round trips, chunking, resynchronisation,
//! and fuzzing with arbitrary bytes.
#![cfg(not(target_arch = "wasm32"))]

use engine::soccer::Side;
use engine::soccer::player::{PlayerEvent, PlayerSession};
use engine::soccer::protocol::{Decoder, FrameFault, MAX_DIGITS, ToPlayer, Turn, TurnScanner};
use proptest::prelude::*;

fn message() -> impl Strategy<Value = ToPlayer> {
    prop_oneof![
        any::<u8>().prop_map(ToPlayer::Width),
        any::<u8>().prop_map(ToPlayer::Length),
        prop_oneof![Just(Side::Red), Just(Side::Blue)].prop_map(ToPlayer::Colour),
        Just(ToPlayer::Start),
        proptest::collection::vec(b'0'..=b'7', 1..40)
            .prop_map(|d| ToPlayer::Turn(Turn::new(&d).unwrap())),
    ]
}

/// Splits `bytes` at the given cut points (taken modulo the length).
fn chunks(bytes: &[u8], cuts: &[usize]) -> Vec<Vec<u8>> {
    let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (bytes.len() + 1)).collect();
    cuts.push(0);
    cuts.push(bytes.len());
    cuts.sort_unstable();
    cuts.windows(2)
        .map(|w| bytes[w[0]..w[1]].to_vec())
        .collect()
}

/// A clean set-up of an 8x10 game in which we play red and start.
const SET_UP: &[u8] = b"w\x08\nl\x0a\ncr\n{}\n";

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn messages_round_trip_whatever_the_chunking(
        msgs in proptest::collection::vec(message(), 0..20),
        cuts in proptest::collection::vec(any::<usize>(), 0..10),
    ) {
        let bytes: Vec<u8> = msgs.iter().flat_map(ToPlayer::to_bytes).collect();
        let mut decoder = Decoder::new();
        let mut got = Vec::new();
        for chunk in chunks(&bytes, &cuts) {
            decoder.decode(&chunk, |item| got.push(item));
        }
        prop_assert_eq!(got, msgs.into_iter().map(Ok).collect::<Vec<_>>());
        prop_assert_eq!(decoder.offset(), bytes.len() as u64);
    }

    #[test]
    fn decoding_does_not_depend_on_chunking(
        bytes in proptest::collection::vec(any::<u8>(), 0..300),
        cuts in proptest::collection::vec(any::<usize>(), 0..10),
    ) {
        let whole = Decoder::new().decode_all(&bytes);
        let mut decoder = Decoder::new();
        let mut parts = Vec::new();
        for chunk in chunks(&bytes, &cuts) {
            parts.extend(decoder.decode_all(&chunk));
        }
        prop_assert_eq!(whole, parts);
    }

    #[test]
    fn after_any_garbage_a_new_set_up_is_recognised(
        garbage in proptest::collection::vec(
            prop_oneof![any::<u8>(), prop::sample::select(b"wlc{}\n0123r".to_vec())],
            0..200,
        ),
    ) {
        let mut session = PlayerSession::new();
        session.handle_input(&garbage);
        while session.poll_event().is_some() {}
        session.handle_input(SET_UP);
        let events: Vec<PlayerEvent> = std::iter::from_fn(|| session.poll_event()).collect();
        prop_assert!(events.len() >= 2, "{:?}", events);
        prop_assert_eq!(
            &events[events.len() - 2..],
            &[
                PlayerEvent::NewGame { width: 8, length: 10, colour: Side::Red },
                PlayerEvent::YourTurn { opponent_turn: None },
            ]
        );
        prop_assert!(session.is_on_turn());
    }

    #[test]
    fn the_session_survives_arbitrary_bytes(
        chunks in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..64), 0..20),
        answer in proptest::collection::vec(b'0'..=b'7', 1..10),
    ) {
        let mut session = PlayerSession::new();
        let turn = Turn::new(&answer).unwrap();
        for chunk in &chunks {
            session.handle_input(chunk);
            while let Some(event) = session.poll_event() {
                if let PlayerEvent::YourTurn { .. } = event {
                    prop_assert!(session.is_on_turn());
                    session.send_turn(&turn).unwrap();
                    prop_assert_eq!(session.poll_transmit(), Some(turn.to_bytes()));
                }
            }
        }
    }

    #[test]
    fn the_scanner_finds_the_digits_among_noise(
        digits in proptest::collection::vec(b'0'..=b'7', 0..50),
        noise in proptest::collection::vec(
            any::<u8>().prop_filter("not significant", |b| !matches!(b, b'{' | b'}' | b'0'..=b'7')),
            0..100,
        ),
        seed in any::<u64>(),
    ) {
        // Interleave the noise anywhere into `{digits}`.
        let mut frame = vec![b'{'];
        frame.extend(&digits);
        frame.push(b'}');
        let mut bytes = Vec::new();
        let mut state = seed;
        let mut noise = noise.into_iter();
        for b in frame {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            for _ in 0..(state >> 61) {
                bytes.extend(noise.next());
            }
            bytes.push(b);
        }
        bytes.extend(noise);
        let mut scanner = TurnScanner::new();
        let found: Vec<_> = bytes.iter().filter_map(|b| scanner.push(*b)).collect();
        prop_assert_eq!(found, vec![Ok(digits)]);
    }

    #[test]
    fn the_scanner_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..500)) {
        let mut scanner = TurnScanner::new();
        for b in bytes {
            if let Some(Ok(digits)) = scanner.push(b) {
                prop_assert!(digits.iter().all(|d| (b'0'..=b'7').contains(d)));
            }
        }
    }
}

#[test]
fn a_width_of_ten_is_the_byte_0x0a_and_is_not_a_line_end() {
    let mut session = PlayerSession::new();
    // Byte by byte, the worst chunking.
    for b in b"w\x0a\nl\x0a\ncb\n{04}\n" {
        session.handle_input(&[*b]);
    }
    let events: Vec<PlayerEvent> = std::iter::from_fn(|| session.poll_event()).collect();
    assert_eq!(
        events,
        vec![
            PlayerEvent::NewGame {
                width: 10,
                length: 10,
                colour: Side::Blue
            },
            PlayerEvent::YourTurn {
                opponent_turn: Some(Turn::new(b"04").unwrap())
            }
        ]
    );
}

#[test]
fn the_longest_turn_passes_and_one_more_digit_is_a_fault() {
    let longest = vec![b'3'; MAX_DIGITS];
    let turn = Turn::new(&longest).unwrap();
    let mut decoder = Decoder::new();
    assert_eq!(
        decoder.decode_all(&ToPlayer::Turn(turn.clone()).to_bytes()),
        vec![Ok(ToPlayer::Turn(turn))]
    );
    let mut scanner = TurnScanner::new();
    let mut bytes = vec![b'{'];
    bytes.extend(vec![b'3'; MAX_DIGITS + 1]);
    let found: Vec<_> = bytes.iter().filter_map(|b| scanner.push(*b)).collect();
    assert_eq!(found, vec![Err(FrameFault::TooManyDigits)]);
}
