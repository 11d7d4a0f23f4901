//! The pools contest (spec §8), as pure functions over results: forming pools, scoring each
//! circuit, ranking a pool with its tie-breaks, qualifying half of it, re-dealing the qualifiers
//! in a zig-zag, and running rounds until the final pool.
//!
//! Entrants are numbered by their order of first submission (0-based [`EntrantId`]); every
//! entrant brings one circuit, so a pool's circuits are its members' circuits, in pool order.
//! Running pilots is the caller's business: [`run_contest`] asks for each pool's results
//! through a callback, so the same code serves the CLI (which runs programs) and tests.
//!
//! Project decisions where the spec is silent: an invalid lap scores 0 points and takes no
//! place (places are counted among valid laps only); pilots still tied after every tie-break
//! share their place, and the qualification cut takes the earlier submission first.

use std::cmp::Ordering;

/// An entrant, by order of first submission (0 = first).
pub type EntrantId = usize;

/// Points by place on one circuit: 10, 6, 4, 3, 2, 1, then 0.
pub const PLACE_POINTS: [u32; 6] = [10, 6, 4, 3, 2, 1];

/// Pools of the largest round a single pool holds (a round of `n ≤ 11` pilots is the final).
pub const POOL_SIZE: usize = 12;

/// A pilot's result on one circuit, as the judge gave it.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum LapOutcome {
    /// A valid lap: official time in seconds and average speed in km/h.
    Valid {
        /// Seconds.
        time: f64,
        /// km/h.
        speed: f64,
    },
    /// No valid lap (bad file, fault, did not finish, crash, over the limits…).
    Invalid,
}

impl LapOutcome {
    /// Whether the lap is valid.
    pub fn is_valid(self) -> bool {
        matches!(self, LapOutcome::Valid { .. })
    }

    /// The §5 ranking of laps on one circuit: valid before invalid, then lower time, then higher
    /// speed. `Equal` means tied.
    pub fn rank_cmp(self, other: LapOutcome) -> Ordering {
        match (self, other) {
            (
                LapOutcome::Valid {
                    time: t1,
                    speed: s1,
                },
                LapOutcome::Valid {
                    time: t2,
                    speed: s2,
                },
            ) => t1.total_cmp(&t2).then(s2.total_cmp(&s1)),
            (LapOutcome::Valid { .. }, LapOutcome::Invalid) => Ordering::Less,
            (LapOutcome::Invalid, LapOutcome::Valid { .. }) => Ordering::Greater,
            (LapOutcome::Invalid, LapOutcome::Invalid) => Ordering::Equal,
        }
    }
}

/// Why a contest cannot run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ContestError {
    /// Nobody entered.
    #[error("a contest needs at least one entrant")]
    NoEntrants,
    /// A pool's results do not match its members.
    #[error("round {round}, pool {pool}: {what}")]
    BadResults {
        /// Round, 1-based.
        round: usize,
        /// Pool, 1-based.
        pool: usize,
        /// What is wrong.
        what: String,
    },
}

/// Number of pools for a round of `pilots`: `1 + ⌊pilots / 12⌋`.
pub fn pool_count(pilots: usize) -> usize {
    1 + pilots / POOL_SIZE
}

/// How many of a pool of `size` qualify: half, rounded up.
pub fn qualifiers(size: usize) -> usize {
    size.div_ceil(2)
}

/// Whether a pilot with `valid` valid laps out of `given` circuits is operational (≥ 70 %).
pub fn is_operational(valid: usize, given: usize) -> bool {
    given > 0 && valid * 10 >= given * 7
}

/// The first round: entrants dealt round-robin into [`pool_count`] pools in submission order
/// (1st → pool 1, 2nd → pool 2, …, wrapping around).
pub fn first_round(entrants: usize) -> Vec<Vec<EntrantId>> {
    let mut pools = vec![Vec::new(); pool_count(entrants)];
    let p = pools.len();
    for e in 0..entrants {
        pools[e % p].push(e);
    }
    pools
}

/// The pool (0-based) of the `k`-th pilot (0-based) in a zig-zag over `pools` pools:
/// 1, 2, …, P, P, …, 2, 1, 1, 2, … (a boustrophedon).
pub fn zigzag_pool(k: usize, pools: usize) -> usize {
    let i = k % (2 * pools);
    if i < pools { i } else { 2 * pools - 1 - i }
}

/// The next round: `qualified` lists pool 1's qualifiers in rank order, then pool 2's, …; they
/// are re-dealt in a zig-zag into [`pool_count`] pools.
pub fn zigzag_round(qualified: &[EntrantId]) -> Vec<Vec<EntrantId>> {
    let p = pool_count(qualified.len());
    let mut pools = vec![Vec::new(); p];
    for (k, &e) in qualified.iter().enumerate() {
        pools[zigzag_pool(k, p)].push(e);
    }
    pools
}

