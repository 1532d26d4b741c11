//! The drawing matrix (issue 34, item 1): every built-in, fencing off and on, at every key
//! moment, in every geometry the app gives a drawing, checked on the pure scene: no two labels
//! overlap, nothing is cut or outside its frame, nothing of the future is drawn before its
//! moment, and the smallest type reaches the room's floor. The lesson steps' runs at their
//! moments too. What the browser walks (the former collisions, stage, spoilers and
//! lesson-stage specs) measured in minutes, this decides in seconds from the same scene the
//! app draws.
//!
//! The boxes are estimates (`Geometry::text_width`); tests/e2e/specs/calibration.spec.ts holds
//! every estimate behind these checks against the browser's real widths and font sizes, from
//! the table `calibration_table` writes to target/calibration/ (never a tracked file).

use std::collections::BTreeMap;
use std::path::PathBuf;

use locklab::lab::{self, Run};
use locklab::lesson::{builtin, locate, At};
use locklab::scenario::{catalog, Scenario};
use locklab::sim::Time;
use locklab::theme::Theme;
use locklab::timeline::draw::export::{self, FIGURE_WIDTH};
use locklab::timeline::draw::geometry::lecture_scale;
use locklab::timeline::draw::live::{self, Live};
use locklab::timeline::draw::{lanes, marks, overlap, reached, scene, Drawing, Geometry, Rect, Words};
use locklab::timeline::Timeline;

/// A geometry the app gives a drawing: where, the layout, the scale it is shown at and the
/// least on-screen type it must reach there.
struct View {
    name: String,
    g: Geometry,
    scale: f64,
    floor: f64,
    /// An exported figure: its file is checked too.
    figure: bool,
    /// The width of the box it is shown in, where the view is sure of it: the drawing, as
    /// scaled, must not be wider (it would be cut at the box's right edge).
    boxed: Option<f64>,
}

/// The smallest type off the stage: what embed-legible.spec.ts and the walks asserted (11 px).
const FLOOR_SMALL: f64 = 11.0;

/// The lecture stage's floors for the diagram's type (as the former stage and lesson-stage walks held them):
/// 18 px at 1280×720; at 1920×1080 26 px for a built-in alone or compared, 27 px in a lesson.
struct Stage {
    screen: (f64, f64),
    floor: f64,
    lesson_floor: f64,
    /// The diagram box alone, compared (each side) and in a lesson's column, as the stage lays
    /// them out (measured in Chromium; walk.spec.ts checks the box alone).
    alone: (f64, f64),
    side: (f64, f64),
    lesson: (f64, f64),
}

const STAGES: [Stage; 2] = [
    Stage {
        screen: (1280.0, 720.0),
        floor: 18.0,
        lesson_floor: 18.0,
        alone: (1246.0, 461.0),
        side: (616.0, 445.0),
        lesson: (740.0, 461.0),
    },
    Stage {
        screen: (1920.0, 1080.0),
        floor: 26.0,
        lesson_floor: 27.0,
        alone: (1886.0, 727.0),
        side: (936.0, 701.0),
        lesson: (1124.0, 727.0),
    },
];

/// The diagram box's width on the app's page in a window `w` wide with a scrollbar `bar` px
/// wide (ui/diagram/mod.rs, `first_width`: `.app` at most 1440 px with 16 px padding a side,
/// 8 px at 640 px and under, and a 1 px border). Headless Chromium's scrollbars take no room
/// (342, 1246 and 1406 px measured); a desktop browser's take 15 px.
fn app_box(w: f64, bar: f64) -> f64 {
    let pad = if w <= 640.0 { 8.0 } else { 16.0 };
    (w - bar).min(1440.0) - 2.0 * pad - 2.0
}

/// Embeds' diagram boxes: a 320×240, 500×300 (where issue 36 saw A's words on B's lane),
/// 640×360 and 800×450 frame's, with and without the caption's lines above them.
const EMBEDS: [(f64, f64); 9] = [
    (320.0, 110.0),
    (320.0, 150.0),
    (320.0, 200.0),
    (500.0, 170.0),
    (500.0, 240.0),
    (640.0, 230.0),
    (640.0, 300.0),
    (800.0, 320.0),
    (800.0, 400.0),
];

fn view(name: String, (g, scale): (Geometry, f64), floor: f64) -> View {
    View { name, g, scale, floor, figure: false, boxed: None }
}

