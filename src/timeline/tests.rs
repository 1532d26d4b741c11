use super::*;
use crate::lab::{self, Run};
use crate::protocols::BeliefEnd;
use crate::scenario::fault::{ClockDrift, ClockJump, Crash, Partition};
use crate::scenario::{catalog, parse, FaultSpec};

fn run(id: &str, fencing: bool) -> Run {
    let s = catalog::get(id).expect("built-in");
    lab::run(&lab::with_fencing(&s, fencing))
}

fn gc_pause(fencing: bool) -> (Run, Timeline) {
    let r = run("redis-gc-pause", fencing);
    let t = Timeline::of_run(&r);
    (r, t)
}

fn with_faults(id: &str, faults: Vec<FaultSpec>) -> Timeline {
    let mut s = catalog::get(id).expect("built-in");
    s.faults.extend(faults);
    let s = parse(&serde_json::to_string(&s).unwrap()).expect("still valid");
    Timeline::of_run(&lab::run(&s))
}

fn node(t: &Timeline, name: &str) -> NodeId {
    t.lanes.iter().find(|l| l.name == name).expect("lane").node
}

#[test]
fn lanes_put_the_service_on_top_clients_in_the_middle_storage_below() {
    let (_, t) = gc_pause(false);
    let names: Vec<&str> = t.lanes.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, ["redis", "A", "B", "storage"]);
    assert_eq!(t.hue(node(&t, "A")), Some(0));
    assert_eq!(t.hue(node(&t, "B")), Some(1));
    assert_eq!(t.hue(node(&t, "redis")), None);
}

#[test]
fn a_believes_through_its_pause_while_redis_lets_its_lease_expire() {
    let (_, t) = gc_pause(false);
    let a = node(&t, "A");
    let belief = t.beliefs.iter().find(|b| b.client == a).expect("A believes");
    let held = t.held.iter().find(|h| h.client == a).expect("redis holds A's lease");
    let pause = t.bands.iter().find(|b| b.node == a).expect("A pauses");
    assert_eq!(pause.kind, BandKind::Paused);
    assert_eq!((pause.from, pause.to), (500, 15_500));
    assert_eq!(held.end, LeaseEnd::Expired);
    assert!(held.to >= 10_000 && held.to < 10_100, "TTL expiry near 10 s, got {}", held.to);
    // A's own timer was due near 10 s, but A only processes it after waking.
    let deadline = belief.deadline.expect("validity deadline");
    assert!((9_900..10_100).contains(&deadline), "deadline {deadline}");
    assert!(belief.to >= 15_500, "A believes until it wakes, got {}", belief.to);
    assert_eq!(belief.end, Some(BeliefEnd::ValidityExpired));
    assert_eq!(belief.token, Some(1));
}

#[test]
fn b_takes_over_at_the_lock_server() {
    let (_, t) = gc_pause(false);
    let (b, redis) = (node(&t, "B"), node(&t, "redis"));
    let lease = t.leases.iter().find(|l| l.holder == b).expect("B's lease");
    assert_eq!(lease.server, redis);
    assert!(lease.takeover);
    assert_eq!(lease.token, Some(2));
    assert!(t.key_moments.iter().any(|k| k.kind == KeyKind::Takeover && k.text.starts_with("B takes over")));
    assert!(!t.leases.iter().find(|l| l.holder != b).unwrap().takeover);
}

#[test]
fn writes_carry_the_verdicts_judgement() {
    let (_, off) = gc_pause(false);
    let (_, on) = gc_pause(true);
    let a = node(&off, "A");
    let results = |t: &Timeline| t.writes.iter().map(|w| (t.name(w.client).to_string(), w.token, w.result)).collect::<Vec<_>>();
    assert_eq!(results(&off), [("B".into(), Some(2), WriteResult::Accepted), ("A".into(), Some(1), WriteResult::StaleAccepted)]);
    assert_eq!(results(&on), [("B".into(), Some(2), WriteResult::Accepted), ("A".into(), Some(1), WriteResult::Rejected)]);
    let stale = off.writes.iter().find(|w| w.client == a).unwrap();
    assert!(stale.after_takeover);
    assert_eq!(stale.storage, node(&off, "storage"));
    assert_eq!(WriteResult::StaleAccepted.id(), "stale-accepted");
}

