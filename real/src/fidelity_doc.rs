//! docs/FIDELITY.md as the suite writes it: how it was measured (the servers' versions, read
//! from the programs themselves), the measured tables (suite::markdown), why timings differ
//! for the approaches in the suite, and which built-ins the harness refuses, with its reason.

use std::process::Command;

use locklab::scenario::{catalog, Approach};

use crate::suite::Case;

/// The first line a program prints for `args` (its version), or why not.
fn version(program: &str, args: &[&str]) -> String {
    match Command::new(program).args(args).output() {
        Ok(out) => {
            let text = if out.stdout.is_empty() { out.stderr } else { out.stdout };
            String::from_utf8_lossy(&text).lines().next().unwrap_or("").trim().to_string()
        }
        Err(e) => format!("{program}: {e}"),
    }
}

/// Debian's versioned ZooKeeper jar (`zookeeper-3.8.0.jar`), which names the version.
fn zookeeper_jar() -> String {
    let names = std::fs::read_dir("/usr/share/java").into_iter().flatten().flatten().map(|e| e.file_name().to_string_lossy().to_string());
    let mut jars: Vec<String> =
        names.filter(|n| n.starts_with("zookeeper-") && n.ends_with(".jar") && n[10..].starts_with(|c: char| c.is_ascii_digit())).collect();
    jars.sort();
    jars.first().map_or("ZooKeeper: no /usr/share/java/zookeeper-*.jar".into(), |j| format!("ZooKeeper {j}"))
}

/// Why the timings of an approach differ from the model's (the verdicts do not).
fn why(approach: Approach) -> &'static str {
    match approach {
        Approach::Redis => "**Redis.** A key set with PX expires at its deadline, but Redis removes it lazily, when a command touches it (B's `SET NX`, the poller's `GET` every 5 ms) or in its sampling cycle; the model expires it exactly. B's takeover after an expiry waits for its next retry, drawn by the client's own generator from the same range as the model's (100–300 ms), so takeovers differ by up to that range. In the failover case the harness plays Sentinel: it promotes the replica once the primary's port has refused connections for 1 s (scenario time), and the model's replica promotes itself after 1 s without its primary; after a diskless first sync Redis streams to a replica only after the replica's first acknowledgement (up to 1 s), so the harness starts a run only once a marker written to the primary reads on the replica.",
        Approach::DbLease => "**PostgreSQL.** The row's `expires_at` is compared with `now()` only when someone tries to take the lock: the takeover is B's first retry after the deadline (the same 100–300 ms retry range, drawn by another generator). A grant's time is the midpoint between the request leaving the client and its answer; the model stamps the commit at the server.",
        Approach::Etcd => "**etcd.** The lessor looks for expired leases every 500 ms of wall time, which is not scaled: a lease ends 0–500 ms late, that is up to 500 ÷ scale ms of scenario time (the model draws the same 0–500 ms, unscaled). A waiter reads the queue every 5 ms where the recipe watches the next-lower key. Leases are whole seconds: the scaled TTL is rounded up (10 s at scale 0.4 is 4 s). The members run with a 500 ms election timeout so that a 1 s lease is allowed.",
        Approach::Zookeeper => "**ZooKeeper.** The session is opened when the client process connects, before the run's clock starts, and the library pings every third of the timeout; the server expires sessions in tick-sized buckets. So the moment A's session ends depends on A's last ping before the pause, which the model schedules differently: the takeover time differs by up to a tick plus a ping interval. A waiter lists the children every 5 ms where the recipe watches the next-lower node.",
        Approach::Redlock => "**Redlock.** Five independent `redis-server` processes; the client asks them in turn (as redlock-py does), each request giving up after the request timeout (scaled, at least 300 ms of wall time), and counts the validity on its monotonic clock from before the first request. An instance that is down refuses the connection at once, where the model's request waits for its timeout: a grant with a dead instance comes earlier here (the grant's time is the majority's third OK in both). The harness cannot cut one client's link to one instance, so the built-in `redlock-restart-without-persistence`, whose A is kept from redis-4 and redis-5 by `drop` faults, is played as `redlock-restart-crashed-pair`: redis-4 and redis-5 are down (kill -9) while A asks and come back empty; redis-3 then restarts without persistence and B gets redis-3..5, as in the built-in. A connection broken by a restart is opened again once, as a client's pool would.",
        Approach::Redisson => "**Redisson.** The lock is a hash set by Lua with `PEXPIRE` and RFencedLock's `INCR` token in the same script; a watchdog *thread of the client process* re-sets the lease every third of it with an owner-checked `PEXPIRE` script, and stops when that finds the hash no longer the owner's. SIGSTOP freezes it with the process: on SIGCONT the worker's overdue write and the watchdog's overdue renewal race, where the model handles the write first; with the key still there (the short pause) either order keeps the lock. B's takeover after the long pause waits for its next retry (1–2 s, drawn by the client's own generator), so it differs from the model's by up to that range.",
        Approach::ConditionalWrite => "**Conditional write on PostgreSQL.** There is no lock service: the object is a row with a `version`, read with `SELECT version`, and written with `UPDATE object SET value = $1, version = version + 1 WHERE id = 1 AND version = $2` (zero rows is the 412; the version it was checked against comes from the same statement), or with fencing off a plain `UPDATE` without the precondition. The database is the storage: a read's and a write's time is the midpoint between the request and its answer, where the model stamps them at storage.",
        _ => "",
    }
}

