//! The contest's progress and tables: a bar per round, every pool's standings (place, points,
//! points per circuit, qualified) and the final ranking, from the engine's report.

use engine::racetrack::contest::{Contest, PoolJson, Progress, pool_json};
use engine::racetrack::pools::Separation;
use yew::prelude::*;

/// The status line and one bar per round dealt so far.
#[derive(Properties, PartialEq)]
pub struct ProgressProps {
    /// Laps known and in all, per round.
    pub rounds: Vec<(usize, usize)>,
    pub done: bool,
    pub seconds: f64,
    pub running: usize,
}

#[function_component]
pub fn Rounds(p: &ProgressProps) -> Html {
    let state = if p.done { "done" } else { "running" };
    let last = p.rounds.len();
    html! {
        <div class="contest-progress">
            <p data-testid="contest-status" data-state={state} role="status">
                { if p.done {
                    format!("The final is played ({:.1} s).", p.seconds)
                } else {
                    format!("Running: {} pilot(s) at work, {:.1} s.", p.running, p.seconds)
                } }
            </p>
            { for p.rounds.iter().enumerate().map(|(r, &(known, total))| {
                let title = if p.done && r + 1 == last {
                    "Final".to_owned()
                } else {
                    format!("Round {}", r + 1)
                };
                html! {
                    <label class="contest-round">
                        <span>{ format!("{title}: {known} / {total} laps") }</span>
                        <progress data-testid="contest-round-progress" data-round={(r + 1).to_string()}
                                  value={known.to_string()} max={total.to_string()} />
                    </label>
                }
            }) }
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct TablesProps {
    pub pools: Vec<(usize, bool, PoolJson)>,
    /// The final ranking, once played: (place, name, points).
    pub ranking: Vec<(usize, String, u32)>,
}

/// Every played pool's table, then the final ranking.
#[function_component]
pub fn Tables(p: &TablesProps) -> Html {
    html! {
        <div class="contest-tables">
            if !p.ranking.is_empty() {
                <section class="contest-ranking">
                    <h2>{ "Final ranking" }</h2>
                    <table>
                        <thead><tr><th>{ "Place" }</th><th>{ "Pilot" }</th>
                            <th>{ "Points" }</th></tr></thead>
                        <tbody>
                            { for p.ranking.iter().map(|(place, name, points)| html! {
                                <tr data-testid="standing" data-name={name.clone()}
                                    data-place={place.to_string()} data-points={points.to_string()}>
                                    <td>{ place }</td><td>{ name }</td><td>{ points }</td>
                                </tr>
                            }) }
                        </tbody>
                    </table>
                </section>
            }
            { for p.pools.iter().map(|(round, is_final, pool)| pool_table(*round, *is_final, pool)) }
        </div>
    }
}

fn pool_table(round: usize, is_final: bool, pool: &PoolJson) -> Html {
    let title = if is_final {
        "Final pool".to_owned()
    } else {
        format!("Round {round}, pool {}", pool.pool)
    };
    html! {
        <section class="contest-pool" data-testid="contest-pool" data-round={round.to_string()}
                 data-pool={pool.pool.to_string()}>
            <h3>{ title }</h3>
            <div class="table-scroll">
            <table>
                <thead><tr>
                    <th>{ "Place" }</th><th>{ "Pilot" }</th>
                    { for pool.circuits.iter().map(|c| html! { <th>{ c }</th> }) }
                    <th>{ "Points" }</th><th></th>
                </tr></thead>
                <tbody>
                    { for pool.standings.iter().map(|s| {
                        let note = match s.separation {
                            Separation::DroppedScores(n) => format!("tie broken after dropping {n} score(s)"),
                            Separation::Estimate => "tie broken by estimate".into(),
                            Separation::Tied => "tied".into(),
                            Separation::Points => String::new(),
                        };
                        html! {
                            <tr data-testid="pool-standing" data-name={s.name.clone()}
                                data-place={s.place.to_string()} data-points={s.points.to_string()}
                                data-qualified={s.qualified.to_string()}>
                                <td>{ s.place }</td><td>{ &s.name }</td>
                                { for s.laps.iter().zip(&s.circuit_points).map(|(lap, pts)| {
                                    let cell = match lap.time {
                                        Some(t) => format!("{t:.2} s · {pts}"),
                                        None => format!("{} · {pts}", lap.fault.as_deref().unwrap_or("--")),
                                    };
                                    html! { <td title={lap.verdict.clone()}>{ cell }</td> }
                                }) }
                                <td>{ s.points }</td>
                                <td>{ if s.qualified { "qualified" } else { "" } }
                                    if !note.is_empty() { <small>{ format!(" ({note})") }</small> }</td>
                            </tr>
                        }
                    }) }
                </tbody>
            </table>
            </div>
            if let Some(mean) = pool.mean_valid_time {
                <p class="contest-mean">{ format!("Mean valid lap time {mean:.2} s") }</p>
            }
        </section>
    }
}

/// The tables' rows from where the contest stands.
pub fn tables(contest: &Contest, progress: &Progress) -> TablesProps {
    let done = progress.current.is_none();
    let last = progress.played.len();
    let pools = progress
        .played
        .iter()
        .enumerate()
        .flat_map(|(r, pools)| {
            pools.iter().enumerate().map(move |(p, pool)| {
                (
                    r + 1,
                    done && r + 1 == last,
                    pool_json(contest, pool, p + 1),
                )
            })
        })
        .collect();
    let ranking = match progress.played.last() {
        Some(round) if done => round[0]
            .standings
            .iter()
            .map(|s| {
                let name = contest.entries()[round[0].members[s.member]].name.clone();
                (s.place, name, s.points)
            })
            .collect(),
        _ => Vec::new(),
    };
    TablesProps { pools, ranking }
}
