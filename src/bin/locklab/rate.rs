//! `locklab rate`: how often a scenario loses an update, and has two believers, over N seeds,
//! each as a proportion with its 95% interval (src/explore/rate.rs computes the cells; this
//! prints them); `--sweep` the same against one setting, a row per value.

use locklab::explore::rate::{self, Row};
use serde_json::json;

use super::args::RateArgs;

pub fn rate(a: RateArgs) -> Result<String, String> {
    let mut s = a.scenario.scenario("rate")?;
    if let Some(seed) = a.seed {
        s.seed = seed;
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(a.threads.unwrap_or(0))
        .build()
        .map_err(|e| format!("--threads: cannot start the threads: {e}"))?;
    let (setting, rows) = match a.sweep {
        None => (None, vec![Row { value: 0, rate: pool.install(|| rate::measure(&s, a.runs, true)) }]),
        Some(sw) => {
            let values = rate::values(sw.from, sw.to, a.steps);
            let rows = pool.install(|| rate::sweep(&s, sw.setting, &values, a.runs, true)).map_err(|e| format!("--sweep: {e}"))?;
            (Some(sw.setting), rows)
        }
    };
    let fencing = if s.storage.fencing { "on" } else { "off" };
    if a.json {
        let cell = |p: rate::Proportion| {
            let (lo, hi) = p.interval();
            json!({ "hits": p.hits, "rate": p.rate(), "interval_95": [lo, hi] })
        };
        let rows: Vec<_> = rows
            .iter()
            .map(|r| json!({ "value": r.value, "runs": r.rate.runs, "lost_updates": cell(r.rate.lost_updates), "two_believers": cell(r.rate.two_believers) }))
            .collect();
        let v = json!({
            "id": s.id, "fencing": s.storage.fencing, "first_seed": s.seed, "runs": a.runs,
            "setting": setting.map(|x| x.id()), "interval": "wilson", "rows": rows,
        });
        let mut out = serde_json::to_string_pretty(&v).expect("serializes");
        out.push('\n');
        return Ok(out);
    }
    let last = s.seed.wrapping_add(a.runs - 1);
    let mut out = format!("{} ({}, fencing {fencing}): {} runs a row, seeds {}..={last}\n", s.title, s.approach.id(), a.runs, s.seed);
    for sch in &s.schedules {
        out += &format!("schedule: {}\n", sch.words(&s));
    }
    out += &rate::table(setting, &rows);
    Ok(out)
}
