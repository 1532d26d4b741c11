//! A run's story out of the app (issue 36, item 5): its key moments with the captions the app
//! shows at them, drawn as a strip of panels for a slide or a handout (`strip`), or played by
//! an SVG that animates itself with CSS, no script, so it plays inside an `<img>` on a README
//! or a wiki (`animated`). Both are plain Rust over the drawing the app shows
//! (`export::at_moment`, `scene`), so `locklab svg --strip / --animated` and the app's Embed
//! dialog write the same bytes.

use std::fmt::Write;

use super::export::{at_moment, run_title, standalone_css};
use super::geometry::Geometry;
use super::svg::{Esc, N};
use super::{axis, lanes, reached, scene, Instant, DEFS};
use crate::decimal::seconds;
use crate::lab::Run;
use crate::scenario::Scenario;
use crate::sim::Time;
use crate::text::{self, Story};
use crate::theme::Theme;
use crate::timeline::{pacing, KeyKind, KeyMoment, Timeline, WriteResult};

/// A strip has at most this many panels: more would not be read from a slide.
pub const MAX_PANELS: usize = 8;
/// Each panel's diagram is laid out this wide, in the lecture stage's look (its smallest text
/// 14 px): two to four columns make a slide-shaped page of 1,300 to 2,700 px.
pub const PANEL_WIDTH: f64 = 640.0;
/// The animated SVG's width: a README's column (GitHub shows images up to about 880 px).
pub const ANIMATED_WIDTH: f64 = 880.0;
/// Real ms the animation holds its first frame, before the cursor moves.
pub const START_MS: f64 = 1500.0;
/// Real ms the animation holds the run's end and its outcome before it starts again.
pub const END_MS: f64 = 5000.0;
/// Real ms between two samples of the cursor's path while it travels between key moments (the
/// pacing's slow-fast-slow, drawn as straight pieces).
const SAMPLE_MS: f64 = 150.0;

/// The type around the diagrams, px: a page's title, a panel's number and time, a caption.
const TITLE_PX: f64 = 24.0;
const CAPTION_PX: f64 = 19.0;
const GAP: f64 = 24.0;

/// One moment of the story: where the cursor stands (true ms, and the event it is focused on
/// there: None for all of that millisecond's events) and the caption the app shows there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Moment {
    pub at: Time,
    pub event: Option<usize>,
    pub caption: String,
}

/// Every key moment of the run with the caption the app shows when the cursor stands on it
/// (`ui::caption`: the caption of the key moment's event).
pub fn key_moments(run: &Run, t: &Timeline) -> Vec<Moment> {
    let story = Story::new(&run.trace, &run.verdict, t);
    t.key_moments.iter().map(|k| key(run, &story, k)).collect()
}

fn key(run: &Run, story: &Story, k: &KeyMoment) -> Moment {
    Moment { at: k.at, event: Some(k.event), caption: text::caption(&run.trace, run.scenario.approach, story, k.event) }
}

/// The run's end with the caption the app shows there: its outcome.
pub fn outcome(run: &Run, t: &Timeline) -> Moment {
    Moment { at: t.duration_ms, event: None, caption: text::verdict::sentence(&run.verdict) }
}

/// How much a key moment tells, lower first: the failure and what it costs, the faults, the
/// lock changing hands, routine writes last.
fn weight(k: &KeyMoment) -> u8 {
    match k.kind {
        KeyKind::Write(WriteResult::StaleAccepted | WriteResult::Rejected) | KeyKind::Takeover => 0,
        KeyKind::Paused
        | KeyKind::Crashed
        | KeyKind::ClockChanged
        | KeyKind::Partition
        | KeyKind::StateLost
        | KeyKind::LeaseExpired
        | KeyKind::SessionExpired
        | KeyKind::LeaderChanged
        | KeyKind::Suspended
        | KeyKind::BeliefLost => 1,
        KeyKind::Grant | KeyKind::LeaseDeleted | KeyKind::Resumed | KeyKind::Restarted | KeyKind::Healed => 2,
        KeyKind::Write(WriteResult::Accepted) => 3,
    }
}

