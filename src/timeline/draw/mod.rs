//! The static drawing of a run: everything in the space-time diagram that does not move with
//! the cursor, written as SVG markup from a `Timeline` and a `Geometry`. Plain Rust, so it is
//! tested natively and could export a figure; the browser wraps it (`ui::diagram`) with the
//! live layer (cursor, messages in flight, lane states and clocks).
//!
//! Shapes are written in z-order; their labels go on top, placed in priority order by a
//! `Placer` that drops a label rather than let it collide with one already placed, or with a
//! shape it would hide: a bar, an arrow's end, a marker (see `Keepout`). Every shape that
//! carries words keeps them whole in its tooltip, so a label shortened or dropped here is
//! never lost.

pub mod arrows;
pub mod axis;
mod bands;
mod bars;
pub mod export;
pub mod geometry;
pub mod lanes;
pub mod live;
pub mod marks;
pub mod story;
pub mod svg;
pub mod words;
mod writes;

pub use geometry::{hue_class, Geometry, LaneBox};
pub use writes::glyph_svg;

use self::svg::Svg;
use super::Timeline;
use crate::sim::{Role, Time};

/// Hatching for pauses, outages, overdue beliefs and overlaps (the styles name them by id).
pub const DEFS: &str = concat!(
    r#"<defs><pattern id="hatch-pause" width="7" height="7" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">"#,
    r#"<rect class="hatch-bg" width="7" height="7"/><line class="hatch-line" x1="0" y1="0" x2="0" y2="7"/></pattern>"#,
    r#"<pattern id="hatch-down" width="6" height="6" patternUnits="userSpaceOnUse"><rect class="hatch-bg-down" width="6" height="6"/>"#,
    r#"<path class="hatch-line-down" d="M0 0L6 6M6 0L0 6"/></pattern>"#,
    r#"<pattern id="hatch-white" width="5" height="5" patternUnits="userSpaceOnUse" patternTransform="rotate(-45)">"#,
    r#"<line class="hatch-white" x1="0" y1="0" x2="0" y2="5"/></pattern>"#,
    r#"<pattern id="hatch-overlap" width="9" height="9" patternUnits="userSpaceOnUse" patternTransform="rotate(-45)">"#,
    r#"<rect class="hatch-bg-overlap" width="9" height="9"/><line class="hatch-line-overlap" x1="0" y1="0" x2="0" y2="9"/></pattern></defs>"#,
);

/// When a label appears: the true time of what it names and that event's index in the trace
/// (0 for what no event marks, shown from its millisecond's first event on). Events that
/// share a millisecond happen in trace order, so a key moment's labels come with it, not
/// with the first event of its millisecond.
pub type Instant = (Time, usize);

/// A label to place: its text, where, and the instant it belongs to.
pub struct Label<'a> {
    pub at: Instant,
    pub class: &'a str,
    pub x: f64,
    /// Baseline.
    pub y: f64,
    /// "start", "middle" or "end".
    pub anchor: &'a str,
    pub text: &'a str,
    /// Font size in px, for the collision box.
    pub font: f64,
}

/// Labels placed so far: their boxes (to refuse collisions) and their markup with the true
/// time they belong to (a label appears when the cursor reaches its moment, not when the
/// cursor's clip happens to uncover its text).
#[derive(Default)]
pub struct Placer {
    boxes: Vec<[f64; 4]>,
    /// The shapes no label may cover (issue 25, item 5), whatever the width.
    keepout: Vec<(Rect, Keepout)>,
    /// For each box, what it may cover: bars' edges (on a plate), its own bar.
    may_cover: Vec<(bool, Option<Rect>)>,
    labels: Vec<(Instant, String)>,
    /// The box of each placed label with its moment (what the live layer must keep clear of),
    /// and its words.
    placed: Vec<(Instant, Rect, Words)>,
}

/// A placed label's words as the box was measured: its class, text and the font size its
/// width was estimated at (`Geometry::text_width`). The drawing matrix (tests/drawing_matrix.rs)
/// writes them out for the browser's calibration spec, which holds each estimate against the
/// rendered width: that is what makes the native checks on the boxes honest.
#[derive(Clone, Debug, PartialEq)]
pub struct Words {
    pub class: String,
    pub text: String,
    pub font: f64,
}

/// A box: left, top, right, bottom.
pub type Rect = [f64; 4];

