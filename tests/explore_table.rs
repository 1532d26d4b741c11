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

/// docs/MODEL.md's table of the seed's table, row by row: its label, its mix's name, N, and with fencing off and
/// on the lost updates and the tokens handed out again, as the golden file has them, and the
/// sentence under it with the whole count of schedules. Written by hand, held here so that it
/// cannot drift from what the CLI measures.
#[test]
fn model_md_says_what_the_golden_table_holds() {
    let golden = std::fs::read_to_string(GOLDEN).expect("the golden file");
    let cells: Vec<(u64, u64, u64)> = golden
        .lines()
        .map(|l| {
            let field = |k: &str| l.split(' ').find_map(|w| w.strip_prefix(k)).unwrap_or_else(|| panic!("{k} in {l}")).to_string();
            let number = |k: &str| field(k).parse::<u64>().unwrap_or_else(|e| panic!("{k} in {l}: {e}"));
            (number("runs="), number("classes="), number("tokens="))
        })
        .collect();
    let thousands = |n: u64| locklab::timeline::draw::words::thousands(n as usize);
    let want: Vec<String> = locklab::explore::table::plan()
        .iter()
        .zip(cells.chunks(2))
        .map(|(p, c)| {
            let n = c[0].0;
            format!(
                "| {} | {} | {} | {}, {} | {}, {} |",
                p.row.label,
                p.mix_words.split(':').next().unwrap_or_default(),
                thousands(n),
                thousands(c[0].1),
                thousands(c[0].2),
                thousands(c[1].1),
                thousands(c[1].2)
            )
        })
        .collect();
    let doc = std::fs::read_to_string("docs/MODEL.md").expect("docs/MODEL.md");
    let head = doc.find("| row (label) | mix | N |").expect("MODEL.md's table");
    let have: Vec<String> = doc[head..].lines().skip(2).take_while(|l| l.starts_with('|')).map(str::to_string).collect();
    assert_eq!(have.join("\n"), want.join("\n"), "docs/MODEL.md's table against {GOLDEN}");
    let total: u64 = cells.iter().map(|c| c.0).sum();
    assert!(doc.contains(&format!("seed 1: {} schedules", thousands(total))), "MODEL.md's count of schedules: {}", thousands(total));
}
