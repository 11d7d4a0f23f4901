//! Engine-against-engine matches, to measure strength (issue 17): win rates with a 95 %
//! interval, colours and starters balanced, every turn checked against the rules.
//!
//! ```sh
//! cargo run --release -p engine --example match -- new:400 legacy:400 --sizes 8x10,6x8 --games 200
//! cargo run --release -p engine --example match -- --ladder --sizes 8x10 --games 100
//! ```
//!
//! Players: `engine:L` (the engine a user picks by level: `Engine::at_level`), `nodes:N` (the
//! engine with a budget of N steps a turn), `new:MS` (the
//! engine, timed), `new@L` (the engine at deterministic level L),
//! `legacy:MS` (the engine as it was, stopped by the same clock), `legacy@L` (the old engine's
//! level L, a node budget: `legacy@6` is the old `engine:6`). A game is played directly on a
//! [`Game`] (no wire): a turn that is not legal, or that takes longer than `--fault-ms`
//! (default 1000), loses the game and is counted as a fault (`faults A/B`: ruled against the
//! first player / the second; an `exec:` player's time includes the pipes). `--cpu-clock`
//! times engines by their thread's CPU time instead, for measuring on a busy machine.
//! `linear:MS` / `linear@L` is the engine with the logistic evaluation alone (no network:
//! the evaluation before `search::net`), and `--net FILE` gives the `new` players a candidate
//! network (as `train --save` writes it) instead of the one in use. `bf:MS` / `bf@L` is the
//! engine searching best-first (UBFM) instead of by alpha-beta.

use std::time::Instant;

use engine::soccer::field::Field;
use engine::soccer::game::Game;
use engine::soccer::protocol::Turn;
use std::sync::{Arc, OnceLock};

use engine::soccer::search::eval::{Model, Weights};
use engine::soccer::search::net::Net;
use engine::soccer::search::{Engine, Method, legacy};
use engine::soccer::{Reason, Side};

/// The `new` players' evaluation when `--net` gives one.
static NEW_MODEL: OnceLock<Model> = OnceLock::new();

fn new_model() -> Model {
    NEW_MODEL.get().cloned().unwrap_or_else(Model::in_use)
}

/// The logistic model in use without its network.
fn linear_model() -> Model {
    Model::linear(Weights::in_use())
}

#[derive(Clone, Debug)]
enum Spec {
    New {
        millis: Option<u32>,
        level: u8,
    },
    Legacy {
        millis: Option<u32>,
        level: u8,
    },
    Linear {
        millis: Option<u32>,
        level: u8,
    },
    /// `bf:MS` / `bf@L`: the engine searching best-first ([`Method::BestFirst`]).
    BestFirst {
        millis: Option<u32>,
        level: u8,
    },
    /// `engine:L`: the engine a user picks by level ([`Engine::at_level`]): a node budget
    /// below the top level, the top level timed.
    Level(u8),
    /// `nodes:N`: the engine with a budget of N steps a turn (to choose the levels' budgets).
    Nodes(u64),
    /// `exec:COMMAND`: a program speaking the wire protocol (spec §4) on stdin/stdout, e.g.
    /// the QtPaperSoccer opponent outside the repository; one process per series.
    Exec(String),
}

impl Spec {
    fn parse(s: &str) -> Result<Spec, String> {
        if let Some(command) = s.strip_prefix("exec:") {
            return Ok(Spec::Exec(command.to_string()));
        }
        if let Some(n) = s.strip_prefix("nodes:") {
            let n = n
                .parse::<u64>()
                .map_err(|_| format!("`{s}`: expected nodes:STEPS"))?;
            return Ok(Spec::Nodes(n));
        }
        if let Some(level) = s.strip_prefix("engine:") {
            let level = level
                .parse::<u8>()
                .map_err(|_| format!("`{s}`: expected engine:LEVEL"))?;
            return Ok(Spec::Level(level));
        }
        let bad = || {
            format!(
                "`{s}`: expected new:MS, new@LEVEL, legacy:MS, legacy@LEVEL, linear:MS, linear@LEVEL, bf:MS or bf@LEVEL"
            )
        };
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
            "linear" => Ok(Spec::Linear { millis, level }),
            "bf" => Ok(Spec::BestFirst { millis, level }),
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
            Spec::Linear {
                millis: Some(ms), ..
            } => format!("linear:{ms}"),
            Spec::Linear { level, .. } => format!("linear@{level}"),
            Spec::BestFirst {
                millis: Some(ms), ..
            } => format!("bf:{ms}"),
            Spec::BestFirst { level, .. } => format!("bf@{level}"),
            Spec::Level(level) => format!("engine:{level}"),
            Spec::Nodes(n) => format!("nodes:{n}"),
            Spec::Exec(_) => "exec".to_string(),
        }
    }

    fn player(&self, seed: u64) -> Player {
        match *self {
            Spec::Exec(ref command) => Player::Exec(Wire::spawn(command)),
            Spec::New {
                millis: Some(ms), ..
            } => Player::New(Engine::timed(ms, seed).with_model(new_model())),
            Spec::New { level, .. } => {
                Player::New(Engine::new(level, seed).with_model(new_model()))
            }
            Spec::Linear {
                millis: Some(ms), ..
            } => Player::New(Engine::timed(ms, seed).with_model(linear_model())),
            Spec::Linear { level, .. } => {
                Player::New(Engine::new(level, seed).with_model(linear_model()))
            }
            Spec::BestFirst {
                millis: Some(ms), ..
            } => Player::New(
                Engine::timed(ms, seed)
                    .with_model(new_model())
                    .with_method(Method::BestFirst),
            ),
            Spec::BestFirst { level, .. } => Player::New(
                Engine::new(level, seed)
                    .with_model(new_model())
                    .with_method(Method::BestFirst),
            ),
            Spec::Level(level) => Player::New(Engine::at_level(level, seed)),
            Spec::Nodes(n) => Player::New(Engine::with_budget(n, seed)),
            Spec::Legacy { millis, level } => {
                Player::Legacy(legacy::Engine::new(level, seed), millis)
            }
        }
    }
}

