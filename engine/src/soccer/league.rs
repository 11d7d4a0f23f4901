//! The league (spec §7): who plays whom, in which colours, and the standings, as a sans-IO part.
//! Games go in as referees' records ([`League::report_game`]); standings, the crosstable and
//! the JSON report come out. Nothing here runs a game, reads a clock or does I/O, so the CLI and
//! the browser share every rule of the league — and a league can be shown live, from whichever
//! games have finished so far.
//!
//! # The schedule (**Decision**, spec §7)
//!
//! Every pair of players meets twice on each field size. In the first game the player listed
//! first is red and starts, in the second the other one is red and starts. The order of the
//! games is fixed: field sizes in the order given; within a size, the pairs `(i, j)` with
//! `i < j` in lexicographic order of the players' list positions; each pair's two games back
//! to back. A game's number in that order ([`Pairing::index`]) names it everywhere, and seeds
//! its players ([`game_seed`]) so that running games in parallel, in any order, plays the same
//! league.
//!
//! # The standings (**Decision**, spec §7)
//!
//! A win is one point, a loss none. Players with equal points are ordered by, in turn:
//!
//! 1. head-to-head: points in the games among the players tied on points, computed **once**
//!    over that whole group; players it leaves tied go on to the next criterion (head-to-head
//!    is not applied again to a smaller group);
//! 2. wins by goal (a goal scored: not the opponent's own goal, a stuck opponent or a fault);
//! 3. fewer faults committed (`illegal_step`, `incomplete_turn`, `after_end`, `timeout`,
//!    `disconnect`);
//! 4. a draw of lots from the league's seed: every player draws one ticket
//!    ([`League::tickets`]), the lower ticket ranks higher. The rows it orders say so
//!    ([`Standing::lots`]).
//!
//! Every row says which criterion placed it ([`Standing::tie_break`]): the one at which it was
//! no longer tied with anyone. Places are 1, 2, 3, … with no shared place; the first three are
//! the ones the contest declares ([`League::podium`]).

use serde::Serialize;
use thiserror::Error;

use crate::rng::SplitMix64;

use super::field::Field;
use super::record::{Record, ReplayError};
use super::types::{Outcome, Reason, Side};

/// One game of the schedule. Red always starts (spec §7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pairing {
    /// The game's number in the schedule, from 0.
    pub index: usize,
    /// The red player, as a position in the league's list of players.
    pub red: usize,
    /// The blue player, likewise.
    pub blue: usize,
    pub field: Field,
}

impl Pairing {
    /// Who kicks off: red, in every league game.
    pub fn starter(&self) -> Side {
        Side::Red
    }

    /// The player of `side`.
    pub fn player(&self, side: Side) -> usize {
        match side {
            Side::Red => self.red,
            Side::Blue => self.blue,
        }
    }
}

/// The seed of game `index` of a league seeded `league_seed`: a function of the two alone, so a
/// game plays the same whenever and wherever it runs.
pub fn game_seed(league_seed: u64, index: usize) -> u64 {
    let index = u64::try_from(index).unwrap_or(u64::MAX);
    SplitMix64::new(league_seed ^ index.wrapping_add(1).wrapping_mul(0xD1B5_4A32_D192_ED03))
        .next_u64()
}

/// The seeds of game `index`'s red and blue players (for an engine, its `Engine::new` seed):
/// the first two numbers of [`SplitMix64`] seeded with [`game_seed`]. Every shell of the
/// league seeds its players this way, so the same plan plays the same games everywhere.
pub fn player_seeds(league_seed: u64, index: usize) -> [u64; 2] {
    let mut rng = SplitMix64::new(game_seed(league_seed, index));
    [rng.next_u64(), rng.next_u64()]
}

/// Mixed into the league's seed for the draw of lots, so tickets do not repeat game seeds.
const LOTS_SALT: u64 = 0x6C6F_7473_6472_6177;

/// A league that cannot be set up, or a game result it cannot take.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LeagueError {
    #[error("a league needs at least 2 players, not {0}")]
    TooFewPlayers(usize),
    #[error("a league needs at least one field size")]
    NoSizes,
    #[error("player {position}: the name is empty")]
    EmptyName { position: usize },
    #[error("player {position}: the name {name:?} is already taken")]
    DuplicateName { position: usize, name: String },
    #[error("the field size {width}x{length} is listed twice")]
    DuplicateSize { width: u8, length: u8 },
    #[error("there is no game {index} (the league has {games})")]
    NoSuchGame { index: usize, games: usize },
    #[error("game {index} already has a result")]
    AlreadyPlayed { index: usize },
    #[error("game {index} is played on {expected}, the record is of {found}")]
    WrongField {
        index: usize,
        expected: String,
        found: String,
    },
    #[error("game {index}: red starts every league game, the record says blue")]
    WrongStarter { index: usize },
    #[error("game {index}: the record has no verdict")]
    Unfinished { index: usize },
    #[error("game {index}: {error}")]
    Replay { index: usize, error: ReplayError },
}

