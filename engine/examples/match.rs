//! Engine-against-engine matches, to measure strength (issue 17): win rates with a 95 %
//! interval, colours and starters balanced, every turn checked against the rules.
//!
//! ```sh
//! cargo run --release -p engine --example match -- new:400 legacy:400 --sizes 8x10,6x8 --games 200
//! cargo run --release -p engine --example match -- --ladder --sizes 8x10 --games 100
//! ```
//!
//! Players: `new:MS` (the engine, timed), `new@L` (the engine at deterministic level L),
//! `legacy:MS` (the engine as it was, stopped by the same clock), `legacy@L` (the old engine's
//! level L, a node budget: `legacy@6` is the old `engine:6`). A game is played directly on a
//! [`Game`] (no wire): a turn that is not legal, or that takes longer than `--fault-ms`
//! (default 1000), loses the game and is counted as a fault.

use std::time::Instant;

use engine::soccer::field::Field;
use engine::soccer::game::Game;
use engine::soccer::protocol::Turn;
use engine::soccer::search::{Engine, legacy};
use engine::soccer::{Reason, Side};

#[derive(Clone, Debug)]
enum Spec {
    New { millis: Option<u32>, level: u8 },
    Legacy { millis: Option<u32>, level: u8 },
}

impl Spec {
    fn parse(s: &str) -> Result<Spec, String> {
        let bad = || format!("`{s}`: expected new:MS, new@LEVEL, legacy:MS or legacy@LEVEL");
        let (kind, rest) = s.split_at(s.find([':', '@']).ok_or_else(bad)?);
        let n: u32 = rest[1..].parse().map_err(|_| bad())?;
        let timed = rest.starts_with(':');
        let (millis, level) = if timed {
            (Some(n), 6)
        } else {
            (None, n.min(255) as u8)
        };
        match kind {
            "new" => Ok(Spec::New { millis, level }),
            "legacy" => Ok(Spec::Legacy { millis, level }),
            _ => Err(bad()),
        }
    }

    fn name(&self) -> String {
        match self {
            Spec::New {
                millis: Some(ms), ..
            } => format!("new:{ms}"),
            Spec::New { level, .. } => format!("new@{level}"),
            Spec::Legacy {
                millis: Some(ms), ..
            } => format!("legacy:{ms}"),
            Spec::Legacy { level, .. } => format!("legacy@{level}"),
        }
    }

    fn player(&self, seed: u64) -> Player {
        match *self {
            Spec::New {
                millis: Some(ms), ..
            } => Player::New(Engine::timed(ms, seed)),
            Spec::New { level, .. } => Player::New(Engine::new(level, seed)),
            Spec::Legacy { millis, level } => {
                Player::Legacy(legacy::Engine::new(level, seed), millis)
            }
        }
    }
}

enum Player {
    New(Engine),
    Legacy(legacy::Engine, Option<u32>),
}

impl Player {
    fn turn(&mut self, game: &Game, clock: &dyn Fn() -> f64) -> Option<Turn> {
        match self {
            Player::New(e) => e.analyse_with_clock(game, clock).map(|a| a.turn),
            Player::Legacy(e, None) => e.choose_turn(game),
            Player::Legacy(e, Some(ms)) => {
                let end = clock() + f64::from(*ms);
                e.analyse_until(game, Some((clock, end))).map(|a| a.turn)
            }
        }
    }
}

/// One game; `a` is red when `a_red`. Returns (a won, a fault was ruled, longest turn ms).
fn game(
    field: Field,
    a: &Spec,
    b: &Spec,
    a_red: bool,
    starter: Side,
    seed: u64,
    fault_ms: f64,
) -> (bool, bool, f64) {
    let origin = Instant::now();
    let clock = move || origin.elapsed().as_secs_f64() * 1000.0;
    let mut players = [a.player(seed), b.player(seed.wrapping_add(1))];
    let a_side = if a_red { Side::Red } else { Side::Blue };
    let mut g = Game::new(field, starter);
    let mut longest: f64 = 0.0;
    loop {
        let mover = g.to_move();
        let who = usize::from(mover != a_side);
        let t0 = clock();
        let turn = players[who].turn(&g, &clock);
        let took = clock() - t0;
        longest = longest.max(took);
        let Some(turn) = turn else {
            // No turn for an open game would be an engine bug: a fault.
            return (who == 1, true, longest);
        };
        if took > fault_ms {
            return (who == 1, true, longest);
        }
        if let Some(o) = g.play_turn(&turn) {
            let fault = o.reason.is_fault() || o.reason == Reason::Timeout;
            return (o.winner == a_side, fault, longest);
        }
    }
}

