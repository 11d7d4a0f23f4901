//! The training program of the engine's evaluation (issue 17): self-play games, a logistic
//! model fitted to their results, a match of the new weights against the old ones, and the
//! weights written to `engine/src/soccer/search/weights.rs` with the command, seed and result.
//!
//! ```sh
//! cargo run --release -p engine --example train -- --games 3000 --rounds 2 --check 200 --write
//! ```
//!
//! Each round plays `--games` games of the engine against itself at `--level` (a node budget:
//! the same games for the same seed on any machine), with the weights of the round before (the
//! first round starts from `--from`: `in-use`, the weights the engine plays with, `handmade`, or a file of
//! `name weight` lines as this program prints them), over the
//! field sizes of `--sizes` in turn, each game opened by 0 to 3 random turns so the positions
//! vary. Positions where a turn starts are the samples (about 80 a game, drawn at random on
//! big fields): their features (`eval::features`) and whether the player to move went on to
//! win. A logistic regression (Newton's method, a small
//! L2 penalty) fits the weights; one game in five is held out to report the log-loss (against
//! the results). With `--search-share S` the target is a blend: S of the value a search at
//! `--search-level` gives the position (its proofs exact, its estimates by the round's
//! weights), 1 − S of the result — a search's value is far less noisy than a result decided
//! dozens of turns later.
//! `--check G` then plays G games per size of the new weights against the starting ones (or
//! `--against W`) at `--check-level` (default 4), colours and starters balanced, and prints the win rate with a 95 %
//! interval. `--write` replaces the weights file.

use engine::rng::SplitMix64;
use engine::soccer::field::Field;
use engine::soccer::game::Game;
use engine::soccer::search::Engine;
use engine::soccer::search::eval::{FEATURES, NAMES, Weights, features};
use engine::soccer::types::Side;

struct Options {
    games: usize,
    rounds: usize,
    level: u8,
    seed: u64,
    sizes: Vec<(u8, u8)>,
    from: Weights,
    /// What the check plays against (by default the starting weights).
    against: Option<Weights>,
    check: usize,
    check_level: u8,
    write: bool,
    l2: f64,
    /// The share of the search's value in the target (the rest is the game's result).
    search_share: f64,
    /// The level of the search that values each sample.
    search_level: u8,
}

