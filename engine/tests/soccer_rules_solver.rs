//! A tiny exhaustive solver, written independently of the engine's search (plain memoised
//! minimax over `Game::legal_turns` and `Game::play_turn`), must agree with the engine searched
//! to full depth on the smallest fields: on who wins from a position, and on the engine's
//! chosen turn being a winning one whenever a win exists.

use std::collections::HashMap;

use engine::rng::SplitMix64;
use engine::soccer::field::Field;
use engine::soccer::game::Game;
use engine::soccer::protocol::Turn;
use engine::soccer::search::{Engine, Score};
use engine::soccer::{Dir, Point, Side};

/// A position up to the order in which its lines were drawn: the ball, the player to move and
/// the set of drawn steps as a bitset over (lower end point, direction).
type Key = (Point, Side, [u64; 8]);

fn key(game: &Game) -> Key {
    let field = game.field();
    let mut bits = [0u64; 8];
    for (a, b) in game.step_segments() {
        let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
        let dir = Dir::ALL
            .into_iter()
            .find(|&d| lo.step(d) == hi)
            .expect("steps join neighbours");
        let code = field.index(lo).expect("on the grid") * 8 + dir as usize;
        bits[code / 64] |= 1 << (code % 64);
    }
    (game.ball(), game.to_move(), bits)
}

#[derive(Default)]
struct Solver {
    memo: HashMap<Key, bool>,
}

impl Solver {
    /// Whether the player to move wins with perfect play (there is no draw). Each turn is
    /// played on `game` and taken back step by step, which also exercises undo.
    fn wins(&mut self, game: &mut Game) -> bool {
        let k = key(game);
        if let Some(&v) = self.memo.get(&k) {
            return v;
        }
        let mover = game.to_move();
        // Turns that end the game first (a win there needs no recursion), then the others.
        let turns: Vec<Turn> = game.legal_turns().collect();
        let mut open = Vec::new();
        let mut win = false;
        for turn in turns {
            match game.play_turn(&turn) {
                Some(outcome) => win = outcome.winner == mover,
                None => open.push(turn.clone()),
            }
            for _ in 0..turn.digits().len() {
                assert!(game.undo_step());
            }
            if win {
                break;
            }
        }
        if !win {
            for turn in open {
                assert_eq!(game.play_turn(&turn), None);
                win = !self.wins(game);
                for _ in 0..turn.digits().len() {
                    assert!(game.undo_step());
                }
                if win {
                    break;
                }
            }
        }
        self.memo.insert(k, win);
        win
    }

    /// The turns that win for the player to move.
    fn winning_turns(&mut self, game: &Game) -> Vec<Turn> {
        let mover = game.to_move();
        game.legal_turns()
            .filter(|turn| {
                let mut next = game.clone();
                match next.play_turn(turn) {
                    Some(outcome) => outcome.winner == mover,
                    None => !self.wins(&mut next),
                }
            })
            .collect()
    }
}

/// Positions to compare: both kick-offs, and a few reached by random turns.
fn positions(w: u8, l: u8) -> Vec<Game> {
    let field = Field::new(w, l).unwrap();
    let mut out = vec![Game::new(field, Side::Red), Game::new(field, Side::Blue)];
    let mut rng = SplitMix64::new(u64::from(w) * 1000 + u64::from(l));
    for i in 0..40 {
        let mut g = Game::new(field, if i % 2 == 0 { Side::Red } else { Side::Blue });
        for _ in 0..=(i % 5) {
            let turns: Vec<Turn> = g.legal_turns().collect();
            let turn = &turns[rng.below(turns.len() as u64) as usize];
            let mut next = g.clone();
            if next.play_turn(turn).is_some() {
                break;
            }
            g = next;
        }
        out.push(g);
    }
    out
}

fn agree_on(w: u8, l: u8) {
    let mut solver = Solver::default();
    let mut wins = 0;
    let mut losses = 0;
    for (i, game) in positions(w, l).into_iter().enumerate() {
        let solved = solver.wins(&mut game.clone());
        let analysis = Engine::with_budget(u64::MAX, 5)
            .analyse(&game)
            .expect("an open game");
        let engine_wins = match analysis.score {
            Score::Win(_) => true,
            Score::Loss(_) => false,
            Score::Eval(_) => {
                // Only a forced single turn skips the search; judge it by playing it.
                let mut next = game.clone();
                match next.play_turn(&analysis.turn) {
                    Some(o) => o.winner == game.to_move(),
                    None => !solver.wins(&mut next),
                }
            }
        };
        assert_eq!(engine_wins, solved, "{w}x{l} position {i}: {:?}", analysis);
        if solved {
            wins += 1;
            let winning = solver.winning_turns(&game);
            assert!(
                winning.contains(&analysis.turn),
                "{w}x{l} position {i}: engine chose {:?}, winning turns {:?}",
                analysis.turn,
                winning
            );
        } else {
            losses += 1;
        }
    }
    println!(
        "{w}x{l}: engine and solver agree on {} positions ({wins} won, {losses} lost), {} solved positions",
        wins + losses,
        solver.memo.len()
    );
}

#[test]
fn agree_on_2x2() {
    agree_on(2, 2);
}

#[test]
fn agree_on_4x2() {
    agree_on(4, 2);
}

#[test]
fn agree_on_2x4() {
    agree_on(2, 4);
}

#[test]
fn agree_on_4x4() {
    agree_on(4, 4);
}
