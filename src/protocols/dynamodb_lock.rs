//! The Amazon DynamoDB Lock Client (awslabs/amazon-dynamodb-lock-client,
//! `AmazonDynamoDBLockClient.java`, `LockItem.java`). The lock is one item in a DynamoDB table;
//! every write to it is conditional on the record version number (RVN) it last read, and
//! stores a new random RVN. DynamoDB itself expires nothing, and no client compares clocks: a
//! waiter reads the item, remembers its RVN and when it first saw it (on its own monotonic
//! clock), polls every refresh period, and takes the lock (a conditional put expecting that
//! RVN) only once the RVN has stayed the same for a whole `leaseDuration`. The holder
//! heartbeats every heartbeat period with a new RVN, and believes it holds the lock until
//! `leaseDuration` after its last successful heartbeat (`LockItem.isExpired`).
//!
//! The RVN is a UUID: unordered, so it is no fencing token. A resource could only compare it
//! for equality with the item's current one, which the lock client never passes on. The model
//! numbers the item's versions in order (the table is `k8s_lease::ApiServer`, which stores a
//! record with optimistic concurrency exactly so); nothing reads that order, and the words show
//! each version as an opaque id.

use super::client::{AgentEvent, LockAgent, Rpc, AGENT_TAGS};
use super::k8s_lease::{taken_over_by, ApiServer, Observed};
use super::spec::{BeliefWords, Build, ConfigRules, Deadline, Holding, LeaseKind, Setting, Spec, TablePlan, TokenKind, Words, Workload};
use super::{BeliefEnd, Ctx, EventKind, LeaseRecord, Msg, Note, Trace};
use crate::sim::{ClockKind, Host, NodeId, TimerId};

const NEXT: u32 = AGENT_TAGS;
const EXPIRY: u32 = AGENT_TAGS + 1;
const REQUEST: u32 = AGENT_TAGS + 2;

/// How often the holder's background thread sends a heartbeat (the builder's default, 5 s).
pub const HEARTBEAT_PERIOD: Setting = Setting::ms(
    "heartbeat_period_ms",
    1,
    600_000,
    5_000,
    "heartbeatPeriod",
    "the DynamoDB Lock Client's heartbeatPeriod: how often the holder writes a new record version number",
);
/// How often a waiter reads the item again (`AcquireLockOptions.refreshPeriod`; 1 s here).
pub const REFRESH_PERIOD: Setting = Setting::ms(
    "refresh_period_ms",
    1,
    600_000,
    1_000,
    "refreshPeriod",
    "the DynamoDB Lock Client's refreshPeriod: how often a waiter reads the lock item again",
);

/// The client's timing.
#[derive(Clone, Copy)]
struct Timing {
    lease_ms: i64,
    heartbeat_ms: i64,
    refresh_ms: i64,
    request_timeout_ms: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Waiting,
    Holding,
    Releasing,
    Done,
}

/// One process's lock client.
pub struct LockClient {
    table: NodeId,
    timing: Timing,
    rpc: Rpc,
    /// The owner name (hostname + a random UUID).
    owner: u64,
    attempt: u32,
    state: State,
    /// A GetItem is out (false: a conditional write is).
    getting: bool,
    /// The item last read and when this process first saw its RVN, on its monotonic clock.
    seen: Observed,
    /// The item as this process last wrote it (its RVN is what the next write expects).
    held: Option<LeaseRecord>,
    next: Option<TimerId>,
    expiry: Option<TimerId>,
}

impl LockClient {
    fn new(incarnation: u32, table: NodeId, timing: Timing) -> Self {
        LockClient {
            table,
            timing,
            rpc: Rpc::new(incarnation),
            owner: 0,
            attempt: 0,
            state: State::Waiting,
            getting: false,
            seen: Observed::default(),
            held: None,
            next: None,
            expiry: None,
        }
    }

