//! A small network over the lines around the ball: what the logistic model's counts cannot
//! see (which lines, where, in which pattern), learnt by the training program and added to the
//! model's logit.
//!
//! Its input is the *patch*: the step masks (which of the 8 steps each point has left) of the
//! 7 × 7 points centred on the ball, turned so that the goal attacked is always up. The same
//! input means the same on every field size, so one network serves 2x2 and 254x254 alike. A
//! hidden layer of [`HIDDEN`] rectified units reads the patch's 392 bits and the bounded
//! scalar features ([`scalars`]); its output adds to the logistic model's logit.
//!
//! The search evaluates every leaf, so the bits of each patch point are summed in advance for
//! every one of its 256 masks ([`Net::from_params`]): a leaf costs 49 table rows and 16 scalar rows
//! added into 16 units, a few hundred additions that vectorise.

use crate::soccer::game::Game;
use crate::soccer::types::{Point, Side};

use super::eval::FEATURES;

/// The patch's half-width: points up to this many steps from the ball in x and y.
pub const RADIUS: i16 = 3;
/// Points in a row of the patch.
pub const SIDE: usize = (2 * RADIUS + 1) as usize;
/// Points in the patch.
pub const POINTS: usize = SIDE * SIDE;
/// The patch's bits: 8 per point (bit `d` set = no step in direction `d` from it).
pub const PATCH_INPUTS: usize = POINTS * 8;
/// Rectified units of the hidden layer.
pub const HIDDEN: usize = 16;
/// The parameters, in the order [`Net::from_params`] reads them: the patch bits' weights
/// (`PATCH_INPUTS` × `HIDDEN`, input-major), the scalars' weights (`FEATURES` × `HIDDEN`,
/// the constant scalar 0 being the units' bias), the output weights (`HIDDEN`).
pub const PARAMS: usize = (PATCH_INPUTS + FEATURES + 1) * HIDDEN;

/// The steps' bits mirrored left ↔ right: `d` becomes `8 − d` (mod 8).
const fn left_right_table() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut m = 0;
    while m < 256 {
        let mut out = 0u8;
        let mut d = 0;
        while d < 8 {
            if m & (1 << d) != 0 {
                out |= 1 << ((8 - d) % 8);
            }
            d += 1;
        }
        t[m] = out;
        m += 1;
    }
    t
}

static LEFT_RIGHT: [u8; 256] = left_right_table();

/// The patch of `game` for the player to move, row by row, with the field turned so that the
/// goal attacked is up: the same patch for either colour in the same position. Points off the
/// field have no step left (all bits set).
pub fn patch(game: &Game) -> [u8; POINTS] {
    // Blue attacks red's goal, at the top (y = −1): blue sees the field as it is, red sees it
    // turned half round.
    let turn = game.to_move() == Side::Red;
    let ball = game.ball();
    let mut out = [0u8; POINTS];
    for (r, dy) in (-RADIUS..=RADIUS).enumerate() {
        let row = &mut out[r * SIDE..][..SIDE];
        // Red's row r is the field's row −dy, read west to east from x + R down to x − R.
        let y = if turn { ball.y - dy } else { ball.y + dy };
        let west = Point {
            x: ball.x - RADIUS,
            y,
        };
        match game.step_mask_row(west, SIDE) {
            Some(masks) if turn => {
                for (o, m) in row.iter_mut().zip(masks.iter().rev()) {
                    // A half turn maps each step d to d + 4.
                    *o = m.rotate_left(4);
                }
            }
            Some(masks) => row.copy_from_slice(masks),
            None => {
                for (c, o) in row.iter_mut().enumerate() {
                    let dx = c as i16 - RADIUS;
                    let p = Point {
                        x: if turn { ball.x - dx } else { ball.x + dx },
                        y,
                    };
                    let m = game.step_mask_at(p);
                    *o = if turn { m.rotate_left(4) } else { m };
                }
            }
        }
    }
    out
}

/// `patch` mirrored left ↔ right: the patch of the mirrored position (for the trainer, which
/// learns from both).
pub fn mirror(patch: &[u8; POINTS]) -> [u8; POINTS] {
    let mut out = [0u8; POINTS];
    for row in 0..SIDE {
        for col in 0..SIDE {
            out[row * SIDE + col] = LEFT_RIGHT[usize::from(patch[row * SIDE + SIDE - 1 - col])];
        }
    }
    out
}

/// The scalar features as the hidden layer reads them: each scaled to about −1..1, and those
/// that grow with the field (progress in squares) clamped, so that a long field does not drive
/// the units where no training sample went. `lines_near` is left out (the patch shows it).
pub fn scalars(features: &[f32; FEATURES]) -> [f32; FEATURES] {
    let mut s = *features;
    s[1] = (features[1] / 8.0).clamp(-1.0, 1.0);
    for i in [9, 10, 11, 15] {
        s[i] = features[i] / 8.0;
    }
    s[12] = 0.0;
    s[13] = features[13] / 8.0;
    s
}

/// A network's parameters were not [`PARAMS`] finite numbers.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NetError {
    #[error("a network has {PARAMS} parameters, not {0}")]
    Count(usize),
    #[error("parameter {0} is not a finite number")]
    NotFinite(usize),
    #[error("line {line}: `{text}` is not a number")]
    Parse { line: usize, text: String },
}

/// The network, ready for the search: per patch point, the sum of its bits' weights for every
/// mask.
#[derive(Clone)]
pub struct Net {
    params: Vec<f32>,
    /// `POINTS × 256` rows of `HIDDEN`.
    table: Vec<[f32; HIDDEN]>,
    scalar: [[f32; HIDDEN]; FEATURES],
    output: [f32; HIDDEN],
}

