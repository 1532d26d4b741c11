//! Seeded randomness. One ChaCha stream per node and per link, derived from the scenario seed,
//! so a fault added at 9 s does not change any draw made before it on another stream.
//! A stream is keyed by names (a node's, a link's two ends'), never by a position: adding,
//! removing or renaming one client leaves every other node's and link's draws as they were.

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

/// 64-bit FNV-1a of `bytes`: stable across targets and runs: what keys the streams by
/// name, and what trace hashes are made of.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ *b as u64).wrapping_mul(0x0000_0100_0000_01b3))
}

/// A deterministic random stream.
#[derive(Clone, Debug)]
pub struct Stream(ChaCha8Rng);

/// SplitMix64 finaliser: spreads (seed, stream key) into an independent 64-bit seed.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Stream {
    /// The stream named `key` under `seed`.
    pub fn new(seed: u64, key: u64) -> Self {
        Stream(ChaCha8Rng::seed_from_u64(mix(seed ^ mix(key))))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform integer in `[lo, hi]` (inclusive). Modulo bias is below 2^-40 for our ranges.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        if hi <= lo {
            return lo;
        }
        let span = (hi - lo) as u64 + 1;
        lo + (self.next_u64() % span) as i64
    }

    /// Uniform float in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Stream key of the node named `name`.
pub fn node_key(name: &str) -> u64 {
    name_key(b"node", &[name])
}

/// Stream key of the directed link `from → to`, by its ends' node names.
pub fn link_key(from: &str, to: &str) -> u64 {
    name_key(b"link", &[from, to])
}

/// Stream key of the scenario's fault schedule at `index` in `schedules[]` (a schedule has no
/// name; one added at the end leaves the others' draws as they were).
pub fn schedule_key(index: usize) -> u64 {
    name_key(b"schedule", &[&index.to_string()])
}

/// FNV-1a (the same on every target, unlike std's `RandomState`) of a kind tag and names, each
/// name preceded by its length so that no two lists of names give the same bytes
/// (`("ab", "c")` and `("a", "bc")` differ).
fn name_key(kind: &[u8], names: &[&str]) -> u64 {
    let mut bytes = kind.to_vec();
    for name in names {
        bytes.extend_from_slice(&(name.len() as u64).to_le_bytes());
        bytes.extend_from_slice(name.as_bytes());
    }
    fnv1a(&bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_reproducible_and_independent() {
        let mut a = Stream::new(42, node_key("A"));
        let mut b = Stream::new(42, node_key("A"));
        let mut c = Stream::new(42, node_key("B"));
        let xs: Vec<u64> = (0..4).map(|_| a.next_u64()).collect();
        let ys: Vec<u64> = (0..4).map(|_| b.next_u64()).collect();
        let zs: Vec<u64> = (0..4).map(|_| c.next_u64()).collect();
        assert_eq!(xs, ys);
        assert_ne!(xs, zs);
        for _ in 0..1000 {
            let v = a.range(1, 5);
            assert!((1..=5).contains(&v));
        }
    }

    #[test]
    fn keys_depend_on_the_names_and_their_kind_only() {
        // A fixed value (FNV-1a of b"node", 1u64 little-endian, b"A", computed outside Rust): a
        // key that changed between builds or targets would change every run.
        assert_eq!(node_key("A"), 0x7cc9_d300_1c80_a937);
        assert_ne!(node_key("A"), node_key("B"));
        assert_ne!(link_key("A", "B"), link_key("B", "A"), "a link's two directions draw apart");
        assert_ne!(link_key("ab", "c"), link_key("a", "bc"));
        assert_ne!(node_key("A"), link_key("A", ""));
    }
}