/// Every geometry a built-in is drawn in: the app on a phone, a laptop and a big screen (and a
/// comparison's squeezed lanes), the lecture stage alone and compared at 1280×720 and
/// 1920×1080, embeds, and exported figures (normal and lecture, as `export::figure` lays them).
fn views(t: &Timeline) -> Vec<View> {
    let mut out = Vec::new();
    for w in [360.0, 1280.0, 1920.0] {
        for bar in [0.0, 15.0] {
            let (g, s) = Geometry::staged(t, app_box(w, bar), 0.0, (w, 800.0), false, false);
            out.push(view(format!("app {w} (scrollbar {bar})"), (g.clone(), s), FLOOR_SMALL));
            out.push(view(format!("app {w} (scrollbar {bar}), compared"), (g.squeezed(), s), FLOOR_SMALL));
        }
    }
    for st in &STAGES {
        let (sw, sh) = st.screen;
        for (what, (w, h)) in [("alone", st.alone), ("compared", st.side)] {
            let v = view(format!("lecture {sw}×{sh} {what} {w}×{h}"), Geometry::staged(t, w, h, st.screen, true, false), st.floor);
            out.push(View { boxed: Some(w), ..v });
        }
    }
    // A phone in lecture mode (360×740: the stage's box measured in Chromium): the stage's type
    // shrinks until the drawing fits the box's width.
    let (g, s) = Geometry::staged(t, 342.0, 402.0, (360.0, 740.0), true, false);
    out.push(View { boxed: Some(342.0), ..view("lecture 360×740 alone 342×402".into(), (g, s), FLOOR_SMALL) });
    for (w, h) in EMBEDS {
        out.push(view(format!("embed box {w}×{h}"), Geometry::staged(t, w, h, (w, h), false, true), FLOOR_SMALL));
    }
    for lecture in [false, true] {
        let g = Geometry::new(t, FIGURE_WIDTH, lecture);
        out.push(View {
            name: format!("figure{}", if lecture { ", lecture" } else { "" }),
            g,
            scale: 1.0,
            floor: FLOOR_SMALL,
            figure: true,
            boxed: None,
        });
    }
    out
}

/// A moment the cursor stands on: a millisecond and the captioned event there (None: all of it).
type Moment = (Time, Option<usize>);

/// The timeline's key moments, then its end (where "next key moment" goes last).
fn key_moments(t: &Timeline) -> Vec<Moment> {
    t.key_moments.iter().map(|k| (k.at, Some(k.event))).chain([(t.duration_ms, None)]).collect()
}

/// A box that must be read: what it is, its box, and its words (for the calibration).
struct Shown<'a> {
    what: String,
    b: Rect,
    words: Option<&'a Words>,
}

/// Everything with words on it shown at `m`: the static labels reached, the words in flight,
/// the banner and the cursor's time tag.
fn shown<'a>(d: &'a Drawing, live: &Live, m: Moment) -> Vec<Shown<'a>> {
    let n = d.boxes.iter().take_while(|(at, _)| reached(*at, m.0, m.1)).count();
    let mut out: Vec<Shown> =
        d.boxes[..n].iter().zip(&d.words).map(|((_, b), w)| Shown { what: format!("\"{}\"", w.text), b: *b, words: Some(w) }).collect();
    out.extend(live.flying.plates.iter().map(|(b, text)| Shown { what: format!("[in flight: {text}]"), b: *b, words: None }));
    out.extend(live.banner_box.map(|b| Shown { what: "[banner]".into(), b, words: None }));
    out.push(Shown { what: "[cursor tag]".into(), b: live.tag, words: None });
    out
}

/// The lane column's type sizes as styles/diagram.css sets them (the calibration spec checks
/// the browser computes these): by the text's first class and whether it is `small`.
fn lane_font(class: &str, lecture: bool) -> f64 {
    let small = class.split(' ').any(|c| c == "small");
    match (class.split(' ').next().unwrap_or_default(), small, lecture) {
        ("lane-name", false, false) => 15.0,
        ("lane-name", true, false) => 13.0,
        ("lane-name", false, true) => 19.0,
        ("lane-name", true, true) => 15.0,
        ("lane-status", false, false) => 12.0,
        ("lane-status", true, false) | ("lane-clock", _, false) => 11.0,
        (_, _, true) => 14.0,
        _ => 12.0,
    }
}

