//! Kubernetes leader election on a Lease (docs/PROTOCOLS.md P8; client-go
//! tools/leaderelection/leaderelection.go and resourcelock/leaselock.go). The apiserver stores
//! one `coordination.k8s.io/v1` Lease and updates it with optimistic concurrency: an update
//! carrying a stale resourceVersion is refused (409 Conflict). It never expires anything: each
//! candidate judges the Lease by its *own* monotonic clock, as the time since it last saw the
//! record change, against the record's `leaseDurationSeconds` — tolerant of clock offset, not
//! of clock rate. The holder renews every RetryPeriod and stops leading when a renew round has
//! not succeeded for RenewDeadline; there is no fencing unless storage checks
//! `leaseTransitions` ("does not guarantee that only one client is acting as a leader").

use super::client::{AgentEvent, LockAgent, Rpc, AGENT_TAGS};
use super::spec::{Deadline, BeliefWords, Build, ConfigRules, Holding, LeaseKind, Setting, Spec, TablePlan, TokenKind, Words, Workload};
use super::{BeliefEnd, Ctx, EventKind, LeaseRecord, Msg, Note, Trace};
use crate::sim::{ClockKind, Durable, Host, NodeId, Process, TimerId};

const TRY: u32 = AGENT_TAGS;
const DEADLINE: u32 = AGENT_TAGS + 1;
const REQUEST: u32 = AGENT_TAGS + 2;
/// client-go's JitterFactor for the candidates' retries.
const JITTER_PERCENT: i64 = 120;
/// ReleaseOnCancel writes `leaseDurationSeconds: 1`.
const RELEASED_DURATION_MS: i64 = 1000;

/// What the apiserver keeps (in etcd, so a restart keeps it): the Lease and the store's
/// resourceVersion counter.
#[derive(Default)]
pub struct Stored {
    lease: Option<LeaseRecord>,
    rv: u64,
}

impl Durable for Stored {}

/// The apiserver's process: it holds nothing in memory.
pub struct ApiServer;

impl ApiServer {
    /// An update with the resourceVersion read (`rv`; None: create): stored, with a new
    /// resourceVersion, or refused (conflict, or already exists).
    fn update(stored: &mut Stored, ctx: &mut Ctx, from: NodeId, attempt: u32, rv: Option<u64>, lease: LeaseRecord) -> Option<LeaseRecord> {
        let old = stored.lease;
        if rv != old.map(|l| l.rv) {
            return None;
        }
        stored.rv += 1;
        let new = LeaseRecord { rv: stored.rv, ..lease };
        let taken = new.holder.is_some() && old.is_none_or(|o| o.identity != new.identity);
        if taken {
            // The candidate judged the holder's Lease expired, by its own clock.
            if let Some(holder) = old.and_then(|o| o.holder) {
                ctx.note(Note::LockExpired { holder });
            }
            ctx.note(Note::LockCommitted { client: from, attempt, token: Some(new.transitions), expires_wall_ms: None });
        } else if new.holder.is_none() && old.is_some_and(|o| o.holder == Some(from)) {
            ctx.note(Note::LockReleased { holder: from, by: from });
        }
        stored.lease = Some(new);
        Some(new)
    }
}

impl Process for ApiServer {
    type Msg = Msg;
    type Note = Note;
    type Config = ();
    type Durable = Stored;

    fn fresh(_: &()) -> Stored {
        Stored::default()
    }

    fn boot(_: &(), _: &Stored, _: u32) -> Self {
        ApiServer
    }

    fn on_message(&mut self, stored: &mut Stored, ctx: &mut Ctx, from: NodeId, msg: Msg) {
        match msg {
            Msg::GetLease { req } => ctx.send(from, Msg::LeaseReply { req, lease: stored.lease }),
            Msg::UpdateLease { req, attempt, rv, lease } => {
                let stored = ApiServer::update(stored, ctx, from, attempt, rv, lease);
                ctx.send(from, Msg::UpdateReply { req, stored });
            }
            _ => {}
        }
    }

