//! The true-time axis along the top, with faint grid lines down through the lanes.

use super::geometry::Geometry;
use super::svg::Svg;

/// A tick interval that keeps labels at least ~70 px apart.
fn tick_ms(g: &Geometry) -> i64 {
    let px_per_ms = (g.x1 - g.x0) / g.duration;
    let min_px = if g.narrow { 52.0 } else { 70.0 };
    [100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 30_000, 60_000, 120_000, 300_000]
        .into_iter()
        .find(|&s| s as f64 * px_per_ms >= min_px)
        .unwrap_or(600_000)
}

/// The axis line and the grid (the static drawing); the tick labels are `ticks`', written with
/// the cursor (`live::cursor`), which leaves out those its time chip would cover.
pub fn axis(s: &mut Svg, g: &Geometry) {
    let step = tick_ms(g);
    let y = g.axis_h - 8.0;
    s.open("axis");
    s.line("axis-line", g.x0, y, g.x1, y);
    for k in 0..=(g.duration as i64) / step {
        let x = g.xt(k * step);
        s.line("grid", x, y, x, g.height - 4.0);
    }
    s.close();
}

/// The tick labels: x (the text's middle), baseline y and words. A label centred on its tick
/// would stick out past the drawing's right edge at the run's end ("20 s" at 1920×1080 ended
/// 2 px outside): the last ones are pulled in to end inside it.
pub fn ticks(g: &Geometry) -> impl Iterator<Item = (f64, f64, String)> + '_ {
    let step = tick_ms(g);
    let y = g.axis_h - 13.0;
    (0..=(g.duration as i64) / step).map(move |k| {
        let words = crate::decimal::seconds(k * step);
        let half = g.text_width(&words, g.font) / 2.0;
        (g.xt(k * step).min(g.width - half - EDGE), y, words)
    })
}

/// The room a tick label keeps from the drawing's right edge, px.
const EDGE: f64 = 2.0;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab;
    use crate::scenario::catalog;
    use crate::timeline::Timeline;

    #[test]
    fn every_tick_label_stays_inside_the_drawing() {
        for s in catalog::all() {
            let t = Timeline::of_run(&lab::run(&s));
            for (width, lecture) in [(360.0, false), (1280.0, false), (1248.0, true), (1888.0, true), (500.0, false)] {
                let g = Geometry::new(&t, width, lecture);
                for (x, _, words) in ticks(&g) {
                    let half = g.text_width(&words, g.font) / 2.0;
                    assert!(
                        x - half >= 0.0 && x + half <= g.width,
                        "{} at {width} px: \"{words}\" spans {:.1}..{:.1} of {:.1}",
                        s.id,
                        x - half,
                        x + half,
                        g.width
                    );
                }
            }
        }
    }
}
