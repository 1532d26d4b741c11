//! A Redis server holding the lock key: `SET lock <value> NX PX <ttl>` with the INCR token taken
//! in the same script, the Lua compare-and-delete unlock (or a plain DEL), expiry by the
//! server's wall clock (a forward step expires keys at once), and what a crash keeps under each
//! persistence setting. Redlock's instances are the same server without the token counter.

use serde::{Deserialize, Serialize};

use super::{Ctx, Msg, Note};
use crate::sim::{ClockKind, Node, NodeId, TimerId};

/// What a Redis server writes to disk (SCENARIO_FORMAT.md, "Semantics", Crashes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Persistence {
    /// Nothing survives a restart.
    None,
    /// AOF, fsync once a second: a process crash keeps everything acknowledged, a machine
    /// crash loses what was written since the last fsync.
    #[default]
    AofEverysec,
    /// AOF, fsync before every reply: everything survives.
    AofAlways,
}

const EXPIRY: u32 = 1;
const FSYNC: u32 = 2;
const FSYNC_EVERY_MS: i64 = 1000;

/// The lock key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Key {
    value: u64,
    owner: NodeId,
    /// Absolute wall-clock deadline: AOF records it this way, so a restart keeps it.
    expires_wall_ms: i64,
}

/// Everything the server stores: the lock key and the token counter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Data {
    key: Option<Key>,
    counter: u64,
}

pub struct RedisServer {
    persistence: Persistence,
    issues_tokens: bool,
    data: Data,
    /// What the last fsync put on disk (aof-everysec).
    synced: Data,
    expiry: Option<TimerId>,
    lost_in_crash: Option<u64>,
}

impl RedisServer {
    pub fn new(persistence: Persistence, issues_tokens: bool) -> Self {
        RedisServer { persistence, issues_tokens, data: Data::default(), synced: Data::default(), expiry: None, lost_in_crash: None }
    }

    fn arm_expiry(&mut self, ctx: &mut Ctx) {
        if let Some(t) = self.expiry.take() {
            ctx.cancel_timer(t);
        }
        if let Some(key) = self.data.key {
            self.expiry = Some(ctx.set_timer_at(key.expires_wall_ms, ClockKind::Wall, EXPIRY));
        }
    }

    /// Removes the key if the server's wall clock has passed its deadline (lazy expiry).
    fn expire_if_due(&mut self, ctx: &mut Ctx) {
        if let Some(key) = self.data.key {
            if ctx.wall_ms() >= key.expires_wall_ms {
                self.data.key = None;
                ctx.note(Note::LockExpired { holder: key.owner });
            }
        }
    }

    fn wrote(&mut self) {
        if self.persistence == Persistence::AofAlways {
            self.synced = self.data;
        }
    }
}

impl Node<Msg, Note> for RedisServer {
    fn on_start(&mut self, ctx: &mut Ctx) {
        if self.persistence == Persistence::AofEverysec {
            ctx.set_timer(FSYNC_EVERY_MS, ClockKind::Mono, FSYNC);
        }
    }

    fn on_message(&mut self, ctx: &mut Ctx, from: NodeId, msg: Msg) {
        self.expire_if_due(ctx);
        match msg {
            Msg::Acquire { req, attempt, value, ttl_ms } => {
                if let Some(key) = self.data.key {
                    ctx.note(Note::LockBusy { client: from, holder: key.owner });
                    ctx.send(from, Msg::AcquireReply { req, granted: false, token: None });
                    return;
                }
                let expires_wall_ms = ctx.wall_ms() + ttl_ms;
                self.data.key = Some(Key { value, owner: from, expires_wall_ms });
                let token = self.issues_tokens.then(|| {
                    self.data.counter += 1;
                    self.data.counter
                });
                self.wrote();
                self.arm_expiry(ctx);
                ctx.note(Note::LockCommitted { client: from, attempt, token, expires_wall_ms });
                ctx.send(from, Msg::AcquireReply { req, granted: true, token });
            }
            Msg::Release { req, value, safe, .. } => {
                let holder = self.data.key.map(|k| k.owner);
                let matches = self.data.key.is_some_and(|k| k.value == value);
                let released = holder.is_some() && (matches || !safe);
                if let (true, Some(holder)) = (released, holder) {
                    self.data.key = None;
                    self.wrote();
                    ctx.note(Note::LockReleased { holder, by: from });
                } else {
                    ctx.note(Note::UnlockRefused { by: from, holder });
                }
                ctx.send(from, Msg::ReleaseReply { req, released });
            }
            _ => {}
        }
    }

    fn on_timer(&mut self, ctx: &mut Ctx, id: TimerId, tag: u32) {
        match tag {
            EXPIRY if self.expiry == Some(id) => {
                self.expiry = None;
                self.expire_if_due(ctx);
                if self.data.key.is_some() {
                    self.arm_expiry(ctx); // the wall clock was stepped back meanwhile
                }
            }
            FSYNC => {
                self.synced = self.data;
                ctx.set_timer(FSYNC_EVERY_MS, ClockKind::Mono, FSYNC);
            }
            _ => {}
        }
    }

    fn on_crash(&mut self, machine: bool) {
        self.expiry = None;
        let kept = match self.persistence {
            Persistence::None => Data::default(),
            Persistence::AofEverysec if machine => self.synced,
            Persistence::AofEverysec | Persistence::AofAlways => self.data,
        };
        self.lost_in_crash = (kept != self.data).then_some(self.data.counter);
        self.data = kept;
        self.synced = kept;
    }

    fn on_restart(&mut self, ctx: &mut Ctx) {
        if let Some(counter) = self.lost_in_crash.take() {
            ctx.note(Note::StateLost { token_counter_was: counter });
        }
        // Expiry keeps "flowing" while the server is down: a key past its deadline goes at once.
        self.arm_expiry(ctx);
        self.on_start(ctx);
    }
}
