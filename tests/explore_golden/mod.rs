//! The explorer's results as text, computed the same way natively (tests/explore.rs and
//! tests/explore_page.rs write and check the golden files) and in the browser
//! (tests/web_explore.rs checks them under wasm): same (base, mix, seed, N) ⇒ same counts,
//! same counterexamples, same shrunk faults.
#![allow(dead_code)] // each test file uses its own part of it

use locklab::explore::shrink::shrink;
use locklab::explore::sweep::Param;
use locklab::explore::table;
use locklab::explore::{explore, Mix};
use locklab::lab;
use locklab::scenario::{fault, FaultKind};
use locklab::session::explore::{Action, Fencing, Field, Lines, Page, Settings, SweepSettings, Tab};

/// tests/golden/explore.txt: every table row × fencing, the full mix, 300 schedules, seed 1.
pub const CELLS: &str = "tests/golden/explore.txt";
/// tests/golden/explore-page.txt: the page's search (up to 8 faults, every found one shrunk)
/// and a sweep, each set up and run through the page's actions.
pub const PAGE: &str = "tests/golden/explore-page.txt";

/// One line of `CELLS`: a row's counts and kept counterexamples under the full mix.
pub fn cell_line(row: &table::Row, fencing: bool) -> String {
    let r = explore(&lab::with_fencing(&row.base, fencing), &Mix::full(), 1, 300).unwrap();
    let c = r.counts;
    let found: Vec<String> = r.found.iter().map(|f| format!("{}@{}", f.class.id(), f.index)).collect();
    format!(
        "{} fencing={fencing} lost_update={} token_repeated={} two_believers={} never_granted={} safe={} found={}\n",
        row.id,
        c.lost_update,
        c.token_repeated,
        c.two_believers,
        c.never_granted,
        c.safe,
        found.join(",")
    )
}

/// A clock that moves 0.25 ms at every look (the page's slices; results do not depend on it).
fn ticking() -> impl FnMut() -> f64 {
    let mut t = 0.0;
    move || {
        t += 0.25;
        t
    }
}

/// The lines of `PAGE`.
pub fn page_lines() -> String {
    let mut out = String::new();
    // The page's search. Its kinds in this order (the form keeps them in `FaultKind::ALL`'s):
    // the order the mix draws a kind from.
    let mut page = Page::default();
    page.apply(Action::ToggleRow("zookeeper".into()));
    page.apply(Action::Fencing(Fencing::Both));
    for (field, v) in [(Field::MaxFaults, "8"), (Field::Runs, "150"), (Field::Seed, "7")] {
        page.apply(Action::Set(field, v.into()));
    }
    page.search_settings.kinds = ["pause", "crash", "clock_jump"].iter().filter_map(|k| FaultKind::by_id(k)).collect();
    let kinds = page.search_settings.kinds.clone();
    let settings = Settings {
        rows: vec!["redis".into(), "zookeeper".into()],
        fencing: Fencing::Both,
        kinds,
        max_faults: 8,
        runs: 150,
        seed: 7,
        property: None,
    };
    assert_eq!(page.search_settings, settings);
    page.apply(Action::Start);
    while page.busy() {
        page.step(&mut ticking(), 8.0);
    }
    let search = page.search.as_ref().unwrap();
    let c = search.counts();
    out += &format!(
        "search runs={} lost_update={} token_repeated={} two_believers={} never_granted={} safe={}\n",
        search.runs(),
        c.lost_update,
        c.token_repeated,
        c.two_believers,
        c.never_granted,
        c.safe
    );
    for (cell, f) in search.found() {
        let s = shrink(&f.scenario, f.class);
        let faults: Vec<String> = s.after.faults.iter().map(fault::words).collect();
        out += &format!(
            "{} {}@{} faults={} shrunk in {} runs to clients={} faults=[{}]\n",
            search.cell_words(cell),
            f.class.id(),
            f.index,
            f.scenario.faults.len(),
            s.runs,
            s.after.clients.len(),
            faults.join("; ")
        );
    }
    page.apply(Action::Tab(Tab::Sweep));
    page.apply(Action::Set(Field::Steps, "5".into()));
    page.apply(Action::Set(Field::PointRuns, "40".into()));
    assert_eq!(
        page.sweep_settings,
        SweepSettings { steps: 5, runs: 40, lines: Lines::Fencing { row: "redis".into() }, ..SweepSettings::new(Param::default()) }
    );
    page.apply(Action::Start);
    while page.busy() {
        page.step(&mut ticking(), 8.0);
    }
    let sweep = page.sweep.as_ref().unwrap();
    for s in sweep.series() {
        let lost: Vec<String> = s.points.iter().map(|p| format!("{}/{}", p.counts.lost_update, p.runs)).collect();
        out += &format!("sweep pause_ttl 0..2 {}: {}\n", s.label, lost.join(" "));
    }
    out
}
