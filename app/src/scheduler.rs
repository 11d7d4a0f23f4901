//! What the pages that run many jobs on a few workers share: which job runs on which slot, and
//! when the whole began and ended. The league (games on soccer workers) and the pools contest
//! (laps on Racetrack workers) each decide *which* job comes next by their own rules; this
//! only hands out the slots and keeps the clock, browser-free.

use std::collections::BTreeMap;

/// What a session asks its page to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect<S, K> {
    /// Start a job (a game, a lap) on a worker slot.
    Start(S),
    /// Keep this across a reload (the results so far, a lap).
    Save(K),
    /// Every job is done.
    Done,
}

impl<S, K> Effect<S, K> {
    /// The job to start, if this starts one.
    pub fn started(&self) -> Option<&S> {
        match self {
            Effect::Start(start) => Some(start),
            _ => None,
        }
    }
}

/// Jobs keyed by `K` on up to `slots` slots.
#[derive(Clone, Debug)]
pub struct Scheduler<K> {
    /// Jobs running: key → slot.
    running: BTreeMap<K, usize>,
    slots: usize,
    /// When the run (or its resumption) started and, once done, ended (page ms).
    started_ms: f64,
    ended_ms: Option<f64>,
}

impl<K: Ord + Copy> Scheduler<K> {
    /// A scheduler of `slots` slots (at least one).
    pub fn new(slots: usize) -> Scheduler<K> {
        Scheduler {
            running: BTreeMap::new(),
            slots: slots.max(1),
            started_ms: 0.0,
            ended_ms: None,
        }
    }

    /// The run starts (or resumes) at `now_ms`.
    pub fn start(&mut self, now_ms: f64) {
        self.started_ms = now_ms;
        self.ended_ms = None;
    }

    /// Every job is done, at `now_ms` the first time this is said.
    pub fn end(&mut self, now_ms: f64) {
        self.ended_ms.get_or_insert(now_ms);
    }

    /// Seconds since the start, or that the whole took once ended.
    pub fn elapsed_s(&self, now_ms: f64) -> f64 {
        (self.ended_ms.unwrap_or(now_ms) - self.started_ms).max(0.0) / 1000.0
    }

    /// The jobs running, in key order.
    pub fn running(&self) -> impl Iterator<Item = K> + '_ {
        self.running.keys().copied()
    }

    /// The jobs running with their slots.
    pub fn placed(&self) -> impl Iterator<Item = (K, usize)> + '_ {
        self.running.iter().map(|(&k, &slot)| (k, slot))
    }

    pub fn is_running(&self, key: K) -> bool {
        self.running.contains_key(&key)
    }

    /// Whether every slot is taken.
    pub fn is_full(&self) -> bool {
        self.running.len() >= self.slots
    }

    /// Runs `key` on the lowest free slot, which it answers; `None` when every slot is taken
    /// or `key` already runs.
    pub fn place(&mut self, key: K) -> Option<usize> {
        if self.is_full() || self.is_running(key) {
            return None;
        }
        let slot = (0..self.slots).find(|s| self.running.values().all(|used| used != s))?;
        self.running.insert(key, slot);
        Some(slot)
    }

    /// Places `candidates`, in their order, on the free slots: each that is not running yet
    /// and that `may_start` lets start given what runs then. Answers the jobs placed with
    /// their slots.
    pub fn fill(
        &mut self,
        candidates: impl IntoIterator<Item = K>,
        mut may_start: impl FnMut(&Self, K) -> bool,
    ) -> Vec<(K, usize)> {
        let mut placed = Vec::new();
        for key in candidates {
            if self.is_full() {
                break;
            }
            if self.is_running(key) || !may_start(self, key) {
                continue;
            }
            if let Some(slot) = self.place(key) {
                placed.push((key, slot));
            }
        }
        placed
    }

    /// `key` has ended: its slot is free. Whether it was running (an answer for a job that
    /// is not is stale, and to be ignored).
    pub fn release(&mut self, key: K) -> bool {
        self.running.remove(&key).is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jobs_take_the_lowest_free_slot_and_give_it_back() {
        let mut s = Scheduler::new(2);
        assert_eq!(s.place(10), Some(0));
        assert_eq!(s.place(10), None, "a job runs once");
        assert_eq!(s.place(11), Some(1));
        assert!(s.is_full());
        assert_eq!(s.place(12), None);
        assert!(s.release(10));
        assert!(!s.release(10), "a stale answer");
        assert_eq!(s.place(12), Some(0));
        assert_eq!(s.running().collect::<Vec<_>>(), [11, 12]);
        assert_eq!(s.placed().collect::<Vec<_>>(), [(11, 1), (12, 0)]);
        assert!(s.is_running(11) && !s.is_running(10));
        // No slots is one slot.
        let mut one = Scheduler::new(0);
        assert_eq!(one.place('a'), Some(0));
        assert_eq!(one.place('b'), None);
    }

    #[test]
    fn filling_takes_candidates_in_order_while_slots_are_free() {
        let mut s = Scheduler::new(3);
        s.place(2);
        // 2 runs already; odd jobs may not start while another odd job runs.
        let placed = s.fill([1, 2, 3, 4, 5, 6, 7], |s, k| {
            k % 2 == 0 || s.running().all(|r| r % 2 == 0)
        });
        assert_eq!(placed, [(1, 1), (4, 2)]);
        assert!(s.fill([6], |_, _| true).is_empty(), "no slot is free");
    }

    #[test]
    fn the_clock_runs_from_the_start_to_the_first_end() {
        let mut s = Scheduler::<u8>::new(1);
        s.start(1_000.0);
        assert_eq!(s.elapsed_s(3_500.0), 2.5);
        s.end(4_000.0);
        s.end(9_000.0);
        assert_eq!(s.elapsed_s(10_000.0), 3.0);
        // A resumption starts the clock again.
        s.start(20_000.0);
        assert_eq!(s.elapsed_s(21_000.0), 1.0);
        assert_eq!(s.elapsed_s(0.0), 0.0, "never negative");
    }
}
