//! `locklab explore`: search a scenario's fault space for counterexamples, shrink the worst;
//! `--table` measures the seed's table, `--sweep` one number's effect. Runs on every core
//! (rayon) with the same result for any `--threads`: the explorer folds outcomes in schedule
//! order (src/explore/mod.rs).

use std::time::Instant;

use locklab::check::properties::{self, Property};
use locklab::explore::class::discovery;
use locklab::explore::rate::{self as rate, Proportion};
use locklab::explore::shrink::{shrink, Shrunk};
use locklab::explore::sweep;
use locklab::explore::table::{self, Cell};
use locklab::explore::{as_found, Class, Counts, Explorer, Found, Mix, MixError, Target};
use locklab::lab;
use locklab::scenario::fault;
use locklab::scenario::{FaultKind, Scenario};
use locklab::timeline::draw::words::thousands;
use serde_json::{json, Value};

use super::args::{read_scenario, usage, ExploreArgs, ScenarioArgs, Sweep};

/// Schedules per search, per table cell and per sweep point when `--runs` is not given.
const RUNS: u64 = 10_000;
const SWEEP_RUNS: u64 = 1_000;

/// What the command line asked for, checked across flags.
struct Args {
    base: Option<Scenario>,
    fencing: Option<bool>,
    mix: Mix,
    runs: Option<u64>,
    seed: u64,
    threads: Option<usize>,
    json: bool,
    out: Option<String>,
    table: bool,
    /// `--faults` or `--max-faults` given: the table runs this mix on every row.
    uniform: bool,
    sweep: Option<Sweep>,
    steps: usize,
    property: Option<&'static Property>,
}

fn kinds(v: &str) -> Result<Vec<FaultKind>, String> {
    let ids: Vec<&str> = FaultKind::ALL.iter().map(|k| k.id()).collect();
    v.split(',')
        .map(|k| FaultKind::by_id(k.trim()).ok_or_else(|| format!("--faults: unknown fault kind \"{k}\" (one of {})", ids.join(", "))))
        .collect()
}

fn checked(e: ExploreArgs) -> Result<Args, String> {
    let mut mix = Mix::full();
    if let Some(k) = &e.faults {
        mix.kinds = kinds(k)?;
    }
    if let Some(k) = e.max_faults {
        mix.max_faults = k;
    }
    let ScenarioArgs { file, builtin, fencing } = e.scenario;
    let sources = [file.is_some(), builtin.is_some(), e.approach.is_some()];
    if sources.iter().filter(|&&s| s).count() > 1 {
        return Err(format!("explore: give one scenario (a FILE, --builtin ID or --approach NAME), not two\n{}", usage("explore")));
    }
    if e.property.is_some() && (e.table || e.sweep.is_some()) {
        return Err("--property: a property is searched for in one scenario; give no --table or --sweep".into());
    }
    if e.table && e.sweep.is_some() {
        return Err("--table: give either --table or --sweep, not both".into());
    }
    if (e.table || e.sweep.is_some()) && e.out.is_some() {
        return Err("-o: only a search (without --table or --sweep) writes a counterexample".into());
    }
    if e.table && (sources.contains(&true) || fencing.is_some()) {
        return Err("--table: the table runs its own base for every approach with fencing off and on; give no scenario or --fencing".into());
    }
    let base = match file {
        Some(path) => Some(read_scenario(&path)?),
        None => builtin.or(e.approach),
    };
    Ok(Args {
        base,
        fencing,
        mix,
        runs: e.runs,
        seed: e.seed,
        threads: e.threads,
        json: e.json,
        out: e.out,
        table: e.table,
        uniform: e.faults.is_some() || e.max_faults.is_some(),
        sweep: e.sweep,
        steps: e.steps,
        property: e.property,
    })
}

/// `field` of a mix error as the flag that set it.
fn mix_error(e: MixError) -> String {
    let flag = match e.field {
        "kinds" => "--faults",
        "max_faults" => "--max-faults",
        "ranges" => "--sweep",
        _ => "explore",
    };
    format!("{flag}: {}", e.message)
}

/// Runs `f` on a pool of `threads` (all cores when None), timing it.
fn on_threads<T: Send>(threads: Option<usize>, f: impl FnOnce() -> T + Send) -> Result<(T, f64, usize), String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| format!("--threads: cannot start the threads: {e}"))?;
    let n = pool.current_num_threads();
    let start = Instant::now();
    let out = pool.install(f);
    Ok((out, start.elapsed().as_secs_f64(), n))
}

