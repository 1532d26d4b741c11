//! A history's text to a `History`: one JSON object per line, each checked as it is read, the
//! first error named by its line and field (`line 7, token: invalid type: string, expected an
//! unsigned integer`). Built from the scenario reader's pieces (`scenario::json_read`), so a
//! field is read the same way in both formats.

use std::fmt;

use super::{Header, History, Line, Op, LOST_REASONS, MAX_BYTES, MAX_LINES};
use crate::protocols::Approach;
use crate::scenario::json_read::{boolean, choice, err, int, invalid, string, uint, Object, Read};
use crate::scenario::limits::{MAX_DURATION_MS, MAX_TTL_MS};
use crate::scenario::{strict_json, ScenarioError};

/// What is wrong with a history, and where: its 1-based `line` (0: the text as a whole) and the
/// field's path in that line's object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryError {
    pub line: usize,
    pub path: String,
    pub message: String,
}

impl fmt::Display for HistoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.path.is_empty()) {
            (0, _) => write!(f, "{}", self.message),
            (n, true) => write!(f, "line {n}: {}", self.message),
            (n, false) => write!(f, "line {n}, {}: {}", self.path, self.message),
        }
    }
}

impl std::error::Error for HistoryError {}

impl HistoryError {
    pub(crate) fn at(line: usize, path: &str, message: impl Into<String>) -> HistoryError {
        HistoryError { line, path: path.to_string(), message: message.into() }
    }

    fn of(line: usize, e: ScenarioError) -> HistoryError {
        HistoryError { line, path: e.path, message: e.message }
    }
}

/// The fields an operation line may have.
const OP_FIELDS: &[&str] = &["t", "process", "op", "token", "ttl_ms", "committed_at", "committed", "result", "reason", "ms"];
const HEADER_FIELDS: &[&str] = &["history", "approach", "fencing", "id", "title", "lock"];
const OPS: &[(&str, &str)] = &[
    ("acquire", "acquire"),
    ("denied", "denied"),
    ("grant", "grant"),
    ("renew", "renew"),
    ("expire", "expire"),
    ("lost", "lost"),
    ("release", "release"),
    ("write", "write"),
    ("pause", "pause"),
    ("crash", "crash"),
    ("restart", "restart"),
];
/// Which fields each op takes beyond `t`, `process` and `op`.
fn fields_of(op: &str) -> &'static [&'static str] {
    match op {
        "grant" => &["token", "ttl_ms", "committed_at", "committed"],
        "renew" => &["ttl_ms"],
        "lost" => &["reason"],
        "write" => &["token", "result"],
        "pause" => &["ms"],
        _ => &[],
    }
}

/// Reads a history: an optional header line (`{"history": 1, …}`), then one operation per line,
/// in time order. Blank lines are skipped.
pub fn read(text: &str) -> Result<History, HistoryError> {
    if text.len() > MAX_BYTES {
        return Err(HistoryError::at(0, "", format!("the history is {} bytes: the limit is {MAX_BYTES} (10 MB)", text.len())));
    }
    let mut header = None;
    let mut ops: Vec<Line> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        if n > MAX_LINES {
            return Err(HistoryError::at(n, "", format!("a history has at most {MAX_LINES} lines")));
        }
        if raw.trim().is_empty() {
            continue;
        }
        let v = strict_json::parse(raw).map_err(|e| HistoryError::at(n, "", format!("not a JSON object: {e}")))?;
        if v.get("history").is_some() {
            if header.is_some() || !ops.is_empty() {
                return Err(HistoryError::at(n, "history", "the header must be the first line, and there is one"));
            }
            header = Some(read_header(&v).map_err(|e| HistoryError::of(n, e))?);
            continue;
        }
        let line = read_op(&v, n).map_err(|e| HistoryError::of(n, e))?;
        if let Some(prev) = ops.last() {
            if line.t < prev.t {
                return Err(HistoryError::at(
                    n,
                    "t",
                    format!("{} ms is before line {}'s {} ms: lines must be in time order", line.t, prev.line, prev.t),
                ));
            }
        }
        ops.push(line);
    }
    if ops.is_empty() {
        return Err(HistoryError::at(
            0,
            "",
            "the history has no operations: write one JSON object per line, such as {\"t\": 0, \"process\": \"A\", \"op\": \"acquire\"}",
        ));
    }
    Ok(History { header: header.unwrap_or_default(), ops })
}

