//! `locklab`: run a scenario file or a built-in and print its verdict (SCENARIO_FORMAT.md,
//! "The CLI"). Exit 0 when the scenario ran (safe or not), 2 for any input error.

use std::process::ExitCode;

use locklab::lab;
use locklab::scenario::{catalog, parse, Approach, Scenario};

const USAGE: &str = "usage: locklab run (FILE | --builtin ID) [--fencing on|off] [--seed N] [--json | --trace]\n       locklab compare (FILE | --builtin ID) --with APPROACH [--fencing on|off] [--json]\n       locklab list\n       locklab bench [ITERATIONS]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match cli(&args) {
        Ok(out) => {
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("locklab: {message}");
            ExitCode::from(2)
        }
    }
}

/// Runs the command line; `Err` is the one message for stderr.
fn cli(args: &[String]) -> Result<String, String> {
    match args.first().map(String::as_str) {
        Some("list") if args.len() == 1 => Ok(catalog::all().iter().map(|s| format!("{}\t{}\n", s.id, s.title)).collect()),
        Some("list") => Err(format!("list: unexpected argument \"{}\"\n{USAGE}", args[1])),
        Some("run") => run(&args[1..]),
        Some("compare") => compare(&args[1..]),
        Some("bench") => bench(args.get(1).map(String::as_str)),
        Some(other) => Err(format!("unknown command \"{other}\"\n{USAGE}")),
        None => Err(format!("missing command\n{USAGE}")),
    }
}

fn run(args: &[String]) -> Result<String, String> {
    let mut source: Option<Scenario> = None;
    let mut fencing: Option<bool> = None;
    let mut seed: Option<u64> = None;
    let mut json = false;
    let mut narrate = false;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |flag: &str| it.next().cloned().ok_or_else(|| format!("{flag}: missing value\n{USAGE}"));
        match arg.as_str() {
            "--builtin" => {
                let id = value("--builtin")?;
                let s = catalog::get(&id).ok_or_else(|| format!("--builtin: no built-in scenario \"{id}\" (see `locklab list`)"))?;
                set_source(&mut source, s)?;
            }
            "--fencing" => {
                fencing = Some(match value("--fencing")?.as_str() {
                    "on" => true,
                    "off" => false,
                    v => return Err(format!("--fencing: expected on or off, got \"{v}\"")),
                })
            }
            "--seed" => {
                let v = value("--seed")?;
                seed = Some(v.parse().map_err(|_| format!("--seed: \"{v}\" is not an unsigned 64-bit integer"))?);
            }
            "--json" => json = true,
            "--trace" => narrate = true,
            flag if flag.starts_with("--") => return Err(format!("unknown flag \"{flag}\"\n{USAGE}")),
            path => {
                let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: cannot read: {e}"))?;
                let s = parse(&text).map_err(|e| format!("{path}: {e}"))?;
                set_source(&mut source, s)?;
            }
        }
    }
    let mut scenario = source.ok_or_else(|| format!("run: give a scenario FILE or --builtin ID\n{USAGE}"))?;
    if let Some(f) = fencing {
        scenario.storage.fencing = f;
    }
    if let Some(s) = seed {
        scenario.seed = s;
    }
    let run = lab::run(&scenario);
    if json {
        let mut out = serde_json::to_string_pretty(&run.verdict).expect("verdict serializes");
        out.push('\n');
        return Ok(out);
    }
    if narrate {
        return Ok(story(&run));
    }
    Ok(summary(&run))
}

/// `locklab compare`: the scenario and its counterpart on another approach, side by side.
fn compare(args: &[String]) -> Result<String, String> {
    let mut source: Option<Scenario> = None;
    let mut with: Option<Approach> = None;
    let mut fencing: Option<bool> = None;
    let mut json = false;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |flag: &str| it.next().cloned().ok_or_else(|| format!("{flag}: missing value\n{USAGE}"));
        match arg.as_str() {
            "--builtin" => {
                let id = value("--builtin")?;
                let s = catalog::get(&id).ok_or_else(|| format!("--builtin: no built-in scenario \"{id}\" (see `locklab list`)"))?;
                set_source(&mut source, s)?;
            }
            "--with" => {
                let id = value("--with")?;
                let ids: Vec<&str> = Approach::ALL.iter().map(|a| a.id()).collect();
                with = Some(
                    locklab::compare::approach_by_id(&id)
                        .ok_or_else(|| format!("--with: unknown approach \"{id}\" (one of {})", ids.join(", ")))?,
                );
            }
            "--fencing" => fencing = Some(on_off("--fencing", &value("--fencing")?)?),
            "--json" => json = true,
            flag if flag.starts_with("--") => return Err(format!("unknown flag \"{flag}\"\n{USAGE}")),
            path => {
                let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: cannot read: {e}"))?;
                let s = parse(&text).map_err(|e| format!("{path}: {e}"))?;
                set_source(&mut source, s)?;
            }
        }
    }
    let mut scenario = source.ok_or_else(|| format!("compare: give a scenario FILE or --builtin ID\n{USAGE}"))?;
    let with = with.ok_or_else(|| format!("--with: missing; name the approach to compare with\n{USAGE}"))?;
    if let Some(f) = fencing {
        scenario.storage.fencing = f;
    }
    let c = locklab::compare::compare(&scenario, with).map_err(|e| {
        if e.path == "with" {
            format!("--with: {}", e.message)
        } else {
            e.to_string()
        }
    })?;
    if json {
        let v = serde_json::json!({
            "summary": c.summary,
            "left": c.left.verdict,
            "right": c.right.verdict,
            "not_applicable": c.not_applicable,
            "notes": c.notes,
        });
        let mut out = serde_json::to_string_pretty(&v).expect("comparison serializes");
        out.push('\n');
        return Ok(out);
    }
    let mut out = format!("{}\n\n", c.summary);
    out += &summary(&c.left);
    out += "\n";
    out += &summary(&c.right);
    for line in c.not_applicable.iter().chain(&c.notes) {
        out += &format!("\n{line}");
    }
    if !c.not_applicable.is_empty() || !c.notes.is_empty() {
        out.push('\n');
    }
    Ok(out)
}