#[test]
fn arrows_follow_messages_and_retries_are_quiet() {
    let (r, t) = gc_pause(false);
    let sent = r.trace.events.iter().filter(|e| matches!(e.kind, crate::protocols::EventKind::Sent { .. })).count();
    assert_eq!(t.arrows.len(), sent);
    assert!(t.arrows.iter().all(|a| a.sent <= a.end()));
    let (a, b, storage) = (node(&t, "A"), node(&t, "B"), node(&t, "storage"));
    // B's refused attempts while A's key exists are drawn faint, requests and replies alike.
    let quiet: Vec<&Arrow> = t.arrows.iter().filter(|x| x.quiet).collect();
    assert!(quiet.len() > 10);
    assert!(quiet.iter().all(|x| x.client == Some(b)));
    assert!(quiet.iter().any(|x| x.reply) && quiet.iter().any(|x| !x.reply));
    // A's write leaves when A wakes and goes to storage.
    let write = t.arrows.iter().find(|x| x.from == a && x.to == storage).expect("A writes");
    assert!(write.data && !write.reply && !write.quiet);
    assert!(write.sent >= 15_500);
    assert!(write.label.contains("token 1"));
    assert!(write.in_flight(write.sent as f64) && !write.in_flight(write.end() as f64));
}

#[test]
fn a_message_to_a_paused_node_is_handled_late() {
    // A paused client receives nothing while frozen: pause A right as it asks for the lock.
    let t = with_faults("happy-path-redis", vec![]);
    assert!(t.arrows.iter().all(|a| a.handled.is_none_or(|h| Some(h) == a.arrive)));
    let (_, gc) = gc_pause(false);
    assert!(gc.arrows.iter().all(|a| a.handled.is_none_or(|h| a.arrive.is_some_and(|t| h >= t))));
}

#[test]
fn lane_state_reads_the_situation_at_an_instant() {
    let (_, t) = gc_pause(false);
    let (a, b, redis) = (node(&t, "A"), node(&t, "B"), node(&t, "redis"));
    let at = 10_300;
    let sa = t.lane_state(a, at);
    assert!(sa.paused && !sa.down);
    assert_eq!(sa.believes, Some(Some(1)));
    assert_eq!(t.lane_state(b, at).believes, Some(Some(2)));
    assert_eq!(t.lane_state(redis, at).holders, [(b, Some(2))]);
    assert_eq!(t.lane_state(redis, 5_000).holders, [(a, Some(1))]);
}

#[test]
fn overlap_of_believers_comes_from_the_verdict() {
    let (r, t) = gc_pause(false);
    assert_eq!(t.overlaps.len(), r.verdict.overlaps.len());
    let o = &t.overlaps[0];
    assert_eq!(o.clients, [node(&t, "A"), node(&t, "B")]);
    assert!(o.from < o.to);
}

#[test]
fn steps_visit_every_captioned_event_once_forward_and_back() {
    let (_, t) = gc_pause(false);
    let (mut cursor, mut focus) = (0.0, None);
    let mut seen = Vec::new();
    while let Some(s) = t.next_step(cursor, focus) {
        assert!(s.at as f64 >= cursor.floor());
        seen.push(s);
        cursor = s.at as f64;
        focus = Some(s.event);
    }
    // The first step is already showing at 0 ms.
    assert_eq!(t.current_step(0.0, None), Some(0));
    assert_eq!(seen, t.steps[1..]);
    let mut back = Vec::new();
    while let Some(s) = t.prev_step(cursor, focus) {
        back.push(s);
        cursor = s.at as f64;
        focus = Some(s.event);
    }
    back.reverse();
    assert_eq!(back, t.steps[..t.steps.len() - 1]);
}

#[test]
fn a_retry_loop_is_one_step_not_forty() {
    let (_, t) = gc_pause(false);
    let b = node(&t, "B");
    let during_pause = t.steps.iter().filter(|s| (2_000..10_000).contains(&s.at)).count();
    assert!(during_pause <= 4, "{during_pause} steps while B retries");
    assert!(t.arrows.iter().filter(|a| a.quiet && a.client == Some(b)).count() > 20);
}

#[test]
fn step_from_between_events_goes_to_the_next_one() {
    let (_, t) = gc_pause(false);
    let s = t.next_step(12_345.6, None).unwrap();
    assert!(s.at > 12_345);
    let p = t.prev_step(12_345.6, None).unwrap();
    assert!(p.at <= 12_345);
    let showing = t.steps[t.current_step(12_345.6, None).unwrap()];
    assert!(p.event < showing.event);
}

