//! The CLI contract: exit codes, stdout JSON, one stderr message naming the problem.

use std::process::Command;

fn locklab(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_locklab")).args(args).output().expect("runs");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

#[test]
fn json_verdict_flips_with_fencing() {
    let (code, out, err) = locklab(&["run", "--builtin", "redis-gc-pause", "--fencing", "off", "--json"]);
    assert_eq!((code, err.as_str()), (0, ""));
    let v: serde_json::Value = serde_json::from_str(&out).expect("stdout is the verdict JSON alone");
    assert_eq!(v["safe"], false);
    assert!(v["stale_writes_accepted"].as_u64().unwrap() >= 1);
    assert_eq!(v["id"], "redis-gc-pause");
    let (code, out, _) = locklab(&["run", "--builtin", "redis-gc-pause", "--fencing", "on", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!((v["safe"].as_bool(), v["stale_writes_accepted"].as_u64()), (Some(true), Some(0)));
    assert!(v["stale_writes_rejected"].as_u64().unwrap() >= 1);
    assert!(v["findings"][0]["event"].is_u64());
}

#[test]
fn list_prints_ids_with_titles_grouped_by_approach() {
    let (code, out, _) = locklab(&["list"]);
    assert_eq!(code, 0);
    assert!(out.lines().any(|l| l.starts_with("redis-gc-pause\t")));
    // Every built-in once, under its approach's heading (or the outages'), every approach a heading.
    let mut group = String::new();
    let mut seen = Vec::new();
    for l in out.lines() {
        match l.strip_prefix("# ") {
            Some(h) => group = h.to_string(),
            None => seen.push((group.clone(), l.split('\t').next().unwrap().to_string())),
        }
    }
    let all = locklab::scenario::catalog::all();
    assert_eq!(seen.len(), all.len());
    for s in all {
        let (g, _) = seen.iter().find(|(_, id)| *id == s.id).unwrap_or_else(|| panic!("{} not listed", s.id));
        let want = if locklab::scenario::catalog::is_outage(&s.id) {
            "Real outages".to_string()
        } else {
            format!("{} ({})", s.approach.label(), s.approach.id())
        };
        assert_eq!(*g, want, "{}", s.id);
    }
    for a in locklab::scenario::Approach::ALL {
        assert!(out.contains(&format!("# {} ({})\n", a.label(), a.id())), "{}", a.id());
    }
}

#[test]
fn input_errors_exit_2_with_one_message() {
    for (args, needle) in [
        (vec!["run", "--builtin", "nope"], "--builtin: no built-in scenario \"nope\""),
        (vec!["run", "--builtin", "redis-gc-pause", "--fencing", "maybe"], "--fencing"),
        (vec!["run", "--builtin", "redis-gc-pause", "--seed", "-1"], "--seed"),
        (vec!["run", "/nonexistent/file.json"], "cannot read"),
        (vec!["run", "--frobnicate"], "unknown flag"),
        (vec!["fly"], "unknown command"),
        // `locklab room` refuses before it listens (docs/ROOM.md).
        (vec!["room", "--dist", "/nonexistent"], "--dist: /nonexistent has no index.html"),
        (vec!["room", "--port", "http"], "--port"),
        (vec!["room", "--host", "everywhere"], "--host"),
    ] {
        let (code, out, err) = locklab(&args);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty());
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn invalid_file_names_the_field() {
    let dir = std::env::temp_dir().join(format!("locklab-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.json");
    std::fs::write(
        &path,
        r#"{"version": 1, "approach": "redis", "faults": [{"at_ms": 1, "kind": "pause", "node": "Z", "duration_ms": 5}]}"#,
    )
    .unwrap();
    let (code, _, err) = locklab(&["run", path.to_str().unwrap(), "--json"]);
    assert_eq!(code, 2);
    assert!(err.contains("faults[0].node: no node named \"Z\""), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1);
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("locklab-cli-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn svg_writes_the_figure_at_the_cursor() {
    let dir = temp_dir("svg");
    let path = dir.join("gc.svg");
    let (code, out, err) = locklab(&["svg", "--builtin", "redis-gc-pause", "--at-ms", "15505", "-o", path.to_str().unwrap()]);
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
    let svg = std::fs::read_to_string(&path).unwrap();
    roxmltree::Document::parse(&svg).expect("well-formed");
    assert!(svg.contains(">15.505 s</text>") && svg.contains("STALE, accepted") && svg.contains("<style>"));
    // Fencing on: the same moment, the write rejected.
    let (code, on, _) = locklab(&["svg", "--builtin", "redis-gc-pause", "--fencing", "on", "--at-ms", "15505", "-o", "-"]);
    assert_eq!(code, 0);
    assert!(on.contains("glyph rejected") && !on.contains("STALE") && on.contains("fencing on"));
}

#[test]
fn svg_defaults_to_the_end_and_takes_files_seeds_and_lecture() {
    let (code, out, _) = locklab(&["svg", "--builtin", "redis-gc-pause", "-o", "-"]);
    assert_eq!(code, 0);
    // The end of the story's axis (issue 36: the story's last event at 15.5 s, a tenth more,
    // in whole seconds), not the scenario's 20 s.
    assert!(out.starts_with("<?xml") && out.contains(">18 s</text>"), "the cursor at the end of the axis");
    let dir = temp_dir("svg-file");
    let path = dir.join("s.json");
    std::fs::write(&path, r#"{"version": 1, "id": "mine", "approach": "redis", "duration_ms": 8000}"#).unwrap();
    let (code, out, err) = locklab(&["svg", path.to_str().unwrap(), "--seed", "7", "--lecture", "--width", "900", "-o", "-"]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(out.contains(r#"width="900""#) && out.contains(r#"class="lecture""#) && out.contains("seed 7 · at 4 s"));
}

#[test]
fn svg_errors_name_the_argument() {
    let dir = temp_dir("svg-errors");
    let unwritable = dir.join("no/such/dir/x.svg");
    for (args, needle) in [
        (vec!["svg", "--builtin", "redis-gc-pause"], "svg: give an output file with -o"),
        (vec!["svg", "-o", "x.svg"], "svg: give a scenario FILE or --builtin ID"),
        (vec!["svg", "--builtin", "redis-gc-pause", "--at-ms", "soon", "-o", "-"], "--at-ms: \"soon\" is not a whole number"),
        (vec!["svg", "--builtin", "redis-gc-pause", "--at-ms", "20001", "-o", "-"], "--at-ms: 20001 is outside the run (0 to 20000 ms)"),
        (vec!["svg", "--builtin", "redis-gc-pause", "--at-ms", "-1", "-o", "-"], "--at-ms: -1 is outside the run"),
        (vec!["svg", "--builtin", "redis-gc-pause", "--width", "20", "-o", "-"], "--width: expected 300 to 8000 px"),
        (vec!["svg", "--builtin", "redis-gc-pause", "-o"], "-o: missing value"),
        (vec!["svg", "--builtin", "redis-gc-pause", "--json", "-o", "-"], "unknown flag \"--json\""),
        (vec!["svg", "--builtin", "nope", "-o", "-"], "--builtin: no built-in scenario \"nope\""),
        (vec!["svg", "--builtin", "redis-gc-pause", "-o", unwritable.to_str().unwrap()], "-o: cannot write"),
        (vec!["svg", "--builtin", "redis-gc-pause", "--strip", "--animated", "-o", "-"], "--strip, --animated: give one of them"),
        (vec!["svg", "--builtin", "redis-gc-pause", "--strip", "--at-ms", "5", "-o", "-"], "--strip: shows the whole run at its own size"),
        (vec!["svg", "--builtin", "redis-gc-pause", "--animated", "--width", "900", "-o", "-"], "--animated: shows the whole run"),
    ] {
        let (code, out, err) = locklab(&args);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty(), "{args:?}");
        assert!(err.starts_with("locklab: ") && err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn compare_prints_both_sides_the_not_applicable_list_and_the_one_liner() {
    let (code, out, err) = locklab(&["compare", "--builtin", "redlock-clock-jump", "--with", "etcd", "--fencing", "on"]);
    assert_eq!((code, err.as_str()), (0, ""));
    let first = out.lines().next().unwrap();
    assert!(first.starts_with("Redlock + fencing: 2 holders at ") && first.ends_with("; etcd + fencing: one holder at a time"), "{first}");
    assert!(out.contains("(redlock, fencing on, seed 11)") && out.contains("(etcd, fencing on, seed 11)"), "{out}");
    // Carried by role: the same clock jump on etcd's third server (issue 22, item 5).
    assert!(out.contains("clock jump redis-3 by +10 s at 1.5 s: carried as clock jump etcd-3 by +10 s at 1.5 s"), "{out}");

    let (code, out, _) = locklab(&["compare", "--builtin", "redis-gc-pause", "--with", "etcd", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).expect("stdout is the comparison JSON alone");
    assert_eq!((v["left"]["approach"].as_str(), v["right"]["approach"].as_str()), (Some("redis"), Some("etcd")));
    assert_eq!(v["right"]["seed"], 42);
    assert_eq!(v["not_applicable"].as_array().map(Vec::len), Some(0), "a client pause applies to both");
    assert!(v["summary"].as_str().unwrap().starts_with("Redis: 2 holders at 10.104 s, stale write accepted at 15.505 s; etcd: "));
}

#[test]
fn compare_input_errors_name_the_argument() {
    for (args, needle) in [
        (vec!["compare", "--builtin", "redis-gc-pause"], "--with: missing"),
        (vec!["compare", "--builtin", "redis-gc-pause", "--with", "chubby"], "--with: unknown approach \"chubby\""),
        (vec!["compare", "--builtin", "redis-gc-pause", "--with", "redis"], "--with: the scenario already uses redis"),
        (vec!["compare", "--builtin", "redis-gc-pause", "--with", "etcd", "--fencing", "yes"], "--fencing"),
        (vec!["compare", "--with", "etcd"], "compare: give a scenario"),
        (vec!["compare", "--builtin", "nope", "--with", "etcd"], "--builtin: no built-in scenario \"nope\""),
    ] {
        let (code, out, err) = locklab(&args);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty());
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    // A counterpart that cannot exist names its field: a client called "db" on the database side.
    let dir = std::env::temp_dir().join(format!("locklab-cli-compare-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("db-client.json");
    std::fs::write(&path, r#"{"version": 1, "approach": "redis", "clients": [{"name": "db"}]}"#).unwrap();
    let (code, _, err) = locklab(&["compare", path.to_str().unwrap(), "--with", "db-lease"]);
    assert_eq!(code, 2);
    assert!(err.contains("clients[0].name") && err.contains("db-lease"), "{err}");
}

#[test]
fn the_summary_says_what_was_granted_and_when_nobody_got_the_lock() {
    let dir = temp_dir("summary");
    // A file from a Windows editor: a byte-order mark before the JSON.
    let zk = dir.join("zk.json");
    std::fs::write(&zk, "\u{feff}{\"version\": 1, \"approach\": \"zookeeper\", \"lock\": {\"ttl_ms\": 2000}, \"duration_ms\": 5000}")
        .unwrap();
    let (code, out, err) = locklab(&["run", zk.to_str().unwrap()]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(out.contains("asked 2 s, granted 4 s"), "{out}");
    assert!(!out.contains("No client ever got the lock"), "{out}");
    let (_, out, _) = locklab(&["run", zk.to_str().unwrap(), "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["granted_ttl_ms"], 4000);
    // Asked and granted alike: not repeated.
    let (_, out, _) = locklab(&["run", "--builtin", "redis-gc-pause"]);
    assert!(!out.contains("granted 10 s"), "{out}");
    let nobody = dir.join("nobody.json");
    std::fs::write(
        &nobody,
        r#"{"version": 1, "approach": "redis", "clients": [{"name": "A"}], "faults": [{"at_ms": 0, "kind": "crash", "node": "A"}]}"#,
    )
    .unwrap();
    let (code, out, _) = locklab(&["run", nobody.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(out.contains("No client ever got the lock"), "{out}");
}

#[test]
fn a_seed_beyond_64_bits_is_called_too_large() {
    let dir = temp_dir("seed");
    let path = dir.join("seed.json");
    std::fs::write(&path, r#"{"version": 1, "approach": "redis", "seed": 99999999999999999999}"#).unwrap();
    let (code, _, err) = locklab(&["run", path.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("seed: integer too large: must be at most 18446744073709551615"), "{err}");
}

fn json(args: &[&str]) -> serde_json::Value {
    let (code, out, err) = locklab(args);
    assert_eq!((code, err.as_str()), (0, ""), "{args:?}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}\n{out}"))
}

#[test]
fn explore_prints_counts_rate_and_the_shrunk_counterexample_as_json() {
    let v = json(&["explore", "--approach", "redis", "--faults", "pause", "--runs", "2000", "--json"]);
    assert_eq!(v["runs"], 2000);
    let classes = v["classes"].as_object().unwrap();
    let names: Vec<&str> = classes.keys().map(String::as_str).collect();
    for name in ["lost_update", "two_believers", "token_repeated", "never_granted", "safe"] {
        assert!(names.contains(&name), "{names:?}");
    }
    assert_eq!(classes.values().map(|n| n.as_u64().unwrap()).sum::<u64>(), 2000);
    assert!(v["schedules_per_s"].as_f64().unwrap() > 0.0);
    assert_eq!(v["found_class"], "lost_update");
    // Both files are scenarios; the shrunk one has one pause and still loses an update.
    let found = locklab::scenario::parse(&v["found"].to_string()).unwrap();
    let before = locklab::scenario::parse(&v["found_before_shrink"].to_string()).unwrap();
    assert!(found.faults.len() == 1 && found.faults.len() <= before.faults.len(), "{:?}", found.faults);
    assert!(locklab::lab::run(&found).verdict.stale_writes_accepted > 0);
    // Nothing to find: found is null.
    let v = json(&["explore", "--approach", "etcd", "--fencing", "on", "--faults", "clock_jump", "--runs", "300", "--json"]);
    assert_eq!(v["classes"]["lost_update"], 0);
    assert!(v["found"].is_null() == v["found_class"].is_null());
}

#[test]
fn explore_gives_the_same_numbers_on_any_number_of_threads() {
    let mut runs: Vec<serde_json::Value> = ["1", "2", "3"]
        .iter()
        .map(|t| json(&["explore", "--builtin", "redlock-clock-jump", "--runs", "800", "--seed", "5", "--threads", t, "--json"]))
        .collect();
    for v in &mut runs {
        let o = v.as_object_mut().unwrap();
        assert!(o.remove("schedules_per_s").is_some() && o.remove("threads").is_some());
    }
    assert_eq!(runs[0], runs[1]);
    assert_eq!(runs[0], runs[2]);
    assert_ne!(runs[0]["classes"]["safe"], 800, "the mix found something to compare");
}

#[test]
fn explore_writes_the_counterexample_with_o_and_says_so() {
    let dir = temp_dir("explore");
    let path = dir.join("found.json");
    let (code, out, err) =
        locklab(&["explore", "--approach", "db-lease", "--faults", "pause", "--runs", "2000", "-o", path.to_str().unwrap()]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(out.starts_with("db-lease (fencing off): 2,000 schedules of up to 3 of pause on any node, explorer seed 1\n"), "{out}");
    assert!(
        out.contains("  lost_update ") && out.contains(" schedules/s on ") && out.contains("found a lost update in schedule "),
        "{out}"
    );
    assert!(out.contains(&format!("written to {}", path.display())), "{out}");
    let s = locklab::scenario::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert!(s.title.starts_with("Found by the explorer: a lost update"));
    let run = locklab::lab::run(&s);
    assert!(!run.verdict.safe);
    assert_eq!(run.expect_mismatches(), Some(Vec::new()));
}

/// `explore --table` runs the plan (`table::plan()`): the same cells, count for count, as the
/// table module (the page's table asserts the same in src/session/explore/search.rs); text and
/// JSON give counts of N with the mix of each row, never a bare share.
#[test]
fn explore_table_runs_the_plan_with_the_modules_numbers() {
    let v = json(&["explore", "--table", "--runs", "60", "--json"]);
    let measured = locklab::explore::table::measured(Some(60));
    let cells = v["cells"].as_array().unwrap();
    assert_eq!(cells.len(), measured.len());
    for (c, m) in cells.iter().zip(&measured) {
        assert_eq!((c["row"].as_str().unwrap(), c["fencing"].as_bool().unwrap()), (m.row.as_str(), m.fencing));
        assert_eq!(c["runs"], m.runs);
        assert_eq!(c["lost_update"], m.counts.lost_update, "{}", c["row"]);
        assert_eq!(c["token_repeats"], m.token_repeats, "{}", c["row"]);
        assert!(!c["mix"].as_str().unwrap().is_empty() && !c["claim"].as_str().unwrap().is_empty());
    }
    let (code, out, err) = locklab(&["explore", "--table", "--runs", "60"]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(out.contains("Database lease row, released by a plain DELETE [1]"), "{out}");
    assert!(out.contains("[1] default mix: up to 3 faults of every kind"), "{out}");
    assert!(out.contains("  token handed out again") && out.contains(" of 60 ("), "{out}");
    assert!(!out.contains(" 0.0%") || out.contains("0 of 60 (0.0%)"), "a share stands beside its count: {out}");
}

#[test]
fn explore_table_and_sweep() {
    let v = json(&["explore", "--table", "--faults", "pause", "--runs", "400", "--json"]);
    let cells = v["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 2 * locklab::explore::table::rows().len());
    let cell = |row: &str, fencing: bool| cells.iter().find(|c| c["row"] == row && c["fencing"] == fencing).unwrap();
    assert!(cell("redlock", true)["lost_update"].as_u64().unwrap() > 0);
    assert_eq!(cell("zookeeper", true)["lost_update"], 0);
    assert!(cell("zookeeper", true)["smallest"].is_null());
    let smallest = locklab::scenario::parse(&cell("redis", false)["smallest"].to_string()).unwrap();
    assert_eq!(smallest.faults.len(), 1);

    let points = 3;
    let (code, out, err) =
        locklab(&["explore", "--sweep", "pause_ttl=0.5..1.5", "--steps", &points.to_string(), "--approach", "redis", "--runs", "200"]);
    assert_eq!((code, err.as_str()), (0, ""));
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with(&format!("sweep pause_ttl from 0.5 to 1.5 ({points} points), 200 schedules per point")), "{out}");
    assert!(lines[1].contains("redis, fencing off") && lines[1].contains("redis, fencing on"), "{out}");
    // The heading, the column heads, a row per point, the rate.
    assert_eq!(lines.len(), 2 + points + 1, "{out}");
    // The share with its 95% (Wilson) interval: none of 200 is at most 1.9%.
    assert!(lines[2].trim_start().starts_with("0.500") && lines[2].ends_with("0.0% [0.0%, 1.9%]"), "{out}");
    let points = 5;
    let v = json(&["explore", "--sweep", "jump_ms=-20000..20000", "--steps", &points.to_string(), "--runs", "50", "--json"]);
    assert_eq!(v["points"].as_array().unwrap().len(), points);
    assert_eq!(v["series"].as_array().unwrap().len(), locklab::explore::table::rows().len(), "one line per table row");
}

#[test]
fn explore_input_errors_name_the_flag() {
    for (args, needle) in [
        (vec!["explore"], "explore: give a scenario FILE, --builtin ID or --approach NAME"),
        (vec!["explore", "--approach", "chubby"], "--approach: unknown approach \"chubby\" (one of db-lease, redis, redis-replica,"),
        (
            vec!["explore", "--approach", "redis", "--faults", "pause,teleport"],
            "--faults: unknown fault kind \"teleport\" (one of pause, clock_jump,",
        ),
        (vec!["explore", "--approach", "redis", "--max-faults", "0"], "--max-faults: \"0\" is not a number of faults from 1 to 64"),
        (vec!["explore", "--approach", "redis", "--runs", "many"], "--runs: \"many\" is not a number of schedules"),
        (vec!["explore", "--approach", "redis", "--threads", "0"], "--threads: \"0\" is not a number of threads"),
        (vec!["explore", "--approach", "redis", "--seed", "-1"], "--seed: \"-1\" is not an unsigned 64-bit integer"),
        (vec!["explore", "--approach", "redis", "--fencing", "maybe"], "--fencing"),
        (vec!["explore", "--approach", "redis", "--builtin", "redis-gc-pause"], "explore: give one scenario"),
        (vec!["explore", "--approach", "redis", "--frobnicate"], "unknown flag \"--frobnicate\""),
        (vec!["explore", "--table", "--approach", "redis"], "--table: the table runs its own base"),
        (vec!["explore", "--table", "-o", "x.json"], "-o: only a search"),
        (vec!["explore", "--table", "--sweep", "pause_ttl=1..2"], "--table: give either --table or --sweep"),
        (
            vec!["explore", "--sweep", "pause=1..2"],
            "--sweep: expected PARAM=FROM..TO with PARAM one of pause_ttl, jump_ms, drift_ppm, delay_ms",
        ),
        (vec!["explore", "--sweep", "pause_ttl=2..1"], "--sweep: expected PARAM=FROM..TO"),
        (vec!["explore", "--sweep", "drift_ppm=0..900000"], "is not within -500000..500000 ppm"),
        (vec!["explore", "--sweep", "pause_ttl=1..2", "--steps", "1"], "--steps: \"1\" is not a number of points"),
        (vec!["explore", "--approach", "redis", "--runs"], "--runs: missing value"),
    ] {
        let (code, out, err) = locklab(&args);
        assert_eq!(code, 2, "{args:?}: {out}");
        assert!(out.is_empty(), "{args:?}");
        assert!(err.starts_with("locklab: ") && err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn lesson_check_summarises_each_step_or_names_the_field() {
    let (code, out, err) = locklab(&["lesson", "check", "--builtin", "why-fencing"]);
    assert_eq!((code, err.as_str()), (0, ""));
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("Why a lock needs a fencing token (why-fencing): "), "{out}");
    // A line per step, then the fairness table: its head, its rule, the lesson and the course.
    assert_eq!(lines.len(), 1 + locklab::lesson::builtin::get("why-fencing").unwrap().steps.len() + 4);
    assert!(lines.iter().any(|l| l.contains("db-lease-gc-pause (fencing off) at pause (500 ms): UNSAFE; question: 3 choices")), "{out}");
    assert!(lines.iter().any(|l| l.starts_with("| why-fencing | 4 | 3 3 3 3 | ")), "{out}");

    // Every built-in lesson: one table, the course's line last.
    let (code, out, err) = locklab(&["lesson", "check", "--all"]);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    assert!(out.contains("| course | 30 | 30 of 30 have 3 or more | "), "{out}");

    let dir = std::env::temp_dir().join(format!("locklab-lesson-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.json");
    std::fs::write(
        &good,
        "\u{feff}{\"version\": 1, \"title\": \"One\", \"steps\": [{\"scenario\": \"happy-path-etcd\", \"at\": 1000, \"text\": \"t\"}]}",
    )
    .unwrap();
    let (code, out, _) = locklab(&["lesson", "check", good.to_str().unwrap()]);
    assert_eq!((code, out.as_str()), (0, "One (one): 1 steps\n  step  0  happy-path-etcd (fencing off) at 1000 ms: SAFE\n"));

    let bad = dir.join("bad.json");
    let text = r#"{"version": 1, "title": "x", "steps": [{"scenario": "redis-gc-pause", "text": "t",
        "question": {"prompt": "p", "choices": ["a", "b", "c"], "answer": 5}}]}"#;
    std::fs::write(&bad, text).unwrap();
    let (code, out, err) = locklab(&["lesson", "check", bad.to_str().unwrap()]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(err.trim(), format!("locklab: {}: steps[0].question.answer: 5 is out of range: must be 0..=2", bad.display()));
    // A question answered on its asking screen is refused, naming the fact and where it shows:
    // clocks' step 2 asked at the clock step itself, whose caption says the key expires early.
    let spoiled = dir.join("spoiled.json");
    let text = r#"{"version": 1, "title": "x", "steps": [{"scenario": "redis-clock-jump", "at": "clock", "text": "The clock steps.",
        "question": {"prompt": "What happens to A's key?", "choices": ["It expires early", "Nothing", "It lives longer"],
                     "answer": 0, "reveal_at": "takeover", "reveals": ["expires early"]}}]}"#;
    std::fs::write(&spoiled, text).unwrap();
    let (code, out, err) = locklab(&["lesson", "check", spoiled.to_str().unwrap()]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.starts_with("locklab: x: steps[0].question.reveals[0]: \"expires early\" shows on the screen that asks the question, in its caption: \"redis's wall clock jumped 15 s ahead"),
        "{err}"
    );
    for args in [
        vec!["lesson"],
        vec!["lesson", "show", "x"],
        vec!["lesson", "check", "--builtin", "nope"],
        vec!["lesson", "check", "--all", "--builtin", "leases"],
    ] {
        let (code, _, err) = locklab(&args);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.starts_with("locklab: "), "{err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn help_and_version_print_on_stdout_and_exit_0() {
    let (code, out, err) = locklab(&["--help"]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(out.contains("Usage: locklab <COMMAND>"), "{out}");
    for cmd in ["run", "svg", "compare", "explore", "lesson", "list", "bench"] {
        assert!(out.lines().any(|l| l.trim_start().starts_with(cmd)), "{cmd} listed: {out}");
    }
    let (code, out, err) = locklab(&["--version"]);
    assert_eq!((code, out.as_str(), err.as_str()), (0, concat!("locklab ", env!("CARGO_PKG_VERSION"), "\n"), ""));
    // `help explore` and `explore --help` say the same, every flag with its words.
    let (code, help, err) = locklab(&["help", "explore"]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(locklab(&["explore", "--help"]), (0, help.clone(), String::new()));
    assert!(help.contains("Usage: locklab explore [OPTIONS] [FILE]"), "{help}");
    for flag in [
        "--builtin <ID>",
        "--approach <NAME>",
        "--faults <KIND,…>",
        "--max-faults <K>",
        "--table",
        "--sweep <PARAM=FROM..TO>",
        "-o <FOUND.json>",
    ] {
        assert!(help.contains(flag), "{flag}: {help}");
    }
    let (code, out, _) = locklab(&["svg", "--help"]);
    assert!(code == 0 && out.contains("--at-ms <T>") && out.contains("[default: 1280]"), "{out}");
    let (code, out, _) = locklab(&["help", "lesson", "check"]);
    assert!(code == 0 && out.contains("Usage: locklab lesson check [OPTIONS] [FILE]"), "{out}");
}

#[test]
fn a_missing_command_or_argument_names_it_with_the_usage() {
    for (args, first) in [
        (vec![], "locklab: missing command"),
        (vec!["lesson"], "locklab: lesson: missing command"),
        (vec!["list", "x"], "locklab: unexpected argument \"x\""),
        (vec!["run", "a.json", "b.json"], "locklab: unexpected argument \"b.json\""),
        (vec!["bench", "often"], "locklab: ITERATIONS: \"often\" is not a number of iterations"),
    ] {
        let (code, out, err) = locklab(&args);
        assert_eq!((code, out.as_str()), (2, ""), "{args:?}");
        assert_eq!(err.lines().next(), Some(first), "{args:?}: {err}");
    }
    let (_, _, err) = locklab(&["run", "--frobnicate"]);
    assert!(err.contains("Usage: locklab run [OPTIONS] [FILE]"), "{err}");
}

#[test]
fn explore_lists_the_named_properties_one_a_line() {
    let (code, out, err) = locklab(&["explore", "--properties"]);
    assert_eq!((code, err.as_str()), (0, ""));
    let all = locklab::check::properties::all();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), all.len(), "{out}");
    for (line, p) in lines.iter().zip(all) {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!((words[0], words[1]), (p.id, p.kind.id()), "{line}");
        assert!(line.ends_with(p.statement), "{line}");
    }
    let v = json(&["explore", "--properties", "--json"]);
    assert_eq!(v.as_array().unwrap().len(), all.len());
    let (code, _, err) = locklab(&["explore", "--properties", "--builtin", "redis-gc-pause"]);
    assert_eq!(code, 2);
    assert!(err.contains("--properties: lists the named properties; give it alone"), "{err}");
}

#[test]
fn explore_searches_for_any_named_property_and_shrinks_what_shows_it() {
    let v = json(&["explore", "--approach", "redis", "--faults", "pause", "--runs", "1000", "--property", "one-believer", "--json"]);
    assert_eq!((v["property"]["id"].as_str(), v["property"]["kind"].as_str()), (Some("one-believer"), Some("always")));
    assert!(v["shown"].as_u64().unwrap() > 0, "{v}");
    // The shrunk file still breaks the property, at the place the evidence names.
    let found = locklab::scenario::parse(&v["found"].to_string()).unwrap();
    let run = locklab::lab::run(&found);
    let p = locklab::check::properties::by_id("one-believer").unwrap();
    let e = p.discovery(&run.scenario, &run.trace, &run.verdict).expect("the shrunk run still shows it");
    assert_eq!(v["evidence"]["at_ms"].as_i64(), e.at_ms);
    assert!(found.title.contains("at most one client believes it holds the lock"), "{}", found.title);
    // A sometimes-property with fencing on, as text.
    let (code, out, _) = locklab(&[
        "explore",
        "--approach",
        "redis",
        "--fencing",
        "on",
        "--faults",
        "pause",
        "--runs",
        "500",
        "--property",
        "stale-write-rejected",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("property stale-write-rejected (sometimes): fencing rejects a stale write\n  seen in "), "{out}");
    assert!(out.contains("found a run where fencing rejects a stale write in schedule "), "{out}");
    // Nothing to find is said as such.
    let (_, out, _) = locklab(&["explore", "--approach", "redis", "--faults", "crash", "--runs", "200", "--property", "lock-granted"]);
    assert!(out.contains("nothing found: it came true in every one of the 200 schedules"), "{out}");
    for (args, want) in [
        (vec!["explore", "--approach", "redis", "--property", "nope"], "--property: unknown property \"nope\" (one of no-lost-update,"),
        (vec!["explore", "--table", "--property", "one-believer"], "--property: a property is searched for in one scenario"),
    ] {
        let (code, _, err) = locklab(&args);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

#[test]
fn svg_writes_the_strip_and_the_animation_of_a_whole_run() {
    let dir = temp_dir("svg-story");
    let path = dir.join("strip.svg");
    let (code, out, err) = locklab(&["svg", "--builtin", "redis-gc-pause", "--strip", "-o", path.to_str().unwrap()]);
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
    let strip = std::fs::read_to_string(&path).unwrap();
    roxmltree::Document::parse(&strip).expect("well-formed");
    assert_eq!(strip.matches(r#"class="story-panel""#).count(), 8, "redis-gc-pause tells its story in 8 key moments");
    assert!(strip.contains("Outcome: Lost update"));
    let (code, animated, _) = locklab(&["svg", "--builtin", "redis-gc-pause", "--fencing", "on", "--animated", "-o", "-"]);
    assert_eq!(code, 0);
    roxmltree::Document::parse(&animated).expect("well-formed");
    assert!(animated.contains("@keyframes sweep") && animated.contains("fencing on"));
    let (_, again, _) = locklab(&["svg", "--builtin", "redis-gc-pause", "--fencing", "on", "--animated", "-o", "-"]);
    assert_eq!(animated, again, "the same bytes every time");
}

#[test]
fn lesson_handout_writes_the_page_and_names_what_is_missing() {
    let (code, out, err) = locklab(&["lesson", "handout", "--builtin", "why-fencing", "-o", "-"]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(out.starts_with("<!DOCTYPE html>") && out.contains("<figure class=\"strip\">"));
    for (args, needle) in [
        (vec!["lesson", "handout", "--builtin", "why-fencing"], "lesson handout: give an output file with -o"),
        (vec!["lesson", "handout", "-o", "-"], "lesson handout: give a lesson FILE or --builtin ID"),
    ] {
        let (code, out, err) = locklab(&args);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty() && err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn compare_set_puts_two_variants_of_one_approach_side_by_side() {
    let file = "tests/scenarios/variants/redlock-checks-elapsed.json";
    let (code, out, err) = locklab(&["compare", file, "--set", "lock.check_elapsed=false"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with(
            "Redlock (check_elapsed true): one holder at a time; Redlock (check_elapsed false): stale write accepted at 16.003 s\n"
        ),
        "{out}"
    );
    for (args, want) in [
        (vec!["compare", file, "--set", "lock.check_elapsed=yes"], "--set: \"yes\" is not true or false"),
        (vec!["compare", file, "--set", "lock.tick_ms=5"], "--set: redlock has no setting lock.tick_ms"),
        (vec!["compare", file, "--set", "check_elapsed"], "--set: expected lock.SETTING=VALUE"),
        (vec!["compare", file, "--set", "lock.check_elapsed=false", "--with", "etcd"], "--with, --set: give one of them"),
    ] {
        let (code, _, err) = locklab(&args);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

#[test]
fn check_history_judges_a_history_file_and_names_a_bad_line() {
    let dir = temp_dir("history");
    let run = dir.join("run.jsonl");
    let (code, text, err) = locklab(&["run", "--builtin", "redis-gc-pause", "--fencing", "off", "--history"]);
    assert_eq!((code, err.as_str()), (0, ""));
    std::fs::write(&run, &text).unwrap();
    let (code, out, err) = locklab(&["check-history", run.to_str().unwrap(), "--json"]);
    assert_eq!((code, err.as_str()), (0, ""));
    let v: serde_json::Value = serde_json::from_str(&out).expect("stdout is the verdict JSON alone");
    assert_eq!((v["safe"].as_bool(), v["id"].as_str()), (Some(false), Some("redis-gc-pause")));
    let (code, out, _) = locklab(&["check-history", run.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(out.starts_with(&format!("history {} (drawn as redis, fencing off): 2 processes\nverdict: UNSAFE", run.display())), "{out}");
    let bad = dir.join("bad.jsonl");
    std::fs::write(&bad, format!("{text}{{\"t\": 20000, \"process\": \"A\", \"op\": \"write\", \"result\": \"maybe\"}}\n")).unwrap();
    let (code, out, err) = locklab(&["check-history", bad.to_str().unwrap()]);
    let line = text.lines().count() + 1;
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(
        err.trim_end(),
        format!("locklab: {}: line {line}, result: unknown variant `maybe`, expected one of `accepted`, `rejected`", bad.display())
    );
}
