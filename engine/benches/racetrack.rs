//! `cargo bench -p engine --bench racetrack`: the optimal pilot's solve time on every conforming
//! sample circuit (median of several runs), against the plain breadth-first search measured in
//! the same run. Both must agree on the lap time; the table shows the speed-up and says, per
//! circuit and overall, whether the targets are met (≤ 50 ms median, ≥ 10× the plain
//! search).
//!
//! Besides the wall-clock medians the targets are judged on, the table shows the CPU time per
//! run (Linux: this thread's time on a CPU): on a machine shared with other work the wall clock
//! also counts the time spent waiting for a core, the CPU time does not.
//!
//! `-- --optimal-only` prints the optimal pilot's figures alone (quick, while tuning it);
//! `-- --profile <circuit>` solves one circuit over and over for five seconds, for a profiler;
//! `-- --ceiling` shows how far the heuristic is from a perfect one: its value at the start
//! against the optimum, and how many states A* expands against how many a perfect heuristic
//! would (the states of the fastest laps); then what better bounds would save, from the exact
//! moves to finish of every reachable state (slow: a million states a circuit).
//!
//! After the verdict, a second table times the bit-parallel breadth-first search
//! ([`wavefront`]) in the same run: the plain search's layers, 64 states per machine word, no
//! heuristic — what the bit-level parallelism alone buys against the A* search's pruning.

use std::time::{Duration, Instant};

use engine::racetrack::Circuit;
use engine::racetrack::pilot::bench::bounds::LowerBound;
use engine::racetrack::pilot::bench::model::{State, Track};
use engine::racetrack::pilot::bench::{bfs, optimal, wavefront};
use engine::racetrack::pilot::{Lap, PilotError, SearchStats};
use engine::racetrack::samples::{self, SAMPLES};

/// Runs of the optimal pilot per circuit (the median is reported).
const OPTIMAL_RUNS: usize = 9;
/// Runs of the plain search per circuit (it is slow, so fewer).
const BFS_RUNS: usize = 3;
/// The targets from the issue: a live par time in the editor.
const TARGET: Duration = Duration::from_millis(50);
const TARGET_RATIO: f64 = 10.0;

type Solver = fn(&Circuit) -> (Result<Lap, PilotError>, SearchStats);

