//! The referee state machine (spec §4): what it sends, the byte filter, the clock, every end of
//! a game, and fuzzing with arbitrary inputs.
#![cfg(not(target_arch = "wasm32"))]

use engine::rng::SplitMix64;
use engine::soccer::field::Field;
use engine::soccer::game::Game;
use engine::soccer::protocol::{Decoder, FrameFault, ToPlayer, Turn};
use engine::soccer::record::RecordTurn;
use engine::soccer::referee::{End, Referee, RefereeEvent, Settings, Starter, Transmit};
use engine::soccer::search::Engine;
use engine::soccer::{Outcome, Reason, Side};
use proptest::prelude::*;

const TURN_MS: u64 = 300;

fn settings() -> Settings {
    Settings {
        width: 8,
        length: 10,
        turn_ms: TURN_MS,
    }
}

fn transmits(r: &mut Referee) -> Vec<Transmit> {
    std::iter::from_fn(|| r.poll_transmit()).collect()
}

fn events(r: &mut Referee) -> Vec<RefereeEvent> {
    std::iter::from_fn(|| r.poll_event()).collect()
}

fn to(side: Side, bytes: &[u8]) -> Transmit {
    Transmit {
        to: side,
        bytes: bytes.to_vec(),
    }
}

fn ended(r: &Referee) -> Option<(Side, Reason)> {
    r.end().map(|e| (e.outcome.winner, e.outcome.reason))
}

/// A referee with the set-up already sent, red to start at time 0.
fn started(starter: Side) -> Referee {
    let mut r = Referee::new(settings(), starter, 0).unwrap();
    transmits(&mut r);
    r
}

#[test]
fn set_up_goes_to_both_in_order_and_the_start_signal_to_the_starter_only() {
    let mut r = Referee::new(
        Settings {
            width: 10,
            length: 12,
            turn_ms: 1000,
        },
        Side::Blue,
        5,
    )
    .unwrap();
    assert_eq!(
        transmits(&mut r),
        vec![
            to(Side::Red, b"w\x0a\nl\x0c\ncr\n"),
            to(Side::Blue, b"w\x0a\nl\x0c\ncb\n{}\n"),
        ]
    );
    assert_eq!(r.on_turn(), Some(Side::Blue));
    assert_eq!(r.next_deadline(), Some(1005));
    assert!(
        Referee::new(
            Settings {
                width: 9,
                ..settings()
            },
            Side::Red,
            0
        )
        .is_err()
    );
}

#[test]
fn the_random_starter_is_fair_and_fixed_by_the_seed() {
    let picks = |seed| {
        let mut rng = SplitMix64::new(seed);
        (0..200)
            .map(|_| Starter::Random.pick(&mut rng))
            .collect::<Vec<_>>()
    };
    let reds = picks(1).iter().filter(|s| **s == Side::Red).count();
    assert!((60..140).contains(&reds), "{reds} reds in 200");
    assert_eq!(picks(1), picks(1));
    assert_ne!(picks(1), picks(2));
    let mut rng = SplitMix64::new(0);
    assert_eq!(Starter::Fixed(Side::Blue).pick(&mut rng), Side::Blue);
    assert_eq!(Starter::Random.pick_with(|| true), Side::Red);
    assert_eq!(Starter::Random.pick_with(|| false), Side::Blue);
    assert_eq!(Starter::Fixed(Side::Red).pick_with(|| false), Side::Red);
}

#[test]
fn starter_names_round_trip() {
    let names: Vec<&str> = Starter::ALL.iter().map(|s| s.name()).collect();
    assert_eq!(names, ["random", "red", "blue"]);
    for starter in Starter::ALL {
        assert_eq!(Starter::from_name(starter.name()), Some(starter));
        assert_eq!(starter.to_string(), starter.name());
    }
    assert_eq!(Starter::from_name("green"), None);
}

#[test]
fn a_legal_turn_is_forwarded_exactly_and_the_other_clock_starts() {
    let mut r = started(Side::Red);
    // Noise, stray digits before `{`, and a chunk boundary inside the frame.
    r.handle_input(Side::Red, b"hello 8 3 {", 10);
    assert_eq!(transmits(&mut r), vec![]);
    r.handle_input(Side::Red, b" 4\r\n}\n", 20);
    assert_eq!(transmits(&mut r), vec![to(Side::Blue, b"{4}\n")]);
    assert_eq!(
        events(&mut r),
        vec![RefereeEvent::Played {
            side: Side::Red,
            turn: Turn::new(b"4").unwrap()
        }]
    );
    assert_eq!(r.on_turn(), Some(Side::Blue));
    assert_eq!(r.next_deadline(), Some(20 + TURN_MS));
    assert_eq!(r.record().turns, vec![RecordTurn::new(b"4")]);
}

