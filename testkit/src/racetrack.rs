//! A lap finder independent of the pilots: a breadth-first search over (position, velocity,
//! crossing sum), with the speed capped so the search stays small. It uses only the engine's
//! physics, so a lap it finds is judged valid exactly when the physics and the judge agree.

use engine::racetrack::physics::{self, FIRST_MOVES, Pos, START};
use engine::racetrack::{Circuit, ResultFile};

/// Largest speed per axis the search considers.
const VMAX: i32 = 4;
const NV: usize = (2 * VMAX + 1) as usize;
/// Crossing sums kept: −2..=0 (the lap ends when it reaches +1).
const NSUM: usize = 3;

fn index(p: Pos, v: Pos, sum: i32) -> usize {
    let cell = (p.y * Circuit::WIDTH + p.x) as usize;
    let vel = (v.x + VMAX) as usize * NV + (v.y + VMAX) as usize;
    (cell * NV * NV + vel) * NSUM + (sum + 2) as usize
}

fn position_of(id: usize) -> Pos {
    let cell = (id / (NV * NV * NSUM)) as i32;
    Pos::new(cell % Circuit::WIDTH, cell / Circuit::WIDTH)
}

/// The fewest-moves lap with speeds up to `VMAX`, or `None` when there is none.
pub fn find_lap(circuit: &Circuit) -> Option<Vec<Pos>> {
    let line = physics::finish_line(circuit)?;
    let n = (Circuit::WIDTH * Circuit::HEIGHT) as usize * NV * NV * NSUM;
    let mut parent = vec![u32::MAX; n];
    let mut queue = std::collections::VecDeque::new();
    let start = index(START, Pos::new(0, 0), 0);
    parent[start] = start as u32;
    // State: (position, velocity, sum, index).
    queue.push_back((START, Pos::new(0, 0), 0i32, start));
    while let Some((p, v, sum, id)) = queue.pop_front() {
        for ax in -1..=1 {
            for ay in -1..=1 {
                let nv = Pos::new(v.x + ax, v.y + ay);
                let np = Pos::new(p.x + nv.x, p.y + nv.y);
                if p == START && v == Pos::new(0, 0) && !FIRST_MOVES.contains(&np) {
                    continue;
                }
                if nv.x.abs() > VMAX || nv.y.abs() > VMAX || !Circuit::contains(np) {
                    continue;
                }
                if !physics::on_track(circuit, p, np) {
                    continue;
                }
                let nsum = sum + physics::crossing(&line, p, np);
                if nsum == 1 {
                    let mut lap = vec![np, p];
                    let mut cur = id;
                    while cur != start {
                        cur = parent[cur] as usize;
                        lap.push(position_of(cur));
                    }
                    lap.reverse();
                    return Some(lap);
                }
                if nsum < -2 {
                    continue;
                }
                let nid = index(np, nv, nsum);
                if parent[nid] == u32::MAX {
                    parent[nid] = id as u32;
                    queue.push_back((np, nv, nsum, nid));
                }
            }
        }
    }
    None
}

/// The lap as a result file.
pub fn result_file(pilot: &str, circuit: &str, lap: &[Pos]) -> ResultFile {
    ResultFile {
        pilot: pilot.to_string(),
        circuit: circuit.to_string(),
        positions: lap.to_vec(),
    }
}
