//! Plain-language captions for trace events, written for a student watching the diagram. An
//! event's own facts (who sent what, who paused until when) are read off the event; anything
//! more (why a release found nothing, why a write is stale, whether a holder knows) comes from
//! the event's `Cause` in the run's `Story`.

use super::{Belief, Cause, Gone, StaleWhy, Story, Whereabouts, WriteCause};
use crate::decimal::seconds;
use crate::protocols::spec::TokenKind;
use crate::protocols::spec::{Holding, LeaseKind, Workload};
use crate::protocols::words::message_label;
use crate::protocols::{AcquireFailure, BeliefEnd, ClientPhase, EventKind, Note, Trace};
use crate::scenario::Approach;
use crate::sim::{ClockKind, LossReason, NodeId, Role};

/// The least size a caption's words are set in, in CSS px, however little room its box has:
/// a caption that does not fit at it scrolls (styles/app.css floors every `--fit` size with
/// `max(12px, …)`; ui/fit.rs).
pub const CAPTION_MIN_PX: f64 = 12.0;

/// What a caption needs to know about the run besides the event.
struct Ctx<'a> {
    trace: &'a Trace,
    approach: Approach,
    story: &'a Story,
    event: usize,
}

impl Ctx<'_> {
    fn name(&self, n: NodeId) -> String {
        self.trace.nodes.get(n).map_or_else(String::new, |i| i.name.clone())
    }

    fn tok(&self, t: Option<u64>) -> String {
        self.approach.token_label(t)
    }

    fn cause(&self) -> Option<&Cause> {
        self.story.cause(self.event)
    }

    /// The events before this one in its millisecond, latest first.
    fn same_ms_before(&self) -> impl Iterator<Item = &crate::protocols::Event> {
        let at = self.trace.events[self.event].at_ms;
        self.trace.events[..self.event].iter().rev().take_while(move |x| x.at_ms == at)
    }

    /// Whether `node` woke from a pause earlier in this millisecond: what it does now was
    /// queued while it was paused.
    fn just_woke(&self, node: NodeId) -> bool {
        self.same_ms_before().any(|x| x.node == node && matches!(x.kind, EventKind::Resumed))
    }

    /// The write `node` sent earlier in this millisecond, just after waking (queued in its pause).
    fn queued_write(&self, node: NodeId) -> Option<u32> {
        self.just_woke(node)
            .then(|| {
                self.same_ms_before().find_map(|x| match x.kind {
                    EventKind::Note(Note::WriteSent { n, .. }) if x.node == node => Some(n),
                    _ => None,
                })
            })
            .flatten()
    }
}

