//! `run`, `svg`, `compare`, `list` and `bench`: each takes its parsed arguments (args.rs) and
//! returns what to print, or the one message for stderr.

use locklab::lab;
use locklab::scenario::{catalog, Approach};
use locklab::theme::Theme;
use locklab::timeline::draw::{export, story};
use locklab::timeline::Timeline;

use super::args::{usage, Command, LessonCommand, ScenarioArgs, SeedArg, SvgArgs};

/// Runs one subcommand; `Err` is the one message for stderr.
pub fn dispatch(command: Command) -> Result<String, String> {
    match command {
        Command::Run { scenario, seed, json, trace, history } => run(scenario, &seed, json, trace, history),
        Command::CheckHistory { file, json, trace } => check_history(&file, json, trace),
        Command::Svg(a) => svg(a),
        Command::Compare { scenario, seed, with, set, json } => compare(scenario, &seed, with, set, json),
        Command::Explore(a) => super::explore::explore(*a),
        Command::Rate(a) => super::rate::rate(*a),
        Command::Lesson { command: LessonCommand::Check { file, builtin, all } } => super::lesson::check(file, builtin, all),
        Command::Lesson { command: LessonCommand::Handout { file, builtin, out } } => super::lesson::handout(file, builtin, out),
        Command::Lesson { command: LessonCommand::Guide { out } } => super::lesson::guide(out),
        Command::Room(a) => super::room::room(a),
        Command::List => Ok(list()),
        Command::Bench { iterations } => Ok(bench(iterations)),
    }
}

/// The built-ins, `id<TAB>title` a line, grouped by approach under `# <label> (<id>)`, then
/// the real outages under `# Real outages`.
fn list() -> String {
    let outages = catalog::outages();
    let line = |s: &locklab::scenario::Scenario| format!("{}\t{}\n", s.id, s.title);
    let mut out = String::new();
    for a in Approach::ALL {
        out += &format!("# {} ({})\n", a.label(), a.id());
        let own = catalog::all().into_iter().filter(|s| s.approach == a && !outages.iter().any(|o| o.id == s.id));
        out.extend(own.map(|s| line(&s)));
    }
    out += "# Real outages\n";
    out.extend(outages.iter().map(line));
    out
}

fn run(scenario: ScenarioArgs, seed: &SeedArg, json: bool, narrate: bool, history: bool) -> Result<String, String> {
    let scenario = seed.apply(scenario.scenario("run")?);
    let run = lab::run(&scenario);
    if history {
        return Ok(locklab::history::write(&run));
    }
    verdict_text(&run, json, narrate)
}

/// The verdict of a run as `--json` or `--trace` asks, or its readable summary.
fn verdict_text(run: &lab::Run, json: bool, narrate: bool) -> Result<String, String> {
    if json {
        let mut out = serde_json::to_string_pretty(&run.verdict).expect("verdict serializes");
        out.push('\n');
        return Ok(out);
    }
    if narrate {
        return Ok(story(run));
    }
    Ok(summary(run))
}

/// `locklab check-history FILE`: a history of one's own, drawn on its approach's lanes and
/// judged as a run is (`locklab::history`).
fn check_history(file: &str, json: bool, narrate: bool) -> Result<String, String> {
    let text = if file == "-" {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut text).map_err(|e| format!("standard input: cannot read: {e}"))?;
        text
    } else {
        let size = std::fs::metadata(file).map_err(|e| format!("{file}: cannot read: {e}"))?.len();
        if size > locklab::history::MAX_BYTES as u64 {
            return Err(format!("{file}: {size} bytes: the limit is {} (10 MB)", locklab::history::MAX_BYTES));
        }
        std::fs::read_to_string(file).map_err(|e| format!("{file}: cannot read: {e}"))?
    };
    let name = if file == "-" { "standard input" } else { file };
    let run = locklab::history::read(&text).and_then(|h| locklab::history::to_run(&h)).map_err(|e| format!("{name}: {e}"))?;
    if json || narrate {
        return verdict_text(&run, json, narrate);
    }
    // The summary's first line names a scenario's seed; a history has none.
    let s = &run.scenario;
    let fencing = if s.storage.fencing { "on" } else { "off" };
    let head = format!("history {name} (drawn as {}, fencing {fencing}): {} processes\n", s.approach.id(), s.clients.len());
    Ok(head + summary(&run).split_once('\n').map_or("", |(_, rest)| rest))
}

