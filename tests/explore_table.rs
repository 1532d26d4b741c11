//! The seed's table as the CLI measures it (`locklab explore --table --json`, on every core),
//! written to tests/golden/explore-table.txt: one line per cell, its runs, the count of each
//! class (in `Class::ALL` order), its tokens handed out again and its smallest lost update in
//! words. The Playwright spec tests/e2e/specs/explore-workers.spec.ts holds the page's table,
//! filled by its Web Workers, to the same file, cell for cell, so the page and the CLI cannot
//! drift apart. After an intended model change: `UPDATE_GOLDEN=1 cargo test --test explore_table`.

mod golden_file;

use std::process::Command;

use locklab::scenario::fault;
use serde_json::Value;

const GOLDEN: &str = "tests/golden/explore-table.txt";

/// A cell of the CLI's JSON as one line of the golden file.
fn line(c: &Value) -> String {
    let n = |k: &str| c[k].as_u64().unwrap_or_else(|| panic!("{k} in {c}"));
    let classes: Vec<String> =
        ["lost_update", "token_repeated", "two_believers", "never_granted", "safe"].iter().map(|k| c["classes"][k].to_string()).collect();
    let smallest = match &c["smallest"] {
        Value::Null => "none".to_string(),
        s => {
            let s = locklab::scenario::parse(&s.to_string()).expect("the smallest lost update is a scenario");
            s.faults.iter().map(fault::words).collect::<Vec<_>>().join("; ")
        }
    };
    let fencing = if c["fencing"].as_bool().unwrap() { "on" } else { "off" };
    format!(
        "{} {fencing} runs={} classes={} tokens={} smallest={smallest}\n",
        c["row"].as_str().unwrap(),
        n("runs"),
        classes.join(" "),
        n("token_repeats")
    )
}

#[test]
fn the_clis_table_is_the_golden_file_the_page_is_held_to() {
    let out = Command::new(env!("CARGO_BIN_EXE_locklab")).args(["explore", "--table", "--json"]).output().expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let cells = v["cells"].as_array().expect("cells");
    assert_eq!(cells.len(), 2 * locklab::explore::table::rows().len());
    let current: String = cells.iter().map(line).collect();
    assert!(current.lines().any(|l| !l.ends_with("smallest=none")), "some cell lost an update: {current}");
    golden_file::check(GOLDEN, &current, "UPDATE_GOLDEN=1 cargo test --test explore_table");
}