/// The caption for trace event `event` of a run whose story is `story`.
pub fn caption(trace: &Trace, approach: Approach, story: &Story, event: usize) -> String {
    let Some(e) = trace.events.get(event) else { return String::new() };
    let c = Ctx { trace, approach, story, event };
    let me = c.name(e.node);
    let spec = approach.spec();
    if let Some(own) = (spec.words.caption)(trace, event, &me) {
        // An approach's own words for a lease's end still say where its holder is.
        return match e.kind {
            EventKind::Note(Note::LockExpired { .. }) => own + &lease_ended_whereabouts(&c),
            _ => own,
        };
    }
    match &e.kind {
        EventKind::Sent { to, msg, lost: None, .. } => format!("{me} → {}: {}", c.name(*to), message_label(approach, msg)),
        EventKind::Sent { to, msg, lost: Some(reason), .. } => {
            format!("{me} → {}: {} — lost ({})", c.name(*to), message_label(approach, msg), loss(*reason))
        }
        EventKind::Received { from, msg, arrived_at_ms, .. } if *arrived_at_ms < e.at_ms => format!(
            "{me} finally handles {}'s \"{}\", which arrived at {} while it was paused.",
            c.name(*from),
            message_label(approach, msg),
            seconds(*arrived_at_ms)
        ),
        EventKind::Received { from, msg, .. } => format!("{me} receives {}'s \"{}\".", c.name(*from), message_label(approach, msg)),
        EventKind::Lost { from, .. } => format!("A message from {} reached {me} while it was down and was lost.", c.name(*from)),
        // Not how long: where the pause ends is what a class is asked to predict (the
        // band's label gives its length once it is over).
        EventKind::Paused { .. } => {
            format!("{me} freezes (a stop-the-world GC pause or VM stall). It does not notice: to {me}, no time passes.")
        }
        EventKind::Resumed => match c.cause() {
            // A read-modify-write has no lock and no lock service: what it carries on with is
            // the version it read.
            Some(Cause::Woke { believes: true, .. }) if spec.workload == Workload::ReadModifyWrite => format!(
                "{me} wakes up and goes on with the version it read: nothing tells it whether anyone has written since. Overdue timers and queued messages are handled now, in order."
            ),
            Some(Cause::Woke { believes: true, service_holds: false }) => format!(
                "{me} wakes up still believing it holds the lock, but the lock service no longer holds it for {me}. {me} does not know: overdue timers and queued messages are handled now, in order."
            ),
            Some(Cause::Woke { believes: true, service_holds: true }) => {
                format!("{me} wakes up; the lock service still holds its lock. Overdue timers and queued messages are handled now, in order.")
            }
            _ => format!("{me} wakes up. Overdue timers and queued messages are handled now, in order."),
        },
        EventKind::ClockJumped { by_ms } => {
            let dir = if *by_ms >= 0 { "ahead" } else { "back" };
            let step = format!("{me}'s wall clock jumped {} {dir} (an NTP step). True time did not move", seconds(by_ms.abs()));
            let role = trace.nodes.get(e.node).map(|n| n.role);
            if role == Some(Role::LockServer) && spec.expiry_clock == ClockKind::Wall {
                format!("{step}; whatever {me} expires by its wall clock now expires {}.", if *by_ms >= 0 { "early" } else { "late" })
            } else {
                format!("{step}, and {me} times nothing that matters here by its wall clock, so nothing changes for it.")
            }
        }
        EventKind::ClockDrift { ppm } => format!("{me}'s clock now runs {} by {} ppm.", if *ppm >= 0 { "fast" } else { "slow" }, ppm.abs()),
        EventKind::Crashed { machine: true } => format!("{me}'s machine loses power: the process dies and whatever was not yet on disk is gone."),
        EventKind::Crashed { machine: false } => format!("{me} crashes (kill -9). Whatever reached the OS survives; messages in flight to it are lost."),
        EventKind::Restarted if trace.nodes.get(e.node).is_some_and(|n| n.role == Role::Client) => format!("{me} restarts."),
        EventKind::Restarted => format!("{me} restarts with what its persistence kept."),
        EventKind::PartitionStarted { groups, .. } => {
            let sides: Vec<String> = groups.iter().map(|g| g.iter().map(|&n| c.name(n)).collect::<Vec<_>>().join(", ")).collect();
            format!("The network partitions: {{{}}} can no longer talk to the rest.", sides.join("} | {"))
        }
        EventKind::PartitionHealed => "The partition heals; every node can talk again.".into(),
        EventKind::LinkCut { to, .. } => format!("Messages from {me} to {} are now dropped.", c.name(*to)),
        EventKind::LinkDelayed { to, by_ms, .. } => format!("Messages from {me} to {} are now delayed by an extra {}.", c.name(*to), seconds(*by_ms)),
        EventKind::Note(note) => note_caption(&c, &me, note),
    }
}

fn loss(reason: LossReason) -> &'static str {
    match reason {
        LossReason::RandomLoss => "random packet loss",
        LossReason::LinkCut => "this link is cut",
        LossReason::Partitioned => "the network is partitioned",
        LossReason::ReceiverDown => "the receiver is down",
    }
}

