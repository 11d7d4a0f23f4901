//! The pools contest (spec §8) against the spec's examples and tie rules.

use engine::racetrack::pools::{
    ContestError, ContestReport, EntrantId, LapOutcome, PoolResults, Separation, circuit_points,
    first_round, is_operational, pool_count, qualifiers, rank_pool, run_contest, zigzag_pool,
    zigzag_round,
};

fn valid(time: f64) -> LapOutcome {
    LapOutcome::Valid { time, speed: 100.0 }
}

fn sizes(pools: &[Vec<EntrantId>]) -> Vec<usize> {
    pools.iter().map(Vec::len).collect()
}

/// Plays a contest where entrant `e` always drives a valid lap of `e + 10` seconds (lower ids
/// are faster).
fn contest_by_id(entrants: usize) -> ContestReport {
    run_contest(entrants, |_, _, members| {
        Ok::<_, ContestError>(PoolResults {
            laps: members
                .iter()
                .map(|&e| vec![valid(e as f64 + 10.0); members.len()])
                .collect(),
            estimates: vec![None; members.len()],
        })
    })
    .unwrap()
}

/// [`contest_by_id`]'s pool sizes, round by round.
fn contest_sizes(entrants: usize) -> Vec<Vec<usize>> {
    contest_by_id(entrants)
        .rounds
        .iter()
        .map(|r| r.iter().map(|p| p.members.len()).collect())
        .collect()
}

#[test]
fn pool_formation_follows_the_spec_examples() {
    assert_eq!(contest_sizes(8), vec![vec![8]]);
    assert_eq!(contest_sizes(12), vec![vec![6, 6], vec![6]]);
    assert_eq!(contest_sizes(15)[0], vec![8, 7]);
    assert_eq!(contest_sizes(15), vec![vec![8, 7], vec![8]]);
    assert_eq!(
        contest_sizes(32),
        vec![vec![11, 11, 10], vec![9, 8], vec![9]]
    );
    assert_eq!(contest_sizes(1), vec![vec![1]]);
    assert_eq!(pool_count(11), 1);
    assert_eq!(pool_count(12), 2);
    assert_eq!(pool_count(24), 3);
    assert_eq!(qualifiers(11), 6);
    assert_eq!(qualifiers(10), 5);
}

#[test]
fn first_round_deals_round_robin_in_submission_order() {
    let pools = first_round(7 + 12);
    assert_eq!(sizes(&pools), vec![10, 9]);
    assert_eq!(pools[0][..3], [0, 2, 4]);
    assert_eq!(pools[1][..3], [1, 3, 5]);
}

#[test]
fn zigzag_is_a_boustrophedon() {
    let seq: Vec<usize> = (0..9).map(|k| zigzag_pool(k, 3) + 1).collect();
    assert_eq!(seq, vec![1, 2, 3, 3, 2, 1, 1, 2, 3]);
    let pools = zigzag_round(&(100..117).collect::<Vec<_>>());
    assert_eq!(sizes(&pools), vec![9, 8]);
    assert_eq!(pools[0][..4], [100, 103, 104, 107]);
    assert_eq!(pools[1][..4], [101, 102, 105, 106]);
}

#[test]
fn qualifiers_are_the_better_half_of_each_pool_in_rank_order() {
    // 12 entrants: pools {0,2,4,6,8,10} and {1,3,5,7,9,11}; lower id is faster.
    let report = contest_by_id(12);
    assert_eq!(report.rounds[0][0].qualified, vec![0, 2, 4]);
    assert_eq!(report.rounds[0][1].qualified, vec![1, 3, 5]);
    // Zig-zag of [0,2,4,1,3,5] into one pool, then sorted by submission.
    assert_eq!(report.final_pool().members, vec![0, 1, 2, 3, 4, 5]);
    let winner = &report.final_pool().standings[0];
    assert_eq!(
        (report.final_pool().members[winner.member], winner.points),
        (0, 60)
    );
}

