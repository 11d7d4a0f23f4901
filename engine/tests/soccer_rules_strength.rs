//! The built-in engine against a random player: it must be clearly better (spec: a player that
//! always plays legal turns). The games are refereed (`testkit::soccer::play_match`). Prints the
//! tally.

use engine::soccer::field::Field;
use engine::soccer::referee::Settings;
use engine::soccer::search::Engine;
use engine::soccer::{BySide, Reason, Side};
use testkit::soccer::{Bot, BotPlayer, play_match};

/// Plays one refereed game; `engines[0]` is red. Returns the winner, the reason and the number
/// of turns played.
fn play(field: Field, starter: Side, [red, blue]: [Engine; 2]) -> (Side, Reason, usize) {
    let levels = [red.level(), blue.level()];
    let mut red = BotPlayer::new(Bot::Engine(red));
    let mut blue = BotPlayer::new(Bot::Engine(blue));
    let settings = Settings {
        width: field.width(),
        length: field.length(),
        ..Settings::default()
    };
    let m = play_match(settings, starter, BySide::new(&mut red, &mut blue));
    let outcome = m.end.outcome;
    assert!(
        !outcome.reason.is_fault() && outcome.reason != Reason::Timeout,
        "levels {levels:?}: the loser played a faulty turn: {}",
        m.record
    );
    (outcome.winner, outcome.reason, m.record.turns.len())
}

fn match_up(w: u8, l: u8, level: u8, games: u64) -> (u64, u64) {
    let field = Field::new(w, l).unwrap();
    let mut wins = 0;
    let mut turns = 0;
    for i in 0..games {
        let engine_side = if i % 2 == 0 { Side::Red } else { Side::Blue };
        let starter = if i % 4 < 2 { Side::Red } else { Side::Blue };
        let (strong, random) = (Engine::new(level, 1000 + i), Engine::new(0, 2000 + i));
        let engines = match engine_side {
            Side::Red => [strong, random],
            Side::Blue => [random, strong],
        };
        let (winner, _, n) = play(field, starter, engines);
        turns += n as u64;
        if winner == engine_side {
            wins += 1;
        }
    }
    (wins, turns)
}

#[test]
fn level_1_beats_random_on_8x10() {
    let games = 100;
    let (wins, turns) = match_up(8, 10, 1, games);
    println!("8x10 level 1 vs random: {wins}/{games} wins, {turns} turns in all");
    assert!(wins >= 90, "only {wins}/{games}");
}

#[test]
fn level_1_beats_random_on_other_shapes() {
    for (w, l) in [(4, 4), (6, 12), (16, 8)] {
        let games = 40;
        let (wins, _) = match_up(w, l, 1, games);
        println!("{w}x{l} level 1 vs random: {wins}/{games} wins");
        assert!(wins >= 34, "{w}x{l}: only {wins}/{games}");
    }
}

#[test]
fn level_2_beats_level_0_and_holds_its_own_against_level_1() {
    let field = Field::new(8, 10).unwrap();
    let games = 20;
    let mut wins = 0;
    for i in 0..games {
        let strong_red = i % 2 == 0;
        let (a, b) = (Engine::new(2, 10 + i), Engine::new(1, 20 + i));
        let engines = if strong_red { [a, b] } else { [b, a] };
        let starter = if i % 4 < 2 { Side::Red } else { Side::Blue };
        let (winner, _, _) = play(field, starter, engines);
        if (winner == Side::Red) == strong_red {
            wins += 1;
        }
    }
    println!("8x10 level 2 vs level 1: {wins}/{games} wins");
    assert!(
        wins >= games / 2,
        "level 2 won only {wins}/{games} against level 1"
    );
}

#[test]
fn whole_games_on_degenerate_and_huge_fields_stay_legal() {
    for (w, l) in [(2, 2), (254, 2), (2, 254), (254, 254)] {
        let field = Field::new(w, l).unwrap();
        // Two equal engines on 254x254 push the ball to and fro for thousands of turns, so
        // the engine-against-engine game is left to the small and thin fields.
        let pairings: &[[u8; 2]] = if w == 254 && l == 254 {
            &[[1, 0], [0, 2]]
        } else {
            &[[1, 0], [0, 2], [2, 1]]
        };
        for (i, &levels) in pairings.iter().enumerate() {
            let engines = [Engine::new(levels[0], i as u64), Engine::new(levels[1], 9)];
            let (winner, reason, turns) = play(field, Side::Red, engines);
            println!("{w}x{l} levels {levels:?}: {winner} {reason} after {turns} turns");
        }
    }
}
