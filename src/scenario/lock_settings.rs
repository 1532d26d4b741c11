//! Every `lock` setting's range and default, declared once. The common whole-number fields are
//! `Param`s here (bounds from `limits`, defaults from `LockConfig::default`), as an approach's
//! own settings are `Setting`s in its protocol file: validation checks both lists, and `table`
//! writes both as the Markdown table README.md ("Limits") and docs/SCENARIO_FORMAT.md ("Limits")
//! carry, a test holding each page to it, so the docs cannot drift from what the reader enforces.

use super::format::{Approach, LockConfig};
use super::limits::*;
use crate::param::{Need, Number, Param, Toward, Ty};
use crate::protocols::config::{Kind, Setting};

/// A whole number of `unit` in `lo..=hi`, `default` when absent.
const fn number(name: &'static str, lo: i64, hi: i64, default: i64, unit: &'static str) -> Param {
    let n = Number { need: Need::Default(default), lo, hi, unit, draw: (lo, hi), toward: Toward::Low };
    Param { name, ty: Ty::Number(n), form: None }
}

/// `lock.ttl_ms`: its default is the approach's (`ConfigRules::default_ttl_ms`); an approach
/// may bound it further (`ConfigRules::check`: Consul's 10 s to 24 h).
pub fn ttl() -> Param {
    number("ttl_ms", 1, MAX_TTL_MS, LockConfig::default().ttl_ms, "ms")
}

/// `lock.servers`: its default is the approach's (`Spec::default_servers`).
pub const SERVERS: Param = number("servers", 1, MAX_SERVERS as i64, 1, "");

/// Each of `lock.retry_ms`'s two delays (the second at least the first).
pub fn retry() -> Param {
    number("retry_ms", MIN_RETRY_MS, MAX_DURATION_MS, LockConfig::default().retry_ms[0], "ms")
}

pub fn request_timeout() -> Param {
    number("request_timeout_ms", 1, MAX_REQUEST_TIMEOUT_MS, LockConfig::default().request_timeout_ms, "ms")
}

pub fn tick() -> Param {
    number("tick_ms", MIN_TICK_MS, MAX_TICK_MS, LockConfig::default().tick_ms, "ms")
}

/// `lock.drift_factor` is a fraction, not a whole number: at least 0 and below this.
pub const DRIFT_FACTOR_BELOW: f64 = 1.0;

/// `60000` → `60,000`, as the pages print numbers.
pub fn thousands(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::from(if n < 0 { "-" } else { "" });
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A number's range as the table states it: "1–600,000 ms".
fn range(n: &Number) -> String {
    let unit = if n.unit.is_empty() { String::new() } else { format!(" {}", n.unit) };
    format!("{}–{}{unit}", thousands(n.lo), thousands(n.hi))
}

/// The approaches whose value of `of` differs from `common`, as "k8s-lease 15,000, consul 15,000".
fn exceptions(common: i64, of: impl Fn(Approach) -> Option<i64>) -> String {
    let rest: Vec<String> =
        Approach::ALL.into_iter().filter_map(|a| of(a).filter(|v| *v != common).map(|v| format!("{} {}", a.id(), thousands(v)))).collect();
    if rest.is_empty() {
        String::new()
    } else {
        format!(" ({})", rest.join(", "))
    }
}

/// Every `lock` setting, one row each: its field, who has it, its range and its default.
pub fn table() -> String {
    let mut out = String::from("| setting | approaches | range | default |\n|---|---|---|---|\n");
    let num = |p: &Param| p.number().expect("a lock number");
    let default = |p: &Param| match num(p).need {
        Need::Default(v) => v,
        Need::Required | Need::Optional { .. } => unreachable!("every lock number has a default"),
    };
    let ttl = ttl();
    let ttl_default = default(&ttl);
    out += &format!(
        "| `lock.ttl_ms` | all | {} | {}{} |\n",
        range(&num(&ttl)),
        thousands(ttl_default),
        exceptions(ttl_default, |a| Some(a.spec().config.default_ttl_ms))
    );
    let with_servers: Vec<Approach> = Approach::ALL.into_iter().filter(|a| a.spec().default_servers.is_some()).collect();
    let servers: Vec<String> =
        with_servers.iter().map(|a| format!("{} {}", a.id(), a.spec().default_servers.unwrap_or_default())).collect();
    out += &format!(
        "| `lock.servers` | {} | {} | {} |\n",
        with_servers.iter().map(|a| a.id()).collect::<Vec<_>>().join(", "),
        range(&num(&SERVERS)),
        servers.join(", ")
    );
    let drift = LockConfig::default().drift_factor;
    out += &format!("| `lock.drift_factor` | redlock | at least 0, below {DRIFT_FACTOR_BELOW} | {drift} |\n");
    let retry = retry();
    let [lo, hi] = LockConfig::default().retry_ms;
    out += &format!("| `lock.retry_ms` | all that retry | each {}, the second at least the first | [{lo}, {hi}] |\n", range(&num(&retry)));
    for p in [request_timeout(), tick()] {
        let who = if p.name == "tick_ms" { "zookeeper" } else { "all" };
        out += &format!("| `lock.{}` | {who} | {} | {} |\n", p.name, range(&num(&p)), thousands(default(&p)));
    }
    for a in Approach::ALL {
        for x in a.spec().config.settings {
            out += &format!("| `lock.{}` | {} | {} | {} |\n", x.name(), a.id(), setting_range(x), setting_default(x));
        }
    }
    out
}

/// A setting's range as the table states it: "1–600,000 ms", "true or false", "`3.4.3` or `fixed`".
fn setting_range(x: &Setting) -> String {
    match x.kind() {
        Kind::Number => range(&x.number()),
        Kind::Flag => "true or false".into(),
        Kind::Named(names) => names.iter().map(|n| format!("`\"{n}\"`")).collect::<Vec<_>>().join(" or "),
    }
}

/// A setting's default as the table states it: "10,000", "true", "`\"fixed\"`".
pub fn setting_default(x: &Setting) -> String {
    match x.kind() {
        Kind::Number => thousands(x.default()),
        Kind::Flag => x.show(x.default()),
        Kind::Named(_) => format!("`\"{}\"`", x.show(x.default())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_groups_digits_as_the_pages_do() {
        assert_eq!(thousands(600_000), "600,000");
        assert_eq!(thousands(-1_000), "-1,000");
        assert_eq!(thousands(50), "50");
    }
}