/// Which criterion placed a player among those tied with it on points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TieBreak {
    HeadToHead,
    GoalWins,
    Faults,
    Lots,
}

impl TieBreak {
    /// The word used in tables and JSON, e.g. `head_to_head`.
    pub fn name(self) -> &'static str {
        match self {
            TieBreak::HeadToHead => "head_to_head",
            TieBreak::GoalWins => "goal_wins",
            TieBreak::Faults => "faults",
            TieBreak::Lots => "lots",
        }
    }
}

/// One row of the standings. Serializes as a row of the league's JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Standing {
    /// 1 for the winner; places are never shared.
    pub place: usize,
    /// The player's position in the league's list.
    #[serde(skip)]
    pub player: usize,
    pub name: String,
    pub played: u32,
    pub won: u32,
    pub lost: u32,
    pub points: u32,
    pub goal_wins: u32,
    pub faults: u32,
    /// `None` when no other player has as many points.
    pub tie_break: Option<TieBreak>,
    /// Whether the draw of lots placed this player (spec §7: `"lots": true` in the JSON).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub lots: bool,
}

/// What one player did against another, over all their games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Cell {
    pub won: u32,
    pub lost: u32,
}

/// One game of the JSON report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameRow {
    /// The game's number in the schedule, from 0.
    pub game: usize,
    pub red: String,
    pub blue: String,
    /// The field, e.g. `8x10`.
    pub size: String,
    /// The referee's record line with its verdict (spec §5).
    pub record: String,
    pub winner: Side,
    pub reason: Reason,
}

/// The league's JSON: `{"standings": […], "games": […]}` (games played so far, in schedule
/// order), plus the crosstable in standings order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Report {
    pub standings: Vec<Standing>,
    pub games: Vec<GameRow>,
    /// `crosstable[a][b]`: the games of the player placed `a + 1` against the one placed `b + 1`.
    pub crosstable: Vec<Vec<Cell>>,
}

/// A league: its players, field sizes and seed, the schedule, and the results so far.
#[derive(Clone, Debug)]
pub struct League {
    players: Vec<String>,
    seed: u64,
    schedule: Vec<Pairing>,
    results: Vec<Option<Record>>,
}

/// Per player, counted over the games played.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    played: u32,
    won: u32,
    goal_wins: u32,
    faults: u32,
}

impl League {
    /// A league of `players` (their names, unique and non-empty, in the order that decides
    /// colours) on `sizes` (at least one, no repeats), seeded `seed`.
    pub fn new(players: Vec<String>, sizes: &[Field], seed: u64) -> Result<League, LeagueError> {
        if players.len() < 2 {
            return Err(LeagueError::TooFewPlayers(players.len()));
        }
        if sizes.is_empty() {
            return Err(LeagueError::NoSizes);
        }
        for (position, name) in players.iter().enumerate() {
            if name.is_empty() {
                return Err(LeagueError::EmptyName { position });
            }
            if players[..position].contains(name) {
                return Err(LeagueError::DuplicateName {
                    position,
                    name: name.clone(),
                });
            }
        }
        for (k, field) in sizes.iter().enumerate() {
            if sizes[..k].contains(field) {
                return Err(LeagueError::DuplicateSize {
                    width: field.width(),
                    length: field.length(),
                });
            }
        }
        let n = players.len();
        let mut schedule = Vec::new();
        for &field in sizes {
            for i in 0..n {
                for j in i + 1..n {
                    for (red, blue) in [(i, j), (j, i)] {
                        schedule.push(Pairing {
                            index: schedule.len(),
                            red,
                            blue,
                            field,
                        });
                    }
                }
            }
        }
        let results = vec![None; schedule.len()];
        Ok(League {
            players,
            seed,
            schedule,
            results,
        })
    }

