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

/// A node as the world runs it. Every handler reads time only through `ctx`. Only a
/// `host::Host` is one: a node is written as a `host::Process`, so how it crashes is the same
/// for every kind of node.
pub trait Node<M, N>: sealed::Hosted {
    fn on_start(&mut self, ctx: &mut Ctx<M, N>);
    fn on_message(&mut self, ctx: &mut Ctx<M, N>, from: NodeId, msg: M);
    fn on_timer(&mut self, ctx: &mut Ctx<M, N>, id: TimerId, tag: u32);
    /// The process died (`machine`: the machine with it). Returns what its kernel sends for
    /// it (`Process::on_death`; nothing when the machine went down).
    fn crash(&mut self, machine: bool) -> Vec<(NodeId, M)>;
    /// What the node's kernel answers to `msg` without its process (`Process::kernel`).
    fn kernel(&self, msg: &M) -> Option<M>;
    /// A new process boots and runs its first handler.
    fn restart(&mut self, ctx: &mut Ctx<M, N>);
}

pub(super) mod sealed {
    /// Implemented by `host::Host` only.
    pub trait Hosted {}
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
    Deliver {
        msg_id: u64,
        from: NodeId,
        msg: M,
        arrived: Time,
    },
    Timer(TimerId),
    /// The node was paused before the run started it.
    Start,
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
    /// The machine went down with the process: its kernel answers nothing either.
    machine_down: bool,
}