fn read_header(v: &serde_json::Value) -> Read<Header> {
    let o = Object::new(v, "", HEADER_FIELDS)?;
    let version = o.req("history", uint)?;
    if version != u64::from(super::FORMAT) {
        return err("history", format!("format {version} is not known: this Lock Lab reads format {}", super::FORMAT));
    }
    let approaches: Vec<(&str, Approach)> = Approach::ALL.iter().map(|a| (a.id(), *a)).collect();
    let d = Header::default();
    Ok(Header {
        approach: o.or("approach", d.approach, |v, p| choice(v, p, &approaches))?,
        fencing: o.or("fencing", d.fencing, boolean)?,
        id: o.or("id", d.id, string)?,
        title: o.or("title", d.title, string)?,
        lock: o.opt("lock", |v, p| if v.is_object() { Ok(v.clone()) } else { invalid(p, v, "an object") })?,
    })
}

fn read_op(v: &serde_json::Value, line: usize) -> Read<Line> {
    let o = Object::new(v, "", OP_FIELDS)?;
    let name = o.req("op", |v, p| choice(v, p, OPS))?;
    // A field another op takes is a mistake here: say which op takes what.
    if let Some(extra) = OP_FIELDS[3..].iter().find(|f| v.get(**f).is_some() && !fields_of(name).contains(f)) {
        let takes = match fields_of(name) {
            [] => "no other field".to_string(),
            fs => fs.iter().map(|f| format!("`{f}`")).collect::<Vec<_>>().join(" and "),
        };
        return err(extra, format!("`{name}` takes {takes} beyond `t`, `process` and `op`"));
    }
    let t = o.req("t", int)?;
    if !(0..=MAX_DURATION_MS).contains(&t) {
        return err("t", format!("{t} ms is out of range: must be 0..={MAX_DURATION_MS} ms (the longest run Lock Lab draws)"));
    }
    let process = o.req("process", string)?;
    let ttl = |v: &serde_json::Value, p: &str| {
        let ms = int(v, p)?;
        in_range(p, ms, 1, MAX_TTL_MS)
    };
    let op = match name {
        "acquire" => Op::Acquire,
        "denied" => Op::Denied,
        "grant" => Op::Grant {
            token: o.opt("token", uint)?,
            ttl_ms: o.opt("ttl_ms", ttl)?,
            committed_at: o.opt("committed_at", |v, p| {
                let at = int(v, p)?;
                if !(0..=t).contains(&at) {
                    return err(
                        p,
                        format!("{at} ms is out of range: must be 0..={t} ms (the service commits a grant before its process hears of it)"),
                    );
                }
                Ok(at)
            })?,
            committed: o.or("committed", true, boolean)?,
        },
        "renew" => Op::Renew { ttl_ms: o.opt("ttl_ms", ttl)? },
        "expire" => Op::Expire,
        "lost" => Op::Lost { reason: o.or("reason", LOST_REASONS[0].1, |v, p| choice(v, p, LOST_REASONS))? },
        "release" => Op::Release,
        "write" => Op::Write {
            token: o.opt("token", uint)?,
            accepted: o.req("result", |v, p| choice(v, p, &[("accepted", true), ("rejected", false)]))?,
        },
        "pause" => Op::Pause { ms: o.req("ms", |v, p| in_range(p, int(v, p)?, 1, MAX_DURATION_MS))? },
        "crash" => Op::Crash,
        _ => Op::Restart,
    };
    Ok(Line { line, t, process, op })
}

fn in_range(path: &str, v: i64, lo: i64, hi: i64) -> Read<i64> {
    crate::scenario::error::range(path, v, lo, hi, " ms").map(|()| v)
}