fn rate(runs: u64, secs: f64) -> f64 {
    if secs > 0.0 {
        runs as f64 / secs
    } else {
        0.0
    }
}

fn pretty(v: &impl serde::Serialize) -> String {
    let mut out = serde_json::to_string_pretty(v).expect("serializes");
    out.push('\n');
    out
}

pub fn explore(args: ExploreArgs) -> Result<String, String> {
    if args.properties {
        return property_list(&args);
    }
    let a = checked(args)?;
    if a.table {
        return run_table(&a);
    }
    if a.sweep.is_some() {
        return run_sweep(a);
    }
    match a.property {
        Some(p) => search_property(a, p),
        None => search(a),
    }
}

/// `locklab explore --properties`: a listing, so it takes nothing else.
fn property_list(e: &ExploreArgs) -> Result<String, String> {
    let ScenarioArgs { file, builtin, fencing } = &e.scenario;
    let given = file.is_some() || builtin.is_some() || fencing.is_some() || e.approach.is_some();
    if given || e.table || e.sweep.is_some() || e.property.is_some() || e.out.is_some() || e.faults.is_some() {
        return Err("--properties: lists the named properties; give it alone (or with --json)".into());
    }
    if e.json {
        let list: Vec<Value> =
            properties::all().iter().map(|p| json!({ "id": p.id, "kind": p.kind.id(), "statement": p.statement })).collect();
        return Ok(pretty(&list));
    }
    Ok(properties::all().iter().map(|p| properties::describe_line(p) + "\n").collect())
}

/// The base a search runs on, fencing applied.
fn search_base(a: &Args) -> Result<Scenario, String> {
    let mut base =
        a.base.clone().ok_or_else(|| format!("explore: give a scenario FILE, --builtin ID or --approach NAME\n{}", usage("explore")))?;
    if let Some(f) = a.fencing {
        base.storage.fencing = f;
    }
    Ok(base)
}

/// The first line of a search's text: what ran.
fn search_heading(base: &Scenario, runs: u64, a: &Args) -> String {
    let fencing = if base.storage.fencing { "on" } else { "off" };
    format!(
        "{} (fencing {fencing}): {} schedules of {}, explorer seed {}\n",
        base.approach.id(),
        thousands(runs as usize),
        a.mix.words(),
        a.seed
    )
}

fn speed_line(per_s: f64, threads: usize) -> String {
    format!("{} schedules/s on {threads} thread{}\n", thousands(per_s as usize), if threads == 1 { "" } else { "s" })
}

/// `locklab explore … --property ID`: the runs that show one property, the first shrunk.
fn search_property(a: Args, property: &'static Property) -> Result<String, String> {
    let base = search_base(&a)?;
    let runs = a.runs.unwrap_or(RUNS);
    let mut search = Explorer::new(&base, a.mix.clone(), a.seed, runs).map_err(mix_error)?.searching(property);
    let (report, secs, threads) = on_threads(a.threads, || {
        search.run_batch_parallel(runs);
        search.report()
    })?;
    let per_s = rate(report.runs, secs);
    let first = report.found.first();
    let shrunk = first.map(|f| shrink(&f.scenario, property));
    let files = first.zip(shrunk.as_ref()).map(|(f, s)| found_files(&a, runs, f, s, property.into())).transpose()?;
    let evidence = shrunk.as_ref().and_then(|s| discovery(property, &s.after));
    if a.json {
        let v = json!({
            "approach": base.approach,
            "fencing": base.storage.fencing,
            "seed": a.seed,
            "mix": a.mix.words(),
            "runs": report.runs,
            "property": { "id": property.id, "kind": property.kind.id(), "statement": property.statement },
            "shown": report.shown,
            "schedules_per_s": per_s,
            "threads": threads,
            "found_index": first.map(|f| f.index),
            "shrink_runs": shrunk.as_ref().map(|s| s.runs),
            "evidence": evidence.as_ref().map(|e| json!({ "at_ms": e.at_ms, "text": e.text })),
            "found": files.as_ref().map(|(after, _)| after),
            "found_before_shrink": files.as_ref().map(|(_, before)| before),
        });
        return Ok(pretty(&v));
    }
    let mut out = search_heading(&base, report.runs, &a);
    out += &format!("property {} ({}): {}\n", property.id, property.kind.id(), property.statement);
    let share = 100.0 * report.shown as f64 / report.runs.max(1) as f64;
    let runs_words = thousands(report.runs as usize);
    out += &format!("  {} {} of {runs_words} schedules ({share:.1}%)\n", property.kind.shown_in(), thousands(report.shown as usize));
    out += &speed_line(per_s, threads);
    let found = first.zip(shrunk.as_ref()).map(|(f, s)| (property.found_words(), f.index, s));
    let nothing = format!("nothing found: {} of the {runs_words} schedules\n", property.kind.none_shown());
    // The evidence goes between the shrink's line and the file, so the file is printed here.
    out += &found_text(found, nothing, None, a.out.as_deref());
    if let Some(e) = evidence {
        let at = e.at_ms.map_or_else(|| "by the end".to_string(), |t| format!("at {} ms", thousands(t.max(0) as usize)));
        out += &format!("  {at}: {}\n", e.text);
    }
    if let (None, Some((after, _))) = (&a.out, &files) {
        out += &pretty(after);
    }
    Ok(out)
}