fn parse() -> Result<Options, String> {
    let mut o = Options {
        games: 2000,
        rounds: 1,
        level: 2,
        seed: 1,
        sizes: vec![(8, 10), (10, 8), (6, 8), (12, 16)],
        from: Weights::in_use(),
        against: None,
        check: 0,
        check_level: 4,
        write: false,
        l2: 1e-3,
        search_share: 0.0,
        search_level: 3,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        let number = |name: &str, v: String| v.parse::<u64>().map_err(|e| format!("{name}: {e}"));
        match arg.as_str() {
            "--games" => o.games = number("--games", value("--games")?)? as usize,
            "--rounds" => o.rounds = number("--rounds", value("--rounds")?)? as usize,
            "--level" => o.level = number("--level", value("--level")?)?.min(6) as u8,
            "--seed" => o.seed = number("--seed", value("--seed")?)?,
            "--check" => o.check = number("--check", value("--check")?)? as usize,
            "--l2" => o.l2 = value("--l2")?.parse().map_err(|e| format!("--l2: {e}"))?,
            "--write" => o.write = true,
            "--search-share" => {
                o.search_share = value("--search-share")?
                    .parse::<f64>()
                    .map_err(|e| format!("--search-share: {e}"))?
                    .clamp(0.0, 1.0)
            }
            "--search-level" => {
                o.search_level = number("--search-level", value("--search-level")?)?.min(6) as u8
            }
            "--from" => o.from = weights(&value("--from")?)?,
            "--against" => o.against = Some(weights(&value("--against")?)?),
            "--check-level" => {
                o.check_level = number("--check-level", value("--check-level")?)?.min(6) as u8
            }
            "--sizes" => {
                o.sizes = value("--sizes")?
                    .split(',')
                    .map(|s| {
                        let (w, l) = s.split_once('x').ok_or(format!("size `{s}`: WxL"))?;
                        let w = w.parse().map_err(|e| format!("size `{s}`: {e}"))?;
                        let l = l.parse().map_err(|e| format!("size `{s}`: {e}"))?;
                        Field::new(w, l).map_err(|e| format!("size `{s}`: {e}"))?;
                        Ok((w, l))
                    })
                    .collect::<Result<_, String>>()?
            }
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    if o.games == 0 || o.sizes.is_empty() {
        return Err("--games and --sizes must not be empty".into());
    }
    Ok(o)
}

/// `in-use`, `handmade`, or a file of `name weight` lines (as this program prints them).
fn weights(name: &str) -> Result<Weights, String> {
    match name {
        "in-use" => return Ok(Weights::in_use()),
        "handmade" => return Ok(Weights::handmade()),
        _ => {}
    }
    let text = std::fs::read_to_string(name).map_err(|e| format!("{name}: {e}"))?;
    let mut w = [f32::NAN; FEATURES];
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let place = || format!("{name}:{}", n + 1);
        let mut words = line.split_whitespace();
        let (Some(key), Some(value), None) = (words.next(), words.next(), words.next()) else {
            return Err(format!("{}: expected `name weight`", place()));
        };
        let i = NAMES
            .iter()
            .position(|&k| k == key)
            .ok_or_else(|| format!("{}: no feature `{key}`", place()))?;
        w[i] = value.parse().map_err(|e| format!("{}: {e}", place()))?;
    }
    match w.iter().position(|v| v.is_nan()) {
        Some(i) => Err(format!("{name}: no weight for `{}`", NAMES[i])),
        None => Ok(Weights(w)),
    }
}

/// A position where a turn started, and whether its mover won.
struct Sample {
    x: [f32; FEATURES],
    won: bool,
    /// What the model is fitted to: the result, or a blend of it with a deeper search's value.
    target: f64,
}

/// Plays one game of `red` against `blue` from `game`; the winner.
fn play(mut game: Game, red: &mut Engine, blue: &mut Engine, mut seen: impl FnMut(&Game)) -> Side {
    loop {
        if let Some(o) = game.outcome() {
            return o.winner;
        }
        seen(&game);
        let engine = if game.to_move() == Side::Red {
            &mut *red
        } else {
            &mut *blue
        };
        let turn = engine
            .choose_turn(&game)
            .expect("a game not over has a turn");
        game.play_turn(&turn);
    }
}

/// A game opened by 0 to 3 random turns (which may end it: then it is drawn again).
fn opening(field: Field, starter: Side, rng: &mut SplitMix64) -> Game {
    loop {
        let mut game = Game::new(field, starter);
        let mut random = Engine::new(0, rng.next_u64());
        for _ in 0..rng.below(4) {
            if let Some(turn) = random.choose_turn(&game) {
                game.play_turn(&turn);
            }
        }
        if game.outcome().is_none() {
            return game;
        }
    }
}

fn self_play(o: &Options, weights: Weights, round: usize) -> (Vec<Sample>, Vec<Sample>) {
    let mut rng = SplitMix64::new(o.seed ^ (round as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let (mut train, mut held) = (Vec::new(), Vec::new());
    for g in 0..o.games {
        let (w, l) = o.sizes[g % o.sizes.len()];
        let field = Field::new(w, l).expect("checked sizes");
        let starter = if g % 2 == 0 { Side::Red } else { Side::Blue };
        let game = opening(field, starter, &mut rng);
        let mut engines = [rng.next_u64(), rng.next_u64()]
            .map(|seed| Engine::new(o.level, seed).with_weights(weights));
        let [red, blue] = &mut engines;
        let mut positions = Vec::new();
        let mut judge = Engine::new(o.search_level, rng.next_u64()).with_weights(weights);
        let share = o.search_share;
        // About 80 samples a game whatever the field's size, so long games on big fields do
        // not outweigh the rest (and are not all searched by the judge).
        let keep = (80.0 / (f64::from(w) * f64::from(l))).min(1.0);
        let mut pick = SplitMix64::new(rng.next_u64());
        let winner = play(game, red, blue, |game| {
            if (pick.next_u64() >> 11) as f64 / (1u64 << 53) as f64 >= keep {
                return;
            }
            let searched = if share > 0.0 {
                judge
                    .analyse(game)
                    .map_or(0.5, |a| a.score.win_probability())
            } else {
                0.5
            };
            positions.push((features(game), game.to_move(), searched));
        });
        // Every fifth game of each size is held out.
        let into = if (g / o.sizes.len()) % 5 == 4 {
            &mut held
        } else {
            &mut train
        };
        into.extend(positions.into_iter().map(|(x, mover, searched)| {
            let won = mover == winner;
            let result = if won { 1.0 } else { 0.0 };
            Sample {
                x,
                won,
                target: share * searched + (1.0 - share) * result,
            }
        }));
    }
    (train, held)
}

/// Mean log-loss of `weights` on `samples` against the games' results, in nats.
fn log_loss(weights: &[f64; FEATURES], samples: &[Sample]) -> f64 {
    cross_entropy(weights, samples, |s| if s.won { 1.0 } else { 0.0 })
}

/// Mean cross-entropy of the model's chance against `target` of each sample, in nats.
fn cross_entropy(w: &[f64; FEATURES], samples: &[Sample], target: impl Fn(&Sample) -> f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let z: f64 = w.iter().zip(&s.x).map(|(w, x)| w * f64::from(*x)).sum();
            // -t log σ(z) - (1-t) log σ(-z) = softplus(z) - t z, stable for large |z|.
            z.max(0.0) + (-z.abs()).exp().ln_1p() - target(s) * z
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// Logistic regression by Newton's method with an L2 penalty `l2` (not on the bias).
fn fit(samples: &[Sample], start: &Weights, l2: f64) -> [f64; FEATURES] {
    let mut w = start.0.map(f64::from);
    let n = samples.len().max(1) as f64;
    for _ in 0..25 {
        let mut grad = [0.0; FEATURES];
        let mut hess = [[0.0; FEATURES]; FEATURES];
        for s in samples {
            let x = s.x.map(f64::from);
            let z: f64 = w.iter().zip(&x).map(|(w, x)| w * x).sum();
            let p = 1.0 / (1.0 + (-z).exp());
            let y = s.target;
            for i in 0..FEATURES {
                grad[i] += (p - y) * x[i] / n;
                for j in 0..FEATURES {
                    hess[i][j] += p * (1.0 - p) * x[i] * x[j] / n;
                }
            }
        }
        for i in 1..FEATURES {
            grad[i] += l2 * w[i];
            hess[i][i] += l2;
        }
        for (i, row) in hess.iter_mut().enumerate() {
            row[i] += 1e-9;
        }
        let step = solve(hess, grad);
        // Newton's step, halved until the objective goes down (features of very different
        // scales, on fields from 6x8 to 30x40, can make the full step overshoot).
        let before = objective(&w, samples, l2);
        let mut scale = 1.0;
        let mut next = w;
        for _ in 0..30 {
            for i in 0..FEATURES {
                next[i] = w[i] - scale * step[i];
            }
            if objective(&next, samples, l2) <= before {
                break;
            }
            scale /= 2.0;
        }
        let size = (0..FEATURES)
            .map(|i| (next[i] - w[i]).abs())
            .fold(0.0, f64::max);
        w = next;
        if size < 1e-7 {
            break;
        }
    }
    w
}

/// What the fit minimises: the mean cross-entropy against the targets, plus the L2 penalty.
fn objective(w: &[f64; FEATURES], samples: &[Sample], l2: f64) -> f64 {
    cross_entropy(w, samples, |s| s.target) + l2 / 2.0 * w[1..].iter().map(|v| v * v).sum::<f64>()
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting.
fn solve(mut a: [[f64; FEATURES]; FEATURES], mut b: [f64; FEATURES]) -> [f64; FEATURES] {
    for c in 0..FEATURES {
        let p = (c..FEATURES)
            .max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))
            .expect("rows");
        a.swap(c, p);
        b.swap(c, p);
        if a[c][c].abs() < 1e-15 {
            continue;
        }
        let pivot = a[c];
        for r in c + 1..FEATURES {
            let f = a[r][c] / pivot[c];
            for (x, p) in a[r][c..].iter_mut().zip(&pivot[c..]) {
                *x -= f * p;
            }
            b[r] -= f * b[c];
        }
    }
    let mut x = [0.0; FEATURES];
    for c in (0..FEATURES).rev() {
        let s: f64 = (c + 1..FEATURES).map(|k| a[c][k] * x[k]).sum();
        x[c] = if a[c][c].abs() < 1e-15 {
            0.0
        } else {
            (b[c] - s) / a[c][c]
        };
    }
    x
}

/// Wins of `new` over `old` in `games` games on `field` at `level`, colours and starters
/// balanced (each pair of seeds is played with both colours and both starters).
fn check(field: Field, level: u8, new: Weights, old: Weights, games: usize, seed: u64) -> usize {
    let mut rng = SplitMix64::new(seed);
    let mut wins = 0;
    let mut pair = (0, 0);
    for g in 0..games {
        if g % 4 == 0 {
            pair = (rng.next_u64(), rng.next_u64());
        }
        let starter = if g % 2 == 0 { Side::Red } else { Side::Blue };
        let new_is_red = (g / 2) % 2 == 0;
        let mut a = Engine::new(level, pair.0).with_weights(new);
        let mut b = Engine::new(level, pair.1).with_weights(old);
        let game = Game::new(field, starter);
        let winner = if new_is_red {
            play(game, &mut a, &mut b, |_| {})
        } else {
            play(game, &mut b, &mut a, |_| {})
        };
        if (winner == Side::Red) == new_is_red {
            wins += 1;
        }
    }
    wins
}

/// A win rate and its 95 % Wilson interval, in per cent.
fn rate(wins: usize, games: usize) -> String {
    let n = games as f64;
    let p = wins as f64 / n;
    let z = 1.96f64;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    format!(
        "{wins}/{games} = {:.1} % (95 %: {:.1}–{:.1} %)",
        100.0 * p,
        100.0 * (centre - half),
        100.0 * (centre + half)
    )
}

fn main() {
    let o = match parse() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("train: {e}");
            std::process::exit(2);
        }
    };
    let command = format!(
        "cargo run --release -p engine --example train -- {}",
        std::env::args().skip(1).collect::<Vec<_>>().join(" ")
    );
    let start = o.from;
    let mut weights = start;
    let mut report = Vec::new();
    for round in 0..o.rounds {
        let (train, held) = self_play(&o, weights, round);
        let fitted = fit(&train, &weights, o.l2);
        let before = log_loss(&weights.0.map(f64::from), &held);
        let after = log_loss(&fitted, &held);
        let line = format!(
            "round {}: {} games at level {}, {} samples ({} held out); held-out log-loss {:.4} → {:.4} nats",
            round + 1,
            o.games,
            o.level,
            train.len(),
            held.len(),
            before,
            after
        );
        println!("{line}");
        report.push(line);
        weights = Weights(fitted.map(|w| w as f32));
    }
    for (name, w) in NAMES.iter().zip(weights.0) {
        println!("  {name:<22} {w:>9.4}");
    }
    if o.check > 0 {
        for &(w, l) in &o.sizes {
            let field = Field::new(w, l).expect("checked sizes");
            let against = o.against.unwrap_or(start);
            let wins = check(field, o.check_level, weights, against, o.check, o.seed);
            let line = format!(
                "check {w}x{l}: new weights vs {} at level {}: {}",
                if o.against.is_some() {
                    "the given ones"
                } else {
                    "the starting ones"
                },
                o.check_level,
                rate(wins, o.check)
            );
            println!("{line}");
            report.push(line);
        }
    }
    if o.write {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/soccer/search/weights.rs");
        let mut text = String::from(
            "//! Written by the training program (`engine/examples/train.rs`): the weights of the\n\
             //! evaluation in use, in `eval::NAMES`' order. Do not edit by hand; train again.\n//!\n",
        );
        text += &format!("//! Command: `{command}`\n");
        for line in &report {
            text += &format!("//! {line}\n");
        }
        text += "\n/// The weights in use.\n#[rustfmt::skip]\npub(super) const IN_USE: [f32; super::eval::FEATURES] = [\n";
        for (name, w) in NAMES.iter().zip(weights.0) {
            text += &format!("    {w:?}, // {name}\n");
        }
        text += "];\n";
        if let Err(e) = std::fs::write(path, text) {
            eprintln!("train: writing {path}: {e}");
            std::process::exit(1);
        }
        println!("wrote {path}");
    }
}
