//! What changes with the cursor, as markup: the cursor line and its time, messages in flight,
//! and a banner while two clients both believe they hold the lock. The browser redraws these
//! as the cursor moves (`ui::diagram`); an exported figure draws them once.

use std::fmt::Write;

use super::arrows::ends;
use super::geometry::{hue_class, Geometry};
use super::svg::{Esc, N};
use super::words::and_list;
use crate::decimal::seconds;
use crate::timeline::Timeline;

/// At most this many in-flight messages get a text label (the rest are dots).
const LABELLED: usize = 3;

/// The cursor: a line down through the lanes and a tag on the axis with its true time.
pub fn cursor(g: &Geometry, cursor: f64) -> String {
    let x = g.x(cursor);
    let text = seconds((cursor.floor() as i64).max(0));
    let w = text.chars().count() as f64 * g.font * 0.62 + 12.0;
    let bx = crate::decimal::clamp(x - w / 2.0, g.x0 - 8.0, g.x1 - w + 8.0);
    format!(
        r#"<g class="cursor"><line class="cursor-line" x1="{x}" x2="{x}" y1="{}" y2="{}"/><rect class="cursor-tag" x="{}" y="1" width="{}" height="{}" rx="3"/><text class="cursor-time" x="{}" y="{}" text-anchor="middle">{text}</text></g>"#,
        N(g.axis_h - 8.0),
        N(g.height - 2.0),
        N(bx),
        N(w),
        N(g.axis_h - 10.0),
        N(bx + w / 2.0),
        N(g.axis_h - 14.0),
        x = N(x),
    )
}

/// Messages in flight at a moment, as two layers of markup.
#[derive(Default)]
pub struct InFlight {
    /// A dot on each arrow: under the static labels and write marks (a reply leaving storage
    /// must not hide the outcome it answers).
    pub dots: String,
    /// The first few messages' words, each on a plate: over the static labels, whose letters
    /// would otherwise show through them.
    pub labels: String,
}

