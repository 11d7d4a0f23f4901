//! `cargo bench -p engine --bench racetrack`: the optimal pilot's solve time on every conforming
//! sample circuit (median of several runs), against the plain breadth-first search measured in
//! the same run. Both must agree on the lap time; the table shows the speed-up.

use std::time::{Duration, Instant};

use engine::racetrack::Circuit;
use engine::racetrack::pilot::bounds::LowerBound;
use engine::racetrack::pilot::model::Track;
use engine::racetrack::pilot::{Lap, PilotError, SearchStats, bfs, optimal};
use engine::racetrack::samples::SAMPLES;

/// Runs of the optimal pilot per circuit (the median is reported).
const OPTIMAL_RUNS: usize = 9;
/// Runs of the plain search per circuit (it is slow, so fewer).
const BFS_RUNS: usize = 3;
/// The target from the issue: a live par time in the editor.
const TARGET: Duration = Duration::from_millis(50);

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn measure(
    runs: usize,
    solve: fn(&Circuit) -> (Result<Lap, PilotError>, SearchStats),
    circuit: &Circuit,
) -> (Duration, Result<Lap, PilotError>, SearchStats) {
    let mut times = Vec::with_capacity(runs);
    let mut last = None;
    for _ in 0..runs {
        let start = Instant::now();
        let out = solve(circuit);
        times.push(start.elapsed());
        last = Some(out);
    }
    let (result, stats) = last.expect("at least one run");
    (median(times), result, stats)
}

/// This thread's time on a CPU so far (Linux), to tune on a loaded machine.
fn cpu_time() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    // `-- --profile <circuit>`: solve one circuit over and over with the optimal pilot only,
    // for a profiler.
    let args: Vec<String> = std::env::args().collect();
    // `-- --optimal-only`: the optimal pilot's figures alone (quick, while tuning it).
    if args.iter().any(|a| a == "--optimal-only") {
        let mut total = 0;
        for sample in SAMPLES.iter().filter(|s| s.conforming) {
            let circuit = Circuit::parse(sample.text.as_bytes()).expect("samples parse");
            let cpu = cpu_time();
            let (t, lap, stats) = measure(OPTIMAL_RUNS, optimal::solve_with_stats, &circuit);
            let cpu = cpu_time().map(|end| (end - cpu.unwrap_or_default()) / OPTIMAL_RUNS as u32);
            let moves = lap.map_or(0, |l| l.moves());
            total += stats.expanded;
            println!(
                "{:<11} {moves:>4} {:>8.2}ms (cpu {:>6.2}ms) {:>9} expanded {:>9} slots",
                sample.name,
                ms(t),
                cpu.map_or(f64::NAN, ms),
                stats.expanded,
                stats.stored
            );
        }
        println!("total expanded {total}");
        return;
    }
    if let Some(i) = args.iter().position(|a| a == "--profile") {
        let name = args.get(i + 1).map_or("street", String::as_str);
        let sample = engine::racetrack::samples::by_name(name).expect("a sample circuit name");
        let circuit = Circuit::parse(sample.text.as_bytes()).expect("samples parse");
        let start = Instant::now();
        let mut runs = 0;
        while start.elapsed() < Duration::from_secs(5) {
            std::hint::black_box(optimal::solve(&circuit).ok());
            runs += 1;
        }
        println!(
            "{name}: {runs} runs, {:.2} ms each",
            ms(start.elapsed()) / runs as f64
        );
        return;
    }
    println!(
        "{:<11} {:>5} {:>7} {:>10} {:>9} {:>10} {:>11} {:>10} {:>8}  verdict",
        "circuit",
        "moves",
        "time",
        "optimal",
        "(bounds)",
        "expanded",
        "plain BFS",
        "expanded",
        "speed-up",
    );
    let mut worst = Duration::ZERO;
    let mut min_ratio = f64::INFINITY;
    for sample in SAMPLES.iter().filter(|s| s.conforming) {
        let circuit = Circuit::parse(sample.text.as_bytes()).expect("conforming samples parse");
        let (t_opt, lap, s_opt) = measure(OPTIMAL_RUNS, optimal::solve_with_stats, &circuit);
        let track = Track::new(&circuit).expect("conforming samples have a finish line");
        let setup = median(
            (0..OPTIMAL_RUNS)
                .map(|_| {
                    let start = Instant::now();
                    std::hint::black_box(LowerBound::new(&track));
                    start.elapsed()
                })
                .collect(),
        );
        let (t_bfs, reference, s_bfs) = measure(BFS_RUNS, bfs::plain_bfs_with_stats, &circuit);
        let lap = lap.expect("a conforming sample has a lap");
        let reference = reference.expect("the plain search finds it too");
        assert_eq!(
            lap.time(),
            reference.time(),
            "{}: the two searches disagree",
            sample.name
        );
        let ratio = t_bfs.as_secs_f64() / t_opt.as_secs_f64();
        worst = worst.max(t_opt);
        min_ratio = min_ratio.min(ratio);
        let verdict = if t_opt <= TARGET && ratio >= 10.0 {
            "ok"
        } else {
            "MISSED"
        };
        println!(
            "{:<11} {:>5} {:>7.2} {:>8.2}ms {:>7.2}ms {:>10} {:>9.1}ms {:>10} {:>7.1}x  {}",
            sample.name,
            lap.moves(),
            lap.time().seconds(),
            ms(t_opt),
            ms(setup),
            s_opt.expanded,
            ms(t_bfs),
            s_bfs.expanded,
            ratio,
            verdict
        );
    }
    println!(
        "worst optimal median {:.2} ms (target ≤ {} ms), smallest speed-up {:.1}x (target ≥ 10x)",
        ms(worst),
        TARGET.as_millis(),
        min_ratio
    );
}
