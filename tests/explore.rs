//! The explorer (src/explore/): it finds what the seed predicts, shrinks it to something that
//! still fails alone, finds nothing where nothing can be found, and gives the same answer in
//! any batch size and on any number of threads.

use locklab::check::Verdict;
use locklab::explore::shrink::shrink;
use locklab::explore::table::{self, base};
use locklab::explore::{as_found, explore, Class, Explorer, Mix};
use locklab::lab;
use locklab::protocols::spec::TokenKind;
use locklab::scenario::fault::Crash;
use locklab::scenario::validate::validate;
use locklab::scenario::{parse, Approach, FaultKind, FaultSpec, Persistence, Scenario};

mod explore_golden;
mod golden_file;

fn kinds(ids: &[&str]) -> Vec<FaultKind> {
    ids.iter().map(|id| FaultKind::by_id(id).unwrap()).collect()
}

fn pauses() -> Mix {
    Mix::of(&kinds(&["pause"]))
}

/// Runs `n` schedules on every core the test gets.
fn search(base: &Scenario, mix: &Mix, seed: u64, n: u64) -> locklab::explore::Report {
    let mut e = Explorer::new(base, mix.clone(), seed, n).unwrap();
    e.run_batch_parallel(n);
    e.report()
}

#[test]
fn a_pause_only_mix_on_redis_finds_a_lost_update_and_shrinks_it_to_one_pause() {
    let report = explore(&base(Approach::Redis), &pauses(), 1, 2_000).unwrap();
    assert_eq!(report.runs, 2_000);
    assert!(report.counts.lost_update > 0, "{:?}", report.counts);
    let found = report.first(Class::LostUpdate).unwrap();
    assert!(found.index < 2_000);
    let shrunk = shrink(&found.scenario, Class::LostUpdate);
    assert_eq!(shrunk.before, found.scenario);
    assert!(matches!(shrunk.after.faults[..], [FaultSpec::Pause(_)]), "{:?}", shrunk.after.faults);
    assert!(shrunk.after.faults.len() <= shrunk.before.faults.len());
}

#[test]
fn a_shrunk_counterexample_is_a_scenario_file_that_fails_when_run_alone() {
    let report = explore(&base(Approach::Redis), &pauses(), 1, 2_000).unwrap();
    let found = report.first(Class::LostUpdate).unwrap();
    let shrunk = shrink(&found.scenario, Class::LostUpdate);
    let file = as_found(&shrunk.after, Class::LostUpdate, "Found in a test");
    let text = serde_json::to_string_pretty(&file).unwrap();
    let back = parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert!(back.title.starts_with("Found by the explorer: a lost update"), "{}", back.title);
    assert!(back.intro.contains("Faults: pause A for "), "{}", back.intro);
    let run = lab::run(&back);
    assert!(run.verdict.stale_writes_accepted > 0, "{:?}", run.verdict);
    assert_eq!(run.expect_mismatches(), Some(Vec::new()), "the file's expect is what the run shows");
}

#[test]
fn zookeeper_and_etcd_with_fencing_lose_nothing_under_the_full_mix() {
    for approach in [Approach::Zookeeper, Approach::Etcd] {
        let fenced = lab::with_fencing(&base(approach), true);
        let report = search(&fenced, &Mix::full(), 2026, 20_000);
        assert_eq!(report.runs, 20_000);
        assert_eq!(report.counts.lost_update, 0, "{}: {:?}", approach.id(), report.first(Class::LostUpdate));
        assert_eq!(report.counts.token_repeated, 0, "{}", approach.id());
        // The mix bites: the first of the same schedules, without fencing, do lose updates.
        let open = search(&base(approach), &Mix::full(), 2026, 5_000);
        assert!(open.counts.lost_update > 0, "{}: the full mix never lost an update without fencing", approach.id());
    }
}

#[test]
fn the_same_seed_gives_the_same_report_in_any_batches_and_on_any_threads() {
    let b = base(Approach::Redlock);
    let mix = Mix::of(&kinds(&["pause", "clock_jump", "crash", "drop"]));
    let whole = explore(&b, &mix, 7, 600).unwrap();
    assert!(whole.found.len() >= 2, "too little found to compare: {:?}", whole.counts);
    for batch in [1, 7, 250] {
        let mut e = Explorer::new(&b, mix.clone(), 7, 600).unwrap();
        while !e.run_batch(batch).done() {}
        assert_eq!(e.report(), whole, "batches of {batch}");
    }
    for threads in [1, 2, 3] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let mut e = Explorer::new(&b, mix.clone(), 7, 600).unwrap();
        pool.install(|| {
            e.run_batch_parallel(100);
            e.run_batch(33);
            e.run_batch_parallel(1_000);
        });
        assert_eq!(e.report(), whole, "{threads} threads");
    }
    // Another seed, other schedules.
    assert_ne!(explore(&b, &mix, 8, 600).unwrap(), whole);
}

/// A verdict with its trace indices left out (a judged run's trace has no message events).
fn without_events(mut v: Verdict) -> Verdict {
    v.grants.iter_mut().for_each(|g| g.event = 0);
    v.writes.iter_mut().for_each(|w| w.event = 0);
    v.findings.iter_mut().for_each(|f| f.event = 0);
    v
}