    /// The players' names, in the order given.
    pub fn players(&self) -> &[String] {
        &self.players
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Every game, in schedule order (see the module docs).
    pub fn schedule(&self) -> &[Pairing] {
        &self.schedule
    }

    /// The seed of game `index` ([`game_seed`] of this league's seed).
    pub fn game_seed(&self, index: usize) -> u64 {
        game_seed(self.seed, index)
    }

    /// The seeds of game `index`'s red and blue players ([`player_seeds`]).
    pub fn player_seeds(&self, index: usize) -> [u64; 2] {
        player_seeds(self.seed, index)
    }

    /// Each player's ticket for the draw of lots, by list position: the lower ticket ranks
    /// higher among players still tied after every other criterion.
    pub fn tickets(&self) -> Vec<u64> {
        let mut rng = SplitMix64::new(self.seed ^ LOTS_SALT);
        self.players.iter().map(|_| rng.next_u64()).collect()
    }

    /// Takes the referee's record of game `index`. It must be of the game's field, start with
    /// red, carry a verdict, and replay to it.
    pub fn report_game(&mut self, index: usize, record: Record) -> Result<(), LeagueError> {
        let games = self.schedule.len();
        let pairing = *self
            .schedule
            .get(index)
            .ok_or(LeagueError::NoSuchGame { index, games })?;
        if self.results[index].is_some() {
            return Err(LeagueError::AlreadyPlayed { index });
        }
        if (record.width, record.length) != (pairing.field.width(), pairing.field.length()) {
            return Err(LeagueError::WrongField {
                index,
                expected: size_name(pairing.field),
                found: format!("{}x{}", record.width, record.length),
            });
        }
        if record.starter != pairing.starter() {
            return Err(LeagueError::WrongStarter { index });
        }
        if record.result.is_none() {
            return Err(LeagueError::Unfinished { index });
        }
        record
            .replay()
            .map_err(|error| LeagueError::Replay { index, error })?;
        self.results[index] = Some(record);
        Ok(())
    }

    /// The record of game `index`, once reported.
    pub fn result(&self, index: usize) -> Option<&Record> {
        self.results.get(index).and_then(Option::as_ref)
    }

    /// How many games have a result.
    pub fn games_done(&self) -> usize {
        self.results.iter().filter(|r| r.is_some()).count()
    }

    /// Whether every game has a result.
    pub fn is_complete(&self) -> bool {
        self.results.iter().all(Option::is_some)
    }

    /// The games played so far with their outcomes.
    fn played(&self) -> impl Iterator<Item = (&Pairing, Outcome)> {
        self.schedule
            .iter()
            .zip(&self.results)
            .filter_map(|(p, r)| Some((p, r.as_ref()?.result?)))
    }

    fn tallies(&self) -> Vec<Tally> {
        let mut tallies = vec![Tally::default(); self.players.len()];
        for (pairing, outcome) in self.played() {
            let winner = pairing.player(outcome.winner);
            let loser = pairing.player(outcome.winner.opponent());
            tallies[winner].played += 1;
            tallies[loser].played += 1;
            tallies[winner].won += 1;
            if outcome.reason == Reason::Goal {
                tallies[winner].goal_wins += 1;
            }
            if outcome.reason.is_fault() {
                tallies[loser].faults += 1;
            }
        }
        tallies
    }

    /// The standings over the games played so far, best first (see the module docs).
    pub fn standings(&self) -> Vec<Standing> {
        let tallies = self.tallies();
        let tickets = self.tickets();
        let mut order: Vec<usize> = (0..self.players.len()).collect();
        order.sort_by_key(|&p| std::cmp::Reverse(tallies[p].won));
        let mut placed: Vec<(usize, Option<TieBreak>)> = Vec::with_capacity(order.len());
        for group in order.chunk_by(|&a, &b| tallies[a].won == tallies[b].won) {
            if let [only] = group {
                placed.push((*only, None));
                continue;
            }
            let head_to_head = self.head_to_head(group);
            let mut group = group.to_vec();
            group.sort_by_key(|&p| std::cmp::Reverse(head_to_head[p]));
            for tied in group.chunk_by(|&a, &b| head_to_head[a] == head_to_head[b]) {
                if let [only] = tied {
                    placed.push((*only, Some(TieBreak::HeadToHead)));
                    continue;
                }
                let mut tied = tied.to_vec();
                tied.sort_by_key(|&p| std::cmp::Reverse(tallies[p].goal_wins));
                for tied in tied.chunk_by(|&a, &b| tallies[a].goal_wins == tallies[b].goal_wins) {
                    if let [only] = tied {
                        placed.push((*only, Some(TieBreak::GoalWins)));
                        continue;
                    }
                    let mut tied = tied.to_vec();
                    tied.sort_by_key(|&p| tallies[p].faults);
                    for tied in tied.chunk_by(|&a, &b| tallies[a].faults == tallies[b].faults) {
                        if let [only] = tied {
                            placed.push((*only, Some(TieBreak::Faults)));
                            continue;
                        }
                        let mut tied = tied.to_vec();
                        tied.sort_by_key(|&p| (tickets[p], p));
                        placed.extend(tied.into_iter().map(|p| (p, Some(TieBreak::Lots))));
                    }
                }
            }
        }
        placed
            .into_iter()
            .enumerate()
            .map(|(k, (player, tie_break))| {
                let t = tallies[player];
                Standing {
                    place: k + 1,
                    player,
                    name: self.players[player].clone(),
                    played: t.played,
                    won: t.won,
                    lost: t.played - t.won,
                    points: t.won,
                    goal_wins: t.goal_wins,
                    faults: t.faults,
                    tie_break,
                    lots: tie_break == Some(TieBreak::Lots),
                }
            })
            .collect()
    }

    /// Points (wins) of each player, by list position, in the games played among `group`.
    fn head_to_head(&self, group: &[usize]) -> Vec<u32> {
        let mut points = vec![0; self.players.len()];
        for (pairing, outcome) in self.played() {
            if group.contains(&pairing.red) && group.contains(&pairing.blue) {
                points[pairing.player(outcome.winner)] += 1;
            }
        }
        points
    }

    /// The first three of the standings: the places the contest declares.
    pub fn podium(&self) -> Vec<Standing> {
        let mut standings = self.standings();
        standings.truncate(3);
        standings
    }

    /// `table[a][b]`: how player `a` fared against player `b` (list positions), over the games
    /// played so far.
    pub fn crosstable(&self) -> Vec<Vec<Cell>> {
        let n = self.players.len();
        let mut table = vec![vec![Cell::default(); n]; n];
        for (pairing, outcome) in self.played() {
            let winner = pairing.player(outcome.winner);
            let loser = pairing.player(outcome.winner.opponent());
            table[winner][loser].won += 1;
            table[loser][winner].lost += 1;
        }
        table
    }

    /// The games played so far, in schedule order, as rows of the JSON report.
    pub fn game_rows(&self) -> Vec<GameRow> {
        self.schedule
            .iter()
            .zip(&self.results)
            .filter_map(|(pairing, record)| {
                let record = record.as_ref()?;
                let outcome = record.result?;
                Some(GameRow {
                    game: pairing.index,
                    red: self.players[pairing.red].clone(),
                    blue: self.players[pairing.blue].clone(),
                    size: size_name(pairing.field),
                    record: record.to_string(),
                    winner: outcome.winner,
                    reason: outcome.reason,
                })
            })
            .collect()
    }

    /// Standings, games and crosstable (in standings order), ready to serialize.
    pub fn report(&self) -> Report {
        let standings = self.standings();
        let table = self.crosstable();
        let crosstable = standings
            .iter()
            .map(|a| {
                standings
                    .iter()
                    .map(|b| table[a.player][b.player])
                    .collect()
            })
            .collect();
        Report {
            standings,
            games: self.game_rows(),
            crosstable,
        }
    }
}

/// A field's size as plans and tables write it, e.g. `8x10`.
pub fn size_name(field: Field) -> String {
    format!("{}x{}", field.width(), field.length())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::soccer::game::Game;
    use crate::soccer::record::RecordTurn;

    fn field(w: u8, l: u8) -> Field {
        Field::new(w, l).unwrap()
    }

    fn names(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    /// A legal game on `field` with red starting that ends with `outcome`, as the referee
    /// would record it: the shortest found by iterative deepening over whole turns (the first
    /// in the engine's turn order), remembered per field and outcome.
    fn game_ending(field: Field, outcome: Outcome) -> Record {
        thread_local! {
            static FOUND: std::cell::RefCell<std::collections::HashMap<(Field, Outcome), Record>> =
                Default::default();
        }
        if let Some(r) = FOUND.with(|f| f.borrow().get(&(field, outcome)).cloned()) {
            return r;
        }
        fn search(game: &Game, turns: &mut Vec<RecordTurn>, want: Outcome, depth: u32) -> bool {
            if depth == 0 {
                return false;
            }
            for turn in game.legal_turns() {
                let mut next = game.clone();
                let end = next.play_turn(&turn);
                turns.push(turn.into());
                match end {
                    Some(end) if end == want => return true,
                    Some(_) => {}
                    None if search(&next, turns, want, depth - 1) => return true,
                    None => {}
                }
                turns.pop();
            }
            false
        }
        let mut record = Record::new(field, Side::Red);
        let game = Game::new(field, Side::Red);
        match outcome.reason {
            Reason::Goal | Reason::OwnGoal | Reason::Stuck => {
                let found = (1..=8).any(|depth| search(&game, &mut record.turns, outcome, depth));
                assert!(found, "no short game ends {outcome}");
            }
            // A fault on the wire by the player to move: red (the starter) before any turn,
            // blue after red's first turn.
            _ if outcome.winner == Side::Blue => {}
            _ => {
                let first = game
                    .legal_turns()
                    .find(|t| game.clone().play_turn(t).is_none())
                    .expect("a turn that does not end the game");
                record.turns.push(first.into());
            }
        }
        record.result = Some(outcome);
        assert!(record.replay().is_ok(), "{record}");
        FOUND.with(|f| f.borrow_mut().insert((field, outcome), record.clone()));
        record
    }

    /// Reports game `index` as won by `winner` (a list position) for `reason`.
    fn win(league: &mut League, index: usize, winner: usize, reason: Reason) {
        let pairing = league.schedule()[index];
        let side = if pairing.red == winner {
            Side::Red
        } else {
            assert_eq!(pairing.blue, winner, "game {index} is not {winner}'s");
            Side::Blue
        };
        let record = game_ending(
            pairing.field,
            Outcome {
                winner: side,
                reason,
            },
        );
        league.report_game(index, record).unwrap();
    }

    /// Plays every game of the schedule, `decide` naming each one's winner and reason.
    fn play_all(league: &mut League, mut decide: impl FnMut(&Pairing) -> (usize, Reason)) {
        for pairing in league.schedule().to_vec() {
            let (winner, reason) = decide(&pairing);
            win(league, pairing.index, winner, reason);
        }
    }

    fn order(standings: &[Standing]) -> Vec<&str> {
        standings.iter().map(|s| s.name.as_str()).collect()
    }

    #[test]
    fn every_pair_meets_twice_per_size_each_starting_once_as_red() {
        let sizes = [field(8, 10), field(10, 8)];
        let league = League::new(names(&["a", "b", "c", "d"]), &sizes, 1).unwrap();
        let s = league.schedule();
        assert_eq!(s.len(), 2 * 6 * 2);
        for (k, p) in s.iter().enumerate() {
            assert_eq!(p.index, k);
            assert_ne!(p.red, p.blue);
            assert_eq!(p.starter(), Side::Red);
        }
        for field in sizes {
            for a in 0..4 {
                for b in 0..4 {
                    let n = s
                        .iter()
                        .filter(|p| p.field == field && p.red == a && p.blue == b)
                        .count();
                    assert_eq!(n, usize::from(a != b), "{a} red vs {b} on {field:?}");
                }
            }
        }
        // The order: sizes as given, pairs in order, the listed-first player red first.
        let first: Vec<_> = s[..6].iter().map(|p| (p.red, p.blue)).collect();
        assert_eq!(first, [(0, 1), (1, 0), (0, 2), (2, 0), (0, 3), (3, 0)]);
        assert!(s[..12].iter().all(|p| p.field == sizes[0]));
        assert!(s[12..].iter().all(|p| p.field == sizes[1]));
        assert_eq!((s[12].red, s[12].blue), (0, 1));
        assert_eq!(s[23].red, 3);
        assert_eq!(s[23].blue, 2);
    }

    #[test]
    fn bad_leagues_are_refused() {
        let f = [field(8, 10)];
        assert_eq!(
            League::new(names(&["a"]), &f, 0).unwrap_err(),
            LeagueError::TooFewPlayers(1)
        );
        assert_eq!(
            League::new(names(&["a", "b"]), &[], 0).unwrap_err(),
            LeagueError::NoSizes
        );
        assert_eq!(
            League::new(names(&["a", "b", "a"]), &f, 0).unwrap_err(),
            LeagueError::DuplicateName {
                position: 2,
                name: "a".into()
            }
        );
        assert_eq!(
            League::new(names(&["a", ""]), &f, 0).unwrap_err(),
            LeagueError::EmptyName { position: 1 }
        );
        assert!(matches!(
            League::new(names(&["a", "b"]), &[field(8, 10), field(8, 10)], 0),
            Err(LeagueError::DuplicateSize {
                width: 8,
                length: 10
            })
        ));
    }

    #[test]
    fn results_that_do_not_fit_the_game_are_refused() {
        let mut league = League::new(names(&["a", "b"]), &[field(4, 4)], 0).unwrap();
        let red_wins = Outcome {
            winner: Side::Red,
            reason: Reason::Disconnect,
        };
        let mut r = Record::new(field(4, 4), Side::Blue);
        r.result = Some(red_wins);
        assert_eq!(
            league.report_game(0, r).unwrap_err(),
            LeagueError::WrongStarter { index: 0 }
        );
        let mut r = Record::new(field(8, 10), Side::Red);
        r.result = Some(red_wins);
        assert!(matches!(
            league.report_game(0, r),
            Err(LeagueError::WrongField { index: 0, .. })
        ));
        let r = Record::new(field(4, 4), Side::Red);
        assert_eq!(
            league.report_game(0, r).unwrap_err(),
            LeagueError::Unfinished { index: 0 }
        );
        // A goal the moves do not show.
        let mut r = Record::new(field(4, 4), Side::Red);
        r.result = Some(Outcome {
            winner: Side::Red,
            reason: Reason::Goal,
        });
        assert!(matches!(
            league.report_game(0, r),
            Err(LeagueError::Replay { index: 0, .. })
        ));
        let mut r = Record::new(field(4, 4), Side::Red);
        r.result = Some(red_wins);
        assert_eq!(
            league.report_game(2, r.clone()).unwrap_err(),
            LeagueError::NoSuchGame { index: 2, games: 2 }
        );
        league.report_game(0, r.clone()).unwrap();
        assert_eq!(
            league.report_game(0, r).unwrap_err(),
            LeagueError::AlreadyPlayed { index: 0 }
        );
        assert_eq!(league.games_done(), 1);
        assert!(!league.is_complete());
    }

    #[test]
    fn points_order_the_table_and_count_every_game() {
        // a beats everyone, b beats c and d, c beats d: 6, 4, 2, 0 points.
        let mut league = League::new(names(&["d", "c", "b", "a"]), &[field(4, 4)], 3).unwrap();
        play_all(&mut league, |p| (p.red.max(p.blue), Reason::Timeout));
        assert!(league.is_complete());
        let s = league.standings();
        assert_eq!(order(&s), ["a", "b", "c", "d"]);
        assert_eq!(s.iter().map(|r| r.points).collect::<Vec<_>>(), [6, 4, 2, 0]);
        assert_eq!(s.iter().map(|r| r.place).collect::<Vec<_>>(), [1, 2, 3, 4]);
        for row in &s {
            assert_eq!(row.played, 6);
            assert_eq!(row.won + row.lost, 6);
            assert_eq!(row.tie_break, None);
            assert!(!row.lots);
        }
        // Every loss was a time-out: a fault of the loser, no goal wins.
        assert_eq!(s[3].faults, 6);
        assert_eq!(s[0].faults, 0);
        assert!(s.iter().all(|r| r.goal_wins == 0));
        assert_eq!(order(&league.podium()), ["a", "b", "c"]);
        // The crosstable: a won both games against each of the others.
        let table = league.crosstable();
        assert_eq!(table[3][0], Cell { won: 2, lost: 0 });
        assert_eq!(table[0][3], Cell { won: 0, lost: 2 });
        assert_eq!(table[1][2], Cell { won: 0, lost: 2 });
        assert_eq!(table[2][2], Cell::default());
    }

    /// Plays every game of `league` from a script per pair of players: for the pair named
    /// `(a, b)`, one letter per game of theirs in schedule order — `a`/`b`: that player wins by
    /// the opponent's own goal (no goal win, no fault); `A`/`B`: wins by a goal it scored;
    /// `s`/`t`: `a`/`b` wins because the other is stuck; `x`/`y`: `a`/`b` wins because the
    /// other timed out (a fault).
    fn play_script(league: &mut League, script: &[(&str, &str, &str)]) {
        let position = |name: &str| {
            league
                .players()
                .iter()
                .position(|p| p == name)
                .unwrap_or_else(|| panic!("no player {name}"))
        };
        let mut letters = std::collections::HashMap::new();
        for &(a, b, games) in script {
            let (a, b) = (position(a), position(b));
            letters.insert(
                (a.min(b), a.max(b)),
                (a, b, games.chars().collect::<Vec<_>>()),
            );
        }
        for pairing in league.schedule().to_vec() {
            let key = (pairing.red.min(pairing.blue), pairing.red.max(pairing.blue));
            let (a, b, games) = letters.get_mut(&key).expect("every pair is scripted");
            assert!(!games.is_empty(), "too few letters for {a} v {b}");
            let (winner, reason) = match games.remove(0) {
                'a' => (*a, Reason::OwnGoal),
                'b' => (*b, Reason::OwnGoal),
                'A' => (*a, Reason::Goal),
                'B' => (*b, Reason::Goal),
                's' => (*a, Reason::Stuck),
                't' => (*b, Reason::Stuck),
                'x' => (*a, Reason::Timeout),
                'y' => (*b, Reason::Timeout),
                c => panic!("letter {c}"),
            };
            win(league, pairing.index, winner, reason);
        }
        assert!(
            letters.values().all(|(_, _, g)| g.is_empty()),
            "letters left over"
        );
        assert!(league.is_complete());
    }

    fn row<'a>(standings: &'a [Standing], name: &str) -> &'a Standing {
        standings.iter().find(|s| s.name == name).unwrap()
    }

