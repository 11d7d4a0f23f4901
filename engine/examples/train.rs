//! The training program of the engine's evaluation (issue 17): self-play games, a logistic
//! model or a network over the lines around the ball fitted to them, a match of the new
//! evaluation against the old one, and the result written to
//! `engine/src/soccer/search/weights.rs` with the command, seed and result.
//!
//! ```sh
//! cargo run --release -p engine --example train -- --games 3000 --rounds 2 --check 200 --write
//! cargo run --release -p engine --example train -- --net --games 3000 --threads 2 --check 100
//! ```
//!
//! With `--net` the logistic weights stay as they start and a network (`search::net`) is fitted on
//! top of them (its output starts at zero, so training starts from the evaluation in use), by Adam
//! over `--epochs` passes, each sample also seen mirrored left to right. `--save FILE` writes the
//! network's parameters (one a line) and `--net-from FILE` starts from such a file (`in-use`: the
//! network the engine plays with). `--threads N` plays the games on N threads (each game has its
//! own seed: the samples are the same whatever N).
//!
//! Each round plays `--games` games of the engine against itself at `--steps` nodes a turn (default
//! 5,000: the same games for the same seed on any machine), with the weights of the round before
//! (the first round starts from `--from`: `in-use`, the weights the engine plays with, `handmade`,
//! or a file of `name weight` lines as this program prints them), over the field sizes of `--sizes`
//! in turn, each game opened by 0 to 3 random turns so the positions vary. Positions where a turn
//! starts are the samples (about 80 a game, drawn at random on big fields): their features
//! (`eval::features`) and whether the player to move went on to win. A logistic regression
//! (Newton's method, a small L2 penalty) fits the weights; one game in five is held out to report
//! the log-loss (against the results). With `--search-share S` the target is a blend: S of the
//! value a search at `--search-steps` (default 30,000) gives the position (its proofs exact, its
//! estimates by the round's weights), 1 − S of the result — a search's value is far less noisy than
//! a result decided dozens of turns later. `--check G` then plays G games per size of the new
//! weights against the starting ones (or `--against W`) at `--check-steps` a turn (default
//! 200,000), colours and starters balanced, and prints the win rate with a 95 % interval. `--write`
//! replaces the weights file.

use engine::rng::SplitMix64;
use engine::soccer::field::Field;
use engine::soccer::game::Game;
use std::sync::Arc;

use engine::soccer::search::Engine;
use engine::soccer::search::eval::{FEATURES, Model, NAMES, Weights, features};
use engine::soccer::search::net::{self, HIDDEN, Net, PARAMS, PATCH_INPUTS, POINTS};
use engine::soccer::types::Side;

struct Options {
    games: usize,
    rounds: usize,
    /// The node budget of the self-play games' engines.
    steps: u64,
    seed: u64,
    sizes: Vec<(u8, u8)>,
    from: Weights,
    /// What the check plays against (by default the starting weights).
    against: Option<Weights>,
    check: usize,
    /// The node budget of both engines in the check's games.
    check_steps: u64,
    write: bool,
    l2: f64,
    /// The share of the search's value in the target (the rest is the game's result).
    search_share: f64,
    /// The node budget of the search that values each sample.
    search_steps: u64,
    /// Fit a network on top of the logistic weights instead of the weights.
    net: bool,
    net_from: Option<Arc<Net>>,
    save: Option<String>,
    epochs: usize,
    rate: f64,
    threads: usize,
}

