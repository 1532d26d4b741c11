//! The replicated log and its terms: what a server stores (entries, the commit index, its vote)
//! and the rules that decide, as plain values, whether a follower takes a leader's entries,
//! how far a leader may commit, and whether a server grants a vote. Raft-shaped (terms as
//! epochs, the up-to-date vote rule): that is what makes "committed state is never lost" hold
//! under any crash of a minority. The server (`server`) sends and times; this file decides.

use super::super::Entry;
use crate::sim::NodeId;

/// A leader heartbeats its followers this often.
pub const HEARTBEAT_MS: i64 = 250;
/// A follower that has not heard from a leader this long starts an election.
pub const ELECTION_TIMEOUT_MS: i64 = 1000;
/// Extra wait per server rank, so the lowest-numbered candidate goes first.
pub const ELECTION_STAGGER_MS: i64 = 150;

/// How many of `servers` make a majority.
pub fn majority(servers: usize) -> usize {
    servers / 2 + 1
}

/// A server's log and how much of it is committed (fsynced before any reply, as both systems do).
#[derive(Clone, Debug, Default)]
pub struct Log {
    entries: Vec<Entry>,
    commit: usize,
}

impl Log {
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// How many entries are committed (and applied).
    pub fn commit(&self) -> usize {
        self.commit
    }

    /// The epoch of the entry that ends a prefix of `len` entries (0 for the empty prefix).
    pub fn epoch_before(&self, len: usize) -> u64 {
        len.checked_sub(1).map_or(0, |i| self.entries[i].epoch)
    }

    /// The epoch of the last entry (0 for an empty log).
    pub fn last_epoch(&self) -> u64 {
        self.epoch_before(self.len())
    }

    /// The entries after the first `len`.
    pub fn after(&self, len: usize) -> &[Entry] {
        &self.entries[len..]
    }

    /// Appends a leader's own entry; returns its index.
    pub fn push(&mut self, entry: Entry) -> usize {
        self.entries.push(entry);
        self.entries.len() - 1
    }

    /// Raft's up-to-date rule: a log that ends at (`last_epoch`, `last_len`) holds
    /// everything this log may have committed.
    pub fn is_up_to_date(&self, last_epoch: u64, last_len: usize) -> bool {
        (last_epoch, last_len) >= (self.last_epoch(), self.len())
    }

    /// A follower takes a leader's `entries` that follow its first `prev_len` entries, whose
    /// last has `prev_epoch`. Ok: the length now known to match the leader's log. Err: the logs
    /// differ there; the length to retry from. A conflicting suffix (never committed, or the
    /// leader could not have been elected) is cut off; entries already held are kept.
    pub fn accept(&mut self, prev_len: usize, prev_epoch: u64, entries: Vec<Entry>) -> Result<usize, usize> {
        if prev_len > self.len() || (prev_len > 0 && self.entries[prev_len - 1].epoch != prev_epoch) {
            return Err(self.len().min(prev_len.saturating_sub(1)));
        }
        let matched = prev_len + entries.len();
        for (k, e) in entries.into_iter().enumerate() {
            let at = prev_len + k;
            match self.entries.get(at) {
                Some(mine) if mine.epoch == e.epoch => {}
                Some(_) => {
                    self.entries.truncate(at);
                    self.entries.push(e);
                }
                None => self.entries.push(e),
            }
        }
        Ok(matched)
    }

    /// A leader of `epoch`: the longest prefix, beyond what is committed, that a majority of
    /// servers stores (`stored[i]`: how much server i is known to store, one per server) and
    /// whose last entry is from `epoch` (an older epoch's entry commits only under a newer one).
    pub fn committable(&self, stored: &[usize], epoch: u64) -> Option<usize> {
        let need = majority(stored.len());
        (self.commit + 1..=self.len())
            .rev()
            .find(|&n| self.entries[n - 1].epoch == epoch && stored.iter().filter(|&&m| m >= n).count() >= need)
    }

    /// The next entry to apply on the way to committing `upto` entries, with its index; each
    /// is handed out once, in order.
    pub fn next_to_apply(&mut self, upto: usize) -> Option<(usize, Entry)> {
        let index = self.commit;
        if index >= upto.min(self.len()) {
            return None;
        }
        self.commit += 1;
        Some((index, self.entries[index].clone()))
    }
}

/// A server's place in the terms (on disk): its epoch, the vote it cast, and the highest epoch
/// it has heard of in a refusal, so its next campaign goes above it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Term {
    pub epoch: u64,
    /// The vote cast, with the epoch it was cast in.
    pub voted: Option<(u64, NodeId)>,
    pub max_seen: u64,
}

/// What a server knows when a candidate asks for its vote.
#[derive(Clone, Copy, Debug)]
pub struct Ballot {
    pub candidate: NodeId,
    pub epoch: u64,
    pub last_len: usize,
    pub last_epoch: u64,
    /// The server hears from a live leader (etcd's check-quorum): it ignores candidates, so
    /// a node cut off alone cannot depose a healthy leader.
    pub heard_leader: bool,
}

impl Term {
    /// A server that has never voted, in epoch 1.
    pub fn first() -> Self {
        Term { epoch: 1, voted: None, max_seen: 0 }
    }

    /// The epoch a new campaign runs for: above every epoch this server has been in or heard of.
    pub fn next_campaign(&self) -> u64 {
        self.epoch.max(self.max_seen) + 1
    }

