//! What the verdict says in words: the one sentence under "Safe" or "Unsafe", the same
//! judgement "so far" while the cursor has not reached the end (no spoilers), and what a
//! student's change did compared with the built-in as shipped.

use crate::check::{Finding, FindingKind, Overlap, Verdict};
use crate::decimal::seconds;
use crate::protocols::spec::Workload;
use crate::sim::Time;
use crate::timeline::draw::words::and_list;

/// The worst thing that happened by a moment, in the order a lecturer would name it.
enum Worst<'a> {
    LostUpdate(&'a Finding),
    Fenced(&'a Finding),
    HolderBlocked(&'a Finding),
    Overlap(&'a Overlap),
    TokenReused(&'a Finding),
    NobodyHeld,
    Fine,
}

/// The worst thing in `v` up to true time `upto` (None: the whole run).
fn worst(v: &Verdict, upto: Option<Time>) -> Worst<'_> {
    let by = |at: Time| upto.is_none_or(|u| at <= u);
    let first = |k: FindingKind| v.findings.iter().find(|f| f.kind == k && by(f.at_ms));
    if let Some(f) = first(FindingKind::StaleWriteAccepted) {
        return Worst::LostUpdate(f);
    }
    if let Some(f) = first(FindingKind::StaleWriteRejected) {
        return Worst::Fenced(f);
    }
    if let Some(f) = first(FindingKind::HolderWriteRejected) {
        return Worst::HolderBlocked(f);
    }
    // Clients between a read and their conditional write hold no lock: no overlap to speak of.
    let locked = v.approach.spec().workload == Workload::UnderLock;
    if let Some(o) = v.overlaps.iter().find(|o| locked && by(o.from_ms)) {
        return Worst::Overlap(o);
    }
    if let Some(f) = first(FindingKind::TokenRepeated).or(first(FindingKind::TokenRegressed)) {
        return Worst::TokenReused(f);
    }
    if !v.grants.iter().any(|g| by(g.at_ms)) {
        return Worst::NobodyHeld;
    }
    Worst::Fine
}

fn names(o: &Overlap) -> String {
    let names: Vec<&str> = o.clients.iter().map(String::as_str).collect();
    and_list(&names)
}

/// One sentence: the worst thing that happened in the whole run, or that nothing did.
pub fn sentence(v: &Verdict) -> String {
    match worst(v, None) {
        Worst::LostUpdate(f) => format!("Lost update: {}", f.text),
        Worst::Fenced(f) => format!("Fencing saved it: {}", f.text),
        Worst::HolderBlocked(f) => format!("No update was lost, but fencing blocked the rightful holder: {}", f.text),
        Worst::Overlap(o) => format!(
            "No update was lost, but {} {} for {}.",
            names(o),
            v.approach.spec().words.belief.at_once[1],
            seconds(o.to_ms - o.from_ms)
        ),
        Worst::TokenReused(f) => f.text.clone(),
        // Safe, but not fine: a liveness failure (retry storms, a lost majority).
        Worst::NobodyHeld => "No client ever got the lock, so nothing was written under it.".into(),
        Worst::Fine if v.approach.spec().workload == Workload::ReadModifyWrite => {
            "Nothing went wrong: every accepted write was based on the latest version.".into()
        }
        Worst::Fine => "Nothing went wrong: one holder at a time, and every write in order.".into(),
    }
}

/// The same judgement for what has happened by `upto`, without giving away the rest.
pub fn so_far(v: &Verdict, upto: Time) -> String {
    match worst(v, Some(upto)) {
        Worst::LostUpdate(f) => format!("So far: an update is lost. {}", f.text),
        Worst::Fenced(f) => format!("So far: fencing stopped a stale write. {}", f.text),
        Worst::HolderBlocked(f) => format!("So far: fencing blocked the rightful holder. {}", f.text),
        Worst::Overlap(o) if o.to_ms <= upto => format!(
            "So far: {} {} for {}; no update is lost yet.",
            names(o),
            v.approach.spec().words.belief.at_once[1],
            seconds(o.to_ms - o.from_ms)
        ),
        Worst::Overlap(o) => {
            format!(
                "So far: {} {} (since {}); no update is lost yet.",
                names(o),
                v.approach.spec().words.belief.at_once[0],
                seconds(o.from_ms)
            )
        }
        Worst::TokenReused(f) => format!("So far: {}", f.text),
        Worst::NobodyHeld => "So far: nobody has the lock yet.".into(),
        Worst::Fine if v.approach.spec().workload == Workload::ReadModifyWrite => {
            "So far: every accepted write was based on the latest version.".into()
        }
        Worst::Fine => "So far: one holder at a time.".into(),
    }
}

/// What a change did, judged against the run before it (`session`: the run the change was
/// made to): the feedback a student gets instead of the author's expectation, which was
/// written for the built-in as shipped.
pub fn change(original: &Verdict, now: &Verdict) -> String {
    let lost = |v: &Verdict| v.findings.iter().find(|f| f.kind == FindingKind::StaleWriteAccepted).map(|f| f.at_ms);
    match (lost(original), original.safe, now.safe) {
        (Some(at), false, true) => {
            format!("Your change made it safe: before it, the run lost an update at {}; now it loses none.", seconds(at))
        }
        (_, true, false) => format!("Your change made it unsafe. {}", sentence(now)),
        (_, false, false) => format!("Still unsafe after your change. {}", sentence(now)),
        _ => format!("Still safe after your change. {}", sentence(now)),
    }
}

/// The latest moment at or before `cursor` at which `so_far` can change (a finding, an
/// overlap's start or end, a grant), or -1 before any: the verdict panel re-renders only when
/// this moves.
pub fn milestone(v: &Verdict, cursor: Time) -> Time {
    let times = v
        .findings
        .iter()
        .map(|f| f.at_ms)
        .chain(v.overlaps.iter().flat_map(|o| [o.from_ms, o.to_ms]))
        .chain(v.grants.iter().map(|g| g.at_ms));
    times.filter(|&t| t <= cursor).max().unwrap_or(-1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab;
    use crate::scenario::catalog;

    #[test]
    fn the_verdict_builds_up_without_giving_the_end_away() {
        let v = lab::run(&catalog::get("redis-gc-pause").unwrap()).verdict;
        assert_eq!(so_far(&v, 0), "So far: nobody has the lock yet.");
        assert_eq!(so_far(&v, 5_000), "So far: one holder at a time.");
        let both = so_far(&v, 10_300);
        assert!(both.starts_with("So far: A and B believe they hold the lock at the same time (since 10.104 s)"), "{both}");
        let after = so_far(&v, 12_000);
        assert!(after.starts_with("So far: A and B believed they held the lock at the same time for 507 ms"), "{after}");
        assert!(so_far(&v, 15_505).starts_with("So far: an update is lost."));
        assert_eq!(sentence(&v), format!("Lost update: {}", v.findings[0].text));
        // The panel re-renders only at milestones.
        assert_eq!(milestone(&v, 9_000), 2);
        assert_eq!(milestone(&v, 10_300), 10_104);
        assert_eq!(milestone(&v, -5), -1);
    }

    #[test]
    fn a_change_is_judged_against_the_built_in_as_shipped() {
        let shipped = catalog::get("redis-gc-pause").unwrap();
        let original = lab::run(&shipped).verdict;
        let mut longer = shipped.clone();
        longer.lock.ttl_ms = 20_000;
        let safe = lab::run(&longer).verdict;
        assert_eq!(change(&original, &safe), "Your change made it safe: before it, the run lost an update at 15.505 s; now it loses none.");
        assert!(change(&safe, &original).starts_with("Your change made it unsafe. Lost update:"));
        assert!(change(&original, &original).starts_with("Still unsafe after your change."));
        assert!(change(&safe, &safe).starts_with("Still safe after your change."));
    }
}