    fn mine(&self, ctx: &Ctx) -> LeaseRecord {
        LeaseRecord { holder: Some(ctx.me()), identity: self.owner, duration_ms: self.timing.lease_ms, transitions: 0, rv: 0 }
    }

    fn get(&mut self, ctx: &mut Ctx) {
        self.getting = true;
        let req = self.rpc.start(ctx, self.timing.request_timeout_ms, REQUEST);
        ctx.send(self.table, Msg::GetLease { req });
    }

    /// A write conditional on `rvn` (None: on the item not existing).
    fn put(&mut self, ctx: &mut Ctx, rvn: Option<u64>, item: LeaseRecord) {
        self.getting = false;
        let req = self.rpc.start(ctx, self.timing.request_timeout_ms, REQUEST);
        ctx.send(self.table, Msg::UpdateLease { req, attempt: self.attempt, rv: rvn, lease: item });
    }

    fn after(&mut self, ctx: &mut Ctx, ms: i64) {
        if let Some(t) = self.next.take() {
            ctx.cancel_timer(t);
        }
        self.next = Some(ctx.set_timer(ms, ClockKind::Mono, NEXT));
    }

    /// A waiter's read: take a free or released item at once; a held one only once its RVN has
    /// not changed for the item's whole lease duration, by this process's clock.
    fn decide(&mut self, ctx: &mut Ctx, item: Option<LeaseRecord>) -> AgentEvent {
        let mine = self.mine(ctx);
        match item {
            None => self.put(ctx, None, mine),
            Some(l) if l.holder.is_none() => self.put(ctx, Some(l.rv), mine),
            Some(l) => {
                self.seen.see(l, ctx.mono_ms());
                if self.seen.stood_its_duration(ctx.mono_ms()) {
                    self.put(ctx, Some(l.rv), mine);
                } else {
                    self.after(ctx, self.timing.refresh_ms);
                }
            }
        }
        AgentEvent::Nothing
    }

    /// A successful write by the holder: it may believe for a lease duration from now.
    fn stored(&mut self, ctx: &mut Ctx, item: LeaseRecord) {
        self.held = Some(item);
        if let Some(t) = self.expiry.take() {
            ctx.cancel_timer(t);
        }
        self.expiry = Some(ctx.set_timer(self.timing.lease_ms, ClockKind::Mono, EXPIRY));
        self.after(ctx, self.timing.heartbeat_ms);
    }

    fn cancel_timers(&mut self, ctx: &mut Ctx) {
        for t in [self.next.take(), self.expiry.take()].into_iter().flatten() {
            ctx.cancel_timer(t);
        }
    }
}

impl LockAgent for LockClient {
    fn acquire(&mut self, ctx: &mut Ctx, attempt: u32) {
        self.owner = ctx.rng().next_u64() | 1;
        self.attempt = attempt;
        self.state = State::Waiting;
        self.get(ctx);
    }

    /// releaseLock: a write conditional on the RVN it holds, marking the item released.
    fn release(&mut self, ctx: &mut Ctx) -> AgentEvent {
        self.cancel_timers(ctx);
        match (self.state, self.held) {
            (State::Holding, Some(l)) => {
                self.state = State::Releasing;
                self.put(ctx, Some(l.rv), LeaseRecord { holder: None, identity: 0, ..l });
                AgentEvent::Nothing
            }
            _ => {
                self.state = State::Done;
                AgentEvent::Released
            }
        }
    }