    fn on_timer(&mut self, _: &mut Stored, _: &mut Ctx, _: TimerId, _: u32) {}
}

/// A record as a waiter judges it, shared by client-go's elector and the DynamoDB lock client:
/// neither compares clocks with the holder. A waiter remembers the record it last read and when
/// it first saw that record, on its own monotonic clock; the record is over for it once it has
/// stood unchanged for its own duration (client-go's `observedRecord`/`observedTime`; the lock
/// client's `lastUpdatedTimeInMilliseconds` against the record version number).
#[derive(Clone, Copy, Default)]
pub struct Observed(Option<(LeaseRecord, i64)>);

impl Observed {
    /// Remembers `record`, read at `now`; if it changed, it has stood unchanged since `now`.
    pub fn see(&mut self, record: LeaseRecord, now: i64) {
        if self.0.is_none_or(|(seen, _)| seen != record) {
            self.0 = Some((record, now));
        }
    }

    /// The record last read.
    pub fn record(&self) -> Option<LeaseRecord> {
        self.0.map(|(r, _)| r)
    }

    /// Whether the record last read has stood unchanged for its duration by `now`.
    pub fn stood_its_duration(&self, now: i64) -> bool {
        self.0.is_some_and(|(r, _)| self.stood_for(now, r.duration_ms))
    }

    /// Whether the record last read has stood unchanged for `duration_ms` by `now`.
    pub fn stood_for(&self, now: i64, duration_ms: i64) -> bool {
        self.0.is_some_and(|(_, since)| now - since >= duration_ms)
    }
}

/// The caption's "who takes over": the client whose acquisition the server at `event` commits
/// next (the note after its expiry note), if the trace has it.
pub fn taken_over_by(trace: &Trace, event: usize) -> Option<String> {
    let server = trace.events.get(event)?.node;
    trace.events[event + 1..].iter().find_map(|n| match n.kind {
        EventKind::Note(Note::LockCommitted { client, .. }) if n.node == server => Some(trace.name(client).to_string()),
        _ => None,
    })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Candidate,
    Leader,
    Releasing,
    /// `Run` returned: it stopped leading (or released) and does not try again.
    Done,
}

/// client-go's timing, as configured (`lock.ttl_ms` is the LeaseDuration, in whole seconds).
#[derive(Clone, Copy)]
pub struct Timing {
    pub lease_ms: i64,
    pub renew_deadline_ms: i64,
    pub retry_period_ms: i64,
    pub request_timeout_ms: i64,
    /// `lock.reads_record_duration`: a candidate judges the holder's record by the
    /// `leaseDurationSeconds` written in it (true), or by its own LeaseDuration (false).
    pub reads_record_duration: bool,
}

/// One process's leader elector.
pub struct Elector {
    apiserver: NodeId,
    timing: Timing,
    rpc: Rpc,
    identity: u64,
    attempt: u32,
    role: Role,
    /// A GET is out (false: an update is).
    getting: bool,
    /// The record last seen and when it last changed, on this process's monotonic clock.
    observed: Observed,
    next_try: Option<TimerId>,
    /// The end of the current renew round (a leader's), armed when the round starts.
    deadline: Option<TimerId>,
}

impl Elector {
    pub fn new(incarnation: u32, apiserver: NodeId, timing: Timing) -> Self {
        Elector {
            apiserver,
            timing,
            rpc: Rpc::new(incarnation),
            identity: 0,
            attempt: 0,
            role: Role::Candidate,
            getting: false,
            observed: Observed::default(),
            next_try: None,
            deadline: None,
        }
    }

    /// `tryAcquireOrRenew`, first half: read the Lease.
    fn start_try(&mut self, ctx: &mut Ctx) {
        self.getting = true;
        let req = self.rpc.start(ctx, self.timing.request_timeout_ms, REQUEST);
        ctx.send(self.apiserver, Msg::GetLease { req });
    }

    fn send_update(&mut self, ctx: &mut Ctx, rv: Option<u64>, lease: LeaseRecord) {
        self.getting = false;
        let req = self.rpc.start(ctx, self.timing.request_timeout_ms, REQUEST);
        ctx.send(self.apiserver, Msg::UpdateLease { req, attempt: self.attempt, rv, lease });
    }