/// The simulated cluster.
pub struct World<M, N> {
    now: Time,
    end: Time,
    max_events: usize,
    slots: Vec<Slot<M, N>>,
    info: Vec<NodeInfo>,
    /// Whether the nodes' starts are queued (by the first step).
    started: bool,
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
    /// A world of `nodes`, whose names must differ: a node's random stream and those of its
    /// links are keyed by its name (`rng::node_key`), so two nodes of one name would draw alike.
    pub fn new(cfg: &WorldConfig, nodes: Vec<(NodeInfo, Box<dyn Node<M, N>>)>) -> Self {
        let (info, nodes): (Vec<NodeInfo>, Vec<_>) = nodes.into_iter().unzip();
        let names: Vec<String> = info.iter().map(|i| i.name.clone()).collect();
        assert!(
            names.iter().enumerate().all(|(i, n)| !names[..i].contains(n)),
            "node names must differ (a random stream is keyed by its node's name)"
        );
        let slots = nodes
            .into_iter()
            .zip(&names)
            .map(|(node, name)| Slot {
                node,
                clocks: NodeClocks::exact(),
                rng: Stream::new(cfg.seed, node_key(name)),
                timers: VecMap::new(),
                paused_until: None,
                backlog: Vec::new(),
                down: false,
                machine_down: false,
            })
            .collect();
        // Faults scheduled by the caller before the first step sort ahead of starts at the same
        // instant, because they are pushed first; starts are pushed by the first step (`start`).
        World {
            now: 0,
            end: cfg.duration_ms,
            max_events: cfg.max_events,
            slots,
            info,
            started: false,
            queue: BinaryHeap::new(),
            items: Vec::new(),
            free: Vec::new(),
            seq: 0,
            next_msg: 0,
            next_timer: 0,
            net: Network::new(cfg.seed, names, cfg.latency_ms, cfg.drop_rate),
            events: Vec::new(),
            counted: 0,
            last_at: 0,
            messages: true,
            truncated: false,
            spare_effects: Vec::new(),
        }
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

    /// Handles the next queued item (a start, a delivery, a timer, a fault...), which may
    /// record any number of events, and returns its true time; `None` once the run is over:
    /// nothing is left at or before the end, or the event limit was reached. The run is the
    /// same however it is stepped: `run` and `run_until` are this, repeated.
    pub fn step(&mut self) -> Option<Time> {
        let at = self.next_at()?;
        let Queued { slot, .. } = self.queue.pop().expect("next_at saw it");
        let item = self.items[slot].take().expect("a queued item waits in its slot");
        self.free.push(slot);
        self.now = at;
        self.handle(item);
        Some(at)
    }

    /// Steps through every item due at or before true time `t` (or until the run is over).
    pub fn run_until(&mut self, t: Time) {
        while self.next_at().is_some_and(|at| at <= t) {
            self.step();
        }
    }

    /// Runs to the end of the scenario (or the event limit) and returns the trace.
    pub fn run(mut self) -> Trace<M, N> {
        self.run_until(self.end);
        // A run cut at the event limit knows nothing after its last event: its trace ends there,
        // so the diagram's axis, the open bars and the scrubber stop where the knowledge does.
        let duration_ms = if self.truncated { self.last_at.max(1) } else { self.end };
        Trace { nodes: self.info, duration_ms, events: self.events, truncated: self.truncated }
    }

    /// The true time of the item the next step handles, if the run goes on.
    fn next_at(&mut self) -> Option<Time> {
        self.start();
        let at = self.queue.peek()?.at;
        (at <= self.end && !self.truncated).then_some(at)
    }

    /// Queues every node's start at time 0, once.
    fn start(&mut self) {
        if !std::mem::replace(&mut self.started, true) {
            for n in 0..self.slots.len() {
                self.push(0, Item::Start(n));
            }
        }
    }

    fn handle(&mut self, item: Item<M>) {
        match item {
            // A node crashed before it started starts on restart (`restart`); one paused
            // before it started starts when it resumes.
            Item::Start(n) if self.slots[n].down => {}
            Item::Start(n) if self.slots[n].paused_until.is_some() => {
                self.seq += 1;
                let seq = self.seq;
                self.slots[n].backlog.push((self.now, seq, Backlogged::Start));
            }
            Item::Start(n) => self.dispatch(n, |node, ctx| node.on_start(ctx)),
            Item::Deliver { msg_id, from, to, msg } => {
                let slot = &mut self.slots[to];
                // The kernel answers what is its own (a TCP keepalive probe) whatever the
                // process is doing, paused or dead, as long as the machine is up.
                if let Some(answer) = (!slot.machine_down).then(|| slot.node.kernel(&msg)).flatten() {
                    let arrived_at_ms = self.now;
                    self.record_message(to, || EventKind::Received { msg_id, from, msg, arrived_at_ms });
                    self.apply_effect(to, Effect::Send { to: from, msg: answer });
                } else if slot.down {
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
                    self.slots[n].machine_down = false;
                    self.record(n, EventKind::Restarted);
                    self.dispatch(n, |node, ctx| node.restart(ctx));
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
                Backlogged::Start => self.dispatch(n, |node, ctx| node.on_start(ctx)),
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
                slot.machine_down = machine;
                slot.paused_until = None;
                // Messages that arrived while it was paused and were never handled die with it.
                let unhandled = std::mem::take(&mut slot.backlog);
                slot.timers.clear();
                let last_words = slot.node.crash(machine);
                self.record(node, EventKind::Crashed { machine });
                for (to, msg) in last_words {
                    self.apply_effect(node, Effect::Send { to, msg });
                }
                for (_, _, work) in unhandled {
                    if let Backlogged::Deliver { msg_id, from, .. } = work {
                        self.record(node, EventKind::Lost { msg_id, from, reason: LossReason::ReceiverDown });
                    }
                }
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

#[cfg(test)]
mod tests {
    //! The engine on its own, with probe nodes whose behaviour each test scripts: queue order,
    //! pauses, crashes, partitions and cuts, clock jumps and drift.

    use super::*;
    use crate::sim::{EventKind, Role};

    type Script = Box<dyn FnMut(&mut Ctx<u32, String>, Input)>;

    #[derive(Debug)]
    enum Input {
        Start,
        Msg(NodeId, u32),
        Timer(u32),
        Restart,
    }

    /// A scripted process; the script is its config, so every process of the node runs it.
    struct Probe(std::rc::Rc<std::cell::RefCell<Script>>);

    impl Probe {
        fn run(&self, ctx: &mut Ctx<u32, String>, input: Input) {
            (self.0.borrow_mut())(ctx, input)
        }
    }

    impl crate::sim::Process for Probe {
        type Msg = u32;
        type Note = String;
        type Config = std::rc::Rc<std::cell::RefCell<Script>>;
        type Durable = ();
        fn fresh(_: &Self::Config) {}
        fn boot(script: &Self::Config, _: &(), _: u32) -> Self {
            Probe(script.clone())
        }
        fn on_start(&mut self, _: &mut (), ctx: &mut Ctx<u32, String>) {
            self.run(ctx, Input::Start)
        }
        fn on_message(&mut self, _: &mut (), ctx: &mut Ctx<u32, String>, from: NodeId, msg: u32) {
            self.run(ctx, Input::Msg(from, msg))
        }
        fn on_timer(&mut self, _: &mut (), ctx: &mut Ctx<u32, String>, _id: TimerId, tag: u32) {
            self.run(ctx, Input::Timer(tag))
        }
        fn on_restart(&mut self, _: &mut (), ctx: &mut Ctx<u32, String>, _dead: &Self) {
            self.run(ctx, Input::Restart)
        }
        /// Message `KERNEL` is the kernel's: answered 1 for a live process (paused or not),
        /// 2 for a dead one.
        fn kernel(process: Option<&Self>, msg: &u32) -> Option<u32> {
            (*msg == KERNEL).then_some(if process.is_some() { 1 } else { 2 })
        }
    }

    const KERNEL: u32 = 1_000_000;

    /// A world of probes with a fixed one-way latency.
    fn world(latency: i64, scripts: Vec<Script>) -> World<u32, String> {
        let cfg = WorldConfig { seed: 1, duration_ms: 10_000, latency_ms: (latency, latency), drop_rate: 0.0, max_events: 10_000 };
        named_world(&cfg, scripts.into_iter().enumerate().map(|(i, s)| (format!("n{i}"), s)).collect())
    }

    /// A world of probes with the given names.
    fn named_world(cfg: &WorldConfig, scripts: Vec<(String, Script)>) -> World<u32, String> {
        let nodes = scripts
            .into_iter()
            .map(|(name, s)| {
                (
                    NodeInfo { name, role: Role::Client },
                    Box::new(crate::sim::Host::<Probe>::from_config(std::rc::Rc::new(std::cell::RefCell::new(s))))
                        as Box<dyn Node<u32, String>>,
                )
            })
            .collect();
        World::new(cfg, nodes)
    }

    /// Every handled input noted as "<what>@<true time>".
    fn recorder() -> Script {
        Box::new(|ctx, input| {
            let what = match input {
                Input::Start => return,
                Input::Msg(_, m) => format!("msg{m}"),
                Input::Timer(t) => format!("timer{t}"),
                Input::Restart => "restart".into(),
            };
            ctx.note(format!("{what}@{}", ctx.now));
        })
    }

    fn notes(trace: &Trace<u32, String>, node: NodeId) -> Vec<String> {
        notes_in(&trace.events, node)
    }

    fn notes_in(events: &[Event<u32, String>], node: NodeId) -> Vec<String> {
        events
            .iter()
            .filter(|e| e.node == node)
            .filter_map(|e| if let EventKind::Note(n) = &e.kind { Some(n.clone()) } else { None })
            .collect()
    }

    #[test]
    fn equal_times_keep_the_order_things_were_scheduled_in() {
        let sender: Script = Box::new(|ctx, input| {
            if let Input::Start = input {
                for m in [3, 1, 2] {
                    ctx.send(1, m);
                }
            }
        });
        let t = world(5, vec![sender, recorder()]).run();
        assert_eq!(notes(&t, 1), ["msg3@5", "msg1@5", "msg2@5"]);
        let timers: Script = Box::new(|ctx, input| match input {
            Input::Start => {
                for tag in [9, 7, 8] {
                    ctx.set_timer(5, ClockKind::Mono, tag);
                }
            }
            Input::Timer(t) => ctx.note(format!("timer{t}")),
            _ => {}
        });
        assert_eq!(notes(&world(0, vec![timers]).run(), 0), ["timer9", "timer7", "timer8"]);
    }

    #[test]
    fn a_paused_node_handles_its_backlog_on_resume_in_the_order_it_became_due() {
        let node0: Script = Box::new(|ctx, input| match input {
            Input::Start => {
                ctx.set_timer(50, ClockKind::Mono, 50);
                ctx.set_timer(20, ClockKind::Mono, 20);
            }
            other => ctx.note(format!("{other:?}@{}", ctx.now)),
        });
        let node1: Script = Box::new(|ctx, input| {
            if let Input::Start = input {
                ctx.set_timer(25, ClockKind::Mono, 1);
            } else {
                ctx.send(0, 30); // sent at 25, arrives at 30
            }
        });
        let mut w = world(5, vec![node0, node1]);
        w.schedule_fault(10, Fault::Pause { node: 0, duration_ms: 100 });
        let t = w.run();
        assert_eq!(notes(&t, 0), ["Timer(20)@110", "Msg(1, 30)@110", "Timer(50)@110"]);
        // Nothing of node 0's between its pause and its resume; the message kept its arrival.
        let paused = t.events.iter().position(|e| matches!(e.kind, EventKind::Paused { until_ms: 110 })).unwrap();
        let resumed = t.events.iter().position(|e| e.node == 0 && matches!(e.kind, EventKind::Resumed)).unwrap();
        assert!(t.events[paused + 1..resumed].iter().all(|e| e.node != 0));
        assert!(t.events.iter().any(|e| matches!(e.kind, EventKind::Received { arrived_at_ms: 30, .. } if e.at_ms == 110)));
    }

    #[test]
    fn the_kernel_answers_its_own_messages_for_a_paused_or_dead_process_but_not_for_a_machine_that_is_down() {
        let asker: Script = Box::new(|ctx, input| match input {
            Input::Start => {
                for at in [20, 60, 100] {
                    ctx.set_timer(at, ClockKind::Mono, at as u32);
                }
            }
            Input::Timer(_) => ctx.send(1, KERNEL),
            Input::Msg(_, m) => ctx.note(format!("{m}@{}", ctx.now)),
            Input::Restart => {}
        });
        let mut w = world(5, vec![asker, recorder()]);
        w.schedule_fault(10, Fault::Pause { node: 1, duration_ms: 30 });
        w.schedule_fault(50, Fault::Crash { node: 1, machine: false, restart_after_ms: Some(20) });
        w.schedule_fault(90, Fault::Crash { node: 1, machine: true, restart_after_ms: None });
        let t = w.run();
        // Paused: the kernel acks (+1) at once; the process dead, its machine up: a reset (+2);
        // the machine down: nothing comes back.
        assert_eq!(notes(&t, 0), ["1@30", "2@70"]);
        // The process itself saw none of them: it noted only its restart.
        assert_eq!(notes(&t, 1), ["restart@70"]);
        assert!(t.events.iter().any(|e| e.node == 1 && matches!(e.kind, EventKind::Lost { reason: LossReason::ReceiverDown, .. })));
    }

    #[test]
    fn a_crash_loses_messages_in_flight_to_the_node_and_its_timers_but_not_what_it_sent() {
        let node0: Script = Box::new(|ctx, input| match input {
            Input::Start => {
                ctx.send(1, 1); // arrives at 10
                ctx.set_timer(30, ClockKind::Mono, 30);
            }
            Input::Restart => ctx.note("restart".into()),
            Input::Timer(t) => ctx.note(format!("timer{t}")),
            Input::Msg(_, m) => ctx.note(format!("msg{m}")),
        });
        let mut w = world(10, vec![node0, recorder()]);
        w.schedule_fault(5, Fault::Crash { node: 0, machine: false, restart_after_ms: Some(50) });
        w.schedule_fault(5, Fault::Crash { node: 1, machine: false, restart_after_ms: None });
        let t = w.run();
        // Node 0's message, sent before it crashed, still arrives, at a crashed node 1: lost.
        assert!(t.events.iter().any(|e| e.node == 1 && matches!(e.kind, EventKind::Lost { reason: LossReason::ReceiverDown, .. })));
        assert_eq!(notes(&t, 1), Vec::<String>::new());
        // Node 0's timer died with it; on restart it runs again from `on_restart` only.
        assert_eq!(notes(&t, 0), ["restart"]);
    }

    #[test]
    fn partitions_and_cuts_are_decided_when_a_message_is_sent() {
        let pinger: Script = Box::new(|ctx, input| match input {
            Input::Start => {
                for at in [5, 15, 30, 45] {
                    ctx.set_timer(at, ClockKind::Mono, at as u32);
                }
            }
            Input::Timer(t) => {
                ctx.send(1, t);
                ctx.send(2, t);
            }
            _ => {}
        });
        let echo: Script = Box::new(|ctx, input| {
            if let Input::Msg(from, m) = input {
                ctx.note(format!("msg{m}@{}", ctx.now));
                ctx.send(from, m);
            }
        });
        let mut w = world(10, vec![pinger, echo, recorder()]);
        // Node 1 alone from 10 to 30; node 0 → node 2 cut from 40 on (one way).
        w.schedule_fault(10, Fault::Partition { groups: vec![vec![1]], duration_ms: Some(20) });
        w.schedule_fault(40, Fault::Drop { from: 0, to: 2, duration_ms: None });
        let t = w.run();
        // Sent at 5 (before the partition) arrives at 15 inside it; sent at 15 is lost; at 30 healed.
        assert_eq!(notes(&t, 1), ["msg5@15", "msg30@40", "msg45@55"]);
        assert_eq!(notes(&t, 2), ["msg5@15", "msg15@25", "msg30@40"]);
        let lost: Vec<(NodeId, LossReason)> = t
            .events
            .iter()
            .filter_map(|e| if let EventKind::Sent { to, lost: Some(r), .. } = e.kind { Some((to, r)) } else { None })
            .collect();
        // The echo of msg5 at 15 could not leave node 1 either.
        assert_eq!(lost, [(1, LossReason::Partitioned), (0, LossReason::Partitioned), (2, LossReason::LinkCut)]);
        // Node 1's echoes sent outside the partition (of msg30 and msg45) got home.
        assert_eq!(t.events.iter().filter(|e| e.node == 0 && matches!(e.kind, EventKind::Received { .. })).count(), 2);
    }

    #[test]
    fn a_delay_window_adds_to_the_latency_of_what_is_sent_in_it() {
        let pinger: Script = Box::new(|ctx, input| match input {
            Input::Start => {
                ctx.set_timer(5, ClockKind::Mono, 5);
                ctx.set_timer(25, ClockKind::Mono, 25);
            }
            Input::Timer(t) => ctx.send(1, t),
            _ => {}
        });
        let mut w = world(3, vec![pinger, recorder()]);
        w.schedule_fault(0, Fault::Delay { from: 0, to: 1, by_ms: 100, duration_ms: 20 });
        assert_eq!(notes(&w.run(), 1), ["msg25@28", "msg5@108"], "sent at 5 in the window, at 25 after it");
    }

    #[test]
    fn clock_jumps_move_wall_timers_and_drift_moves_both() {
        let timers: Script = Box::new(|ctx, input| match input {
            Input::Start => {
                ctx.set_timer_at(1000, ClockKind::Wall, 1);
                ctx.set_timer_at(1000, ClockKind::Mono, 2);
            }
            Input::Timer(t) => ctx.note(format!("{t}@{} wall {} mono {}", ctx.now, ctx.wall_ms(), ctx.mono_ms())),
            _ => {}
        });
        let mut w = world(1, vec![timers]);
        w.schedule_fault(100, Fault::ClockJump { node: 0, by_ms: 500 });
        assert_eq!(notes(&w.run(), 0), ["1@500 wall 1000 mono 500", "2@1000 wall 1500 mono 1000"]);

        let drifting: Script = Box::new(|ctx, input| match input {
            Input::Start => {
                ctx.set_timer_at(1100, ClockKind::Wall, 1);
                ctx.set_timer_at(1100, ClockKind::Mono, 2);
            }
            Input::Timer(t) => ctx.note(format!("{t}@{}", ctx.now)),
            _ => {}
        });
        let mut w = world(1, vec![drifting]);
        w.schedule_fault(0, Fault::ClockDrift { node: 0, ppm: 100_000 }); // 10 % fast
        assert_eq!(notes(&w.run(), 0), ["1@1000", "2@1000"]);
        // A backward step delays a wall timer: it fires when the clock reads its deadline again.
        let late: Script = Box::new(|ctx, input| match input {
            Input::Start => {
                ctx.set_timer_at(300, ClockKind::Wall, 1);
            }
            Input::Timer(_) => ctx.note(format!("@{}", ctx.now)),
            _ => {}
        });
        let mut w = world(1, vec![late]);
        w.schedule_fault(200, Fault::ClockJump { node: 0, by_ms: -150 });
        assert_eq!(notes(&w.run(), 0), ["@450"]);
    }

    #[test]
    fn a_node_crashed_before_the_start_starts_on_restart_and_a_paused_one_on_resume() {
        let starter = || -> Script {
            Box::new(|ctx, input| match input {
                Input::Start => ctx.note(format!("start@{}", ctx.now)),
                Input::Restart => ctx.note(format!("restart@{}", ctx.now)),
                _ => {}
            })
        };
        let mut w = world(1, vec![starter(), starter()]);
        w.schedule_fault(0, Fault::Crash { node: 0, machine: false, restart_after_ms: Some(40) });
        w.schedule_fault(0, Fault::Pause { node: 1, duration_ms: 30 });
        let t = w.run();
        assert_eq!(notes(&t, 0), ["restart@40"]);
        assert_eq!(notes(&t, 1), ["start@30"]);
    }

    #[test]
    fn a_step_handles_one_item_in_time_order_and_run_until_stops_at_its_time() {
        let pinger: Script = Box::new(|ctx, input| match input {
            Input::Start => {
                for at in [5, 15, 30] {
                    ctx.set_timer(at, ClockKind::Mono, at as u32);
                }
            }
            Input::Timer(t) => ctx.send(1, t),
            _ => {}
        });
        let mut w = world(10, vec![pinger, recorder()]);
        w.schedule_fault(20, Fault::Pause { node: 1, duration_ms: 5 });
        w.run_until(15);
        // Both starts at 0, the timer at 5, its message's arrival at 15, the timer at 15.
        assert_eq!(notes_in(&w.events, 1), ["msg5@15"]);
        let mut times = Vec::new();
        while let Some(at) = w.step() {
            times.push(at);
        }
        // The pause at 20, the arrival at 25 (paused: backlogged), the resume at 25, the timer
        // at 30 and its arrival at 40; nothing after the end, however often it is asked.
        assert_eq!(times, [20, 25, 25, 30, 40]);
        assert_eq!(w.step(), None);
        let t = w.run();
        assert_eq!(notes(&t, 1), ["msg5@15", "msg15@25", "msg30@40"]);
    }

    /// Each node notes three draws of its own stream at its start, then pings every other
    /// node at 10, 20, ..., 100 over lossy links of random latency, with a cut and a delay
    /// between the first node and the last.
    fn chatty(names: &[&str]) -> Trace<u32, String> {
        let cfg = WorldConfig { seed: 7, duration_ms: 1_000, latency_ms: (1, 60), drop_rate: 0.3, max_events: 10_000 };
        let count = names.len();
        let scripts = names
            .iter()
            .map(|name| {
                let script: Script = Box::new(move |ctx, input| match input {
                    Input::Start => {
                        let draws: Vec<u64> = (0..3).map(|_| ctx.rng().next_u64()).collect();
                        ctx.note(format!("draws {draws:?}"));
                        for at in (10..=100).step_by(10) {
                            ctx.set_timer(at, ClockKind::Mono, at as u32);
                        }
                    }
                    Input::Timer(t) => {
                        let me = ctx.me();
                        for to in (0..count).filter(|&to| to != me) {
                            ctx.send(to, t);
                        }
                    }
                    _ => {}
                });
                (name.to_string(), script)
            })
            .collect();
        let mut w = named_world(&cfg, scripts);
        let (first, last) = (0, count - 1);
        w.schedule_fault(35, Fault::Drop { from: first, to: last, duration_ms: Some(30) });
        w.schedule_fault(50, Fault::Delay { from: last, to: first, by_ms: 200, duration_ms: 30 });
        w.run()
    }

    /// What the network decided for every message on the link `from → to`, in sending order:
    /// (sent at, arrives at or why lost).
    fn link(t: &Trace<u32, String>, from: &str, to: &str) -> Vec<(Time, Result<Time, LossReason>)> {
        let (from, to) = (t.node_id(from).unwrap(), t.node_id(to).unwrap());
        t.events
            .iter()
            .filter(|e| e.node == from)
            .filter_map(|e| match e.kind {
                EventKind::Sent { to: dest, arrives_at_ms, lost, .. } if dest == to => {
                    Some((e.at_ms, arrives_at_ms.ok_or_else(|| lost.expect("a message not delivered was lost"))))
                }
                _ => None,
            })
            .collect()
    }

    #[test]
    fn removing_a_node_leaves_every_other_nodes_and_links_draws_alone() {
        let three = chatty(&["a", "b", "c"]);
        let two = chatty(&["a", "c"]);
        for name in ["a", "c"] {
            let node = |t: &Trace<u32, String>| notes(t, t.node_id(name).unwrap());
            assert_eq!(node(&two), node(&three), "node {name}'s own draws");
        }
        for (from, to) in [("a", "c"), ("c", "a")] {
            let on_link = link(&three, from, to);
            assert_eq!(on_link.len(), 10);
            // The draws decide something here: latencies differ, some messages are lost.
            assert!(on_link.iter().any(|(_, r)| *r == Err(LossReason::RandomLoss)), "{on_link:?}");
            assert_eq!(link(&two, from, to), on_link, "link {from} → {to}");
        }
        // Renaming a node is a different node: its draws change.
        let renamed = chatty(&["a", "b", "d"]);
        assert_ne!(notes(&renamed, 2), notes(&three, 2));
    }
}
