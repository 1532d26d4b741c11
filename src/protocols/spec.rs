//! The shape of an approach's description (`Spec`) and the types it is made of. The table
//! of every approach is `registry`; each approach writes its own `SPEC` in its protocol file.

use super::client::AgentFactory;
// The client's workload is the client's own notion (client.rs runs it); the spec names it.
pub use super::client::Workload;
use super::config::LockConfig;
pub use super::config::Setting;
use super::{BoxedNode, Msg, Trace};
pub use crate::param::{Need, Number, Param, Toward, Ty};
use crate::sim::{ClockKind, NodeId};

/// What an approach is, in data. See the module doc.
pub struct Spec {
    pub id: &'static str,
    pub label: &'static str,
    pub short: &'static str,
    /// The lock service's node names for a lock configuration (docs/SCENARIO_FORMAT.md, "Nodes").
    pub nodes: fn(&LockConfig, servers: u32) -> Vec<String>,
    /// `lock.servers` when absent; None: the approach has a fixed shape and ignores it.
    pub default_servers: Option<u32>,
    pub holding: Holding,
    pub lease: LeaseKind,
    /// The lifetime the service really enforces for the lock configuration asked for
    /// (ZooKeeper negotiates it, etcd rounds it up); the verdict's `granted_ttl_ms`.
    pub granted_ttl: fn(&LockConfig) -> i64,
    /// Why the granted lifetime can differ from the one asked for, when it can
    /// ("negotiates session timeouts into 4–40 s").
    pub grant_rule: Option<fn(&LockConfig) -> String>,
    pub token: TokenKind,
    /// `lock.safe_unlock` applies (compare-and-delete vs a plain delete); ZooKeeper and etcd
    /// releases are owner-scoped by construction.
    pub safe_unlock: bool,
    /// `lock.persistence` applies (Redis AOF settings).
    pub persistence: bool,
    /// `lock.replica` applies.
    pub replica: bool,
    /// `lock.drift_factor` applies (Redlock's validity formula).
    pub drift_factor: bool,
    /// The clock by which the lock servers expire leases (docs/SCENARIO_FORMAT.md, "Clocks"):
    /// Redis and the database by their wall clocks, ensembles by the leader's monotonic one.
    pub expiry_clock: ClockKind,
    /// When a fixed TTL has ended at a server, by that clock.
    pub deadline: Deadline,
    /// How clients use it to write, and so what storage checks and what the checker calls stale.
    pub workload: Workload,
    /// Its `lock` settings beyond the common ones: their defaults and rules.
    pub config: ConfigRules,
    pub words: Words,
    pub build: Build,
    /// How the seed's table measures the approach (explore/table.rs reads it).
    pub table: TablePlan,
    /// How it measures the approach's replica row, for approaches with `replica`.
    pub replica_table: Option<TablePlan>,
}

/// How one row of the seed's table is measured, in data: what the row claims, how its base
/// differs from the common one (and the label's words for that), the faults it draws from and
/// its N. Chosen by measurement (docs/MODEL.md, "The seed's table, measured").
pub struct TablePlan {
    /// What the contract says the row shows, as the table's footnote says it.
    pub claim: &'static str,
    /// After the approach's label when the base is adjusted: ", no persistence".
    pub label_suffix: &'static str,
    /// Adjusts the row's lock settings (a plain DELETE, no persistence).
    pub lock: fn(&mut LockConfig),
    /// The run's length when not the common 30 s.
    pub duration_ms: Option<i64>,
    pub mix: TableMix,
    /// Schedules per cell when not the table's default.
    pub runs: Option<u64>,
}

impl TablePlan {
    /// The common base, the default mix and N, claiming `claim`.
    pub const fn claims(claim: &'static str) -> TablePlan {
        TablePlan { claim, label_suffix: "", lock: |_| {}, duration_ms: None, mix: TableMix::Default, runs: None }
    }
}

/// The faults a table row draws from (the explorer's mix, in data).
pub enum TableMix {
    /// Up to 3 faults of every kind, on any node, at any time.
    Default,
    /// Up to 3 pauses of A and B or crashes of `server`, in the first 6 s; `words` says it.
    CrashesAndPauses { server: &'static str, words: &'static str },
    /// One pause of A or B lasting `from_ms` to `to_ms`; `words` says it.
    OnePause { from_ms: i64, to_ms: i64, words: &'static str },
}

/// How many of the lock service's servers must hold a client's lease for it to hold the lock,
/// and whether they hold one lease together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Holding {
    /// One server (a primary, possibly with a replica) holds it.
    One,
    /// Independent instances each hold their own copy; a majority must (Redlock).
    Majority,
    /// An ensemble holds one replicated lock; its leader speaks for it.
    Replicated,
}