    /// `tryAcquireOrRenew`, second half: take or renew the Lease unless another identity
    /// holds it and, by this process's clock, it has changed within its duration.
    fn decide(&mut self, ctx: &mut Ctx, lease: Option<LeaseRecord>) -> AgentEvent {
        let mine =
            LeaseRecord { holder: Some(ctx.me()), identity: self.identity, duration_ms: self.timing.lease_ms, transitions: 0, rv: 0 };
        let Some(l) = lease else {
            self.send_update(ctx, None, mine);
            return AgentEvent::Nothing;
        };
        self.observed.see(l, ctx.mono_ms());
        let held_by_another = l.holder.is_some() && l.identity != self.identity;
        let expired = if self.timing.reads_record_duration {
            self.observed.stood_its_duration(ctx.mono_ms())
        } else {
            // kubernetes#47671: only its own LeaseDuration, whatever the holder's.
            self.observed.stood_for(ctx.mono_ms(), self.timing.lease_ms)
        };
        if held_by_another && !expired {
            return self.try_failed(ctx);
        }
        let transitions = l.transitions + u64::from(l.identity != self.identity);
        self.send_update(ctx, Some(l.rv), LeaseRecord { transitions, ..mine });
        AgentEvent::Nothing
    }

    fn schedule(&mut self, ctx: &mut Ctx, after_ms: i64) {
        if let Some(t) = self.next_try.take() {
            ctx.cancel_timer(t);
        }
        self.next_try = Some(ctx.set_timer(after_ms, ClockKind::Mono, TRY));
    }

    fn try_succeeded(&mut self, ctx: &mut Ctx, lease: LeaseRecord) -> AgentEvent {
        self.observed.see(lease, ctx.mono_ms());
        self.schedule(ctx, self.timing.retry_period_ms);
        match self.role {
            Role::Candidate => {
                self.role = Role::Leader;
                AgentEvent::Acquired { token: Some(lease.transitions), validity_ms: None }
            }
            _ => {
                // The round succeeded: the next starts RetryPeriod from now, with a new deadline.
                if let Some(t) = self.deadline.take() {
                    ctx.cancel_timer(t);
                }
                AgentEvent::Nothing
            }
        }
    }

    /// A candidate waits RetryPeriod plus up to 1.2 × RetryPeriod (`wait.JitterUntil`); a
    /// leader tries again RetryPeriod later within its round.
    fn try_failed(&mut self, ctx: &mut Ctx) -> AgentEvent {
        let retry = self.timing.retry_period_ms;
        let wait = match self.role {
            Role::Candidate => retry + ctx.rng().range(0, retry * JITTER_PERCENT / 100),
            _ => retry,
        };
        self.schedule(ctx, wait);
        AgentEvent::Nothing
    }

    /// The renew round's deadline passed: it stops leading and will not try again.
    fn stop_leading(&mut self, ctx: &mut Ctx) -> AgentEvent {
        self.role = Role::Done;
        self.rpc.cancel(ctx);
        if let Some(t) = self.next_try.take() {
            ctx.cancel_timer(t);
        }
        AgentEvent::Lost(BeliefEnd::ValidityExpired)
    }
}

impl LockAgent for Elector {
    fn acquire(&mut self, ctx: &mut Ctx, attempt: u32) {
        // client-go's identity: unique per process (hostname + a random UUID).
        self.identity = ctx.rng().next_u64() | 1;
        self.attempt = attempt;
        self.role = Role::Candidate;
        self.start_try(ctx);
    }

    /// ReleaseOnCancel: if the record last seen names this process, write an empty holder.
    fn release(&mut self, ctx: &mut Ctx) -> AgentEvent {
        for t in [self.next_try.take(), self.deadline.take()].into_iter().flatten() {
            ctx.cancel_timer(t);
        }
        match self.observed.record() {
            Some(l) if l.identity == self.identity && l.holder.is_some() => {
                self.role = Role::Releasing;
                let empty = LeaseRecord { holder: None, identity: 0, duration_ms: RELEASED_DURATION_MS, ..l };
                self.send_update(ctx, Some(l.rv), empty);
                AgentEvent::Nothing
            }
            _ => {
                self.role = Role::Done;
                AgentEvent::Released
            }
        }
    }