/// The advance of a monospaced digit or letter, in em: DejaVu Sans Mono's (0.602), the
/// monospace Chromium falls back to here (styles/diagram.css `--mono`); the calibration spec
/// holds it against the rendered clocks.
const MONO_EM: f64 = 0.602;

/// A lane text's estimated width: the clocks are monospaced, the rest as the labels.
fn lane_width(g: &Geometry, class: &str, text: &str, font: f64) -> f64 {
    if class.starts_with("lane-clock") {
        text.chars().count() as f64 * MONO_EM * font
    } else {
        g.text_width(text, font)
    }
}

/// The lane column's texts at `m`: class, words and estimated box.
fn lane_texts(t: &Timeline, g: &Geometry, m: Moment) -> Vec<(String, String, Rect)> {
    let markup = format!("<svg>{}</svg>", lanes::labels(t, g, m.0, m.1));
    let doc = roxmltree::Document::parse(&markup).expect("the lane column parses");
    let num = |n: &roxmltree::Node, a: &str| n.attribute(a).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| {
            let class = n.attribute("class").unwrap_or_default().to_string();
            let text: String = n.descendants().filter(|c| c.is_text()).filter_map(|c| c.text()).collect();
            let font = lane_font(&class, g.lecture);
            let w = lane_width(g, &class, &text, font);
            let (x, y) = (num(&n, "x"), num(&n, "y"));
            let x0 = if n.attribute("text-anchor") == Some("end") { x - w } else { x };
            (class, text, [x0, y - font * 0.95, x0 + w, y + font * 0.25])
        })
        .collect()
}

/// The lane column at `m`: every text inside the column (not over the plot, not cut at the
/// drawing's edge) and no two of its texts over each other.
fn lane_findings(t: &Timeline, g: &Geometry, m: Moment) -> Vec<String> {
    let texts = lane_texts(t, g, m);
    let mut out = Vec::new();
    for (i, (class, text, b)) in texts.iter().enumerate() {
        if b[0] < 0.0 || b[2] > g.label_w || b[1] < 0.0 || b[3] > g.height {
            out.push(format!("lane column {class} \"{text}\" outside the {}-px column at {:?}", g.label_w, round(b)));
        }
        for (_, other, o) in &texts[..i] {
            // Lines of the column stand a line apart: their boxes (ascent to descent, taller
            // than the ink) may touch by a px, as the walks allowed (1 px each way).
            let (w, h) = (b[2].min(o[2]) - b[0].max(o[0]), b[3].min(o[3]) - b[1].max(o[1]));
            if w > 1.0 && h > 1.0 {
                out.push(format!("lane column \"{text}\" over \"{other}\" ({:?} / {:?})", round(b), round(o)));
            }
        }
    }
    out
}

/// What is wrong with the drawing `d` of `t` in view `v` at moment `m`, one line each.
fn findings(t: &Timeline, v: &View, d: &Drawing, m: Moment) -> Vec<String> {
    let g = &v.g;
    let live = live::arrange(t, g, d, m.0 as f64);
    let items = shown(d, &live, m);
    let mut out = Vec::new();
    // No two labels overlap (touching edges do not count).
    for (i, a) in items.iter().enumerate() {
        for b in &items[..i] {
            if overlap(&a.b, &b.b) {
                out.push(format!("{} over {} ({:?} / {:?})", a.what, b.what, round(&a.b), round(&b.b)));
            }
        }
    }
    // Nothing outside the drawing (cut at its edge), no words cut short. The cursor's tag may
    // reach past the plot's ends by design but never past the drawing's.
    for s in &items {
        let [l, top, r, bottom] = s.b;
        if l < 0.0 || top < 0.0 || r > g.width || bottom > g.height {
            out.push(format!("{} outside the {}×{} drawing at {:?}", s.what, g.width, g.height, round(&s.b)));
        }
        if let Some(w) = s.words {
            if cut_short(&w.text) {
                out.push(format!("{} cut short", s.what));
            }
        }
    }
    // Nothing of the future: a label names what has happened, so it starts no further right
    // than a few px past the cursor (16 px, as the former spoilers walk allowed).
    let cursor = g.xt(m.0);
    for s in items.iter().filter(|s| s.words.is_some()) {
        if s.b[0] > cursor + 16.0 {
            out.push(format!("{} starts {:.0} px right of the cursor", s.what, s.b[0] - cursor));
        }
    }
    out.extend(lane_findings(t, g, m));
    out.extend(word_findings(t, g, &items, &live, m));
    if let Some(w) = v.boxed.filter(|w| g.width * v.scale > w + 0.5) {
        out.push(format!("the drawing ({:.0} px as shown) is wider than its {w} px box", g.width * v.scale));
    }
    // The smallest type on screen.
    let px = g.smallest_type() * v.scale;
    if px + 0.05 < v.floor {
        out.push(format!("smallest type {px:.1} px under {} px", v.floor));
    }
    out
}