#[test]
fn framing_faults_are_illegal_steps_of_the_player_on_turn() {
    for (bytes, fault) in [
        (&b"4}"[..], FrameFault::CloseWithoutOpen),
        (b"{4{", FrameFault::SecondOpen),
        (b"}", FrameFault::CloseWithoutOpen),
    ] {
        let mut r = started(Side::Red);
        r.handle_input(Side::Red, bytes, 1);
        let end = End {
            outcome: Outcome {
                winner: Side::Blue,
                reason: Reason::IllegalStep,
            },
            frame_fault: Some(fault),
        };
        assert_eq!(r.end(), Some(end));
        assert_eq!(events(&mut r), vec![RefereeEvent::Ended(end)]);
        assert!(r.record().turns.is_empty());
        assert_eq!(r.record().to_string(), "8x10 red: # blue illegal_step");
        assert_eq!(r.next_deadline(), None);
    }
    // 65,536 digits: decided at the last digit, without waiting for `}`.
    let mut r = started(Side::Red);
    r.handle_input(Side::Red, b"{", 1);
    r.handle_input(Side::Red, &vec![b'1'; 65_535], 2);
    assert_eq!(r.end(), None);
    r.handle_input(Side::Red, b"1", 3);
    assert_eq!(
        r.end().unwrap().frame_fault,
        Some(FrameFault::TooManyDigits)
    );
}

#[test]
fn rule_faults_come_from_the_game_and_keep_the_faulty_turn() {
    let mut r = started(Side::Red);
    r.handle_input(Side::Red, b"{43}\n", 1);
    assert_eq!(ended(&r), Some((Side::Blue, Reason::AfterEnd)));
    assert_eq!(r.record().to_string(), "8x10 red: 43 # blue after_end");
    assert!(r.record().replay().is_ok());

    let mut r = started(Side::Blue);
    r.handle_input(Side::Blue, b"{}", 1);
    assert_eq!(ended(&r), Some((Side::Red, Reason::IncompleteTurn)));
    assert_eq!(
        r.record().to_string(),
        "8x10 blue: {} # red incomplete_turn"
    );
    assert!(r.record().replay().is_ok());
}

#[test]
fn the_clock_runs_out_at_the_deadline_not_before() {
    let mut r = started(Side::Red);
    r.poll(TURN_MS - 1);
    assert_eq!(r.end(), None);
    // A turn completed in time, even if its newline comes late.
    r.handle_input(Side::Red, b"{4}", TURN_MS - 1);
    r.handle_input(Side::Red, b"\n", TURN_MS + 5);
    assert_eq!(r.end(), None);
    r.poll(2 * TURN_MS - 2);
    assert_eq!(r.end(), None);
    r.poll(2 * TURN_MS - 1);
    assert_eq!(ended(&r), Some((Side::Red, Reason::Timeout)));
    assert_eq!(r.record().to_string(), "8x10 red: 4 # red timeout");
    assert!(r.record().replay().is_ok());
}

#[test]
fn a_turn_arriving_after_the_deadline_is_a_timeout() {
    let mut r = started(Side::Red);
    r.handle_input(Side::Red, b"{4}\n", TURN_MS);
    assert_eq!(ended(&r), Some((Side::Blue, Reason::Timeout)));
    assert!(r.record().turns.is_empty());
    assert_eq!(transmits(&mut r), vec![]);
}

#[test]
fn bytes_from_the_player_not_on_turn_are_dropped_and_never_carried_over() {
    let mut r = started(Side::Red);
    r.handle_input(Side::Blue, b"hi {0", 1);
    assert_eq!(
        events(&mut r),
        vec![RefereeEvent::OutOfTurn {
            side: Side::Blue,
            bytes: 2
        }]
    );
    assert_eq!(r.end(), None);
    // Red's turn, then in the same chunk an early, never-to-be-used frame.
    r.handle_input(Side::Red, b"{4}\n{7}\n", 2);
    assert_eq!(transmits(&mut r), vec![to(Side::Blue, b"{4}\n")]);
    assert!(matches!(
        events(&mut r)[..],
        [
            RefereeEvent::Played { .. },
            RefereeEvent::OutOfTurn {
                side: Side::Red,
                bytes: 3
            }
        ]
    ));
    // Blue's `{0` from before its turn does not open its frame now.
    r.handle_input(Side::Blue, b"}", 3);
    assert_eq!(ended(&r), Some((Side::Red, Reason::IllegalStep)));
}

