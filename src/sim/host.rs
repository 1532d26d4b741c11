//! A node as two values, the way turmoil crashes a host: what its persistence keeps (the
//! `Durable` value) and what its process holds in memory (the `Process` value). A crash drops
//! the process; a restart boots a new one from the node's config and what the persistence kept.
//! No crash code lists fields: a field added to a process is gone after a crash because the
//! whole process is, and the world can only run nodes built this way (`Host`).

use super::world::{Ctx, Node, TimerId};
use super::NodeId;

/// What a node's persistence keeps. A crash changes it only as the persistence itself would:
/// by default not at all (everything was fsynced when written).
pub trait Durable {
    /// The process died; `machine`: the machine went down with it.
    fn crash(&mut self, _machine: bool) {}
}

/// A node that keeps nothing through a crash.
impl Durable for () {}

/// What one process of a node holds in memory, and its handlers. Each handler gets the node's
/// durable state beside the process: what it writes there outlives the process.
pub trait Process: Sized {
    type Msg;
    type Note;
    /// What the node is built with; every process it runs boots from the same.
    type Config;
    /// What its persistence keeps through a crash.
    type Durable: Durable;

    /// The persistence of a node that has never run.
    fn fresh(config: &Self::Config) -> Self::Durable;

    /// A process as it starts: from the config and what the persistence kept. `incarnation`
    /// numbers the node's processes: 0 for the one the run starts, one more after each restart
    /// (what a real node would get from its process id).
    fn boot(config: &Self::Config, durable: &Self::Durable, incarnation: u32) -> Self;

    fn on_start(&mut self, _durable: &mut Self::Durable, _ctx: &mut Ctx<Self::Msg, Self::Note>) {}
    fn on_message(&mut self, durable: &mut Self::Durable, ctx: &mut Ctx<Self::Msg, Self::Note>, from: NodeId, msg: Self::Msg);
    fn on_timer(&mut self, durable: &mut Self::Durable, ctx: &mut Ctx<Self::Msg, Self::Note>, id: TimerId, tag: u32);

    /// The first handler of a process booted after a crash (instead of `on_start`). `dead` is
    /// the process that crashed, for what the trace tells about the crash (what it was doing,
    /// what it lost) and nothing else: the new process knows only what `boot` gave it.
    fn on_restart(&mut self, _durable: &mut Self::Durable, _ctx: &mut Ctx<Self::Msg, Self::Note>, _dead: &Self) {}

    /// What the machine's operating system answers for the node without running its process:
    /// a TCP keepalive probe is acknowledged by the kernel whether the process runs, is paused
    /// or has died (then with a reset: the connection is gone). `process`: the current process,
    /// None while it is dead. None: the message is the process's own. A machine that is down
    /// answers nothing (the world asks only a machine that is up).
    fn kernel(_process: Option<&Self>, _msg: &Self::Msg) -> Option<Self::Msg> {
        None
    }

    /// What the kernel sends when this process dies and its machine stays up: a FIN on each
    /// connection the process had open, so its peers learn at once (a machine that goes down
    /// sends nothing).
    fn on_death(&self) -> Vec<(NodeId, Self::Msg)> {
        Vec::new()
    }
}

/// A node: its config, its persistence and its current process. The world crashes and restarts
/// it through `Node`; nothing else of it survives a crash.
pub struct Host<P: Process> {
    config: P::Config,
    durable: P::Durable,
    process: P,
    incarnation: u32,
    /// The process has crashed and not restarted (`process` is the dead one).
    dead: bool,
}

impl<P: Process> Host<P> {
    /// A node that has never run, its first process booted.
    pub fn from_config(config: P::Config) -> Self {
        let durable = P::fresh(&config);
        let process = P::boot(&config, &durable, 0);
        Host { config, durable, process, incarnation: 0, dead: false }
    }

    /// The current process (a crashed node's is the dead one until its restart).
    pub fn process(&self) -> &P {
        &self.process
    }

    pub fn durable(&self) -> &P::Durable {
        &self.durable
    }
}

impl<P: Process> Node<P::Msg, P::Note> for Host<P> {
    fn on_start(&mut self, ctx: &mut Ctx<P::Msg, P::Note>) {
        self.process.on_start(&mut self.durable, ctx)
    }

    fn on_message(&mut self, ctx: &mut Ctx<P::Msg, P::Note>, from: NodeId, msg: P::Msg) {
        self.process.on_message(&mut self.durable, ctx, from, msg)
    }

    fn on_timer(&mut self, ctx: &mut Ctx<P::Msg, P::Note>, id: TimerId, tag: u32) {
        self.process.on_timer(&mut self.durable, ctx, id, tag)
    }

    /// The dead process stays where it was, unreachable (the world hands a down node nothing),
    /// until the restart replaces it.
    fn crash(&mut self, machine: bool) -> Vec<(NodeId, P::Msg)> {
        self.dead = true;
        self.durable.crash(machine);
        if machine {
            Vec::new()
        } else {
            self.process.on_death()
        }
    }

    fn kernel(&self, msg: &P::Msg) -> Option<P::Msg> {
        P::kernel((!self.dead).then_some(&self.process), msg)
    }

    fn restart(&mut self, ctx: &mut Ctx<P::Msg, P::Note>) {
        self.incarnation += 1;
        self.dead = false;
        let dead = std::mem::replace(&mut self.process, P::boot(&self.config, &self.durable, self.incarnation));
        self.process.on_restart(&mut self.durable, ctx, &dead);
    }
}

impl<P: Process> super::world::sealed::Hosted for Host<P> {}
