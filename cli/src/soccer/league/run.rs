//! Playing a league's games: each on fresh connections to its two players, through the same
//! referee loop as `soccer referee` ([`super::super::referee::play_one`]), several at once.
//!
//! Games run on `jobs` worker threads. A worker takes the first game in schedule order that it
//! may start: one whose boards (players behind serial ports) are not busy in another game, so a
//! board plays one game at a time while games without a board run in parallel. Every game's
//! players are seeded from the league's seed and the game's number alone, so the league plays
//! the same whatever the number of workers and the order games finish in.

use std::collections::HashSet;
use std::sync::mpsc;
use std::sync::{Condvar, Mutex};

use anyhow::Context;
use engine::soccer::Side;
use engine::soccer::league::Pairing;
use engine::soccer::record::Record;
use engine::soccer::referee::{Referee, Settings};

use crate::soccer::players::{Launch, PlayerSpec};
use crate::soccer::referee;
use crate::transport::Connection;

/// One game as it was played.
#[derive(Debug)]
pub struct Played {
    pub index: usize,
    /// The referee's record, with its verdict.
    pub record: Record,
    /// How it ended, in words (`red wins: blue timeout`).
    pub verdict: String,
    /// Why a player could not be started, when one could not (it lost by `disconnect`).
    pub not_started: Vec<(Side, String)>,
}

/// What every game shares.
pub struct Setup<'a> {
    pub players: &'a [PlayerSpec],
    pub turn_ms: u64,
    /// The serial line and bots' memory limit.
    pub launch: Launch,
    /// The seeds of each game's red and blue players, by game number.
    pub player_seeds: &'a (dyn Fn(usize) -> [u64; 2] + Sync),
}

/// The games not yet started, and the boards in use.
struct Queue {
    pending: Vec<Pairing>,
    busy: HashSet<String>,
    /// Set when a game failed in a way that stops the league.
    stop: bool,
}

/// Plays every game of `schedule` on `jobs` threads, calling `done` on this thread as each one
/// finishes (in the order they finish); returns them all, in schedule order.
pub fn play_all(
    schedule: &[Pairing],
    setup: &Setup,
    jobs: usize,
    mut done: impl FnMut(&Played),
) -> anyhow::Result<Vec<Played>> {
    let queue = Mutex::new(Queue {
        pending: schedule.to_vec(),
        busy: HashSet::new(),
        stop: false,
    });
    let freed = Condvar::new();
    let (tx, rx) = mpsc::channel::<anyhow::Result<Played>>();
    let mut played = Vec::with_capacity(schedule.len());
    let mut failure = None;
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, schedule.len().max(1)) {
            let tx = tx.clone();
            let (queue, freed) = (&queue, &freed);
            scope.spawn(move || {
                while let Some(pairing) = next_game(queue, freed, setup) {
                    let result = play_game(&pairing, setup);
                    let mut q = queue.lock().unwrap_or_else(|e| e.into_inner());
                    for port in boards(&pairing, setup) {
                        q.busy.remove(port);
                    }
                    q.stop |= result.is_err();
                    drop(q);
                    freed.notify_all();
                    if tx.send(result).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        for result in rx {
            match result {
                Ok(game) => {
                    done(&game);
                    played.push(game);
                }
                Err(e) => {
                    failure.get_or_insert(e);
                }
            }
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    played.sort_by_key(|p| p.index);
    Ok(played)
}

/// The serial ports of a game's players.
fn boards<'a>(pairing: &Pairing, setup: &Setup<'a>) -> Vec<&'a str> {
    [pairing.red, pairing.blue]
        .into_iter()
        .filter_map(|p| setup.players[p].serial_port())
        .collect()
}

/// Takes the first pending game whose boards are free, waiting while every pending game needs
/// a busy board; `None` when none is left (or the league stopped).
fn next_game(queue: &Mutex<Queue>, freed: &Condvar, setup: &Setup) -> Option<Pairing> {
    let mut q = queue.lock().unwrap_or_else(|e| e.into_inner());
    loop {
        if q.stop || q.pending.is_empty() {
            return None;
        }
        let free = q.pending.iter().position(|pairing| {
            boards(pairing, setup)
                .iter()
                .all(|port| !q.busy.contains(*port))
        });
        if let Some(k) = free {
            let pairing = q.pending.remove(k);
            for port in boards(&pairing, setup) {
                q.busy.insert(port.to_string());
            }
            return Some(pairing);
        }
        q = freed.wait(q).unwrap_or_else(|e| e.into_inner());
    }
}

/// Connects a game's players and referees it; a player that cannot be started loses by
/// `disconnect` without the game being played (when neither can, red — the starter — loses).
fn play_game(pairing: &Pairing, setup: &Setup) -> anyhow::Result<Played> {
    let settings = Settings {
        width: pairing.field.width(),
        length: pairing.field.length(),
        turn_ms: setup.turn_ms,
    };
    let seeds = (setup.player_seeds)(pairing.index);
    let mut connections: Vec<Connection> = Vec::new();
    let mut not_started = Vec::new();
    for (side, seed) in [Side::Red, Side::Blue].into_iter().zip(seeds) {
        let spec = &setup.players[pairing.player(side)];
        match spec.connect(setup.launch, seed) {
            Ok(connection) => connections.push(connection),
            Err(e) => not_started.push((side, format!("`{spec}` cannot start: {e:#}"))),
        }
    }
    let game = pairing.index + 1;
    if not_started.is_empty() {
        let [red, blue]: [Connection; 2] = connections
            .try_into()
            .map_err(|_| anyhow::anyhow!("two connections"))?;
        let board = !boards(pairing, setup).is_empty();
        let (record, verdict) = referee::play_one([red, blue], settings, Side::Red, board)
            .with_context(|| format!("game {game}"))?;
        return Ok(Played {
            index: pairing.index,
            record,
            verdict,
            not_started,
        });
    }
    for connection in connections {
        release(connection);
    }
    let mut referee =
        Referee::new(settings, Side::Red, 0).with_context(|| format!("game {game}"))?;
    for (side, _) in &not_started {
        referee.handle_disconnect(*side, 0);
    }
    let end = referee
        .end()
        .context("a player that cannot start ends the game")?;
    Ok(Played {
        index: pairing.index,
        record: referee.record().clone(),
        verdict: format!(
            "{} wins: {} disconnect",
            end.outcome.winner,
            end.outcome.winner.opponent()
        ),
        not_started,
    })
}

/// Lets go of a player whose opponent could not be started: its input closes, then its closer
/// runs (a child is reaped, a port let go).
fn release(connection: Connection) {
    let Connection { writer, closer, .. } = connection;
    drop(writer);
    if let Some(closer) = closer {
        closer();
    }
}
