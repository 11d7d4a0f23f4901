//! Paper Soccer speed: raw steps, turn enumeration and the engine's search, on mid-game 8x10
//! positions and on the degenerate and huge fields. Prints a table; the ratios compare each
//! figure with the raw step/undo rate measured in the same run.
//!
//! `cargo bench -p engine --bench soccer`
//!
//! The last table is the native side of issue 17's WebAssembly figure: the page's suggestion
//! level on the positions the e2e suite asks the soccer worker about in headless Chromium
//! (`e2e/tests/engine_speed.test.mjs`, which prints the browser's nodes per second beside
//! `quadrille soccer analyse`'s).

use std::time::Instant;

use engine::rng::SplitMix64;
use engine::soccer::field::Field;
use engine::soccer::game::{Game, StepEffect};
use engine::soccer::record::Record;
use engine::soccer::search::eval::{Model, Weights};
use engine::soccer::search::{Engine, legacy};
use engine::soccer::turns::count_turns;
use engine::soccer::{Dir, Side};

/// Mid-game positions: games between two level-1 engines, stopped after a few turns.
fn positions() -> Vec<Game> {
    let field = Field::new(8, 10).unwrap();
    let mut out = Vec::new();
    for seed in 0..24u64 {
        let mut game = Game::new(field, if seed % 2 == 0 { Side::Red } else { Side::Blue });
        let mut engines = [Engine::new(1, seed), Engine::new(1, seed + 100)];
        for t in 0..(4 + seed % 12) {
            let turn = engines[(t % 2) as usize]
                .choose_turn(&game)
                .expect("an open game");
            let mut next = game.clone();
            if next.play_turn(&turn).is_some() {
                break;
            }
            game = next;
        }
        out.push(game);
    }
    out
}

/// Steps and undoes random legal steps (walks of up to 12 steps from each position, on
/// copies made before the clock starts), returning steps per second: the floor every other
/// figure is compared with.
fn raw_steps(games: &[Game]) -> f64 {
    let mut rng = SplitMix64::new(1);
    let mut copies: Vec<Game> = games.to_vec();
    let mut steps = 0u64;
    let start = Instant::now();
    for _ in 0..4000 {
        for g in &mut copies {
            let mut made = 0;
            for _ in 0..12 {
                let mask = g.legal_step_mask();
                if mask == 0 {
                    break;
                }
                // The k-th set bit of the mask, k random.
                let mut k = rng.below(u64::from(mask.count_ones()));
                let mut bits = mask;
                while k > 0 {
                    bits &= bits - 1;
                    k -= 1;
                }
                let dir = Dir::ALL[bits.trailing_zeros() as usize];
                let effect = g.step(dir).unwrap();
                made += 1;
                if !matches!(effect, StepEffect::Bounce) {
                    break;
                }
            }
            for _ in 0..made {
                g.undo_step();
            }
            steps += made;
        }
    }
    steps as f64 / start.elapsed().as_secs_f64()
}

