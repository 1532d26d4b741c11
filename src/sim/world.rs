//! The world: virtual time, a stable event queue, nodes, their clocks and the network.
//! Nodes are written as actors: handlers receive a context and leave effects in it, which the
//! world applies. Nothing here reads a wall clock or an unseeded random source.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use super::clock::{ClockKind, NodeClocks};
use super::network::{LossReason, Network, Route};
use super::rng::{node_key, Stream};
use super::trace::{Event, EventKind, NodeInfo, Trace};
use super::{NodeId, Time};
use crate::vec_map::VecMap;

/// A node's handle on a timer it set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct TimerId(pub u64);

/// A node's behaviour. Every handler reads time only through `ctx`.
pub trait Node<M, N> {
    fn on_start(&mut self, _ctx: &mut Ctx<M, N>) {}
    fn on_message(&mut self, ctx: &mut Ctx<M, N>, from: NodeId, msg: M);
    fn on_timer(&mut self, ctx: &mut Ctx<M, N>, id: TimerId, tag: u32);
    /// The process died; keep only what survives per the node's persistence.
    fn on_crash(&mut self, _machine: bool) {}
    fn on_restart(&mut self, _ctx: &mut Ctx<M, N>) {}
}

enum Effect<M, N> {
    Send { to: NodeId, msg: M },
    SetTimer { id: TimerId, clock: ClockKind, deadline_ms: i64, tag: u32 },
    CancelTimer(TimerId),
    Note(N),
}

/// What a handler may see and do.
pub struct Ctx<'a, M, N> {
    me: NodeId,
    now: Time,
    clocks: &'a NodeClocks,
    rng: &'a mut Stream,
    next_timer: &'a mut u64,
    effects: Vec<Effect<M, N>>,
}

impl<M, N> Ctx<'_, M, N> {
    pub fn me(&self) -> NodeId {
        self.me
    }

    /// This node's wall clock, in ms.
    pub fn wall_ms(&self) -> i64 {
        self.clocks.wall.read_ms(self.now)
    }

    /// This node's monotonic clock, in ms.
    pub fn mono_ms(&self) -> i64 {
        self.clocks.mono.read_ms(self.now)
    }

    pub fn rng(&mut self) -> &mut Stream {
        self.rng
    }

    pub fn send(&mut self, to: NodeId, msg: M) {
        self.effects.push(Effect::Send { to, msg });
    }

    /// A timer `after_ms` from now on the given clock.
    pub fn set_timer(&mut self, after_ms: i64, clock: ClockKind, tag: u32) -> TimerId {
        let now_local = match clock {
            ClockKind::Wall => self.wall_ms(),
            ClockKind::Mono => self.mono_ms(),
        };
        self.set_timer_at(now_local + after_ms.max(0), clock, tag)
    }

    /// A timer that fires when the given clock reads `deadline_ms` (at once if it already does).
    pub fn set_timer_at(&mut self, deadline_ms: i64, clock: ClockKind, tag: u32) -> TimerId {
        *self.next_timer += 1;
        let id = TimerId(*self.next_timer);
        self.effects.push(Effect::SetTimer { id, clock, deadline_ms, tag });
        id
    }

    pub fn cancel_timer(&mut self, id: TimerId) {
        self.effects.push(Effect::CancelTimer(id));
    }

    /// Reports a protocol fact into the trace.
    pub fn note(&mut self, note: N) {
        self.effects.push(Effect::Note(note));
    }
}

/// A fault, as the world applies it.
#[derive(Clone, Debug)]
pub enum Fault {
    Pause { node: NodeId, duration_ms: Time },
    ClockJump { node: NodeId, by_ms: i64 },
    ClockDrift { node: NodeId, ppm: i64 },
    Crash { node: NodeId, machine: bool, restart_after_ms: Option<Time> },
    Partition { groups: Vec<Vec<NodeId>>, duration_ms: Option<Time> },
    Drop { from: NodeId, to: NodeId, duration_ms: Option<Time> },
    Delay { from: NodeId, to: NodeId, by_ms: i64, duration_ms: Time },
}

enum Item<M> {
    Start(NodeId),
    Deliver { msg_id: u64, from: NodeId, to: NodeId, msg: M },
    Timer { node: NodeId, id: TimerId },
    Fault(Fault),
    Resume(NodeId),
    Restart(NodeId),
    PartitionHealed,
}

struct PendingTimer {
    tag: u32,
    clock: ClockKind,
    deadline_ms: i64,
    due: Time,
}

/// Work that reached a paused node; handled on resume in the order it became due.
enum Backlogged<M> {
    Deliver { msg_id: u64, from: NodeId, msg: M, arrived: Time },
    Timer(TimerId),
}

