//! The judge and official stopwatch (spec §5, the original TESTF1): a lap is either valid, with
//! its time and average speed, or names its first fault.

use std::fmt;

use super::Circuit;
use super::f1::{F1Error, ResultFile};
use super::physics::{self, FinishLine, Pos, START};

/// A valid lap and its stopwatch figures.
#[derive(serde::Serialize, serde::Deserialize)] // the app's worker sends it
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ValidLap {
    /// Number of moves `n` (positions − 1); the last one is the finishing move.
    pub moves: usize,
    /// The part of the last move before the line, `0 < f ≤ 1`.
    pub fraction: f64,
    /// `(n − 1) + f` seconds.
    pub time: f64,
    /// Distance driven up to the line, in metres.
    pub distance_m: f64,
    /// Average speed, km/h.
    pub speed_kmh: f64,
}

impl ValidLap {
    /// The time as the spec shows it, to the hundredth: `"56.42"`.
    pub fn time_shown(&self) -> String {
        format!("{:.2}", self.time)
    }

    /// The average speed as the spec shows it, to one decimal: `"123.4"`.
    pub fn speed_shown(&self) -> String {
        format!("{:.1}", self.speed_kmh)
    }
}

/// The kinds of fault, in the words of the CLI's JSON (`"fault": "collision"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FaultKind {
    Syntax,
    Start,
    FirstMove,
    Acceleration,
    OffGrid,
    Collision,
    AfterFinish,
    DidNotFinish,
}

impl FaultKind {
    /// `"syntax"`, `"start"`, `"first_move"`, `"acceleration"`, `"off_grid"`, `"collision"`,
    /// `"after_finish"` or `"did_not_finish"`.
    pub fn as_str(self) -> &'static str {
        match self {
            FaultKind::Syntax => "syntax",
            FaultKind::Start => "start",
            FaultKind::FirstMove => "first_move",
            FaultKind::Acceleration => "acceleration",
            FaultKind::OffGrid => "off_grid",
            FaultKind::Collision => "collision",
            FaultKind::AfterFinish => "after_finish",
            FaultKind::DidNotFinish => "did_not_finish",
        }
    }
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The first fault of a lap. Moves are numbered from 1: move `k` goes from position `k − 1` to
/// position `k`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The result file could not be read.
    Syntax(F1Error),
    /// The first position is not (40,4) (`found` is `None` when there is no position at all).
    Start { found: Option<Pos> },
    /// **Decision:** move 1 must go to (41,3), (41,4) or (41,5).
    FirstMove { to: Pos },
    /// Move `step` leaves the 3 × 3 box `lo..=hi` the previous velocity allows.
    Acceleration {
        step: usize,
        from: Pos,
        to: Pos,
        lo: Pos,
        hi: Pos,
    },
    /// Move `step` ends outside the 150 × 100 grid.
    OffGrid { step: usize, from: Pos, to: Pos },
    /// Move `step` fails the collision test; `hit` is the first cell that makes it fail.
    Collision {
        step: usize,
        from: Pos,
        to: Pos,
        hit: Pos,
    },
    /// Move `step` comes after move `finished`, which finished the lap.
    AfterFinish { step: usize, finished: usize },
    /// The file ends with move `step` (0 if it has only the start) before the lap is finished.
    DidNotFinish { step: usize },
}

impl Fault {
    pub fn kind(&self) -> FaultKind {
        match self {
            Fault::Syntax(_) => FaultKind::Syntax,
            Fault::Start { .. } => FaultKind::Start,
            Fault::FirstMove { .. } => FaultKind::FirstMove,
            Fault::Acceleration { .. } => FaultKind::Acceleration,
            Fault::OffGrid { .. } => FaultKind::OffGrid,
            Fault::Collision { .. } => FaultKind::Collision,
            Fault::AfterFinish { .. } => FaultKind::AfterFinish,
            Fault::DidNotFinish { .. } => FaultKind::DidNotFinish,
        }
    }

    /// The move the fault names (`start` names move 0); `None` for a syntax error, which names
    /// a line instead.
    pub fn step(&self) -> Option<usize> {
        match *self {
            Fault::Syntax(_) => None,
            Fault::Start { .. } => Some(0),
            Fault::FirstMove { .. } => Some(1),
            Fault::Acceleration { step, .. }
            | Fault::OffGrid { step, .. }
            | Fault::Collision { step, .. }
            | Fault::AfterFinish { step, .. }
            | Fault::DidNotFinish { step } => Some(step),
        }
    }

    /// The line of a syntax error.
    pub fn line(&self) -> Option<usize> {
        match self {
            Fault::Syntax(e) => Some(e.line()),
            _ => None,
        }
    }
}

