//! Pilots: programs that drive a lap of a circuit (spec §3, §5 and §7).
//!
//! * `optimal` — a provably time-optimal lap: fewest moves, then the smallest final fraction
//!   `f`, found by A* over `(position, velocity, crossing count)` with an admissible
//!   heuristic (`bounds`, built on the chain-walk model of `field`).
//! * `demo` — the deliberately slow, cautious pilot of the original kit (DEMO_2CV): it never
//!   goes faster than one cell per move, so it finishes on every conforming circuit.
//! * `bfs::plain_bfs` — a plain breadth-first search over the same states: the reference that
//!   tests and benchmarks compare `optimal` with.
//!
//! The optimal search's data structures: `table` (its dense record of states, with the proof
//! that velocities stay within ±16 × ±13) and `clearance` (the collision walk's shortcut).
//!
//! All of them share one state space (`model`) whose only physics are the referee's own
//! functions ([`physics::on_track`], [`physics::crossing`]): no rule is written twice.

pub(crate) mod bfs;
pub(crate) mod bounds;
pub(crate) mod clearance;
pub(crate) mod demo;
pub(crate) mod field;
mod gates;
pub(crate) mod model;
pub(crate) mod optimal;
mod statemap;
pub(crate) mod table;
pub(crate) mod wavefront;

/// The searches' internals, for the benchmarks and the differential tests (`engine/benches`,
/// `engine/tests`) only: not part of the API, and free to change with any commit. Everything a
/// program needs is [`Pilot`], [`Lap`] and [`PilotError`].
#[doc(hidden)]
pub mod bench {
    pub mod bfs {
        pub use crate::racetrack::pilot::bfs::*;
    }
    pub mod bounds {
        pub use crate::racetrack::pilot::bounds::*;
    }
    pub mod demo {
        pub use crate::racetrack::pilot::demo::*;
    }
    pub mod field {
        pub use crate::racetrack::pilot::field::*;
    }
    pub mod model {
        pub use crate::racetrack::pilot::model::*;
    }
    pub mod optimal {
        pub use crate::racetrack::pilot::optimal::*;
    }
    pub mod wavefront {
        pub use crate::racetrack::pilot::wavefront::*;
    }
}

use std::cmp::Ordering;
use std::fmt;

use super::Circuit;
use super::physics::{self, FINISH_X, Pos};

/// Why a pilot could not produce a lap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PilotError {
    /// The start point (40,4) is not track, so there is no finish line and no first move.
    #[error("the start point (40,4) is not track: the circuit has no finish line")]
    NoFinishLine,
    /// Every reachable state was searched and none finishes a lap.
    #[error("no lap exists on this circuit")]
    NoLap,
}

/// The built-in pilots, by the name the CLI and the app use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Pilot {
    /// The time-optimal pilot (`optimal::solve`).
    Optimal,
    /// The slow demo pilot (`demo::drive`).
    Demo,
}

impl Pilot {
    /// Every built-in pilot.
    pub const ALL: [Pilot; 2] = [Pilot::Optimal, Pilot::Demo];

    /// The pilot's name: `"optimal"` or `"demo"`.
    pub fn name(self) -> &'static str {
        match self {
            Pilot::Optimal => "optimal",
            Pilot::Demo => "demo",
        }
    }

    /// The pilot called `name`, if any.
    pub fn from_name(name: &str) -> Option<Pilot> {
        Pilot::ALL.into_iter().find(|p| p.name() == name)
    }

    /// Drives a lap of `circuit`.
    pub fn fly(self, circuit: &Circuit) -> Result<Lap, PilotError> {
        match self {
            Pilot::Optimal => optimal::solve(circuit),
            Pilot::Demo => demo::drive(circuit),
        }
    }
}

impl fmt::Display for Pilot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The fraction `f = (40 − x_prev) / (x_last − x_prev)` of the finishing move, kept exact so
/// that two laps of the same length compare without rounding. Always in `(0, 1]`.
#[derive(Clone, Copy, Debug, Eq)]
pub struct Fraction {
    num: u32,
    den: u32,
}

