//! Painting engine state on a [`crate::canvas::Surface`]. Layout comes from [`crate::geometry`];
//! what to paint comes from `engine`.

pub mod circuit;
pub mod soccer;

/// A CSS colour string for an RGB triple.
pub fn css_rgb([r, g, b]: [u8; 3]) -> String {
    format!("rgb({r}, {g}, {b})")
}
