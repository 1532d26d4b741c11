//! The Explore panel's results, set up and run through its typed actions (`session::explore`)
//! natively: written to tests/golden/explore-page.txt
//! for tests/web_explore.rs to compute again under wasm and compare. After an intended model
//! change: `UPDATE_GOLDEN=1 cargo test --test explore_page`.

mod explore_golden;
mod golden_file;

#[test]
fn page_results_match_the_golden_file() {
    let current = explore_golden::page_lines();
    // The search found something to shrink, and some of it had many faults to shrink from.
    assert!(current.lines().filter(|l| l.contains("shrunk in")).count() >= 3, "{current}");
    let most = current.lines().filter_map(|l| l.split(" faults=").nth(1)?.split(' ').next()?.parse::<usize>().ok()).max();
    assert!(most >= Some(5), "no counterexample of 5 faults or more to shrink: {current}");
    golden_file::check(explore_golden::PAGE, &current, "UPDATE_GOLDEN=1 cargo test --test explore_page");
}
