//! `locklab-real record`: one real run written as the app's recording (`locklab::recorded`):
//! the trace with when and on what it ran, and the fingerprint of the scenario as it ran.

use locklab::recorded::{self, Recording};
use locklab::scenario::Scenario;

use crate::run::RealRun;

/// The recording of `real`, a run of `scenario` at its scale.
pub fn recording(scenario: &Scenario, real: &RealRun) -> Recording {
    Recording {
        format: recorded::FORMAT,
        id: scenario.id.clone(),
        fencing: scenario.storage.fencing,
        fingerprint: recorded::fingerprint(scenario),
        recorded: utc_now(),
        server: real.server.clone(),
        os: os_name(),
        cores: std::thread::available_parallelism().map_or(1, |n| n.get() as u32),
        scale: real.scale,
        trace: real.trace.clone(),
    }
}

/// Compact JSON, one line; refused unless the app's reader reads it back as written.
pub fn to_json(r: &Recording) -> Result<String, String> {
    let text = serde_json::to_string(r).map_err(|e| e.to_string())?;
    match recorded::read(&text) {
        Ok(back) if back == *r => Ok(text + "\n"),
        Ok(_) => Err("the app's reader reads this recording differently than it was written".into()),
        Err(e) => Err(format!("the app's reader refuses this recording: {e}")),
    }
}

/// "Debian GNU/Linux 12 (bookworm)", from /etc/os-release.
fn os_name() -> String {
    let text = std::fs::read_to_string("/etc/os-release").unwrap_or_default();
    let pretty = text.lines().find_map(|l| l.strip_prefix("PRETTY_NAME="));
    pretty.map_or_else(|| std::env::consts::OS.to_string(), |p| p.trim_matches('"').to_string())
}

/// "2026-12-06 05:01 UTC".
fn utc_now() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64);
    let (y, m, d) = civil(secs.div_euclid(86_400));
    let s = secs.rem_euclid(86_400);
    format!("{y:04}-{m:02}-{d:02} {:02}:{:02} UTC", s / 3600, s % 3600 / 60)
}

/// The calendar date of a day count since 1970-01-01 (Howard Hinnant's `civil_from_days`).
fn civil(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    #[test]
    fn civil_dates() {
        assert_eq!(super::civil(0), (1970, 1, 1));
        assert_eq!(super::civil(20_428), (2025, 12, 6));
        assert_eq!(super::civil(11_016), (2000, 2, 29));
    }
}