impl Fraction {
    /// The fraction of the finishing move `prev → last` (left of the line to right of it), or
    /// `None` when that move does not go from `x < 40` to `x ≥ 40`.
    pub fn of_finish(prev: Pos, last: Pos) -> Option<Fraction> {
        let num = FINISH_X - prev.x;
        let den = last.x.checked_sub(prev.x)?;
        (num > 0 && den >= num).then_some(Fraction {
            num: num as u32,
            den: den as u32,
        })
    }

    /// Numerator `40 − x_prev`.
    pub fn numerator(self) -> u32 {
        self.num
    }

    /// Denominator `x_last − x_prev`.
    pub fn denominator(self) -> u32 {
        self.den
    }

    /// As a float, for display and for the stopwatch.
    pub fn value(self) -> f64 {
        f64::from(self.num) / f64::from(self.den)
    }
}

impl PartialEq for Fraction {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Ord for Fraction {
    fn cmp(&self, other: &Self) -> Ordering {
        (u64::from(self.num) * u64::from(other.den))
            .cmp(&(u64::from(other.num) * u64::from(self.den)))
    }
}

impl PartialOrd for Fraction {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// A lap's official time as an exact pair: `(moves − 1) + f`. Ordered as the stopwatch orders
/// times (fewer moves first, then the smaller fraction).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct LapTime {
    /// Number of moves `n ≥ 1`.
    pub moves: u32,
    /// The fraction of the last move before the line.
    pub fraction: Fraction,
}

impl LapTime {
    /// Seconds, as [`physics::lap_time`] computes them.
    pub fn seconds(self) -> f64 {
        physics::lap_time(self.moves as usize, self.fraction.value())
    }
}

impl fmt::Display for LapTime {
    /// Seconds to the hundredth, as TESTF1 shows them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.2} s", self.seconds())
    }
}

/// A finished lap: the positions `p0 = (40,4), p1, …, pn`, the last move being the one that
/// finishes (spec §5). Built by the pilots, whose searches guarantee that shape, or read back
/// (serde, [`TryFrom`]) from positions whose last move is such a crossing. It travels as its
/// positions (between the app and its worker), its time derived again on arrival.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(into = "Vec<Pos>", try_from = "Vec<Pos>")]
pub struct Lap {
    positions: Vec<Pos>,
    time: LapTime,
}

impl Lap {
    /// Builds a lap from positions whose last move crosses the line left to right.
    /// `None` when there is no move or the last move is not such a crossing.
    fn new(positions: Vec<Pos>) -> Option<Lap> {
        let n = positions.len().checked_sub(1).filter(|&n| n >= 1)?;
        let fraction = Fraction::of_finish(positions[n - 1], positions[n])?;
        let time = LapTime {
            moves: u32::try_from(n).ok()?,
            fraction,
        };
        Some(Lap { positions, time })
    }

    /// `p0..pn`.
    pub fn positions(&self) -> &[Pos] {
        &self.positions
    }

    /// Number of moves `n`.
    pub fn moves(&self) -> usize {
        self.positions.len() - 1
    }

    /// The exact official time.
    pub fn time(&self) -> LapTime {
        self.time
    }

    /// The official time in seconds to the hundredth, as TESTF1 shows it: `"52.38"`.
    pub fn time_shown(&self) -> String {
        format!("{:.2}", self.time.seconds())
    }

    /// The result file (spec §4): pilot name, circuit file name, then one `x,y` per line,
    /// CRLF line endings like the original DOS tools.
    pub fn to_f1(&self, pilot: &str, circuit_file: &str) -> String {
        let mut out = String::new();
        for line in [pilot, circuit_file] {
            out.push_str(line);
            out.push_str("\r\n");
        }
        for p in &self.positions {
            out.push_str(&format!("{},{}\r\n", p.x, p.y));
        }
        out
    }
}

impl From<Lap> for Vec<Pos> {
    fn from(lap: Lap) -> Vec<Pos> {
        lap.positions
    }
}

impl TryFrom<Vec<Pos>> for Lap {
    type Error = &'static str;

    /// The lap of `positions`, if it has a move and its last move crosses the finish line
    /// left to right.
    fn try_from(positions: Vec<Pos>) -> Result<Lap, Self::Error> {
        Lap::new(positions).ok_or("the last move does not cross the finish line")
    }
}