/// " A is paused and does not know: it still believes it holds the lock." and the like.
fn whereabouts(c: &Ctx, w: &Whereabouts) -> String {
    let who = c.name(w.node);
    let read_modify_write = c.approach.spec().workload == Workload::ReadModifyWrite;
    match (w.down, w.belief, w.paused) {
        (true, _, _) => format!(" {who} is down."),
        (false, Belief::Holds, true) if read_modify_write => {
            format!(" {who} is paused and does not know: it still goes on with the version it read.")
        }
        (false, Belief::Holds, false) if read_modify_write => {
            format!(" {who} does not know yet: it still goes on with the version it read.")
        }
        (false, Belief::Holds, true) => format!(" {who} is paused and does not know: it still believes it holds the lock."),
        (false, Belief::Holds, false) => format!(" {who} does not know yet: it still believes it holds the lock."),
        (false, Belief::Stopped, _) => format!(" {who} had already stopped believing it holds it."),
        (false, Belief::NeverHeld, true) => format!(" {who} is paused; it had not got the lock."),
        (false, Belief::NeverHeld, false) => format!(" {who} had not got the lock."),
    }
}

/// How a server came to have nothing of `client`'s: "its key had already expired".
fn gone_words(c: &Ctx, server: &str, client: &str, gone: Gone) -> String {
    let lease = c.approach.spec().words.lease;
    match gone {
        Gone::Expired { clock_stepped: false, .. } => format!("{client}'s {lease} had already expired"),
        Gone::Expired { clock_stepped: true, .. } => format!("{client}'s {lease} had expired early, after {server}'s clock was stepped"),
        Gone::RemovedBy { by, .. } => format!("{}'s plain unlock had already deleted {client}'s {lease}", c.name(by)),
        Gone::LostInRestart { .. } => format!("{server} lost {client}'s {lease} when it restarted"),
        Gone::Demoted { .. } => format!("{server} dropped {client}'s {lease} when it became a replica"),
        Gone::Released { .. } => format!("{client} had already released it"),
        Gone::NeverHeld => format!("{server} never held {client}'s {lease}"),
    }
}

/// Why a stale write is stale: "A's key expired at redis while A was paused; B got the lock
/// at 10.129 s".
fn stale_words(c: &Ctx, writer: &str, newer: &str, why: &StaleWhy) -> String {
    let lease = c.approach.spec().words.lease;
    let got = format!("{newer} got the lock at {}", seconds(why.newer_granted_at));
    let from = c.name(why.newer_granted_by);
    let paused = if why.writer_paused { format!(" while {writer} was paused") } else { String::new() };
    match why.lost {
        _ if why.ungranted => format!("the service never granted {writer} the lock it believed it held; {got}"),
        // The server expires nothing (a Lease, a DynamoDB lock item): the newer holder judged
        // the lease over by its own clock.
        Some((_, Gone::Expired { .. })) if judged_by_candidates(c.approach.spec()) => {
            format!("{newer} judged {writer}'s {lease} over{paused}; {got}")
        }
        // An ensemble's session ends at its leader, whichever server that is: no name needed.
        Some((_, Gone::Expired { clock_stepped: false, .. })) if c.approach.spec().holding == Holding::Replicated => {
            format!("{writer}'s {lease} expired{paused}; {got}")
        }
        Some((server, Gone::Expired { clock_stepped, .. })) => format!(
            "{writer}'s {lease} expired at {}{paused}{}; {got}",
            c.name(server),
            if clock_stepped { " (early: its clock was stepped)" } else { "" }
        ),
        Some((server, Gone::RemovedBy { by, .. })) => {
            format!("{}'s plain unlock deleted {writer}'s {lease} at {}{paused}; {got}", c.name(by), c.name(server))
        }
        Some((server, Gone::LostInRestart { .. })) => format!("{} restarted without {writer}'s {lease}{paused}; {got}", c.name(server)),
        Some((server, Gone::Demoted { .. })) => {
            format!("{} dropped {writer}'s {lease} when it became a replica{paused}; {got}", c.name(server))
        }
        Some((_, Gone::Released { .. })) => format!("{writer} had released the lock; {got}"),
        Some((_, Gone::NeverHeld)) | None => {
            format!("{from}, which never held {writer}'s {lease}, gave {newer} the lock at {}", seconds(why.newer_granted_at))
        }
    }
}