#[test]
fn a_judged_run_gives_the_full_runs_verdict() {
    let mut unsafe_runs = 0;
    for row in table::rows() {
        for (fencing, mix) in [(false, Mix::full()), (true, Mix::full()), (false, pauses()), (true, pauses())] {
            let e = Explorer::new(&lab::with_fencing(&row.base, fencing), mix, 3, 100).unwrap();
            for i in 0..100 {
                let s = e.schedule(i);
                validate(&s).unwrap_or_else(|err| panic!("schedule {i} of {} is invalid: {err}", row.id));
                let full = lab::run(&s).verdict;
                unsafe_runs += usize::from(Class::of(&full) != Class::Safe);
                assert_eq!(without_events(lab::judge(&s)), without_events(full), "{} schedule {i}", row.id);
            }
        }
    }
    assert!(unsafe_runs > 20, "only {unsafe_runs} unsafe runs compared");
}

fn lost(cells: &[table::Cell], row: &str, fencing: bool) -> u64 {
    cells.iter().find(|c| c.row == row && c.fencing == fencing).map(|c| c.counts.lost_update).unwrap()
}

#[test]
fn the_measured_table_agrees_with_the_seed() {
    // Once a holder can pause, every approach loses updates without fencing — except one with
    // a lock-delay (Consul), which protects every pause shorter than 2 × TTL + lock-delay (here
    // 35 s, longer than any pause drawn), and PostgreSQL's session lock, which a pause never
    // ends (the paused client's kernel answers the server's keepalive probes); with fencing,
    // only an approach with no token to fence with (Redlock) still does.
    let mut mix = pauses();
    mix.nodes = Some(vec!["A".into(), "B".into()]);
    let cells = table::table(&mix, 1, 1_000).unwrap();
    assert_eq!(cells.len(), 2 * table::rows().len());
    for row in table::rows() {
        let delayed = row.base.approach.spec().config.settings.iter().any(|x| x.name() == locklab::protocols::consul::LOCK_DELAY.name());
        let session_held = row.base.approach == Approach::PgAdvisory;
        let survives_pauses = delayed || session_held;
        assert_eq!(lost(&cells, &row.id, false) > 0, !survives_pauses, "{} without fencing", row.id);
        let fenced = lost(&cells, &row.id, true);
        if row.base.approach.spec().token == TokenKind::None && !survives_pauses {
            assert!(fenced > 0, "{} with fencing lost nothing", row.id);
        } else {
            assert_eq!(fenced, 0, "{} with fencing lost an update", row.id);
        }
    }
    for c in cells.iter().filter(|c| c.counts.lost_update > 0) {
        let s = c.smallest.as_ref().unwrap_or_else(|| panic!("{} {}: no smallest counterexample", c.row, c.fencing));
        // A single pause is enough; without a lock and without the precondition, two clients'
        // overlapping read-modify-writes need none at all (check, then act).
        assert!(s.after.faults.len() <= 1, "{} {}: a single pause is enough: {:?}", c.row, c.fencing, s.after.faults);
        assert_eq!(Class::of(&lab::run(&s.after).verdict), Class::LostUpdate);
    }
}

#[test]
fn fencing_on_redis_fails_where_a_token_is_handed_out_again() {
    // While A and B hold the lock (the first 6 s), on the clients and the primary.
    let mix = |nodes: &[&str]| {
        let mut m = Mix::of(&kinds(&["pause", "crash"]));
        m.nodes = Some(nodes.iter().map(|n| n.to_string()).collect());
        m.window_ms = Some((0, 6_000));
        m
    };
    // A restart without persistence forgets the INCR counter.
    let mut restart = lab::with_fencing(&base(Approach::Redis), true);
    restart.lock.persistence = Persistence::None;
    let r = search(&restart, &mix(&["A", "B", "redis"]), 1, 3_000);
    assert!(r.counts.lost_update > 0, "{:?}", r.counts);
    let s = shrink(&r.first(Class::LostUpdate).unwrap().scenario, Class::LostUpdate);
    assert!(s.after.faults.iter().any(|f| matches!(f, FaultSpec::Crash(Crash { node, .. }) if node == "redis")), "{:?}", s.after.faults);
    // A failover to a replica that had not yet seen the counter.
    let failover = table::row("redis-replica").unwrap().base;
    let r = search(&lab::with_fencing(&failover, true), &mix(&["A", "B", "redis"]), 1, 3_000);
    assert!(r.counts.lost_update > 0, "{:?}", r.counts);
    // The same faults with persistence and no replica: fencing holds.
    let kept = search(&lab::with_fencing(&base(Approach::Redis), true), &mix(&["A", "B"]), 1, 3_000);
    assert_eq!(kept.counts.lost_update, 0);
}