/// Points of each pilot on one circuit (index-aligned with `outcomes`). Tied pilots get the
/// points of their shared place and the next places are skipped; invalid laps get 0.
pub fn circuit_points(outcomes: &[LapOutcome]) -> Vec<u32> {
    outcomes
        .iter()
        .map(|&mine| {
            if !mine.is_valid() {
                return 0;
            }
            let ahead = outcomes
                .iter()
                .filter(|o| o.rank_cmp(mine) == Ordering::Less)
                .count();
            PLACE_POINTS.get(ahead).copied().unwrap_or(0)
        })
        .collect()
}

/// A pool's results: `laps[i][j]` is member `i`'s outcome on member `j`'s circuit, and
/// `estimates[i]` member `i`'s advance estimate of the pool's mean valid lap time (seconds).
#[derive(Clone, Debug, PartialEq)]
pub struct PoolResults {
    /// Square matrix, members × circuits.
    pub laps: Vec<Vec<LapOutcome>>,
    /// One per member; `None` ranks after any estimate in the last tie-break.
    pub estimates: Vec<Option<f64>>,
}

impl PoolResults {
    /// The mean of every valid lap time in the pool, if any lap is valid.
    pub fn mean_valid_time(&self) -> Option<f64> {
        let times: Vec<f64> = self
            .laps
            .iter()
            .flatten()
            .filter_map(|o| match o {
                LapOutcome::Valid { time, .. } => Some(*time),
                LapOutcome::Invalid => None,
            })
            .collect();
        (!times.is_empty()).then(|| times.iter().sum::<f64>() / times.len() as f64)
    }
}

/// What finally separated a pilot from the one ranked just above it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Separation {
    /// First of the pool, or more points than the pilot above.
    Points,
    /// Equal points, separated after removing the lowest non-zero circuit scores this many times.
    DroppedScores(usize),
    /// Still equal: the estimate closer to the pool's mean valid lap time decided.
    Estimate,
    /// Nothing separated them: they share a place.
    Tied,
}

/// One line of a pool's table.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Standing {
    /// Index of the member in the pool (its row in [`PoolResults::laps`]).
    pub member: usize,
    /// 1-based place; tied pilots share it.
    pub place: usize,
    /// Total points.
    pub points: u32,
    /// Points per circuit (index-aligned with the pool's circuits).
    pub circuit_points: Vec<u32>,
    /// How this pilot was separated from the one above.
    pub separation: Separation,
}

/// Ranks a pool: total points, then the spec's tie-breaks. Returns the standings in rank order
/// (ties in member order).
pub fn rank_pool(results: &PoolResults) -> Vec<Standing> {
    let members = results.laps.len();
    // Points per circuit (columns), then transposed to points per member.
    let columns: Vec<Vec<u32>> = (0..members)
        .map(|circuit| {
            let column: Vec<LapOutcome> = results
                .laps
                .iter()
                .map(|row| row.get(circuit).copied().unwrap_or(LapOutcome::Invalid))
                .collect();
            circuit_points(&column)
        })
        .collect();
    let per_member: Vec<Vec<u32>> = (0..members)
        .map(|m| columns.iter().map(|column| column[m]).collect())
        .collect();
    let mean = results.mean_valid_time();
    let gap = |m: usize| -> Option<f64> {
        Some((results.estimates.get(m).copied().flatten()? - mean?).abs())
    };
    // Scores still in play per member for the removal tie-break (non-zero, ascending).
    let remaining: Vec<Vec<u32>> = per_member
        .iter()
        .map(|s| {
            let mut v: Vec<u32> = s.iter().copied().filter(|&p| p > 0).collect();
            v.sort_unstable();
            v
        })
        .collect();
    // Comparison key: total, then the sequence of totals after each removal, then the estimate.
    let totals: Vec<u32> = per_member.iter().map(|s| s.iter().sum()).collect();
    let after_removals = |m: usize| -> Vec<u32> {
        let mut total = totals[m];
        remaining[m]
            .iter()
            .map(|&p| {
                total -= p;
                total
            })
            .collect()
    };
    let compare = |a: usize, b: usize| -> (Ordering, Separation) {
        let by_points = totals[b].cmp(&totals[a]);
        if by_points != Ordering::Equal {
            return (by_points, Separation::Points);
        }
        // Equal totals and equal removals so far give equal remaining totals, so both run out
        // of non-zero scores together.
        let (ra, rb) = (after_removals(a), after_removals(b));
        for (round, (x, y)) in ra.iter().zip(&rb).enumerate() {
            if x != y {
                return (y.cmp(x), Separation::DroppedScores(round + 1));
            }
        }
        let by_estimate = match (gap(a), gap(b)) {
            (Some(x), Some(y)) => x.total_cmp(&y),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        };
        if by_estimate != Ordering::Equal {
            (by_estimate, Separation::Estimate)
        } else {
            (Ordering::Equal, Separation::Tied)
        }
    };
    let mut order: Vec<usize> = (0..members).collect();
    order.sort_by(|&a, &b| compare(a, b).0.then(a.cmp(&b)));
    let mut standings: Vec<Standing> = Vec::with_capacity(members);
    for (i, &m) in order.iter().enumerate() {
        let (place, separation) = match i {
            0 => (1, Separation::Points),
            _ => {
                let above = &standings[i - 1];
                match compare(order[i - 1], m) {
                    (Ordering::Equal, _) => (above.place, Separation::Tied),
                    (_, how) => (i + 1, how),
                }
            }
        };
        standings.push(Standing {
            member: m,
            place,
            points: totals[m],
            circuit_points: per_member[m].clone(),
            separation,
        });
    }
    standings
}