#[test]
fn key_moments_tell_the_story_in_order() {
    let (_, t) = gc_pause(false);
    let kinds: Vec<KeyKind> = t.key_moments.iter().map(|k| k.kind).collect();
    let pos = |k: KeyKind| kinds.iter().position(|&x| x == k).unwrap_or_else(|| panic!("{k:?} in {kinds:?}"));
    assert!(pos(KeyKind::Grant) < pos(KeyKind::Paused));
    assert!(pos(KeyKind::Paused) < pos(KeyKind::LeaseExpired));
    assert!(pos(KeyKind::LeaseExpired) < pos(KeyKind::Takeover));
    assert!(pos(KeyKind::Takeover) < pos(KeyKind::Resumed));
    assert!(pos(KeyKind::Resumed) < pos(KeyKind::Write(WriteResult::StaleAccepted)));
    assert!(t.key_moments.windows(2).all(|w| w[0].at <= w[1].at));
    let first = t.next_key(0.0, None).unwrap();
    assert_eq!(first.kind, KeyKind::Grant);
    let stale = t.key_moments.iter().find(|k| k.kind == KeyKind::Write(WriteResult::StaleAccepted)).unwrap();
    assert_eq!(t.prev_key(stale.at as f64 + 0.5, None).map(|k| k.at < stale.at), Some(true));
    assert!(t.next_key(t.duration_ms as f64, None).is_none());
    // Key moments that share a millisecond are visited one by one: standing on one (focused),
    // the next is the one after it, not the first one after that millisecond.
    for (k, pair) in t.key_moments.windows(2).enumerate() {
        let next = t.next_key(pair[0].at as f64, Some(pair[0].event)).unwrap();
        assert_eq!((next.at, next.event), (pair[1].at, pair[1].event), "after key moment {k}");
        let back = t.prev_key(pair[1].at as f64, Some(pair[1].event)).unwrap();
        assert_eq!((back.at, back.event), (pair[0].at, pair[0].event), "before key moment {}", k + 1);
    }
}

#[test]
fn playback_crawls_at_key_moments_and_hurries_between_them() {
    let (_, t) = gc_pause(false);
    let key = t.key_moments.iter().find(|k| k.kind == KeyKind::Takeover).unwrap().at as f64;
    assert_eq!(t.rate_at(key), pacing::SLOW_MS_PER_S);
    // Between the pause (0.5 s) and the expiry (10 s) the quiet stretch runs at a rate that
    // passes it in QUIET_S.
    assert!(t.rate_at(7_000.0) >= pacing::FAST_MS_PER_S);
    assert!(t.rate_at(7_000.0) > 9_000.0 / pacing::QUIET_S * 0.9);
    let mid = t.rate_at(key + 20.0);
    assert!(mid > pacing::SLOW_MS_PER_S && mid < t.rate_at(7_000.0));
    // One real second far from anything covers seconds; near the takeover, milliseconds.
    assert!(t.advance(6_000.0, 1000.0, 1.0) > 7_000.0);
    assert!(t.advance(key - 2.0, 50.0, 1.0) < key);
    assert!(t.advance(key - 2.0, 100.0, 4.0) > t.advance(key - 2.0, 100.0, 1.0));
    assert_eq!(t.advance(19_999.0, 5_000.0, 4.0), t.duration_ms as f64);
    let mut c = 0.0;
    for _ in 0..2_000 {
        let n = t.advance(c, 16.0, 1.0);
        assert!(n > c || n == t.duration_ms as f64);
        c = n;
    }
}

#[test]
fn clocks_follow_jumps_and_drift_and_a_forward_step_ends_a_lease_early() {
    let t = with_faults(
        "redis-gc-pause",
        vec![
            FaultSpec::ClockJump(ClockJump { at_ms: 5_000, node: "redis".into(), by_ms: 3_000 }),
            FaultSpec::ClockDrift(ClockDrift { at_ms: 1_000, node: "B".into(), ppm: 100_000 }),
        ],
    );
    let (redis, a, b) = (node(&t, "redis"), node(&t, "A"), node(&t, "B"));
    let c = t.clocks.at(redis, 6_000).unwrap();
    assert_eq!((c.wall_ms, c.mono_ms, c.ppm), (9_000, 6_000, 0));
    assert_eq!(c.wall_skew(6_000), 3_000);
    let cb = t.clocks.at(b, 11_000).unwrap();
    assert_eq!((cb.wall_ms, cb.mono_ms, cb.ppm), (12_000, 12_000, 100_000));
    assert_eq!(t.clocks.at(b, 500).unwrap().wall_ms, 500);
    let lease = t.leases.iter().find(|l| l.holder == a).unwrap();
    assert_eq!(lease.end, LeaseEnd::Expired);
    assert!(lease.to < 7_200, "expires ~3 s early, got {}", lease.to);
    assert!(lease.planned_end.is_some_and(|p| (lease.to - 5..=lease.to + 5).contains(&p)), "{lease:?}");
    assert!(t.marks.iter().any(|m| m.node == redis && m.kind == MarkKind::ClockJump { by_ms: 3_000 }));
    assert!(t.marks.iter().any(|m| m.node == b && m.kind == MarkKind::ClockDrift { ppm: 100_000 }));
    assert!(t.key_moments.iter().any(|k| k.kind == KeyKind::ClockChanged));
}

