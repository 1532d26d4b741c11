//! The model against the real run of one scenario: the asserted fields (safe, stale writes
//! accepted and rejected, most believers at once, and the token order) and the timings, which
//! are reported with their differences but never asserted.

use locklab::check::Verdict;
use serde::Serialize;

/// One asserted field, model against real.
#[derive(Clone, Debug, Serialize)]
pub struct Field {
    pub field: &'static str,
    pub model: String,
    pub real: String,
    pub agree: bool,
}

/// One timing, model against real (scenario ms; real times are wall times divided by the scale).
#[derive(Clone, Debug, Serialize)]
pub struct Timing {
    pub what: String,
    pub model_ms: Option<i64>,
    pub real_ms: Option<i64>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    pub id: String,
    pub fencing: bool,
    pub agree: bool,
    pub fields: Vec<Field>,
    pub timings: Vec<Timing>,
}

pub fn compare(model: &Verdict, real: &Verdict) -> Comparison {
    // The asserted fields are the app's (`locklab::recorded::fields`): one list for both.
    let fields: Vec<Field> =
        locklab::recorded::fields(model, real).into_iter().map(|(field, m, r)| Field { field, agree: m == r, model: m, real: r }).collect();
    Comparison {
        id: model.id.clone(),
        fencing: model.fencing,
        agree: fields.iter().all(|f| f.agree),
        fields,
        timings: timings(model, real),
    }
}

/// Grants and writes, paired by client and occurrence (A's first grant with A's first grant),
/// in the model's order, then whatever only the real run has.
fn timings(model: &Verdict, real: &Verdict) -> Vec<Timing> {
    let grants = |v: &Verdict| v.grants.iter().map(|g| (g.client.clone(), g.at_ms)).collect::<Vec<_>>();
    let writes = |v: &Verdict| v.writes.iter().map(|w| (w.client.clone(), w.at_ms)).collect::<Vec<_>>();
    let mut out = pair("grant", &grants(model), &grants(real));
    out.extend(pair("write", &writes(model), &writes(real)));
    out
}

/// `what` events of each side paired by (client, nth of that client's).
fn pair(what: &str, model: &[(String, i64)], real: &[(String, i64)]) -> Vec<Timing> {
    let nth = |list: &[(String, i64)], i: usize| list[..i].iter().filter(|(c, _)| *c == list[i].0).count();
    let find = |list: &[(String, i64)], client: &str, n: usize| list.iter().filter(|(c, _)| c == client).nth(n).map(|(_, t)| *t);
    let label = |client: &str, n: usize| format!("{what} {} of {client}", n + 1);
    let mut out: Vec<Timing> = (0..model.len())
        .map(|i| {
            let (client, n) = (&model[i].0, nth(model, i));
            Timing { what: label(client, n), model_ms: Some(model[i].1), real_ms: find(real, client, n) }
        })
        .collect();
    for i in 0..real.len() {
        let (client, n) = (&real[i].0, nth(real, i));
        if find(model, client, n).is_none() {
            out.push(Timing { what: label(client, n), model_ms: None, real_ms: Some(real[i].1) });
        }
    }
    out
}

/// The comparison as text: one line per field, then the timings with their differences.
pub fn render(c: &Comparison) -> String {
    let mut out = format!(
        "{} (fencing {}): {}\n",
        c.id,
        if c.fencing { "on" } else { "off" },
        if c.agree { "model and real AGREE" } else { "model and real DISAGREE" }
    );
    for f in &c.fields {
        out += &format!("  {:<24} model {:<14} real {:<14} {}\n", f.field, f.model, f.real, if f.agree { "" } else { "<- differs" });
    }
    for t in &c.timings {
        let show = |v: Option<i64>| v.map_or("-".to_string(), |v| format!("{v} ms"));
        let diff = match (t.model_ms, t.real_ms) {
            (Some(m), Some(r)) => format!("{:+} ms", r - m),
            _ => "missing on one side".into(),
        };
        out += &format!("  {:<24} model {:<14} real {:<14} {diff}\n", t.what, show(t.model_ms), show(t.real_ms));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use locklab::recorded::token_order;

    fn verdict(grants: &[(&str, Option<u64>)]) -> Verdict {
        let mut v = locklab::lab::run(&locklab::scenario::catalog::get("redis-gc-pause").unwrap()).verdict;
        v.grants = grants.iter().map(|&(c, token)| locklab::check::Grant { client: c.into(), at_ms: 0, token, event: 0 }).collect();
        v
    }

    #[test]
    fn token_order_is_by_rank_so_numbering_does_not_matter() {
        assert_eq!(token_order(&verdict(&[("A", Some(7)), ("B", Some(9))])), "A#1 B#2");
        assert_eq!(token_order(&verdict(&[("A", Some(1)), ("B", Some(1))])), "A#1 B#1");
        assert_eq!(token_order(&verdict(&[("A", Some(2)), ("B", Some(1))])), "A#2 B#1");
        assert_eq!(token_order(&verdict(&[("A", None)])), "A#-");
    }

    #[test]
    fn a_repeated_token_is_a_disagreement() {
        let (model, real) = (verdict(&[("A", Some(1)), ("B", Some(2))]), verdict(&[("A", Some(1)), ("B", Some(1))]));
        let c = compare(&model, &real);
        assert!(!c.agree);
        assert_eq!(c.fields.iter().filter(|f| !f.agree).map(|f| f.field).collect::<Vec<_>>(), vec!["token_order"]);
        assert!(compare(&model, &model).agree);
    }
}
