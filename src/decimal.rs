//! Decimal text for fractional numbers, written with integer arithmetic. Formatting an `f64`
//! with `{}` or `{:.1}` pulls the standard library's float printer (Grisu and Dragon4 with their
//! power-of-ten tables, most of it incompressible) into the wasm bundle; every number Lock Lab
//! shows has a fixed number of decimals, so this is all it needs.

use std::fmt::{self, Display};

/// `v` limited to `lo..=hi`, or `hi` when the range is empty. Used instead of `f64::clamp`,
/// whose assertion (`min > max, or either was NaN`) prints floats with Debug: one call with
/// bounds the compiler cannot check pulls the whole float printer into the bundle, and it
/// panics on an empty range (a label wider than the diagram).
pub fn clamp(v: f64, lo: f64, hi: f64) -> f64 {
    v.max(lo).min(hi)
}

/// `value` rounded to `decimals` places (half away from zero), e.g. `Fixed(1.25, 1)` → "1.3",
/// `Fixed(-0.04, 1)` → "0". Trailing zeros are kept: "10.100".
#[derive(Clone, Copy)]
pub struct Fixed(pub f64, pub u32);

impl Display for Fixed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_scaled(f, scaled(self.0, self.1), self.1)
    }
}

/// `value` with at most `decimals` places and no trailing zeros: "1.5", "2", "0.25".
#[derive(Clone, Copy)]
pub struct Short(pub f64, pub u32);

impl Display for Short {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (mut v, mut places) = (scaled(self.0, self.1), self.1);
        while places > 0 && v % 10 == 0 {
            v /= 10;
            places -= 1;
        }
        write_scaled(f, v, places)
    }
}

/// `value × 10^places`, rounded half away from zero.
fn scaled(value: f64, places: u32) -> i64 {
    (value * 10i64.pow(places) as f64).round() as i64
}

/// Writes `v / 10^places` with exactly `places` decimals, digit by digit into a stack buffer:
/// the diagram writes thousands of coordinates per run, and `write!` with a width and a
/// temporary `String` per number made formatting most of a redraw's time.
fn write_scaled(f: &mut fmt::Formatter<'_>, v: i64, places: u32) -> fmt::Result {
    let mut buf = [0u8; 24];
    let mut i = buf.len();
    let mut rest = v.unsigned_abs();
    let mut written = 0;
    loop {
        i -= 1;
        buf[i] = b'0' + (rest % 10) as u8;
        rest /= 10;
        written += 1;
        if written == places {
            i -= 1;
            buf[i] = b'.';
        }
        if rest == 0 && written > places {
            break;
        }
    }
    if v < 0 {
        i -= 1;
        buf[i] = b'-';
    }
    f.write_str(std::str::from_utf8(&buf[i..]).unwrap_or_default())
}

/// A time or a duration in the product's one way of writing it: under a second in ms
/// ("500 ms"), else seconds with up to three decimals and no trailing zeros ("1.5 s",
/// "10.129 s", "15 s"). Every caption, label, panel and the CLI write times with this, so
/// the same moment reads the same everywhere.
pub fn seconds(ms: i64) -> String {
    if ms != 0 && ms.abs() < 1000 {
        format!("{ms} ms")
    } else {
        format!("{} s", Short(ms as f64 / 1000.0, 3))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_places() {
        assert_eq!(Fixed(10.129, 3).to_string(), "10.129");
        assert_eq!(Fixed(10.1, 3).to_string(), "10.100");
        assert_eq!(Fixed(1.25, 1).to_string(), "1.3");
        assert_eq!(Fixed(-1.25, 1).to_string(), "-1.3");
        assert_eq!(Fixed(-0.04, 1).to_string(), "0.0");
        assert_eq!(Fixed(-0.06, 1).to_string(), "-0.1");
        assert_eq!(Fixed(7.0, 0).to_string(), "7");
    }

    #[test]
    fn seconds_in_the_shortest_honest_form() {
        assert_eq!(seconds(0), "0 s");
        assert_eq!(seconds(500), "500 ms");
        assert_eq!(seconds(-250), "-250 ms");
        assert_eq!(seconds(1_500), "1.5 s");
        assert_eq!(seconds(10_129), "10.129 s");
        assert_eq!(seconds(15_000), "15 s");
        assert_eq!(seconds(-10_000), "-10 s");
    }

    #[test]
    fn short_drops_trailing_zeros() {
        assert_eq!(Short(0.25, 2).to_string(), "0.25");
        assert_eq!(Short(4.0, 2).to_string(), "4");
        assert_eq!(Short(12.34, 1).to_string(), "12.3");
        assert_eq!(Short(-0.01, 1).to_string(), "0");
        assert_eq!(Short(-3.0, 1).to_string(), "-3");
    }
}
