//! `locklab`: run a scenario file or a built-in and print its verdict (SCENARIO_FORMAT.md,
//! "The CLI"), draw it as an SVG figure, or explore its fault space (explore.rs). Exit 0 when the scenario ran (safe or not), 2 for
//! any input error.

// A file beside this one would be taken for a binary of its own (src/bin/*.rs). Cargo also
// builds this binary for the wasm32 browser tests; exploring runs on threads (rayon, native
// only), so there the command is left out rather than the tests' build broken.
#[cfg(not(target_arch = "wasm32"))]
#[path = "locklab/explore.rs"]
mod explore;
#[path = "locklab/lesson.rs"]
mod lesson;

use std::process::ExitCode;

use locklab::lab;
use locklab::scenario::{catalog, parse, Approach, Scenario};
use locklab::timeline::draw::export;
use locklab::timeline::Timeline;

const USAGE: &str = "usage: locklab run (FILE | --builtin ID) [--fencing on|off] [--seed N] [--json | --trace]
       locklab svg (FILE | --builtin ID) [--fencing on|off] [--seed N] [--at-ms T] [--lecture] [--width PX] -o (OUT.svg | -)
       locklab compare (FILE | --builtin ID) --with APPROACH [--fencing on|off] [--seed N] [--json]
       locklab explore (FILE | --builtin ID | --approach NAME) [--fencing on|off] [--faults KIND,…] [--max-faults K]
                       [--runs N] [--seed S] [--threads T] [--json] [-o FOUND.json]
       locklab explore --table [--faults KIND,…] [--max-faults K] [--runs N] [--seed S] [--threads T] [--json]
       locklab explore --sweep PARAM=FROM..TO [--steps K] [FILE | --builtin ID | --approach NAME] [--fencing on|off]
                       [--runs N] [--seed S] [--threads T] [--json]
       locklab lesson check (FILE | --builtin ID)
       locklab list
       locklab bench [ITERATIONS]";

/// Narrowest and widest figure `--width` accepts (the diagram's layout needs 300 px).
const WIDTHS: (f64, f64) = (300.0, 8000.0);

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
        Some("svg") => svg(&args[1..]),
        Some("compare") => compare(&args[1..]),
        #[cfg(not(target_arch = "wasm32"))]
        Some("explore") => explore::explore(&args[1..]),
        Some("lesson") => lesson::lesson(&args[1..]),
        Some("bench") => bench(args.get(1).map(String::as_str)),
        Some(other) => Err(format!("unknown command \"{other}\"\n{USAGE}")),
        None => Err(format!("missing command\n{USAGE}")),
    }
}

/// The scenario a command works on: a FILE or --builtin ID, with --fencing and --seed applied.
#[derive(Default)]
struct ScenarioArgs {
    source: Option<Scenario>,
    fencing: Option<bool>,
    seed: Option<u64>,
}

impl ScenarioArgs {
    /// Takes `arg` (and its value from `rest`) if it names the scenario; false if it is not
    /// one of these arguments.
    fn take(&mut self, cmd: &str, arg: &str, rest: &mut std::slice::Iter<String>) -> Result<bool, String> {
        let mut value = |flag: &str| rest.next().cloned().ok_or_else(|| format!("{flag}: missing value\n{USAGE}"));
        match arg {
            "--builtin" => {
                let id = value("--builtin")?;
                let s = catalog::get(&id).ok_or_else(|| format!("--builtin: no built-in scenario \"{id}\" (see `locklab list`)"))?;
                self.set_source(cmd, s)?;
            }
            "--fencing" => {
                self.fencing = Some(match value("--fencing")?.as_str() {
                    "on" => true,
                    "off" => false,
                    v => return Err(format!("--fencing: expected on or off, got \"{v}\"")),
                })
            }
            "--seed" => {
                let v = value("--seed")?;
                self.seed = Some(v.parse().map_err(|_| format!("--seed: \"{v}\" is not an unsigned 64-bit integer"))?);
            }
            flag if flag.starts_with('-') => return Ok(false),
            path => {
                let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: cannot read: {e}"))?;
                let s = parse(&text).map_err(|e| format!("{path}: {e}"))?;
                self.set_source(cmd, s)?;
            }
        }
        Ok(true)
    }

    fn set_source(&mut self, cmd: &str, s: Scenario) -> Result<(), String> {
        if self.source.is_some() {
            return Err(format!("{cmd}: give one scenario (a FILE or --builtin ID), not two\n{USAGE}"));
        }
        self.source = Some(s);
        Ok(())
    }

    /// The scenario with the overrides applied.
    fn scenario(self, cmd: &str) -> Result<Scenario, String> {
        let mut scenario = self.source.ok_or_else(|| format!("{cmd}: give a scenario FILE or --builtin ID\n{USAGE}"))?;
        if let Some(f) = self.fencing {
            scenario.storage.fencing = f;
        }
        if let Some(s) = self.seed {
            scenario.seed = s;
        }
        Ok(scenario)
    }
}