/// What a shape is to the labels around it. The one rule: a label covers no bar, no arrow's
/// end and no marker, except the bar it is written in (a lease's holder, `place_in`); a label
/// on a plate (a mark's word) may cross a bar's edge, since its plate hides the edge under the
/// letters, but never a marker or an arrow's end. Where no spot is clear the label is moved,
/// shortened or dropped by its caller.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Keepout {
    /// A lease, belief or held bar.
    Bar,
    /// An arrow's head (or its lost cross), a fault's mark, a write's glyph.
    Point,
}

/// Whether two boxes overlap (touching edges do not).
pub fn overlap(a: &Rect, b: &Rect) -> bool {
    !(a[2] <= b[0] || b[2] <= a[0] || a[3] <= b[1] || b[3] <= a[1])
}

impl Placer {
    /// The box a label covers (text measured by estimate).
    fn bounds(g: &Geometry, l: &Label) -> [f64; 4] {
        let w = g.text_width(l.text, l.font);
        let x0 = match l.anchor {
            "end" => l.x - w,
            "middle" => l.x - w / 2.0,
            _ => l.x,
        };
        // A text's box in the browser: its font's ascent over the baseline, descent under it.
        [x0 - 2.0, l.y - l.font * 0.95, x0 + w + 2.0, l.y + l.font * 0.25]
    }

    fn free(&self, b: &[f64; 4]) -> bool {
        self.boxes.iter().all(|o| !overlap(b, o))
    }

    /// Whether box `b` keeps off every shape (bars too unless `plate`; `own`: the bar the
    /// label is written in).
    fn clear(&self, b: &Rect, plate: bool, own: Option<&Rect>) -> bool {
        // The letters' own box: the 2 px each side that keep two labels apart are not needed
        // to keep a label off a shape (a label 4 px after an arrow's end clears its barb).
        let ink = [b[0] + 2.0, b[1], b[2] - 2.0, b[3]];
        self.keepout.iter().all(|(r, k)| !overlap(&ink, r) || (plate && *k == Keepout::Bar) || Some(r) == own)
    }

    /// A placer that keeps its labels off `keepout` (see `keepout`).
    pub fn keeping_off(keepout: Vec<(Rect, Keepout)>) -> Placer {
        Placer { keepout, ..Placer::default() }
    }

    /// `plate`: a light backing under the text, for labels that sit on a lane's busy top edge
    /// (a bar's border would otherwise run between the letters like a strike-through).
    fn push(&mut self, b: [f64; 4], l: &Label, plate: bool, own: Option<&Rect>) {
        self.boxes.push(b);
        self.may_cover.push((plate, own.copied()));
        self.placed.push((l.at, b, Words { class: l.class.to_string(), text: l.text.to_string(), font: l.font }));
        let mut s = Svg::default();
        if plate {
            s.rect("lbl-plate", b[0] + 1.0, b[1], b[2] - b[0] - 2.0, b[3] - b[1]);
        }
        s.text(l.class, l.x, l.y, l.anchor, l.text);
        self.labels.push((l.at, s.out));
    }

    /// Places the label if it collides with nothing placed before; true if it did.
    pub fn place(&mut self, g: &Geometry, l: Label) -> bool {
        self.place_on(g, l, false)
    }

    /// `place`, on a plate (see `push`).
    pub fn place_on_plate(&mut self, g: &Geometry, l: Label) -> bool {
        self.place_on(g, l, true)
    }

    /// `place`, written inside bar `own` (which it may cover; no other shape).
    pub fn place_in(&mut self, g: &Geometry, l: Label, own: &Rect) -> bool {
        self.place_at(g, l, false, Some(own))
    }

    fn place_on(&mut self, g: &Geometry, l: Label, plate: bool) -> bool {
        self.place_at(g, l, plate, None)
    }

    fn place_at(&mut self, g: &Geometry, l: Label, plate: bool, own: Option<&Rect>) -> bool {
        let b = Self::bounds(g, &l);
        if !Self::inside(g, &b) || !self.free(&b) || !self.clear(&b, plate, own) {
            return false;
        }
        self.push(b, &l, plate, own);
        true
    }

    /// Whether all of `labels` would be placed clear of everything placed so far and of
    /// every shape.
    pub fn fits_all(&self, g: &Geometry, labels: &[Label]) -> bool {
        labels.iter().all(|l| {
            let b = Self::bounds(g, l);
            Self::inside(g, &b) && self.free(&b) && self.clear(&b, false, None)
        })
    }

