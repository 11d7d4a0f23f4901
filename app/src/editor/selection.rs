//! Rectangular selections, the clipboard block, and a floating block being moved or pasted.

use engine::racetrack::{Circuit, Pos};

/// A rectangle of cells, corners included, always inside the grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rect {
    pub left: i32,
    pub top: i32,
    pub right: i32,
    pub bottom: i32,
}

impl Rect {
    /// The rectangle spanned by two corners, clipped to the grid; `None` if nothing of it is on
    /// the grid.
    pub fn spanning(a: Pos, b: Pos) -> Option<Rect> {
        let rect = Rect {
            left: a.x.min(b.x).max(0),
            top: a.y.min(b.y).max(0),
            right: a.x.max(b.x).min(Circuit::WIDTH - 1),
            bottom: a.y.max(b.y).min(Circuit::HEIGHT - 1),
        };
        (rect.left <= rect.right && rect.top <= rect.bottom).then_some(rect)
    }

    pub fn width(&self) -> i32 {
        self.right - self.left + 1
    }

    pub fn height(&self) -> i32 {
        self.bottom - self.top + 1
    }

    pub fn contains(&self, p: Pos) -> bool {
        (self.left..=self.right).contains(&p.x) && (self.top..=self.bottom).contains(&p.y)
    }

    /// Every cell, in reading order.
    pub fn cells(&self) -> impl Iterator<Item = Pos> + '_ {
        (self.top..=self.bottom)
            .flat_map(move |y| (self.left..=self.right).map(move |x| Pos::new(x, y)))
    }
}

/// A copied block of cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    width: i32,
    height: i32,
    cells: Vec<u8>,
}

impl Block {
    /// Copies `rect` out of `circuit`.
    pub fn copy(circuit: &Circuit, rect: Rect) -> Block {
        Block {
            width: rect.width(),
            height: rect.height(),
            cells: rect.cells().map(|p| circuit.cell(p)).collect(),
        }
    }

    pub fn width(&self) -> i32 {
        self.width
    }

    pub fn height(&self) -> i32 {
        self.height
    }

    /// The block's cells placed with its top-left corner at `at`, with their characters; cells
    /// that fall off the grid are left out.
    pub fn placed(&self, at: Pos) -> impl Iterator<Item = (Pos, u8)> + '_ {
        self.cells.iter().enumerate().filter_map(move |(i, &ch)| {
            let i = i as i32;
            let p = Pos::new(at.x + i % self.width, at.y + i / self.width);
            Circuit::contains(p).then_some((p, ch))
        })
    }
}

/// A block floating above the circuit, not yet written: a paste, or a selection being moved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Floating {
    pub block: Block,
    /// Where its top-left corner is.
    pub at: Pos,
}

impl Floating {
    /// Whether `p` lies on the block.
    pub fn contains(&self, p: Pos) -> bool {
        (self.at.x..self.at.x + self.block.width).contains(&p.x)
            && (self.at.y..self.at.y + self.block.height).contains(&p.y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rectangles_are_clipped_and_ordered() {
        let r = Rect::spanning(Pos::new(5, 8), Pos::new(2, 3)).unwrap();
        assert_eq!((r.left, r.top, r.right, r.bottom), (2, 3, 5, 8));
        assert_eq!(r.cells().count(), 4 * 6);
        let edge = Rect::spanning(Pos::new(-4, -4), Pos::new(1, 200)).unwrap();
        assert_eq!(
            (edge.left, edge.top, edge.right, edge.bottom),
            (0, 0, 1, 99)
        );
        assert_eq!(Rect::spanning(Pos::new(-4, -4), Pos::new(-1, 5)), None);
    }

    #[test]
    fn a_copied_block_pastes_back_and_clips() {
        let circuit = Circuit::blank();
        let rect = Rect::spanning(Pos::new(18, 1), Pos::new(22, 3)).unwrap();
        let block = Block::copy(&circuit, rect);
        let at_home: Vec<_> = block.placed(Pos::new(18, 1)).collect();
        assert_eq!(at_home.len(), 15);
        assert!(at_home.iter().all(|&(p, ch)| circuit.cell(p) == ch));
        assert_eq!(block.placed(Pos::new(147, 98)).count(), 3 * 2);
        let floating = Floating {
            block,
            at: Pos::new(10, 10),
        };
        assert!(floating.contains(Pos::new(14, 12)));
        assert!(!floating.contains(Pos::new(15, 12)));
    }
}
