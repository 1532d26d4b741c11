//! A consensus ensemble holding lock nodes: the part ZooKeeper and etcd share (PROTOCOLS.md P4,
//! P5). Requests go to the leader; a log entry commits once a majority has stored it; the
//! leader expires sessions/leases it has not heard from within their timeout, by its own
//! monotonic clock, on each system's schedule; expiring a session deletes its lock node and
//! fires the watch on it. What differs by system (timeouts granted, the expiry schedule, the
//! token, how a gone session is reported) is the system's `Rules`, in its own protocol file.
//!
//! Replication is Raft-shaped (terms as epochs, the up-to-date vote rule, a new leader's no-op)
//! because that is what makes "committed state is never lost" hold under any crash of a
//! minority; Zab differs in mechanics, not in what a lock client can observe. Elections are
//! deterministic: server k waits `ELECTION_TIMEOUT_MS + k·ELECTION_STAGGER_MS`, so the
//! lowest-numbered up-to-date server that can reach a majority wins.

use crate::vec_map::VecMap;

use super::{Ctx, Entry, Msg, Note, Op};
use crate::sim::{ClockKind, Durable, Host, NodeId, Process, TimerId};

/// A leader heartbeats its followers this often.
pub const HEARTBEAT_MS: i64 = 250;
/// A follower that has not heard from a leader this long starts an election.
pub const ELECTION_TIMEOUT_MS: i64 = 1000;
/// Extra wait per server rank, so the lowest-numbered candidate goes first.
pub const ELECTION_STAGGER_MS: i64 = 150;

const ELECTION: u32 = 1;
const TICK: u32 = 2;
const EXPIRY_CHECK: u32 = 3;

