//! The lock store: the state every server applies from the committed log, a plain value.
//! Sessions (leases) with the timeout granted, lock entries (ZooKeeper's sequential znodes,
//! etcd's keys with their revisions, Consul's one key) in grant order by token, and the
//! counters tokens come from. Expiry is decided by the leader (`server`), which commits a
//! `CloseSession`; applying it deletes the session's entries like a release.

use super::super::{Entry, Op};
use super::{Refusal, Service, Stamps};
use crate::sim::NodeId;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SessionRec {
    pub id: u64,
    pub client: NodeId,
    pub nonce: u64,
    pub ttl_ms: i64,
}

/// One lock entry: the session that created it and its token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LockNode {
    pub session: u64,
    pub client: NodeId,
    pub attempt: u32,
    pub token: u64,
}

/// Sessions and lock entries; the entry with the lowest token holds the lock.
#[derive(Clone, Debug)]
pub struct Store {
    sessions: Vec<SessionRec>,
    nodes: Vec<LockNode>,
    next_session: u64,
    /// etcd's store revision: bumped by every mutation of a key.
    revision: u64,
    zxid_epoch: u64,
    zxid_counter: u64,
    /// Successful acquisitions of the key so far (Consul's LockIndex).
    acquisitions: u64,
    /// No acquire succeeds before this time (the applying server's monotonic clock), for a
    /// service that refuses rather than queues (Consul's lock-delay).
    lock_delay_until: i64,
}

/// What applying one entry did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Applied {
    pub session: Option<SessionRec>,
    pub opened: bool,
    pub created: Option<LockNode>,
    pub deleted: Vec<LockNode>,
    pub expired: Option<SessionRec>,
    /// The op named a session that no longer exists.
    pub no_session: bool,
    /// The service refused the acquire.
    pub refused: Option<Refusal>,
}

/// What a server's store is applied with besides the entry: its own settings and clock.
#[derive(Clone, Copy, Debug)]
pub struct Applying {
    /// ZooKeeper's tickTime (`lock.tick_ms`).
    pub tick_ms: i64,
    /// How long an invalidated session's lock stays unacquirable (Consul's lock-delay; 0: not at all).
    pub lock_delay_ms: i64,
    /// The applying server's monotonic clock now (lock-delay is measured on it, as Consul's
    /// state store does with the server's own time).
    pub now_ms: i64,
}

impl Default for Store {
    fn default() -> Self {
        Store {
            sessions: Vec::new(),
            nodes: Vec::new(),
            next_session: 0,
            revision: 1,
            zxid_epoch: 0,
            zxid_counter: 0,
            acquisitions: 0,
            lock_delay_until: 0,
        }
    }
}

impl Store {
    pub fn sessions(&self) -> &[SessionRec] {
        &self.sessions
    }

    pub fn session(&self, id: u64) -> Option<&SessionRec> {
        self.sessions.iter().find(|s| s.id == id)
    }

    fn node_of(&self, session: u64) -> Option<&LockNode> {
        self.nodes.iter().find(|n| n.session == session)
    }

