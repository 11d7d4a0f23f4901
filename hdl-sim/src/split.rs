//! Bit-splitting of word-level cells caught in a false combinational loop.
//!
//! yosys keeps `assign c = {f(c[6:0]), 1'b0}` as one 8-bit cell whose output feeds its own
//! input: a loop at the word level although no bit depends on itself. When the compiler finds a
//! loop, the bitwise cells on it (`$and $or $xor $xnor $not $pos $mux $bwmux`) are replaced by
//! one single-bit cell per output bit and the design is compiled again; a loop that remains is
//! a real one (or goes through arithmetic) and is reported.

use std::collections::BTreeMap;

use crate::error::{LoadError, clip_name};
use crate::limits::Limits;
use crate::netlist::{Bit, Cell, Module, Param};

/// What one single-bit cell made by splitting is counted as against the budget: the cell
/// itself (name, parameter and connection maps) and its one-word signal. A 10-million-bit
/// `$and` on a loop would otherwise become gigabytes of cells.
const BYTES_PER_SPLIT_CELL: u64 = 256;

fn bitwise(kind: &str) -> bool {
    matches!(
        kind,
        "$and" | "$or" | "$xor" | "$xnor" | "$not" | "$pos" | "$mux" | "$bwmux"
    )
}

fn flag(cell: &Cell, name: &str) -> bool {
    cell.parameters
        .get(name)
        .and_then(Param::as_u64)
        .is_some_and(|v| v != 0)
}

fn int(v: usize) -> Param {
    Param::Bits((0..32).map(|i| Some((v >> i) & 1 == 1)).collect())
}

/// Bit `i` of an operand extended to the cell's width.
fn ext_bit(bits: &[Bit], i: usize, signed: bool) -> Bit {
    match bits.get(i) {
        Some(b) => *b,
        None if signed && !bits.is_empty() => bits[bits.len() - 1],
        None => Bit::Const(false),
    }
}

/// The cell as single-bit cells, or `None` if it is not a splittable bitwise cell.
fn split(cell: &Cell) -> Option<Vec<Cell>> {
    if !bitwise(&cell.kind) {
        return None;
    }
    let y = cell.connections.get("Y")?;
    if y.len() < 2 {
        return None;
    }
    let get = |p: &str| cell.connections.get(p).cloned().unwrap_or_default();
    let (a, b, s) = (get("A"), get("B"), get("S"));
    let both_signed = flag(cell, "A_SIGNED") && flag(cell, "B_SIGNED");
    let a_signed = match cell.kind.as_str() {
        "$not" | "$pos" => flag(cell, "A_SIGNED"),
        _ => both_signed,
    };
    let mut out = Vec::with_capacity(y.len());
    for (i, &yb) in y.iter().enumerate() {
        let mut connections = BTreeMap::new();
        let mut parameters = BTreeMap::new();
        connections.insert("Y".to_string(), vec![yb]);
        connections.insert("A".to_string(), vec![ext_bit(&a, i, a_signed)]);
        match cell.kind.as_str() {
            "$not" | "$pos" => {
                parameters.insert("A_WIDTH".into(), int(1));
                parameters.insert("Y_WIDTH".into(), int(1));
            }
            "$mux" | "$bwmux" => {
                connections.insert("B".to_string(), vec![*b.get(i)?]);
                let sel = if cell.kind == "$mux" {
                    *s.first()?
                } else {
                    *s.get(i)?
                };
                connections.insert("S".to_string(), vec![sel]);
                parameters.insert("WIDTH".into(), int(1));
            }
            _ => {
                connections.insert("B".to_string(), vec![ext_bit(&b, i, both_signed)]);
                for p in ["A_WIDTH", "B_WIDTH", "Y_WIDTH"] {
                    parameters.insert(p.into(), int(1));
                }
            }
        }
        out.push(Cell {
            name: format!("{}[{i}]", cell.name),
            kind: cell.kind.clone(),
            parameters,
            connections,
        });
    }
    Some(out)
}

/// `module` with the cells at indices `picked` split into bits, or `None` when none of them can
/// be; refused when the single-bit cells would be over the budget of `limits`.
pub(crate) fn split_cells(
    module: &Module,
    picked: &[usize],
    limits: Limits,
) -> Result<Option<Module>, LoadError> {
    let mut chosen = vec![false; module.cells.len()];
    let mut made: u64 = 0;
    for &i in picked {
        let Some(cell) = module.cells.get(i) else {
            continue;
        };
        if bitwise(&cell.kind) {
            let bits = cell.connections.get("Y").map_or(0, |y| y.len() as u64);
            made = made.saturating_add(bits);
            let needed = made.saturating_mul(BYTES_PER_SPLIT_CELL);
            if needed > limits.budget() {
                return Err(LoadError::OverBudget {
                    cell: clip_name(&cell.name),
                    needed,
                    budget: limits.budget(),
                });
            }
            chosen[i] = true;
        }
    }
    let mut changed = false;
    let mut cells = Vec::with_capacity(module.cells.len());
    for (i, cell) in module.cells.iter().enumerate() {
        match chosen[i].then(|| split(cell)).flatten() {
            Some(bits) => {
                changed = true;
                cells.extend(bits);
            }
            None => cells.push(cell.clone()),
        }
    }
    Ok(changed.then(|| Module {
        cells,
        ..module.clone()
    }))
}