    #[test]
    fn head_to_head_is_computed_once_over_the_whole_group_tied_on_points() {
        // Two sizes, so each pair meets four times. A, B and C end on 6 points each:
        // among themselves A beats B 4-0 and splits 2-2 with C, B beats C 3-1: head-to-head
        // over the group is A 6, B 3, C 3. A is placed by it; B and C stay tied and go on to
        // goal wins, which C has more of. Were head-to-head applied again to B and C alone, B
        // (3-1 against C) would come first.
        let sizes = [field(4, 4), field(6, 4)];
        let mut league = League::new(names(&["A", "B", "C", "X", "Y"]), &sizes, 5).unwrap();
        play_script(
            &mut league,
            &[
                ("A", "B", "aaaa"),
                ("A", "C", "abab"),
                ("B", "C", "aaab"),
                // A wins nothing outside the group; B and C 3 of 8 each, C's by goals.
                ("A", "X", "bbbb"),
                ("A", "Y", "bbbb"),
                ("B", "X", "aaab"),
                ("B", "Y", "bbbb"),
                ("C", "X", "AAAb"),
                ("C", "Y", "bbbb"),
                ("X", "Y", "abbb"),
            ],
        );
        let s = league.standings();
        assert_eq!(order(&s), ["Y", "X", "A", "C", "B"]);
        assert_eq!(
            s.iter().map(|r| r.points).collect::<Vec<_>>(),
            [15, 7, 6, 6, 6]
        );
        assert_eq!(row(&s, "B").place, 5);
        assert_eq!(row(&s, "Y").tie_break, None);
        assert_eq!(row(&s, "X").tie_break, None);
        assert_eq!(row(&s, "A").tie_break, Some(TieBreak::HeadToHead));
        assert_eq!(row(&s, "C").tie_break, Some(TieBreak::GoalWins));
        assert_eq!(row(&s, "B").tie_break, Some(TieBreak::GoalWins));
        assert_eq!(row(&s, "C").goal_wins, 3);
        assert_eq!(row(&s, "B").goal_wins, 0);
        assert!(s.iter().all(|r| !r.lots));
        assert_eq!(order(&league.podium()), ["Y", "X", "A"]);
    }

