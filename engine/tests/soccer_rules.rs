//! Properties of the Paper Soccer rules: enumerated turns replay cleanly, undo restores the
//! position exactly, every way a game can end is reachable, and the record parser survives any
//! input and round-trips.

#![cfg(not(target_arch = "wasm32"))]

use std::collections::HashSet;

use engine::rng::SplitMix64;
use engine::soccer::field::Field;
use engine::soccer::game::{Game, StepEffect};
use engine::soccer::protocol::Turn;
use engine::soccer::record::{Record, RecordErrorKind, RecordTurn};
use engine::soccer::turns::count_turns;
use engine::soccer::{Dir, Outcome, Reason, Side};
use proptest::prelude::*;

/// A field from two small indices (2..=16 squares each way).
fn field(w: u8, l: u8) -> Field {
    Field::new(2 + 2 * (w % 8), 2 + 2 * (l % 8)).unwrap()
}

/// Plays random legal turns (chosen among the first 200 listed) from the kick-off, up to
/// `turns` of them or the end of the game, and returns the positions met on the way.
fn random_game(field: Field, seed: u64, turns: usize) -> Vec<Game> {
    let mut rng = SplitMix64::new(seed);
    let starter = if rng.coin() { Side::Red } else { Side::Blue };
    let mut game = Game::new(field, starter);
    let mut seen = vec![game.clone()];
    for _ in 0..turns {
        let n = count_turns(&game, 200);
        if n == 0 {
            break;
        }
        let turn = game.legal_turns().nth(rng.below(n) as usize).unwrap();
        let out = game.play_turn(&turn);
        seen.push(game.clone());
        if out.is_some() {
            break;
        }
    }
    seen
}

fn is_accepted(out: Option<Outcome>) -> bool {
    out.is_none_or(|o| !o.reason.is_fault())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn enumerated_turns_replay_and_undo_restores(w in 0u8..8, l in 0u8..8, seed: u64, n in 0usize..30) {
        let positions = random_game(field(w, l), seed, n);
        let game = positions.last().unwrap();
        let turns: Vec<Turn> = game.legal_turns().take(500).collect();
        prop_assert!(turns.windows(2).all(|p| p[0] < p[1]), "not ascending");
        for turn in &turns {
            let mut g = game.clone();
            let out = g.play_turn(turn);
            prop_assert!(is_accepted(out), "{:?} gave {:?}", turn, out);
            // A listed turn stops exactly where the turn stops: its last step ends it.
            let mut h = game.clone();
            for &b in &turn.digits()[..turn.digits().len() - 1] {
                prop_assert_eq!(h.step(Dir::from_digit(b).unwrap()), Ok(StepEffect::Bounce));
            }
            for _ in 0..turn.digits().len() {
                prop_assert!(g.undo_step());
            }
            prop_assert_eq!(&g, game);
        }
        if turns.len() < 500 {
            prop_assert_eq!(count_turns(game, u64::MAX), turns.len() as u64);
        }
        prop_assert_eq!(turns.is_empty(), game.outcome().is_some());
    }

    #[test]
    fn any_message_is_judged_and_undone(w in 0u8..8, l in 0u8..8, seed: u64, n in 0usize..20,
                                        msg in proptest::collection::vec(prop_oneof![8 => b'0'..=b'7', 1 => any::<u8>()], 0..40)) {
        let positions = random_game(field(w, l), seed, n);
        let game = positions.last().unwrap().clone();
        let mut g = game.clone();
        let out = g.play_message(&msg);
        if game.outcome().is_some() {
            prop_assert_eq!(out, game.outcome());
            prop_assert_eq!(&g, &game);
        } else if let Some(o) = out {
            prop_assert_eq!(g.turn_number(), game.turn_number() + 1);
            prop_assert_eq!(g.to_move(), game.to_move());
            let mover = game.to_move();
            let expected_winner = match o.reason {
                Reason::Goal => mover,
                _ => mover.opponent(),
            };
            prop_assert_eq!(o.winner, expected_winner);
        } else {
            prop_assert_eq!(g.to_move(), game.to_move().opponent());
        }
        while g.history_len() > game.history_len() {
            prop_assert!(g.undo_step());
        }
        prop_assert_eq!(&g, &game);
    }

    #[test]
    fn records_of_random_games_round_trip_and_replay(w in 0u8..8, l in 0u8..8, seed: u64, n in 0usize..40) {
        let positions = random_game(field(w, l), seed, n);
        let game = positions.last().unwrap();
        let record = Record {
            width: game.field().width(),
            length: game.field().length(),
            starter: game.starter(),
            turns: game.turns().into_iter().map(RecordTurn::from).collect(),
            result: game.outcome(),
        };
        let text = record.to_string();
        prop_assert_eq!(Record::parse(&text), Ok(record.clone()));
        let replayed = record.replay().unwrap();
        prop_assert_eq!(replayed.ball(), game.ball());
        prop_assert_eq!(replayed.outcome(), game.outcome());
        prop_assert_eq!(replayed.drawn_segments(), game.drawn_segments());
    }

    #[test]
    fn the_record_parser_never_panics_on_bytes(s in "\\PC*") {
        let _ = Record::parse(&s);
    }

    #[test]
    fn the_record_parser_never_panics_near_the_grammar(s in "[0-9x]{0,4}( (red|blue|r|))?(:( )?)?[0-9/{}]{0,12}( ?# ?(red|blue|x)? ?(goal|stuck|own_goal|after_end|draw)?)?\r?\n?") {
        if let Ok(record) = Record::parse(&s) {
            // Whatever parses writes back canonically and parses to the same record.
            prop_assert_eq!(Record::parse(&record.to_string()), Ok(record.clone()));
            let _ = record.replay();
        }
    }

    #[test]
    fn a_bad_digit_is_reported_at_its_column_and_turn(turns in proptest::collection::vec("[0-7]{1,6}", 1..6),
                                                     pick: prop::sample::Index, at: prop::sample::Index) {
        let prefix = "8x10 blue: ";
        let line = format!("{prefix}{}", turns.join("/"));
        let t = pick.index(turns.len());
        let k = at.index(turns[t].len());
        let pos = prefix.len() + turns[..t].iter().map(|s| s.len() + 1).sum::<usize>() + k;
        let mut bad = line.into_bytes();
        bad[pos] = b'9';
        let bad = String::from_utf8(bad).unwrap();
        let err = Record::parse(&bad).unwrap_err();
        prop_assert_eq!(err.column, pos + 1);
        prop_assert_eq!(err.kind, RecordErrorKind::NotADigit { turn: t + 1, found: '9' });
    }

    #[test]
    fn written_records_parse_back(w in 1u8..=127, l in 1u8..=127, red: bool,
                                  turns in proptest::collection::vec("[0-7]{0,6}", 0..6),
                                  result in proptest::option::of((any::<bool>(), 0usize..8))) {
        let reasons = [Reason::Goal, Reason::OwnGoal, Reason::Stuck, Reason::IllegalStep,
                       Reason::IncompleteTurn, Reason::AfterEnd, Reason::Timeout, Reason::Disconnect];
        let record = Record {
            width: 2 * w,
            length: 2 * l,
            starter: if red { Side::Red } else { Side::Blue },
            turns: turns.iter().map(|t| RecordTurn::new(t.as_bytes())).collect(),
            result: result.map(|(r, i)| Outcome { winner: if r { Side::Red } else { Side::Blue }, reason: reasons[i] }),
        };
        prop_assert_eq!(Record::parse(&record.to_string()), Ok(record));
    }
}