/// `locklab svg`: the run at a cursor time as a self-contained SVG figure, written to `-o`.
fn svg(a: SvgArgs) -> Result<String, String> {
    let scenario = a.seed.apply(a.scenario.scenario("svg")?);
    let out = a.out.ok_or_else(|| format!("svg: give an output file with -o OUT.svg (or -o - for stdout)\n{}", usage("svg")))?;
    let whole = match (a.strip, a.animated) {
        (true, true) => return Err("--strip, --animated: give one of them".into()),
        (true, false) => Some("--strip"),
        (false, true) => Some("--animated"),
        (false, false) => None,
    };
    // A strip and an animation have their own size and look, and show the whole run.
    if let (Some(flag), true) = (whole, a.at_ms.is_some() || a.lecture || a.width != export::FIGURE_WIDTH) {
        return Err(format!("{flag}: shows the whole run at its own size; leave out --at-ms, --lecture and --width"));
    }
    let run = lab::run(&scenario);
    let timeline = Timeline::of_run(&run);
    // Any time of the run may be asked for; the figure shows it on the story's axis, whose
    // end (`Timeline::duration_ms`) may come before the run's and is where it stops (and the
    // default).
    let end = run.trace.duration_ms;
    let at = a.at_ms.unwrap_or(timeline.duration_ms);
    if !(0..=end).contains(&at) {
        return Err(format!("--at-ms: {at} is outside the run (0 to {end} ms)"));
    }
    // A room's pictures (the lecture's, a strip, an animation) default to the projector's colours.
    let theme = Theme::shown(a.theme, a.lecture || whole.is_some(), false);
    let figure = match (a.strip, a.animated) {
        (true, _) => story::strip(&run, &timeline, export::STYLESHEET, theme),
        (_, true) => story::animated(&run, &timeline, export::STYLESHEET, theme),
        _ => export::figure(&run, &timeline, at, a.width, a.lecture, theme, export::STYLESHEET),
    };
    if out == "-" {
        return Ok(figure);
    }
    std::fs::write(&out, figure).map_err(|e| format!("-o: cannot write {out}: {e}"))?;
    Ok(String::new())
}

/// `locklab compare`: the scenario and its counterpart on another approach (`--with`), or the
/// same approach with one setting set otherwise (`--set`), side by side.
fn compare(scenario: ScenarioArgs, seed: &SeedArg, with: Option<Approach>, set: Option<String>, json: bool) -> Result<String, String> {
    let scenario = seed.apply(scenario.scenario("compare")?);
    let c = match (with, set) {
        (Some(_), Some(_)) => return Err("--with, --set: give one of them".into()),
        (None, Some(set)) => {
            let (field, value) = set.split_once('=').ok_or_else(|| format!("--set: expected lock.SETTING=VALUE, got \"{set}\""))?;
            locklab::compare::variant(&scenario, field.trim(), value).map_err(|e| match e.path.as_str() {
                "field" | "value" => format!("--set: {}", e.message),
                _ => e.to_string(),
            })?
        }
        (with, None) => {
            let with = with
                .ok_or_else(|| format!("--with: missing; name the approach to compare with (or --set a setting)\n{}", usage("compare")))?;
            locklab::compare::compare(&scenario, with).map_err(|e| {
                if e.path == "with" {
                    format!("--with: {}", e.message)
                } else {
                    e.to_string()
                }
            })?
        }
    };
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
fn bench(iterations: usize) -> String {
    let start = std::time::Instant::now();
    let now = move || start.elapsed().as_secs_f64() * 1000.0;
    let figures = [locklab::bench::catalog(iterations, &now), locklab::bench::inject(iterations, &now)].concat();
    locklab::bench::report(&figures)
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
