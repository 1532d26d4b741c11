//! What changes with the cursor, as markup: the cursor line and its time, messages in flight,
//! and a banner while two clients both believe they hold the lock. The browser redraws these
//! as the cursor moves (`ui::diagram`); an exported figure draws them once.

use std::fmt::Write;

use super::arrows::ends;
use super::geometry::{hue_class, Geometry};
use super::svg::{Esc, N};
use super::words::and_list;
use super::{overlap, Rect};
use crate::decimal::seconds;
use crate::timeline::Timeline;

/// At most this many in-flight messages get a text label (the rest are dots).
const LABELLED: usize = 3;

/// The cursor: a line down through the lanes and a tag on the axis with its true time, and the
/// axis' tick labels but those the tag would cover.
pub fn cursor(g: &Geometry, cursor: f64) -> String {
    let x = g.x(cursor);
    let text = seconds((cursor.floor() as i64).max(0));
    let [bx, _, right, _] = tag_box(g, cursor);
    let w = right - bx;
    let mut ticks = String::from(r#"<g class="ticks">"#);
    for (tx, ty, words) in super::axis::ticks(g) {
        let half = g.text_width(&words, g.font) / 2.0 + 3.0;
        if tx + half < bx || tx - half > bx + w {
            let _ = write!(ticks, r#"<text class="axis-lbl" x="{}" y="{}" text-anchor="middle">{words}</text>"#, N(tx), N(ty));
        }
    }
    ticks.push_str("</g>");
    ticks
        + &format!(
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

/// The cursor's time tag on the axis: its box.
pub fn tag_box(g: &Geometry, cursor: f64) -> Rect {
    let text = seconds((cursor.floor() as i64).max(0));
    let w = text.chars().count() as f64 * g.font * 0.62 + 12.0;
    let bx = crate::decimal::clamp(g.x(cursor) - w / 2.0, g.x0 - 8.0, g.x1 - w + 8.0);
    [bx, 1.0, bx + w, g.axis_h - 9.0]
}

/// What moves with the cursor besides the cursor itself: messages in flight and the banner,
/// placed clear of the labels shown at `cursor` and of the cursor's time tag (the banner
/// first: it is a key moment's). In a small frame the tag reaches down to the top lane's
/// words in flight (issue 25: "10.129 s" over "OK, …" at 320×240).
pub fn layer(t: &Timeline, g: &Geometry, drawing: &super::Drawing, cursor: f64) -> (InFlight, String) {
    let live = arrange(t, g, drawing, cursor);
    (live.flying, live.banner)
}

/// The live layer at `cursor` with the boxes it takes (what `layer` draws; the drawing matrix,
/// tests/drawing_matrix.rs, checks the boxes against the labels shown and the frame).
pub struct Live {
    pub flying: InFlight,
    pub banner: String,
    /// The banner's box (None: no banner).
    pub banner_box: Option<Rect>,
    /// The cursor's time tag.
    pub tag: Rect,
}

/// `layer`, with its boxes.
pub fn arrange(t: &Timeline, g: &Geometry, drawing: &super::Drawing, cursor: f64) -> Live {
    let mut taken = drawing.boxes_until(cursor.floor() as crate::sim::Time);
    let tag = tag_box(g, cursor);
    taken.push(tag);
    // No words over a crash's ✕ or a fault's flag (issue 36), in flight or on the banner.
    taken.extend(super::marks::drawn(t, g, cursor));
    let (banner, banner_box) = overlap_banner(t, g, cursor, &taken);
    taken.extend(banner_box);
    Live { flying: in_flight(t, g, cursor, &taken), banner, banner_box, tag }
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
    /// Each labelled message's plate and the words on it.
    pub plates: Vec<(Rect, String)>,
    /// Each plate's message: its index in `Timeline::arrows`.
    pub arrows: Vec<usize>,
}

/// Messages in flight at `cursor`: a dot on each arrow, the first few labelled. A label goes
/// beside its dot where it covers none of `taken` (the labels shown, the banner) nor another
/// message's label: above or below, on the side with more room first; a message with no such
/// place keeps its dot only.
pub fn in_flight(t: &Timeline, g: &Geometry, cursor: f64, taken: &[Rect]) -> InFlight {
    let mut layers = InFlight::default();
    let InFlight { dots: out, labels, plates, arrows } = &mut layers;
    let mut mine: Vec<Rect> = Vec::new();
    for (k, a) in t.arrows.iter().enumerate().filter(|(_, a)| a.in_flight(cursor)) {
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
        if !faint && mine.len() < LABELLED {
            let free = |b: &Rect| taken.iter().chain(&mine).all(|o| !overlap(b, o));
            if let Some(place) = flight_place(g, &a.label, (x, y), between(g, a), free) {
                mine.push(place.plate);
                plates.push((place.plate, place.text.clone()));
                arrows.push(k);
                let anchor = if place.end { r#" text-anchor="end""# } else { "" };
                let p = place.plate;
                let _ = write!(
                    labels,
                    r#"<g class="flight-label"><rect class="lbl-plate" x="{}" y="{}" width="{}" height="{}"/><text class="lbl flight-lbl" x="{}" y="{}"{anchor}>{}</text></g>"#,
                    N(p[0]),
                    N(p[1]),
                    N(p[2] - p[0]),
                    N(p[3] - p[1]),
                    N(place.x),
                    N(place.y),
                    Esc(&place.text)
                );
            }
        }
        out.push_str("</g>");
    }
    layers
}

/// Where a message's label goes: its words (cut short where no side has room for all of
/// them), its anchor point and its plate.
struct FlightPlace {
    text: String,
    x: f64,
    y: f64,
    end: bool,
    plate: Rect,
}

/// The rows a message's words may take: from the top of the upper of its sender's and
/// receiver's lanes to the bottom of the lower (issue 36: A's `SET lock … NX PX 10000` was
/// written on B's lane in Redlock, below A's, where it reads as B's), and which way its sender
/// is from the dot: true when below (a message going up).
pub fn between(g: &Geometry, a: &crate::timeline::Arrow) -> (f64, f64, bool) {
    let lanes = [g.lane(a.from), g.lane(a.to)];
    let top = lanes.iter().flatten().map(|l| l.top).fold(f64::INFINITY, f64::min);
    let bottom = lanes.iter().flatten().map(|l| l.bottom()).fold(f64::NEG_INFINITY, f64::max);
    (top, bottom, g.mid(a.from) > g.mid(a.to))
}

/// The first free place for a label beside a dot at (`x`, `y`) within the rows `rows` (see
/// `between`): on its sender's side of the dot, then the other, each on the side with more
/// room first.
fn flight_place(
    g: &Geometry,
    label: &str,
    (x, y): (f64, f64),
    rows: (f64, f64, bool),
    free: impl Fn(&Rect) -> bool,
) -> Option<FlightPlace> {
    let (right_room, left_room) = (g.x1 - x - 10.0, x - 10.0 - g.x0);
    let flip_first = bold_width(g, label) > right_room && left_room > right_room;
    let h = g.font * 1.2;
    let (top_row, bottom_row, sender_below) = rows;
    for below in [sender_below, !sender_below] {
        for end in [flip_first, !flip_first] {
            let room = if end { left_room } else { right_room };
            // Whole words only: the label, or its first word where the label has no room.
            let Some(text) = fit(label, room, g) else { continue };
            let w = bold_width(g, &text);
            let lx = if end { x - 10.0 } else { x + 10.0 };
            let left = if end { lx - w } else { lx };
            // Above: the baseline 8 px over the dot; below: the text's top 8 px under it.
            let base = if below { y + 8.0 + g.font * 0.9 } else { y - 8.0 };
            let top = base - g.font * 0.9;
            let plate = [left - 3.0, top, left + w + 3.0, top + h];
            // Inside the drawing: under the last lane of a small frame it would be cut off
            // (issue 25: "write OK" at 320×240).
            let inside = plate[1] >= 0.0 && plate[3] <= g.height && plate[1] >= top_row && plate[3] <= bottom_row;
            if w > 0.0 && inside && free(&plate) {
                return Some(FlightPlace { text, x: lx, y: base, end, plate });
            }
        }
    }
    None
}

/// The estimated width of a flight label (semi-bold: the estimate is bold's).
fn bold_width(g: &Geometry, text: &str) -> f64 {
    g.text_width(text, g.font)
}

/// The fullest of a message label's phrasings that fits in `px` (`phrasings`), else nothing:
/// a label cut mid-word ("EVAL comp…") says less than any of them.
fn fit(text: &str, px: f64, g: &Geometry) -> Option<String> {
    phrasings(text).into_iter().find(|t| bold_width(g, t) <= px)
}

/// A message label's whole phrasings, fullest first: the label; its first clause (up to a
/// colon, a comma or a parenthesis: "write rejected"); its head, the message's kind
/// ("release", "nil"). A command's name alone says nothing of what it does, so a head that
/// is one ("EVAL", "SET", "DEL") keeps the word after it: "EVAL compare-and-delete", "SET lock".
pub fn phrasings(text: &str) -> Vec<String> {
    let clause = text.split([':', ',', '(']).next().unwrap_or_default().trim_end();
    let mut words = text.split(' ');
    let first = words.next().unwrap_or_default();
    let bare = first.trim_end_matches([':', ',']);
    let command = bare == first && bare.len() >= 2 && bare.chars().all(|c| c.is_ascii_uppercase());
    let head = match words.next().filter(|_| command) {
        Some(next) => format!("{bare} {}", next.trim_end_matches([':', ',']).split('(').next().unwrap_or_default()),
        None => bare.split('(').next().unwrap_or_default().to_string(),
    };
    let mut out: Vec<String> = Vec::new();
    for p in [text.to_string(), clause.to_string(), head.trim_end().to_string()] {
        if !p.is_empty() && !out.contains(&p) {
            out.push(p);
        }
    }
    out
}

/// A banner beside the cursor while two or more clients believe they hold the lock: at the top
/// of a believer's lane, right of the cursor (or left, near the right edge); where that covers
/// a label of `taken`, at the bottom of one, then at any height across their lanes, then
/// wherever it covers least.
/// Returns the markup and the banner's box (None: no banner).
pub fn overlap_banner(t: &Timeline, g: &Geometry, cursor: f64, taken: &[Rect]) -> (String, Option<Rect>) {
    let Some(o) = t.overlaps.iter().find(|o| (o.from as f64) <= cursor && cursor < o.to as f64) else { return (String::new(), None) };
    let names: Vec<&str> = o.clients.iter().map(|&c| t.name(c)).collect();
    let both = if names.len() == 2 { "both" } else { "all" };
    let [long_words, short_words] = t.approach.spec().words.belief.together;
    let short = format!("{} {both} {short_words}", and_list(&names));
    let long = format!("{} {both} {long_words}", and_list(&names));
    // The long words where there is room for them clear of the labels, else the short ones.
    // In a small embed even the names may not fit beside the cursor: the words alone (the
    // hatched overlap says whose lanes).
    let bare = format!("{} {short_words}", if names.len() == 2 { "Both" } else { "All" });
    let texts = if g.narrow { vec![short, bare] } else { vec![long, short] };
    let lanes: Vec<_> = o.clients.iter().filter_map(|&c| g.lane(c)).collect();
    let x = g.x(cursor);
    let h = g.font + 10.0;
    // Estimated boxes: a few px of margin keep an estimate's error from touching a label.
    let covered_by = |b: &Rect, margin: f64| {
        let b = [b[0] - margin, b[1] - margin, b[2] + margin, b[3] + margin];
        taken.iter().filter(|o| overlap(&b, o)).map(|o| (o[2].min(b[2]) - o[0].max(b[0])) * (o[3].min(b[3]) - o[1].max(b[1]))).sum::<f64>()
    };
    let covered = |b: &Rect| covered_by(b, 4.0);
    // A text's width and its places right and left of the cursor (left first near the right edge).
    let beside = |text: &str| {
        let w = g.text_width(text, g.emphasis()) + 30.0;
        let right = if x + 12.0 + w < g.x1 { x + 12.0 } else { (x - 12.0 - w).max(g.x0) };
        (w, right, (x - 12.0 - w).max(g.x0))
    };
    // For each text: the top of each believer's lane, then the bottom of each, then the middle,
    // right of the cursor, then left.
    let mut near: Vec<(&str, Rect)> = Vec::new();
    for text in &texts {
        let (w, right, left) = beside(text);
        let tops = lanes.iter().map(|b| b.top + 2.0);
        let rows = tops.chain(lanes.iter().map(|b| b.bottom() - h - 2.0)).chain(lanes.iter().map(|b| b.mid() - h / 2.0));
        for by in rows {
            near.push((text, [right, by, right + w, by + h]));
            near.push((text, [left, by, left + w, by + h]));
        }
    }
    // Where every one of those is taken (lanes squeezed on a compared stage): any height across
    // the believers' lanes, straddling their edges, in 2 px steps, beside the cursor or at the
    // plot's ends. Made only then: it is a hundred places a lane, and this runs every frame.
    let scan = || {
        let mut places: Vec<(&str, Rect)> = Vec::new();
        for text in &texts {
            let (w, right, left) = beside(text);
            let xs = [right, left, (g.x1 - w).max(g.x0), g.x0];
            for b in &lanes {
                let mut by = b.top - h / 2.0;
                while by <= b.bottom() - h / 2.0 {
                    places.extend(xs.iter().map(|&fx| (text.as_str(), [fx, by, fx + w, by + h])));
                    by += 2.0;
                }
            }
        }
        places
    };
    // Never cut at the drawing's edge (a 320×240 embed's plot is narrower than the words).
    let inside = |b: &Rect| b[0] >= 0.0 && b[2] <= g.width;
    let clear = |b: &Rect| inside(b) && covered(b) == 0.0;
    let found = near.iter().copied().find(|(_, b)| clear(b)).or_else(|| {
        let far = scan();
        // Nowhere clear by the margin: a place that touches nothing, margin aside. Where none
        // is (a 320×240 embed's squeezed lanes), no banner: the hatched overlap and the
        // caption say the same, and a banner would cover a write's outcome (issue 25).
        far.iter()
            .copied()
            .find(|(_, b)| clear(b))
            .or_else(|| near.iter().chain(&far).copied().find(|(_, b)| inside(b) && covered_by(b, 0.0) == 0.0))
    });
    let Some((text, best)) = found else { return (String::new(), None) };
    let [bx, by, bx1, _] = best;
    let markup = format!(
        r#"<g class="banner"><rect x="{}" y="{}" width="{}" height="{}" rx="4"/><path class="banner-icon" d="M{} {}l6 10.5h-12z"/><text x="{}" y="{}">{}</text></g>"#,
        N(bx),
        N(by),
        N(bx1 - bx),
        N(h),
        N(bx + 12.0),
        N(by + 3.5),
        N(bx + 24.0),
        N(by + g.font + 1.5),
        Esc(text)
    );
    (markup, Some(best))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab;
    use crate::scenario::catalog;

    /// Issue 25, item 5: in a 320×240 embed's drawing the two-believers banner is never cut
    /// at its edge (its names were wider than the plot), at every millisecond of an overlap.
    #[test]
    fn the_banner_stays_inside_a_small_embed() {
        for s in catalog::all() {
            let t = Timeline::of_run(&lab::run(&s));
            let g = Geometry::fitted(&t, 310.0, 132.0, false);
            for o in &t.overlaps {
                for at in (o.from..o.to).step_by(97) {
                    if let (_, Some(b)) = overlap_banner(&t, &g, at as f64, &[]) {
                        assert!(b[0] >= 0.0 && b[2] <= g.width, "{} at {at} ms: banner {b:?} in {} px", s.id, g.width);
                    }
                }
            }
        }
    }

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
                    for (x, w) in plates(&in_flight(&t, &g, at, &[]).labels) {
                        seen += 1;
                        assert!(x >= g.x0 - 4.0 && x + w <= g.x1 + 4.0, "{} at {width}px, {at} ms: plate {x}..{}", s.id, x + w);
                    }
                }
                assert!(seen > 0, "{}: no label in flight", s.id);
            }
        }
    }

    #[test]
    fn words_in_flight_and_the_banner_keep_clear_of_the_labels_shown() {
        let (mut flights, mut banners) = (0, 0);
        for s in catalog::all() {
            for fencing in [false, true] {
                let t = Timeline::of_run(&lab::run(&crate::lab::with_fencing(&s, fencing)));
                for (width, lecture) in [(360.0, false), (1280.0, false), (975.0, true)] {
                    let g = Geometry::new(&t, width, lecture);
                    let d = super::super::scene(&t, &g);
                    let moments =
                        t.arrows.iter().map(|a| (a.sent + a.end()) as f64 / 2.0).chain(t.overlaps.iter().map(|o| o.from as f64 + 1.0));
                    for at in moments {
                        let taken = d.boxes_until(at.floor() as crate::sim::Time);
                        // The banner where the layer put it (clear of the cursor's tag too).
                        let Live { flying, banner, banner_box, .. } = arrange(&t, &g, &d, at);
                        for (x, w) in plates(&flying.labels) {
                            flights += 1;
                            // Read back from markup's one decimal: a plate that only touches a box may read 0.05 px into it.
                            let plate = taken
                                .iter()
                                .chain(&banner_box)
                                .find(|b| x + 0.05 < b[2] && b[0] < x + w - 0.05 && in_rows(&flying.labels, x, b));
                            assert!(plate.is_none(), "{} at {width}px, {at} ms: a label in flight at x {x} covers {plate:?}", s.id);
                        }
                        banners += usize::from(!banner.is_empty());
                    }
                }
            }
        }
        assert!(flights > 1000 && banners > 50, "{flights} labels in flight, {banners} banners");
    }

    /// Whether the plate at `x` in `markup` shares rows with `b`.
    fn in_rows(markup: &str, x: f64, b: &Rect) -> bool {
        let tag = markup.split(r#"<rect class="lbl-plate""#).skip(1).find(|tag| tag.contains(&format!(r#"x="{}""#, N(x)))).unwrap();
        let attr = |name: &str| -> f64 {
            let at = tag.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
            tag[at..at + tag[at..].find('"').unwrap()].parse().unwrap()
        };
        let (y, h) = (attr("y"), attr("height"));
        // Rows that only touch (79.2 + 14.4 against 93.6, read back from markup's decimals) do
        // not share a row: a hundredth of a px is rounding, not covering.
        const TOUCH: f64 = 0.01;
        y < b[3] - TOUCH && b[1] + TOUCH < y + h
    }

    #[test]
    fn a_label_with_no_room_keeps_whole_words() {
        let s = catalog::get("redis-gc-pause").unwrap();
        let t = Timeline::of_run(&lab::run(&s));
        let g = Geometry::new(&t, 360.0, false);
        assert_eq!(fit("write OK", 200.0, &g).as_deref(), Some("write OK"));
        // Issue 36: a bare "EVAL" never said what the script does.
        assert_eq!(fit("EVAL compare-and-delete 0185…", 200.0, &g).as_deref(), Some("EVAL compare-and-delete"));
        assert_eq!(fit("EVAL compare-and-delete 0185…", 60.0, &g), None);
        assert_eq!(fit("release: expire row if token matches", 70.0, &g).as_deref(), Some("release"));
        assert_eq!(fit("EVAL compare-and-delete", 5.0, &g), None);
        assert_eq!(phrasings("SET lock d34e… NX PX 10000"), ["SET lock d34e… NX PX 10000", "SET lock"]);
        assert_eq!(phrasings("OK, token 1"), ["OK, token 1", "OK"]);
        assert_eq!(phrasings("nil (key exists)"), ["nil (key exists)", "nil"]);
        assert_eq!(phrasings("write rejected: stale token"), ["write rejected: stale token", "write rejected", "write"]);
        assert_eq!(
            phrasings("EVAL lock: HINCRBY lock <owner> 1, PEXPIRE 30000"),
            ["EVAL lock: HINCRBY lock <owner> 1, PEXPIRE 30000", "EVAL lock"]
        );
    }
}