    #[test]
    fn goal_wins_count_goals_scored_only() {
        // One game each: P scores, Q wins by P's own goal. Tied on points and head-to-head.
        let mut league = League::new(names(&["Q", "P"]), &[field(4, 4)], 0).unwrap();
        play_script(&mut league, &[("P", "Q", "Ab")]);
        let s = league.standings();
        assert_eq!(order(&s), ["P", "Q"]);
        assert_eq!((s[0].goal_wins, s[1].goal_wins), (1, 0));
        assert!(s.iter().all(|r| r.tie_break == Some(TieBreak::GoalWins)));

        // An own goal, a stuck opponent or a fault is no goal win: with P winning by Q's own
        // goal and Q by P being stuck, goal wins stay 0-0 and faults 0-0, so lots decide.
        for script in ["at", "sb", "st", "ab"] {
            let mut league = League::new(names(&["P", "Q"]), &[field(4, 4)], 0).unwrap();
            play_script(&mut league, &[("P", "Q", script)]);
            let s = league.standings();
            assert!(
                s.iter().all(|r| r.goal_wins == 0 && r.faults == 0),
                "{script}"
            );
            assert!(s.iter().all(|r| r.lots), "{script}");
        }
        // A time-out win is no goal win either; it is the loser's fault.
        let mut league = League::new(names(&["P", "Q"]), &[field(4, 4)], 0).unwrap();
        play_script(&mut league, &[("P", "Q", "xB")]);
        let s = league.standings();
        assert_eq!(order(&s), ["Q", "P"]);
        assert_eq!((s[0].goal_wins, s[1].goal_wins), (1, 0));
        assert_eq!(row(&s, "Q").faults, 1);
    }