fn write_caption(c: &Ctx, client: NodeId, token: Option<u64>, accepted: bool, highest_before: Option<u64>) -> String {
    let who = c.name(client);
    let tok = c.tok(token);
    let fencing = c.story.fencing;
    match c.cause() {
        Some(Cause::Write(WriteCause::Stale { accepted: true, newer, newer_token, why })) => {
            let newer = c.name(*newer);
            let guard = match (token, newer_token) {
                (None, _) => " It carries no token to check.".to_string(),
                // Short: on a compared stage the caption's three lines at 28 px hold ~215 characters.
                _ if !fencing => " Fencing is off.".to_string(),
                (Some(a), Some(b)) if a == *b => format!(" Fencing cannot tell them apart: both carry {tok}, handed out twice."),
                _ => format!(" Fencing lets it through: {tok} is higher than {}, because the token went back.", c.tok(*newer_token)),
            };
            format!(
                "Storage accepts {who}'s STALE write ({tok}): {}. {newer}'s earlier write ({}) is lost.{guard}",
                stale_words(c, &who, &newer, why),
                c.tok(*newer_token)
            )
        }
        Some(Cause::Write(WriteCause::Stale { accepted: false, newer, why, .. })) => format!(
            "Storage rejects {who}'s stale write: {tok} is lower than the {} it has already accepted ({}). Fencing stopped a stale write.",
            c.tok(highest_before),
            stale_words(c, &who, &c.name(*newer), why)
        ),
        Some(Cause::Write(WriteCause::HolderBlocked { highest, rightful })) => format!(
            "Storage rejects {who}'s write: {tok} is lower than the {} it accepted from an earlier holder. {who}'s write was not stale: the token went back, so fencing blocked {}.",
            c.tok(*highest),
            if *rightful { "the rightful holder" } else { "it" }
        ),
        Some(Cause::Write(WriteCause::AfterTakeover { by })) => format!(
            "Storage accepts {who}'s write ({tok}), though {} has taken the lock since. {} has not written yet, so nothing is lost so far, and highest-token-seen fencing cannot catch it.",
            c.name(*by),
            c.name(*by)
        ),
        _ if !accepted => format!("Storage rejects {who}'s write ({tok})."),
        _ if token.is_none() => format!("Storage accepts {who}'s write; it carries no fencing token."),
        _ => format!("Storage accepts {who}'s write ({tok})."),
    }
}