/// A queued item's place in the queue, ordered by (time, sequence number) so that equal times
/// keep the order they were pushed in; the heap pops the smallest first. The item itself waits
/// in `World::items` at `slot`: the heap moves its entries on every push and pop, and an item
/// (a message with its payload) is several times the size of this key.
struct Queued {
    at: Time,
    seq: u64,
    slot: usize,
}

impl PartialEq for Queued {
    fn eq(&self, other: &Self) -> bool {
        (self.at, self.seq) == (other.at, other.seq)
    }
}
impl Eq for Queued {}
impl PartialOrd for Queued {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Queued {
    fn cmp(&self, other: &Self) -> Ordering {
        (other.at, other.seq).cmp(&(self.at, self.seq)) // reversed: BinaryHeap is a max-heap
    }
}

struct Slot<M, N> {
    node: Box<dyn Node<M, N>>,
    clocks: NodeClocks,
    rng: Stream,
    timers: VecMap<TimerId, PendingTimer>,
    paused_until: Option<Time>,
    backlog: Vec<(Time, u64, Backlogged<M>)>,
    down: bool,
}

/// The simulated cluster.
pub struct World<M, N> {
    now: Time,
    end: Time,
    max_events: usize,
    slots: Vec<Slot<M, N>>,
    info: Vec<NodeInfo>,
    queue: BinaryHeap<Queued>,
    /// The queued items, by slot; `free` lists the slots whose item has been taken.
    items: Vec<Option<Item<M>>>,
    free: Vec<usize>,
    seq: u64,
    next_msg: u64,
    next_timer: u64,
    net: Network,
    events: Vec<Event<M, N>>,
    /// Events so far, kept or not (the limit counts them all, so a lean run stops where a
    /// full one does), and the time of the last.
    counted: usize,
    last_at: Time,
    /// Whether message events (sent, received, lost) are kept: see `without_messages`.
    messages: bool,
    truncated: bool,
    spare_effects: Vec<Effect<M, N>>,
}

/// How a world is set up.
pub struct WorldConfig {
    pub seed: u64,
    pub duration_ms: Time,
    pub latency_ms: (i64, i64),
    pub drop_rate: f64,
    pub max_events: usize,
}

impl<M: Clone, N> World<M, N> {
    pub fn new(cfg: &WorldConfig, nodes: Vec<(NodeInfo, Box<dyn Node<M, N>>)>) -> Self {
        let count = nodes.len();
        let mut world = World {
            now: 0,
            end: cfg.duration_ms,
            max_events: cfg.max_events,
            slots: Vec::with_capacity(count),
            info: Vec::with_capacity(count),
            queue: BinaryHeap::new(),
            items: Vec::new(),
            free: Vec::new(),
            seq: 0,
            next_msg: 0,
            next_timer: 0,
            net: Network::new(cfg.seed, count, cfg.latency_ms, cfg.drop_rate),
            events: Vec::new(),
            counted: 0,
            last_at: 0,
            messages: true,
            truncated: false,
            spare_effects: Vec::new(),
        };
        for (i, (info, node)) in nodes.into_iter().enumerate() {
            world.info.push(info);
            world.slots.push(Slot {
                node,
                clocks: NodeClocks::exact(),
                rng: Stream::new(cfg.seed, node_key(i)),
                timers: VecMap::new(),
                paused_until: None,
                backlog: Vec::new(),
                down: false,
            });
        }
        // Faults scheduled by the caller before `run` sort ahead of starts at the same instant,
        // because they are pushed first; starts are pushed lazily in `run`.
        world
    }

    fn push(&mut self, at: Time, item: Item<M>) {
        self.seq += 1;
        let slot = match self.free.pop() {
            Some(slot) => {
                self.items[slot] = Some(item);
                slot
            }
            None => {
                self.items.push(Some(item));
                self.items.len() - 1
            }
        };
        self.queue.push(Queued { at, seq: self.seq, slot });
    }

    /// Schedules a fault at true time `at`.
    pub fn schedule_fault(&mut self, at: Time, fault: Fault) {
        self.push(at, Item::Fault(fault));
    }

    /// A run that is only judged (the explorer's) keeps no message events: the checker reads
    /// notes and crashes, and messages, with a copy of each in the trace, are most of a run's
    /// cost. Everything else, the limit included, is as in a full run.
    pub fn without_messages(mut self) -> Self {
        self.messages = false;
        self
    }

    /// Counts one event against the limit; false once the limit is reached.
    fn count(&mut self) -> bool {
        if self.counted >= self.max_events {
            self.truncated = true;
            return false;
        }
        self.counted += 1;
        self.last_at = self.now;
        true
    }