#[test]
fn a_disconnection_loses_on_turn_or_not_but_time_is_checked_first() {
    let mut r = started(Side::Red);
    r.handle_disconnect(Side::Blue, 1);
    assert_eq!(ended(&r), Some((Side::Red, Reason::Disconnect)));
    assert_eq!(r.record().to_string(), "8x10 red: # red disconnect");

    let mut r = started(Side::Red);
    r.handle_disconnect(Side::Blue, TURN_MS + 1);
    assert_eq!(ended(&r), Some((Side::Blue, Reason::Timeout)));
}

#[test]
fn nothing_happens_after_the_end() {
    let mut r = started(Side::Red);
    r.handle_disconnect(Side::Red, 1);
    events(&mut r);
    r.handle_input(Side::Red, b"{4}\n", 2);
    r.handle_input(Side::Blue, b"{4}\n", 2);
    r.handle_disconnect(Side::Blue, 3);
    r.poll(10_000);
    assert_eq!(events(&mut r), vec![]);
    assert_eq!(transmits(&mut r), vec![]);
    assert_eq!(ended(&r), Some((Side::Blue, Reason::Disconnect)));
}

/// Plays engine against engine through the referee and checks it agrees with the game itself.
#[test]
fn engine_games_through_the_referee_end_like_the_game() {
    for seed in 0..6 {
        let starter = if seed % 2 == 0 { Side::Red } else { Side::Blue };
        let field = Field::new(6, 8).unwrap();
        let mut game = Game::new(field, starter);
        let mut engines = [Engine::new(1, seed), Engine::new(1, seed + 100)];
        let mut r = Referee::new(
            Settings {
                width: 6,
                length: 8,
                turn_ms: 1000,
            },
            starter,
            0,
        )
        .unwrap();
        transmits(&mut r);
        let mut now = 0;
        while game.outcome().is_none() {
            let side = game.to_move();
            assert_eq!(r.on_turn(), Some(side));
            let turn = engines[usize::from(side == Side::Blue)]
                .choose_turn(&game)
                .expect("an open game");
            game.play_turn(&turn);
            now += 7;
            r.handle_input(side, &turn.to_bytes(), now);
            if game.outcome().is_none() {
                assert_eq!(
                    transmits(&mut r),
                    vec![Transmit {
                        to: side.opponent(),
                        bytes: turn.to_bytes()
                    }]
                );
            }
        }
        assert_eq!(r.end().map(|e| e.outcome), game.outcome());
        assert_eq!(r.record().replay().unwrap().outcome(), game.outcome());
        assert_eq!(transmits(&mut r), vec![]);
    }
}

/// What a fuzzed caller does.
#[derive(Clone, Debug)]
enum Action {
    Input(Side, Vec<u8>, u64),
    Disconnect(Side, u64),
    Poll(u64),
}

fn side() -> impl Strategy<Value = Side> {
    prop_oneof![Just(Side::Red), Just(Side::Blue)]
}