/// A note's caption: one arm per note, so a new note does not compile until it has words;
/// the longer ones are worded by the helpers below.
fn note_caption(c: &Ctx, me: &str, note: &Note) -> String {
    let spec = c.approach.spec();
    let words = &spec.words;
    let lease = words.lease;
    let name = |n: NodeId| c.name(n);
    match note {
        Note::AcquireStarted { attempt: 1 } => format!("{me} asks {} for the lock.", service(c)),
        Note::AcquireStarted { attempt } => format!("{me} tries again for the lock (attempt {attempt})."),
        Note::AcquireFailed { reason, retry_in_ms, .. } => acquire_failed(c, me, reason, *retry_in_ms),
        Note::BeliefStarted { token, validity_ms, .. } => belief_started(c, me, *token, *validity_ms),
        Note::BeliefEnded { reason } => {
            let node = c.trace.events[c.event].node;
            match c.queued_write(node) {
                Some(n) => format!("{} Too late for write #{n}: queued in the pause, it has already left.", belief_ended(c, me, *reason)),
                None => belief_ended(c, me, *reason),
            }
        }
        Note::WriteSent { n, token } if c.just_woke(c.trace.events[c.event].node) => format!(
            "{me} sends write #{n} to storage ({}), queued while it was paused: it has not re-checked the lock, it just believes it holds it.",
            c.tok(*token)
        ),
        Note::WriteSent { n, token } => {
            format!("{me} sends write #{n} to storage ({}): it has not re-checked the lock, it just believes it holds it.", c.tok(*token))
        }
        Note::WriteTimedOut { n } => format!("{me} got no reply to write #{n} in time and moves on."),
        Note::ReleaseSent => format!("{me} sends its release to {}.", service(c)),
        Note::Finished => format!("{me} is finished with the lock."),
        Note::LockCommitted { client, token, .. } => lock_committed(c, me, *client, *token),
        Note::LockBusy { client, holder } => format!("{me} refuses {}: the lock is held by {}.", name(*client), name(*holder)),
        Note::LockExpired { holder } => lock_expired(c, me, *holder),
        Note::LockReleased { holder, by } if holder == by => format!("{me} released {}'s lock.", name(*holder)),
        Note::LockReleased { holder, by } => {
            format!("{} deleted {}'s lock! A plain unlock does not check whose lock it removes.", name(*by), name(*holder))
        }
        Note::UnlockRefused { by, holder: Some(h) } => format!("{me} left the lock alone: it belongs to {}, not {}.", name(*h), name(*by)),
        Note::UnlockRefused { by, holder: None } => match c.cause() {
            Some(Cause::NothingToRelease { gone, .. }) => {
                format!("{}'s release found nothing to release at {me}: {}.", name(*by), gone_words(c, me, &name(*by), *gone))
            }
            _ => format!("{}'s release found nothing to release at {me}.", name(*by)),
        },
        Note::StartedOver { incarnation, predecessor } => started_over(c, me, *incarnation, *predecessor),
        Note::Disconnected { .. } => {
            let believing = match c.cause() {
                Some(Cause::Suspended { believes: true }) => "keeps believing, and reconnects",
                _ => "and reconnects to find out",
            };
            format!("{me} notices its connection was closed (Disconnected, SUSPENDED): it cannot tell whether its {lease} still lives, {believing}.")
        }
        Note::Reconnected { .. } => format!("{me} reconnected: its {lease} is still alive."),
        Note::RowDeleted { owner, by, token_was } => format!(
            "{}'s plain release deleted {} lease row (token {token_was}): the token column goes with it, so the next grant inserts a fresh row with token 1.",
            name(*by),
            if owner == by { "its own".to_string() } else { format!("{}'s", name(*owner)) }
        ),
        Note::LeaderElected { epoch } => {
            format!("{me} is now the leader (epoch {epoch}). Sessions and leases get a fresh full timeout from it.")
        }
        Note::SteppedDown { .. } => format!("{me} is no longer the leader: it lost touch with a majority, or heard of a newer epoch."),
        Note::SessionOpened { client, ttl_ms, .. } => format!(
            "{}'s {lease} is open ({} {}); {} every third of it keep it alive.",
            name(*client),
            words.ttl,
            seconds(*ttl_ms),
            words.keepalive
        ),
        Note::SessionExpired { client, .. } => format!(
            "The leader has not heard from {} for a whole timeout and expires its {lease}: its lock node is deleted and watchers are told.{}",
            name(*client),
            lease_ended_whereabouts(c)
        ),
        Note::LockQueued { client, token } => format!("{}'s lock node joins the queue ({}).", name(*client), c.tok(Some(*token))),
        Note::Promoted { epoch } => format!(
            "{me} has not heard from its primary for 1 s and promotes itself (epoch {epoch}). It only has what had been replicated to it."
        ),
        Note::Demoted { primary, .. } => {
            format!("{me} hears from the new primary {} and becomes its replica, dropping its own state.", name(*primary))
        }
        Note::StateLost { .. } if spec.token == TokenKind::None => format!("{me} came back empty: the lock {lease} it held is gone."),
        Note::StateLost { token_counter_was } => format!(
            "{me} came back empty: the lock and the token counter (was {token_counter_was}) are gone, so tokens start again from 1."
        ),
        Note::WriteApplied { client, token, accepted, highest_before, .. } => write_caption(c, *client, *token, *accepted, *highest_before),
        Note::RestartDelayed { for_ms } => format!(
            "{me} is back but serves nothing for {} (a delayed restart): it answers no request until then, and only then hands out what it forgot.",
            seconds(*for_ms)
        ),
        Note::FixedLease { lease_ms } => format!(
            "{me} asks for the lock with an explicit leaseTime of {}: Redisson starts no watchdog for it, so the {lease} expires {} after it is set, whatever {me} is doing.",
            seconds(*lease_ms),
            seconds(*lease_ms)
        ),
        Note::LockExtended { holder, expires_wall_ms } => {
            format!("{me} extends {}'s {lease}: it now expires when {me}'s clock reads {}.", name(*holder), seconds(*expires_wall_ms))
        }
        Note::VersionRead { client, version, .. } => format!("{me} answers {}'s read: {}.", name(*client), c.tok(Some(*version))),
    }
}

