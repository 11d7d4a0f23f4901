//! The league's progress and tables, drawn from the engine's report: standings, crosstable and
//! the games played (each with a link to its review on the soccer page).

use std::rc::Rc;

use engine::soccer::league::Report;
use yew::prelude::*;

/// The progress bar and the status line (`data-state` running or done).
#[derive(Properties, PartialEq)]
pub struct ProgressProps {
    pub done: usize,
    pub total: usize,
    pub running: bool,
    pub seconds: f64,
}

#[function_component]
pub fn Progress(p: &ProgressProps) -> Html {
    let state = if p.running { "running" } else { "done" };
    html! {
        <div class="league-progress">
            <progress data-testid="league-progress" value={p.done.to_string()}
                      max={p.total.max(1).to_string()} />
            <p data-testid="league-status" data-state={state}>
                { format!("{} of {} games played{}", p.done, p.total,
                    if p.running { String::new() } else { format!(" in {:.1} s", p.seconds) }) }
            </p>
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct TablesProps {
    pub report: Rc<Report>,
    pub running: Vec<usize>,
}

/// The standings, the crosstable (in standings order) and the games played.
#[function_component]
pub fn Tables(p: &TablesProps) -> Html {
    let report = &p.report;
    let names: Vec<&str> = report.standings.iter().map(|s| s.name.as_str()).collect();
    let replay = |record: &str| {
        format!(
            "#/soccer?record={}",
            String::from(js_sys::encode_uri_component(record))
        )
    };
    html! {
        <>
        <table class="league-standings">
            <thead><tr><th>{ "Place" }</th><th>{ "Player" }</th><th>{ "Played" }</th>
                <th>{ "Won" }</th><th>{ "Lost" }</th><th>{ "Points" }</th>
                <th>{ "Goal wins" }</th><th>{ "Faults" }</th><th>{ "Tie-break" }</th></tr></thead>
            <tbody>
            { for report.standings.iter().map(|s| html! {
                <tr data-testid="league-standing" data-name={s.name.clone()}
                    data-place={s.place.to_string()} data-points={s.points.to_string()}>
                    <td>{ s.place }</td><td>{ &s.name }</td><td>{ s.played }</td>
                    <td>{ s.won }</td><td>{ s.lost }</td><td>{ s.points }</td>
                    <td>{ s.goal_wins }</td><td>{ s.faults }</td>
                    <td>{ s.tie_break.map(|t| t.name()).unwrap_or("") }</td>
                </tr>
            }) }
            </tbody>
        </table>
        <table class="league-crosstable" data-testid="league-crosstable">
            <thead><tr><th></th>{ for names.iter().map(|n| html! { <th>{ *n }</th> }) }</tr></thead>
            <tbody>
            { for report.crosstable.iter().zip(&names).map(|(row, name)| html! {
                <tr><th>{ *name }</th>
                { for row.iter().zip(&names).map(|(cell, other)| if other == name {
                    html! { <td class="self">{ "—" }</td> }
                } else {
                    html! { <td>{ format!("{}–{}", cell.won, cell.lost) }</td> }
                }) }
                </tr>
            }) }
            </tbody>
        </table>
        if !p.running.is_empty() {
            <p data-testid="league-running">{ format!("Playing game{} {}",
                if p.running.len() == 1 { "" } else { "s" },
                p.running.iter().map(|i| (i + 1).to_string()).collect::<Vec<_>>().join(", ")) }</p>
        }
        <ol class="league-games">
        { for report.games.iter().map(|g| html! {
            <li data-testid="league-game" data-record={g.record.clone()}
                data-winner={g.winner.name()} data-reason={g.reason.to_string()}
                value={(g.game + 1).to_string()}>
                { format!("{} – {} on {}: {} {} ", g.red, g.blue, g.size, g.winner.name(), g.reason) }
                <a href={replay(&g.record)} data-testid="league-replay">{ "replay" }</a>
            </li>
        }) }
        </ol>
        </>
    }
}