/// What became of clock faults on real servers (issue 23 item 3's libfaketime).
const CLOCKS: &str = "## Clock jumps and drift (libfaketime)\n\nRedlock's clock jump on a real instance needs a server whose wall clock can be stepped while it runs. The way to do that without root is libfaketime (Debian's `faketime` 0.9.10): `LD_PRELOAD=libfaketime.so.1` with `FAKETIME_TIMESTAMP_FILE` (re-read with `FAKETIME_NO_CACHE=1`) and `FAKETIME_DONT_FAKE_MONOTONIC=1`, so that writing `+4` into the file steps the server's wall clock 4 s. It does not work with Debian's redis-server 7: the server links Debian's `libjemalloc.so.2`, which calls `clock_gettime` while libfaketime is still initialising; libfaketime prints `Cannot recover from unexpected recursive calls to clock_gettime()` and redis-server never answers a connection. Tried on this machine, each with the same result: `FAKETIME=+0` in the environment, the timestamp file with and without `FAKETIME_NO_CACHE`, `FAKETIME_DONT_FAKE_MONOTONIC=1`, the multi-threaded `libfaketimeMT.so.1`, jemalloc's decay and background threads turned off through `MALLOC_CONF`, and jemalloc preloaded before and after libfaketime. So `clock_jump` and `clock_drift` are refused, with a message naming the fault and this failure (`redlock-clock-jump` is refused first for its `drop` faults), and no case of the suite steps a clock.\n\n";

/// The document around the measured tables.
/// `load`: the machine's load averages as /proc/loadavg gave them, at the start and the end.
pub fn document(cases: &[Case], tables: &str, load: (&str, &str)) -> String {
    // The approaches of the suite's cases, Redis's family first (Redlock and Redisson refer to it).
    let order = [
        Approach::Redis,
        Approach::Redlock,
        Approach::Redisson,
        Approach::DbLease,
        Approach::ConditionalWrite,
        Approach::Etcd,
        Approach::Zookeeper,
    ];
    let approaches: Vec<Approach> = order.into_iter().filter(|a| cases.iter().any(|c| c.scenario.approach == *a)).collect();
    let versions = [
        version("redis-server", &["--version"]),
        version("/usr/lib/postgresql/15/bin/postgres", &["--version"]),
        version("etcd", &["--version"]),
        zookeeper_jar(),
        version("java", &["-version"]),
    ];
    let mut out = String::from("# Fidelity: the model against real servers\n\n");
    out += "Generated by `locklab-real suite real/cases/suite.txt --markdown OUT` (scripts/test.sh runs it and writes `target/fidelity/FIDELITY.md`; this page is a copy of one run, committed by hand). Each case runs twice, fencing off and on, on real servers started by the harness (real/, `locklab-real`), with each client its own OS process; a pause is SIGSTOP/SIGCONT, a crash is kill -9 and a restart on the same data dir. The recording is turned into a Lock Lab trace and judged by the same `check` as the simulation.\n\n";
    out += "**Asserted** (the suite fails on any difference): `safe`, stale writes accepted and rejected, the most clients believing at once, and the token order (each grant's client with its token's rank, so etcd's revisions and ZooKeeper's czxids compare with Redis's counter). **Reported, never asserted:** the times of grants and writes, in scenario ms (wall time ÷ scale).\n\n";
    out += "**In the app.** Ten of these runs, one story per service with fencing off and on, are recorded by `scripts/record-real.sh` (`locklab-real record`) into `src/recorded/recordings/`, and the app draws each beside its simulation (\"Compare with: real Redis 7.0.15 (recorded)\"; see docs/REAL.md, \"Recorded runs in the app\", with pictures). `tests/recorded.rs` holds each recording to the built-in it recorded and to the model's verdict on the fields asserted here.\n\n";
    out += "Servers: ";
    out += &versions.join("; ");
    out += ".\n\n## Cases\n\n";
    out += tables;
    out += "\n## Why the timings differ\n\n";
    for a in approaches {
        out += why(a);
        out += "\n\n";
    }
    out += "Everywhere: scenario time is wall time ÷ the case's scale; each case's scale keeps the narrowest margin that decides its verdict above 200 ms of wall time, so a loaded 2-core machine cannot flip one. The suite runs several cases at once (`--jobs`, 3 by default), each on servers, ports (from 20000–31999) and a storage of its own, and each at its own scale whatever runs beside it: running side by side changes the timings (the machine is busier), never a case's margins. ";
    out += &format!(
        "This run's machine: {} cores, load averages (1, 5, 15 min) {} at the start and {} at the end.\n\n",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        load.0,
        load.1
    );
    out += CLOCKS;
    out += "## Built-ins not run on real servers\n\nThe harness refuses these, naming what it cannot do for real:\n\n";
    for s in catalog::all() {
        if let Err(why) = crate::plan::schedule(&s) {
            out += &format!("- `{}`: {why}\n", s.id);
        }
    }
    out
}
