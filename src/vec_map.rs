//! A map kept as a sorted `Vec`. The maps in Lock Lab are small (a node's pending timers, an
//! ensemble's sessions) or filled once per run (a timeline's message index); each `BTreeMap`
//! key/value type costs about 4 KB of wasm for its node code, this costs a few hundred bytes.
//! Iteration is in key order, as with `BTreeMap`, so traces stay deterministic.

#[derive(Clone, Debug)]
pub struct VecMap<K, V> {
    entries: Vec<(K, V)>,
}

impl<K, V> Default for VecMap<K, V> {
    fn default() -> Self {
        VecMap { entries: Vec::new() }
    }
}

impl<K: Ord + Copy, V> VecMap<K, V> {
    pub fn new() -> Self {
        Self::default()
    }

    fn find(&self, key: &K) -> Result<usize, usize> {
        self.entries.binary_search_by(|(k, _)| k.cmp(key))
    }

    pub fn get(&self, key: &K) -> Option<&V> {
        self.find(key).ok().map(|i| &self.entries[i].1)
    }

    /// Inserts or replaces; appending a key above every other one (ids that only grow) is O(1).
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        if self.entries.last().is_none_or(|(last, _)| *last < key) {
            self.entries.push((key, value));
            return None;
        }
        match self.find(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.entries[i].1, value)),
            Err(i) => {
                self.entries.insert(i, (key, value));
                None
            }
        }
    }

    pub fn remove(&mut self, key: &K) -> Option<V> {
        self.find(key).ok().map(|i| self.entries.remove(i).1)
    }

    pub fn clear(&mut self) {
        self.entries.clear();
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Entries in key order, values mutable.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (&K, &mut V)> {
        self.entries.iter_mut().map(|(k, v)| (&*k, v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn behaves_like_a_btree_map() {
        let mut m = VecMap::new();
        let mut b = std::collections::BTreeMap::new();
        let mut x = 7u64;
        for step in 0..500u64 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let key = (x >> 58) as u8;
            match step % 3 {
                0 | 1 => assert_eq!(m.insert(key, step), b.insert(key, step)),
                _ => assert_eq!(m.remove(&key), b.remove(&key)),
            }
            assert_eq!(m.get(&key), b.get(&key));
            assert_eq!(m.len(), b.len());
        }
        let ours: Vec<(u8, u64)> = m.iter_mut().map(|(k, v)| (*k, *v)).collect();
        let theirs: Vec<(u8, u64)> = b.into_iter().collect();
        assert_eq!(ours, theirs);
    }
}
