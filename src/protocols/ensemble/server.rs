//! The ensemble server: the `sim::Process` that wires messages and timers to the replicated log
//! (`log`) and the lock store (`store`). It sends, times and reports; the log decides what
//! replicates and commits, the store what a committed entry does, the `Service` what differs by
//! system.

use crate::vec_map::VecMap;

use super::super::{Ctx, Entry, Msg, Note, Op};
use super::log::{majority, Ballot, Log, Term, ELECTION_STAGGER_MS, ELECTION_TIMEOUT_MS, HEARTBEAT_MS};
use super::store::{Applied, Applying, LockNode, Store};
use super::{Refusal, Service};
use crate::sim::{ClockKind, Durable, Host, NodeId, Process, TimerId};

const ELECTION: u32 = 1;
const TICK: u32 = 2;
const EXPIRY_CHECK: u32 = 3;

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

/// A leader's `Append` as a follower takes it: the entries after the leader's first `prev_len`,
/// whose last has `prev_epoch`, and how many the leader has committed.
struct Shipment {
    epoch: u64,
    prev_len: usize,
    prev_epoch: u64,
    entries: Vec<Entry>,
    commit: usize,
}

/// When a leader last heard from a session, and how long the session's timer waits from then.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Heard {
    at_ms: i64,
    wait_ms: i64,
}

/// What an ensemble server is built with.
pub struct EnsembleConfig {
    pub service: &'static dyn Service,
    pub rank: usize,
    pub servers: Vec<NodeId>,
    pub tick_ms: i64,
    /// The lock-delay sessions ask for (Consul's `lock.lock_delay_ms`; 0 for the others); what
    /// is enforced is `Service::lock_delay`'s.
    pub lock_delay_ms: i64,
}

/// What a server keeps through a crash. The log, epoch and vote are fsynced before any reply
/// (both systems do), and so is the state applied from the log with its commit index (etcd's
/// backend and HardState; ZooKeeper's snapshot), and the highest epoch heard of.
pub struct EnsembleDisk {
    term: Term,
    log: Log,
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
    service: &'static dyn Service,
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
    /// Per session: when the leader last heard from it and how long its timer waits
    /// (`Service::wait_range`, drawn at each (re)arming).
    last_heard: VecMap<u64, Heard>,
    closing: Vec<u64>,
    /// Where this process's expiry checks fall within their period, for a service whose checks
    /// run on a loop started with the process (`Service::checks_from_process_start`: etcd's
    /// lessor): drawn once per process from the seed. A grid fixed at 0 made every etcd lease
    /// end the same ~495 ms late whatever the seed; drawn, the documented 0–500 ms spread is
    /// explored. 0 for the others.
    expiry_phase: Option<i64>,
}

impl EnsembleServer {
    /// Server `rank` (0-based) of the ensemble `servers`; rank 0 leads epoch 1 at start.
    /// `tick_ms`: ZooKeeper's tickTime (`lock.tick_ms`); `lock_delay_ms`: Consul's lock-delay.
    pub fn node(
        service: &'static dyn Service,
        rank: usize,
        servers: Vec<NodeId>,
        tick_ms: i64,
        lock_delay_ms: i64,
    ) -> Host<EnsembleServer> {
        Host::from_config(EnsembleConfig { service, rank, servers, tick_ms, lock_delay_ms })
    }
}

/// A handler's view of a server: its process and its disk.
struct Server<'a> {
    mem: &'a mut EnsembleServer,
    disk: &'a mut EnsembleDisk,
}