fn faults_in_words(s: &Scenario) -> String {
    if s.faults.is_empty() {
        return "no faults".into();
    }
    s.faults.iter().map(fault::words).collect::<Vec<_>>().join("; ")
}

fn class_lines(counts: &Counts) -> String {
    let total = counts.total().max(1) as f64;
    Class::ALL
        .iter()
        .map(|&c| {
            let n = counts.get(c);
            format!("  {:<15} {:>10}  {:>5.1}%\n", c.id(), thousands(n as usize), 100.0 * n as f64 / total)
        })
        .collect()
}

/// `locklab explore FILE…`: one search, its worst counterexample shrunk.
fn search(a: Args) -> Result<String, String> {
    let base = search_base(&a)?;
    let runs = a.runs.unwrap_or(RUNS);
    let mut explorer = Explorer::new(&base, a.mix.clone(), a.seed, runs).map_err(mix_error)?;
    let (report, secs, threads) = on_threads(a.threads, || {
        explorer.run_batch_parallel(runs);
        explorer.report()
    })?;
    let per_s = rate(report.runs, secs);
    let shrunk = report.worst().map(|f| (f, shrink(&f.scenario, f.class)));
    let files = shrunk.as_ref().map(|(f, s)| found_files(&a, runs, f, s, f.class.into())).transpose()?;
    if a.json {
        let v = json!({
            "approach": base.approach,
            "fencing": base.storage.fencing,
            "seed": a.seed,
            "mix": a.mix.words(),
            "runs": report.runs,
            "classes": report.counts,
            "schedules_per_s": per_s,
            "threads": threads,
            "found_class": shrunk.as_ref().map(|(f, _)| f.class),
            "found_index": shrunk.as_ref().map(|(f, _)| f.index),
            "shrink_runs": shrunk.as_ref().map(|(_, s)| s.runs),
            "found": files.as_ref().map(|(after, _)| after),
            "found_before_shrink": files.as_ref().map(|(_, before)| before),
        });
        return Ok(pretty(&v));
    }
    let mut out = search_heading(&base, report.runs, &a);
    out += &class_lines(&report.counts);
    out += &speed_line(per_s, threads);
    let found = shrunk.as_ref().map(|(f, s)| (f.class.words().to_string(), f.index, s));
    let nothing = format!("nothing found: every one of the {} schedules was safe\n", thousands(report.runs as usize));
    out += &found_text(found, nothing, files.as_ref().map(|(after, _)| after), a.out.as_deref());
    Ok(out)
}

/// Counterexample `f` of a search of `runs` schedules, shrunk to `s`, as scenario files (after
/// and before shrinking) that say where they came from; the shrunk one written to `-o` if given.
fn found_files(a: &Args, runs: u64, f: &Found, s: &Shrunk, shows: Target) -> Result<(Scenario, Scenario), String> {
    let how =
        |what: &str| format!("Explorer seed {}, schedule {} of {} ({}){what}", a.seed, f.index, thousands(runs as usize), a.mix.words());
    let after = as_found(&s.after, shows, &how(&format!(", shrunk in {} runs", s.runs)));
    let before = as_found(&s.before, shows, &how(", before shrinking"));
    if let Some(path) = &a.out {
        std::fs::write(path, pretty(&after)).map_err(|e| format!("-o: cannot write {path}: {e}"))?;
    }
    Ok((after, before))
}