    /// A refusal named `epoch`: remember it for the next campaign.
    pub fn heard_of(&mut self, epoch: u64) {
        self.max_seen = self.max_seen.max(epoch);
    }

    /// Whether this server, with `log`, grants `ballot`: the candidate's epoch is new, no live
    /// leader is heard, its log is up to date, and no other vote was cast in that epoch.
    pub fn grants(&self, log: &Log, ballot: &Ballot) -> bool {
        let free = match self.voted {
            Some((e, v)) if e == ballot.epoch => v == ballot.candidate,
            Some((e, _)) => e < ballot.epoch,
            None => true,
        };
        ballot.epoch > self.epoch && !ballot.heard_leader && log.is_up_to_date(ballot.last_epoch, ballot.last_len) && free
    }

    /// The epoch a refusal reports: the highest this server is in or has voted in.
    pub fn refusal_epoch(&self) -> u64 {
        self.voted.map_or(self.epoch, |(e, _)| e.max(self.epoch))
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::Op;
    use super::*;

    fn entries(epochs: &[u64]) -> Vec<Entry> {
        epochs.iter().map(|&epoch| Entry { epoch, op: Op::Noop }).collect()
    }

    fn log_of(epochs: &[u64]) -> Log {
        let mut log = Log::default();
        log.accept(0, 0, entries(epochs)).unwrap();
        log
    }

    fn epochs(log: &Log) -> Vec<u64> {
        log.after(0).iter().map(|e| e.epoch).collect()
    }

    #[test]
    fn a_follower_takes_entries_that_follow_what_it_holds() {
        let mut log = log_of(&[1, 1]);
        assert_eq!(log.accept(2, 1, entries(&[2])), Ok(3));
        assert_eq!(epochs(&log), vec![1, 1, 2]);
        // A repeated shipment changes nothing.
        assert_eq!(log.accept(1, 1, entries(&[1, 2])), Ok(3));
        assert_eq!(epochs(&log), vec![1, 1, 2]);
    }

    #[test]
    fn a_gap_or_a_different_epoch_before_the_entries_is_refused_with_where_to_retry() {
        let mut log = log_of(&[1, 1]);
        assert_eq!(log.accept(4, 2, entries(&[2])), Err(2));
        assert_eq!(log.accept(2, 2, entries(&[2])), Err(1));
        assert_eq!(epochs(&log), vec![1, 1]);
    }

    #[test]
    fn a_conflicting_suffix_is_replaced_by_the_leaders() {
        let mut log = log_of(&[1, 2, 2]);
        assert_eq!(log.accept(1, 1, entries(&[3])), Ok(2));
        assert_eq!(epochs(&log), vec![1, 3]);
    }

    #[test]
    fn a_leader_commits_what_a_majority_stores_from_its_own_epoch() {
        let log = log_of(&[1, 2, 2]);
        // Three servers: two storing 3 entries is a majority.
        assert_eq!(log.committable(&[3, 3, 0], 2), Some(3));
        assert_eq!(log.committable(&[3, 2, 0], 2), Some(2));
        assert_eq!(log.committable(&[3, 0, 0], 2), None);
        // Entry 1 (epoch 1) is stored by a majority but commits only under an entry of epoch 2.
        assert_eq!(log.committable(&[3, 1, 1], 2), None);
    }

    #[test]
    fn committed_entries_are_applied_once_in_order() {
        let mut log = log_of(&[1, 1, 2]);
        let applied: Vec<usize> = std::iter::from_fn(|| log.next_to_apply(2).map(|(i, _)| i)).collect();
        assert_eq!(applied, vec![0, 1]);
        assert_eq!(log.commit(), 2);
        assert_eq!(log.next_to_apply(2), None);
        assert_eq!(log.next_to_apply(9).map(|(i, _)| i), Some(2));
    }

    fn ballot(candidate: NodeId, epoch: u64, last_epoch: u64, last_len: usize) -> Ballot {
        Ballot { candidate, epoch, last_len, last_epoch, heard_leader: false }
    }

    #[test]
    fn a_vote_goes_to_a_new_epochs_up_to_date_candidate_once() {
        let log = log_of(&[1, 2]);
        let mut term = Term { epoch: 2, voted: None, max_seen: 0 };
        assert!(term.grants(&log, &ballot(7, 3, 2, 2)));
        assert!(!term.grants(&log, &ballot(7, 2, 2, 2)), "not a new epoch");
        assert!(!term.grants(&log, &ballot(7, 3, 1, 5)), "an older last epoch");
        assert!(!term.grants(&log, &ballot(7, 3, 2, 1)), "a shorter log");
        assert!(!term.grants(&log, &Ballot { heard_leader: true, ..ballot(7, 3, 2, 2) }), "a live leader is heard");
        term.voted = Some((3, 7));
        assert!(term.grants(&log, &ballot(7, 3, 2, 2)), "the same candidate again");
        assert!(!term.grants(&log, &ballot(8, 3, 2, 2)), "another in the same epoch");
        assert!(term.grants(&log, &ballot(8, 4, 2, 2)), "another in a later epoch");
        assert_eq!(term.refusal_epoch(), 3);
    }

    #[test]
    fn a_campaign_goes_above_every_epoch_heard_of() {
        let mut term = Term::first();
        assert_eq!(term.next_campaign(), 2);
        term.heard_of(5);
        term.heard_of(3);
        assert_eq!(term.next_campaign(), 6);
    }
}
