//! The database lease row `locks(name, owner, token, expires_at)`, docs/PROTOCOLS.md P1. Acquire is
//! the guarded upsert; expiry is evaluated lazily against the server's `now()`; a takeover
//! increments the token. The safe release sets `expires_at = now()` guarded by the token; the
//! plain one is `DELETE FROM locks WHERE name = $n` (docs/SCENARIO_FORMAT.md, `lock.safe_unlock`),
//! which removes the row whoever holds it, so the next grant inserts a fresh row with token 1.
//! The database is durable: a crash keeps the row.

use super::single_server::SingleServerAgent;
use super::spec::{Deadline, common_captions, BeliefWords, Build, ConfigRules, Holding, LeaseKind, Spec, TablePlan, TokenKind, Words, Workload};
use super::{Ctx, Msg, Note};
use crate::decimal::seconds;
use crate::sim::{ClockKind, Durable, Host, NodeId, Process, TimerId};

#[derive(Clone, Copy, Debug)]
struct Row {
    owner: NodeId,
    token: u64,
    expires_wall_ms: i64,
}

/// What the database keeps: the `locks` row (committed before the reply, so a crash keeps it).
#[derive(Default)]
pub struct Table {
    row: Option<Row>,
}

impl Durable for Table {}

impl Table {
    fn live(&self, now_wall: i64) -> Option<Row> {
        self.row.filter(|r| r.expires_wall_ms >= now_wall)
    }
}

/// The database server's process.
pub struct DbServer {
    /// Not a database feature: a marker so the trace shows when the row's lease ran out by
    /// the server's clock. The row itself is only ever judged lazily, as Postgres does.
    expiry_marker: Option<TimerId>,
}

impl DbServer {
    fn cancel_marker(&mut self, ctx: &mut Ctx) {
        if let Some(t) = self.expiry_marker.take() {
            ctx.cancel_timer(t);
        }
    }

    fn mark_expiry(&mut self, table: &Table, ctx: &mut Ctx) {
        self.cancel_marker(ctx);
        if let Some(row) = table.row {
            // `expires_at < now()` turns true one millisecond after the deadline.
            self.expiry_marker = Some(ctx.set_timer_at(row.expires_wall_ms + 1, ClockKind::Wall, 0));
        }
    }
}

impl Process for DbServer {
    type Msg = Msg;
    type Note = Note;
    type Config = ();
    type Durable = Table;

    fn fresh(_: &()) -> Table {
        Table::default()
    }

    fn boot(_: &(), _: &Table, _: u32) -> Self {
        DbServer { expiry_marker: None }
    }

    fn on_message(&mut self, table: &mut Table, ctx: &mut Ctx, from: NodeId, msg: Msg) {
        let now = ctx.wall_ms();
        match msg {
            Msg::Acquire { req, attempt, ttl_ms, .. } => {
                // INSERT … ON CONFLICT (name) DO UPDATE … WHERE locks.expires_at < now()
                if let Some(row) = table.live(now) {
                    ctx.note(Note::LockBusy { client: from, holder: row.owner });
                    ctx.send(from, Msg::AcquireReply { req, granted: false, token: None });
                    return;
                }
                let token = table.row.map_or(1, |r| r.token + 1);
                let expires_wall_ms = now + ttl_ms;
                table.row = Some(Row { owner: from, token, expires_wall_ms });
                self.mark_expiry(table, ctx);
                ctx.note(Note::LockCommitted { client: from, attempt, token: Some(token), expires_wall_ms: Some(expires_wall_ms) });
                ctx.send(from, Msg::AcquireReply { req, granted: true, token: Some(token) });
            }
            Msg::Release { req, token, safe: true, .. } => {
                // UPDATE locks SET expires_at = now() WHERE name = $n AND token = $tok
                let target = table.live(now).filter(|r| Some(r.token) == token);
                match target {
                    Some(row) => {
                        table.row = Some(Row { expires_wall_ms: now, ..row });
                        self.cancel_marker(ctx); // released, not expired
                        ctx.note(Note::LockReleased { holder: row.owner, by: from });
                    }
                    None => ctx.note(Note::UnlockRefused { by: from, holder: table.live(now).map(|r| r.owner) }),
                }
                ctx.send(from, Msg::ReleaseReply { req, released: target.is_some() });
            }
            Msg::Release { req, safe: false, .. } => {
                // DELETE FROM locks WHERE name = $n: live or expired, whoever's it is.
                let deleted = table.row.take();
                match deleted {
                    Some(row) => {
                        self.cancel_marker(ctx);
                        if row.expires_wall_ms >= now {
                            ctx.note(Note::LockReleased { holder: row.owner, by: from });
                        }
                        ctx.note(Note::RowDeleted { owner: row.owner, by: from, token_was: row.token });
                    }
                    None => ctx.note(Note::UnlockRefused { by: from, holder: None }),
                }
                ctx.send(from, Msg::ReleaseReply { req, released: deleted.is_some() });
            }
            _ => {}
        }
    }