    fn on_message(&mut self, ctx: &mut Ctx, _from: NodeId, msg: &Msg) -> AgentEvent {
        match *msg {
            Msg::LeaseReply { req, lease } if self.getting && self.rpc.answer(ctx, req) => match self.state {
                State::Waiting => self.decide(ctx, lease),
                _ => AgentEvent::Nothing,
            },
            Msg::UpdateReply { req, stored } if !self.getting && self.rpc.answer(ctx, req) => match (self.state, stored) {
                (State::Releasing, _) => {
                    self.state = State::Done;
                    AgentEvent::Released
                }
                (State::Waiting, Some(item)) => {
                    self.state = State::Holding;
                    self.stored(ctx, item);
                    AgentEvent::Acquired { token: None, validity_ms: None }
                }
                // Another waiter's write came first: read again.
                (State::Waiting, None) => {
                    self.after(ctx, self.timing.refresh_ms);
                    AgentEvent::Nothing
                }
                (State::Holding, Some(item)) => {
                    self.stored(ctx, item);
                    AgentEvent::Nothing
                }
                // The heartbeat's condition failed: the item is someone else's now. The
                // heartbeat thread stops; the holder's code is not told, and its LockItem
                // expires a lease duration after the last heartbeat that worked.
                (State::Holding, None) => {
                    if let Some(t) = self.next.take() {
                        ctx.cancel_timer(t);
                    }
                    AgentEvent::Nothing
                }
                (State::Done, _) => AgentEvent::Nothing,
            },
            _ => AgentEvent::Nothing,
        }
    }

    fn on_timer(&mut self, ctx: &mut Ctx, tag: u32) -> AgentEvent {
        match (tag, self.state) {
            (REQUEST, State::Releasing) => {
                self.rpc.time_out();
                self.state = State::Done;
                AgentEvent::Released
            }
            // A request with no answer: a waiter reads again, a holder heartbeats again.
            (REQUEST, State::Waiting | State::Holding) => {
                self.rpc.time_out();
                let wait = if self.state == State::Waiting { self.timing.refresh_ms } else { self.timing.heartbeat_ms };
                self.after(ctx, wait);
                AgentEvent::Nothing
            }
            (NEXT, State::Waiting) => {
                self.next = None;
                self.get(ctx);
                AgentEvent::Nothing
            }
            (NEXT, State::Holding) => {
                self.next = None;
                if let Some(l) = self.held {
                    let heartbeat = LeaseRecord { rv: 0, ..l };
                    self.put(ctx, Some(l.rv), heartbeat);
                }
                AgentEvent::Nothing
            }
            (EXPIRY, State::Holding) => {
                self.expiry = None;
                self.state = State::Done;
                self.rpc.cancel(ctx);
                self.cancel_timers(ctx);
                AgentEvent::Lost(BeliefEnd::ValidityExpired)
            }
            _ => AgentEvent::Nothing,
        }
    }
}

/// The heartbeat period must be shorter than the lease, or the lock lapses between heartbeats.
fn check(l: &super::LockConfig) -> Result<(), (&'static str, String)> {
    let heartbeat = l.get(&HEARTBEAT_PERIOD);
    if heartbeat >= l.ttl_ms {
        return Err((
            "lock.heartbeat_period_ms",
            format!("{heartbeat} ms must be below the leaseDuration ({} ms): the lock would lapse between heartbeats", l.ttl_ms),
        ));
    }
    Ok(())
}

/// A lease too short for the default heartbeat gets one a quarter of it (the builder's 20 : 5).
fn fit(l: &mut super::LockConfig) {
    if check(l).is_err() {
        l.own.set(HEARTBEAT_PERIOD.name(), Some((l.ttl_ms / 4).max(1)));
    }
}

/// An RVN as the item shows it: a random-looking id (DynamoDB's is a UUID), so nothing reads
/// an order into it.
fn rvn(version: u64) -> String {
    format!("{:08x}", (version.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) as u32)
}

