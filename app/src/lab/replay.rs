//! The replay clock: which move is shown, and how fast the cars advance (TESTF1's `-nXXX`:
//! hundredths of a second between points; `-n0` steps on demand).

/// The replay's state. `step` is the number of moves shown (0 = everyone on the start).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Replay {
    pub step: usize,
    /// The last step: the longest lap's moves.
    pub last: usize,
    pub playing: bool,
    /// Hundredths of a second between points; 0 = step by hand (playing is impossible).
    pub delay: u32,
}

impl Default for Replay {
    fn default() -> Self {
        Replay {
            step: 0,
            last: 0,
            playing: false,
            delay: Replay::DEFAULT_DELAY,
        }
    }
}

impl Replay {
    /// TESTF1's default, `-n10`.
    pub const DEFAULT_DELAY: u32 = 10;

    /// A new lap set of `last` moves: show it whole, stopped.
    pub fn reset(&mut self, last: usize) {
        self.last = last;
        self.step = last;
        self.playing = false;
    }

    pub fn forward(&mut self) {
        self.step = (self.step + 1).min(self.last);
        if self.step == self.last {
            self.playing = false;
        }
    }

    pub fn back(&mut self) {
        self.step = self.step.saturating_sub(1);
    }

    pub fn seek(&mut self, step: usize) {
        self.step = step.min(self.last);
    }

    /// Play from the start when at the end; pause when playing. With a delay of 0 there is
    /// no clock (`-n0`): the call does nothing.
    pub fn toggle(&mut self) {
        if self.playing {
            self.playing = false;
        } else if self.delay > 0 && self.last > 0 {
            if self.step >= self.last {
                self.step = 0;
            }
            self.playing = true;
        }
    }

    pub fn set_delay(&mut self, delay: u32) {
        self.delay = delay;
        if delay == 0 {
            self.playing = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_stay_in_range_and_play_restarts_from_zero() {
        let mut r = Replay::default();
        r.reset(3);
        assert_eq!(r.step, 3);
        r.forward();
        assert_eq!(r.step, 3);
        r.toggle();
        assert!(r.playing);
        assert_eq!(r.step, 0);
        r.forward();
        r.forward();
        assert!(r.playing);
        r.forward();
        assert!(!r.playing, "the replay stops at the end");
        r.back();
        r.back();
        r.back();
        r.back();
        assert_eq!(r.step, 0);
        r.seek(99);
        assert_eq!(r.step, 3);
    }

    #[test]
    fn delay_zero_means_step_by_hand() {
        let mut r = Replay::default();
        r.reset(5);
        r.toggle();
        assert!(r.playing);
        r.set_delay(0);
        assert!(!r.playing);
        r.toggle();
        assert!(!r.playing);
        let mut empty = Replay::default();
        empty.toggle();
        assert!(!empty.playing);
    }
}