fn action() -> impl Strategy<Value = Action> {
    let byte = prop_oneof![
        6 => prop::sample::select(b"{}01234567".to_vec()),
        1 => any::<u8>(),
    ];
    prop_oneof![
        10 => (side(), proptest::collection::vec(byte, 0..12), 0..200u64)
            .prop_map(|(s, b, dt)| Action::Input(s, b, dt)),
        1 => (side(), 0..200u64).prop_map(|(s, dt)| Action::Disconnect(s, dt)),
        2 => (0..400u64).prop_map(Action::Poll),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn the_referee_always_ends_games_with_a_reason_and_never_misbehaves(
        starter in side(),
        actions in proptest::collection::vec(action(), 0..60),
    ) {
        let mut r = Referee::new(settings(), starter, 0).unwrap();
        let mut sent: [Vec<u8>; 2] = [Vec::new(), Vec::new()];
        let mut now = 0u64;
        let mut ends = 0;
        // `was_over`: the game had ended before the last action, so nothing may be sent.
        let step = |r: &mut Referee, sent: &mut [Vec<u8>; 2], ends: &mut i32, was_over: bool| {
            while let Some(t) = r.poll_transmit() {
                prop_assert!(!was_over, "sent after the end: {:?}", t);
                sent[usize::from(t.to == Side::Blue)].extend(t.bytes);
            }
            while let Some(e) = r.poll_event() {
                if let RefereeEvent::Ended(end) = e {
                    *ends += 1;
                    prop_assert_eq!(Some(end), r.end());
                }
            }
            prop_assert_eq!(r.next_deadline().is_some(), r.end().is_none());
            Ok(())
        };
        for a in actions {
            let was_over = r.end().is_some();
            match a {
                Action::Input(s, bytes, dt) => { now += dt; r.handle_input(s, &bytes, now) }
                Action::Disconnect(s, dt) => { now += dt; r.handle_disconnect(s, now) }
                Action::Poll(dt) => { now += dt; r.poll(now) }
            }
            step(&mut r, &mut sent, &mut ends, was_over)?;
        }
        // Never hangs: once its deadline passes, every game is over.
        if let Some(deadline) = r.next_deadline() {
            prop_assert!(deadline <= now + TURN_MS);
            r.poll(deadline);
        }
        step(&mut r, &mut sent, &mut ends, false)?;
        prop_assert_eq!(ends, 1);
        let end = r.end().unwrap();
        prop_assert_eq!(r.record().result, Some(end.outcome));

        // Each player got its set-up, then turn signals only, as the decoder reads them.
        for (i, side) in [Side::Red, Side::Blue].into_iter().enumerate() {
            let msgs = Decoder::new().decode_all(&sent[i]);
            prop_assert!(msgs.iter().all(Result::is_ok));
            let msgs: Vec<ToPlayer> = msgs.into_iter().map(Result::unwrap).collect();
            prop_assert_eq!(
                &msgs[..3],
                &[ToPlayer::Width(8), ToPlayer::Length(10), ToPlayer::Colour(side)]
            );
            // The turns forwarded to this player are the opponent's recorded turns.
            let theirs: Vec<Vec<u8>> = r
                .record()
                .turns
                .iter()
                .skip(usize::from(starter == side))
                .step_by(2)
                .map(|t| t.payload().to_vec())
                .collect();
            let mut forwarded: Vec<Vec<u8>> = msgs[3..]
                .iter()
                .filter_map(|m| match m {
                    ToPlayer::Turn(t) => Some(t.digits().to_vec()),
                    _ => None,
                })
                .collect();
            prop_assert_eq!(msgs[3..].contains(&ToPlayer::Start), side == starter);
            // The last recorded turn of the opponent may have ended the game unforwarded.
            if forwarded.len() + 1 == theirs.len() {
                forwarded.push(theirs.last().unwrap().clone());
            }
            prop_assert_eq!(forwarded, theirs);
        }
        // The record replays, except after a framing fault, which it cannot show.
        if end.frame_fault.is_none() {
            let replayed = r.record().replay();
            prop_assert!(replayed.is_ok(), "{} {:?}", r.record(), replayed);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Whatever the noise between the bytes of each turn and however the wire splits them, the
    /// referee sees the same game.
    #[test]
    fn noise_and_chunking_do_not_change_the_game(
        seed in 0u64..1000,
        noise in proptest::collection::vec(
            any::<u8>().prop_filter("not significant", |b| !matches!(b, b'{' | b'}' | b'0'..=b'7')),
            1..8,
        ),
        chunk in 1usize..9,
    ) {
        let field = Field::new(6, 8).unwrap();
        let mut game = Game::new(field, Side::Red);
        let mut engines = [Engine::new(0, seed), Engine::new(1, seed)];
        let mut r = Referee::new(Settings { width: 6, length: 8, turn_ms: 1000 }, Side::Red, 0)
            .unwrap();
        let mut now = 0;
        let mut played = Vec::new();
        while game.outcome().is_none() {
            let side = game.to_move();
            let turn = engines[usize::from(side == Side::Blue)]
                .choose_turn(&game)
                .expect("an open game");
            game.play_turn(&turn);
            played.push(RecordTurn::from(turn.clone()));
            // Noise before `{`, between digits and before `}`, after the line end.
            let mut bytes = noise.clone();
            bytes.push(b'{');
            for d in turn.digits() {
                bytes.push(*d);
                bytes.extend(&noise[..1]);
            }
            bytes.extend(b"}\r\n");
            for piece in bytes.chunks(chunk) {
                now += 1;
                r.handle_input(side, piece, now);
            }
        }
        prop_assert_eq!(r.end().map(|e| e.outcome), game.outcome());
        prop_assert_eq!(&r.record().turns, &played);
    }
}