enum Player {
    New(Engine),
    Legacy(legacy::Engine, Option<u32>),
    Exec(Wire),
}

/// A child process on the wire: we are its referee.
struct Wire {
    child: std::process::Child,
    input: std::process::ChildStdin,
    output: std::io::BufReader<std::process::ChildStdout>,
}

impl Wire {
    fn spawn(command: &str) -> Wire {
        use std::process::{Command, Stdio};
        let mut child = Command::new("sh")
            .args(["-c", command])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start the exec: player");
        let input = child.stdin.take().expect("piped");
        let output = std::io::BufReader::new(child.stdout.take().expect("piped"));
        Wire {
            child,
            input,
            output,
        }
    }

    fn send(&mut self, bytes: &[u8]) {
        use std::io::Write;
        self.input.write_all(bytes).expect("the exec: player reads");
        self.input.flush().expect("the exec: player reads");
    }

    fn new_game(&mut self, field: Field, colour: Side) {
        let c = if colour == Side::Red { b'r' } else { b'b' };
        self.send(&[
            b'w',
            field.width(),
            b'\n',
            b'l',
            field.length(),
            b'\n',
            b'c',
            c,
            b'\n',
        ]);
    }

    /// Tells the player the opponent's last turn (or `{}` to start) and reads its turn.
    fn turn(&mut self, last: Option<&Turn>) -> Option<Turn> {
        use std::io::BufRead;
        let mut msg = b"{".to_vec();
        if let Some(t) = last {
            msg.extend_from_slice(t.digits());
        }
        msg.extend_from_slice(b"}\n");
        self.send(&msg);
        let mut line = Vec::new();
        self.output.read_until(b'}', &mut line).ok()?;
        let open = line.iter().position(|&b| b == b'{')?;
        let digits: Vec<u8> = line[open + 1..]
            .iter()
            .copied()
            .filter(u8::is_ascii_digit)
            .collect();
        Turn::new(&digits).ok()
    }
}

