//! Small formatting helpers shared by the panels and the diagram.

/// "10.129 s", or "10 s" for whole seconds.
pub fn secs(ms: f64) -> String {
    if (ms / 1000.0).fract() == 0.0 {
        format!("{} s", ms / 1000.0)
    } else {
        format!("{:.3} s", ms / 1000.0)
    }
}

/// "15 s", "500 ms", "1.5 s": a duration in the shortest honest form.
pub fn span(ms: i64) -> String {
    if ms.abs() < 1000 {
        format!("{ms} ms")
    } else if ms % 1000 == 0 {
        format!("{} s", ms / 1000)
    } else {
        format!("{:.1} s", ms as f64 / 1000.0)
    }
}

/// A fencing token as people read it. ZooKeeper's czxid (epoch << 32 | counter) is shown as
/// epoch:counter, because 4294967299 means nothing to anyone.
pub fn token(t: Option<u64>) -> String {
    match t {
        None => "no token".into(),
        Some(t) if t > u32::MAX as u64 => format!("token {}:{}", t >> 32, t & 0xffff_ffff),
        Some(t) => format!("token {t}"),
    }
}

/// The bare token value (for tight spots): "1", "1:3", "—".
pub fn token_value(t: Option<u64>) -> String {
    match t {
        None => "—".into(),
        Some(t) if t > u32::MAX as u64 => format!("{}:{}", t >> 32, t & 0xffff_ffff),
        Some(t) => t.to_string(),
    }
}

/// "A and B", "A, B and C".
pub fn and_list(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}
