//! The circuit being edited, with unlimited undo and redo.
//!
//! Edits are grouped into *strokes* (one pointer press to release, one fill, one paste…): a
//! stroke is one undo step however many cells it touched. Each step stores only the cells it
//! changed, before and after, so a long session costs memory in proportion to what was painted.

use engine::racetrack::{Circuit, Pos};

/// One cell changed by a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Change {
    x: u8,
    y: u8,
    before: u8,
    after: u8,
}

/// One undo step: the cells it changed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Step {
    changes: Vec<Change>,
}

impl Step {
    fn apply(&self, circuit: &mut Circuit, forward: bool) {
        for c in &self.changes {
            let ch = if forward { c.after } else { c.before };
            // Every change was a successful `set`, so it applies again.
            let _ = circuit.set(Pos::new(i32::from(c.x), i32::from(c.y)), ch);
        }
    }
}

/// A circuit and its history.
#[derive(Clone, Debug)]
pub struct Document {
    circuit: Circuit,
    undo: Vec<Step>,
    redo: Vec<Step>,
    /// The circuit as it was when the open stroke began.
    stroke_base: Option<Circuit>,
    revision: u64,
}

impl Document {
    /// A document holding `circuit`, with an empty history.
    pub fn new(circuit: Circuit) -> Document {
        Document {
            circuit,
            undo: Vec::new(),
            redo: Vec::new(),
            stroke_base: None,
            revision: 0,
        }
    }

    /// The circuit as it is now, open stroke included.
    pub fn circuit(&self) -> &Circuit {
        &self.circuit
    }

    /// A number that changes whenever the circuit does: what derived state (conformity, par
    /// time, the autosave) compares against.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Whether a stroke is open.
    pub fn in_stroke(&self) -> bool {
        self.stroke_base.is_some()
    }

    /// Writes `ch` on `cells` (off-grid cells are skipped), as part of the open stroke (one is
    /// opened if needed). Answers whether anything changed.
    pub fn paint(&mut self, cells: impl IntoIterator<Item = Pos>, ch: u8) -> bool {
        self.paint_each(cells.into_iter().map(|p| (p, ch)))
    }

    /// Writes a character per cell, like [`Document::paint`].
    pub fn paint_each(&mut self, cells: impl IntoIterator<Item = (Pos, u8)>) -> bool {
        let mut changed = false;
        for (p, ch) in cells {
            if self.circuit.get(p).is_some_and(|old| old != ch) {
                if self.stroke_base.is_none() {
                    self.stroke_base = Some(self.circuit.clone());
                }
                changed |= self.circuit.set(p, ch).is_ok();
            }
        }
        if changed {
            self.revision += 1;
        }
        changed
    }

    /// Closes the open stroke as one undo step. Answers whether it changed anything.
    pub fn end_stroke(&mut self) -> bool {
        let Some(base) = self.stroke_base.take() else {
            return false;
        };
        let mut step = Step::default();
        for (i, (&before, &after)) in base.cells().iter().zip(self.circuit.cells()).enumerate() {
            if before != after {
                let w = Circuit::WIDTH as usize;
                step.changes.push(Change {
                    x: (i % w) as u8,
                    y: (i / w) as u8,
                    before,
                    after,
                });
            }
        }
        if step.changes.is_empty() {
            return false;
        }
        self.undo.push(step);
        self.redo.clear();
        true
    }

    /// Reverts the open stroke, leaving no trace in the history.
    pub fn cancel_stroke(&mut self) {
        if let Some(base) = self.stroke_base.take()
            && base != self.circuit
        {
            self.circuit = base;
            self.revision += 1;
        }
    }

    /// Replaces the whole circuit (new, open, import, preset) as one undoable step.
    pub fn replace(&mut self, circuit: Circuit) -> bool {
        self.end_stroke();
        let cells: Vec<(Pos, u8)> = (0..Circuit::HEIGHT)
            .flat_map(|y| (0..Circuit::WIDTH).map(move |x| Pos::new(x, y)))
            .map(|p| (p, circuit.cell(p)))
            .collect();
        self.paint_each(cells);
        self.end_stroke()
    }