#[test]
fn tied_places_share_points_and_skip_the_next_places() {
    // Three tied second → 6 each, the next is fifth → 2.
    let o = [
        valid(10.0),
        valid(12.0),
        valid(12.0),
        valid(12.0),
        valid(13.0),
        LapOutcome::Invalid,
    ];
    assert_eq!(circuit_points(&o), vec![10, 6, 6, 6, 2, 0]);
    // Same time, higher speed wins; equal on both ties.
    let fast = LapOutcome::Valid {
        time: 12.0,
        speed: 120.0,
    };
    assert_eq!(
        circuit_points(&[valid(12.0), fast, valid(12.0)]),
        vec![6, 10, 6]
    );
    // Places 7.. score nothing; invalid laps score nothing even when few laps are valid.
    let many: Vec<LapOutcome> = (0..8).map(|i| valid(i as f64)).collect();
    assert_eq!(circuit_points(&many), vec![10, 6, 4, 3, 2, 1, 0, 0]);
    assert_eq!(
        circuit_points(&[LapOutcome::Invalid, valid(3.0)]),
        vec![0, 10]
    );
}

/// Builds a pool from per-circuit finishing orders given as times (None = invalid).
fn pool(times: &[&[Option<f64>]], estimates: &[Option<f64>]) -> PoolResults {
    PoolResults {
        laps: times
            .iter()
            .map(|row| {
                row.iter()
                    .map(|t| t.map_or(LapOutcome::Invalid, valid))
                    .collect()
            })
            .collect(),
        estimates: estimates.to_vec(),
    }
}

#[test]
fn equal_points_are_split_by_removing_the_lowest_non_zero_scores() {
    // Rows: pilots A, B, C; columns: circuits 0, 1, 2 (times; None = invalid lap).
    //   c0: A 1st (10), B 2nd (6), C 3rd (4)
    //   c1: A invalid (0), B 1st (10), C 2nd (6)
    //   c2: A 1st (10), C 2nd (6), B 3rd (4)
    // A = 10+0+10 = 20, B = 6+10+4 = 20, C = 16. Removing each tied pilot's lowest non-zero
    // score: A 20−10 = 10, B 20−4 = 16, so B is first.
    let results = pool(
        &[
            &[Some(1.0), None, Some(1.0)],
            &[Some(2.0), Some(1.0), Some(3.0)],
            &[Some(3.0), Some(2.0), Some(2.0)],
        ],
        &[Some(1.0), None, None],
    );
    let s = rank_pool(&results);
    let summary: Vec<(usize, usize, u32, Separation)> = s
        .iter()
        .map(|x| (x.member, x.place, x.points, x.separation))
        .collect();
    assert_eq!(
        summary,
        vec![
            (1, 1, 20, Separation::Points),
            (0, 2, 20, Separation::DroppedScores(1)),
            (2, 3, 16, Separation::Points),
        ]
    );
    assert_eq!(s[1].circuit_points, vec![10, 0, 10]);
}

#[test]
fn then_the_closest_estimate_of_the_mean_valid_time_wins() {
    // Two pilots with identical laps on both circuits: all tied on points.
    let results = pool(
        &[&[Some(10.0), Some(20.0)], &[Some(10.0), Some(20.0)]],
        &[Some(30.0), Some(16.0)],
    );
    assert_eq!(results.mean_valid_time(), Some(15.0));
    let s = rank_pool(&results);
    assert_eq!(s[0].member, 1);
    assert_eq!(s[1].separation, Separation::Estimate);
    assert_eq!((s[0].place, s[1].place), (1, 2));
    // Equal distance (or no estimates): a shared place.
    let results = pool(
        &[&[Some(10.0), Some(20.0)], &[Some(10.0), Some(20.0)]],
        &[Some(14.0), Some(16.0)],
    );
    let s = rank_pool(&results);
    assert_eq!((s[0].place, s[1].place), (1, 1));
    assert_eq!(s[1].separation, Separation::Tied);
    // A missing estimate loses to any estimate.
    let results = pool(&[&[Some(1.0)], &[Some(1.0)]], &[None, Some(99.0)]);
    assert_eq!(rank_pool(&results)[0].member, 1);
}

#[test]
fn operational_means_valid_on_at_least_seventy_percent() {
    assert!(is_operational(7, 10));
    assert!(!is_operational(6, 10));
    assert!(is_operational(3, 4));
    assert!(!is_operational(2, 3));
    assert!(!is_operational(0, 0));
}

#[test]
fn malformed_results_and_empty_contests_are_errors() {
    assert_eq!(
        run_contest(0, |_, _, _| unreachable!()),
        Err::<_, ContestError>(ContestError::NoEntrants).map(|()| unreachable!())
    );
    let err = run_contest(3, |_, _, _| {
        Ok::<_, ContestError>(PoolResults {
            laps: vec![],
            estimates: vec![],
        })
    })
    .unwrap_err();
    assert!(matches!(
        err,
        ContestError::BadResults {
            round: 1,
            pool: 1,
            ..
        }
    ));
}