    fn record(&mut self, node: NodeId, kind: EventKind<M, N>) {
        if self.count() {
            self.events.push(Event { at_ms: self.now, node, kind });
        }
    }

    /// A message event, made (and its message copied) only if messages are kept.
    fn record_message(&mut self, node: NodeId, kind: impl FnOnce() -> EventKind<M, N>) {
        if self.messages {
            self.record(node, kind());
        } else {
            self.count();
        }
    }

    /// Runs to the end of the scenario (or the event limit) and returns the trace.
    pub fn run(mut self) -> Trace<M, N> {
        for n in 0..self.slots.len() {
            self.push(0, Item::Start(n));
        }
        while let Some(Queued { at, slot, .. }) = self.queue.pop() {
            let item = self.items[slot].take().expect("a queued item waits in its slot");
            self.free.push(slot);
            if at > self.end || self.truncated {
                break;
            }
            self.now = at;
            self.handle(item);
        }
        // A run cut at the event limit knows nothing after its last event: its trace ends there,
        // so the diagram's axis, the open bars and the scrubber stop where the knowledge does.
        let duration_ms = if self.truncated { self.last_at.max(1) } else { self.end };
        Trace { nodes: self.info, duration_ms, events: self.events, truncated: self.truncated }
    }

    fn handle(&mut self, item: Item<M>) {
        match item {
            Item::Start(n) => self.dispatch(n, |node, ctx| node.on_start(ctx)),
            Item::Deliver { msg_id, from, to, msg } => {
                let slot = &mut self.slots[to];
                if slot.down {
                    self.record_message(to, || EventKind::Lost { msg_id, from, reason: LossReason::ReceiverDown });
                } else if slot.paused_until.is_some() {
                    self.seq += 1;
                    let arrived = self.now;
                    slot.backlog.push((arrived, self.seq, Backlogged::Deliver { msg_id, from, msg, arrived }));
                } else {
                    self.deliver(to, msg_id, from, msg, self.now);
                }
            }
            Item::Timer { node, id } => {
                let slot = &mut self.slots[node];
                let Some(timer) = slot.timers.get(&id) else { return };
                if timer.due != self.now || slot.down {
                    return; // rescheduled after a clock change, or cancelled by a crash
                }
                if slot.paused_until.is_some() {
                    self.seq += 1;
                    slot.backlog.push((self.now, self.seq, Backlogged::Timer(id)));
                } else {
                    self.fire_timer(node, id);
                }
            }
            Item::Fault(fault) => self.apply_fault(fault),
            Item::Resume(n) => self.resume(n),
            Item::Restart(n) => {
                if self.slots[n].down {
                    self.slots[n].down = false;
                    self.record(n, EventKind::Restarted);
                    self.dispatch(n, |node, ctx| node.on_restart(ctx));
                }
            }
            Item::PartitionHealed => self.record(super::NO_NODE, EventKind::PartitionHealed),
        }
    }

    fn deliver(&mut self, to: NodeId, msg_id: u64, from: NodeId, msg: M, arrived_at_ms: Time) {
        self.record_message(to, || EventKind::Received { msg_id, from, msg: msg.clone(), arrived_at_ms });
        self.dispatch(to, |node, ctx| node.on_message(ctx, from, msg));
    }

    fn fire_timer(&mut self, node: NodeId, id: TimerId) {
        if let Some(timer) = self.slots[node].timers.remove(&id) {
            self.dispatch(node, |n, ctx| n.on_timer(ctx, id, timer.tag));
        }
    }

    fn resume(&mut self, n: NodeId) {
        if self.slots[n].paused_until.take().is_none() {
            return;
        }
        self.record(n, EventKind::Resumed);
        // Overdue work in the order it became due; a handler may cancel a later timer.
        let mut backlog = std::mem::take(&mut self.slots[n].backlog);
        crate::sort::by_key(&mut backlog, |(due, seq, _)| (*due, *seq));
        for (_, _, work) in backlog {
            if self.slots[n].down || self.slots[n].paused_until.is_some() {
                break;
            }
            match work {
                Backlogged::Deliver { msg_id, from, msg, arrived } => self.deliver(n, msg_id, from, msg, arrived),
                Backlogged::Timer(id) => self.fire_timer(n, id),
            }
        }
    }