    #[test]
    fn fewer_faults_come_next() {
        // One win each, no goals: P won when Q timed out, Q won when P was stuck. Q committed
        // the only fault, so P is first.
        let mut league = League::new(names(&["Q", "P"]), &[field(4, 4)], 0).unwrap();
        play_script(&mut league, &[("P", "Q", "xt")]);
        let s = league.standings();
        assert_eq!(order(&s), ["P", "Q"]);
        assert_eq!((row(&s, "P").faults, row(&s, "Q").faults), (0, 1));
        assert!(s.iter().all(|r| r.tie_break == Some(TieBreak::Faults)));
        assert!(s.iter().all(|r| !r.lots));
        // Every fault counts: disconnects and protocol faults too.
        for reason in [
            Reason::Disconnect,
            Reason::IllegalStep,
            Reason::IncompleteTurn,
            Reason::AfterEnd,
        ] {
            let mut league = League::new(names(&["P", "Q"]), &[field(4, 4)], 0).unwrap();
            win(&mut league, 0, 1, reason);
            win(&mut league, 1, 1, Reason::Stuck);
            let s = league.standings();
            assert_eq!(row(&s, "P").faults, 1, "{reason}");
        }
    }

    #[test]
    fn lots_are_drawn_from_the_seed_and_flagged() {
        // Four players who all win 3 of 6 the same way: every criterion ties.
        let play = |seed: u64| {
            let mut league =
                League::new(names(&["a", "b", "c", "d"]), &[field(4, 4)], seed).unwrap();
            play_script(
                &mut league,
                &[
                    ("a", "b", "st"),
                    ("a", "c", "st"),
                    ("a", "d", "st"),
                    ("b", "c", "st"),
                    ("b", "d", "st"),
                    ("c", "d", "st"),
                ],
            );
            league
        };
        let league = play(7);
        let s = league.standings();
        assert!(
            s.iter()
                .all(|r| r.lots && r.tie_break == Some(TieBreak::Lots))
        );
        assert!(s.iter().all(|r| r.points == 3));
        // The order is the tickets' order, and the same for the same seed.
        let tickets = league.tickets();
        let mut by_ticket: Vec<usize> = (0..4).collect();
        by_ticket.sort_by_key(|&p| tickets[p]);
        assert_eq!(s.iter().map(|r| r.player).collect::<Vec<_>>(), by_ticket);
        assert_eq!(play(7).standings(), s);
        // Other seeds draw other orders.
        let orders: std::collections::HashSet<Vec<usize>> = (0..20)
            .map(|seed| play(seed).standings().iter().map(|r| r.player).collect())
            .collect();
        assert!(orders.len() > 5, "{orders:?}");
        // The JSON says so on each row.
        let json = serde_json::to_value(league.report()).unwrap();
        assert_eq!(json["standings"][0]["lots"], true);
        assert_eq!(json["standings"][0]["tie_break"], "lots");
    }