pub const SPEC: Spec = Spec {
    id: "dynamodb-lock",
    label: "DynamoDB Lock Client",
    short: "DynamoDB",
    nodes: |_, _| vec!["dynamodb".into()],
    default_servers: None,
    holding: Holding::One,
    lease: LeaseKind::KeptAlive,
    granted_ttl: |l| l.ttl_ms,
    grant_rule: None,
    token: TokenKind::None,
    safe_unlock: false,
    persistence: false,
    replica: false,
    drift_factor: false,
    expiry_clock: ClockKind::Mono,
    deadline: Deadline::Waiters,
    config: ConfigRules { default_ttl_ms: 20_000, settings: &[HEARTBEAT_PERIOD, REFRESH_PERIOD], per_client: &[], check, fit },
    workload: Workload::UnderLock,
    words: Words {
        lease: "lock item",
        ttl: "leaseDuration",
        expired: "lock item taken over",
        keepalive: "heartbeats",
        roles: ["DynamoDB", "DynamoDB"],
        message: words,
        got: "gets the lock",
        caption,
        belief: BeliefWords::LOCK,
    },
    table: TablePlan::claims("the record version number is no fencing token: a holder paused past leaseDuration writes late, fencing on or off"),
    replica_table: None,
    build: Build {
        agent: |p| {
            let timing = Timing {
                lease_ms: p.lock.ttl_ms,
                heartbeat_ms: p.lock.get(&HEARTBEAT_PERIOD),
                refresh_ms: p.lock.get(&REFRESH_PERIOD),
                request_timeout_ms: p.lock.request_timeout_ms,
            };
            let table = p.servers[0];
            Box::new(move |inc| Box::new(LockClient::new(inc, table, timing)))
        },
        server: |_, _| Box::new(Host::<ApiServer>::from_config(())),
    },
};

/// The DynamoDB calls a message stands for.
fn words(msg: &Msg) -> Option<String> {
    Some(match msg {
        Msg::GetLease { .. } => "GetItem lock (consistent read)".into(),
        Msg::LeaseReply { lease: None, .. } => "no item".into(),
        Msg::LeaseReply { lease: Some(l), .. } if l.holder.is_none() => format!("item RVN {}: released", rvn(l.rv)),
        Msg::LeaseReply { lease: Some(l), .. } => format!("item RVN {}: held", rvn(l.rv)),
        Msg::UpdateLease { rv: None, .. } => "PutItem if attribute_not_exists".into(),
        Msg::UpdateLease { rv: Some(v), lease, .. } if lease.holder.is_none() => format!("UpdateItem isReleased if RVN = {}", rvn(*v)),
        Msg::UpdateLease { rv: Some(v), .. } => format!("PutItem new RVN if RVN = {}", rvn(*v)),
        Msg::UpdateReply { stored: Some(l), .. } => format!("OK, RVN {}", rvn(l.rv)),
        Msg::UpdateReply { stored: None, .. } => "ConditionalCheckFailed".into(),
        _ => return None,
    })
}

/// The captions where the lock client has its own words.
fn caption(trace: &Trace, event: usize, me: &str) -> Option<String> {
    let e = trace.events.get(event)?;
    let EventKind::Note(note) = &e.kind else { return None };
    let name = |n: NodeId| trace.name(n).to_string();
    Some(match *note {
        Note::AcquireStarted { .. } => {
            format!("{me} calls acquireLock: it reads the lock item, and polls every refreshPeriod while another holds it.")
        }
        Note::BeliefStarted { .. } => format!(
            "{me} holds the lock (no token: the record version number is random). It heartbeats every heartbeatPeriod and believes it holds the lock until a leaseDuration passes with no heartbeat that worked."
        ),
        Note::BeliefEnded { reason: BeliefEnd::ValidityExpired } => {
            format!("{me}'s lock item expired by its own clock: a leaseDuration since its last heartbeat that worked.")
        }
        Note::LockCommitted { client, .. } => format!("DynamoDB stores {}'s conditional put: {} holds the lock item.", name(client), name(client)),
        Note::LockExpired { holder } => {
            let by = taken_over_by(trace, event).unwrap_or_else(|| "a waiter".into());
            format!(
                "{by} takes over {}'s lock: by {by}'s own clock the record version number had not changed for a leaseDuration. DynamoDB expires nothing.",
                name(holder)
            )
        }
        Note::LockReleased { holder, .. } => format!("{} released the lock item: a waiter takes it at its next read.", name(holder)),
        _ => return None,
    })
}