/// Messages in flight at `cursor`: a dot on each arrow, the first few labelled.
pub fn in_flight(t: &Timeline, g: &Geometry, cursor: f64) -> InFlight {
    let mut layers = InFlight::default();
    let InFlight { dots: out, labels } = &mut layers;
    let mut labelled = 0;
    for a in t.arrows.iter().filter(|a| a.in_flight(cursor)) {
        let (x0, y0, x1, y1) = ends(g, a);
        let span = (a.end() - a.sent).max(1) as f64;
        let p = crate::decimal::clamp((cursor - a.sent as f64) / span, 0.0, 1.0);
        let (x, y) = (x0 + (x1 - x0) * p, y0 + (y1 - y0) * p);
        let faint = a.quiet || a.client.is_none();
        let hue = hue_class(a.client.and_then(|c| t.hue(c)));
        let _ = write!(
            out,
            r#"<g class="flight {hue}{}"><circle class="dot" cx="{}" cy="{}" r="{}"/>"#,
            if faint { " quiet" } else { "" },
            N(x),
            N(y),
            if faint { "3.5" } else { "6" }
        );
        if !faint && labelled < LABELLED {
            labelled += 1;
            // Near the right edge the label goes to the left of the dot, on the side with more
            // room; where neither side has room for all of it (a phone), it is cut short.
            let (right_room, left_room) = (g.x1 - x - 10.0, x - 10.0 - g.x0);
            let flip = bold_width(g, &a.label) > right_room && left_room > right_room;
            let text = fit(&a.label, if flip { left_room } else { right_room }, g);
            let w = bold_width(g, &text);
            let (lx, anchor) = if flip { (x - 10.0, r#" text-anchor="end""#) } else { (x + 10.0, "") };
            let left = if flip { lx - w } else { lx };
            let (top, h) = (y - 8.0 - g.font * 0.9, g.font * 1.2);
            let _ = write!(
                labels,
                r#"<g class="flight-label"><rect class="lbl-plate" x="{}" y="{}" width="{}" height="{}"/><text class="lbl flight-lbl" x="{}" y="{}"{anchor}>{}</text></g>"#,
                N(left - 3.0),
                N(top),
                N(w + 6.0),
                N(h),
                N(lx),
                N(y - 8.0),
                Esc(&text)
            );
        }
        out.push_str("</g>");
    }
    layers
}

/// The estimated width of a flight label: set semi-bold, wider than the estimate for plain text.
fn bold_width(g: &Geometry, text: &str) -> f64 {
    g.text_width(text, g.font) * 1.12
}

/// `text`, or as much of it as fits in `px` followed by "…".
fn fit(text: &str, px: f64, g: &Geometry) -> String {
    if bold_width(g, text) <= px {
        return text.to_string();
    }
    let room = (px / bold_width(g, "m")).floor().max(1.0) as usize;
    let mut cut: String = text.chars().take(room.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// A banner beside the cursor while two or more clients believe they hold the lock.
pub fn overlap_banner(t: &Timeline, g: &Geometry, cursor: f64) -> String {
    let Some(o) = t.overlaps.iter().find(|o| (o.from as f64) <= cursor && cursor < o.to as f64) else { return String::new() };
    let names: Vec<&str> = o.clients.iter().map(|&c| t.name(c)).collect();
    let both = if names.len() == 2 { "both" } else { "all" };
    let text = if g.narrow {
        format!("{} {both} hold it", and_list(&names))
    } else {
        format!("{} {both} believe they hold the lock", and_list(&names))
    };
    let top = o.clients.iter().filter_map(|&c| g.lane(c)).map(|b| b.top).fold(f64::INFINITY, f64::min);
    let x = g.x(cursor);
    let w = text.chars().count() as f64 * g.font * 0.6 + 30.0;
    let bx = if x + 12.0 + w < g.x1 { x + 12.0 } else { (x - 12.0 - w).max(g.x0) };
    format!(
        r#"<g class="banner"><rect x="{}" y="{}" width="{}" height="{}" rx="4"/><path class="banner-icon" d="M{} {}l6 10.5h-12z"/><text x="{}" y="{}">{}</text></g>"#,
        N(bx),
        N(top + 2.0),
        N(w),
        N(g.font + 10.0),
        N(bx + 12.0),
        N(top + 5.5),
        N(bx + 24.0),
        N(top + g.font + 3.5),
        Esc(&text)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab;
    use crate::scenario::catalog;

    /// The x and width of every plate under an in-flight label.
    fn plates(markup: &str) -> Vec<(f64, f64)> {
        let attr = |tag: &str, name: &str| -> f64 {
            let at = tag.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
            tag[at..at + tag[at..].find('"').unwrap()].parse().unwrap()
        };
        markup.split(r#"<rect class="lbl-plate""#).skip(1).map(|tag| (attr(tag, "x"), attr(tag, "width"))).collect()
    }

    #[test]
    fn in_flight_words_stay_inside_the_diagram_even_on_a_phone() {
        for s in catalog::all() {
            let t = Timeline::of_run(&lab::run(&s));
            for width in [360.0, 1280.0] {
                let g = Geometry::new(&t, width, false);
                let mut seen = 0;
                for a in t.arrows.iter().filter(|a| !a.quiet && a.client.is_some()) {
                    let at = (a.sent + a.end()) as f64 / 2.0;
                    for (x, w) in plates(&in_flight(&t, &g, at).labels) {
                        seen += 1;
                        assert!(x >= g.x0 - 4.0 && x + w <= g.x1 + 4.0, "{} at {width}px, {at} ms: plate {x}..{}", s.id, x + w);
                    }
                }
                assert!(seen > 0, "{}: no label in flight", s.id);
            }
        }
    }

    #[test]
    fn a_label_with_no_room_is_cut_short() {
        let s = catalog::get("redis-gc-pause").unwrap();
        let t = Timeline::of_run(&lab::run(&s));
        let g = Geometry::new(&t, 360.0, false);
        assert_eq!(fit("write OK", 200.0, &g), "write OK");
        let cut = fit("EVAL compare-and-delete 0185…", 60.0, &g);
        assert!(cut.ends_with('…') && bold_width(&g, &cut) <= 60.0, "{cut}");
    }
}
