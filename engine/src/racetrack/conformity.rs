//! Conformity of a circuit (spec §2, the original VERIFCIR): every violated rule, each with its
//! number, a plain-language reason and the offending cells.

use std::fmt;

use super::physics::{self, FinishLine, Pos};
use super::{Circuit, CircuitError};

/// The five rules of spec §2, numbered as there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rule {
    /// 1: exactly 150 × 100 (a shape error of the file).
    Size = 1,
    /// 2: no track on the outermost rows and columns.
    Border = 2,
    /// 3: the start zone x 20..=59, y 2..=6 is all track.
    StartZone = 3,
    /// 4: one loop around one infield, no islands, no unreachable track, and the finish line
    /// cuts the loop.
    Loop = 4,
    /// 5: the track is at least two cells wide.
    Width = 5,
}

impl Rule {
    /// The rule's number in the spec, 1..=5.
    pub fn number(self) -> u8 {
        self as u8
    }

    /// A short name.
    pub fn title(self) -> &'static str {
        match self {
            Rule::Size => "size",
            Rule::Border => "closed border",
            Rule::StartZone => "start zone",
            Rule::Loop => "one loop, no islands",
            Rule::Width => "width of at least 2",
        }
    }
}

/// One problem found: the rule it breaks, why, and where. A rule can be broken in several
/// distinct ways (rule 4: islands, unreachable track, a start zone off the loop), each its own
/// violation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    pub rule: Rule,
    /// A plain-language reason, naming counts and places.
    pub message: String,
    /// The offending cells (at least one), in reading order. A cell may lie just outside the
    /// grid for a shape error.
    pub cells: Vec<Pos>,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "rule {} ({}): {}",
            self.rule.number(),
            self.rule.title(),
            self.message
        )
    }
}

impl From<&CircuitError> for Violation {
    /// A file of the wrong shape breaks rule 1 at the place the error names.
    fn from(err: &CircuitError) -> Violation {
        Violation {
            rule: Rule::Size,
            message: err.to_string(),
            cells: vec![err.cell()],
        }
    }
}

/// The outcome of a conformity check.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Every violation, in rule order; empty when the circuit conforms.
    pub violations: Vec<Violation>,
}

impl Report {
    /// Whether no rule is broken.
    pub fn is_conforming(&self) -> bool {
        self.violations.is_empty()
    }

    /// The distinct rules broken, in order.
    pub fn rules(&self) -> Vec<Rule> {
        let mut rules: Vec<Rule> = self.violations.iter().map(|v| v.rule).collect();
        rules.dedup();
        rules
    }
}

/// Checks a `.cir` file from its bytes: a file that does not even have the right shape is
/// reported as a single rule-1 violation (nothing else can be checked on it).
pub fn check_bytes(bytes: &[u8]) -> Report {
    match Circuit::parse(bytes) {
        Ok(c) => check(&c),
        Err(e) => Report {
            violations: vec![Violation::from(&e)],
        },
    }
}

/// What each cell of the grid is, topologically.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Region {
    Track,
    /// Decor connected to the edge of the grid (the grid is taken as surrounded by decor).
    Outer,
    /// The one decor component inside the loop.
    Infield,
    /// Any other enclosed decor component.
    Island,
}

/// The decor components of a circuit and which one is the infield: the basis of rules 4 and 5,
/// also useful to an editor that wants to colour them.
#[derive(Clone, Debug)]
pub struct Topology {
    /// Decor component of each cell, row-major; `NONE` for track.
    labels: Vec<u32>,
    outer: Vec<bool>,
    infield: Option<u32>,
    /// One cell (the first in reading order) of each decor component.
    first_cell: Vec<Pos>,
}

const NONE: u32 = u32::MAX;

fn neighbours8(p: Pos) -> impl Iterator<Item = Pos> {
    (-1..=1).flat_map(move |dy| {
        (-1..=1)
            .filter(move |&dx| dx != 0 || dy != 0)
            .map(move |dx| Pos::new(p.x + dx, p.y + dy))
    })
}

fn all_cells() -> impl Iterator<Item = Pos> {
    (0..Circuit::HEIGHT).flat_map(|y| (0..Circuit::WIDTH).map(move |x| Pos::new(x, y)))
}

fn idx(p: Pos) -> usize {
    (p.y * Circuit::WIDTH + p.x) as usize
}