    /// Whether a lock entry with this token exists (what a watch on it waits for).
    pub fn has_token(&self, token: u64) -> bool {
        self.nodes.iter().any(|n| n.token == token)
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// A session's place in the queue: its own entry's token and the next-lower token (the
    /// one it waits for; none: it holds the lock). `before`: the token to look below when the
    /// session's own entry is gone (etcd 3.4.3's `waitDeletes` looks below its revision
    /// without looking for its key).
    pub fn place(&self, session: u64, before: Option<u64>) -> (Option<u64>, Option<u64>) {
        let mine = self.node_of(session).map(|n| n.token);
        let predecessor = mine.or(before).and_then(|m| self.nodes.iter().map(|n| n.token).filter(|&t| t < m).max());
        (mine, predecessor)
    }

    /// The lock holder: the entry with the lowest token.
    pub fn lowest(&self) -> Option<LockNode> {
        self.nodes.iter().min_by_key(|n| n.token).copied()
    }

    /// Applies one committed entry (every server applies the same entries in the same order).
    pub fn apply(&mut self, service: &dyn Service, at: Applying, entry: &Entry) -> Applied {
        let zxid = self.next_zxid(entry.epoch);
        let mut out = Applied::default();
        match &entry.op {
            Op::Noop => {}
            Op::OpenSession { client, nonce, ttl_ms } => self.open(service, at, *client, *nonce, *ttl_ms, &mut out),
            Op::CloseSession { session, expired } => match self.sessions.iter().position(|s| s.id == *session) {
                Some(i) => {
                    let s = self.sessions.remove(i);
                    if *expired {
                        out.expired = Some(s);
                    }
                    out.deleted = self.remove_nodes(*session);
                    // An invalidated session's lock stays unacquirable for the lock-delay.
                    if !out.deleted.is_empty() {
                        self.lock_delay_until = at.now_ms + at.lock_delay_ms;
                    }
                }
                None => out.no_session = true,
            },
            Op::CreateLockNode { session, client, attempt } => {
                if self.session(*session).is_none() {
                    out.no_session = true;
                } else if let Some(n) = self.node_of(*session) {
                    out.created = Some(*n); // the GUID / CreateRevision==0 guard: one per session
                } else if let Err(refusal) = service.admit(self.lowest().map(|n| n.token), at.now_ms < self.lock_delay_until) {
                    out.refused = Some(refusal);
                } else {
                    self.revision += 1;
                    self.acquisitions += 1;
                    let token = service.token(Stamps { zxid, revision: self.revision, acquisitions: self.acquisitions });
                    let node = LockNode { session: *session, client: *client, attempt: *attempt, token };
                    self.nodes.push(node);
                    out.created = Some(node);
                }
            }
            Op::DeleteLockNode { session, .. } => out.deleted = self.remove_nodes(*session),
        }
        out
    }

    /// A zxid counts transactions within an epoch; every entry is one.
    fn next_zxid(&mut self, epoch: u64) -> u64 {
        if epoch != self.zxid_epoch {
            self.zxid_epoch = epoch;
            self.zxid_counter = 0;
        }
        self.zxid_counter += 1;
        (epoch << 32) | self.zxid_counter
    }

    /// Idempotent on the client's nonce: a retried request gets the same session.
    fn open(&mut self, service: &dyn Service, at: Applying, client: NodeId, nonce: u64, ttl_ms: i64, out: &mut Applied) {
        if let Some(s) = self.sessions.iter().find(|s| s.nonce == nonce && s.client == client) {
            out.session = Some(*s);
            return;
        }
        self.next_session += 1;
        let s = SessionRec { id: self.next_session, client, nonce, ttl_ms: service.granted_ttl(ttl_ms, at.tick_ms) };
        self.sessions.push(s);
        out.session = Some(s);
        out.opened = true;
    }

    fn remove_nodes(&mut self, session: u64) -> Vec<LockNode> {
        let (gone, kept): (Vec<LockNode>, Vec<LockNode>) = self.nodes.iter().partition(|n| n.session == session);
        if !gone.is_empty() {
            self.revision += 1;
        }
        self.nodes = kept;
        gone
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::consul::Consul;
    use super::super::super::etcd::Etcd;
    use super::super::super::zookeeper::ZooKeeper;
    use super::*;

    const TICK: i64 = 2000;
    const A: NodeId = 1;
    const B: NodeId = 2;
    const C: NodeId = 3;

    fn at(now_ms: i64) -> Applying {
        Applying { tick_ms: TICK, lock_delay_ms: 0, now_ms }
    }

    /// Applies `op` as an entry of epoch 1.
    fn apply(store: &mut Store, service: &dyn Service, op: Op) -> Applied {
        store.apply(service, at(0), &Entry { epoch: 1, op })
    }

    /// Opens a session for `client` (its nonce: its id) and returns the session id.
    fn open(store: &mut Store, service: &dyn Service, client: NodeId) -> u64 {
        let op = Op::OpenSession { client, nonce: client as u64, ttl_ms: 10_000 };
        apply(store, service, op).session.expect("a session").id
    }

    fn create(store: &mut Store, service: &dyn Service, session: u64, client: NodeId) -> Applied {
        apply(store, service, Op::CreateLockNode { session, client, attempt: 1 })
    }

    fn holder(store: &Store) -> Option<NodeId> {
        store.lowest().map(|n| n.client)
    }

    #[test]
    fn the_first_create_holds_the_lock_and_the_next_waits_for_it() {
        let mut store = Store::default();
        let (a, b) = (open(&mut store, &Etcd, A), open(&mut store, &Etcd, B));
        let first = create(&mut store, &Etcd, a, A).created.expect("granted");
        let second = create(&mut store, &Etcd, b, B).created.expect("queued");
        assert!(first.token < second.token);
        assert_eq!(holder(&store), Some(A));
        assert_eq!(store.place(a, None), (Some(first.token), None));
        assert_eq!(store.place(b, None), (Some(second.token), Some(first.token)));
    }

    #[test]
    fn a_retried_create_returns_the_sessions_entry_again() {
        let mut store = Store::default();
        let a = open(&mut store, &ZooKeeper, A);
        let first = create(&mut store, &ZooKeeper, a, A).created;
        assert_eq!(create(&mut store, &ZooKeeper, a, A).created, first);
        assert_eq!(store.nodes.len(), 1);
    }

    #[test]
    fn a_retried_open_gets_the_same_session() {
        let mut store = Store::default();
        let a = open(&mut store, &Etcd, A);
        let again = apply(&mut store, &Etcd, Op::OpenSession { client: A, nonce: A as u64, ttl_ms: 10_000 });
        assert_eq!(again.session.map(|s| s.id), Some(a));
        assert!(!again.opened);
        assert_eq!(store.sessions().len(), 1);
    }

    #[test]
    fn a_release_hands_the_lock_to_the_waiters_in_grant_order() {
        let mut store = Store::default();
        let sessions: Vec<u64> = [A, B, C].iter().map(|&c| open(&mut store, &ZooKeeper, c)).collect();
        for (&s, c) in sessions.iter().zip([A, B, C]) {
            create(&mut store, &ZooKeeper, s, c);
        }
        let released = apply(&mut store, &ZooKeeper, Op::DeleteLockNode { session: sessions[0], by: A });
        assert_eq!(released.deleted.iter().map(|n| n.client).collect::<Vec<_>>(), vec![A]);
        assert_eq!(holder(&store), Some(B));
        apply(&mut store, &ZooKeeper, Op::DeleteLockNode { session: sessions[1], by: B });
        assert_eq!(holder(&store), Some(C));
    }

    #[test]
    fn a_waiter_that_leaves_the_queue_is_skipped() {
        let mut store = Store::default();
        let sessions: Vec<u64> = [A, B, C].iter().map(|&c| open(&mut store, &Etcd, c)).collect();
        let tokens: Vec<u64> =
            sessions.iter().zip([A, B, C]).map(|(&s, c)| create(&mut store, &Etcd, s, c).created.unwrap().token).collect();
        apply(&mut store, &Etcd, Op::DeleteLockNode { session: sessions[1], by: B });
        assert_eq!(store.place(sessions[2], None), (Some(tokens[2]), Some(tokens[0])));
        // A session whose entry is gone has no place, unless it names the revision to look
        // below (etcd 3.4.3's waitDeletes).
        assert_eq!(store.place(sessions[1], None), (None, None));
        assert_eq!(store.place(sessions[1], Some(tokens[1])), (None, Some(tokens[0])));
    }

    #[test]
    fn an_expired_session_releases_its_entries_and_is_gone() {
        let mut store = Store::default();
        let (a, b) = (open(&mut store, &ZooKeeper, A), open(&mut store, &ZooKeeper, B));
        create(&mut store, &ZooKeeper, a, A);
        create(&mut store, &ZooKeeper, b, B);
        let expiry = apply(&mut store, &ZooKeeper, Op::CloseSession { session: a, expired: true });
        assert_eq!(expiry.expired.map(|s| s.id), Some(a));
        assert_eq!(expiry.deleted.iter().map(|n| n.session).collect::<Vec<_>>(), vec![a]);
        assert_eq!(holder(&store), Some(B));
        assert!(store.session(a).is_none());
        // The gone session can neither create nor be closed again.
        assert!(create(&mut store, &ZooKeeper, a, A).no_session);
        assert!(apply(&mut store, &ZooKeeper, Op::CloseSession { session: a, expired: true }).no_session);
    }

    #[test]
    fn a_closed_session_is_not_reported_expired() {
        let mut store = Store::default();
        let a = open(&mut store, &Etcd, A);
        let closed = apply(&mut store, &Etcd, Op::CloseSession { session: a, expired: false });
        assert_eq!(closed.expired, None);
        assert!(store.session(a).is_none());
    }

    #[test]
    fn zookeeper_tokens_are_the_creates_zxid() {
        let mut store = Store::default();
        let a = open(&mut store, &ZooKeeper, A); // zxid 1 of epoch 1
        let node = store.apply(&ZooKeeper, at(0), &Entry { epoch: 1, op: Op::CreateLockNode { session: a, client: A, attempt: 1 } });
        assert_eq!(node.created.unwrap().token, (1 << 32) | 2);
        // A new epoch restarts the counter.
        let b = store.apply(&ZooKeeper, at(0), &Entry { epoch: 2, op: Op::OpenSession { client: B, nonce: 2, ttl_ms: 10_000 } });
        let b = b.session.unwrap().id;
        let node = store.apply(&ZooKeeper, at(0), &Entry { epoch: 2, op: Op::CreateLockNode { session: b, client: B, attempt: 1 } });
        assert_eq!(node.created.unwrap().token, (2 << 32) | 2);
    }

    #[test]
    fn etcd_tokens_are_the_create_revision_which_every_mutation_bumps() {
        let mut store = Store::default();
        let (a, b) = (open(&mut store, &Etcd, A), open(&mut store, &Etcd, B));
        assert_eq!(create(&mut store, &Etcd, a, A).created.unwrap().token, 2);
        apply(&mut store, &Etcd, Op::DeleteLockNode { session: a, by: A }); // revision 3
        assert_eq!(create(&mut store, &Etcd, b, B).created.unwrap().token, 4);
    }

    #[test]
    fn the_granted_timeout_is_the_services() {
        let mut store = Store::default();
        let zk = apply(&mut store, &ZooKeeper, Op::OpenSession { client: A, nonce: 1, ttl_ms: 100_000 });
        assert_eq!(zk.session.unwrap().ttl_ms, 20 * TICK);
        let etcd = apply(&mut store, &Etcd, Op::OpenSession { client: B, nonce: 2, ttl_ms: 2_500 });
        assert_eq!(etcd.session.unwrap().ttl_ms, 3_000);
    }

    #[test]
    fn a_refusing_service_turns_a_held_key_and_the_lock_delay_away() {
        let mut store = Store::default();
        let (a, b) = (open(&mut store, &Consul, A), open(&mut store, &Consul, B));
        let held = create(&mut store, &Consul, a, A).created.unwrap();
        assert_eq!(held.token, 1, "LockIndex counts acquisitions");
        assert_eq!(create(&mut store, &Consul, b, B).refused, Some(Refusal { holder: Some(held.token), lock_delay: false }));
        let delay = Applying { lock_delay_ms: 15_000, now_ms: 1_000, ..at(0) };
        store.apply(&Consul, delay, &Entry { epoch: 1, op: Op::CloseSession { session: a, expired: true } });
        let early = store.apply(&Consul, at(15_999), &Entry { epoch: 1, op: Op::CreateLockNode { session: b, client: B, attempt: 1 } });
        assert_eq!(early.refused, Some(Refusal { holder: None, lock_delay: true }));
        let later = store.apply(&Consul, at(16_000), &Entry { epoch: 1, op: Op::CreateLockNode { session: b, client: B, attempt: 1 } });
        assert_eq!(later.created.map(|n| n.token), Some(2));
    }
}