/// The strip's panels: the run's key moments, at most `MAX_PANELS`. A longer story keeps its
/// first moment (it sets the scene) and then the weightiest (`weight`; a key moment that repeats
/// an earlier one's words, the tenth "A's write accepted (token 1)", weighs less than the
/// first), earliest first among equals, shown in time order. A run with fewer than two key moments ends on its outcome.
pub fn panels(run: &Run, t: &Timeline) -> Vec<Moment> {
    let story = Story::new(&run.trace, &run.verdict, t);
    let ks = &t.key_moments;
    let mut order: Vec<(u8, usize)> = ks
        .iter()
        .enumerate()
        .map(|(i, k)| {
            let repeat = ks[..i].iter().any(|p| p.kind == k.kind && p.text == k.text);
            (if i == 0 { 0 } else { weight(k) + if repeat { 4 } else { 0 } }, i)
        })
        .collect();
    order.sort_unstable(); // (weight, index) pairs are distinct: the order is total
    let mut chosen: Vec<usize> = order.into_iter().take(MAX_PANELS).map(|(_, i)| i).collect();
    chosen.sort_unstable();
    let mut out: Vec<Moment> = chosen.into_iter().map(|i| key(run, &story, &ks[i])).collect();
    if out.len() < 2 {
        out.push(outcome(run, t));
    }
    out
}

/// `text` broken into lines no wider than `width` at `px` (by the drawing's text estimate,
/// which errs wide); a word longer than a line has a line of its own.
fn wrap(g: &Geometry, text: &str, px: f64, width: f64) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(line) if g.text_width(&format!("{line} {word}"), px) <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// A line's height at `px`.
fn line_h(px: f64) -> f64 {
    (px * 1.3).round()
}