/// Issue 36, "every word in its place", on what is shown at `m`: no word over a mark (a
/// crash's ✕ over the lease's "A"); each message's words between its sender's and receiver's
/// lanes (A's `SET lock …` on B's lane), in one of the message's whole phrasings and never a
/// bare command ("EVAL"); each lane's state one of its whole phrasings ("highest" alone was
/// cut from "highest token 3").
fn word_findings(t: &Timeline, g: &Geometry, items: &[Shown], shown_live: &Live, m: Moment) -> Vec<String> {
    let mut out = Vec::new();
    let marks = marks::drawn(t, g, m.0 as f64);
    for s in items.iter().filter(|s| s.what != "[cursor tag]") {
        // A static label's letters: its box less the 2 px that keep two labels apart.
        let ink = if s.words.is_some() { [s.b[0] + 2.0, s.b[1], s.b[2] - 2.0, s.b[3]] } else { s.b };
        if let Some(mark) = marks.iter().find(|r| overlap(&ink, r)) {
            out.push(format!("{} over a mark at {:?}", s.what, round(mark)));
        }
    }
    for ((plate, text), &k) in shown_live.flying.plates.iter().zip(&shown_live.flying.arrows) {
        let a = &t.arrows[k];
        let (top, bottom, _) = live::between(g, a);
        if plate[1] < top - 0.01 || plate[3] > bottom + 0.01 {
            out.push(format!(
                "[in flight: {text}] of {} → {} outside their lanes ({top:.0}..{bottom:.0}) at {:?}",
                t.name(a.from),
                t.name(a.to),
                round(plate)
            ));
        }
        if !live::phrasings(&a.label).contains(text) {
            out.push(format!("[in flight: {text}] is not a phrasing of \"{}\"", a.label));
        }
        if text.chars().all(|c| c.is_ascii_uppercase()) && text.len() > 2 {
            out.push(format!("[in flight: {text}] is a bare command"));
        }
    }
    let phrasings: Vec<String> = g.lanes.iter().flat_map(|b| lanes::status(t, b, m.0, m.1).0).collect();
    for (class, text, _) in lane_texts(t, g, m).iter().filter(|(c, ..)| c.starts_with("lane-status")) {
        if !phrasings.contains(text) {
            out.push(format!("lane column {class} \"{text}\" is none of the lanes' phrasings"));
        }
    }
    out
}

/// Whether a label's words end cut short ("EVAL comp…"): a token's abbreviation ("… e787…",
/// four hex digits and "…") is how messages name tokens, not a cut.
fn cut_short(text: &str) -> bool {
    let Some(head) = text.strip_suffix('…') else { return false };
    let tail: Vec<char> = head.chars().rev().take(5).collect();
    let hex = tail.len() >= 4 && tail[..4].iter().all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase());
    let word_start = tail.get(4).is_none_or(|c| !c.is_alphanumeric());
    !(hex && word_start)
}

fn round(b: &Rect) -> [i64; 4] {
    b.map(|v| v.round() as i64)
}

/// An exported figure at `m` writes no word of a label whose moment is still to come, and
/// every word of those reached that millisecond.
fn figure_findings(run: &Run, t: &Timeline, g: &Geometry, d: &Drawing, m: Moment) -> Vec<String> {
    let svg = export::figure_in(run, t, m.0, g, Theme::Light, "");
    let doc = match roxmltree::Document::parse(&svg) {
        Ok(doc) => doc,
        Err(e) => return vec![format!("the figure does not parse: {e}")],
    };
    // The labels' words: not the lane column's, the axis', nor the live layer's (of the present).
    let live = ["labels", "ticks", "cursor", "flight-label", "banner"];
    let of_live =
        |n: &roxmltree::Node| n.ancestors().any(|a| a.attribute("class").is_some_and(|c| c.split(' ').any(|c| live.contains(&c))));
    let texts: Vec<String> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text") && !of_live(n))
        .map(|n| n.descendants().filter(|c| c.is_text()).filter_map(|c| c.text()).collect())
        .collect();
    let mut out = Vec::new();
    for ((at, _), w) in d.boxes.iter().zip(&d.words) {
        let drawn = texts.contains(&w.text);
        let later = at.0 > m.0;
        // Another label of the same words may be of the past: only words no reached label has count.
        let reached_too = d.boxes.iter().zip(&d.words).any(|((a, _), o)| a.0 <= m.0 && o.text == w.text);
        if later && drawn && !reached_too {
            out.push(format!("the figure at {} ms writes \"{}\" of {} ms", m.0, w.text, at.0));
        }
        if !later && !drawn {
            out.push(format!("the figure at {} ms lacks \"{}\" of {} ms", m.0, w.text, at.0));
        }
    }
    out
}