/// Prints one row of search speed: `analyse` (nodes searched and depth reached, if it chose a
/// turn) on every position, as nodes per second and as a ratio to `base`.
fn search_row(
    label: &str,
    games: &[Game],
    base: f64,
    analyse: impl Fn(&Game) -> Option<(u64, u32)>,
) {
    let start = Instant::now();
    let mut nodes = 0u64;
    let mut depth = 0u64;
    let mut n = 0u64;
    for g in games {
        if let Some((searched, reached)) = analyse(g) {
            nodes += searched;
            depth += u64::from(reached);
            n += 1;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let rate = nodes as f64 / secs;
    println!(
        "{:<34} {:>14.0} {:>10.2}   ({:.1} ms/turn, mean depth {:.1})",
        label,
        rate,
        rate / base,
        1000.0 * secs / n as f64,
        depth as f64 / n as f64
    );
}

fn main() {
    if std::env::args().any(|a| a == "--e2e-json") {
        e2e_json();
        return;
    }
    let games = positions();
    let base = raw_steps(&games);
    println!("Paper Soccer on {} mid-game 8x10 positions", games.len());
    println!("{:<34} {:>14} {:>10}", "measure", "per second", "vs steps");
    println!(
        "{:<34} {:>14.0} {:>10.2}",
        "raw step+undo (baseline)", base, 1.0
    );

    let start = Instant::now();
    let mut turns = 0u64;
    for _ in 0..20 {
        for g in &games {
            turns += count_turns(g, u64::MAX);
        }
    }
    let rate = turns as f64 / start.elapsed().as_secs_f64();
    println!(
        "{:<34} {:>14.0} {:>10.2}",
        "legal turns enumerated",
        rate,
        rate / base
    );

    for level in 1..=5u8 {
        search_row(&format!("search nodes, level {level}"), &games, base, |g| {
            Engine::new(level, 7).analyse(g).map(|a| (a.nodes, a.depth))
        });
    }

    // The same search with the logistic model alone (no network over the lines around the
    // ball): what the network costs a node.
    for level in 4..=5u8 {
        search_row(
            &format!("search nodes, level {level}, logistic"),
            &games,
            base,
            |g| {
                Engine::new(level, 7)
                    .with_model(Model::linear(Weights::in_use()))
                    .analyse(g)
                    .map(|a| (a.nodes, a.depth))
            },
        );
    }

    // The engine as it was (`search::legacy`), for comparison in the same run: its nodes are
    // steps tried too, but it searches every walk of a turn where the new one searches each
    // distinct outcome once, so its depth per node is lower.
    for level in 1..=4u8 {
        search_row(
            &format!("legacy search nodes, level {level}"),
            &games,
            base,
            |g| {
                legacy::Engine::new(level, 7)
                    .analyse(g)
                    .map(|a| (a.nodes, a.depth))
            },
        );
    }

    println!();
    println!(
        "{:<14} {:>12} {:>12}",
        "kick-off", "level 3 ms", "turns ≤1e6"
    );
    for (w, l) in [(2, 2), (8, 10), (254, 2), (2, 254), (254, 254)] {
        let g = Game::new(Field::new(w, l).unwrap(), Side::Red);
        let start = Instant::now();
        let turn = Engine::new(3, 1).choose_turn(&g);
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        assert!(turn.is_some());
        println!(
            "{:<14} {:>12.1} {:>12}",
            format!("{w}x{l}"),
            ms,
            count_turns(&g, 1_000_000)
        );
    }

    wasm_comparison();
}

/// The positions of the e2e suite's WebAssembly speed figure (one record a line).
const E2E_POSITIONS: &str = include_str!("../../e2e/tests/engine-speed-fixtures/positions.txt");

/// The page's suggestion level (`SUGGEST_LEVEL` in `app/src/pages/soccer.rs`) and the seed the
/// e2e file types into the page.
const E2E_LEVEL: u8 = 5;
const E2E_SEED: u64 = 7;

/// The e2e's positions (one record a line, `#` comments), each with its game.
fn e2e_positions() -> impl Iterator<Item = (&'static str, Game)> {
    E2E_POSITIONS
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let record = Record::parse(line).unwrap_or_else(|e| panic!("{line}: {e}"));
            let game = record.replay().unwrap_or_else(|e| panic!("{line}: {e}"));
            (line, game)
        })
}

/// `--e2e-json`: the release build's side of the e2e figure, one JSON object a position (the
/// fastest of three searches), for `e2e/tests/engine_speed.test.mjs` to print beside the
/// soccer worker's in the same run.
fn e2e_json() {
    for (line, game) in e2e_positions() {
        let mut fastest = f64::INFINITY;
        let mut found = None;
        for _ in 0..3 {
            let start = Instant::now();
            let analysis = Engine::new(E2E_LEVEL, E2E_SEED)
                .analyse(&game)
                .expect("an open game");
            fastest = fastest.min(start.elapsed().as_secs_f64() * 1000.0);
            found = Some(analysis);
        }
        let a = found.expect("three searches");
        println!(
            "{{\"record\":{:?},\"depth\":{},\"nodes\":{},\"millis\":{:.3}}}",
            line.trim(),
            a.depth,
            a.nodes,
            fastest
        );
    }
}

/// Level 4 on the e2e's positions, natively, and how to get the WebAssembly figure.
fn wasm_comparison() {
    println!();
    println!(
        "{:<58} {:>6} {:>9} {:>9} {:>12}",
        "level 4, seed 7, on the e2e's positions", "depth", "nodes", "ms", "nodes/s"
    );
    let (mut nodes, mut secs) = (0u64, 0.0);
    for (line, game) in e2e_positions() {
        let start = Instant::now();
        let analysis = Engine::new(E2E_LEVEL, E2E_SEED)
            .analyse(&game)
            .expect("an open game");
        let took = start.elapsed().as_secs_f64();
        nodes += analysis.nodes;
        secs += took;
        println!(
            "{:<58} {:>6} {:>9} {:>9.1} {:>12.0}",
            line.chars().take(58).collect::<String>(),
            analysis.depth,
            analysis.nodes,
            took * 1000.0,
            analysis.nodes as f64 / took
        );
    }
    println!(
        "{:<58} {:>6} {:>9} {:>9.1} {:>12.0}",
        "all",
        "",
        nodes,
        secs * 1000.0,
        nodes as f64 / secs
    );
    println!(
        "WebAssembly (the soccer worker in headless Chromium) against native on these positions: \
         CI=true E2E_FILES=tests/engine_speed.test.mjs cargo xtask test --only build,e2e \
         (prints both nodes per second and their ratio; issue 17's target: wasm >= 0.5x native)"
    );
}
