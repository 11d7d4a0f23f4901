//! A small open-addressing hash map from packed [`State`](super::model::State) keys to node
//! indices: the searches' visited sets. Keys are dense 38-bit integers, so a multiplicative
//! hash and linear probing beat a general-purpose map by a wide margin.

/// Map from a non-zero-able `u64` key to a `u32` value. Key `u64::MAX` marks an empty slot
/// (packed states never reach it: they use 38 bits).
pub(crate) struct StateMap {
    keys: Vec<u64>,
    values: Vec<u32>,
    len: usize,
    mask: usize,
}

const EMPTY: u64 = u64::MAX;

impl StateMap {
    pub(crate) fn with_capacity(capacity: usize) -> StateMap {
        let slots = (capacity * 2).next_power_of_two().max(1024);
        StateMap {
            keys: vec![EMPTY; slots],
            values: vec![0; slots],
            len: 0,
            mask: slots - 1,
        }
    }

    fn slot(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20) as usize & self.mask
    }

    /// The value stored under `key`, if any.
    pub(crate) fn get(&self, key: u64) -> Option<u32> {
        let mut i = self.slot(key);
        loop {
            match self.keys[i] {
                EMPTY => return None,
                k if k == key => return Some(self.values[i]),
                _ => i = (i + 1) & self.mask,
            }
        }
    }

    /// Inserts `key → value` unless `key` is present; answers the value now stored and whether
    /// it was inserted.
    pub(crate) fn insert(&mut self, key: u64, value: u32) -> (u32, bool) {
        debug_assert_ne!(key, EMPTY);
        if (self.len + 1) * 2 > self.keys.len() {
            self.grow();
        }
        let mut i = self.slot(key);
        loop {
            match self.keys[i] {
                EMPTY => {
                    self.keys[i] = key;
                    self.values[i] = value;
                    self.len += 1;
                    return (value, true);
                }
                k if k == key => return (self.values[i], false),
                _ => i = (i + 1) & self.mask,
            }
        }
    }

    /// Number of keys.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    fn grow(&mut self) {
        let old_keys = std::mem::take(&mut self.keys);
        let old_values = std::mem::take(&mut self.values);
        let slots = old_keys.len() * 2;
        self.keys = vec![EMPTY; slots];
        self.values = vec![0; slots];
        self.mask = slots - 1;
        self.len = 0;
        for (k, v) in old_keys.into_iter().zip(old_values) {
            if k != EMPTY {
                self.insert(k, v);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn behaves_like_a_map_across_growth() {
        let mut m = StateMap::with_capacity(1);
        let mut reference = std::collections::HashMap::new();
        for i in 0..10_000u64 {
            let key = i.wrapping_mul(2_654_435_761) % (1 << 38);
            let (v, fresh) = m.insert(key, i as u32);
            let expected_fresh = !reference.contains_key(&key);
            let stored = *reference.entry(key).or_insert(i as u32);
            assert_eq!((v, fresh), (stored, expected_fresh));
        }
        assert_eq!(m.len(), reference.len());
        for (k, v) in &reference {
            assert_eq!(m.get(*k), Some(*v));
        }
        assert_eq!(m.get(1 << 39), None);
    }
}
