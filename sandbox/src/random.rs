//! The random source a program sees: seeded, so a run is repeatable and every host (this one
//! and a browser worker) gives a pilot the same bytes for the same seed.
//!
//! `random_get` answers from this stream directly ([`crate::wasi`]); the same generator also
//! stands behind everything else in the WASI context that could want entropy.
//!
//! The stream: successive outputs of [`SplitMix64`] from the run's seed, each written as 8
//! little-endian bytes; a request takes as many bytes as it asks for and the unused tail of the
//! last word is dropped (the next request starts on a fresh word).

use std::convert::Infallible;

use engine::rng::SplitMix64;
use rand_core::TryRng;

/// [`SplitMix64`] as the random generator of a WASI context.
pub struct SeededRandom(SplitMix64);

impl SeededRandom {
    pub fn new(seed: u64) -> SeededRandom {
        SeededRandom(SplitMix64::new(seed))
    }

    /// Fills `dst` with the next bytes of the stream: one request, whole words, the tail of
    /// the last word dropped.
    pub fn fill(&mut self, dst: &mut [u8]) {
        for chunk in dst.chunks_mut(8) {
            let word = self.0.next_u64().to_le_bytes();
            chunk.copy_from_slice(&word[..chunk.len()]);
        }
    }
}

impl TryRng for SeededRandom {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok(self.0.next_u64() as u32)
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(self.0.next_u64())
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        self.fill(dst);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::Rng;

    #[test]
    fn bytes_are_the_seeds_splitmix_words_little_endian() {
        let mut r = SeededRandom::new(0);
        let mut buf = [0u8; 10];
        r.fill_bytes(&mut buf);
        // SplitMix64(0)'s first output is 0xE220A8397B1DCDAF.
        assert_eq!(buf[..8], 0xE220_A839_7B1D_CDAFu64.to_le_bytes());
        assert_eq!(buf[8..], 0x6E78_9E6A_A1B9_65F4u64.to_le_bytes()[..2]);
    }
}