/// What one system built on the ensemble decides its own way: how long a session or lease it
/// grants, when the leader looks for expired ones and calls one expired, which number a lock
/// node's token is, and how a request about a session that is gone is answered. Each system
/// writes its rules in its own protocol file (`zookeeper::ZooKeeper`, `etcd::Etcd`); the
/// ensemble never asks which system it is.
pub trait Rules: Sync {
    /// The timeout the server grants for a requested one (`tick_ms`: `lock.tick_ms`).
    fn granted_ttl(&self, requested_ms: i64, tick_ms: i64) -> i64;
    /// How often the leader looks for expired sessions (at multiples of it, on its monotonic clock).
    fn expiry_period(&self, tick_ms: i64) -> i64;
    /// Whether a session last heard from at `heard_ms` with timeout `ttl_ms` is expired at
    /// `now_ms` (all on the leader's monotonic clock).
    fn expired(&self, heard_ms: i64, ttl_ms: i64, now_ms: i64, tick_ms: i64) -> bool;
    /// A new lock node's token, given the entry's zxid (`epoch << 32 | counter`), the store's
    /// revision after the create and the key's acquisitions so far, this one included.
    fn token(&self, zxid: u64, revision: u64, acquisitions: u64) -> u64;
    /// Lock nodes queue up and the lowest holds the lock (ZooKeeper, etcd); otherwise (Consul's
    /// `?acquire=`) an acquire succeeds only when nobody holds the key and no lock-delay is in
    /// force, and is refused otherwise.
    fn queues(&self) -> bool {
        true
    }
    /// The answer to a request that names a session which no longer exists.
    fn session_gone(&self, session: u64) -> Msg;
    /// The leader closes an expired session's connection (the client notices it first).
    fn closes_expired_sessions(&self) -> bool;
    /// A listing for a session that is gone is answered with `session_gone` (not with an
    /// empty queue).
    fn lists_only_live_sessions(&self) -> bool;
    /// What a client makes of a keepalive answered "gone": its session is lost (true), or its
    /// connection dropped and it must reconnect to learn more (false).
    fn gone_reply_is_final(&self) -> bool;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct SessionRec {
    id: u64,
    client: NodeId,
    nonce: u64,
    ttl_ms: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct LockNode {
    session: u64,
    client: NodeId,
    attempt: u32,
    token: u64,
}

/// The replicated state machine: sessions and the lock queue, ordered by token.
#[derive(Clone, Debug, Default)]
struct Store {
    sessions: Vec<SessionRec>,
    nodes: Vec<LockNode>,
    next_session: u64,
    revision: u64,
    zxid_epoch: u64,
    zxid_counter: u64,
    /// Successful acquisitions of the key so far (Consul's LockIndex).
    acquisitions: u64,
    /// Consul: no acquire succeeds before this time (the applying server's monotonic clock).
    lock_delay_until: i64,
}

/// What applying one entry did.
#[derive(Default)]
struct Applied {
    session: Option<SessionRec>,
    opened: bool,
    created: Option<LockNode>,
    deleted: Vec<LockNode>,
    expired: Option<SessionRec>,
    /// The op named a session that no longer exists.
    no_session: bool,
    /// A non-queueing acquire was refused: (the holder's token, if held; refused for lock-delay).
    refused: Option<(Option<u64>, bool)>,
}

/// What a server's store is applied with besides the entry: its own settings and clock.
#[derive(Clone, Copy)]
struct Applying {
    tick_ms: i64,
    /// Consul's lock-delay after an invalidation (0: none).
    lock_delay_ms: i64,
    /// The applying server's monotonic clock now (lock-delay is measured on it, as Consul's
    /// state store does with the server's own time).
    now_ms: i64,
}

impl Store {
    fn new() -> Self {
        Store { revision: 1, ..Store::default() }
    }

    fn session(&self, id: u64) -> Option<&SessionRec> {
        self.sessions.iter().find(|s| s.id == id)
    }

    fn node_of(&self, session: u64) -> Option<&LockNode> {
        self.nodes.iter().find(|n| n.session == session)
    }

    fn apply(&mut self, rules: &dyn Rules, at: Applying, entry: &Entry) -> Applied {
        // A zxid counts transactions within an epoch; every entry is one.
        if entry.epoch != self.zxid_epoch {
            self.zxid_epoch = entry.epoch;
            self.zxid_counter = 0;
        }
        self.zxid_counter += 1;
        let zxid = (entry.epoch << 32) | self.zxid_counter;
        let mut out = Applied::default();
        match &entry.op {
            Op::Noop => {}
            Op::OpenSession { client, nonce, ttl_ms } => {
                // Idempotent on the client's nonce: a retried request gets the same session.
                if let Some(s) = self.sessions.iter().find(|s| s.nonce == *nonce && s.client == *client) {
                    out.session = Some(*s);
                } else {
                    self.next_session += 1;
                    let s = SessionRec {
                        id: self.next_session,
                        client: *client,
                        nonce: *nonce,
                        ttl_ms: rules.granted_ttl(*ttl_ms, at.tick_ms),
                    };
                    self.sessions.push(s);
                    out.session = Some(s);
                    out.opened = true;
                }
            }
            Op::CloseSession { session, expired } => match self.sessions.iter().position(|s| s.id == *session) {
                Some(i) => {
                    let s = self.sessions.remove(i);
                    if *expired {
                        out.expired = Some(s);
                    }
                    out.deleted = self.remove_nodes(*session);
                    // An invalidated session's lock stays unacquirable for the lock-delay.
                    if !rules.queues() && !out.deleted.is_empty() {
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
                } else if !rules.queues() && (!self.nodes.is_empty() || at.now_ms < self.lock_delay_until) {
                    out.refused = Some((self.lowest().map(|n| n.token), self.nodes.is_empty()));
                } else {
                    self.revision += 1;
                    self.acquisitions += 1;
                    let token = rules.token(zxid, self.revision, self.acquisitions);
                    let node = LockNode { session: *session, client: *client, attempt: *attempt, token };
                    self.nodes.push(node);
                    out.created = Some(node);
                }
            }
            Op::DeleteLockNode { session, .. } => out.deleted = self.remove_nodes(*session),
        }
        out
    }

    fn remove_nodes(&mut self, session: u64) -> Vec<LockNode> {
        let (gone, kept): (Vec<LockNode>, Vec<LockNode>) = self.nodes.iter().partition(|n| n.session == session);
        if !gone.is_empty() {
            self.revision += 1;
        }
        self.nodes = kept;
        gone
    }

    /// The lock holder: the node with the lowest token.
    fn lowest(&self) -> Option<LockNode> {
        self.nodes.iter().min_by_key(|n| n.token).copied()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Follower,
    Candidate,
    Leader,
}

/// A client request the leader answers once its entry commits.
struct Waiting {
    index: usize,
    client: NodeId,
    req: u32,
}

/// What an ensemble server is built with.
pub struct EnsembleConfig {
    pub rules: &'static dyn Rules,
    pub rank: usize,
    pub servers: Vec<NodeId>,
    pub tick_ms: i64,
    /// Consul's lock-delay (0 for the others).
    pub lock_delay_ms: i64,
}

/// What a server keeps through a crash. The log, epoch and vote are fsynced before any reply
/// (both systems do), and so is the state applied from the log with its commit index (etcd's
/// backend and HardState; ZooKeeper's snapshot), and the highest epoch heard of.
pub struct EnsembleDisk {
    epoch: u64,
    /// The vote cast, with the epoch it was cast in.
    voted: Option<(u64, NodeId)>,
    /// The highest epoch heard of in a refusal; the next campaign goes above it.
    max_seen: u64,
    log: Vec<Entry>,
    commit: usize,
    store: Store,
    /// (token watched, client, its session): a watch belongs to the session that set it.
    /// Watches are not on disk but in the server's memory; a real client re-registers them when
    /// its connection comes back (ZooKeeper's SetWatches, etcd's watch resume). Keeping them here
    /// across a restart is what the client observes, without modelling that reconnect.
    watches: Vec<(u64, NodeId, u64)>,
}

impl Durable for EnsembleDisk {}

/// An ensemble server's process: its role in the current epoch and the leader's bookkeeping.
pub struct EnsembleServer {
    rules: &'static dyn Rules,
    tick_ms: i64,
    lock_delay_ms: i64,
    rank: usize,
    servers: Vec<NodeId>,
    role: Role,
    /// The epoch this server is campaigning for. Campaigns do not raise `epoch` until won
    /// (Raft's pre-vote, as etcd runs it): a server cut off alone keeps campaigning without
    /// inflating its epoch, so when it returns it cannot depose a healthy leader.
    candidate_epoch: u64,
    leader: Option<NodeId>,
    election: Option<TimerId>,
    last_leader_contact: i64,
    votes: Vec<NodeId>,
    // Leader-only:
    next_len: Vec<usize>,
    match_len: Vec<usize>,
    last_ack: Vec<i64>,
    waiting: Vec<Waiting>,
    last_heard: VecMap<u64, i64>,
    closing: Vec<u64>,
}

impl EnsembleServer {
    /// Server `rank` (0-based) of the ensemble `servers`; rank 0 leads epoch 1 at start.
    /// `tick_ms`: ZooKeeper's tickTime (`lock.tick_ms`); `lock_delay_ms`: Consul's lock-delay.
    pub fn node(rules: &'static dyn Rules, rank: usize, servers: Vec<NodeId>, tick_ms: i64, lock_delay_ms: i64) -> Host<EnsembleServer> {
        Host::from_config(EnsembleConfig { rules, rank, servers, tick_ms, lock_delay_ms })
    }
}

/// A handler's view of a server: its process and its disk.
struct Server<'a> {
    mem: &'a mut EnsembleServer,
    disk: &'a mut EnsembleDisk,
}

impl Server<'_> {
    fn majority(&self) -> usize {
        self.mem.servers.len() / 2 + 1
    }

    fn peers(&self) -> impl Iterator<Item = (usize, NodeId)> + '_ {
        let me = self.mem.rank;
        self.mem.servers.iter().copied().enumerate().filter(move |(i, _)| *i != me)
    }

    fn last_epoch(&self) -> u64 {
        self.disk.log.last().map_or(0, |e| e.epoch)
    }

    fn arm_election(&mut self, ctx: &mut Ctx) {
        if let Some(t) = self.mem.election.take() {
            ctx.cancel_timer(t);
        }
        let wait = ELECTION_TIMEOUT_MS + self.mem.rank as i64 * ELECTION_STAGGER_MS;
        self.mem.election = Some(ctx.set_timer(wait, ClockKind::Mono, ELECTION));
    }

    fn become_follower(&mut self, ctx: &mut Ctx, epoch: u64, leader: Option<NodeId>) {
        if self.mem.role == Role::Leader {
            ctx.note(Note::SteppedDown { epoch: self.disk.epoch });
        }
        self.disk.epoch = epoch;
        self.mem.role = Role::Follower;
        self.mem.leader = leader;
        self.mem.waiting.clear();
        // Watches stay: a server keeps its clients' watches through a leader change (a client
        // that moves to another server lists again, ensemble_client).
        self.mem.closing.clear();
        self.arm_election(ctx);
    }

    fn start_election(&mut self, ctx: &mut Ctx) {
        self.mem.candidate_epoch = self.disk.epoch.max(self.disk.max_seen) + 1;
        self.mem.role = Role::Candidate;
        self.mem.leader = None;
        self.disk.voted = Some((self.mem.candidate_epoch, ctx.me()));
        self.mem.votes = vec![ctx.me()];
        let msg = Msg::RequestVote { epoch: self.mem.candidate_epoch, last_len: self.disk.log.len() as u32, last_epoch: self.last_epoch() };
        let peers: Vec<NodeId> = self.peers().map(|(_, n)| n).collect();
        for p in peers {
            ctx.send(p, msg.clone());
        }
        self.arm_election(ctx);
        if self.mem.votes.len() >= self.majority() {
            self.become_leader(ctx);
        }
    }

    fn become_leader(&mut self, ctx: &mut Ctx) {
        if let Some(t) = self.mem.election.take() {
            ctx.cancel_timer(t);
        }
        self.disk.epoch = self.disk.epoch.max(self.mem.candidate_epoch);
        self.mem.role = Role::Leader;
        self.mem.leader = Some(ctx.me());
        let now = ctx.mono_ms();
        self.mem.next_len = vec![self.disk.log.len(); self.mem.servers.len()];
        self.mem.match_len = vec![0; self.mem.servers.len()];
        self.mem.last_ack = vec![now; self.mem.servers.len()];
        // Sessions and leases survive a leader change, each with a fresh full timeout
        // (etcd: "a new leader extends every lease").
        // Inserted one by one: collecting into a BTreeMap sorts first, and each sort costs bundle size.
        self.mem.last_heard.clear();
        for s in &self.disk.store.sessions {
            self.mem.last_heard.insert(s.id, now);
        }
        ctx.note(Note::LeaderElected { epoch: self.disk.epoch });
        // A watch kept from an earlier term whose node went while another server led fires now.
        let (gone, kept): (Vec<_>, Vec<_>) =
            std::mem::take(&mut self.disk.watches).into_iter().partition(|(t, _, _)| !self.disk.store.nodes.iter().any(|n| n.token == *t));
        self.disk.watches = kept;
        for (token, client, session) in gone {
            ctx.send(client, Msg::WatchFired { token, session });
        }
        self.propose(ctx, Op::Noop, None);
        ctx.set_timer(HEARTBEAT_MS, ClockKind::Mono, TICK);
    }

    /// Appends an entry (leader only) and ships it; `reply` is answered when it commits.
    fn propose(&mut self, ctx: &mut Ctx, op: Op, reply: Option<(NodeId, u32)>) {
        self.disk.log.push(Entry { epoch: self.disk.epoch, op });
        if let Some((client, req)) = reply {
            self.mem.waiting.push(Waiting { index: self.disk.log.len() - 1, client, req });
        }
        self.mem.match_len[self.mem.rank] = self.disk.log.len();
        self.advance_commit(ctx);
        let peers: Vec<usize> = self.peers().map(|(i, _)| i).collect();
        for p in peers {
            self.send_append(ctx, p);
        }
    }

    fn send_append(&mut self, ctx: &mut Ctx, peer: usize) {
        let prev_len = self.mem.next_len[peer].min(self.disk.log.len());
        let prev_epoch = if prev_len == 0 { 0 } else { self.disk.log[prev_len - 1].epoch };
        let msg = Msg::Append {
            epoch: self.disk.epoch,
            prev_len: prev_len as u32,
            prev_epoch,
            entries: self.disk.log[prev_len..].to_vec(),
            commit: self.disk.commit as u32,
        };
        ctx.send(self.mem.servers[peer], msg);
    }

    /// Commits the longest prefix a majority stores whose last entry is from this epoch.
    fn advance_commit(&mut self, ctx: &mut Ctx) {
        for n in (self.disk.commit + 1..=self.disk.log.len()).rev() {
            let stored = self.mem.match_len.iter().filter(|&&m| m >= n).count();
            if self.disk.log[n - 1].epoch == self.disk.epoch && stored >= self.majority() {
                self.commit_to(ctx, n);
                return;
            }
        }
    }

    /// Applies entries up to `n`; a leader also reports, replies and fires watches.
    fn commit_to(&mut self, ctx: &mut Ctx, n: usize) {
        while self.disk.commit < n.min(self.disk.log.len()) {
            let index = self.disk.commit;
            let before = self.disk.store.lowest();
            let entry = self.disk.log[index].clone();
            let at = Applying { tick_ms: self.mem.tick_ms, lock_delay_ms: self.mem.lock_delay_ms, now_ms: ctx.mono_ms() };
            let applied = self.disk.store.apply(self.mem.rules, at, &entry);
            self.disk.commit += 1;
            if self.mem.role == Role::Leader {
                self.after_apply(ctx, index, &entry.op, &applied, before);
            }
        }
    }

    fn after_apply(&mut self, ctx: &mut Ctx, index: usize, op: &Op, applied: &Applied, before: Option<LockNode>) {
        let now = ctx.mono_ms();
        if let (true, Some(s)) = (applied.opened, applied.session) {
            self.mem.last_heard.insert(s.id, now);
            ctx.note(Note::SessionOpened { client: s.client, session: s.id, ttl_ms: s.ttl_ms });
        }
        if let Some(s) = applied.expired {
            ctx.note(Note::SessionExpired { client: s.client, session: s.id });
            if self.mem.rules.closes_expired_sessions() {
                // ZooKeeper closes the expired session's connection (the client's next step is
                // to notice, and to try to reconnect).
                ctx.send(s.client, Msg::SessionClosed { session: s.id });
            }
        }
        if let Op::CloseSession { session, .. } = op {
            self.mem.last_heard.remove(session);
            self.mem.closing.retain(|c| c != session);
        }
        if let (Some(n), Op::CreateLockNode { .. }) = (applied.created, op) {
            if before.is_none_or(|b| b.token != n.token) && !self.disk.store.nodes.is_empty() {
                ctx.note(Note::LockQueued { client: n.client, token: n.token });
            }
        }
        for gone in &applied.deleted {
            let was_holder = before.is_some_and(|b| b.token == gone.token);
            match op {
                Op::DeleteLockNode { by, .. } if was_holder => ctx.note(Note::LockReleased { holder: gone.client, by: *by }),
                Op::CloseSession { expired: true, .. } if was_holder => ctx.note(Note::LockExpired { holder: gone.client }),
                _ => {}
            }
            let (fire, keep): (Vec<_>, Vec<_>) = self.disk.watches.iter().partition(|(t, _, _)| *t == gone.token);
            self.disk.watches = keep;
            for (token, client, session) in fire {
                ctx.send(client, Msg::WatchFired { token, session });
            }
        }
        let after = self.disk.store.lowest();
        if let Some(holder) = after.filter(|a| before.is_none_or(|b| b.token != a.token)) {
            ctx.note(Note::LockCommitted {
                client: holder.client,
                attempt: holder.attempt,
                token: Some(holder.token),
                expires_wall_ms: None,
            });
        }
        let (done, rest): (Vec<Waiting>, Vec<Waiting>) = std::mem::take(&mut self.mem.waiting).into_iter().partition(|w| w.index == index);
        self.mem.waiting = rest;
        for w in done {
            let reply = match (op, applied) {
                (_, a) if a.no_session => self.session_gone(op_session(op)),
                (Op::OpenSession { .. }, Applied { session: Some(s), .. }) => {
                    Msg::SessionReply { req: w.req, session: s.id, ttl_ms: s.ttl_ms }
                }
                (Op::CreateLockNode { .. }, Applied { created: Some(n), .. }) => Msg::CreateReply { req: w.req, token: n.token },
                (Op::CreateLockNode { .. }, Applied { refused: Some((holder, lock_delay)), .. }) => {
                    Msg::AcquireRefused { req: w.req, holder: *holder, lock_delay: *lock_delay }
                }
                (Op::DeleteLockNode { .. }, _) => Msg::DeleteReply { req: w.req },
                (Op::CloseSession { .. }, _) => Msg::CloseReply { req: w.req },
                _ => continue,
            };
            ctx.send(w.client, reply);
        }
    }

    fn on_tick(&mut self, ctx: &mut Ctx) {
        if self.mem.role != Role::Leader {
            return;
        }
        let now = ctx.mono_ms();
        // Check quorum: a leader cut off from a majority stops leading (and expiring).
        let in_touch = self.mem.last_ack.iter().enumerate().filter(|(i, t)| *i == self.mem.rank || now - **t < ELECTION_TIMEOUT_MS).count();
        if in_touch < self.majority() {
            let epoch = self.disk.epoch;
            self.become_follower(ctx, epoch, None);
            return;
        }
        let peers: Vec<usize> = self.peers().map(|(i, _)| i).collect();
        for p in peers {
            self.send_append(ctx, p);
        }
        ctx.set_timer(HEARTBEAT_MS, ClockKind::Mono, TICK);
    }

    /// The next expiry check, at the next multiple of the period on this server's monotonic
    /// clock (ZooKeeper's buckets sit on multiples of tickTime). Every server runs it; only a
    /// leader acts on it.
    fn arm_expiry_check(&mut self, ctx: &mut Ctx) {
        let period = self.mem.rules.expiry_period(self.mem.tick_ms);
        let next = (ctx.mono_ms().div_euclid(period) + 1) * period;
        ctx.set_timer_at(next, ClockKind::Mono, EXPIRY_CHECK);
    }

    /// Leader: proposes the expiry of every session not heard from within its timeout.
    fn expire_overdue(&mut self, ctx: &mut Ctx) {
        let now = ctx.mono_ms();
        let (rules, tick) = (self.mem.rules, self.mem.tick_ms);
        let overdue: Vec<u64> = self
            .disk
            .store
            .sessions
            .iter()
            .filter(|s| !self.mem.closing.contains(&s.id))
            .filter(|s| rules.expired(self.mem.last_heard.get(&s.id).copied().unwrap_or(now), s.ttl_ms, now, tick))
            .map(|s| s.id)
            .collect();
        for session in overdue {
            self.mem.closing.push(session);
            self.propose(ctx, Op::CloseSession { session, expired: true }, None);
        }
    }

    /// How a request about a session that no longer exists is answered (the system's rule).
    fn session_gone(&self, session: u64) -> Msg {
        self.mem.rules.session_gone(session)
    }

    /// A waiter's ping names the node it watches: a watch this server lacks (it was set on
    /// another, or the notice of its firing was lost on the way) is registered again, or fired
    /// at once if its node is already gone.
    fn rewatch(&mut self, ctx: &mut Ctx, client: NodeId, session: u64, token: u64) {
        if !self.disk.store.nodes.iter().any(|n| n.token == token) {
            self.disk.watches.retain(|w| *w != (token, client, session));
            ctx.send(client, Msg::WatchFired { token, session });
        } else if !self.disk.watches.contains(&(token, client, session)) {
            self.disk.watches.push((token, client, session));
        }
    }

    fn session_alive(&self, session: u64) -> bool {
        self.disk.store.session(session).is_some() && !self.mem.closing.contains(&session)
    }

    // The five fields of one `Msg::Append` (Raft's AppendEntries), unpacked where the message
    // is matched, beside the context and the sender: bundling them would only re-wrap the message.
    #[allow(clippy::too_many_arguments)]
    fn on_append(&mut self, ctx: &mut Ctx, from: NodeId, epoch: u64, prev_len: usize, prev_epoch: u64, entries: Vec<Entry>, commit: usize) {
        if epoch < self.disk.epoch {
            ctx.send(from, Msg::AppendReply { epoch: self.disk.epoch, ok: false, len: self.disk.log.len() as u32 });
            return;
        }
        if epoch > self.disk.epoch || self.mem.role != Role::Follower || self.mem.leader != Some(from) {
            self.become_follower(ctx, epoch, Some(from));
        } else {
            self.arm_election(ctx);
        }
        self.mem.last_leader_contact = ctx.mono_ms();
        if prev_len > self.disk.log.len() || (prev_len > 0 && self.disk.log[prev_len - 1].epoch != prev_epoch) {
            let hint = self.disk.log.len().min(prev_len.saturating_sub(1));
            ctx.send(from, Msg::AppendReply { epoch, ok: false, len: hint as u32 });
            return;
        }
        let matched = prev_len + entries.len();
        for (k, e) in entries.into_iter().enumerate() {
            let at = prev_len + k;
            match self.disk.log.get(at) {
                Some(mine) if mine.epoch == e.epoch => {}
                Some(_) => {
                    self.disk.log.truncate(at); // a conflicting, never-committed suffix
                    self.disk.log.push(e);
                }
                None => self.disk.log.push(e),
            }
        }
        self.commit_to(ctx, commit.min(matched));
        ctx.send(from, Msg::AppendReply { epoch, ok: true, len: matched as u32 });
    }

    fn on_append_reply(&mut self, ctx: &mut Ctx, from: NodeId, epoch: u64, ok: bool, len: usize) {
        if epoch > self.disk.epoch {
            self.become_follower(ctx, epoch, None);
            return;
        }
        let Some(peer) = self.mem.servers.iter().position(|&s| s == from) else { return };
        if self.mem.role != Role::Leader || epoch < self.disk.epoch {
            return;
        }
        self.mem.last_ack[peer] = ctx.mono_ms();
        if ok {
            self.mem.match_len[peer] = self.mem.match_len[peer].max(len);
            self.mem.next_len[peer] = self.mem.match_len[peer];
            self.advance_commit(ctx);
        } else {
            self.mem.next_len[peer] = len;
            self.send_append(ctx, peer);
        }
    }

    fn on_request_vote(&mut self, ctx: &mut Ctx, from: NodeId, epoch: u64, last_len: usize, last_epoch: u64) {
        let now = ctx.mono_ms();
        // Leader stickiness (etcd's check-quorum): a server that hears from a live leader
        // ignores candidates, so a node cut off alone cannot depose a healthy leader.
        let heard_leader = match self.mem.role {
            Role::Follower => self.mem.leader.is_some() && now - self.mem.last_leader_contact < ELECTION_TIMEOUT_MS,
            Role::Leader => true,
            Role::Candidate => false,
        };
        let up_to_date = (last_epoch, last_len) >= (self.last_epoch(), self.disk.log.len());
        let free = match self.disk.voted {
            Some((e, v)) if e == epoch => v == from,
            Some((e, _)) => e < epoch,
            None => true,
        };
        if epoch <= self.disk.epoch || heard_leader || !up_to_date || !free {
            let seen = self.disk.voted.map_or(self.disk.epoch, |(e, _)| e.max(self.disk.epoch));
            ctx.send(from, Msg::VoteReply { epoch: seen, granted: false });
            return;
        }
        // Granting moves this server into the candidate's epoch.
        self.become_follower(ctx, epoch, None);
        self.disk.voted = Some((epoch, from));
        ctx.send(from, Msg::VoteReply { epoch, granted: true });
    }

    fn on_vote_reply(&mut self, ctx: &mut Ctx, from: NodeId, epoch: u64, granted: bool) {
        if !granted {
            self.disk.max_seen = self.disk.max_seen.max(epoch);
            return;
        }
        if self.mem.role == Role::Candidate && epoch == self.mem.candidate_epoch && !self.mem.votes.contains(&from) {
            self.mem.votes.push(from);
            if self.mem.votes.len() >= self.majority() {
                self.become_leader(ctx);
            }
        }
    }

    /// A client request: only the leader serves; others point at the leader they know.
    fn on_client(&mut self, ctx: &mut Ctx, from: NodeId, msg: Msg) {
        let req = match &msg {
            Msg::OpenSession { req, .. }
            | Msg::CreateLockNode { req, .. }
            | Msg::ListLockNodes { req, .. }
            | Msg::WatchNode { req, .. }
            | Msg::DeleteLockNode { req, .. }
            | Msg::CloseSession { req, .. }
            | Msg::Reconnect { req, .. } => *req,
            _ => 0,
        };
        if self.mem.role != Role::Leader {
            ctx.send(from, Msg::NotLeader { req, leader: self.mem.leader });
            return;
        }
        match msg {
            Msg::OpenSession { req, nonce, ttl_ms } => {
                self.propose(ctx, Op::OpenSession { client: from, nonce, ttl_ms }, Some((from, req)))
            }
            Msg::CreateLockNode { req, session, attempt } => {
                self.propose(ctx, Op::CreateLockNode { session, client: from, attempt }, Some((from, req)))
            }
            Msg::DeleteLockNode { req, session } => self.propose(ctx, Op::DeleteLockNode { session, by: from }, Some((from, req))),
            Msg::CloseSession { req, session } => self.propose(ctx, Op::CloseSession { session, expired: false }, Some((from, req))),
            Msg::ListLockNodes { session, .. } if self.mem.rules.lists_only_live_sessions() && !self.session_alive(session) => {
                ctx.send(from, self.session_gone(session))
            }
            Msg::ListLockNodes { req, session } => {
                let mine = self.disk.store.node_of(session).map(|n| n.token);
                let predecessor = mine.and_then(|m| self.disk.store.nodes.iter().map(|n| n.token).filter(|&t| t < m).max());
                ctx.send(from, Msg::ListReply { req, mine, predecessor });
            }
            Msg::WatchNode { req, token, session } => {
                let exists = self.disk.store.nodes.iter().any(|n| n.token == token);
                if exists {
                    self.disk.watches.push((token, from, session));
                }
                ctx.send(from, Msg::WatchReply { req, exists });
            }
            Msg::KeepAlive { session, watching } if self.session_alive(session) => {
                self.mem.last_heard.insert(session, ctx.mono_ms());
                ctx.send(from, Msg::KeepAliveReply { session, alive: true });
                if let Some(token) = watching {
                    self.rewatch(ctx, from, session, token);
                }
            }
            Msg::KeepAlive { session, .. } => ctx.send(from, self.session_gone(session)),
            // ZooKeeper: a client whose connection closed comes back with its session id.
            Msg::Reconnect { req, session } => match self.disk.store.session(session).copied().filter(|s| self.session_alive(s.id)) {
                Some(s) => {
                    self.mem.last_heard.insert(session, ctx.mono_ms());
                    ctx.send(from, Msg::SessionReply { req, session, ttl_ms: s.ttl_ms });
                }
                None => ctx.send(from, Msg::ReconnectRefused { req, session }),
            },
            _ => {}
        }
    }
}

impl Process for EnsembleServer {
    type Msg = Msg;
    type Note = Note;
    type Config = EnsembleConfig;
    type Durable = EnsembleDisk;