impl fmt::Display for Fault {
    /// The reason in the spec's terms, e.g. `move 12: (61,9) → (66,13) hits the decor at (64,11)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Syntax(e) => write!(f, "syntax error: {e}"),
            Fault::Start { found: None } => {
                write!(
                    f,
                    "wrong start: the file has no position, a lap starts at {START}"
                )
            }
            Fault::Start { found: Some(p) } => {
                write!(
                    f,
                    "wrong start: the lap starts at {p}, it must start at {START}"
                )
            }
            Fault::FirstMove { to } => write!(
                f,
                "move 1: {START} → {to}: the first move must go to (41,3), (41,4) or (41,5)"
            ),
            Fault::Acceleration {
                step,
                from,
                to,
                lo,
                hi,
            } => write!(
                f,
                "move {step}: {from} → {to}: illegal acceleration, the position must lie in the \
                 box x {}..{}, y {}..{} around ({},{})",
                lo.x,
                hi.x,
                lo.y,
                hi.y,
                lo.x as i64 + 1,
                lo.y as i64 + 1
            ),
            Fault::OffGrid { step, from, to } => {
                write!(f, "move {step}: {from} → {to} goes off the 150 × 100 grid")
            }
            Fault::Collision {
                step,
                from,
                to,
                hit,
            } => {
                write!(f, "move {step}: {from} → {to} leaves the track at {hit}")
            }
            Fault::AfterFinish { step, finished } => write!(
                f,
                "move {step}: positions after the finish (the lap was finished by move {finished})"
            ),
            Fault::DidNotFinish { step } => write!(
                f,
                "did not finish: the file ends after move {step} without completing the lap"
            ),
        }
    }
}

/// The judge's answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    Valid(ValidLap),
    Invalid(Fault),
}

impl Verdict {
    pub fn is_valid(&self) -> bool {
        matches!(self, Verdict::Valid(_))
    }

    pub fn lap(&self) -> Option<&ValidLap> {
        match self {
            Verdict::Valid(lap) => Some(lap),
            Verdict::Invalid(_) => None,
        }
    }

    pub fn fault(&self) -> Option<&Fault> {
        match self {
            Verdict::Valid(_) => None,
            Verdict::Invalid(fault) => Some(fault),
        }
    }
}

/// Reads and judges a result file's bytes on a circuit: a file that cannot be read gets a
/// `syntax` fault naming its line.
pub fn judge_bytes(circuit: &Circuit, bytes: &[u8]) -> Verdict {
    match ResultFile::parse(bytes) {
        Ok(file) => judge(circuit, &file),
        Err(e) => Verdict::Invalid(Fault::Syntax(e)),
    }
}

/// Judges a result file on a circuit (the circuit name written in the file is not checked: the
/// caller chose the circuit).
pub fn judge(circuit: &Circuit, file: &ResultFile) -> Verdict {
    judge_positions(circuit, &file.positions)
}

/// Judges a lap given as positions `p0..pn`.
///
/// Each move is checked in the order of spec §5: acceleration, first move, grid, collision; a
/// move that breaks several rules is reported for the first of them. After each legal move the
/// counted crossings of the finish line are summed; the lap ends with the first move that
/// brings the sum to +1, which must be the last position.
pub fn judge_positions(circuit: &Circuit, positions: &[Pos]) -> Verdict {
    match run(circuit, positions) {
        Ok(lap) => Verdict::Valid(lap),
        Err(fault) => Verdict::Invalid(fault),
    }
}