/// Labels the 8-connected components of the cells where `member` holds. Returns the labels
/// (`NONE` elsewhere) and the first cell of each component.
fn label(circuit: &Circuit, member: impl Fn(u8) -> bool) -> (Vec<u32>, Vec<Pos>) {
    let mut labels = vec![NONE; circuit.cells().len()];
    let mut firsts = Vec::new();
    let mut stack = Vec::new();
    for p in all_cells() {
        if labels[idx(p)] != NONE || !member(circuit.cell(p)) {
            continue;
        }
        let id = firsts.len() as u32;
        firsts.push(p);
        labels[idx(p)] = id;
        stack.push(p);
        while let Some(q) = stack.pop() {
            for n in neighbours8(q) {
                if Circuit::contains(n) && labels[idx(n)] == NONE && member(circuit.cell(n)) {
                    labels[idx(n)] = id;
                    stack.push(n);
                }
            }
        }
    }
    (labels, firsts)
}

impl Topology {
    /// Analyses the decor of a circuit. The infield is the largest enclosed decor component
    /// (the first in reading order on a tie); any other enclosed component is an island. The
    /// finish-line rule then checks that the start zone lies between the outer decor and it.
    pub fn of(circuit: &Circuit) -> Topology {
        let (labels, first_cell) = label(circuit, |b| b != Circuit::TRACK);
        let mut outer = vec![false; first_cell.len()];
        let mut size = vec![0usize; first_cell.len()];
        for p in all_cells() {
            let l = labels[idx(p)];
            if l == NONE {
                continue;
            }
            size[l as usize] += 1;
            if p.x == 0 || p.y == 0 || p.x == Circuit::WIDTH - 1 || p.y == Circuit::HEIGHT - 1 {
                outer[l as usize] = true;
            }
        }
        let infield = (0..first_cell.len() as u32)
            .filter(|&l| !outer[l as usize])
            .max_by_key(|&l| (size[l as usize], std::cmp::Reverse(l)));
        Topology {
            labels,
            outer,
            infield,
            first_cell,
        }
    }

    /// The region of a cell; outside the grid is outer decor.
    pub fn region(&self, p: Pos) -> Region {
        if !Circuit::contains(p) {
            return Region::Outer;
        }
        match self.labels[idx(p)] {
            NONE => Region::Track,
            l if self.outer[l as usize] => Region::Outer,
            l if Some(l) == self.infield => Region::Infield,
            _ => Region::Island,
        }
    }

    /// Whether an infield was found.
    pub fn has_infield(&self) -> bool {
        self.infield.is_some()
    }

    /// One cell of each island (enclosed decor other than the infield), in reading order.
    pub fn islands(&self) -> Vec<Pos> {
        (0..self.first_cell.len())
            .filter(|&l| !self.outer[l] && Some(l as u32) != self.infield)
            .map(|l| self.first_cell[l])
            .collect()
    }
}

/// Checks all the rules of spec §2 on a circuit (which has the right size by construction, so
/// rule 1 holds) and reports every violation.
pub fn check(circuit: &Circuit) -> Report {
    let mut violations = Vec::new();
    violations.extend(border(circuit));
    violations.extend(start_zone(circuit));
    let topo = Topology::of(circuit);
    violations.extend(one_loop(circuit, &topo));
    violations.extend(width(circuit, &topo));
    Report { violations }
}

fn border(circuit: &Circuit) -> Option<Violation> {
    let cells: Vec<Pos> = all_cells()
        .filter(|p| p.x == 0 || p.y == 0 || p.x == Circuit::WIDTH - 1 || p.y == Circuit::HEIGHT - 1)
        .filter(|&p| circuit.is_track(p))
        .collect();
    (!cells.is_empty()).then(|| Violation {
        rule: Rule::Border,
        message: format!(
            "{} track cell{} on the edge of the grid (row 0, row 99, column 0 or column 149), \
             first at {}: the border must be closed",
            cells.len(),
            plural(cells.len()),
            cells[0]
        ),
        cells,
    })
}

fn start_zone(circuit: &Circuit) -> Option<Violation> {
    let cells: Vec<Pos> = (2..=6)
        .flat_map(|y| (20..=59).map(move |x| Pos::new(x, y)))
        .filter(|&p| !circuit.is_track(p))
        .collect();
    (!cells.is_empty()).then(|| Violation {
        rule: Rule::StartZone,
        message: format!(
            "{} cell{} of the start zone (x 20..59, y 2..6) {} not track, first at {}",
            cells.len(),
            plural(cells.len()),
            if cells.len() == 1 { "is" } else { "are" },
            cells[0]
        ),
        cells,
    })
}