impl Drop for Wire {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Player {
    fn turn(&mut self, game: &Game, clock: &dyn Fn() -> f64) -> Option<Turn> {
        if let Player::Exec(wire) = self {
            let turns = game.turns();
            let last = turns.last().filter(|_| game.turn_number() > 0);
            return wire.turn(last);
        }
        match self {
            Player::Exec(_) => None,
            Player::New(e) => e.analyse_with_clock(game, clock),
            Player::Legacy(e, None) => e.analyse(game),
            Player::Legacy(e, Some(ms)) => {
                let end = clock() + f64::from(*ms);
                e.analyse_until(game, Some((clock, end)))
            }
        }
        .map(|a| {
            if std::env::var_os("MATCH_VERBOSE").is_some() {
                let who = match self {
                    Player::New(_) => "new",
                    Player::Legacy(..) => "legacy",
                    Player::Exec(_) => "exec",
                };
                eprintln!(
                    "{who:<6} turn {:>3}: depth {:>2} nodes {:>9} {:>7.1} ms score {:?}",
                    game.turn_number(),
                    a.depth,
                    a.nodes,
                    a.millis.unwrap_or(f64::NAN),
                    a.score
                );
            }
            a.turn
        })
    }
}

/// One game; `a` is red when `a_red`. Returns (a won, a fault was ruled, longest turn ms).
/// Engines are made afresh for each game; an `exec:` player is kept (`wires`).
fn game(
    field: Field,
    [a, b]: [&Spec; 2],
    wires: &mut [Option<Player>; 2],
    a_red: bool,
    starter: Side,
    seed: u64,
    fault_ms: f64,
) -> (bool, bool, f64) {
    let origin = Instant::now();
    let clock = move || {
        if CPU_CLOCK.load(std::sync::atomic::Ordering::Relaxed) {
            thread_cpu_ms()
        } else {
            origin.elapsed().as_secs_f64() * 1000.0
        }
    };
    let fresh = |spec: &Spec, slot: &mut Option<Player>, seed: u64| match spec {
        Spec::Exec(_) => slot.take().unwrap_or_else(|| spec.player(seed)),
        _ => spec.player(seed),
    };
    let mut players = [
        fresh(a, &mut wires[0], seed),
        fresh(b, &mut wires[1], seed.wrapping_add(1)),
    ];
    let a_side = if a_red { Side::Red } else { Side::Blue };
    for (i, p) in players.iter_mut().enumerate() {
        if let Player::Exec(wire) = p {
            wire.new_game(field, if i == 0 { a_side } else { a_side.opponent() });
        }
    }
    let result = play_out(field, &mut players, a_side, starter, &clock, fault_ms);
    for (slot, p) in wires.iter_mut().zip(players) {
        if let Player::Exec(_) = p {
            *slot = Some(p);
        }
    }
    result
}

/// `--cpu-clock`: timed players (and the fault check) see the thread's CPU time instead of
/// the wall clock, so that a match on a busy machine gives each turn the computing it would
/// get on an idle one (engines only: an `exec:` player's time is not this thread's).
static CPU_CLOCK: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// This thread's CPU time in milliseconds.
fn thread_cpu_ms() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to fill; the clock id is a constant.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    assert_eq!(ok, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    t.tv_sec as f64 * 1000.0 + t.tv_nsec as f64 / 1e6
}

fn play_out(
    field: Field,
    players: &mut [Player; 2],
    a_side: Side,
    starter: Side,
    clock: &dyn Fn() -> f64,
    fault_ms: f64,
) -> (bool, bool, f64) {
    let mut g = Game::new(field, starter);
    let mut longest: f64 = 0.0;
    loop {
        let mover = g.to_move();
        let who = usize::from(mover != a_side);
        let t0 = clock();
        let turn = players[who].turn(&g, clock);
        let took = clock() - t0;
        if who == 0 {
            longest = longest.max(took);
        }
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
    /// Faults ruled against the first player, and against the second (a fault loses).
    faults: [u64; 2],
    longest: f64,
}

fn series(field: Field, a: &Spec, b: &Spec, games: u64, seed: u64, fault_ms: f64) -> Tally {
    let mut t = Tally {
        wins: 0,
        games: 0,
        faults: [0, 0],
        longest: 0.0,
    };
    let mut wires = [None, None];
    for i in 0..games {
        let a_red = i % 2 == 0;
        let starter = if (i / 2) % 2 == 0 {
            Side::Red
        } else {
            Side::Blue
        };
        let (won, fault, longest) = game(
            field,
            [a, b],
            &mut wires,
            a_red,
            starter,
            seed.wrapping_add(i * 7919),
            fault_ms,
        );
        t.games += 1;
        t.wins += u64::from(won);
        t.faults[usize::from(won)] += u64::from(fault);
        t.longest = t.longest.max(longest);
    }
    t
}

fn report(field: Field, a: &Spec, b: &Spec, t: &Tally) {
    let (lo, hi) = wilson(t.wins, t.games);
    println!(
        "{:<8} {:>12} vs {:<12} {:>4}/{:<4} = {:>5.1} %  95 % [{:>5.1}, {:>5.1}]  Elo {:>+5.0}  faults {}/{}  longest turn of the first {:.0} ms",
        field.to_string(),
        a.name(),
        b.name(),
        t.wins,
        t.games,
        100.0 * t.wins as f64 / t.games.max(1) as f64,
        100.0 * lo,
        100.0 * hi,
        elo(t.wins as f64 / t.games.max(1) as f64),
        t.faults[0],
        t.faults[1],
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
            "--net" => {
                let path = value("--net")?;
                let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
                let net = Net::from_text(&text).map_err(|e| format!("{path}: {e}"))?;
                let model = Model {
                    weights: Weights::in_use(),
                    net: Some(Arc::new(net)),
                };
                NEW_MODEL
                    .set(model)
                    .map_err(|_| "--net given twice".to_string())?;
            }
            "--cpu-clock" => CPU_CLOCK.store(true, std::sync::atomic::Ordering::Relaxed),
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
        // Each level against the one below, as users pick them (`engine:L`: node budgets, the
        // top level timed); Elo summed up the ladder.
        for field in &sizes {
            let mut total = 0.0;
            for level in 1..=engine::soccer::search::MAX_LEVEL {
                let a = Spec::Level(level);
                let b = Spec::Level(level - 1);
                let t = series(*field, &a, &b, games, seed, f64::INFINITY);
                report(*field, &a, &b, &t);
                total += elo(t.wins as f64 / t.games.max(1) as f64);
                println!("         level {level}: {total:+.0} Elo above level 0");
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
