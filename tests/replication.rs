//! Redis replication follows SCENARIO_FORMAT: each write reaches the replica after the network
//! delay. So a primary that crashes right after a grant has already streamed it, and the
//! promoted replica keeps the lock; only a broken replication stream loses it (redis-failover).

use locklab::lab;
use locklab::scenario::{catalog, FaultSpec};

#[test]
fn a_grant_streamed_before_the_crash_survives_the_failover() {
    let mut s = catalog::all().into_iter().find(|s| s.id == "redis-failover").unwrap();
    let broken_stream = s.faults.iter().position(|f| matches!(f, FaultSpec::Drop(_))).expect("the built-in cuts the stream");
    let lost = lab::run(&s);
    assert_eq!(lost.verdict.grants.len(), 2, "with the stream cut, B is granted on the promoted replica");

    s.faults.remove(broken_stream);
    let kept = lab::run(&s);
    let v = &kept.verdict;
    // The promoted replica had A's key and the counter: B waits until A releases, and gets
    // the next token.
    let tokens: Vec<_> = v.grants.iter().map(|g| (g.client.as_str(), g.token)).collect();
    assert_eq!(tokens, [("A", Some(1)), ("B", Some(2))]);
    assert!(v.grants[1].at_ms > 4000, "B is granted after A's write and release: {:?}", v.grants);
    assert!(v.safe && v.max_concurrent_holders == 1 && v.stale_writes_accepted == 0, "{v:?}");
}