#[test]
fn true_time_when_follows_later_changes() {
    let t = with_faults("happy-path-redis", vec![FaultSpec::ClockJump(ClockJump { at_ms: 1_000, node: "redis".into(), by_ms: -500 })]);
    let redis = node(&t, "redis");
    // From 0, the wall clock reads 2 000 at true 2 500 (it was stepped back 0.5 s at 1 s).
    assert_eq!(t.clocks.true_time_when(redis, crate::sim::ClockKind::Wall, 0, 2_000), Some(2_500));
    assert_eq!(t.clocks.true_time_when(redis, crate::sim::ClockKind::Wall, 0, 900), Some(900));
    assert_eq!(t.clocks.true_time_when(redis, crate::sim::ClockKind::Mono, 0, 2_000), Some(2_000));
}

#[test]
fn crashes_draw_a_down_band_and_marks() {
    let t = with_faults(
        "redis-gc-pause",
        vec![FaultSpec::Crash(Crash { at_ms: 3_000, node: "redis".into(), restart_after_ms: Some(1_000), machine: true })],
    );
    let redis = node(&t, "redis");
    let down = t.bands.iter().find(|b| b.node == redis).expect("down band");
    assert_eq!((down.from, down.to, down.kind), (3_000, 4_000, BandKind::Down { machine: true }));
    assert!(t.marks.iter().any(|m| m.node == redis && m.kind == MarkKind::Crash { machine: true }));
    assert!(t.marks.iter().any(|m| m.node == redis && m.kind == MarkKind::Restart));
    assert!(t.lane_state(redis, 3_500).down);
}

#[test]
fn partitions_include_the_group_of_unlisted_nodes() {
    let t = with_faults(
        "redis-gc-pause",
        vec![FaultSpec::Partition(Partition { at_ms: 2_000, groups: vec![vec!["A".into(), "redis".into()]], duration_ms: Some(1_000) })],
    );
    assert_eq!(t.partitions.len(), 1);
    let p = &t.partitions[0];
    assert_eq!((p.from, p.to), (2_000, 3_000));
    assert_eq!(p.groups.len(), 2);
    assert!(p.groups[1].contains(&node(&t, "B")) && p.groups[1].contains(&node(&t, "storage")));
}

#[test]
fn plain_del_shows_whose_lock_was_deleted() {
    let t = Timeline::of_run(&run("redis-plain-del-unlock", false));
    let (a, b) = (node(&t, "A"), node(&t, "B"));
    assert!(t.leases.iter().any(|l| l.holder == b && l.end == LeaseEnd::DeletedBy(a)));
    assert!(t.key_moments.iter().any(|k| k.kind == KeyKind::LeaseDeleted));
}

#[test]
fn every_builtin_derives_a_consistent_timeline() {
    for s in catalog::all() {
        for fencing in [false, true] {
            let r = lab::run(&lab::with_fencing(&s, fencing));
            let t = Timeline::of_run(&r);
            assert_eq!(t, Timeline::of_run(&r), "{}: deterministic", s.id);
            assert_eq!(t.lanes.len(), r.trace.nodes.len());
            assert_eq!(t.writes.len(), r.verdict.writes.len(), "{}", s.id);
            let bars_ok = |from: Time, to: Time| from <= to && to <= t.duration_ms;
            assert!(t.beliefs.iter().all(|b| bars_ok(b.from, b.to)), "{}", s.id);
            assert!(t.leases.iter().all(|l| bars_ok(l.from, l.to)), "{}", s.id);
            assert!(t.held.iter().all(|h| bars_ok(h.from, h.to)), "{}", s.id);
            assert!(t.bands.iter().all(|b| bars_ok(b.from, b.to)), "{}", s.id);
            assert!(!t.key_moments.is_empty() && !t.steps.is_empty());
        }
    }
}