/// What repeated runs of one solver on one circuit took.
struct Measured {
    /// Median wall-clock time of one run.
    wall: Duration,
    /// Mean CPU time of one run, when the platform tells.
    cpu: Option<Duration>,
    result: Result<Lap, PilotError>,
    stats: SearchStats,
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

/// This thread's time on a CPU so far (Linux only).
fn cpu_time() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

fn measure(runs: usize, solve: Solver, circuit: &Circuit) -> Measured {
    let mut times = Vec::with_capacity(runs);
    let mut last = None;
    let cpu_start = cpu_time();
    for _ in 0..runs {
        let start = Instant::now();
        let out = solve(circuit);
        times.push(start.elapsed());
        last = Some(out);
    }
    let cpu = cpu_start
        .zip(cpu_time())
        .map(|(a, b)| (b - a) / runs as u32);
    let (result, stats) = last.expect("at least one run");
    Measured {
        wall: median(times),
        cpu,
        result,
        stats,
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn cpu_ms(d: Option<Duration>) -> String {
    d.map_or_else(|| "?".to_owned(), |d| format!("{:.2}", ms(d)))
}

fn conforming() -> impl Iterator<Item = (&'static str, Circuit)> {
    SAMPLES.iter().filter(|s| s.conforming).map(|s| {
        let circuit = Circuit::parse(s.text.as_bytes()).expect("samples parse");
        (s.name, circuit)
    })
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--profile") {
        profile(args.get(i + 1).map_or("street", String::as_str));
    } else if args.iter().any(|a| a == "--optimal-only") {
        optimal_only();
    } else if args.iter().any(|a| a == "--ceiling") {
        ceiling();
    } else {
        compare();
    }
}

fn profile(name: &str) {
    let sample = samples::by_name(name).expect("a sample circuit name");
    let circuit = Circuit::parse(sample.text.as_bytes()).expect("samples parse");
    let start = Instant::now();
    let mut runs = 0;
    while start.elapsed() < Duration::from_secs(5) {
        std::hint::black_box(optimal::solve(&circuit).ok());
        runs += 1;
    }
    println!(
        "{name}: {runs} runs, {:.2} ms each",
        ms(start.elapsed()) / f64::from(runs)
    );
}

fn optimal_only() {
    let mut total = 0;
    for (name, circuit) in conforming() {
        let m = measure(OPTIMAL_RUNS, optimal::solve_with_stats, &circuit);
        let moves = m.result.map_or(0, |l| l.moves());
        total += m.stats.expanded;
        println!(
            "{name:<11} {moves:>4} {:>8.2}ms (cpu {:>6}ms) {:>9} expanded {:>9} stored",
            ms(m.wall),
            cpu_ms(m.cpu),
            m.stats.expanded,
            m.stats.stored
        );
    }
    println!("total expanded {total}");
}

/// Per circuit: the bound at the start against the optimum, and the states A* expands against
/// the states on fastest laps (`g + h* = optimum`), which is all a perfect heuristic expands.
fn ceiling() {
    let (mut first, mut second) = (Vec::new(), Vec::new());
    for (name, circuit) in conforming() {
        let track = Track::new(&circuit).expect("conforming samples have a finish line");
        let base = LowerBound::new(&track);
        let h0 = base.moves(State::START).unwrap_or(0);
        let (lap, stats) = optimal::solve_with_stats(&circuit);
        let moves = lap.expect("a conforming sample has a lap").moves() as u32;
        let exact = bfs::MovesToFinish::of(&track);
        // The states on fastest laps: `moves` from the start to the line through them.
        let on_fastest = exact
            .iter()
            .filter(|r| r.left.is_some_and(|left| r.depth + left == moves))
            .count();
        let closer = exact.iter().filter(|r| r.depth < moves).count();
        first.push(format!(
            "{name:<11} {moves:>5} {h0:>11} {:>12} {on_fastest:>14} {closer:>12}",
            stats.expanded
        ));
        let expanded = |short: Option<u32>, doomed: bool| {
            let bound = Better {
                base: &base,
                exact: &exact,
                short,
                doomed,
            };
            optimal::solve_with_bound(&circuit, &bound).1.expanded
        };
        second.push(format!(
            "{name:<11} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}",
            exact.len(),
            stats.expanded,
            expanded(None, true),
            expanded(Some(8), false),
            expanded(Some(4), false),
            expanded(Some(0), true),
        ));
    }
    println!(
        "{:<11} {:>5} {:>11} {:>12} {:>14} {:>12}",
        "circuit", "moves", "h at start", "A* expands", "perfect h", "plain BFS"
    );
    first.iter().for_each(|row| println!("{row}"));
    println!();
    println!("What a better bound would save: A* expansions with today's bound raised to");
    println!("`exact − c` (never more than c moves short), and with the doomed states known");
    println!("(from the exact moves to finish of every state a lap can reach).");
    println!(
        "{:<11} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}",
        "circuit", "reachable", "today", "+doomed", "c = 8", "c = 4", "exact"
    );
    second.iter().for_each(|row| println!("{row}"));
}

/// Today's bound, raised towards the exact moves to finish (for the ceiling's second table).
struct Better<'a> {
    base: &'a LowerBound,
    exact: &'a bfs::MovesToFinish,
    /// Raise the bound to `exact − short` (at least 1).
    short: Option<u32>,
    /// Block the states from which no lap can be finished.
    doomed: bool,
}

impl optimal::Bound for Better<'_> {
    fn moves(&self, state: State) -> Option<u32> {
        let h = self.base.moves(state)?;
        match (self.exact.moves(state), self.short) {
            (Some(e), Some(short)) => Some(h.max(e.saturating_sub(short).max(1))),
            (None, _) if self.doomed && self.exact.reaches(state) => None,
            _ => Some(h),
        }
    }
}