    fn fresh(_: &EnsembleConfig) -> EnsembleDisk {
        EnsembleDisk { epoch: 1, voted: None, max_seen: 0, log: Vec::new(), commit: 0, store: Store::new(), watches: Vec::new() }
    }

    /// A follower that knows no leader and has heard from none.
    fn boot(config: &EnsembleConfig, _: &EnsembleDisk, _: u32) -> Self {
        let n = config.servers.len();
        EnsembleServer {
            rules: config.rules,
            tick_ms: config.tick_ms,
            lock_delay_ms: config.lock_delay_ms,
            rank: config.rank,
            servers: config.servers.clone(),
            role: Role::Follower,
            candidate_epoch: 0,
            leader: None,
            election: None,
            last_leader_contact: i64::MIN / 2,
            votes: Vec::new(),
            next_len: vec![0; n],
            match_len: vec![0; n],
            last_ack: vec![0; n],
            waiting: Vec::new(),
            last_heard: VecMap::new(),
            closing: Vec::new(),
        }
    }

    fn on_start(&mut self, disk: &mut EnsembleDisk, ctx: &mut Ctx) {
        Server { mem: self, disk }.on_start(ctx)
    }

    fn on_message(&mut self, disk: &mut EnsembleDisk, ctx: &mut Ctx, from: NodeId, msg: Msg) {
        Server { mem: self, disk }.on_message(ctx, from, msg)
    }