fn one_loop(circuit: &Circuit, topo: &Topology) -> Vec<Violation> {
    let mut out = Vec::new();
    if !topo.has_infield() {
        out.push(Violation {
            rule: Rule::Loop,
            message: format!(
                "no infield: no decor is enclosed by the track, so there is no loop to drive \
                 around from the start {}",
                physics::START
            ),
            cells: vec![physics::START],
        });
    }
    let islands = topo.islands();
    if !islands.is_empty() {
        out.push(Violation {
            rule: Rule::Loop,
            message: format!(
                "{} island{} of decor enclosed by the track besides the infield, at {}",
                islands.len(),
                plural(islands.len()),
                list(&islands)
            ),
            cells: islands,
        });
    }
    let (track, firsts) = label(circuit, |b| b == Circuit::TRACK);
    if firsts.len() > 1 {
        let main = if circuit.is_track(physics::START) {
            track[idx(physics::START)]
        } else {
            let mut size = vec![0usize; firsts.len()];
            track
                .iter()
                .filter(|&&l| l != NONE)
                .for_each(|&l| size[l as usize] += 1);
            (0..firsts.len() as u32)
                .max_by_key(|&l| (size[l as usize], std::cmp::Reverse(l)))
                .unwrap_or(0)
        };
        let cells: Vec<Pos> = all_cells()
            .filter(|&p| track[idx(p)] != NONE && track[idx(p)] != main)
            .collect();
        let others: Vec<Pos> = (0..firsts.len() as u32)
            .filter(|&l| l != main)
            .map(|l| firsts[l as usize])
            .collect();
        out.push(Violation {
            rule: Rule::Loop,
            message: format!(
                "unreachable track: {} separate patch{} of track ({} cell{}) cannot be reached \
                 from the start, at {}",
                others.len(),
                if others.len() == 1 { "" } else { "es" },
                cells.len(),
                plural(cells.len()),
                list(&others)
            ),
            cells,
        });
    }
    if let (Some(line), true) = (physics::finish_line(circuit), topo.has_infield()) {
        let above = Pos::new(FinishLine::X, line.top - 1);
        let below = Pos::new(FinishLine::X, line.bottom + 1);
        let (ra, rb) = (topo.region(above), topo.region(below));
        let cut = matches!(
            (ra, rb),
            (Region::Outer, Region::Infield) | (Region::Infield, Region::Outer)
        );
        if !cut {
            let mut cells: Vec<Pos> = [above, below]
                .into_iter()
                .filter(|&p| Circuit::contains(p))
                .collect();
            if cells.is_empty() {
                cells.push(physics::START);
            }
            let name = |r: Region| match r {
                Region::Outer => "outer decor",
                Region::Infield => "the infield",
                Region::Island => "an island",
                Region::Track => "track",
            };
            out.push(Violation {
                rule: Rule::Loop,
                message: format!(
                    "the start zone is not on the loop: the finish line (column 40, rows {}..{}) \
                     must run from the outer decor to the infield, but above it is {} (at \
                     {above}) and below it is {} (at {below})",
                    line.top,
                    line.bottom,
                    name(ra),
                    name(rb)
                ),
                cells,
            });
        }
    }
    out
}

