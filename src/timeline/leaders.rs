//! Who leads: ensemble elections (ZooKeeper, etcd) and Redis failover. Approaches without a
//! leader have no changes here and their lanes show no leader badge.

use super::Timeline;
use crate::protocols::{EventKind, Note, Trace};
use crate::sim::{NodeId, Role, Time};

/// A server becoming (or ceasing to be) the leader / primary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leadership {
    pub node: NodeId,
    pub at: Time,
    pub leader: bool,
    pub epoch: u64,
    pub event: usize,
}

pub fn leadership(trace: &Trace) -> Vec<Leadership> {
    trace
        .events
        .iter()
        .enumerate()
        .filter_map(|(event, e)| {
            let (leader, epoch) = match e.kind {
                EventKind::Note(Note::LeaderElected { epoch } | Note::Promoted { epoch }) => (true, epoch),
                EventKind::Note(Note::SteppedDown { epoch } | Note::Demoted { epoch, .. }) => (false, epoch),
                _ => return None,
            };
            Some(Leadership { node: e.node, at: e.at_ms, leader, epoch, event })
        })
        .collect()
}

impl Timeline {
    /// Whether `node` leads at `t`: its last change so far; before its first change, the
    /// opposite of that change (a replica is promoted, a primary demoted); a lock server that
    /// never changes in a run where others do is a follower. None where nobody leads.
    pub fn leader_at(&self, node: NodeId, t: Time) -> Option<bool> {
        if self.leadership.is_empty() || self.lane(node).is_none_or(|l| l.role != Role::LockServer) {
            return None;
        }
        let mine = || self.leadership.iter().filter(|c| c.node == node);
        match mine().take_while(|c| c.at <= t).last() {
            Some(c) => Some(c.leader),
            None => Some(mine().next().is_some_and(|c| !c.leader)),
        }
    }
}