/// The Wilson 95 % interval of `wins` out of `n`.
fn wilson(wins: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (p, n) = (wins as f64 / n as f64, n as f64);
    let z = 1.96f64;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * ((p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt()) / (1.0 + z * z / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

fn elo(p: f64) -> f64 {
    let p = p.clamp(0.001, 0.999);
    -400.0 * (1.0 / p - 1.0).log10()
}

struct Tally {
    wins: u64,
    games: u64,
    faults: u64,
    longest: f64,
}

fn series(field: Field, a: &Spec, b: &Spec, games: u64, seed: u64, fault_ms: f64) -> Tally {
    let mut t = Tally {
        wins: 0,
        games: 0,
        faults: 0,
        longest: 0.0,
    };
    for i in 0..games {
        let a_red = i % 2 == 0;
        let starter = if (i / 2) % 2 == 0 {
            Side::Red
        } else {
            Side::Blue
        };
        let (won, fault, longest) = game(
            field,
            a,
            b,
            a_red,
            starter,
            seed.wrapping_add(i * 7919),
            fault_ms,
        );
        t.games += 1;
        t.wins += u64::from(won);
        t.faults += u64::from(fault);
        t.longest = t.longest.max(longest);
    }
    t
}

fn report(field: Field, a: &Spec, b: &Spec, t: &Tally) {
    let (lo, hi) = wilson(t.wins, t.games);
    println!(
        "{:<8} {:>12} vs {:<12} {:>4}/{:<4} = {:>5.1} %  95 % [{:>5.1}, {:>5.1}]  Elo {:>+5.0}  faults {}  longest turn {:.0} ms",
        field.to_string(),
        a.name(),
        b.name(),
        t.wins,
        t.games,
        100.0 * t.wins as f64 / t.games.max(1) as f64,
        100.0 * lo,
        100.0 * hi,
        elo(t.wins as f64 / t.games.max(1) as f64),
        t.faults,
        t.longest
    );
}

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let mut specs = Vec::new();
    let mut sizes = vec![Field::new(8, 10).unwrap()];
    let mut games = 20u64;
    let mut seed = 1u64;
    let mut fault_ms = 1000.0;
    let mut ladder = false;
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--games" => {
                games = value("--games")?
                    .parse()
                    .map_err(|e| format!("--games: {e}"))?
            }
            "--seed" => {
                seed = value("--seed")?
                    .parse()
                    .map_err(|e| format!("--seed: {e}"))?
            }
            "--fault-ms" => {
                fault_ms = value("--fault-ms")?
                    .parse()
                    .map_err(|e| format!("--fault-ms: {e}"))?
            }
            "--ladder" => ladder = true,
            "--sizes" => {
                sizes = value("--sizes")?
                    .split(',')
                    .map(|s| {
                        let (w, l) = s.split_once('x').ok_or(format!("`{s}`: a size is WxL"))?;
                        let w = w.parse().map_err(|_| format!("`{s}`: a size is WxL"))?;
                        let l = l.parse().map_err(|_| format!("`{s}`: a size is WxL"))?;
                        Field::from_sizes(w, l).map_err(|e| format!("`{s}`: {e}"))
                    })
                    .collect::<Result<_, _>>()?
            }
            _ => specs.push(Spec::parse(&arg)?),
        }
    }
    println!("{games} games per line, colours and starters balanced, seed {seed}");
    if ladder {
        // Each level against the one below, deterministic budgets; Elo summed up the ladder.
        for field in &sizes {
            let mut total = 0.0;
            for level in 2..=engine::soccer::search::MAX_LEVEL {
                let a = Spec::New {
                    millis: None,
                    level,
                };
                let b = Spec::New {
                    millis: None,
                    level: level - 1,
                };
                let t = series(*field, &a, &b, games, seed, f64::INFINITY);
                report(*field, &a, &b, &t);
                total += elo(t.wins as f64 / t.games.max(1) as f64);
                println!("         level {level}: {total:+.0} Elo above level 1");
            }
        }
        return Ok(());
    }
    let [a, b] = <[Spec; 2]>::try_from(specs).map_err(|_| "name two players".to_string())?;
    for field in sizes {
        let t = series(field, &a, &b, games, seed, fault_ms);
        report(field, &a, &b, &t);
    }
    Ok(())
}