/// What a search found (its words, schedule and shrink), or `nothing` when it found nothing.
fn found_text(found: Option<(String, u64, &Shrunk)>, nothing: String, file: Option<&Scenario>, out: Option<&str>) -> String {
    let Some((words, index, s)) = found else {
        return nothing;
    };
    let mut text = format!("found {words} in schedule {index}: {}\n", faults_in_words(&s.before));
    text += &format!(
        "shrunk in {} runs to {} fault{} and {} client{}: {}\n",
        s.runs,
        s.after.faults.len(),
        if s.after.faults.len() == 1 { "" } else { "s" },
        s.after.clients.len(),
        if s.after.clients.len() == 1 { "" } else { "s" },
        faults_in_words(&s.after)
    );
    match (out, file) {
        (Some(path), _) => text += &format!("written to {path}\n"),
        (None, Some(file)) => text += &pretty(file),
        (None, None) => {}
    }
    text
}

/// The table's plans: `table::plan()` at `--seed`, or every row at the mix given.
fn table_plans(a: &Args) -> Vec<table::Plan> {
    let mut plans = table::plan();
    for p in &mut plans {
        p.seed = a.seed;
        if a.uniform {
            p.row = table::row(&p.row.id).expect("a row");
            (p.mix, p.mix_words) = (a.mix.clone(), a.mix.words());
            p.runs = table::RUNS;
        }
    }
    plans
}

/// `locklab explore --table`.
fn run_table(a: &Args) -> Result<String, String> {
    use rayon::prelude::*;
    let plans = table_plans(a);
    let mut searches = table::planned_searches(&plans, a.runs).map_err(mix_error)?;
    let (cells, secs, threads) = on_threads(a.threads, || {
        for s in &mut searches {
            s.explorer.run_batch_parallel(u64::MAX);
        }
        searches.par_iter().map(|s| s.cell()).collect::<Vec<Cell>>()
    })?;
    let total: u64 = cells.iter().map(|c| c.runs).sum();
    let per_s = rate(total, secs);
    let plan_of = |id: &str| plans.iter().find(|p| p.row.id == id).expect("a planned row");
    let smallest = |c: &Cell| {
        c.smallest.as_ref().map(|s| {
            let p = plan_of(&c.row);
            let how = format!(
                "The smallest lost update of the seed's table, explorer seed {} ({}), shrunk in {} runs",
                p.seed, p.mix_words, s.runs
            );
            as_found(&s.after, Class::LostUpdate, &how)
        })
    };
    if a.json {
        let cells: Vec<Value> = cells
            .iter()
            .map(|c| {
                let p = plan_of(&c.row);
                json!({
                    "row": c.row, "label": p.row.label, "fencing": c.fencing, "runs": c.runs, "mix": p.mix_words, "claim": p.claim,
                    "lost_update": c.counts.lost_update, "lost_share": c.lost_share(), "token_repeats": c.token_repeats,
                    "classes": c.counts, "smallest": smallest(c),
                })
            })
            .collect();
        let v = json!({ "seed": a.seed, "schedules_per_s": per_s, "threads": threads, "cells": cells });
        return Ok(pretty(&v));
    }
    let mut out = format!("The seed's table: each row at the mix that reveals its claim (footnotes), explorer seed {}\n", a.seed);
    out += &format!("{:<58} {:>28} {:>28}\n", "approach", "fencing off", "fencing on");
    let mut notes = Vec::<String>::new();
    for pair in cells.chunks(2) {
        let p = plan_of(&pair[0].row);
        let mark = match notes.iter().position(|m| *m == p.mix_words) {
            Some(k) => k + 1,
            None => {
                notes.push(p.mix_words.clone());
                notes.len()
            }
        };
        out += &format!("{:<58} {:>28} {:>28}\n", format!("{} [{mark}]", p.row.label), "", "");
        out += &format!(
            "{:<58} {:>28} {:>28}\n",
            "  lost updates",
            table::count_of(pair[0].counts.lost_update, pair[0].runs),
            table::count_of(pair[1].counts.lost_update, pair[1].runs)
        );
        out += &format!(
            "{:<58} {:>28} {:>28}\n",
            "  token handed out again",
            table::count_of(pair[0].token_repeats, pair[0].runs),
            table::count_of(pair[1].token_repeats, pair[1].runs)
        );
    }
    for (k, words) in notes.iter().enumerate() {
        out += &format!("[{}] {words}\n", k + 1);
    }
    out += "what each row shows, and its smallest lost update per cell:\n";
    for pair in cells.chunks(2) {
        out += &format!("  {}: {}\n", pair[0].row, plan_of(&pair[0].row).claim);
        for c in pair {
            let what = c.smallest.as_ref().map_or_else(|| "none found".to_string(), |s| faults_in_words(&s.after));
            out += &format!("    fencing {}: {what}\n", if c.fencing { "on" } else { "off" });
        }
    }
    out += &format!("{} schedules/s on {threads} thread{}\n", thousands(per_s as usize), if threads == 1 { "" } else { "s" });
    Ok(out)
}

