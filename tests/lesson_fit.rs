//! Richer slides fit the stage (issue 36, item 3): every step of every built-in lesson with
//! blocks (list, definitions, code, figure), its words and blocks within its panel's box at
//! 1280×720 and 1920×1080 by the native estimate (`lesson::fit`), and no code line wider than
//! its box. The estimates for every step go to target/lesson-fit.md; tests/e2e/specs/lesson.spec.ts measures the
//! steps with blocks as Chromium renders them.

use std::path::PathBuf;

use locklab::lesson::{builtin, fit, parse};

fn out_path() -> PathBuf {
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"), PathBuf::from);
    target.join("lesson-fit.md")
}

#[test]
fn every_built_in_step_fits_the_lecture_stage_at_both_sizes() {
    let lessons = builtin::compiled();
    let table = fit::table(&lessons);
    println!("{table}");
    let path = out_path();
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, &table).unwrap();
    for l in &lessons {
        assert_eq!(fit::refusal(l), None, "{}", l.id);
    }
    // The blocks are there, where they teach.
    let with =
        |id: &str, f: &dyn Fn(&locklab::lesson::LessonStep) -> bool| lessons.iter().find(|l| l.id == id).unwrap().steps.iter().any(f);
    assert!(with("leases", &|s| s.blocks.code.as_ref().is_some_and(|c| c.lines.iter().any(|l| l.contains("redis.call(\"del\",KEYS[1])")))));
    assert!(with("why-fencing", &|s| s.blocks.code.as_ref().is_some_and(|c| c.lines.iter().any(|l| l.contains("highest_token <= $1")))));
    assert!(with("why-fencing", &|s| s.blocks.definitions.iter().any(|d| d.term == "fencing token")));
    assert!(with("clocks", &|s| !s.blocks.list.is_empty()));
    assert!(lessons.iter().flat_map(|l| &l.steps).filter(|s| s.blocks.figure.is_some()).count() >= 2);
}

/// A lesson of one step with `blocks` (JSON fields) on a slide.
fn slide(blocks: &str) -> String {
    format!(r#"{{"version": 1, "title": "t", "steps": [{{"scenario": "happy-path-redis", "text": "x", "slide": true, {blocks}}}]}}"#)
}

#[test]
fn too_much_is_refused_with_its_place() {
    let long_line = format!(r#""code": {{"language": "text", "lines": ["{}"]}}"#, "x".repeat(60));
    let l = parse(&slide(&long_line)).unwrap();
    assert_eq!(fit::refusal(&l), None, "60 characters fit a slide");
    // Beside a figure, code has 45% of the slide.
    let beside = format!(
        r#""code": {{"language": "text", "lines": ["{}"]}}, "figure": {{"builtin": "redis-gc-pause", "at_ms": 1000}}"#,
        "x".repeat(60)
    );
    let why = fit::refusal(&parse(&slide(&beside)).unwrap()).unwrap();
    assert!(why.starts_with("steps[0].code.lines[0]: ") && why.contains("1280×720"), "{why}");
    // Twelve long items and a long text on a step beside its diagram: too tall.
    let text = "word ".repeat(110);
    let items: Vec<String> = (0..6).map(|i| format!("\"{i} {}\"", "item ".repeat(17))).collect();
    let tall = format!(
        r#"{{"version": 1, "title": "t", "steps": [{{"scenario": "happy-path-redis", "text": "{}", "list": [{}]}}]}}"#,
        text.trim(),
        items.join(", ")
    );
    let why = fit::refusal(&parse(&tall).unwrap()).unwrap();
    assert!(why.starts_with("steps[0]: its words need about ") && why.contains("a step beside its diagram"), "{why}");
}

#[test]
fn bad_blocks_name_their_field_path() {
    let error_of = |blocks: &str| parse(&slide(blocks)).map(|_| ()).unwrap_err().to_string();
    let cases = [
        (
            r#""code": {"language": "cobol", "lines": ["x"]}"#,
            "steps[0].code.language: unknown language \"cobol\"; expected lua, sql, go, text",
        ),
        (
            r#""code": {"language": "lua", "lines": []}"#,
            "steps[0].code.lines: 0 lines: at most 12, and at least 1 (leave the field out for none)",
        ),
        (
            r#""code": {"language": "lua", "lines": ["\tx"]}"#,
            "steps[0].code.lines[0]: holds '\\t': indent with spaces, one line per string",
        ),
        (r#""list": ["a", ""]"#, "steps[0].list[1]: must not be empty"),
        (r#""list": ["a\nb"]"#, "steps[0].list[0]: must be one line (no line break)"),
        (r#""definitions": [{"term": "lease"}]"#, "steps[0].definitions[0]: missing field `meaning`"),
        (r#""figure": {"builtin": "nope", "at_ms": 0}"#, "steps[0].figure.builtin: no built-in scenario \"nope\" (see `locklab list`)"),
        (
            r#""figure": {"builtin": "redis-gc-pause", "at_ms": 99999999}"#,
            "steps[0].figure.at_ms: 99999999 is after the run ends: must be at most 20000",
        ),
        (r#""figure": {"builtin": "redis-gc-pause", "at": 5}"#, "steps[0].figure.at: unknown field `at`"),
    ];
    for (blocks, want) in cases {
        let got = error_of(blocks);
        assert!(got.starts_with(want), "{blocks}\n got: {got}\nwant: {want}");
    }
    let long = format!(r#""code": {{"language": "go", "lines": ["{}"]}}"#, "x".repeat(61));
    assert!(error_of(&long).starts_with("steps[0].code.lines[0]: 61 characters: a line of code has at most 60"));
    let many = format!(r#""list": [{}]"#, ["\"i\""; 7].join(", "));
    assert!(error_of(&many).starts_with("steps[0].list: 7 items: at most 6"));
}