    fn apply_fault(&mut self, fault: Fault) {
        let now = self.now;
        match fault {
            Fault::Pause { node, duration_ms } => {
                let slot = &mut self.slots[node];
                if slot.down || slot.paused_until.is_some() {
                    return;
                }
                slot.paused_until = Some(now + duration_ms);
                self.record(node, EventKind::Paused { until_ms: now + duration_ms });
                self.push(now + duration_ms, Item::Resume(node));
            }
            Fault::ClockJump { node, by_ms } => {
                self.slots[node].clocks.wall.jump(now, by_ms);
                self.record(node, EventKind::ClockJumped { by_ms });
                self.reschedule_timers(node);
            }
            Fault::ClockDrift { node, ppm } => {
                let clocks = &mut self.slots[node].clocks;
                clocks.wall.set_drift(now, ppm);
                clocks.mono.set_drift(now, ppm);
                self.record(node, EventKind::ClockDrift { ppm });
                self.reschedule_timers(node);
            }
            Fault::Crash { node, machine, restart_after_ms } => {
                let slot = &mut self.slots[node];
                if slot.down {
                    return;
                }
                slot.down = true;
                slot.paused_until = None;
                slot.backlog.clear();
                slot.timers.clear();
                slot.node.on_crash(machine);
                self.record(node, EventKind::Crashed { machine });
                if let Some(after) = restart_after_ms {
                    self.push(now + after, Item::Restart(node));
                }
            }
            Fault::Partition { groups, duration_ms } => {
                let until = duration_ms.map(|d| now + d);
                self.net.partition(&groups, until.unwrap_or(Time::MAX));
                self.record(super::NO_NODE, EventKind::PartitionStarted { groups, until_ms: until });
                if let Some(until) = until {
                    self.push(until, Item::PartitionHealed);
                }
            }
            Fault::Drop { from, to, duration_ms } => {
                let until = duration_ms.map(|d| now + d);
                self.net.cut(from, to, now, until.unwrap_or(Time::MAX));
                self.record(from, EventKind::LinkCut { to, until_ms: until });
            }
            Fault::Delay { from, to, by_ms, duration_ms } => {
                self.net.delay(from, to, now, now + duration_ms, by_ms);
                self.record(from, EventKind::LinkDelayed { to, by_ms, until_ms: now + duration_ms });
            }
        }
    }

    /// After a clock change, every pending timer of the node is due at a new true time.
    fn reschedule_timers(&mut self, node: NodeId) {
        let now = self.now;
        let slot = &mut self.slots[node];
        let mut moved = Vec::new();
        for (id, timer) in slot.timers.iter_mut() {
            let due = slot.clocks.get(timer.clock).true_time_of(now, timer.deadline_ms);
            if due != timer.due {
                timer.due = due;
                moved.push((due, *id));
            }
        }
        for (due, id) in moved {
            self.push(due, Item::Timer { node, id });
        }
    }

    /// Runs one handler and applies what it asked for.
    fn dispatch(&mut self, n: NodeId, f: impl FnOnce(&mut dyn Node<M, N>, &mut Ctx<M, N>)) {
        let slot = &mut self.slots[n];
        let mut ctx = Ctx {
            me: n,
            now: self.now,
            clocks: &slot.clocks,
            rng: &mut slot.rng,
            next_timer: &mut self.next_timer,
            effects: std::mem::take(&mut self.spare_effects),
        };
        f(slot.node.as_mut(), &mut ctx);
        let mut effects = ctx.effects;
        for effect in effects.drain(..) {
            self.apply_effect(n, effect);
        }
        self.spare_effects = effects; // reuse the allocation for the next handler
    }

    fn apply_effect(&mut self, n: NodeId, effect: Effect<M, N>) {
        let now = self.now;
        match effect {
            Effect::Send { to, msg } => {
                self.next_msg += 1;
                let msg_id = self.next_msg;
                match self.net.route(now, n, to) {
                    Route::Deliver(at) => {
                        self.record_message(n, || EventKind::Sent { msg_id, to, msg: msg.clone(), arrives_at_ms: Some(at), lost: None });
                        self.push(at, Item::Deliver { msg_id, from: n, to, msg });
                    }
                    Route::Lost(reason) => {
                        self.record_message(n, || EventKind::Sent { msg_id, to, msg, arrives_at_ms: None, lost: Some(reason) });
                    }
                }
            }
            Effect::SetTimer { id, clock, deadline_ms, tag } => {
                let slot = &mut self.slots[n];
                let due = slot.clocks.get(clock).true_time_of(now, deadline_ms);
                slot.timers.insert(id, PendingTimer { tag, clock, deadline_ms, due });
                self.push(due, Item::Timer { node: n, id });
            }
            Effect::CancelTimer(id) => {
                self.slots[n].timers.remove(&id);
            }
            Effect::Note(note) => self.record(n, EventKind::Note(note)),
        }
    }
}