/// Runs `search` on the track of `circuit`, counting its work: the shared body of the exact
/// searches' `solve_with_stats`.
fn with_stats(
    circuit: &Circuit,
    search: impl FnOnce(&model::Track, &mut SearchStats) -> Result<Lap, PilotError>,
) -> (Result<Lap, PilotError>, SearchStats) {
    let mut stats = SearchStats::default();
    let result = model::Track::new(circuit).and_then(|track| search(&track, &mut stats));
    (result, stats)
}

/// How much a search worked, for benchmarks and curiosity.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// States whose moves were generated.
    pub expanded: u64,
    /// States stored (visited set size).
    pub stored: u64,
}

/// The states a search has stored, each with the state it was reached from, so that a lap can
/// be read back from its last state.
#[derive(Default)]
struct Trail {
    keys: Vec<u64>,
    parents: Vec<u32>,
}

impl Trail {
    /// Stores `state`, reached from entry `parent` (`u32::MAX` for the start); answers its index.
    fn push(&mut self, state: model::State, parent: u32) -> u32 {
        self.keys.push(state.key());
        self.parents.push(parent);
        (self.keys.len() - 1) as u32
    }

    fn len(&self) -> usize {
        self.keys.len()
    }

    fn state(&self, i: u32) -> model::State {
        model::State::from_key(self.keys[i as usize])
    }

    /// The lap through entry `last` and then the finishing move to `to`.
    fn lap(&self, last: u32, to: Pos) -> Lap {
        let mut positions = vec![to];
        let mut i = last;
        while i != u32::MAX {
            positions.push(self.state(i).pos);
            i = self.parents[i as usize];
        }
        positions.reverse();
        Lap::new(positions).expect("a search only stores laps that end by crossing the line")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fractions_compare_exactly() {
        let half = Fraction::of_finish(Pos::new(38, 4), Pos::new(42, 4)).unwrap();
        let also_half = Fraction::of_finish(Pos::new(39, 4), Pos::new(41, 4)).unwrap();
        let third = Fraction::of_finish(Pos::new(39, 4), Pos::new(42, 4)).unwrap();
        assert_eq!(half, also_half);
        assert!(third < half);
        assert_eq!(half.value(), 0.5);
        assert!(Fraction::of_finish(Pos::new(40, 4), Pos::new(42, 4)).is_none());
        assert!(Fraction::of_finish(Pos::new(38, 4), Pos::new(39, 4)).is_none());
        let short = LapTime {
            moves: 3,
            fraction: half,
        };
        let long = LapTime {
            moves: 4,
            fraction: third,
        };
        assert!(short < long);
        assert_eq!(short.to_string(), "2.50 s");
    }

    #[test]
    fn laps_write_result_files() {
        let lap = Lap::new(vec![Pos::new(40, 4), Pos::new(39, 4), Pos::new(40, 4)]).unwrap();
        assert_eq!(lap.moves(), 2);
        assert_eq!(
            lap.to_f1("demo", "ring.cir"),
            "demo\r\nring.cir\r\n40,4\r\n39,4\r\n40,4\r\n"
        );
        assert!(Lap::new(vec![Pos::new(40, 4)]).is_none());
    }

    #[test]
    fn laps_travel_as_their_positions_and_are_checked_on_arrival() {
        let lap = Lap::new(vec![Pos::new(40, 4), Pos::new(38, 4), Pos::new(41, 4)]).unwrap();
        assert_eq!(lap.time_shown(), "1.67");
        let json = serde_json::to_string(&lap).unwrap();
        assert_eq!(json, serde_json::to_string(lap.positions()).unwrap());
        assert_eq!(serde_json::from_str::<Lap>(&json).unwrap(), lap);
        let stuck = serde_json::to_string(&[Pos::new(40, 4), Pos::new(41, 4)]).unwrap();
        assert!(serde_json::from_str::<Lap>(&stuck).is_err());
        assert_eq!(
            Lap::try_from(Vec::new()),
            Err("the last move does not cross the finish line")
        );
    }

    #[test]
    fn pilots_by_name() {
        for p in Pilot::ALL {
            assert_eq!(Pilot::from_name(p.name()), Some(p));
        }
        assert_eq!(Pilot::from_name("2cv"), None);
    }
}