#[test]
fn ensembles_mark_the_leader_and_expire_the_session_lease() {
    let t = Timeline::of_run(&run("zookeeper-session-expiry", false));
    let (zk1, zk2, a, b) = (node(&t, "zk-1"), node(&t, "zk-2"), node(&t, "A"), node(&t, "B"));
    assert_eq!(t.leader_at(zk1, 1_000), Some(true));
    assert_eq!(t.leader_at(zk2, 1_000), Some(false));
    assert_eq!(t.leader_at(a, 1_000), None);
    assert!(t.marks.iter().any(|m| m.node == zk1 && matches!(m.kind, MarkKind::Leader { .. })));
    let held_a = t.held.iter().find(|h| h.client == a).unwrap();
    assert_eq!(held_a.end, LeaseEnd::Expired);
    assert!(t.key_moments.iter().any(|k| k.kind == KeyKind::SessionExpired));
    assert!(t.leases.iter().any(|l| l.holder == b && l.takeover));
    // Ensemble clients keep no validity timer of their own.
    assert!(t.beliefs.iter().all(|b| b.deadline.is_none()));
    // Keep-alives and replication are background.
    let busy = t.arrows.iter().filter(|x| x.quiet || x.client.is_none()).count();
    assert!(busy * 2 > t.arrows.len());
}

#[test]
fn redis_failover_promotes_the_replica_and_demotion_drops_the_old_lease() {
    let t = Timeline::of_run(&run("redis-failover", false));
    let (primary, replica, a) = (node(&t, "redis"), node(&t, "redis-replica"), node(&t, "A"));
    assert_eq!(t.leader_at(replica, 500), Some(false));
    assert_eq!(t.leader_at(replica, 2_000), Some(true));
    assert_eq!(t.leader_at(primary, 500), Some(true));
    assert!(t.key_moments.iter().any(|k| k.kind == KeyKind::LeaderChanged));
    let lease = t.leases.iter().find(|l| l.holder == a && l.server == primary).unwrap();
    assert_ne!(lease.end, LeaseEnd::Open, "{lease:?}");
}

#[test]
fn redlock_holds_only_while_a_majority_does() {
    let t = Timeline::of_run(&run("redlock-clock-jump", false));
    let a = node(&t, "A");
    let held = t.held.iter().find(|h| h.client == a).unwrap();
    let on_servers = t.leases.iter().filter(|l| l.holder == a).count();
    assert!(on_servers >= 3);
    // A majority (3 of 5) until one instance's clock jump expires A's key there.
    assert!(held.to < t.leases.iter().filter(|l| l.holder == a).map(|l| l.to).max().unwrap());
    assert_eq!(held.end, LeaseEnd::Expired);
}

/// Every built-in's story has its key moments, whatever the approach: the grant, the pause and
/// the wake-up, the expiry, the takeover, the late write — wherever the run has them.
#[test]
fn every_built_in_has_its_story_s_key_moments() {
    for s in catalog::all() {
        for fencing in [false, true] {
            let r = lab::run(&lab::with_fencing(&s, fencing));
            let t = Timeline::of_run(&r);
            let has = |k: KeyKind| t.key_moments.iter().any(|m| m.kind == k);
            let id = format!("{} fencing {fencing}", s.id);
            if !r.verdict.grants.is_empty() {
                assert!(has(KeyKind::Grant), "{id}: no grant moment");
            }
            if s.faults.iter().any(|f| matches!(f, FaultSpec::Pause(_))) {
                assert!(has(KeyKind::Paused) && has(KeyKind::Resumed), "{id}: pause or wake-up missing");
            }
            if t.leases.iter().any(|l| l.end == LeaseEnd::Expired) {
                assert!(has(KeyKind::LeaseExpired) || has(KeyKind::SessionExpired), "{id}: no expiry moment");
            }
            // Clients between a read and their conditional write are no takeover: there is no lock.
            let locked = s.approach.spec().workload == crate::protocols::spec::Workload::UnderLock;
            if locked && !r.verdict.overlaps.is_empty() && r.verdict.grants.len() > 1 {
                assert!(has(KeyKind::Takeover), "{id}: two believers but no takeover moment");
            }
            for w in &t.writes {
                assert!(t.key_moments.iter().any(|m| m.event == w.event), "{id}: the write at {} has no key moment", w.at);
            }
            // Redlock's grant names the majority.
            if s.approach.spec().quorum(5) > 1 {
                assert!(
                    t.key_moments
                        .iter()
                        .filter(|m| matches!(m.kind, KeyKind::Grant | KeyKind::Takeover))
                        .all(|m| m.text.contains(" instances")),
                    "{id}"
                );
            }
        }
    }
}