/// When a fixed TTL ends at the server that keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deadline {
    /// Once its deadline has come (Redis: a key whose deadline is now is gone).
    Reached,
    /// Only once past it (PostgreSQL: `expires_at < now()`).
    Passed,
    /// Never at the server, which expires nothing: a waiter judges the lease over by its own
    /// clock once the record has not changed for a lease duration (client-go's Lease, the
    /// DynamoDB Lock Client's record version number).
    Waiters,
}

/// What the lock's lifetime is measured from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeaseKind {
    /// A fixed TTL from the request; clients do not extend it (db-lease, Redis, Redlock).
    FixedTtl,
    /// A session or lease that heartbeats keep alive (ZooKeeper, etcd).
    KeptAlive,
}

/// An approach's own `lock` settings (docs/SCENARIO_FORMAT.md, "Fields" and "Beyond the seed").
pub struct ConfigRules {
    /// `lock.ttl_ms` when absent.
    pub default_ttl_ms: i64,
    /// Its own `lock` settings, as data: the reader, validation, the editor's form, Compare
    /// and the docs' table go through this list (any other approach refuses them, naming the
    /// field). Values are read with `LockConfig::get`.
    pub settings: &'static [Setting],
    /// The `lock` fields a client may set for itself in `clients[].lock` (`ttl_ms` and any of
    /// `settings`), where the real system makes them each process's own configuration
    /// (docs/SCENARIO_FORMAT.md, "Per-client settings"). The client's agent is built from the
    /// scenario's `lock` with these in place (`LockConfig::for_client`); the servers from the
    /// scenario's.
    pub per_client: &'static [&'static str],
    /// Rules beyond each field's bounds: the field path and what is wrong.
    pub check: fn(&LockConfig) -> Result<(), (&'static str, String)>,
    /// Makes a lock configuration (another approach's, a generated one) valid for this
    /// approach by its own rules, changing as little as it can: Compare, the explorer's base
    /// and the test generators use it.
    pub fit: fn(&mut LockConfig),
}

impl ConfigRules {
    /// The common `lock` settings only, with a 10 s TTL by default.
    pub const PLAIN: ConfigRules = ConfigRules { default_ttl_ms: 10_000, settings: &[], per_client: &[], check: |_| Ok(()), fit: |_| {} };
}

/// What the approach hands out as a fencing token, and how it is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    /// A counter: "token 3".
    Counter,
    /// ZooKeeper's czxid, `epoch << 32 | counter`: "czxid 0x1_00000003".
    Czxid,
    /// etcd's create revision: "revision 5".
    Revision,
    /// Kubernetes' `leaseTransitions`: "leaseTransitions 3".
    Transitions,
    /// Consul's `LockIndex`: "LockIndex 3".
    LockIndex,
    /// The object version a conditional write read and presents: "version 3".
    Version,
    /// No token at all (Redlock's value is random and unordered).
    None,
}

impl TokenKind {
    /// "token 3", "czxid 0x1_00000003", "revision 5", "no token".
    pub fn label(self, token: Option<u64>) -> String {
        match (self, token) {
            (TokenKind::None, _) | (_, None) => "no token".into(),
            (TokenKind::Counter, Some(t)) => format!("token {t}"),
            (TokenKind::Czxid, Some(t)) => format!("czxid {}", czxid(t)),
            (TokenKind::Revision, Some(t)) => format!("revision {t}"),
            (TokenKind::Version, Some(t)) => format!("version {t}"),
            (TokenKind::Transitions, Some(t)) => format!("leaseTransitions {t}"),
            (TokenKind::LockIndex, Some(t)) => format!("LockIndex {t}"),
        }
    }

    /// "3", "0x1_00000003", "—".
    pub fn value(self, token: Option<u64>) -> String {
        match (self, token) {
            (TokenKind::None, _) | (_, None) => "—".into(),
            (TokenKind::Czxid, Some(t)) => czxid(t),
            (_, Some(t)) => t.to_string(),
        }
    }
}

/// A zxid as ZooKeeper's logs print it: epoch, then the 32-bit counter.
fn czxid(t: u64) -> String {
    format!("0x{:x}_{:08x}", t >> 32, t & 0xffff_ffff)
}

