//! Small formatting helpers shared by the panels and the diagram.

use crate::decimal;

/// "10.129 s", or "10 s" for whole seconds.
pub fn secs(ms: f64) -> String {
    if (ms / 1000.0).fract() == 0.0 {
        format!("{} s", decimal::secs(ms, 0))
    } else {
        format!("{} s", decimal::secs(ms, 3))
    }
}

/// "15 s", "500 ms", "1.5 s" (it lives in `decimal` so the scenario layer can use it too).
pub use crate::decimal::span;

use crate::scenario::Approach;

/// A fencing token as the approach names it, exactly as the captions say it ("token 2",
/// "czxid 0x1_00000003", "revision 7", "no token").
pub fn token(approach: Approach, t: Option<u64>) -> String {
    approach.token_label(t)
}

/// The bare value for tight spots: "2", "0x1_00000003", "—".
pub fn token_value(approach: Approach, t: Option<u64>) -> String {
    match (approach, t) {
        (_, None) => "—".into(),
        (Approach::Zookeeper, Some(t)) => format!("0x{:x}_{:08x}", t >> 32, t & 0xffff_ffff),
        (_, Some(t)) => t.to_string(),
    }
}

/// "100,000": digits grouped in threes, as the README's limits are written.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// "A and B", "A, B and C".
pub fn and_list(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}