    fn on_message(&mut self, ctx: &mut Ctx, _from: NodeId, msg: &Msg) -> AgentEvent {
        match *msg {
            Msg::LeaseReply { req, lease } if self.getting && self.rpc.answer(ctx, req) => self.decide(ctx, lease),
            Msg::UpdateReply { req, stored } if !self.getting && self.rpc.answer(ctx, req) => match (self.role, stored) {
                (Role::Releasing, _) => {
                    self.role = Role::Done;
                    AgentEvent::Released
                }
                (_, Some(lease)) => self.try_succeeded(ctx, lease),
                (_, None) => self.try_failed(ctx),
            },
            _ => AgentEvent::Nothing,
        }
    }

    fn on_timer(&mut self, ctx: &mut Ctx, tag: u32) -> AgentEvent {
        match (tag, self.role) {
            (REQUEST, Role::Releasing) => {
                self.rpc.time_out();
                self.role = Role::Done;
                AgentEvent::Released
            }
            (REQUEST, Role::Candidate | Role::Leader) => {
                self.rpc.time_out();
                self.try_failed(ctx)
            }
            (TRY, Role::Candidate | Role::Leader) => {
                self.next_try = None;
                if self.role == Role::Leader && self.deadline.is_none() {
                    // A renew round starts: it gives up RenewDeadline from now.
                    self.deadline = Some(ctx.set_timer(self.timing.renew_deadline_ms, ClockKind::Mono, DEADLINE));
                }
                self.start_try(ctx);
                AgentEvent::Nothing
            }
            (DEADLINE, Role::Leader) => {
                self.deadline = None;
                self.stop_leading(ctx)
            }
            _ => AgentEvent::Nothing,
        }
    }
}

/// The LeaseDuration the Lease stores: whole seconds, rounded up.
fn whole_seconds(ms: i64) -> i64 {
    (ms + 999) / 1000 * 1000
}

/// client-go's RenewDeadline: how long a leader keeps retrying its renewal before it stops
/// leading (`ttl_ms` is its LeaseDuration). Bounded as a TTL is (scenario::limits::MAX_TTL_MS).
pub const RENEW_DEADLINE: Setting = Setting::ms(
    "renew_deadline_ms",
    1,
    600_000,
    10_000,
    "RenewDeadline",
    "client-go's RenewDeadline: a leader that cannot renew for this long stops leading",
);
/// client-go's RetryPeriod: how often a candidate tries to take the Lease and a leader renews it.
pub const RETRY_PERIOD: Setting = Setting::ms(
    "retry_period_ms",
    1,
    600_000,
    2_000,
    "RetryPeriod",
    "client-go's RetryPeriod: how often a candidate tries to take the Lease and a leader renews it",
);

/// How a candidate judges another's Lease over. client-go today (`isLeaseValid`,
/// leaderelection.go) adds the record's `leaseDurationSeconds` to when it last saw the record
/// change (true, the default: what this model has always done). Before, it used its own
/// LeaseDuration (false): kubernetes#47671 ("LeaderElector only looks at its own
/// LeaseDuration, not the leader's"), so a 10 s candidate takes a 30 s leader's Lease after 10 s.
pub const READS_RECORD_DURATION: Setting = Setting::flag(
    "reads_record_duration",
    true,
    "reads the record's duration",
    "a candidate judges the holder's Lease by the leaseDurationSeconds in the record (client-go's isLeaseValid; kubernetes/kubernetes PR #114872), not its own LeaseDuration (false: the client of kubernetes/kubernetes#47671)",
);

