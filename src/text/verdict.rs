//! What the verdict says in words: the one sentence under "Safe" or "Unsafe".

use crate::check::{FindingKind, Verdict};
use crate::decimal::seconds;
use crate::timeline::draw::words::and_list;

/// One sentence: the worst thing that happened, or that nothing did.
pub fn sentence(v: &Verdict) -> String {
    let first = |k: FindingKind| v.findings.iter().find(|f| f.kind == k);
    if let Some(f) = first(FindingKind::StaleWriteAccepted) {
        return format!("Lost update: {}", f.text);
    }
    if let Some(f) = first(FindingKind::StaleWriteRejected) {
        return format!("Fencing saved it: {}", f.text);
    }
    if let Some(o) = v.overlaps.first() {
        let names: Vec<&str> = o.clients.iter().map(String::as_str).collect();
        return format!(
            "No update was lost, but {} believed they held the lock at the same time for {}.",
            and_list(&names),
            seconds(o.to_ms - o.from_ms)
        );
    }
    if let Some(f) = first(FindingKind::TokenRepeated).or(first(FindingKind::TokenRegressed)) {
        return f.text.clone();
    }
    if v.grants.is_empty() {
        // Safe, but not fine: a liveness failure (retry storms, a lost majority).
        return "No client ever got the lock, so nothing was written under it.".into();
    }
    "Nothing went wrong: one holder at a time, and every write in order.".into()
}