    /// Whether a box is inside the plot: right of the lane column, under the axis, above the
    /// drawing's bottom edge (a label there would be cut off).
    fn inside(g: &Geometry, b: &Rect) -> bool {
        b[0] >= g.x0 - 4.0 && b[2] <= g.width && b[1] >= g.axis_h - 4.0 && b[3] <= g.height
    }

    /// Adds markup that appears at `at` and takes no label room (a write's glyph).
    pub fn raw(&mut self, at: Instant, markup: String) {
        self.labels.push((at, markup));
    }

    /// Places the label regardless (it must be read) and reserves its place.
    pub fn force(&mut self, g: &Geometry, l: Label) {
        let b = Self::bounds(g, &l);
        self.push(b, &l, false, None);
    }
}

/// The run's drawing: shapes (revealed by the cursor's clip) and labels and write marks in
/// time order (revealed whole when the cursor reaches their moment).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Drawing {
    pub shapes: String,
    pub labels: Vec<(Instant, String)>,
    /// The labels' boxes in time order.
    pub boxes: Vec<(Instant, Rect)>,
    /// Each box's words (same order as `boxes`).
    pub words: Vec<Words>,
}

impl Drawing {
    /// How many labels belong to moments at or before `t`.
    pub fn labels_until(&self, t: Time) -> usize {
        self.labels_upto(t, None)
    }

    /// How many labels belong to moments before `t`, or at `t` up to event `upto` (None: all
    /// of `t`'s events).
    pub fn labels_upto(&self, t: Time, upto: Option<usize>) -> usize {
        self.labels.partition_point(|(at, _)| reached(*at, t, upto))
    }

    /// The boxes of the labels shown at `t`.
    pub fn boxes_until(&self, t: Time) -> Vec<Rect> {
        self.boxes_upto(t, None)
    }

    /// The boxes of the labels shown at `t` (up to event `upto`, as `labels_upto`).
    pub fn boxes_upto(&self, t: Time, upto: Option<usize>) -> Vec<Rect> {
        self.boxes.iter().take_while(|(at, _)| reached(*at, t, upto)).map(|(_, b)| *b).collect()
    }
}

/// Whether instant `at` has come when the cursor is at `t`, up to event `upto` there.
pub fn reached(at: Instant, t: Time, upto: Option<usize>) -> bool {
    at.0 < t || (at.0 == t && upto.is_none_or(|e| at.1 <= e))
}

impl Drawing {
    /// The markup of the first `k` labels (all with `usize::MAX`).
    pub fn label_markup(&self, k: usize) -> String {
        self.labels.iter().take(k).map(|(_, m)| m.as_str()).collect()
    }
}

/// Lane bands, lane lines and the time axis: drawn under everything.
pub fn backdrop(t: &Timeline, g: &Geometry) -> String {
    let mut s = Svg::default();
    for (i, (lane, b)) in t.lanes.iter().zip(&g.lanes).enumerate() {
        let role = match lane.role {
            Role::Client => "client",
            Role::LockServer => "server",
            Role::Storage => "storage",
        };
        s.open(&format!("lane {role}{}", if i % 2 == 1 { " odd" } else { "" }));
        s.rect("lane-bg", 0.0, b.top, g.width, b.h);
        s.line("lane-line", g.x0, b.mid(), g.x1, b.mid());
        s.close();
    }
    axis::axis(&mut s, g);
    s.out
}

/// Every shape a label must keep off, with its box: the bars, the story's arrows' ends, the
/// fault marks and the write glyphs, each computed by the module that draws it.
pub fn keepout(t: &Timeline, g: &Geometry) -> Vec<(Rect, Keepout)> {
    let mut out = Vec::new();
    bars::keepout(&mut out, t, g);
    arrows::keepout(&mut out, t, g);
    marks::keepout(&mut out, t, g);
    writes::keepout(&mut out, t, g);
    out
}