fn run(circuit: &Circuit, positions: &[Pos]) -> Result<ValidLap, Fault> {
    match positions.first() {
        Some(&p) if p == START => {}
        other => {
            return Err(Fault::Start {
                found: other.copied(),
            });
        }
    }
    let line: Option<FinishLine> = physics::finish_line(circuit);
    let mut sum = 0;
    for step in 1..positions.len() {
        let (from, to) = (positions[step - 1], positions[step]);
        let prev = if step >= 2 { positions[step - 2] } else { from };
        if !physics::acceleration_ok(prev, from, to) {
            let (lo, hi) = physics::allowed_box(prev, from);
            return Err(Fault::Acceleration {
                step,
                from,
                to,
                lo,
                hi,
            });
        }
        if step == 1 && !physics::FIRST_MOVES.contains(&to) {
            return Err(Fault::FirstMove { to });
        }
        if !Circuit::contains(to) {
            return Err(Fault::OffGrid { step, from, to });
        }
        if let Some(hit) = physics::first_blocked(circuit, from, to) {
            return Err(Fault::Collision {
                step,
                from,
                to,
                hit,
            });
        }
        if let Some(line) = &line {
            sum += physics::crossing(line, from, to);
        }
        if sum == 1 {
            if step + 1 < positions.len() {
                return Err(Fault::AfterFinish {
                    step: step + 1,
                    finished: step,
                });
            }
            let fraction = physics::finish_fraction(from, to);
            let time = physics::lap_time(step, fraction);
            let distance_m = physics::lap_distance_m(positions, fraction);
            let speed_kmh = physics::speed_kmh(distance_m, time);
            return Ok(ValidLap {
                moves: step,
                fraction,
                time,
                distance_m,
                speed_kmh,
            });
        }
    }
    Err(Fault::DidNotFinish {
        step: positions.len() - 1,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rectangular ring: track x 10..=139, y 2..=95, infield x 16..=133, y 8..=89.
    fn ring() -> Circuit {
        let mut c = Circuit::filled(b'C').unwrap();
        for y in 2..=95 {
            for x in 10..=139 {
                let inside = (16..=133).contains(&x) && (8..=89).contains(&y);
                c.set(Pos::new(x, y), if inside { b'K' } else { b' ' })
                    .unwrap();
            }
        }
        c
    }

    fn p(x: i32, y: i32) -> Pos {
        Pos::new(x, y)
    }

    /// Drives `velocities` from the start, returning the positions.
    fn drive(velocities: &[(i32, i32)]) -> Vec<Pos> {
        let mut out = vec![START];
        let mut cur = START;
        for &(vx, vy) in velocities {
            cur = p(cur.x + vx, cur.y + vy);
            out.push(cur);
        }
        out
    }

    /// A slow but legal clockwise lap of the ring: speed at most 2 cells a move.
    fn slow_lap() -> Vec<Pos> {
        let mut v = vec![(1, 0), (2, 0)];
        // along the top from x=43 to x=135, then stop
        v.extend(std::iter::repeat_n((2, 0), 45)); // x = 133
        v.extend([(1, 0), (0, 0), (0, 1), (0, 2)]); // (134,4) → (134,7)
        v.extend(std::iter::repeat_n((0, 2), 41)); // y = 89
        v.extend([(0, 1), (0, 0), (-1, 0), (-2, 0)]); // (131,90)
        v.extend(std::iter::repeat_n((-2, 0), 59)); // x = 13
        v.extend([(-1, 0), (0, 0), (0, -1), (0, -2)]); // (12,87)
        v.extend(std::iter::repeat_n((0, -2), 41)); // y = 5
        v.extend([(0, -1), (1, 0), (2, 0)]); // (15,4)
        v.extend(std::iter::repeat_n((2, 0), 12)); // x = 39
        v.push((2, 0)); // x = 41: crosses
        drive(&v)
    }

    #[test]
    fn a_full_clockwise_lap_is_valid_and_timed() {
        let lap_positions = slow_lap();
        let verdict = judge_positions(&ring(), &lap_positions);
        let lap = verdict
            .lap()
            .copied()
            .unwrap_or_else(|| panic!("{:?}", verdict));
        let n = lap_positions.len() - 1;
        assert_eq!(lap.moves, n);
        // last move 39 → 41 is cut at half.
        assert_eq!(lap.fraction, 0.5);
        assert_eq!(lap.time, n as f64 - 0.5);
        let cells: f64 = lap_positions
            .windows(2)
            .map(|w| physics::move_length(w[0], w[1]))
            .sum();
        assert!((lap.distance_m - 10.0 * (cells - 1.0)).abs() < 1e-9);
        assert!((lap.speed_kmh - lap.distance_m / lap.time * 3.6).abs() < 1e-9);
        assert_eq!(lap.time_shown(), format!("{}.50", n - 1));
    }

    #[test]
    fn positions_after_the_finish() {
        let mut l = slow_lap();
        let finishing = l.len() - 1;
        l.push(p(43, 4));
        let v = judge_positions(&ring(), &l);
        assert_eq!(
            v.fault(),
            Some(&Fault::AfterFinish {
                step: finishing + 1,
                finished: finishing
            })
        );
    }

    #[test]
    fn did_not_finish_names_the_last_move() {
        let mut l = slow_lap();
        l.pop();
        let v = judge_positions(&ring(), &l);
        assert_eq!(v.fault(), Some(&Fault::DidNotFinish { step: l.len() - 1 }));
        assert_eq!(v.fault().unwrap().kind().as_str(), "did_not_finish");
        let v = judge_positions(&ring(), &[START]);
        assert_eq!(v.fault(), Some(&Fault::DidNotFinish { step: 0 }));
    }

    #[test]
    fn backing_over_the_line_and_returning_is_worth_nothing() {
        // Right, back left over the line (−1), right again (+1 → sum 0): not finished.
        let l = vec![
            START,
            p(41, 4),
            p(41, 4),
            p(40, 4),
            p(38, 4),
            p(37, 4),
            p(37, 4),
            p(38, 4),
            p(40, 4),
            p(42, 4),
        ];
        let v = judge_positions(&ring(), &l);
        assert_eq!(v.fault(), Some(&Fault::DidNotFinish { step: 9 }));
    }

    #[test]
    fn start_and_first_move() {
        let c = ring();
        assert_eq!(
            judge_positions(&c, &[]).fault(),
            Some(&Fault::Start { found: None })
        );
        let v = judge_positions(&c, &[p(41, 4)]);
        assert_eq!(
            v.fault(),
            Some(&Fault::Start {
                found: Some(p(41, 4))
            })
        );
        assert_eq!(v.fault().unwrap().step(), Some(0));
        let v = judge_positions(&c, &[START, p(39, 4)]);
        assert_eq!(v.fault(), Some(&Fault::FirstMove { to: p(39, 4) }));
        let v = judge_positions(&c, &[START, p(40, 4)]);
        assert_eq!(v.fault().map(Fault::kind), Some(FaultKind::FirstMove));
    }

    #[test]
    fn fault_precedence_acceleration_first_move_grid_collision() {
        let c = ring();
        // Both a bad acceleration and a bad first move: acceleration wins.
        let v = judge_positions(&c, &[START, p(38, 4)]);
        let fault = v.fault().unwrap();
        assert_eq!(fault.kind(), FaultKind::Acceleration);
        assert_eq!(
            fault,
            &Fault::Acceleration {
                step: 1,
                from: START,
                to: p(38, 4),
                lo: p(39, 3),
                hi: p(41, 5)
            }
        );
        assert!(
            fault.to_string().contains("box x 39..41, y 3..5"),
            "{fault}"
        );
        // Off the grid (and so off the track too): off_grid wins over collision.
        let mut open = Circuit::filled(b' ').unwrap();
        open.set(Pos::new(0, 0), b'A').unwrap();
        let l = vec![START, p(41, 3), p(42, 1), p(43, -2)];
        let v = judge_positions(&open, &l);
        assert_eq!(
            v.fault(),
            Some(&Fault::OffGrid {
                step: 3,
                from: p(42, 1),
                to: p(43, -2)
            })
        );
        assert!(physics::first_blocked(&open, p(42, 1), p(43, -2)).is_some());
    }

    #[test]
    fn off_grid_and_collision_name_the_move() {
        let c = ring();
        // Straight up from (41,4): (41,1) hits decor at (41,1).
        let l = drive(&[(1, 0), (0, -1), (0, -2)]);
        let v = judge_positions(&c, &l);
        assert_eq!(
            v.fault(),
            Some(&Fault::Collision {
                step: 3,
                from: p(41, 3),
                to: p(41, 1),
                hit: p(41, 1)
            })
        );
        assert_eq!(
            v.fault().unwrap().to_string(),
            "move 3: (41,3) → (41,1) leaves the track at (41,1)"
        );
        // Going up fast enough to leave the grid: (41,4) → (41,3) → (41,1) → (41,-2).
        let l = vec![START, p(41, 4), p(41, 3), p(41, 1), p(41, -2)];
        let v = judge_positions(&c, &l);
        // move 3 already collides
        assert_eq!(v.fault().unwrap().step(), Some(3));
        let mut open = Circuit::filled(b' ').unwrap();
        open.set(Pos::new(0, 0), b'A').unwrap();
        let v = judge_positions(&open, &l);
        assert_eq!(
            v.fault(),
            Some(&Fault::OffGrid {
                step: 4,
                from: p(41, 1),
                to: p(41, -2)
            })
        );
    }

    #[test]
    fn syntax_faults_carry_the_line() {
        let v = judge_bytes(&ring(), b"me\nring.cir\n40,4\nfoo\n");
        let fault = v.fault().unwrap();
        assert_eq!(fault.kind(), FaultKind::Syntax);
        assert_eq!(fault.line(), Some(4));
        assert_eq!(fault.step(), None);
    }

    #[test]
    fn absurd_coordinates_do_not_overflow() {
        let l = vec![
            START,
            p(41, 4),
            p(i32::MAX, i32::MIN),
            p(i32::MIN, i32::MAX),
        ];
        let v = judge_positions(&ring(), &l);
        assert_eq!(v.fault().map(Fault::kind), Some(FaultKind::Acceleration));
    }
}
