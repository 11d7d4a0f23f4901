//! The race replay of the contest page: every known lap on one entrant's circuit, drawn with
//! the pilot lab's painter.

use yew::NodeRef;

use crate::canvas::{Surface, annotate};
use crate::contest::running::Shared;
use crate::lab::draw::{self, Scene};
use crate::lab::lap::JudgedLap;
use crate::zoom::{Stage, View};

/// The replay: which entrant's circuit, the step shown, and whether it plays.
#[derive(Clone, Copy, PartialEq)]
pub(crate) struct ReplayState {
    pub(crate) owner: usize,
    pub(crate) step: usize,
    pub(crate) playing: bool,
}

/// Paints every known lap on the chosen circuit, at the replay's step; `true` when the replay
/// reached its end and stopped (the page must show it).
pub(crate) fn draw_replay(canvas: &NodeRef, run: &Shared, replay: &mut ReplayState) -> bool {
    let guard = run.borrow();
    let Some(r) = guard.as_ref() else {
        return false;
    };
    let Some(circuit) = r.session.circuit(replay.owner) else {
        return false;
    };
    let Some((element, surface)) = Surface::prepare_node(canvas) else {
        return false;
    };
    let laps: Vec<(usize, JudgedLap)> = r.session.laps_on(replay.owner);
    let last = laps
        .iter()
        .map(|(_, l)| l.positions.len().saturating_sub(1))
        .max()
        .unwrap_or(0);
    let step = replay.step.min(last);
    let stopped = replay.playing && step >= last;
    if stopped {
        replay.playing = false;
    }
    let stage = Stage {
        width: surface.width,
        height: surface.height,
        ratio: surface.ratio,
        cols: 150,
        rows: 100,
        closest: 64.0,
        farthest: 1.0,
    };
    let view = View::fit(stage);
    let scene = Scene {
        circuit,
        laps: laps.iter().map(|(pilot, lap)| (*pilot, lap)).collect(),
        step,
        focus: None,
    };
    draw::paint(&surface, &scene, view, surface.ratio);
    annotate(
        &element,
        "circuit",
        &r.session.plan().entrants[replay.owner].circuit.name,
    );
    annotate(&element, "laps", laps.len());
    annotate(&element, "step", step);
    stopped
}