fn compare() {
    println!(
        "{:<11} {:>5} {:>7} {:>9} {:>8} {:>8} {:>9} {:>10} {:>8} {:>9} {:>8} {:>8}  verdict",
        "circuit",
        "moves",
        "time",
        "optimal",
        "(cpu)",
        "(bounds)",
        "expanded",
        "plain BFS",
        "(cpu)",
        "expanded",
        "speed-up",
        "(cpu)",
    );
    let mut worst = Duration::ZERO;
    let mut min_ratio = f64::INFINITY;
    let (mut fast_enough, mut far_enough, mut circuits) = (0, 0, 0);
    let mut timed = Vec::new();
    for (name, circuit) in conforming() {
        let opt = measure(OPTIMAL_RUNS, optimal::solve_with_stats, &circuit);
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
        let plain = measure(BFS_RUNS, bfs::plain_bfs_with_stats, &circuit);
        let lap = opt.result.expect("a conforming sample has a lap");
        let reference = plain.result.expect("the plain search finds it too");
        assert_eq!(
            lap.time(),
            reference.time(),
            "{name}: the two searches disagree"
        );
        let ratio = plain.wall.as_secs_f64() / opt.wall.as_secs_f64();
        let cpu_ratio = opt
            .cpu
            .zip(plain.cpu)
            .map_or(f64::NAN, |(o, p)| p.as_secs_f64() / o.as_secs_f64());
        worst = worst.max(opt.wall);
        min_ratio = min_ratio.min(ratio);
        circuits += 1;
        fast_enough += usize::from(opt.wall <= TARGET);
        far_enough += usize::from(ratio >= TARGET_RATIO);
        let verdict = match (opt.wall <= TARGET, ratio >= TARGET_RATIO) {
            (true, true) => "ok",
            (false, true) => "MISSED (time)",
            (true, false) => "MISSED (speed-up)",
            (false, false) => "MISSED (both)",
        };
        println!(
            "{:<11} {:>5} {:>7.2} {:>7.2}ms {:>8} {:>6.2}ms {:>9} {:>8.1}ms {:>8} {:>9} {:>7.1}x {:>7.1}x  {}",
            name,
            lap.moves(),
            lap.time().seconds(),
            ms(opt.wall),
            cpu_ms(opt.cpu),
            ms(setup),
            opt.stats.expanded,
            ms(plain.wall),
            cpu_ms(plain.cpu),
            plain.stats.expanded,
            ratio,
            cpu_ratio,
            verdict
        );
        timed.push((name, circuit, lap.time(), opt.wall, plain.wall));
    }
    let met = |ok: bool| if ok { "met" } else { "NOT met" };
    print_verdicts(fast_enough, far_enough, circuits, worst, min_ratio, met);
    println!();
    println!(
        "{:<11} {:>10} {:>8} {:>9} {:>12}",
        "circuit", "bit BFS", "(cpu)", "speed-up", "vs optimal"
    );
    for (name, circuit, time, opt_wall, plain_wall) in timed {
        let wave = measure(OPTIMAL_RUNS, wavefront::solve_with_stats, &circuit);
        let lap = wave.result.expect("a conforming sample has a lap");
        assert_eq!(
            lap.time(),
            time,
            "{name}: the bit-parallel search disagrees"
        );
        println!(
            "{name:<11} {:>8.2}ms {:>8} {:>8.1}x {:>11.2}x",
            ms(wave.wall),
            cpu_ms(wave.cpu),
            plain_wall.as_secs_f64() / wave.wall.as_secs_f64(),
            opt_wall.as_secs_f64() / wave.wall.as_secs_f64(),
        );
    }
}

fn print_verdicts(
    fast_enough: usize,
    far_enough: usize,
    circuits: usize,
    worst: Duration,
    min_ratio: f64,
    met: impl Fn(bool) -> &'static str,
) {
    println!(
        "time target (median ≤ {} ms): {} — {fast_enough}/{circuits} circuits, worst {:.2} ms",
        TARGET.as_millis(),
        met(fast_enough == circuits),
        ms(worst),
    );
    println!(
        "speed-up target (≥ {TARGET_RATIO}x the plain BFS): {} — {far_enough}/{circuits} circuits, smallest {:.1}x",
        met(far_enough == circuits),
        min_ratio
    );
}