/// client-go refuses a config unless LeaseDuration > RenewDeadline > 1.2 × RetryPeriod.
fn check(l: &super::LockConfig) -> Result<(), (&'static str, String)> {
    let (lease, deadline, retry) = (whole_seconds(l.ttl_ms), l.get(&RENEW_DEADLINE), l.get(&RETRY_PERIOD));
    if deadline >= lease {
        return Err(("lock.renew_deadline_ms", format!("{deadline} ms must be below the LeaseDuration ({lease} ms): client-go requires LeaseDuration > RenewDeadline > 1.2 × RetryPeriod")));
    }
    if deadline * 5 <= retry * 6 {
        return Err(("lock.renew_deadline_ms", format!("{deadline} ms must be above 1.2 × RetryPeriod ({retry} ms): client-go requires LeaseDuration > RenewDeadline > 1.2 × RetryPeriod")));
    }
    Ok(())
}

/// A LeaseDuration too short for the default RenewDeadline and RetryPeriod gets both scaled
/// in client-go's default proportions (15 : 10 : 2).
fn fit(l: &mut super::LockConfig) {
    if check(l).is_err() {
        let lease = whole_seconds(l.ttl_ms);
        l.own.set(RENEW_DEADLINE.name(), Some(lease * 2 / 3));
        l.own.set(RETRY_PERIOD.name(), Some(lease * 2 / 15));
    }
}

pub const SPEC: Spec = Spec {
    id: "k8s-lease",
    label: "Kubernetes Lease",
    short: "Kubernetes",
    nodes: |_, _| vec!["apiserver".into()],
    default_servers: None,
    holding: Holding::One,
    lease: LeaseKind::KeptAlive,
    granted_ttl: |l| whole_seconds(l.ttl_ms),
    grant_rule: Some(|_| "stores leaseDurationSeconds in whole seconds".into()),
    token: TokenKind::Transitions,
    safe_unlock: false,
    persistence: false,
    replica: false,
    drift_factor: false,
    expiry_clock: ClockKind::Mono,
    deadline: Deadline::Waiters,
    config: ConfigRules {
        default_ttl_ms: 15_000,
        settings: &[RENEW_DEADLINE, RETRY_PERIOD, READS_RECORD_DURATION],
        // Each is a field of the process's own LeaderElectionConfig.
        per_client: &["ttl_ms", "renew_deadline_ms", "retry_period_ms", "reads_record_duration"],
        check,
        fit,
    },
    workload: Workload::UnderLock,
    words: Words {
        lease: "Lease",
        ttl: "LeaseDuration",
        expired: "Lease taken over",
        keepalive: "renewals",
        roles: ["apiserver", "apiserver"],
        message: words,
        got: "becomes leader",
        caption,
        belief: BeliefWords::LOCK,
    },
    table: TablePlan::claims(
        "leaseTransitions fences only if storage is given it (fencing on); most controllers never pass it on (fencing off)",
    ),
    replica_table: None,
    build: Build {
        agent: |p| {
            let timing = Timing {
                lease_ms: whole_seconds(p.lock.ttl_ms),
                renew_deadline_ms: p.lock.get(&RENEW_DEADLINE),
                retry_period_ms: p.lock.get(&RETRY_PERIOD),
                request_timeout_ms: p.lock.request_timeout_ms,
                reads_record_duration: p.lock.flag(&READS_RECORD_DURATION),
            };
            let apiserver = p.servers[0];
            Box::new(move |inc| Box::new(Elector::new(inc, apiserver, timing)))
        },
        server: |_, _| Box::new(Host::<ApiServer>::from_config(())),
    },
};

/// The Kubernetes API calls a message stands for.
fn words(msg: &Msg) -> Option<String> {
    Some(match msg {
        Msg::GetLease { .. } => "GET lease".into(),
        Msg::LeaseReply { lease: None, .. } => "404 Not Found".into(),
        Msg::LeaseReply { lease: Some(l), .. } => {
            let held = if l.holder.is_some() { "held" } else { "no holder" };
            format!("Lease rv {}: {held}, leaseTransitions {}", l.rv, l.transitions)
        }
        Msg::UpdateLease { rv: None, .. } => "CREATE lease (holder: me)".into(),
        Msg::UpdateLease { rv: Some(rv), lease, .. } if lease.holder.is_none() => format!("UPDATE lease rv {rv}: empty holder (release)"),
        Msg::UpdateLease { rv: Some(rv), .. } => format!("UPDATE lease rv {rv} (holder: me)"),
        Msg::UpdateReply { stored: Some(l), .. } => format!("OK, rv {}", l.rv),
        Msg::UpdateReply { stored: None, .. } => "409 Conflict (resourceVersion changed)".into(),
        _ => return None,
    })
}