/// A sweep point's lost updates as a proportion of its runs (src/explore/rate.rs).
fn lost(p: &sweep::Point) -> Proportion {
    Proportion { hits: p.counts.lost_update, runs: p.runs }
}

/// `locklab explore --sweep PARAM=FROM..TO`.
fn run_sweep(a: Args) -> Result<String, String> {
    let Sweep { param, from, to } = a.sweep.expect("a sweep");
    let runs = a.runs.unwrap_or(SWEEP_RUNS);
    let fencing = a.fencing;
    // One line per fencing setting for a given scenario; per table row otherwise.
    let lines: Vec<(String, Scenario)> = match a.base.clone() {
        Some(s) => {
            let settings = fencing.map_or(vec![false, true], |f| vec![f]);
            settings
                .into_iter()
                .map(|f| (format!("{}, fencing {}", s.approach.id(), if f { "on" } else { "off" }), lab::with_fencing(&s, f)))
                .collect()
        }
        None => table::rows().into_iter().map(|r| (r.id, lab::with_fencing(&r.base, fencing.unwrap_or(false)))).collect(),
    };
    let xs = sweep::points(from, to, a.steps);
    let mut searches = sweep::searches(param, &xs, &lines, a.seed, runs).map_err(mix_error)?;
    let (_, secs, threads) = on_threads(a.threads, || {
        for p in &mut searches {
            p.explorer.run_batch_parallel(runs);
        }
    })?;
    let series = sweep::series(&lines, &searches);
    let per_s = rate(series.iter().flat_map(|s| &s.points).map(|p| p.runs).sum(), secs);
    if a.json {
        let series: Vec<Value> = series
            .iter()
            .map(|s| {
                json!({
                    "label": s.label,
                    "lost_share": s.points.iter().map(|p| p.lost_share()).collect::<Vec<_>>(),
                    "lost_update": s.points.iter().map(|p| p.counts.lost_update).collect::<Vec<_>>(),
                    "lost_interval_95": s.points.iter().map(|p| lost(p).interval()).collect::<Vec<_>>(),
                    "runs": s.points.iter().map(|p| p.runs).collect::<Vec<_>>(),
                })
            })
            .collect();
        let v = json!({ "param": param.id(), "points": xs, "runs_per_point": runs, "seed": a.seed, "schedules_per_s": per_s, "threads": threads, "series": series });
        return Ok(pretty(&v));
    }
    let mut out = format!(
        "sweep {} from {from} to {to} ({} points), {} schedules per point, explorer seed {}: share of runs with a lost update [95% interval]\n",
        param.id(),
        xs.len(),
        thousands(runs as usize),
        a.seed
    );
    // A cell is "12.3% [9.8%, 15.2%]": the share and its 95% interval, as `locklab rate` prints them.
    let width = series.iter().map(|s| s.label.len()).max().unwrap_or(0).max(22);
    out += &format!("{:>10}", param.id());
    for s in &series {
        out += &format!("  {:>width$}", s.label);
    }
    out.push('\n');
    for (k, x) in xs.iter().enumerate() {
        out += &format!("{x:>10.3}");
        for s in &series {
            let p = lost(&s.points[k]);
            out += &format!("  {:>width$}", format!("{} {}", rate::percent(p.rate()), rate::interval_words(p)));
        }
        out.push('\n');
    }
    out += &format!("{} schedules/s on {threads} thread{}\n", thousands(per_s as usize), if threads == 1 { "" } else { "s" });
    Ok(out)
}