    fn on_timer(&mut self, disk: &mut EnsembleDisk, ctx: &mut Ctx, id: TimerId, tag: u32) {
        Server { mem: self, disk }.on_timer(ctx, id, tag)
    }

    fn on_restart(&mut self, disk: &mut EnsembleDisk, ctx: &mut Ctx, _dead: &Self) {
        let mut server = Server { mem: self, disk };
        server.arm_election(ctx);
        server.arm_expiry_check(ctx);
    }
}

/// The session an op names.
fn op_session(op: &Op) -> u64 {
    match op {
        Op::CloseSession { session, .. } | Op::CreateLockNode { session, .. } | Op::DeleteLockNode { session, .. } => *session,
        Op::Noop | Op::OpenSession { .. } => 0,
    }
}

impl Server<'_> {
    fn on_start(&mut self, ctx: &mut Ctx) {
        // A bootstrapped ensemble: server 1 already leads epoch 1.
        let first = self.mem.servers[0];
        self.arm_expiry_check(ctx);
        if self.mem.rank == 0 {
            self.start_election_as_bootstrap(ctx);
        } else {
            // Heard from at the run's start, whenever this server starts.
            self.mem.leader = Some(first);
            self.mem.last_leader_contact = 0;
            self.arm_election(ctx);
        }
    }