/// When the takeover at `event` (the apiserver's expiry note of `holder`'s Lease) came before
/// the record's `leaseDurationSeconds` had passed since it last changed, by a taker whose own
/// LeaseDuration (in the update it sent) is shorter: the two durations.
fn own_duration(trace: &Trace, event: usize, holder: NodeId) -> Option<(i64, i64)> {
    let before = &trace.events[..event];
    let own = before.iter().rev().find_map(|e| match e.kind {
        EventKind::Received { msg: Msg::UpdateLease { lease, .. }, .. } => Some(lease.duration_ms),
        _ => None,
    })?;
    // The holder's last stored update: when its record last changed, and its duration.
    let (changed_at, record) = before.iter().rev().find_map(|e| match e.kind {
        EventKind::Sent { msg: Msg::UpdateReply { stored: Some(l), .. }, .. } if l.holder == Some(holder) => Some((e.at_ms, l.duration_ms)),
        _ => None,
    })?;
    // Taken before the record's own duration had passed (by true time, which no candidate's
    // clock runs ahead of here unless drifted): judged by the taker's shorter one.
    let at = trace.events[event].at_ms;
    (own < record && at - changed_at < record).then_some((own, record))
}

/// The captions where leader election has its own words.
fn caption(trace: &Trace, event: usize, me: &str) -> Option<String> {
    let e = trace.events.get(event)?;
    let EventKind::Note(note) = &e.kind else { return None };
    let name = |n: NodeId| trace.name(n).to_string();
    Some(match *note {
        Note::AcquireStarted { .. } => format!("{me} runs leader election: it tries for the Lease now, then every RetryPeriod (with jitter) until it leads."),
        Note::BeliefStarted { token, .. } => format!(
            "{me} is the leader ({}). It renews every RetryPeriod and believes it leads until a renew round fails for a whole RenewDeadline.",
            SPEC.token.label(token)
        ),
        Note::BeliefEnded { reason: BeliefEnd::ValidityExpired } => format!(
            "{me}'s renew round gave up: no successful renewal within RenewDeadline. {me} stops leading (OnStoppedLeading) and will not try again."
        ),
        Note::LockCommitted { client, token, .. } => format!("{me} stores {}'s update: {} now holds the Lease ({}).", name(client), name(client), SPEC.token.label(token)),
        Note::LockExpired { holder } if own_duration(trace, event, holder).is_some() => {
            let by = taken_over_by(trace, event).unwrap_or_else(|| "a candidate".into());
            let (own, record) = own_duration(trace, event, holder).unwrap_or_default();
            format!(
                "{by} takes over {}'s Lease: by {by}'s own clock the record had not changed for {by}'s own LeaseDuration ({}), though the record says {} (lock.reads_record_duration: false, kubernetes#47671). The apiserver expires nothing.",
                name(holder),
                crate::decimal::seconds(own),
                crate::decimal::seconds(record)
            )
        }
        Note::LockExpired { holder } => {
            let by = taken_over_by(trace, event).unwrap_or_else(|| "a candidate".into());
            format!(
                "{by} takes over {}'s Lease: by {by}'s own clock the record had not changed for its LeaseDuration. The apiserver expires nothing.",
                name(holder)
            )
        }
        Note::LockReleased { holder, .. } => format!("{} released the Lease (empty holder): a candidate takes it at its next try.", name(holder)),
        Note::ReleaseSent => format!("{me}'s leader election ends (ReleaseOnCancel)."),
        _ => return None,
    })
}