/// The run's drawing: bands, bars, arrows, marks and writes, then their labels.
pub fn scene(t: &Timeline, g: &Geometry) -> Drawing {
    let mut s = Svg::default();
    bands::shapes(&mut s, t, g);
    bars::shapes(&mut s, t, g);
    arrows::shapes(&mut s, t, g);
    marks::shapes(&mut s, t, g);
    let mut p = Placer::keeping_off(keepout(t, g));
    writes::labels(&mut p, t, g);
    marks::labels(&mut p, t, g);
    bars::labels(&mut p, t, g);
    bands::labels(&mut p, t, g);
    let (mut labels, mut placed) = (p.labels, p.placed);
    crate::sort::by_key(&mut labels, |(at, _)| *at); // stable: equal instants keep their placement order
    crate::sort::by_key(&mut placed, |(at, _, _)| *at);
    let (boxes, words) = placed.into_iter().map(|(at, b, w)| ((at, b), w)).unzip();
    Drawing { shapes: s.out, labels, boxes, words }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab;
    use crate::scenario::catalog;

    fn drawing(id: &str, fencing: bool, width: f64) -> String {
        let s = catalog::get(id).unwrap();
        let t = Timeline::of_run(&lab::run(&lab::with_fencing(&s, fencing)));
        let g = Geometry::new(&t, width, false);
        let d = scene(&t, &g);
        d.shapes.clone() + &d.label_markup(usize::MAX)
    }

    #[test]
    fn the_stale_write_is_drawn_with_its_shape_and_words() {
        let off = drawing("redis-gc-pause", false, 1200.0);
        assert!(off.contains(r#"class="glyph stale""#));
        assert!(off.find("glyph stale") > off.find("glyph accepted"), "marks in time order");
        assert!(off.contains("STALE, accepted"));
        assert!(off.contains("A · token 1"));
        assert!(off.contains("paused 15 s"));
        let on = drawing("redis-gc-pause", true, 1200.0);
        assert!(on.contains(r#"class="glyph rejected""#) && !on.contains("glyph stale"));
    }

    #[test]
    fn labels_appear_at_their_moment() {
        let s = catalog::get("redis-gc-pause").unwrap();
        let t = Timeline::of_run(&lab::run(&s));
        let d = scene(&t, &Geometry::new(&t, 1280.0, false));
        let stale = t.writes.iter().find(|w| w.result == crate::timeline::WriteResult::StaleAccepted).unwrap();
        assert!(!d.label_markup(d.labels_until(stale.at - 1)).contains("STALE"));
        assert!(d.label_markup(d.labels_until(stale.at)).contains("STALE"));
    }

    #[test]
    fn labels_never_overlap() {
        for s in catalog::all() {
            for w in [360.0, 1280.0] {
                let t = Timeline::of_run(&lab::run(&s));
                let g = Geometry::new(&t, w, false);
                let mut p = Placer::default();
                writes::labels(&mut p, &t, &g);
                let forced = p.boxes.len();
                marks::labels(&mut p, &t, &g);
                bars::labels(&mut p, &t, &g);
                bands::labels(&mut p, &t, &g);
                for (i, a) in p.boxes.iter().enumerate().skip(forced) {
                    for b in &p.boxes[..i] {
                        let apart = a[2] <= b[0] || b[2] <= a[0] || a[3] <= b[1] || b[3] <= a[1];
                        assert!(apart, "{} at {w}px: {a:?} overlaps {b:?}", s.id);
                    }
                }
            }
        }
    }

    /// The geometries the app and embeds give a drawing: a phone, a laptop, a projector, a
    /// lesson's column and a comparison's side on the lecture stage, and embeds' diagram boxes
    /// from a 320×240 frame's to an 800×450 one's (and the same widths unfitted).
    fn every_geometry(t: &Timeline) -> Vec<(String, Geometry)> {
        let mut out = Vec::new();
        for w in [320.0, 360.0, 640.0, 800.0, 1280.0, 1920.0] {
            out.push((format!("{w} px"), Geometry::new(t, w, false)));
        }
        for (w, h) in [(320.0, 110.0), (320.0, 150.0), (320.0, 200.0), (640.0, 230.0), (640.0, 300.0), (800.0, 320.0), (800.0, 400.0)] {
            out.push((format!("embed {w}×{h}"), Geometry::fitted(t, w, h, false)));
        }
        for (w, h) in [(995.0, 470.0), (560.0, 470.0), (470.0, 230.0), (1280.0, 0.0)] {
            let (g, _) = Geometry::staged(t, w, h, (1280.0, 720.0), true, false);
            out.push((format!("lecture {w}×{h}"), g));
        }
        out
    }

    /// Issue 25, item 5: no label covers a bar, an arrow's end or a marker (but the bar it is
    /// written in, and a plated mark word a bar's edge), at every width and height the app
    /// and embeds use, for every built-in with fencing off and on.
    #[test]
    fn no_label_covers_a_bar_an_arrows_end_or_a_marker() {
        let mut found = Vec::new();
        for s in catalog::all() {
            for fencing in [false, true] {
                let t = Timeline::of_run(&lab::run(&lab::with_fencing(&s, fencing)));
                for (size, g) in every_geometry(&t) {
                    let mut p = Placer::keeping_off(keepout(&t, &g));
                    writes::labels(&mut p, &t, &g);
                    marks::labels(&mut p, &t, &g);
                    bars::labels(&mut p, &t, &g);
                    bands::labels(&mut p, &t, &g);
                    for (b, (plate, own)) in p.boxes.iter().zip(&p.may_cover) {
                        let b = &[b[0] + 2.0, b[1], b[2] - 2.0, b[3]];
                        for (r, k) in &p.keepout {
                            if overlap(b, r) && !(*plate && *k == Keepout::Bar) && Some(*r) != *own {
                                found.push(format!("{} fencing {fencing} at {size}: label {b:?} on {k:?} {r:?}", s.id));
                            }
                        }
                    }
                }
            }
        }
        assert!(found.is_empty(), "{} labels on shapes:\n{}", found.len(), found.join("\n"));
    }

    /// The rule gives way, never everything: at a 320×240 embed's box the story still has
    /// words (each built-in keeps some labels), and the full words are in the shapes' tooltips.
    #[test]
    fn a_small_embed_keeps_some_words_and_every_tooltip() {
        for s in catalog::all() {
            let t = Timeline::of_run(&lab::run(&s));
            let g = Geometry::fitted(&t, 320.0, 150.0, false);
            let d = scene(&t, &g);
            assert!(!d.boxes.is_empty(), "{}: no label at all", s.id);
            for b in &t.beliefs {
                let full = format!("{} {} ({})", t.name(b.client), t.approach.spec().words.belief.bar, t.approach.token_label(b.token));
                assert!(d.shapes.contains(&format!("<title>{}", svg::Esc(&full))), "{}: {full}", s.id);
            }
        }
    }

    #[test]
    fn markup_is_well_formed_enough_to_parse_as_xml() {
        for s in catalog::all() {
            let t = Timeline::of_run(&lab::run(&s));
            let g = Geometry::new(&t, 1000.0, true);
            let d = scene(&t, &g);
            assert!(d.labels.windows(2).all(|w| w[0].0 <= w[1].0));
            let out = format!("<svg>{}{}{}</svg>", backdrop(&t, &g), d.shapes, d.label_markup(usize::MAX));
            // Balanced groups and no unescaped text.
            assert_eq!(out.matches("<g ").count(), out.matches("</g>").count(), "{}", s.id);
            assert!(!out.contains("&&") && !out.contains("<<"), "{}", s.id);
        }
    }

    /// Issue 22, item 3: every label stands on what it names. Its box reaches to within a few
    /// px of its instant's x (a label starts at its event, ends there, or is centred on it); a
    /// band's name is centred in its band, which ends at the label's instant. Every built-in,
    /// fencing off and on, at the widths the stage, a lesson's column, a comparison's side and
    /// a phone give the drawing.
    #[test]
    fn every_label_stands_at_its_time() {
        const NEAR: f64 = 8.0;
        for s in catalog::all() {
            for fencing in [false, true] {
                let t = Timeline::of_run(&lab::run(&lab::with_fencing(&s, fencing)));
                for (w, lecture) in [(995.0, true), (560.0, true), (470.0, true), (1280.0, false), (360.0, false)] {
                    let g = Geometry::new(&t, w, lecture);
                    for ((at, _), b) in scene(&t, &g).boxes {
                        let x = g.xt(at);
                        let near = b[0] - NEAR <= x && x <= b[2] + NEAR;
                        let in_band = t.bands.iter().any(|band| band.to == at && g.xt(band.from) - NEAR <= b[0] && b[2] <= x + NEAR);
                        // A write's words beside its glyph (a low lane) start or end just past it.
                        let beside =
                            t.writes.iter().any(|w| w.at == at && ((x..=x + 12.0).contains(&b[0]) || (x - 12.0..=x).contains(&b[2])));
                        assert!(
                            near || in_band || beside,
                            "{} fencing {fencing} at {w} px: a label of {at} ms (x {x:.0}) drawn at {:.0}..{:.0}",
                            s.id,
                            b[0],
                            b[2]
                        );
                    }
                }
            }
        }
    }
}