/// Lines of text from baseline `y` down, one `<text>` each.
fn lines(out: &mut String, class: &str, x: f64, y: f64, px: f64, lines: &[String]) {
    for (i, l) in lines.iter().enumerate() {
        let _ = write!(out, r#"<text class="{class}" x="{}" y="{}">{}</text>"#, N(x), N(y + i as f64 * line_h(px)), Esc(l));
    }
}

/// The document's head: the root element, its title and the stylesheet (the lecture look's
/// palette and sizes, `extra` rules after them).
fn head(w: f64, h: f64, title: &str, css: &str, theme: Theme, extra: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    let (w, h) = (N(w), N(h));
    let _ = writeln!(out, r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" class="lecture">"#);
    let _ = writeln!(out, "<title>{}</title>", Esc(title));
    let css = standalone_css(css, true, theme) + extra;
    let _ = writeln!(out, "<style><![CDATA[\n{}]]></style>", css.replace("]]>", "]]]]><![CDATA[>"));
    out.push_str(DEFS);
    let _ = write!(out, r#"<rect class="story-bg" width="{w}" height="{h}"/>"#);
    out
}

/// A panel's layout: its diagram and its caption's lines.
struct Block {
    moment: Moment,
    lines: Vec<String>,
}

impl Block {
    /// Number and time, the diagram, the caption.
    fn height(&self, g: &Geometry) -> f64 {
        line_h(CAPTION_PX) + 6.0 + g.height + 10.0 + self.lines.len() as f64 * line_h(CAPTION_PX)
    }
}

/// The slide a strip is laid out for, px: its page is scaled to fit it.
pub const SLIDE: (f64, f64) = (1920.0, 1080.0);
/// A printed page's text box a handout's strip is laid out for, px at 96 per inch: A4 less
/// 14 mm margins (`lesson::handout`).
pub const A4_TEXT: (f64, f64) = (688.0, 1017.0);

/// The scale at which a page `w`×`h` fits `fit`: its text's size there is this times its own
/// (the docs state it; the tests hold the strip's smallest text to it).
pub fn scale_in(fit: (f64, f64), w: f64, h: f64) -> f64 {
    (fit.0 / w).min(fit.1 / h)
}

/// The strip's columns: the count (1 to 4) whose page fits `fit` at the largest scale, fewer
/// columns among equals, each row as tall as its tallest panel; `fixed` is the height of the
/// title and the outcome.
fn columns(blocks: &[Block], g: &Geometry, fixed: f64, fit: (f64, f64)) -> (usize, f64, f64) {
    let mut best: Option<(f64, usize, f64, f64)> = None;
    for cols in 1..=blocks.len().clamp(1, 4) {
        let w = cols as f64 * PANEL_WIDTH + (cols + 1) as f64 * GAP;
        let rows: f64 = blocks.chunks(cols).map(|row| row.iter().map(|b| b.height(g)).fold(0.0, f64::max) + GAP).sum();
        let h = fixed + rows;
        let scale = scale_in(fit, w, h);
        if best.is_none_or(|(s, ..)| scale > s + 1e-9) {
            best = Some((scale, cols, w, h));
        }
    }
    best.map_or((1, PANEL_WIDTH, fixed), |(_, c, w, h)| (c, w, h))
}

/// The strip for a slide: a title, 2 to `MAX_PANELS` panels (the diagram at each of `panels`'
/// moments, numbered, with its time and caption), and the run's outcome. `css` is
/// styles/diagram.css, drawn in `theme`'s colours.
pub fn strip(run: &Run, t: &Timeline, css: &str, theme: Theme) -> String {
    strip_for(run, t, css, theme, SLIDE)
}

/// The strip laid out in columns to fit a `fit` box (`SLIDE`, `A4_TEXT`) at the largest scale.
pub fn strip_for(run: &Run, t: &Timeline, css: &str, theme: Theme, fit: (f64, f64)) -> String {
    let g = Geometry::new(t, PANEL_WIDTH, true);
    let drawing = scene(t, &g);
    let blocks: Vec<Block> =
        panels(run, t).into_iter().map(|m| Block { lines: wrap(&g, &m.caption, CAPTION_PX, PANEL_WIDTH), moment: m }).collect();
    let title = run_title(&run.scenario);
    let outcome = outcome(run, t).caption;
    let top = GAP + line_h(TITLE_PX) + GAP / 2.0;
    // The outcome's lines are as wide as the page, known once the columns are: a first guess
    // of two lines, then the true count.
    let (cols, w, _) = columns(&blocks, &g, top + 2.0 * line_h(CAPTION_PX) + GAP, fit);
    let end = wrap(&g, &format!("Outcome: {outcome}"), CAPTION_PX, w - 2.0 * GAP);
    let rows: f64 = blocks.chunks(cols).map(|row| row.iter().map(|b| b.height(&g)).fold(0.0, f64::max) + GAP).sum();
    let h = top + rows + end.len() as f64 * line_h(CAPTION_PX) + GAP;
    let mut out = head(w, h, &title, css, theme, "");
    out.push_str(r#"<g class="story">"#);
    lines(&mut out, "story-title", GAP, GAP + TITLE_PX, TITLE_PX, &[title]);
    let mut y = top;
    for (r, row) in blocks.chunks(cols).enumerate() {
        for (c, b) in row.iter().enumerate() {
            let x = GAP + c as f64 * (PANEL_WIDTH + GAP);
            let n = r * cols + c + 1;
            let _ = write!(out, r#"<g class="story-panel" data-at="{}">"#, b.moment.at);
            lines(&mut out, "story-num", x, y + CAPTION_PX, CAPTION_PX, &[format!("{n} · {}", seconds(b.moment.at))]);
            let dy = y + line_h(CAPTION_PX) + 6.0;
            let (pw, ph) = (N(g.width), N(g.height));
            let _ = write!(
                out,
                r#"<svg x="{}" y="{}" width="{pw}" height="{ph}" viewBox="0 0 {pw} {ph}"><g class="diagram"><rect class="paper" width="{pw}" height="{ph}"/>"#,
                N(x),
                N(dy)
            );
            out.push_str(&at_moment(t, &g, &drawing, b.moment.at, b.moment.event));
            out.push_str("</g></svg>");
            lines(&mut out, "story-caption", x, dy + g.height + 10.0 + CAPTION_PX, CAPTION_PX, &b.lines);
            out.push_str("</g>");
        }
        y += row.iter().map(|b| b.height(&g)).fold(0.0, f64::max) + GAP;
    }
    lines(&mut out, "story-outcome", GAP, y + CAPTION_PX, CAPTION_PX, &end);
    out.push_str("</g>\n</svg>\n");
    out
}

/// When the animation shows what, in real ms from its start: it plays as the app plays at 1×
/// (the pacing's slow-fast-slow cursor, a `DWELL_MS` hold at each key moment after 0 ms), after
/// a `START_MS` hold at 0, and holds the end for `END_MS` before it loops.
#[derive(Clone, Debug, PartialEq)]
pub struct Schedule {
    /// The cursor's path: (real ms, true ms), real ms rising.
    pub path: Vec<(f64, f64)>,
    /// The real ms each key moment is reached (its caption shows from then).
    pub arrivals: Vec<f64>,
    /// The real ms the cursor reaches the run's end (the outcome shows from then).
    pub end: f64,
    /// One loop, real ms.
    pub total: f64,
}

impl Schedule {
    pub fn of(t: &Timeline) -> Schedule {
        let mut path = vec![(0.0, 0.0), (START_MS, 0.0)];
        let mut arrivals = Vec::with_capacity(t.key_moments.len());
        let (mut real, mut cursor) = (START_MS, 0.0);
        let travel = |path: &mut Vec<(f64, f64)>, real: &mut f64, cursor: &mut f64, to: f64| {
            while *cursor < to {
                let (c, used) = pacing::advance(|x| t.rate_at(x), to, *cursor, SAMPLE_MS, 1.0);
                *real += used;
                *cursor = c;
                path.push((*real, c));
            }
        };
        for k in &t.key_moments {
            // The app opens on a key moment at 0 ms (its caption shows from the start) and
            // plays on to the next one: no hold of its own.
            if k.at == 0 {
                arrivals.push(0.0);
                continue;
            }
            travel(&mut path, &mut real, &mut cursor, k.at as f64);
            arrivals.push(real);
            real += pacing::DWELL_MS;
            path.push((real, cursor));
        }
        travel(&mut path, &mut real, &mut cursor, t.duration_ms as f64);
        let end = real;
        let total = end + END_MS;
        path.push((total, cursor));
        Schedule { path, arrivals, end, total }
    }

    /// The real ms the cursor first reaches true ms `ms` (interpolated along the path).
    fn reaches(&self, ms: f64) -> f64 {
        let i = self.path.partition_point(|&(_, c)| c < ms);
        match (i.checked_sub(1).map(|j| self.path[j]), self.path.get(i)) {
            (Some((r0, c0)), Some(&(r1, c1))) if c1 > c0 => r0 + (ms - c0) / (c1 - c0) * (r1 - r0),
            (_, Some(&(r, _))) => r,
            _ => self.end,
        }
    }

    /// The real ms a label of `instant` appears: when the cursor lands on the first key moment
    /// that has reached it (the app's focus: a key moment's labels come with it), else when the
    /// cursor reaches its millisecond, or leaves it after its key moments' holds.
    fn shows(&self, t: &Timeline, instant: Instant) -> f64 {
        let (ms, _) = instant;
        if ms == 0 {
            return 0.0; // the app opens with all of 0 ms shown
        }
        let mut here = t.key_moments.iter().enumerate().filter(|(_, k)| k.at == ms);
        if let Some((i, _)) = here.clone().find(|(_, k)| reached(instant, k.at, Some(k.event))) {
            return self.arrivals[i];
        }
        match here.next_back() {
            Some((i, _)) => self.arrivals[i] + pacing::DWELL_MS,
            None => self.reaches(ms as f64),
        }
    }

    /// `real` as a keyframe selector.
    fn pct(&self, real: f64) -> String {
        format!("{:.3}%", 100.0 * real / self.total)
    }
}

/// The animated SVG: the run as the app plays it at 1×, with no script: the cursor and the
/// veil over the future move along `Schedule::path`, each label appears at its moment, and the
/// lane column and the caption change at each key moment; the run's end holds with its outcome,
/// then it starts again. CSS animations only (`@keyframes`, one loop of `Schedule::total` ms),
/// so it plays inside an `<img>`; a viewer that does not animate shows the run's end.
pub fn animated(run: &Run, t: &Timeline, css: &str, theme: Theme) -> String {
    let g = Geometry::new(t, ANIMATED_WIDTH, true);
    let drawing = scene(t, &g);
    let s = Schedule::of(t);
    let title = run_title(&run.scenario);
    // The frames: the start, each key moment, the end; each shows until the next.
    // The start shows what the app shows at 0 ms: the caption of the last event there.
    let story = Story::new(&run.trace, &run.verdict, t);
    let first = crate::timeline::current_event(&run.trace, 0).map(|e| text::caption(&run.trace, run.scenario.approach, &story, e));
    let mut frames: Vec<(f64, Moment)> = vec![(0.0, Moment { at: 0, event: None, caption: first.unwrap_or_default() })];
    frames.extend(s.arrivals.iter().copied().zip(key_moments(run, t)));
    frames.push((s.end, outcome(run, t)));
    let text_w = ANIMATED_WIDTH - 2.0 * GAP;
    let wrapped: Vec<Vec<String>> = frames.iter().map(|(_, m)| wrap(&g, &m.caption, CAPTION_PX, text_w)).collect();
    let most = wrapped.iter().map(Vec::len).max().unwrap_or(0) as f64;
    let top = GAP / 2.0 + line_h(CAPTION_PX) + GAP / 2.0;
    let cap_y = top + g.height + GAP / 2.0;
    let h = cap_y + (1.0 + most) * line_h(CAPTION_PX) + GAP / 2.0;

    let mut rules = format!(
        ".anim {{ animation-duration: {}ms; animation-iteration-count: infinite; animation-timing-function: step-end; }}\n\
         .sweep {{ animation-name: sweep; animation-timing-function: linear; transform: translateX({}px); }}\n.off {{ opacity: 0; }}\n",
        s.total.round(),
        N(g.x(t.duration_ms as f64))
    );
    // The cursor's path; between two samples it moves at an even pace.
    rules.push_str("@keyframes sweep {");
    let mut last = None;
    for &(real, ms) in &s.path {
        let at = (s.pct(real), N(g.x(ms)).to_string());
        if last.as_ref() != Some(&at) {
            let _ = write!(rules, " {} {{ transform: translateX({}px); }}", at.0, at.1);
            last = Some(at);
        }
    }
    rules.push_str(" }\n");
    let mut body = String::new();
    // The labels, in groups that appear together.
    let mut shown: Vec<(String, String)> = Vec::new();
    for (at, markup) in &drawing.labels {
        let pct = s.pct(s.shows(t, *at));
        match shown.last_mut() {
            Some((p, m)) if *p == pct => m.push_str(markup),
            _ => shown.push((pct, markup.clone())),
        }
    }
    for (i, (pct, markup)) in shown.iter().enumerate() {
        let _ = writeln!(rules, "@keyframes l{i} {{ 0% {{ opacity: 0; }} {pct} {{ opacity: 1; }} }} .l{i} {{ animation-name: l{i}; }}");
        let _ = write!(body, r#"<g class="anim l{i}">{markup}</g>"#);
    }
    // The frames: the lane column and the caption of each moment, shown until the next one.
    let mut column = String::new();
    let mut captions = String::new();
    for (i, ((from, m), text)) in frames.iter().zip(&wrapped).enumerate() {
        let last = i + 1 == frames.len();
        let to = frames.get(i + 1).map(|(r, _)| s.pct(*r));
        let until = to.as_ref().map_or(String::new(), |to| format!(" {to} {{ opacity: 0; }}"));
        let _ = writeln!(
            rules,
            "@keyframes f{i} {{ 0% {{ opacity: 0; }} {} {{ opacity: 1; }}{until} }} .f{i} {{ animation-name: f{i}; }}",
            s.pct(*from)
        );
        let off = if last { "" } else { " off" };
        let _ = write!(column, r#"<g class="anim f{i}{off}">{}</g>"#, lanes::labels(t, &g, m.at, m.event));
        let _ = write!(captions, r#"<g class="anim f{i}{off}">"#);
        if !text.is_empty() {
            let what = match i {
                0 => "",
                _ if last => " · outcome",
                _ => " · key moment",
            };
            lines(&mut captions, "story-num", GAP, cap_y + CAPTION_PX, CAPTION_PX, &[format!("{}{what}", seconds(m.at))]);
            lines(&mut captions, "story-caption", GAP, cap_y + CAPTION_PX + line_h(CAPTION_PX), CAPTION_PX, text);
        }
        captions.push_str("</g>");
    }

    let mut out = head(g.width, h, &format!("{title} · animated"), css, theme, &rules);
    out.push_str(r#"<g class="story">"#);
    lines(&mut out, "story-num", GAP, GAP / 2.0 + CAPTION_PX, CAPTION_PX, &[title]);
    out.push_str("</g>");
    let (w, dh) = (N(g.width), N(g.height));
    let _ = write!(
        out,
        r#"<svg y="{}" width="{w}" height="{dh}" viewBox="0 0 {w} {dh}"><g class="diagram"><rect class="paper" width="{w}" height="{dh}"/>"#,
        N(top)
    );
    out.push_str(&super::backdrop(t, &g));
    out.push_str(&drawing.shapes);
    out.push_str(r#"<g class="ticks">"#);
    for (x, y, words) in axis::ticks(&g) {
        let _ = write!(out, r#"<text class="axis-lbl" x="{}" y="{}" text-anchor="middle">{words}</text>"#, N(x), N(y));
    }
    out.push_str("</g>");
    // The veil over the future: from the cursor to the right edge and past it.
    let _ = write!(
        out,
        r#"<rect class="future anim sweep" x="0" y="{}" width="{w}" height="{}"/>"#,
        N(g.axis_h - 6.0),
        N(g.height - g.axis_h + 6.0)
    );
    out.push_str(&body);
    out.push_str(&column);
    let _ = write!(out, r#"<line class="cursor-line anim sweep" x1="0" x2="0" y1="{}" y2="{}"/>"#, N(g.axis_h - 8.0), N(g.height - 2.0));
    out.push_str("</g></svg>");
    out.push_str(r#"<g class="story">"#);
    out.push_str(&captions);
    out.push_str("</g>\n</svg>\n");
    out
}

/// A file name for the strip or the animated SVG of a run: "redis-gc-pause-strip.png",
/// "redis-gc-pause-fencing-on-animated.svg" (`export::file_name`'s, without a time).
pub fn file_name(s: &Scenario, animated: bool, ext: &str) -> String {
    let name = super::export::file_name(s, None, ext);
    let stem = name.strip_suffix(&format!(".{ext}")).unwrap_or(&name);
    format!("{stem}-{}.{ext}", if animated { "animated" } else { "strip" })
}

/// The `<img>` element that shows the animated SVG saved under its `file_name` beside the
/// page (a README, a wiki): its width, and words for a reader who cannot see it, computed from
/// the run as the captions are.
pub fn img(run: &Run) -> String {
    let alt = format!("{}, animated. {}", run_title(&run.scenario), text::verdict::sentence(&run.verdict));
    format!(r#"<img src="{}" width="{}" alt="{}" />"#, Esc(&file_name(&run.scenario, true, "svg")), ANIMATED_WIDTH, Esc(&alt))
}
