//! One small stable sort for the whole crate. The standard library's sorts are fast, but each
//! call site monomorphises about 3 KB of wasm (in the release bundle: 79 sort functions, 45 KB
//! before gzip). Everything sorted here is short (lanes, findings, bars, a paused node's
//! backlog) or sorted once per run, so one merge sort on indices serves every type.

/// The stable order of `n` items, given `less` ("item i comes strictly before item j"): a
/// bottom-up merge sort on indices, so there is one copy of it in the binary.
fn stable_order(n: usize, less: &dyn Fn(usize, usize) -> bool) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    let mut merged = vec![0; n];
    let mut width = 1;
    while width < n {
        let mut lo = 0;
        while lo < n {
            let mid = (lo + width).min(n);
            let hi = (lo + 2 * width).min(n);
            let (mut i, mut j) = (lo, mid);
            for slot in &mut merged[lo..hi] {
                // Take from the right-hand run only when strictly before: equal keys keep their order.
                if j < hi && (i >= mid || less(order[j], order[i])) {
                    *slot = order[j];
                    j += 1;
                } else {
                    *slot = order[i];
                    i += 1;
                }
            }
            lo = hi;
        }
        std::mem::swap(&mut order, &mut merged);
        width *= 2;
    }
    order
}

/// Sorts `v` by `key`, stably: items with equal keys keep their order.
pub fn by_key<T, K: Ord>(v: &mut Vec<T>, key: impl Fn(&T) -> K) {
    let order = stable_order(v.len(), &|i, j| key(&v[i]) < key(&v[j]));
    let mut items: Vec<Option<T>> = std::mem::take(v).into_iter().map(Some).collect();
    v.extend(order.into_iter().filter_map(|i| items[i].take()));
}

/// Sorts `v` and drops repeated items.
pub fn unique<T: Ord + Copy>(v: &mut Vec<T>) {
    by_key(v, |x| *x);
    v.dedup();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_stably_like_the_standard_library() {
        // A deterministic pseudo-random list with many equal keys, of every length up to 70.
        let mut x = 12345u64;
        for n in 0..70 {
            let mut v: Vec<(u8, usize)> = (0..n)
                .map(|i| {
                    x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    ((x >> 60) as u8, i)
                })
                .collect();
            let mut want = v.clone();
            want.sort_by_key(|p| p.0);
            by_key(&mut v, |p| p.0);
            assert_eq!(v, want, "n = {n}");
        }
    }

    #[test]
    fn unique_sorts_and_dedups() {
        let mut v = vec![3, 1, 3, 2, 1];
        unique(&mut v);
        assert_eq!(v, [1, 2, 3]);
    }
}
