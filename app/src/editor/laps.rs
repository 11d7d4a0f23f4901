//! Par times already solved, by the shape of the track.
//!
//! The physics only know track from not-track (spec §1): repainting decor in another colour, or
//! undoing back to a shape solved before, cannot change the optimal lap. Those edits get their
//! par time from here at once instead of from the worker.

use std::collections::VecDeque;

use engine::racetrack::Circuit;

use engine::racetrack::pilot::Lap;

/// Which cells are track, one bit per cell.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TrackMask(Vec<u64>);

impl TrackMask {
    pub fn of(circuit: &Circuit) -> TrackMask {
        let mut bits = vec![0u64; circuit.cells().len().div_ceil(64)];
        for (i, &ch) in circuit.cells().iter().enumerate() {
            if ch == Circuit::TRACK {
                bits[i / 64] |= 1 << (i % 64);
            }
        }
        TrackMask(bits)
    }
}

/// The last few solved track shapes, most recently used first.
#[derive(Clone, Debug)]
pub struct LapCache {
    entries: VecDeque<(TrackMask, Lap)>,
    capacity: usize,
}

impl LapCache {
    /// A cache of at most `capacity` laps (each costs about 2 kB plus its positions).
    pub fn new(capacity: usize) -> LapCache {
        LapCache {
            entries: VecDeque::with_capacity(capacity),
            capacity: capacity.max(1),
        }
    }

    /// The lap solved for `mask`, if kept.
    pub fn get(&mut self, mask: &TrackMask) -> Option<Lap> {
        let i = self.entries.iter().position(|(m, _)| m == mask)?;
        let entry = self.entries.remove(i)?;
        let lap = entry.1.clone();
        self.entries.push_front(entry);
        Some(lap)
    }

    /// Keeps `lap` as the answer for `mask`, forgetting the least recently used beyond capacity.
    pub fn put(&mut self, mask: TrackMask, lap: Lap) {
        self.entries.retain(|(m, _)| *m != mask);
        self.entries.push_front((mask, lap));
        self.entries.truncate(self.capacity);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::racetrack::Pos;

    /// A lap of `moves` moves (its time is `moves − 1` and a half).
    fn lap(moves: i32) -> Lap {
        let mut positions: Vec<Pos> = (0..moves).map(|i| Pos::new(40 - i, 4)).collect();
        let back = positions.last().unwrap().x;
        positions.push(Pos::new(40 + (40 - back), 4));
        Lap::try_from(positions).unwrap()
    }

    #[test]
    fn decor_colours_do_not_change_the_mask_but_track_does() {
        let blank = Circuit::blank();
        let mut painted = blank.clone();
        painted.set(Pos::new(3, 3), b'P').unwrap();
        assert_eq!(TrackMask::of(&blank), TrackMask::of(&painted));
        painted.set(Pos::new(3, 3), b' ').unwrap();
        assert_ne!(TrackMask::of(&blank), TrackMask::of(&painted));
        // The last cell has its own bit.
        let mut corner = blank.clone();
        corner.set(Pos::new(149, 99), b' ').unwrap();
        assert_ne!(TrackMask::of(&blank), TrackMask::of(&corner));
    }

    #[test]
    fn least_recently_used_laps_are_forgotten() {
        let masks: Vec<TrackMask> = (0..3)
            .map(|i| {
                let mut c = Circuit::blank();
                c.set(Pos::new(i, 10), b' ').unwrap();
                TrackMask::of(&c)
            })
            .collect();
        let mut cache = LapCache::new(2);
        cache.put(masks[0].clone(), lap(2));
        cache.put(masks[1].clone(), lap(3));
        assert_eq!(cache.get(&masks[0]).map(|l| l.moves()), Some(2));
        cache.put(masks[2].clone(), lap(4)); // forgets masks[1], used least recently
        assert_eq!(cache.get(&masks[1]), None);
        assert_eq!(cache.get(&masks[0]).map(|l| l.moves()), Some(2));
        assert_eq!(cache.get(&masks[2]).map(|l| l.moves()), Some(4));
        cache.put(masks[2].clone(), lap(5));
        assert_eq!(cache.get(&masks[2]).map(|l| l.moves()), Some(5));
    }
}