impl std::fmt::Debug for Net {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Net").finish_non_exhaustive()
    }
}

impl PartialEq for Net {
    fn eq(&self, other: &Net) -> bool {
        self.params == other.params
    }
}

impl Net {
    /// The network of `params` (in [`PARAMS`]' order).
    pub fn from_params(params: &[f32]) -> Result<Net, NetError> {
        if params.len() != PARAMS {
            return Err(NetError::Count(params.len()));
        }
        if let Some(i) = params.iter().position(|p| !p.is_finite()) {
            return Err(NetError::NotFinite(i));
        }
        let mut table = vec![[0.0f32; HIDDEN]; POINTS * 256];
        for point in 0..POINTS {
            for mask in 1..256usize {
                // Each mask's row is a smaller mask's row plus one bit's weights.
                let bit = mask.trailing_zeros() as usize;
                let rest = mask & (mask - 1);
                let w = &params[(point * 8 + bit) * HIDDEN..][..HIDDEN];
                let mut row = table[point * 256 + rest];
                for (r, w) in row.iter_mut().zip(w) {
                    *r += w;
                }
                table[point * 256 + mask] = row;
            }
        }
        let mut scalar = [[0.0; HIDDEN]; FEATURES];
        for (k, row) in scalar.iter_mut().enumerate() {
            row.copy_from_slice(&params[(PATCH_INPUTS + k) * HIDDEN..][..HIDDEN]);
        }
        let mut output = [0.0; HIDDEN];
        output.copy_from_slice(&params[(PATCH_INPUTS + FEATURES) * HIDDEN..]);
        Ok(Net {
            params: params.to_vec(),
            table,
            scalar,
            output,
        })
    }

    /// The network of a text of one parameter a line (as the trainer's `--save` writes it;
    /// blank lines are skipped).
    pub fn from_text(text: &str) -> Result<Net, NetError> {
        let params = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(n, l)| {
                l.trim().parse::<f32>().map_err(|_| NetError::Parse {
                    line: n + 1,
                    text: l.trim().chars().take(40).collect(),
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Net::from_params(&params)
    }

    /// The parameters (in [`PARAMS`]' order).
    pub fn params(&self) -> &[f32] {
        &self.params
    }

    /// The network's part of the logit for a patch and the scalar features.
    pub fn logit(&self, patch: &[u8; POINTS], features: &[f32; FEATURES]) -> f32 {
        let mut acc = [0.0f32; HIDDEN];
        for (point, &mask) in patch.iter().enumerate() {
            let row = &self.table[point * 256 + usize::from(mask)];
            for (a, r) in acc.iter_mut().zip(row) {
                *a += r;
            }
        }
        for (x, row) in scalars(features).iter().zip(&self.scalar) {
            if *x != 0.0 {
                for (a, r) in acc.iter_mut().zip(row) {
                    *a += x * r;
                }
            }
        }
        acc.iter()
            .zip(&self.output)
            .map(|(a, o)| a.max(0.0) * o)
            .sum()
    }
}

/// The network's logit and its hidden units' inputs, computed straight from `params` bit by
/// bit: what the trainer differentiates, and what the tests hold [`Net::logit`] to.
pub fn forward(
    params: &[f32],
    patch: &[u8; POINTS],
    features: &[f32; FEATURES],
) -> (f32, [f32; HIDDEN]) {
    let mut acc = [0.0f32; HIDDEN];
    for_each_input(patch, features, |i, x| {
        for (a, w) in acc.iter_mut().zip(&params[i * HIDDEN..][..HIDDEN]) {
            *a += x * w;
        }
    });
    let out = &params[(PATCH_INPUTS + FEATURES) * HIDDEN..];
    let logit = acc.iter().zip(out).map(|(a, o)| a.max(0.0) * o).sum();
    (logit, acc)
}

/// Calls `f(input, value)` for every non-zero input of the network: the patch's set bits
/// (value 1), then the scalars (inputs `PATCH_INPUTS..`).
pub fn for_each_input(
    patch: &[u8; POINTS],
    features: &[f32; FEATURES],
    mut f: impl FnMut(usize, f32),
) {
    for (point, &mask) in patch.iter().enumerate() {
        let mut m = mask;
        while m != 0 {
            let bit = m.trailing_zeros() as usize;
            f(point * 8 + bit, 1.0);
            m &= m - 1;
        }
    }
    for (k, &x) in scalars(features).iter().enumerate() {
        if x != 0.0 {
            f(PATCH_INPUTS + k, x);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Any text is a network or an error naming what is wrong; never a panic.
        #[test]
        fn any_text_reads_or_is_refused(text in "([-+0-9.eEinfa]{0,12}\n){0,40}|\\PC{0,200}") {
            match Net::from_text(&text) {
                Ok(net) => prop_assert_eq!(net.params().len(), PARAMS),
                Err(NetError::Parse { line, .. }) => prop_assert!(line >= 1),
                Err(NetError::Count(n)) => prop_assert_ne!(n, PARAMS),
                Err(NetError::NotFinite(i)) => prop_assert!(i < PARAMS),
            }
        }

        /// A network's text with one line damaged is refused at that line.
        #[test]
        fn a_damaged_line_is_named(line in 0..PARAMS, junk in "[a-z]{1,5}") {
            let mut lines: Vec<String> = (0..PARAMS).map(|i| format!("{:?}", i as f32 / 1e4)).collect();
            lines[line] = junk.clone();
            let err = Net::from_text(&lines.join("\n")).unwrap_err();
            prop_assert_eq!(err, NetError::Parse { line: line + 1, text: junk });
        }
    }
}