/// Checks every view of `run` (drawn as `t`) at `moments`. Findings are prefixed with `who`.
fn check(who: &str, run: &Run, t: &Timeline, views: &[View], moments: &[Moment], found: &mut Vec<String>, table: &mut Table) -> usize {
    let mut checked = 0;
    for v in views {
        let d = scene(t, &v.g);
        for &m in moments {
            checked += 1;
            let at = |f: String| format!("{who}, {} at {} ms{}: {f}", v.name, m.0, m.1.map_or(String::new(), |e| format!(" (event {e})")));
            found.extend(findings(t, v, &d, m).into_iter().map(at));
            if v.figure {
                found.extend(figure_findings(run, t, &v.g, &d, m).into_iter().map(at));
            }
        }
        table.add(&v.g, &d);
    }
    checked
}

/// The estimates behind the boxes, for the calibration spec: each distinct (lecture, class,
/// font, text) with the estimated width.
#[derive(Default)]
struct Table {
    rows: BTreeMap<(bool, String, String, String), f64>,
}

impl Table {
    fn add(&mut self, g: &Geometry, d: &Drawing) {
        for w in &d.words {
            self.put(g, &w.class, &w.text, w.font);
        }
    }

    /// The live layer's words at a moment: in flight (`lbl flight-lbl`) and the banner's
    /// (class `banner`: its text has none, the spec puts it in a `g.banner` as the app does).
    fn add_live(&mut self, g: &Geometry, live: &Live) {
        for (_, text) in &live.flying.plates {
            self.put(g, "lbl flight-lbl", text, g.font);
        }
        let banner = live.banner.rsplit_once("</text>").and_then(|(head, _)| head.rsplit_once('>')).map(|(_, text)| text);
        if let Some(text) = banner {
            let text = text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&amp;", "&");
            self.put(g, "banner", &text, g.emphasis());
        }
    }

    fn put(&mut self, g: &Geometry, class: &str, text: &str, font: f64) {
        self.put_width(g.lecture, class, text, font, g.text_width(text, font));
    }

    fn put_width(&mut self, lecture: bool, class: &str, text: &str, font: f64, estimate: f64) {
        self.rows.insert((lecture, class.to_string(), format!("{font}"), text.to_string()), estimate);
    }

    /// The table as JSON, with the smallest type the matrix takes (normal, lecture) and the
    /// stage's diagram boxes it lays out (the walk spec checks the page gives those).
    fn json(&self, smallest: [f64; 2]) -> String {
        let rows: Vec<serde_json::Value> = self
            .rows
            .iter()
            .map(|((lecture, class, font, text), est)| {
                serde_json::json!({ "lecture": lecture, "class": class, "font": font.parse::<f64>().unwrap(), "text": text, "estimate": est })
            })
            .collect();
        let stage: Vec<serde_json::Value> = STAGES
            .iter()
            .map(|st| serde_json::json!({ "screen": [st.screen.0, st.screen.1], "alone": [st.alone.0, st.alone.1], "side": [st.side.0, st.side.1], "lesson": [st.lesson.0, st.lesson.1] }))
            .collect();
        let all = serde_json::json!({ "smallest": { "normal": smallest[0], "lecture": smallest[1] }, "stage": stage, "labels": rows });
        serde_json::to_string_pretty(&all).unwrap()
    }
}

/// Every built-in with fencing off and on, as the picker and the fencing switch show it.
fn builtins() -> Vec<(String, Scenario)> {
    catalog::all()
        .into_iter()
        .flat_map(|s| [false, true].map(|f| (format!("{} fencing {}", s.id, if f { "on" } else { "off" }), lab::with_fencing(&s, f))))
        .collect()
}