fn parse() -> Result<Options, String> {
    let mut o = Options {
        games: 2000,
        rounds: 1,
        steps: 5_000,
        seed: 1,
        sizes: vec![(8, 10), (10, 8), (6, 8), (12, 16)],
        from: Weights::in_use(),
        against: None,
        check: 0,
        check_steps: 200_000,
        write: false,
        l2: 1e-3,
        search_share: 0.0,
        search_steps: 30_000,
        net: false,
        net_from: None,
        save: None,
        epochs: 30,
        rate: 2e-3,
        threads: 1,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        let number = |name: &str, v: String| v.parse::<u64>().map_err(|e| format!("{name}: {e}"));
        match arg.as_str() {
            "--games" => o.games = number("--games", value("--games")?)? as usize,
            "--rounds" => o.rounds = number("--rounds", value("--rounds")?)? as usize,
            "--steps" => o.steps = number("--steps", value("--steps")?)?,
            "--seed" => o.seed = number("--seed", value("--seed")?)?,
            "--check" => o.check = number("--check", value("--check")?)? as usize,
            "--l2" => o.l2 = value("--l2")?.parse().map_err(|e| format!("--l2: {e}"))?,
            "--write" => o.write = true,
            "--net" => o.net = true,
            "--net-from" => o.net_from = Some(Arc::new(load_net(&value("--net-from")?)?)),
            "--save" => o.save = Some(value("--save")?),
            "--epochs" => o.epochs = number("--epochs", value("--epochs")?)? as usize,
            "--threads" => o.threads = number("--threads", value("--threads")?)?.max(1) as usize,
            "--rate" => {
                o.rate = value("--rate")?
                    .parse()
                    .map_err(|e| format!("--rate: {e}"))?
            }
            "--search-share" => {
                o.search_share = value("--search-share")?
                    .parse::<f64>()
                    .map_err(|e| format!("--search-share: {e}"))?
                    .clamp(0.0, 1.0)
            }
            "--search-steps" => {
                o.search_steps = number("--search-steps", value("--search-steps")?)?
            }
            "--from" => o.from = weights(&value("--from")?)?,
            "--against" => o.against = Some(weights(&value("--against")?)?),
            "--check-steps" => o.check_steps = number("--check-steps", value("--check-steps")?)?,
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
    if o.net_from.is_some() && !o.net {
        return Err("--net-from needs --net (the logistic fit would ignore the network)".into());
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

/// A network from a file as `--save` writes it.
fn load_net(path: &str) -> Result<Net, String> {
    if path == "in-use" {
        return Model::in_use()
            .net
            .map(|net| (*net).clone())
            .ok_or_else(|| "in-use: the engine plays without a network".to_owned());
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    Net::from_text(&text).map_err(|e| format!("{path}: {e}"))
}

/// A position where a turn started, and whether its mover won.
#[derive(Clone)]
struct Sample {
    x: [f32; FEATURES],
    patch: [u8; POINTS],
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

/// Plays the round's games (on `--threads` threads, each game seeded by its number) and
/// returns the training samples and the held-out ones.
fn self_play(o: &Options, model: &Model, round: usize) -> (Vec<Sample>, Vec<Sample>) {
    let round_seed = o.seed ^ (round as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut games: Vec<(usize, Vec<Sample>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..o.threads)
            .map(|t| {
                scope.spawn(move || {
                    (t..o.games)
                        .step_by(o.threads)
                        .map(|g| (g, one_game(o, model, round_seed, g)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a self-play thread"))
            .collect()
    });
    games.sort_by_key(|(g, _)| *g);
    let (mut train, mut held) = (Vec::new(), Vec::new());
    for (g, samples) in games {
        // Every fifth game of each size is held out.
        if (g / o.sizes.len()) % 5 == 4 {
            held.extend(samples);
        } else {
            train.extend(samples);
        }
    }
    (train, held)
}

/// Game `g` of a round: its samples.
fn one_game(o: &Options, model: &Model, round_seed: u64, g: usize) -> Vec<Sample> {
    let mut rng = SplitMix64::new(round_seed ^ (g as u64).wrapping_mul(0xD1B5_4A32_D192_ED03));
    let (w, l) = o.sizes[g % o.sizes.len()];
    let field = Field::new(w, l).expect("checked sizes");
    let starter = if g.is_multiple_of(2) {
        Side::Red
    } else {
        Side::Blue
    };
    let game = opening(field, starter, &mut rng);
    let mut engines = [rng.next_u64(), rng.next_u64()]
        .map(|seed| Engine::with_budget(o.steps, seed).with_model(model.clone()));
    let [red, blue] = &mut engines;
    let mut positions = Vec::new();
    let mut judge = Engine::with_budget(o.search_steps, rng.next_u64()).with_model(model.clone());
    let share = o.search_share;
    // About 80 samples a game whatever the field's size, so long games on big fields do not
    // outweigh the rest (and are not all searched by the judge).
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
        positions.push((features(game), net::patch(game), game.to_move(), searched));
    });
    positions
        .into_iter()
        .map(|(x, patch, mover, searched)| {
            let won = mover == winner;
            let result = if won { 1.0 } else { 0.0 };
            Sample {
                x,
                patch,
                won,
                target: share * searched + (1.0 - share) * result,
            }
        })
        .collect()
}

/// Mean cross-entropy of the model's chance against `target` of each sample, in nats.
fn cross_entropy(w: &[f64; FEATURES], samples: &[Sample], target: impl Fn(&Sample) -> f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let z: f64 = w.iter().zip(&s.x).map(|(w, x)| w * f64::from(*x)).sum();
            softplus_loss(z, target(s))
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

/// Wins of `new` over `old` in `games` games on `field` at `steps` a turn, colours and starters
/// balanced (each pair of seeds is played with both colours and both starters), on `threads`
/// threads.
fn check(
    field: Field,
    steps: u64,
    (new, old): (&Model, &Model),
    games: usize,
    seed: u64,
    threads: usize,
) -> usize {
    let one = |g: usize| {
        let mut rng = SplitMix64::new(seed ^ ((g / 4) as u64).wrapping_mul(0xA24B_AED4_963E_E407));
        let pair = (rng.next_u64(), rng.next_u64());
        let starter = if g.is_multiple_of(2) {
            Side::Red
        } else {
            Side::Blue
        };
        let new_is_red = (g / 2).is_multiple_of(2);
        let mut a = Engine::with_budget(steps, pair.0).with_model(new.clone());
        let mut b = Engine::with_budget(steps, pair.1).with_model(old.clone());
        let game = Game::new(field, starter);
        let winner = if new_is_red {
            play(game, &mut a, &mut b, |_| {})
        } else {
            play(game, &mut b, &mut a, |_| {})
        };
        usize::from((winner == Side::Red) == new_is_red)
    };
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| scope.spawn(move || (t..games).step_by(threads).map(one).sum::<usize>()))
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("a check thread"))
            .sum()
    })
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

/// The model's logit for a sample.
fn model_logit(model: &Model, s: &Sample) -> f32 {
    let linear = model.weights.logit(&s.x);
    match &model.net {
        Some(net) => linear + net.logit(&s.patch, &s.x),
        None => linear,
    }
}

/// Mean cross-entropy of `model` on `samples`, against the results (`results`) or the targets.
fn model_loss(model: &Model, samples: &[Sample], results: bool) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let t = if results {
                f64::from(u8::from(s.won))
            } else {
                s.target
            };
            softplus_loss(f64::from(model_logit(model, s)), t)
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// −t log σ(z) − (1−t) log σ(−z), stable for large |z|.
fn softplus_loss(z: f64, t: f64) -> f64 {
    z.max(0.0) + (-z.abs()).exp().ln_1p() - t * z
}

/// A uniform number in [−1, 1).
fn symmetric(rng: &mut SplitMix64) -> f32 {
    ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
}

/// Fits the network on top of `model`'s logistic weights by Adam (mini-batches of 256, each
/// sample also mirrored left to right, a small L2 penalty), keeping the parameters of the epoch
/// with the lowest held-out cross-entropy against the targets.
fn fit_net(train: &[Sample], held: &[Sample], model: &Model, o: &Options, round: usize) -> Net {
    const BATCH: usize = 256;
    let mut rng = SplitMix64::new(o.seed ^ 0x6E65_7400 ^ round as u64);
    let out = (PATCH_INPUTS + FEATURES) * HIDDEN;
    let mut params: Vec<f32> = match &model.net {
        Some(net) => net.params().to_vec(),
        None => {
            let mut p: Vec<f32> = (0..PARAMS).map(|_| 0.15 * symmetric(&mut rng)).collect();
            // Units start alive (a small positive bias) and silent (no output weight), so
            // training starts from the logistic model alone.
            p[PATCH_INPUTS * HIDDEN..(PATCH_INPUTS + 1) * HIDDEN].fill(0.1);
            p[out..].fill(0.0);
            p
        }
    };
    let base: Vec<f32> = train.iter().map(|s| model.weights.logit(&s.x)).collect();
    let mirrored: Vec<[u8; POINTS]> = train.iter().map(|s| net::mirror(&s.patch)).collect();
    let n = train.len();
    let mut order: Vec<usize> = (0..2 * n).collect();
    let (mut m, mut v) = (vec![0.0f32; PARAMS], vec![0.0f32; PARAMS]);
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut t = 0i32;
    let held_loss = |params: &[f32]| {
        let net = Net::from_params(params).expect("finite parameters");
        let candidate = Model {
            weights: model.weights,
            net: Some(Arc::new(net)),
        };
        model_loss(&candidate, held, false)
    };
    let mut best = (held_loss(&params), params.clone());
    println!("  epoch 0: held-out cross-entropy {:.4}", best.0);
    let mut grad = vec![0.0f32; PARAMS];
    for epoch in 1..=o.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i as u64 + 1) as usize);
        }
        for chunk in order.chunks(BATCH) {
            grad.fill(0.0);
            for &k in chunk {
                let i = k % n;
                let s = &train[i];
                let patch = if k < n { &s.patch } else { &mirrored[i] };
                let (logit, acc) = net::forward(&params, patch, &s.x);
                let z = f64::from(base[i] + logit);
                let g = (1.0 / (1.0 + (-z).exp()) - s.target) as f32;
                let mut gh = [0.0f32; HIDDEN];
                for h in 0..HIDDEN {
                    if acc[h] > 0.0 {
                        grad[out + h] += g * acc[h];
                        gh[h] = g * params[out + h];
                    }
                }
                net::for_each_input(patch, &s.x, |input, x| {
                    for (gr, gh) in grad[input * HIDDEN..][..HIDDEN].iter_mut().zip(&gh) {
                        *gr += gh * x;
                    }
                });
            }
            t += 1;
            let scale = 1.0 / chunk.len() as f32;
            let lr = o.rate as f32 * (1.0 - b2.powi(t)).sqrt() / (1.0 - b1.powi(t));
            let l2 = o.l2 as f32;
            for j in 0..PARAMS {
                let gj = grad[j] * scale + l2 * params[j];
                m[j] = b1 * m[j] + (1.0 - b1) * gj;
                v[j] = b2 * v[j] + (1.0 - b2) * gj * gj;
                params[j] -= lr * m[j] / (v[j].sqrt() + eps);
            }
        }
        let loss = held_loss(&params);
        println!("  epoch {epoch}: held-out cross-entropy {loss:.4}");
        if loss < best.0 {
            best = (loss, params.clone());
        }
    }
    Net::from_params(&best.1).expect("finite parameters")
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
    let start = Model {
        weights: o.from,
        net: o.net_from.clone(),
    };
    let mut model = start.clone();
    let mut report = Vec::new();
    for round in 0..o.rounds {
        let (train, held) = self_play(&o, &model, round);
        let before = model_loss(&model, &held, true);
        let before_target = model_loss(&model, &held, false);
        model = if o.net {
            let net = fit_net(&train, &held, &model, &o, round);
            Model {
                weights: model.weights,
                net: Some(Arc::new(net)),
            }
        } else {
            Model::linear(Weights(fit(&train, &model.weights, o.l2).map(|w| w as f32)))
        };
        let after = model_loss(&model, &held, true);
        let after_target = model_loss(&model, &held, false);
        let line = format!(
            "round {}: {} games at {} steps a turn, {} samples ({} held out); held-out log-loss against the results {:.4} → {:.4} nats, against the targets {:.4} → {:.4}",
            round + 1,
            o.games,
            o.steps,
            train.len(),
            held.len(),
            before,
            after,
            before_target,
            after_target
        );
        println!("{line}");
        report.push(line);
    }
    for (name, w) in NAMES.iter().zip(model.weights.0) {
        println!("  {name:<22} {w:>9.4}");
    }
    if let (Some(path), Some(net)) = (&o.save, &model.net) {
        let text: String = net.params().iter().map(|p| format!("{p:?}\n")).collect();
        if let Err(e) = std::fs::write(path, text) {
            eprintln!("train: writing {path}: {e}");
            std::process::exit(1);
        }
        println!("saved the network to {path}");
    }
    if o.check > 0 {
        let against = o.against.map_or_else(|| start.clone(), Model::linear);
        for &(w, l) in &o.sizes {
            let field = Field::new(w, l).expect("checked sizes");
            let pair = (&model, &against);
            let wins = check(field, o.check_steps, pair, o.check, o.seed, o.threads);
            let line = format!(
                "check {w}x{l}: the new evaluation vs {} at {} steps a turn: {}",
                if o.against.is_some() {
                    "the given weights"
                } else {
                    "the starting one"
                },
                o.check_steps,
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
        for (name, w) in NAMES.iter().zip(model.weights.0) {
            text += &format!("    {w:?}, // {name}\n");
        }
        text += "];\n\n/// The network over the lines around the ball (`net::PARAMS` numbers), when one is in use.\n";
        match &model.net {
            None => text += "pub(super) const NET: Option<&[f32]> = None;\n",
            Some(net) => {
                text += "#[rustfmt::skip]\npub(super) const NET: Option<&[f32]> = Some(&[\n";
                for row in net.params().chunks(8) {
                    let row: Vec<String> = row.iter().map(|p| format!("{p:?}")).collect();
                    text += &format!("    {},\n", row.join(", "));
                }
                text += "]);\n";
            }
        }
        if let Err(e) = std::fs::write(path, text) {
            eprintln!("train: writing {path}: {e}");
            std::process::exit(1);
        }
        println!("wrote {path}");
    }
}