/// The approach's own words, used by captions, the diagram and the side-by-side notes.
pub struct Words {
    /// What the service keeps for a holder: "lease row", "key", "session", "lease".
    pub lease: &'static str,
    /// What `lock.ttl_ms` is called: "lease TTL", "session timeout".
    pub ttl: &'static str,
    /// A lease's end by time, on a bar: "TTL expired", "session expired", "lease expired".
    pub expired: &'static str,
    /// How a client keeps its lease alive, for kept-alive leases: "pings", "keepalives".
    pub keepalive: &'static str,
    /// A server's two roles, leading first: "leader"/"follower", "primary"/"replica".
    pub roles: [&'static str; 2],
    /// A message as it reads on the wire for this approach (None: the common words apply).
    pub message: fn(&Msg) -> Option<String>,
    /// What a client does when it is granted, in a key moment: "gets the lock".
    pub got: &'static str,
    /// The caption of trace event `event` (by node `me`) in the approach's own terms, where the
    /// common caption does not fit (None: the common one applies).
    pub caption: fn(trace: &Trace, event: usize, me: &str) -> Option<String>,
    /// What a client's belief is called on the diagram, the legend and the verdict.
    pub belief: BeliefWords,
}

/// What a client's belief is called: that it holds the lock, for a lock; for a conditional
/// write (no lock at all), that it works from the version it read. A diagram that said "A
/// believes it holds the lock" where there is no lock would teach the wrong thing.
#[derive(Debug, PartialEq, Eq)]
pub struct BeliefWords {
    /// On a client's bar, after its name and before its token: "believes it holds the lock".
    pub bar: &'static str,
    /// The same where room is short, before the token's value: "believes".
    pub bar_short: &'static str,
    /// In the lane's column, wide and narrow: "believes it holds", "holds".
    pub lane: [&'static str; 2],
    /// In the lane's column of a client with none: "no lock".
    pub none: &'static str,
    /// Two or more at once, after "A and B both" (long, short): "believe they hold the lock".
    pub together: [&'static str; 2],
    /// How long two or more were so, in a sentence, present and past, after their names:
    /// "believe they hold the lock at the same time", "believed they held …".
    pub at_once: [&'static str; 2],
    /// The verdict's counts: a grant, singular and plural ("grant", "grants"); "most believers
    /// at once".
    pub grant: [&'static str; 2],
    pub most: &'static str,
    /// The legend's words for a belief and for two at once.
    pub legend: [&'static str; 2],
    /// Whether a lock service keeps leases at all (its bars and its legend entry).
    pub service_holds: bool,
}

impl BeliefWords {
    /// Every lock: a client believes it holds the lock.
    pub const LOCK: BeliefWords = BeliefWords {
        bar: "believes it holds the lock",
        bar_short: "believes",
        lane: ["believes it holds", "holds"],
        none: "no lock",
        together: ["believe they hold the lock", "hold it"],
        at_once: ["believe they hold the lock at the same time", "believed they held the lock at the same time"],
        grant: ["grant", "grants"],
        most: "most believers at once",
        legend: ["believes it holds the lock", "two believers"],
        service_holds: true,
    };
}

/// No caption of the approach's own: the common captions fit (every lock approach).
pub fn common_captions(_: &Trace, _: usize, _: &str) -> Option<String> {
    None
}

/// Where a run's nodes are, for building them.
#[derive(Clone)]
pub struct Plan<'a> {
    pub lock: &'a LockConfig,
    /// The lock service's nodes, in order (names as `Spec::nodes` gives them).
    pub servers: Vec<NodeId>,
    pub server_names: &'a [String],
    pub clients: Vec<NodeId>,
    pub storage: NodeId,
}

/// How an approach's nodes are made.
pub struct Build {
    /// What makes the client side of the lock for each process of one client (a restarted
    /// client is a new process, its incarnation numbering its requests).
    pub agent: fn(&Plan) -> AgentFactory,
    /// Lock-service node `rank` (an index into `Plan::servers`).
    pub server: fn(&Plan, rank: usize) -> BoxedNode,
}

impl Spec {
    /// How many servers must hold a client's lease for the service to hold it.
    pub fn quorum(&self, servers: u32) -> usize {
        match self.holding {
            Holding::Majority => servers as usize / 2 + 1,
            Holding::One | Holding::Replicated => 1,
        }
    }

    /// Whether the servers hold one lease together (drawn as one lease that moves with the
    /// leader) rather than each its own.
    pub fn shared_lease(&self) -> bool {
        self.holding == Holding::Replicated
    }

    /// Who a client asks for the lock, in a caption: the one server by name, "every
    /// instance", or "the leader" / "the primary".
    pub fn service_phrase(&self, servers: &[&str]) -> String {
        match (self.holding, servers) {
            (Holding::One, [one]) => (*one).to_string(),
            (Holding::Majority, _) => "every instance".into(),
            _ => format!("the {}", self.words.roles[0]),
        }
    }
}

/// `prefix-1` … `prefix-N`: numbered servers of a multi-server approach.
pub fn numbered(prefix: &str, servers: u32) -> Vec<String> {
    (1..=servers).map(|i| format!("{prefix}-{i}")).collect()
}