    #[test]
    fn lots_only_order_those_still_tied() {
        // a and b tie on everything; c is placed by goal wins ahead of them (all on 2 points:
        // each wins one game against each other player).
        let mut league = League::new(names(&["a", "b", "c"]), &[field(4, 4)], 9).unwrap();
        play_script(
            &mut league,
            &[("a", "b", "st"), ("a", "c", "sB"), ("b", "c", "sB")],
        );
        let s = league.standings();
        assert_eq!(s[0].name, "c");
        assert_eq!(s[0].tie_break, Some(TieBreak::GoalWins));
        assert!(!s[0].lots);
        assert!(s[1..].iter().all(|r| r.lots));
        let json = serde_json::to_value(league.report()).unwrap();
        assert!(json["standings"][0].get("lots").is_none());
        assert_eq!(json["standings"][1]["lots"], true);
    }

    #[test]
    fn the_report_is_the_cli_json() {
        let mut league = League::new(names(&["eng1", "eng2"]), &[field(4, 4)], 1).unwrap();
        win(&mut league, 1, 0, Reason::Disconnect);
        let json = serde_json::to_value(league.report()).unwrap();
        assert_eq!(
            json["games"].as_array().unwrap().len(),
            1,
            "only games played"
        );
        let game = &json["games"][0];
        assert_eq!(game["red"], "eng2");
        assert_eq!(game["blue"], "eng1");
        assert_eq!(game["winner"], "blue");
        assert_eq!(game["reason"], "disconnect");
        assert_eq!(game["record"], "4x4 red: # blue disconnect");
        let first = &json["standings"][0];
        for key in [
            "place",
            "name",
            "played",
            "won",
            "lost",
            "points",
            "goal_wins",
            "faults",
        ] {
            assert!(first.get(key).is_some(), "{key}");
        }
        assert_eq!(first["name"], "eng1");
        assert_eq!(first["place"], 1);
        assert_eq!(first["points"], 1);
        assert_eq!(json["standings"][1]["faults"], 1);
        assert_eq!(json["crosstable"][0][1]["won"], 1);
    }