    /// Whether there is a step to undo.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty() || self.in_stroke()
    }

    /// Whether there is a step to redo.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Undoes the last step (closing the open stroke first). Answers whether anything changed.
    pub fn undo(&mut self) -> bool {
        self.end_stroke();
        let Some(step) = self.undo.pop() else {
            return false;
        };
        step.apply(&mut self.circuit, false);
        self.redo.push(step);
        self.revision += 1;
        true
    }

    /// Redoes the last undone step. Answers whether anything changed.
    pub fn redo(&mut self) -> bool {
        self.end_stroke();
        let Some(step) = self.redo.pop() else {
            return false;
        };
        step.apply(&mut self.circuit, true);
        self.undo.push(step);
        self.revision += 1;
        true
    }

    /// Number of steps that can be undone.
    pub fn undo_depth(&self) -> usize {
        self.undo.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stroke_is_one_step_and_undo_redo_restore_it() {
        let blank = Circuit::blank();
        let mut doc = Document::new(blank.clone());
        assert!(!doc.can_undo());
        assert!(doc.paint([Pos::new(1, 1), Pos::new(2, 1)], b'P'));
        assert!(doc.paint([Pos::new(2, 1), Pos::new(3, 1)], b'J'));
        assert!(!doc.paint([Pos::new(3, 1)], b'J'), "no change, no revision");
        assert!(doc.end_stroke());
        let painted = doc.circuit().clone();
        assert_eq!(painted.cell(Pos::new(2, 1)), b'J');
        assert_eq!(doc.undo_depth(), 1);

        let r = doc.revision();
        assert!(doc.undo());
        assert_eq!(doc.circuit(), &blank);
        assert!(doc.revision() > r);
        assert!(doc.redo());
        assert_eq!(doc.circuit(), &painted);
        assert!(!doc.redo());

        // A new edit after an undo forgets the redo branch.
        doc.undo();
        doc.paint([Pos::new(5, 5)], b'A');
        doc.end_stroke();
        assert!(!doc.can_redo());
    }

    #[test]
    fn off_grid_cells_and_empty_strokes_leave_no_step() {
        let mut doc = Document::new(Circuit::blank());
        assert!(!doc.paint([Pos::new(-1, 0), Pos::new(150, 3)], b'P'));
        assert!(!doc.end_stroke());
        doc.paint([Pos::new(1, 1)], b'P');
        doc.paint([Pos::new(1, 1)], Circuit::GRASS); // painted back: nothing changed overall
        assert!(!doc.end_stroke());
        assert!(!doc.can_undo());
    }

    #[test]
    fn cancel_and_replace() {
        let mut doc = Document::new(Circuit::blank());
        doc.paint([Pos::new(9, 9)], b'P');
        doc.cancel_stroke();
        assert_eq!(doc.circuit(), &Circuit::blank());
        let full = Circuit::filled(b'E').unwrap();
        assert!(doc.replace(full.clone()));
        assert_eq!(doc.circuit(), &full);
        assert!(doc.undo());
        assert_eq!(doc.circuit(), &Circuit::blank());
    }

    #[test]
    fn a_thousand_steps_undo_to_the_start() {
        let mut doc = Document::new(Circuit::blank());
        for i in 0..1000 {
            doc.paint(
                [Pos::new(i % 150, 10 + i / 150)],
                b"JKLMNOP"[(i % 7) as usize],
            );
            doc.end_stroke();
        }
        while doc.undo() {}
        assert_eq!(doc.circuit(), &Circuit::blank());
        while doc.redo() {}
        assert_eq!(doc.circuit().cell(Pos::new(0, 10)), b'J');
    }
}
