//! A crash forgets by construction (`sim::host`): a node is its config, what its persistence
//! keeps and a process; a crash drops the process and a restart boots a new one. A node kind
//! written here, with no crash code of its own, loses every field of its process — including
//! one added "later" — and keeps its durable state.

use locklab::sim::{ClockKind, Ctx, Durable, EventKind, Fault, Host, Node, NodeId, NodeInfo, Process, Role, TimerId, World, WorldConfig};

/// What the counter's persistence keeps: every message it counted.
#[derive(Default)]
struct Kept {
    total: u32,
}

impl Durable for Kept {}

/// The counter's process: a count since it started, and a field a later change added.
struct Counter {
    since_boot: u32,
    added_later: Vec<u32>,
}

impl Process for Counter {
    type Msg = u32;
    type Note = String;
    type Config = ();
    type Durable = Kept;

    fn fresh(_: &()) -> Kept {
        Kept::default()
    }

    fn boot(_: &(), _: &Kept, _: u32) -> Self {
        Counter { since_boot: 0, added_later: Vec::new() }
    }

    fn on_message(&mut self, kept: &mut Kept, _: &mut Ctx<u32, String>, _: NodeId, msg: u32) {
        self.since_boot += 1;
        self.added_later.push(msg);
        kept.total += 1;
    }

    fn on_timer(&mut self, _: &mut Kept, _: &mut Ctx<u32, String>, _: TimerId, _: u32) {}

    fn on_restart(&mut self, kept: &mut Kept, ctx: &mut Ctx<u32, String>, dead: &Self) {
        ctx.note(format!(
            "dead {} {:?}; new {} {:?}; kept {}",
            dead.since_boot, dead.added_later, self.since_boot, self.added_later, kept.total
        ));
    }
}

/// Sends 1, 2, 3 to node 1 at 10, 20, 30 ms.
struct Sender;

impl Process for Sender {
    type Msg = u32;
    type Note = String;
    type Config = ();
    type Durable = ();

    fn fresh(_: &()) {}

    fn boot(_: &(), _: &(), _: u32) -> Self {
        Sender
    }

    fn on_start(&mut self, _: &mut (), ctx: &mut Ctx<u32, String>) {
        for at in [10, 20, 30] {
            ctx.set_timer(at, ClockKind::Mono, at as u32 / 10);
        }
    }

    fn on_message(&mut self, _: &mut (), _: &mut Ctx<u32, String>, _: NodeId, _: u32) {}

    fn on_timer(&mut self, _: &mut (), ctx: &mut Ctx<u32, String>, _: TimerId, tag: u32) {
        ctx.send(1, tag);
    }
}

#[test]
fn a_field_added_to_a_process_is_gone_after_a_crash_and_the_durable_state_is_kept() {
    let cfg = WorldConfig { seed: 1, duration_ms: 1000, latency_ms: (1, 1), drop_rate: 0.0, max_events: 1000 };
    let info = |name: &str| NodeInfo { name: name.into(), role: Role::Client };
    let nodes: Vec<(NodeInfo, Box<dyn Node<u32, String>>)> =
        vec![(info("sender"), Box::new(Host::<Sender>::from_config(()))), (info("counter"), Box::new(Host::<Counter>::from_config(())))];
    let mut world = World::new(&cfg, nodes);
    world.schedule_fault(25, Fault::Crash { node: 1, machine: false, restart_after_ms: Some(1) });
    let trace = world.run();
    let notes: Vec<&String> = trace.events.iter().filter_map(|e| if let EventKind::Note(n) = &e.kind { Some(n) } else { None }).collect();
    assert_eq!(notes, ["dead 2 [1, 2]; new 0 []; kept 2"]);
}