    #[test]
    fn game_seeds_depend_on_the_league_seed_and_the_game_only() {
        assert_eq!(game_seed(7, 3), game_seed(7, 3));
        assert_ne!(game_seed(7, 3), game_seed(7, 4));
        assert_ne!(game_seed(7, 3), game_seed(8, 3));
        let league = League::new(names(&["a", "b"]), &[field(4, 4)], 7).unwrap();
        assert_eq!(league.game_seed(1), game_seed(7, 1));
        let [red, blue] = league.player_seeds(1);
        assert_ne!(red, blue);
        assert_eq!([red, blue], player_seeds(7, 1));
        assert_ne!(player_seeds(7, 0), player_seeds(7, 1));
    }

    #[cfg(not(target_arch = "wasm32"))]
    mod properties {
        use super::*;
        use proptest::prelude::*;

        /// Some of the games of a league of `n` players on 4x4, each with a winner side and
        /// a reason (by index into [`Reason::ALL`]), or not played.
        fn results() -> impl Strategy<Value = (usize, Vec<Option<(bool, usize)>>, u64)> {
            (2usize..=5).prop_flat_map(|n| {
                let games = n * (n - 1);
                (
                    Just(n),
                    proptest::collection::vec(
                        proptest::option::of((any::<bool>(), 0..8usize)),
                        games,
                    ),
                    any::<u64>(),
                )
            })
        }

        fn build(n: usize, games: &[Option<(bool, usize)>], seed: u64, reverse: bool) -> League {
            let names = (0..n).map(|k| format!("p{k}")).collect();
            let mut league = League::new(names, &[field(4, 4)], seed).unwrap();
            let mut order: Vec<usize> = (0..games.len()).collect();
            if reverse {
                order.reverse();
            }
            for index in order {
                if let Some((red_wins, reason)) = games[index] {
                    let winner = if red_wins { Side::Red } else { Side::Blue };
                    let outcome = Outcome {
                        winner,
                        reason: Reason::ALL[reason],
                    };
                    league
                        .report_game(index, game_ending(field(4, 4), outcome))
                        .unwrap();
                }
            }
            league
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(64))]

            #[test]
            fn standings_are_a_consistent_ranking((n, games, seed) in results()) {
                let league = build(n, &games, seed, false);
                let s = league.standings();
                let played = games.iter().flatten().count() as u32;
                prop_assert_eq!(s.len(), n);
                let mut seen: Vec<usize> = s.iter().map(|r| r.player).collect();
                seen.sort();
                prop_assert_eq!(seen, (0..n).collect::<Vec<_>>());
                for (k, row) in s.iter().enumerate() {
                    prop_assert_eq!(row.place, k + 1);
                    prop_assert_eq!(row.won + row.lost, row.played);
                    prop_assert!(row.goal_wins <= row.won);
                    prop_assert!(row.faults <= row.lost);
                    prop_assert_eq!(row.lots, row.tie_break == Some(TieBreak::Lots));
                    let tied = s.iter().filter(|o| o.points == row.points).count() > 1;
                    prop_assert_eq!(row.tie_break.is_some(), tied);
                }
                prop_assert!(s.windows(2).all(|w| w[0].points >= w[1].points));
                prop_assert_eq!(s.iter().map(|r| r.won).sum::<u32>(), played);
                prop_assert_eq!(s.iter().map(|r| r.played).sum::<u32>(), 2 * played);
                // The order results arrive in changes nothing.
                prop_assert_eq!(build(n, &games, seed, true).standings(), s);
            }
        }
    }
}