#[test]
fn fencing_on_the_database_row_fails_where_a_plain_release_restarts_the_token() {
    let mut b = lab::with_fencing(&base(Approach::DbLease), true);
    b.lock.safe_unlock = false;
    b.clients.push(locklab::scenario::ClientSpec::new("C", 4000, 500, 1));
    let mut mix = pauses();
    mix.nodes = Some(vec!["A".into(), "B".into(), "C".into()]);
    let r = search(&b, &mix, 1, 4_000);
    assert!(r.counts.lost_update + r.counts.token_repeated > 0, "{:?}", r.counts);
}

/// Each row of the planned table (`table::plan()`: the CLI's, the page's and the docs' table)
/// shows what the contract claims of it (docs/SCENARIO_FORMAT.md, "Fencing tokens, per approach"),
/// at its own mix and seed. Counts here are of the plan's first schedules (the same schedules
/// the full N begins with): enough to reveal each claim, few enough to stay fast.
#[test]
fn each_row_of_the_planned_table_shows_its_claim_at_its_mix() {
    let plans = table::plan();
    assert_eq!(plans.len(), table::rows().len());
    let cell = |id: &str, fencing: bool, n: u64| {
        let p = plans.iter().find(|p| p.row.id == id).unwrap();
        assert!(n <= p.runs, "{id}: {n} is more than the plan's {}", p.runs);
        let r = search(&lab::with_fencing(&p.row.base, fencing), &p.mix, p.seed, n);
        (r.counts.lost_update, r.token_repeats)
    };
    // A plain DELETE restarts the token at 1: repeated in most runs, and fencing with it loses.
    assert!(table::row("db-lease").unwrap().base.lock.safe_unlock, "the search's base is the safe release");
    let (lost, repeats) = cell("db-lease", true, 300);
    assert!(lost > 0 && repeats > 200, "db-lease on: {lost} lost, {repeats} repeats");
    // Redis and Redisson restarted without persistence, or failed over to a replica: a token
    // handed out again, and fencing on loses the update.
    for id in ["redis", "redisson"] {
        let (lost, repeats) = cell(id, true, 300);
        assert!(lost > 0 && repeats > 0, "{id} on: {lost} lost, {repeats} repeats");
    }
    for id in ["redis-replica", "redisson-replica"] {
        let (lost, repeats) = cell(id, true, 4_000);
        assert!(lost > 0 && repeats > 0, "{id} on: {lost} lost, {repeats} repeats");
    }
    // Redlock has no token: fencing on loses exactly what fencing off does.
    assert_eq!(cell("redlock", true, 1_200), cell("redlock", false, 1_200));
    assert!(cell("redlock", true, 1_200).0 > 0);
    // ZooKeeper, etcd, a Lease passed on, Consul's LockIndex, the conditional write: a late
    // write is lost without the check, never with it; no token repeats.
    for id in ["zookeeper", "etcd", "k8s-lease", "consul", "conditional-write"] {
        let (off, _) = cell(id, false, 1_200);
        assert!(off > 0, "{id} off lost nothing");
        assert_eq!(cell(id, true, 1_200), (0, 0), "{id} on");
    }
    // Consul's lost updates are the long pauses' (lock-delay is no token): a single pause.
    let p = plans.iter().find(|p| p.row.id == "consul").unwrap();
    assert!(p.row.label.contains("60 s run"), "its longer run is in its label: {}", p.row.label);
    // Every adjusted base says so in its label.
    for p in &plans {
        let plain = table::row(&p.row.id).unwrap();
        assert_eq!(p.row.base == plain.base, p.row.label == plain.label, "{}: base changed, label not (or back)", p.row.id);
        assert!(!p.claim.is_empty() && !p.mix_words.is_empty(), "{}", p.row.id);
    }
}

#[test]
fn a_mix_that_cannot_be_drawn_names_its_field() {
    let b = base(Approach::Redis);
    let err = |mix: Mix| Explorer::new(&b, mix, 1, 1).err().unwrap();
    assert_eq!(err(Mix::of(&[])).field, "kinds");
    let mut m = Mix::full();
    m.max_faults = 0;
    assert_eq!(err(m).field, "max_faults");
    let mut m = Mix::full();
    m.nodes = Some(vec!["zk-1".into()]);
    let e = err(m);
    assert_eq!((e.field, e.message.as_str()), ("nodes", "no node named \"zk-1\" (redis has A, B, redis, storage)"));
    let mut m = Mix::full();
    m.window_ms = Some((0, 99_999));
    assert_eq!(err(m).field, "window_ms");
    let mut m = Mix::full();
    m.ranges = vec![(FaultKind::by_id("pause").unwrap(), "by_ms", 1, 2)];
    assert_eq!(err(m).message, "pause has no number called by_ms");
}

/// The explorer's counts and counterexamples for every table row under the full mix, as
/// computed natively. tests/web_explore.rs computes the same under wasm and compares it with
/// this file (as tests/golden/trace-hashes.txt does for traces). After an intended model
/// change: `UPDATE_GOLDEN=1 cargo test --test explore`.
#[test]
fn explorer_results_match_the_golden_file() {
    let mut current = String::new();
    for row in table::rows() {
        for fencing in [false, true] {
            current += &explore_golden::cell_line(&row, fencing);
        }
    }
    golden_file::check(explore_golden::CELLS, &current, "UPDATE_GOLDEN=1 cargo test --test explore");
}