/// A played pool: its members (entrant ids, in pool order), results and standings.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedPool {
    /// Entrants, in pool order (rows and circuits of the results).
    pub members: Vec<EntrantId>,
    /// What the pilots did.
    pub results: PoolResults,
    /// The table, in rank order.
    pub standings: Vec<Standing>,
    /// The entrants who go on to the next round, in rank order (empty for the final).
    pub qualified: Vec<EntrantId>,
}

/// A whole contest: every round's pools; the last round holds the single final pool.
#[derive(Clone, Debug, PartialEq)]
pub struct ContestReport {
    /// Rounds in order; each a list of pools.
    pub rounds: Vec<Vec<PlayedPool>>,
}

impl ContestReport {
    /// The final pool, whose ranking is the contest's.
    pub fn final_pool(&self) -> &PlayedPool {
        &self.rounds.last().expect("a contest has a round")[0]
    }
}

/// Plays one round: `play(pool, members)` (pool 1-based) must return each pool's results;
/// they are checked, ranked and, unless `last` (the final), the qualifiers are taken.
pub fn play_round<E>(
    round: usize,
    pools: &[Vec<EntrantId>],
    last: bool,
    mut play: impl FnMut(usize, &[EntrantId]) -> Result<PoolResults, E>,
) -> Result<Vec<PlayedPool>, E>
where
    E: From<ContestError>,
{
    let mut played = Vec::with_capacity(pools.len());
    for (p, members) in pools.iter().enumerate() {
        let results = play(p + 1, members)?;
        let n = members.len();
        if results.laps.len() != n
            || results.laps.iter().any(|row| row.len() != n)
            || results.estimates.len() != n
        {
            return Err(ContestError::BadResults {
                round,
                pool: p + 1,
                what: format!("expected a {n} × {n} table and {n} estimates"),
            }
            .into());
        }
        let standings = rank_pool(&results);
        let qualified = if last {
            Vec::new()
        } else {
            standings
                .iter()
                .take(qualifiers(n))
                .map(|s| members[s.member])
                .collect()
        };
        played.push(PlayedPool {
            members: members.clone(),
            results,
            standings,
            qualified,
        });
    }
    Ok(played)
}

/// The pools of the round after `played` (a round's pools, in order): its qualifiers dealt in a
/// zig-zag, each pool's members in submission order (which orders ties).
pub fn next_round(played: &[PlayedPool]) -> Vec<Vec<EntrantId>> {
    let next: Vec<EntrantId> = played.iter().flat_map(|p| p.qualified.clone()).collect();
    let mut pools = zigzag_round(&next);
    pools.iter_mut().for_each(|p| p.sort_unstable());
    pools
}

/// Runs a contest of `entrants` entrants: `play(round, pool, members)` (round and pool 1-based)
/// must return the pool's results; rounds go on until one with a single pool (the final).
pub fn run_contest<E>(
    entrants: usize,
    mut play: impl FnMut(usize, usize, &[EntrantId]) -> Result<PoolResults, E>,
) -> Result<ContestReport, E>
where
    E: From<ContestError>,
{
    if entrants == 0 {
        return Err(ContestError::NoEntrants.into());
    }
    let mut rounds = Vec::new();
    let mut pools = first_round(entrants);
    loop {
        let round = rounds.len() + 1;
        let last = pools.len() == 1;
        let played = play_round(round, &pools, last, |pool, members| {
            play(round, pool, members)
        })?;
        pools = next_round(&played);
        rounds.push(played);
        if last {
            return Ok(ContestReport { rounds });
        }
    }
}