fn run(args: &[String]) -> Result<String, String> {
    let mut scenario = ScenarioArgs::default();
    let mut json = false;
    let mut narrate = false;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        if scenario.take("run", arg, &mut it)? {
            continue;
        }
        match arg.as_str() {
            "--json" => json = true,
            "--trace" => narrate = true,
            flag => return Err(format!("unknown flag \"{flag}\"\n{USAGE}")),
        }
    }
    let scenario = scenario.scenario("run")?;
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

/// `locklab svg`: the run at a cursor time as a self-contained SVG figure, written to `-o`.
fn svg(args: &[String]) -> Result<String, String> {
    let mut scenario = ScenarioArgs::default();
    let mut at_ms: Option<i64> = None;
    let mut lecture = false;
    let mut width = export::FIGURE_WIDTH;
    let mut out: Option<String> = None;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        if scenario.take("svg", arg, &mut it)? {
            continue;
        }
        let mut value = |flag: &str| it.next().cloned().ok_or_else(|| format!("{flag}: missing value\n{USAGE}"));
        match arg.as_str() {
            "--at-ms" => {
                let v = value("--at-ms")?;
                at_ms = Some(v.parse().map_err(|_| format!("--at-ms: \"{v}\" is not a whole number of milliseconds"))?);
            }
            "--lecture" => lecture = true,
            "--width" => {
                let v = value("--width")?;
                width = match v.parse::<f64>() {
                    Ok(w) if (WIDTHS.0..=WIDTHS.1).contains(&w) => w,
                    _ => return Err(format!("--width: expected {} to {} px, got \"{v}\"", WIDTHS.0, WIDTHS.1)),
                };
            }
            "-o" => out = Some(value("-o")?),
            flag => return Err(format!("unknown flag \"{flag}\"\n{USAGE}")),
        }
    }
    let scenario = scenario.scenario("svg")?;
    let out = out.ok_or_else(|| format!("svg: give an output file with -o OUT.svg (or -o - for stdout)\n{USAGE}"))?;
    let run = lab::run(&scenario);
    let timeline = Timeline::of_run(&run);
    let end = timeline.duration_ms;
    let at = at_ms.unwrap_or(end);
    if !(0..=end).contains(&at) {
        return Err(format!("--at-ms: {at} is outside the run (0 to {end} ms)"));
    }
    let figure = export::figure(&run, &timeline, at, width, lecture, export::STYLESHEET);
    if out == "-" {
        return Ok(figure);
    }
    std::fs::write(&out, figure).map_err(|e| format!("-o: cannot write {out}: {e}"))?;
    Ok(String::new())
}

/// `locklab compare`: the scenario and its counterpart on another approach, side by side.
fn compare(args: &[String]) -> Result<String, String> {
    let mut scenario = ScenarioArgs::default();
    let mut with: Option<Approach> = None;
    let mut json = false;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        if scenario.take("compare", arg, &mut it)? {
            continue;
        }
        match arg.as_str() {
            "--with" => {
                let id = it.next().cloned().ok_or_else(|| format!("--with: missing value\n{USAGE}"))?;
                let ids: Vec<&str> = Approach::ALL.iter().map(|a| a.id()).collect();
                with = Some(
                    locklab::compare::approach_by_id(&id)
                        .ok_or_else(|| format!("--with: unknown approach \"{id}\" (one of {})", ids.join(", ")))?,
                );
            }
            "--json" => json = true,
            flag => return Err(format!("unknown flag \"{flag}\"\n{USAGE}")),
        }
    }
    let scenario = scenario.scenario("compare")?;
    let with = with.ok_or_else(|| format!("--with: missing; name the approach to compare with\n{USAGE}"))?;
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

/// Every event with its caption, one a line: the whole story in words.
fn story(run: &lab::Run) -> String {
    let approach = run.scenario.approach;
    let story = locklab::text::Story::of_run(run);
    run.trace
        .events
        .iter()
        .enumerate()
        .map(|(i, e)| format!("{i:>5} {:>7} ms  {}\n", e.at_ms, locklab::text::caption(&run.trace, approach, &story, i)))
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
    let figures = [locklab::bench::catalog(n, &now), locklab::bench::inject(n, &now)].concat();
    Ok(locklab::bench::report(&figures))
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
    // The verdict's one sentence says it when no client ever got the lock.
    out += &format!("  {}\n", locklab::text::verdict::sentence(v));
    if let Some(granted) = v.granted_ttl_ms.filter(|&g| g != run.scenario.lock.ttl_ms) {
        let secs = locklab::decimal::seconds;
        out += &format!("  lease/session lifetime: asked {}, granted {}\n", secs(run.scenario.lock.ttl_ms), secs(granted));
    }
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