    fn on_timer(&mut self, table: &mut Table, ctx: &mut Ctx, id: TimerId, _tag: u32) {
        if self.expiry_marker != Some(id) {
            return;
        }
        self.expiry_marker = None;
        match table.row {
            Some(row) if ctx.wall_ms() > row.expires_wall_ms => ctx.note(Note::LockExpired { holder: row.owner }),
            Some(_) => self.mark_expiry(table, ctx), // the clock was stepped back
            None => {}
        }
    }
}

/// The database lease row in the registry (see `registry`).
pub const SPEC: Spec = Spec {
    id: "db-lease",
    label: "Database lease row",
    short: "Database lease",
    nodes: |_, _| vec!["db".into()],
    default_servers: None,
    holding: Holding::One,
    lease: LeaseKind::FixedTtl,
    granted_ttl: |l| l.ttl_ms,
    grant_rule: None,
    token: TokenKind::Counter,
    safe_unlock: true,
    persistence: false,
    replica: false,
    drift_factor: false,
    expiry_clock: ClockKind::Wall,
    deadline: Deadline::Passed,
    config: ConfigRules::PLAIN,
    workload: Workload::UnderLock,
    words: Words {
        lease: "lease row",
        ttl: "lease TTL",
        expired: "TTL expired",
        keepalive: "",
        roles: ["primary", "replica"],
        message: words,
        got: "gets the lock",
        caption: common_captions,
        belief: BeliefWords::LOCK,
    },
    table: TablePlan {
        label_suffix: ", released by a plain DELETE",
        lock: |l| l.safe_unlock = false,
        ..TablePlan::claims("releasing by DELETE restarts the token at 1: the next holder is handed 1 again")
    },
    replica_table: None,
    build: Build {
        agent: |p| {
            let (server, ttl, timeout, safe) = (p.servers[0], p.lock.ttl_ms, p.lock.request_timeout_ms, p.lock.safe_unlock);
            Box::new(move |inc| Box::new(SingleServerAgent::new(inc, server, ttl, timeout, safe)))
        },
        server: |_, _| Box::new(Host::<DbServer>::from_config(())),
    },
};

/// The SQL a message stands for, shortened: a label in flight sits beside its dot.
fn words(msg: &Msg) -> Option<String> {
    Some(match msg {
        Msg::Acquire { ttl_ms, value, .. } => {
            format!("upsert lease row, expires now()+{} (owner {:04x})", seconds(*ttl_ms), value & 0xffff)
        }
        Msg::AcquireReply { granted: true, token, .. } => format!("row returned, {}", SPEC.token.label(*token)),
        Msg::AcquireReply { granted: false, .. } => "no row: busy".into(),
        Msg::Release { safe: true, .. } => "release: expire row if token matches".into(),
        Msg::Release { safe: false, .. } => "release: DELETE row, any owner".into(),
        _ => return None,
    })
}