/// "the leader", "redis", "a majority of the instances": whom a client asks for the lock.
fn service(c: &Ctx) -> String {
    let servers: Vec<&str> = c.trace.nodes.iter().filter(|n| n.role == Role::LockServer).map(|n| n.name.as_str()).collect();
    c.approach.spec().service_phrase(&servers)
}

/// " A is paused and does not know…": where the holder of a lease that just ended was.
fn lease_ended_whereabouts(c: &Ctx) -> String {
    match c.cause() {
        Some(Cause::LeaseEnded { holder, .. }) => whereabouts(c, holder),
        _ => String::new(),
    }
}

fn acquire_failed(c: &Ctx, me: &str, reason: &AcquireFailure, retry_in_ms: i64) -> String {
    let retry = seconds(retry_in_ms);
    match reason {
        AcquireFailure::Busy => format!("{me} did not get the lock: someone else holds it. It retries in {retry}."),
        AcquireFailure::Timeout => format!("{me} got no answer in time and retries in {retry}."),
        AcquireFailure::SessionExpired => {
            format!("{me}'s {} expired while it waited in the queue; it starts over in {retry}.", c.approach.spec().words.lease)
        }
        AcquireFailure::NoQuorum { granted, needed } => {
            format!("Only {granted} instance(s) said OK; {me} needs {needed}. It unlocks every instance and retries in {retry}.")
        }
        AcquireFailure::ValidityExhausted { validity_ms } => {
            let got = if c.approach.spec().holding == Holding::Majority { "a majority" } else { "the lock" };
            format!(
                "{me} got {got}, but its answer came so late that no validity was left ({}). It gives the lock back and retries in {retry}.",
                seconds(*validity_ms)
            )
        }
    }
}

fn belief_started(c: &Ctx, me: &str, token: Option<u64>, validity_ms: Option<i64>) -> String {
    let how = match c.cause() {
        Some(Cause::Majority { instances, of }) => format!(": {instances} of {of} instances said OK, a majority"),
        _ => format!(" ({})", c.tok(token)),
    };
    match validity_ms {
        Some(v) => format!("{me} now holds the lock{how}, and believes it for the next {} by its own clock.", seconds(v)),
        None => format!(
            "{me} now holds the lock{how}, and will believe it until the ensemble tells it its {} is gone.",
            c.approach.spec().words.lease
        ),
    }
}

fn belief_ended(c: &Ctx, me: &str, reason: BeliefEnd) -> String {
    match reason {
        BeliefEnd::SessionExpired => {
            format!("{me} hears back that its {} expired: only now does it know it lost the lock.", c.approach.spec().words.lease)
        }
        BeliefEnd::ValidityExpired => {
            format!("{me}'s own timer says its lease has run out: it stops believing it holds the lock and gives it back.")
        }
        BeliefEnd::Released => format!("{me} is done writing and releases the lock."),
        BeliefEnd::WriteRejected => match c.cause() {
            Some(Cause::Rejected { rightful: true }) => {
                format!("Storage rejected {me}'s write, so {me} stops and gives the lock back: it cannot tell that it still held it.")
            }
            _ => format!("Storage rejected {me}'s write: only now does {me} learn it lost the lock."),
        },
    }
}