/// The lecture stage's lesson column at both screens, at a step's moments.
fn lesson_views(t: &Timeline) -> Vec<View> {
    STAGES
        .iter()
        .map(|st| {
            let (w, h) = st.lesson;
            view(
                format!("lesson {}×{} {w}×{h}", st.screen.0, st.screen.1),
                Geometry::staged(t, w, h, st.screen, true, false),
                st.lesson_floor,
            )
        })
        .collect()
}

/// Where the calibration table goes (target/, never a tracked file).
fn calibration_path() -> PathBuf {
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"), PathBuf::from);
    target.join("calibration").join("estimates.json")
}

fn report(what: &str, checked: usize, found: &[String]) {
    const SHOWN: usize = 120;
    let more = found.len().saturating_sub(SHOWN);
    let list = found.iter().take(SHOWN).cloned().collect::<Vec<_>>().join("\n");
    assert!(
        found.is_empty(),
        "{what}: {} findings in {checked} drawings at moments:\n{list}{}",
        found.len(),
        if more > 0 { format!("\n… and {more} more") } else { String::new() }
    );
}

#[test]
fn every_builtin_at_every_key_moment_in_every_geometry() {
    let (mut found, mut table, mut checked) = (Vec::new(), Table::default(), 0);
    for (who, s) in builtins() {
        let run = lab::run(&s);
        let t = Timeline::of_run(&run);
        checked += check(&who, &run, &t, &views(&t), &key_moments(&t), &mut found, &mut table);
    }
    assert!(checked > 1000, "{checked} drawings at moments");
    report("built-ins", checked, &found);
}

#[test]
fn every_lesson_step_at_its_moments_on_the_stage() {
    let (mut found, mut table, mut checked) = (Vec::new(), Table::default(), 0);
    for lesson in builtin::all() {
        for (i, step) in lesson.steps.iter().enumerate().filter(|(_, s)| !s.is_slide()) {
            let s = step.scenario().expect("a lesson's scenario");
            let run = lab::run(&s);
            let t = Timeline::of_run(&run);
            let ats = std::iter::once(step.at).chain(step.question.iter().map(|q| q.reveal_at));
            let moments: Vec<Moment> = ats.map(|at: At| locate(at, &t).map(|c| (c.ms, c.event)).expect("the step's moment")).collect();
            checked += check(&format!("{} step {}", lesson.id, i + 1), &run, &t, &lesson_views(&t), &moments, &mut found, &mut table);
        }
    }
    assert!(checked > 20, "{checked} lesson drawings");
    report("lessons", checked, &found);
}

/// The lecture scale the floors rest on: 18 px at 1280×720 from a 14 px drawing, 27 px at 1920×1080.
#[test]
fn the_stage_floors_follow_the_lecture_scale() {
    for st in &STAGES {
        let px = 14.0 * lecture_scale(st.screen.0, st.screen.1);
        assert!(px >= st.floor && px >= st.lesson_floor, "{px} px at {:?}", st.screen);
    }
}

/// The table of every estimate the checks above rest on, for tests/e2e/specs/calibration.spec.ts:
/// every label of every built-in at its end, in the app's and the lecture stage's type.
#[test]
fn calibration_table() {
    let mut table = Table::default();
    for (_, s) in builtins() {
        let t = Timeline::of_run(&lab::run(&s));
        for v in views(&t) {
            let d = scene(&t, &v.g);
            table.add(&v.g, &d);
            for m in key_moments(&t) {
                table.add_live(&v.g, &live::arrange(&t, &v.g, &d, m.0 as f64));
                for (class, text, b) in lane_texts(&t, &v.g, m) {
                    table.put_width(v.g.lecture, &class, &text, lane_font(&class, v.g.lecture), b[2] - b[0]);
                }
            }
        }
    }
    assert!(table.rows.len() > 100, "{} labels", table.rows.len());
    let smallest =
        [false, true].map(|lecture| Geometry::new(&Timeline::of_run(&lab::run(&catalog::all()[0])), 1280.0, lecture).smallest_type());
    let path = calibration_path();
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, table.json(smallest)).unwrap();
}

#[test]
fn a_cut_is_told_from_a_tokens_abbreviation() {
    assert!(cut_short("EVAL comp…"));
    assert!(!cut_short("SET lock e787… NX".trim_end_matches(" NX")));
    assert!(!cut_short("EVAL compare-and-delete 0185…"));
    assert!(!cut_short("B takes over"));
}