fn width(circuit: &Circuit, topo: &Topology) -> Option<Violation> {
    if !topo.has_infield() {
        return None;
    }
    let cells: Vec<Pos> = all_cells()
        .filter(|&p| circuit.is_track(p))
        .filter(|&p| {
            let mut outer = false;
            let mut infield = false;
            for n in neighbours8(p) {
                match topo.region(n) {
                    Region::Outer => outer = true,
                    Region::Infield => infield = true,
                    _ => {}
                }
            }
            outer && infield
        })
        .collect();
    (!cells.is_empty()).then(|| Violation {
        rule: Rule::Width,
        message: format!(
            "the track is only one cell wide at {} cell{} (touching both the outer decor and the \
             infield), first at {}",
            cells.len(),
            plural(cells.len()),
            cells[0]
        ),
        cells,
    })
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Up to five cells, then an ellipsis.
fn list(cells: &[Pos]) -> String {
    let mut s: Vec<String> = cells.iter().take(5).map(|p| p.to_string()).collect();
    if cells.len() > 5 {
        s.push(format!("… ({} more)", cells.len() - 5));
    }
    s.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::racetrack::samples::SAMPLES;

    /// A rectangular ring: track band x 10..=139, y 2..=95, six cells wide, around an infield.
    fn ring() -> Circuit {
        let mut c = Circuit::filled(b'C').unwrap();
        rect(&mut c, 10, 2, 139, 95, b' ');
        rect(&mut c, 16, 8, 133, 89, b'K');
        c
    }

    fn rect(c: &mut Circuit, x0: i32, y0: i32, x1: i32, y1: i32, ch: u8) {
        for y in y0..=y1 {
            for x in x0..=x1 {
                c.set(Pos::new(x, y), ch).unwrap();
            }
        }
    }

    fn rules(c: &Circuit) -> Vec<u8> {
        check(c).rules().into_iter().map(Rule::number).collect()
    }

    #[test]
    fn the_plain_ring_conforms() {
        let report = check(&ring());
        assert!(report.is_conforming(), "{:?}", report);
        let topo = Topology::of(&ring());
        assert_eq!(topo.region(Pos::new(50, 50)), Region::Infield);
        assert_eq!(topo.region(Pos::new(0, 0)), Region::Outer);
        assert_eq!(topo.region(Pos::new(-5, 0)), Region::Outer);
        assert_eq!(topo.region(Pos::new(12, 50)), Region::Track);
    }

    #[test]
    fn samples_conform_or_break_their_rule() {
        for s in SAMPLES {
            let report = check_bytes(s.text.as_bytes());
            assert_eq!(
                report.is_conforming(),
                s.conforming,
                "{}: {:?}",
                s.name,
                report
            );
            if let Some(rule) = s.name.strip_prefix("bad_") {
                let expected = match rule {
                    "size" => 1,
                    "border" => 2,
                    "start" => 3,
                    "islands" => 4,
                    "width" => 5,
                    other => panic!("unknown sample {other}"),
                };
                let found: Vec<u8> = report.rules().into_iter().map(Rule::number).collect();
                assert!(found.contains(&expected), "{}: {:?}", s.name, found);
            }
        }
    }

    #[test]
    fn rule_1_from_a_shape_error() {
        let report = check_bytes(b"   \r\n");
        assert_eq!(report.rules(), vec![Rule::Size]);
        assert_eq!(report.violations[0].cells, vec![Pos::new(3, 0)]);
        assert!(report.violations[0].message.contains("line 1"));
    }

    #[test]
    fn rule_2_border() {
        let mut c = ring();
        rect(&mut c, 0, 50, 9, 51, b' ');
        let report = check(&c);
        assert_eq!(rules(&c), vec![2]);
        assert_eq!(
            report.violations[0].cells,
            vec![Pos::new(0, 50), Pos::new(0, 51)]
        );
    }

    #[test]
    fn rule_3_start_zone() {
        let mut c = ring();
        // Both cells touch the outer decor, so they are not islands.
        c.set(Pos::new(59, 2), b'P').unwrap();
        c.set(Pos::new(20, 2), b'A').unwrap();
        let report = check(&c);
        assert_eq!(rules(&c), vec![3]);
        assert_eq!(
            report.violations[0].cells,
            vec![Pos::new(20, 2), Pos::new(59, 2)]
        );
        // A decor cell in the middle of the zone is also an island (rule 4).
        c.set(Pos::new(40, 6), b'P').unwrap();
        assert_eq!(rules(&c), vec![3, 4]);
        assert!(
            report.violations[0]
                .message
                .starts_with("2 cells of the start zone")
        );
    }

    #[test]
    fn rule_4_no_infield() {
        let c = Circuit::blank();
        let report = check(&c);
        assert_eq!(rules(&c), vec![4]);
        assert!(report.violations[0].message.starts_with("no infield"));
    }

    #[test]
    fn rule_4_islands_each_with_a_cell() {
        let mut c = ring();
        rect(&mut c, 70, 92, 71, 93, b'B');
        rect(&mut c, 136, 40, 137, 40, b'B');
        let report = check(&c);
        assert_eq!(rules(&c), vec![4]);
        assert_eq!(
            report.violations[0].cells,
            vec![Pos::new(136, 40), Pos::new(70, 92)]
        );
        assert!(report.violations[0].message.starts_with("2 islands"));
    }

    #[test]
    fn the_infield_is_the_largest_enclosed_decor() {
        // A wide top straight with a small island right under the start zone: the island is
        // the island (and the finish line does not reach the infield), not the infield.
        let mut c = Circuit::filled(b'C').unwrap();
        rect(&mut c, 10, 2, 139, 95, b' ');
        rect(&mut c, 16, 14, 133, 89, b'K');
        rect(&mut c, 39, 8, 41, 9, b'B');
        let report = check(&c);
        assert_eq!(rules(&c), vec![4]);
        assert_eq!(report.violations[0].cells, vec![Pos::new(39, 8)]);
        assert!(
            report.violations[1]
                .message
                .contains("below it is an island")
        );
        assert_eq!(Topology::of(&c).region(Pos::new(50, 50)), Region::Infield);
    }

    #[test]
    fn rule_4_unreachable_track() {
        let mut c = ring();
        rect(&mut c, 60, 40, 61, 40, b' ');
        let report = check(&c);
        assert_eq!(rules(&c), vec![4]);
        assert_eq!(
            report.violations[0].cells,
            vec![Pos::new(60, 40), Pos::new(61, 40)]
        );
        assert!(
            report.violations[0]
                .message
                .starts_with("unreachable track")
        );
    }

    /// The loop is lower down; the start zone hangs above it on a stalk west of column 40.
    fn start_zone_off_the_loop() -> Circuit {
        let mut c = Circuit::filled(b'C').unwrap();
        rect(&mut c, 10, 20, 139, 95, b' ');
        rect(&mut c, 16, 26, 133, 89, b'K');
        rect(&mut c, 20, 2, 59, 6, b' ');
        rect(&mut c, 20, 7, 25, 19, b' ');
        c
    }

    #[test]
    fn rule_4_start_zone_off_the_loop() {
        let c = start_zone_off_the_loop();
        let report = check(&c);
        assert_eq!(rules(&c), vec![4]);
        let v = &report.violations[0];
        assert!(
            v.message.starts_with("the start zone is not on the loop"),
            "{}",
            v.message
        );
        assert_eq!(v.cells, vec![Pos::new(40, 1), Pos::new(40, 7)]);
    }

    #[test]
    fn rule_5_width() {
        let mut c = ring();
        // Make the right-hand side a single column (x = 139) between rows 40 and 45.
        rect(&mut c, 134, 40, 138, 45, b'K');
        let report = check(&c);
        assert_eq!(rules(&c), vec![5]);
        assert!(report.violations[0].cells.contains(&Pos::new(139, 42)));
        // Two wide is enough.
        let mut c = ring();
        rect(&mut c, 134, 40, 137, 45, b'K');
        assert!(check(&c).is_conforming());
    }

    /// The spec asks each reported violation for a plain-language reason *and* an offending
    /// cell: the text a user reads (the CLI's text mode, the editor's list) names one too.
    #[test]
    fn every_message_names_one_of_its_cells() {
        let off_loop = start_zone_off_the_loop();
        let mut broken = ring();
        rect(&mut broken, 0, 50, 9, 50, b' ');
        broken.set(Pos::new(30, 4), b'A').unwrap();
        rect(&mut broken, 70, 92, 71, 93, b'B');
        rect(&mut broken, 134, 40, 138, 45, b'K');
        rect(&mut broken, 60, 40, 61, 40, b' ');
        let mut circuits = vec![Circuit::blank(), off_loop, broken];
        circuits.extend(
            SAMPLES
                .iter()
                .filter_map(|s| Circuit::parse(s.text.as_bytes()).ok()),
        );
        let mut seen = 0;
        for c in &circuits {
            for v in check(c).violations {
                seen += 1;
                assert!(
                    v.cells.iter().any(|p| v.message.contains(&p.to_string())),
                    "{v}: names none of {:?}",
                    &v.cells[..v.cells.len().min(3)]
                );
            }
        }
        assert!(seen >= 7, "{seen}");
    }

    #[test]
    fn every_broken_rule_is_reported() {
        let mut c = ring();
        rect(&mut c, 0, 50, 9, 50, b' ');
        c.set(Pos::new(30, 4), b'A').unwrap();
        rect(&mut c, 70, 92, 71, 93, b'B');
        rect(&mut c, 134, 40, 138, 45, b'K');
        assert_eq!(rules(&c), vec![2, 3, 4, 5]);
    }
}