/// Every way a game can end is reached by random messages on random positions.
#[test]
fn every_end_is_reached() {
    let mut rng = SplitMix64::new(99);
    let mut seen = HashSet::new();
    for i in 0..3000u64 {
        let f = field((i % 3) as u8, (i / 3 % 3) as u8);
        let positions = random_game(f, i, rng.below(12) as usize);
        let mut game = positions.last().unwrap().clone();
        if game.outcome().is_some() {
            seen.insert(game.outcome().unwrap().reason);
            continue;
        }
        let len = rng.below(6) as usize;
        let msg: Vec<u8> = (0..len).map(|_| b'0' + rng.below(8) as u8).collect();
        if let Some(o) = game.play_message(&msg) {
            seen.insert(o.reason);
        }
    }
    // Timeouts and disconnects happen on the wire, not in a game's moves.
    for reason in Reason::ALL.into_iter().filter(|r| r.shown_by_moves()) {
        assert!(seen.contains(&reason), "{reason} never happened: {seen:?}");
    }
}

/// Degenerate and huge fields: enumeration streams without blowing up.
#[test]
fn huge_turn_counts_stream() {
    // 254x2: every point is a bounce point except the two mouth centres, so turns wind far.
    let game = Game::new(Field::new(254, 2).unwrap(), Side::Red);
    let first: Vec<Turn> = game.legal_turns().take(2000).collect();
    assert_eq!(first.len(), 2000);
    assert!(first.windows(2).all(|p| p[0] < p[1]));
    assert_eq!(count_turns(&game, 100_000), 100_000);
    let game = Game::new(Field::new(254, 254).unwrap(), Side::Blue);
    assert_eq!(count_turns(&game, u64::MAX), 6);
    let game = Game::new(Field::new(2, 254).unwrap(), Side::Blue);
    assert!(
        game.legal_turns()
            .all(|t| is_accepted(game.clone().play_turn(&t)))
    );
}
