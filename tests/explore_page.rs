//! The Explore panel's results, set up and run through its typed actions (`session::explore`)
//! natively: written to tests/golden/explore-page.txt
//! for tests/web_explore.rs to compute again under wasm and compare. After an intended model
//! change: `UPDATE_GOLDEN=1 cargo test --test explore_page`.

mod explore_golden;

#[test]
fn page_results_match_the_golden_file() {
    let current = explore_golden::page_lines();
    // The search found something to shrink, and some of it had many faults to shrink from.
    assert!(current.lines().filter(|l| l.contains("shrunk in")).count() >= 3, "{current}");
    let most = current.lines().filter_map(|l| l.split(" faults=").nth(1)?.split(' ').next()?.parse::<usize>().ok()).max();
    assert!(most >= Some(5), "no counterexample of 5 faults or more to shrink: {current}");
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(explore_golden::PAGE);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &current).unwrap();
    }
    let golden = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(golden, current, "page results changed; if intended, run UPDATE_GOLDEN=1 cargo test --test explore_page");
}