    fn on_message(&mut self, ctx: &mut Ctx, from: NodeId, msg: Msg) {
        match msg {
            Msg::Append { epoch, prev_len, prev_epoch, entries, commit } => {
                self.on_append(ctx, from, epoch, prev_len as usize, prev_epoch, entries, commit as usize)
            }
            Msg::AppendReply { epoch, ok, len } => self.on_append_reply(ctx, from, epoch, ok, len as usize),
            Msg::RequestVote { epoch, last_len, last_epoch } => self.on_request_vote(ctx, from, epoch, last_len as usize, last_epoch),
            Msg::VoteReply { epoch, granted } => self.on_vote_reply(ctx, from, epoch, granted),
            other => self.on_client(ctx, from, other),
        }
    }

    fn on_timer(&mut self, ctx: &mut Ctx, id: TimerId, tag: u32) {
        match tag {
            ELECTION if self.mem.election == Some(id) => {
                self.mem.election = None;
                if self.mem.role != Role::Leader {
                    self.start_election(ctx);
                }
            }
            TICK => self.on_tick(ctx),
            EXPIRY_CHECK => {
                if self.mem.role == Role::Leader {
                    self.expire_overdue(ctx);
                }
                self.arm_expiry_check(ctx);
            }
            _ => {}
        }
    }

    /// Server 1 takes epoch 1 at time 0 without a vote round, as a freshly formed ensemble
    /// whose first election is already over.
    fn start_election_as_bootstrap(&mut self, ctx: &mut Ctx) {
        self.mem.candidate_epoch = 1;
        self.disk.voted = Some((1, ctx.me()));
        self.become_leader(ctx);
    }
}