fn lock_committed(c: &Ctx, me: &str, client: NodeId, token: Option<u64>) -> String {
    let believers = match c.cause() {
        Some(Cause::Granted { believers, .. }) if !believers.is_empty() => {
            let names: Vec<String> = believers.iter().map(|&b| c.name(b)).collect();
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            let verb = if names.len() == 1 { "believes" } else { "believe" };
            format!(" {} still {verb} it holds the lock.", crate::timeline::draw::words::and_list(&names))
        }
        _ => String::new(),
    };
    let spec = c.approach.spec();
    if spec.holding == Holding::Majority {
        let servers = c.trace.nodes.iter().filter(|n| n.role == Role::LockServer).count();
        // The count the lanes show (the instances that already hold it, this one included),
        // not "one instance of 5" while two more lanes read "lock: B".
        let holding = match c.cause() {
            Some(Cause::Granted { holding, .. }) => *holding,
            _ => 1,
        };
        let verb = if holding == 1 { "holds" } else { "hold" };
        format!("{me} sets {}'s lock {}: {holding} of {servers} instances now {verb} it.{believers}", c.name(client), spec.words.lease)
    } else {
        format!("{me} grants the lock to {} ({}).{believers}", c.name(client), c.tok(token))
    }
}

/// Whether a lease's end is judged by each candidate on its own clock, not by the server that
/// stores it: Kubernetes's Lease (docs/PROTOCOLS.md P8), whose token is the count of those takeovers.
fn judged_by_candidates(spec: &crate::protocols::spec::Spec) -> bool {
    spec.deadline == crate::protocols::spec::Deadline::Waiters
}

fn lock_expired(c: &Ctx, me: &str, holder: NodeId) -> String {
    let spec = c.approach.spec();
    let lease = spec.words.lease;
    let holder = c.name(holder);
    let whereabouts = lease_ended_whereabouts(c);
    let stepped = matches!(c.cause(), Some(Cause::LeaseEnded { clock_stepped: true, .. }));
    if spec.lease == LeaseKind::KeptAlive && spec.holding == Holding::Replicated {
        format!("{holder}'s lock node is gone with its {lease}: the lock is free for the next in line.{whereabouts}")
    } else if stepped {
        format!("{holder}'s {lease} expired at {me} early: {me}'s wall clock was stepped ahead since it was set.{whereabouts}")
    } else {
        format!("{holder}'s {lease} expired at {me} (by {me}'s clock).{whereabouts}")
    }
}

fn started_over(c: &Ctx, me: &str, incarnation: u32, predecessor: ClientPhase) -> String {
    let lease = c.approach.spec().words.lease;
    let left = match predecessor {
        ClientPhase::Holding => format!(
            " Its old process held the lock: its {lease} stays at the lock service until it expires, and until then blocks the others, the new {me} included."
        ),
        ClientPhase::Releasing => {
            format!(" Its old process was giving the lock back: if that release did not get through, its {lease} stays at the lock service until it expires.")
        }
        ClientPhase::Acquiring => {
            " Its old process was asking for the lock: whatever it was granted stays at the lock service until it expires.".to_string()
        }
        ClientPhase::Waiting | ClientPhase::Done => String::new(),
    };
    format!("{me} is back as a new process (restart {incarnation}): it remembers nothing and starts its job over.{left}")
}

/// The caption of the current moment, for tests and the CLI: every event of `trace` captioned.
pub fn all(trace: &Trace, approach: Approach, story: &Story) -> Vec<String> {
    (0..trace.events.len()).map(|i| caption(trace, approach, story, i)).collect()
}