fn on_off(flag: &str, v: &str) -> Result<bool, String> {
    match v {
        "on" => Ok(true),
        "off" => Ok(false),
        v => Err(format!("{flag}: expected on or off, got \"{v}\"")),
    }
}

/// Every event with its caption, one a line: the whole story in words.
fn story(run: &lab::Run) -> String {
    let approach = run.scenario.approach;
    run.trace
        .events
        .iter()
        .enumerate()
        .map(|(i, e)| format!("{i:>5} {:>7} ms  {}\n", e.at_ms, locklab::narrate::caption(&run.trace, approach, e)))
        .collect()
}

/// Times every built-in natively (see src/bench.rs).
fn bench(iterations: Option<&str>) -> Result<String, String> {
    let n = match iterations {
        None => 200,
        Some(v) => v.parse().map_err(|_| format!("bench: \"{v}\" is not a number of iterations"))?,
    };
    let start = std::time::Instant::now();
    let now = move || start.elapsed().as_secs_f64() * 1000.0;
    Ok(locklab::bench::report(&locklab::bench::catalog(n, &now)))
}

fn set_source(slot: &mut Option<Scenario>, s: Scenario) -> Result<(), String> {
    if slot.is_some() {
        return Err(format!("run: give one scenario (a FILE or --builtin ID), not two\n{USAGE}"));
    }
    *slot = Some(s);
    Ok(())
}

/// The readable summary printed without `--json`.
fn summary(run: &lab::Run) -> String {
    let v = &run.verdict;
    let tok = |t: Option<u64>| v.approach.token_label(t);
    let mut out =
        format!("{} ({}, fencing {}, seed {})\n", run.scenario.title, v.approach.id(), if v.fencing { "on" } else { "off" }, v.seed);
    out += &format!(
        "verdict: {}\n",
        if v.safe { "SAFE (no stale write accepted)" } else { "UNSAFE (a stale write was accepted: lost update)" }
    );
    for g in &v.grants {
        out += &format!("  grant  {:>7} ms  {} ({})\n", g.at_ms, g.client, tok(g.token));
    }
    for w in &v.writes {
        let result = match (w.accepted, w.stale) {
            (true, true) => "STALE, ACCEPTED",
            (true, false) => "accepted",
            (false, _) => "rejected",
        };
        let extra = if w.after_takeover && !w.stale { " (after takeover)" } else { "" };
        out += &format!("  write  {:>7} ms  {} ({}) {result}{extra}\n", w.at_ms, w.client, tok(w.token));
    }
    for o in &v.overlaps {
        out += &format!("  overlap {}–{} ms: {} all believed they held the lock\n", o.from_ms, o.to_ms, o.clients.join(", "));
    }
    for f in &v.findings {
        out += &format!("  finding at {} ms: {}\n", f.at_ms, f.text);
    }
    out += &format!(
        "stale writes accepted {}, rejected {}; most concurrent holders {}\n",
        v.stale_writes_accepted, v.stale_writes_rejected, v.max_concurrent_holders
    );
    if let Some(t) = v.truncated_at_ms {
        out += &format!(
            "note: the run reached the limit of {} trace events at {t} ms and was judged up to there\n",
            locklab::scenario::limits::MAX_TRACE_EVENTS
        );
    }
    if let Some(m) = run.expect_mismatches() {
        if m.is_empty() {
            out += "matches the scenario's expect block\n";
        } else {
            for m in m {
                out += &format!("differs from expect: {} expected {}, got {}\n", m.field, m.expected, m.actual);
            }
        }
    }
    out
}