impl Server<'_> {
    fn majority(&self) -> usize {
        majority(self.mem.servers.len())
    }

    fn peers(&self) -> impl Iterator<Item = (usize, NodeId)> + '_ {
        let me = self.mem.rank;
        self.mem.servers.iter().copied().enumerate().filter(move |(i, _)| *i != me)
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
            ctx.note(Note::SteppedDown { epoch: self.disk.term.epoch });
        }
        self.disk.term.epoch = epoch;
        self.mem.role = Role::Follower;
        self.mem.leader = leader;
        self.mem.waiting.clear();
        // Watches stay: a server keeps its clients' watches through a leader change (a client
        // that moves to another server lists again, ensemble_client).
        self.mem.closing.clear();
        self.arm_election(ctx);
    }

    fn start_election(&mut self, ctx: &mut Ctx) {
        self.mem.candidate_epoch = self.disk.term.next_campaign();
        self.mem.role = Role::Candidate;
        self.mem.leader = None;
        self.disk.term.voted = Some((self.mem.candidate_epoch, ctx.me()));
        self.mem.votes = vec![ctx.me()];
        let msg = Msg::RequestVote {
            epoch: self.mem.candidate_epoch,
            last_len: self.disk.log.len() as u32,
            last_epoch: self.disk.log.last_epoch(),
        };
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
        self.disk.term.epoch = self.disk.term.epoch.max(self.mem.candidate_epoch);
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
        let sessions: Vec<(u64, i64)> = self.disk.store.sessions().iter().map(|s| (s.id, s.ttl_ms)).collect();
        for (id, ttl_ms) in sessions {
            self.hear(ctx, id, ttl_ms);
        }
        ctx.note(Note::LeaderElected { epoch: self.disk.term.epoch });
        // A watch kept from an earlier term whose node went while another server led fires now.
        let (gone, kept): (Vec<_>, Vec<_>) =
            std::mem::take(&mut self.disk.watches).into_iter().partition(|(t, _, _)| !self.disk.store.has_token(*t));
        self.disk.watches = kept;
        for (token, client, session) in gone {
            ctx.send(client, Msg::WatchFired { token, session });
        }
        self.propose(ctx, Op::Noop, None);
        ctx.set_timer(HEARTBEAT_MS, ClockKind::Mono, TICK);
    }

    /// Appends an entry (leader only) and ships it; `reply` is answered when it commits.
    fn propose(&mut self, ctx: &mut Ctx, op: Op, reply: Option<(NodeId, u32)>) {
        let index = self.disk.log.push(Entry { epoch: self.disk.term.epoch, op });
        if let Some((client, req)) = reply {
            self.mem.waiting.push(Waiting { index, client, req });
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
        let msg = Msg::Append {
            epoch: self.disk.term.epoch,
            prev_len: prev_len as u32,
            prev_epoch: self.disk.log.epoch_before(prev_len),
            entries: self.disk.log.after(prev_len).to_vec(),
            commit: self.disk.log.commit() as u32,
        };
        ctx.send(self.mem.servers[peer], msg);
    }

    /// Commits what a majority stores, as far as the log allows.
    fn advance_commit(&mut self, ctx: &mut Ctx) {
        if let Some(n) = self.disk.log.committable(&self.mem.match_len, self.disk.term.epoch) {
            self.commit_to(ctx, n);
        }
    }

    /// Applies entries up to `n`; a leader also reports, replies and fires watches.
    fn commit_to(&mut self, ctx: &mut Ctx, n: usize) {
        while let Some((index, entry)) = self.disk.log.next_to_apply(n) {
            let before = self.disk.store.lowest();
            let lock_delay_ms = self.mem.service.lock_delay(self.mem.lock_delay_ms).map_or(0, |d| d.applied_ms);
            let at = Applying { tick_ms: self.mem.tick_ms, lock_delay_ms, now_ms: ctx.mono_ms() };
            let applied = self.disk.store.apply(self.mem.service, at, &entry);
            if self.mem.role == Role::Leader {
                self.after_apply(ctx, index, &entry.op, &applied, before);
            }
        }
    }

    fn after_apply(&mut self, ctx: &mut Ctx, index: usize, op: &Op, applied: &Applied, before: Option<LockNode>) {
        if let (true, Some(s)) = (applied.opened, applied.session) {
            self.hear(ctx, s.id, s.ttl_ms);
            ctx.note(Note::SessionOpened { client: s.client, session: s.id, ttl_ms: s.ttl_ms });
        }
        if let Some(s) = applied.expired {
            // The lock-delay is in force only where the session held the key.
            let lock_delay = self.mem.service.lock_delay(self.mem.lock_delay_ms).filter(|_| !applied.deleted.is_empty());
            ctx.note(Note::SessionExpired { client: s.client, session: s.id, lock_delay });
            if let Some(notice) = self.mem.service.expiry_notice(s.id) {
                ctx.send(s.client, notice);
            }
        }
        if let Op::CloseSession { session, .. } = op {
            self.mem.last_heard.remove(session);
            self.mem.closing.retain(|c| c != session);
        }
        if let (Some(n), Op::CreateLockNode { .. }) = (applied.created, op) {
            if before.is_none_or(|b| b.token != n.token) && !self.disk.store.is_empty() {
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
                (_, a) if a.no_session => self.mem.service.session_gone(op_session(op)),
                (Op::OpenSession { .. }, Applied { session: Some(s), .. }) => {
                    Msg::SessionReply { req: w.req, session: s.id, ttl_ms: s.ttl_ms }
                }
                (Op::CreateLockNode { .. }, Applied { created: Some(n), .. }) => Msg::CreateReply { req: w.req, token: n.token },
                (Op::CreateLockNode { .. }, Applied { refused: Some(Refusal { holder, lock_delay }), .. }) => {
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
            let epoch = self.disk.term.epoch;
            self.become_follower(ctx, epoch, None);
            return;
        }
        let peers: Vec<usize> = self.peers().map(|(i, _)| i).collect();
        for p in peers {
            self.send_append(ctx, p);
        }
        ctx.set_timer(HEARTBEAT_MS, ClockKind::Mono, TICK);
    }

    /// The leader heard from `session` (timeout `ttl_ms`) now: its timer restarts, waiting a
    /// time drawn from the service's range (Consul: TTL to 2 × TTL; the others exactly the TTL,
    /// with nothing drawn, so their runs are as before).
    fn hear(&mut self, ctx: &mut Ctx, session: u64, ttl_ms: i64) {
        let (lo, hi) = self.mem.service.wait_range(ttl_ms);
        let wait_ms = if hi > lo { ctx.rng().range(lo, hi) } else { lo };
        self.mem.last_heard.insert(session, Heard { at_ms: ctx.mono_ms(), wait_ms });
    }

    /// The next expiry check: every period on this server's monotonic clock, offset by the
    /// process's phase (ZooKeeper's buckets sit on multiples of tickTime, etcd's lessor checks
    /// every 500 ms from its start). Every server runs it; only a leader acts on it.
    fn arm_expiry_check(&mut self, ctx: &mut Ctx) {
        let (service, period) = (self.mem.service, self.mem.service.expiry_period(self.mem.tick_ms));
        let phase = *self.mem.expiry_phase.get_or_insert_with(|| {
            if service.checks_from_process_start() {
                (ctx.rng().next_u64() % period as u64) as i64
            } else {
                0
            }
        });
        let next = ((ctx.mono_ms() - phase).div_euclid(period) + 1) * period + phase;
        ctx.set_timer_at(next, ClockKind::Mono, EXPIRY_CHECK);
    }

    /// Leader: proposes the expiry of every session not heard from within its timeout.
    fn expire_overdue(&mut self, ctx: &mut Ctx) {
        let now = ctx.mono_ms();
        let (service, tick) = (self.mem.service, self.mem.tick_ms);
        let overdue: Vec<u64> = self
            .disk
            .store
            .sessions()
            .iter()
            .filter(|s| !self.mem.closing.contains(&s.id))
            .filter(|s| {
                let heard = self.mem.last_heard.get(&s.id).copied().unwrap_or(Heard { at_ms: now, wait_ms: s.ttl_ms });
                service.expired(heard.at_ms, heard.wait_ms, now, tick)
            })
            .map(|s| s.id)
            .collect();
        for session in overdue {
            self.mem.closing.push(session);
            self.propose(ctx, Op::CloseSession { session, expired: true }, None);
        }
    }

    /// A waiter's ping names the node it watches: a watch this server lacks (it was set on
    /// another, or the notice of its firing was lost on the way) is registered again, or fired
    /// at once if its node is already gone.
    fn rewatch(&mut self, ctx: &mut Ctx, client: NodeId, session: u64, token: u64) {
        if !self.disk.store.has_token(token) {
            self.disk.watches.retain(|w| *w != (token, client, session));
            ctx.send(client, Msg::WatchFired { token, session });
        } else if !self.disk.watches.contains(&(token, client, session)) {
            self.disk.watches.push((token, client, session));
        }
    }

    fn session_alive(&self, session: u64) -> bool {
        self.disk.store.session(session).is_some() && !self.mem.closing.contains(&session)
    }

    /// The answer to a listing: the service's, for a session that is gone, if it has one;
    /// otherwise the session's place in the queue.
    fn listing(&self, req: u32, session: u64, before: Option<u64>) -> Msg {
        let gone = if self.session_alive(session) { None } else { self.mem.service.gone_listing(session) };
        gone.unwrap_or_else(|| {
            let (mine, predecessor) = self.disk.store.place(session, before);
            Msg::ListReply { req, mine, predecessor }
        })
    }

    fn on_append(&mut self, ctx: &mut Ctx, from: NodeId, shipment: Shipment) {
        let Shipment { epoch, prev_len, prev_epoch, entries, commit } = shipment;
        if epoch < self.disk.term.epoch {
            ctx.send(from, Msg::AppendReply { epoch: self.disk.term.epoch, ok: false, len: self.disk.log.len() as u32 });
            return;
        }
        if epoch > self.disk.term.epoch || self.mem.role != Role::Follower || self.mem.leader != Some(from) {
            self.become_follower(ctx, epoch, Some(from));
        } else {
            self.arm_election(ctx);
        }
        self.mem.last_leader_contact = ctx.mono_ms();
        match self.disk.log.accept(prev_len, prev_epoch, entries) {
            Ok(matched) => {
                self.commit_to(ctx, commit.min(matched));
                ctx.send(from, Msg::AppendReply { epoch, ok: true, len: matched as u32 });
            }
            Err(hint) => ctx.send(from, Msg::AppendReply { epoch, ok: false, len: hint as u32 }),
        }
    }

    fn on_append_reply(&mut self, ctx: &mut Ctx, from: NodeId, epoch: u64, ok: bool, len: usize) {
        if epoch > self.disk.term.epoch {
            self.become_follower(ctx, epoch, None);
            return;
        }
        let Some(peer) = self.mem.servers.iter().position(|&s| s == from) else { return };
        if self.mem.role != Role::Leader || epoch < self.disk.term.epoch {
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
        let heard_leader = match self.mem.role {
            Role::Follower => self.mem.leader.is_some() && now - self.mem.last_leader_contact < ELECTION_TIMEOUT_MS,
            Role::Leader => true,
            Role::Candidate => false,
        };
        let ballot = Ballot { candidate: from, epoch, last_len, last_epoch, heard_leader };
        if !self.disk.term.grants(&self.disk.log, &ballot) {
            ctx.send(from, Msg::VoteReply { epoch: self.disk.term.refusal_epoch(), granted: false });
            return;
        }
        // Granting moves this server into the candidate's epoch.
        self.become_follower(ctx, epoch, None);
        self.disk.term.voted = Some((epoch, from));
        ctx.send(from, Msg::VoteReply { epoch, granted: true });
    }

    fn on_vote_reply(&mut self, ctx: &mut Ctx, from: NodeId, epoch: u64, granted: bool) {
        if !granted {
            self.disk.term.heard_of(epoch);
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
            Msg::ListLockNodes { req, session, before } => ctx.send(from, self.listing(req, session, before)),
            Msg::WatchNode { req, token, session } => {
                let exists = self.disk.store.has_token(token);
                if exists {
                    self.disk.watches.push((token, from, session));
                }
                ctx.send(from, Msg::WatchReply { req, exists });
            }
            Msg::KeepAlive { session, watching } if self.session_alive(session) => {
                let ttl_ms = self.disk.store.session(session).map_or(0, |s| s.ttl_ms);
                self.hear(ctx, session, ttl_ms);
                ctx.send(from, Msg::KeepAliveReply { session, alive: true });
                if let Some(token) = watching {
                    self.rewatch(ctx, from, session, token);
                }
            }
            Msg::KeepAlive { session, .. } => ctx.send(from, self.mem.service.session_gone(session)),
            // ZooKeeper: a client whose connection closed comes back with its session id.
            Msg::Reconnect { req, session } => match self.disk.store.session(session).copied().filter(|s| self.session_alive(s.id)) {
                Some(s) => {
                    self.hear(ctx, session, s.ttl_ms);
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
        EnsembleDisk { term: Term::first(), log: Log::default(), store: Store::default(), watches: Vec::new() }
    }

    /// A follower that knows no leader and has heard from none.
    fn boot(config: &EnsembleConfig, _: &EnsembleDisk, _: u32) -> Self {
        let n = config.servers.len();
        EnsembleServer {
            service: config.service,
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
            expiry_phase: None,
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
                let shipment = Shipment { epoch, prev_len: prev_len as usize, prev_epoch, entries, commit: commit as usize };
                self.on_append(ctx, from, shipment)
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
        self.disk.term.voted = Some((1, ctx.me()));
        self.become_leader(ctx);
    }
}
