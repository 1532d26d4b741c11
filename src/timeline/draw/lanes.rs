//! The lane label column: each node's name, its situation and both of its local clocks at a
//! true time. Written as markup, like the static drawing, so the browser's live layer and an
//! exported figure show the same words.

use std::fmt::Write;

use super::geometry::{hue_class, Geometry, LaneBox};
use super::svg::{Esc, N};
use crate::decimal::seconds;
use crate::protocols::spec::Workload;
use crate::sim::{Role, Time};
use crate::timeline::{ClockReading, Timeline, WriteResult};

/// The words beside a lane's name: what the node is doing at `at`, as every phrasing of it
/// from the fullest to the shortest (each whole: "highest token 3", "max 3", "3"), and their
/// tone (a class). The column shows the first that fits (`fitting`); the lane's title the first.
pub fn status(t: &Timeline, lane: &LaneBox, at: Time, upto: Option<usize>) -> (Vec<String>, &'static str) {
    let s = t.lane_state_upto(lane.node, at, upto);
    let words = |ws: &[&str]| ws.iter().map(|w| w.to_string()).collect::<Vec<_>>();
    if s.down {
        return (words(&["down"]), "warn");
    }
    match lane.role {
        Role::Client => {
            let [wide, short] = t.approach.spec().words.belief.lane;
            match (s.paused, s.believes) {
                (true, Some(_)) => (words(&["paused · still sure", "paused, sure", "paused"]), "warn"),
                (true, None) => (words(&["paused"]), "warn"),
                (false, Some(None)) => (words(&[wide, short]), "holds"),
                (false, Some(tok)) => {
                    let v = t.approach.token_value(tok);
                    // Long tokens (czxids) do not fit the column; the bar's label carries them.
                    let with = if v.len() > 6 { vec![] } else { vec![format!("{wide} · {v}"), format!("{short} · {v}")] };
                    (with.into_iter().chain([wide.to_string(), short.to_string()]).collect(), "holds")
                }
                (false, None) => (words(&[t.approach.spec().words.belief.none]), "quiet"),
            }
        }
        Role::LockServer => {
            let roles = t.approach.spec().words.roles;
            let lead = t.leader_at(lane.node, at).map(|leads| if leads { roles[0] } else { roles[1] });
            let lock = match s.holders.as_slice() {
                [] => "free".to_string(),
                // The bar beside it shows the token; the column has room for names only.
                hs => hs.iter().map(|&(h, _)| t.name(h)).collect::<Vec<_>>().join(", "),
            };
            let paused = if s.paused { "paused · " } else { "" };
            match lead {
                Some(l) => {
                    let tone = if l == roles[0] { "holds" } else { "quiet" };
                    (vec![format!("{paused}{l} · lock: {lock}"), format!("{paused}{l}"), l.to_string()], tone)
                }
                None => (vec![format!("{paused}lock: {lock}"), format!("lock: {lock}"), lock], "quiet"),
            }
        }
        Role::Storage => {
            let seen = t.writes.iter().filter(|w| w.storage == lane.node && w.at <= at && w.result != WriteResult::Rejected);
            // Conditional writes: the object's version (1, one higher with each accepted
            // write), not the highest version a write was based on.
            if t.approach.spec().workload == Workload::ReadModifyWrite {
                let v = 1 + seen.count();
                return (vec![format!("object at version {v}"), format!("version {v}"), format!("v{v}")], "quiet");
            }
            match seen.map(|w| w.token).max() {
                None => (words(&["no writes yet", "no writes"]), "quiet"),
                Some(None) => (words(&["writes carry no token", "no tokens"]), "quiet"),
                Some(k) => {
                    let v = t.approach.token_value(k);
                    (vec![format!("highest {}", t.approach.token_label(k)), format!("max {v}"), v], "quiet")
                }
            }
        }
    }
}

/// The first of `phrasings` that fits in `px` at `font`, else the shortest: whole words
/// always, never a phrase cut short ("highest" alone said less than "max 3"). The narrow
/// column of a phone or a compact lane takes the shorter phrasings by width, as any other.
pub fn fitting<'a>(g: &Geometry, phrasings: &'a [String], font: f64, px: f64) -> &'a str {
    let fits = phrasings.iter().find(|p| g.text_width(p, font) <= px);
    fits.or(phrasings.last()).map_or("", String::as_str)
}

/// A clock reading as `<tspan>wall 13.129 (+10 s)</tspan>`: the offset from true time is
/// spelled out (not just coloured) wherever a step or drift moved the clock.
fn clock_line(out: &mut String, label: &str, reading: i64, at: Time) {
    let off = reading - at;
    let value = crate::decimal::Fixed(reading as f64 / 1000.0, 3).to_string();
    if off == 0 {
        let _ = write!(out, "<tspan>{label} {value}</tspan>");
    } else {
        let sign = if off > 0 { "+" } else { "−" };
        let _ = write!(out, r#"<tspan class="skewed">{label} {value} ({sign}{})</tspan>"#, seconds(off.abs()));
    }
}

/// A clock line that keeps inside the column's `px`: the reading with its offset, else only
/// the offset ("w (+4.03 s)": the skew is the lane's story), else nothing. A tall lane's clock
/// starts at the column's left, so a wider line would run over the plot (at 360 px, onto the
/// "A and B both hold it" banner).
fn clock_within(out: &mut String, g: &Geometry, label: &str, reading: i64, at: Time, px: f64) -> bool {
    let fs = g.font;
    if g.text_width(&clock_text(label, reading, at), fs) <= px {
        clock_line(out, label, reading, at);
        return true;
    }
    let off = reading - at;
    let short = format!("{label} ({}{})", if off > 0 { "+" } else { "−" }, seconds(off.abs()));
    if off != 0 && g.text_width(&short, fs) <= px {
        let _ = write!(out, r#"<tspan class="skewed">{}</tspan>"#, Esc(&short));
        return true;
    }
    false
}

/// `clock_line`'s words as plain text (for fitting).
fn clock_text(label: &str, reading: i64, at: Time) -> String {
    let mut out = String::new();
    clock_line(&mut out, label, reading, at);
    // The markup's only tags are its tspans.
    let mut plain = String::new();
    let mut tag = false;
    for ch in out.chars() {
        match ch {
            '<' => tag = true,
            '>' => tag = false,
            _ if !tag => plain.push(ch),
            _ => {}
        }
    }
    plain
}

/// One `<text>` line of the column; `body` writes its content.
fn line(out: &mut String, class: &str, x: f64, y: f64, end: bool, body: impl FnOnce(&mut String)) {
    let anchor = if end { r#" text-anchor="end""# } else { "" };
    let _ = write!(out, r#"<text class="{class}" x="{}" y="{}"{anchor}>"#, N(x), N(y));
    body(out);
    out.push_str("</text>");
}

/// The whole column at `at`: a background, then per lane its name, state and clocks.
pub fn labels(t: &Timeline, g: &Geometry, at: Time, upto: Option<usize>) -> String {
    let fs = g.font;
    let mut out = String::new();
    let _ = write!(
        out,
        r#"<g class="labels"><rect class="labels-bg" x="0" y="{}" width="{}" height="{}"/>"#,
        N(g.axis_h),
        N(g.label_w),
        N(g.height - g.axis_h)
    );
    for (lane, b) in t.lanes.iter().zip(&g.lanes) {
        // Name, state and a clock line need about three lines of text; fewer fit a compact lane.
        let compact = b.h < 3.0 * fs + 20.0;
        let (phrasings, tone) = status(t, b, at, upto);
        let c = t.clocks.at(lane.node, at);
        let name = Esc(&lane.name);
        let full = phrasings.first().map_or("", String::as_str);
        let _ = write!(out, r#"<g class="lane-label {}"><title>{name}: {}</title>"#, hue_class(lane.hue), Esc(full));
        let words = LaneWords { name: &lane.name, phrasings: &phrasings, tone };
        if b.h < 2.0 * Geometry::line(fs) + 4.0 {
            one_line_label(&mut out, g, b, at, c, &words);
        } else if compact {
            compact_label(&mut out, g, b, at, c, &words);
        } else {
            full_label(&mut out, g, b, at, c, &words);
        }
        out.push_str("</g>");
    }
    out.push_str("</g>");
    out
}

/// What a lane's label says: its name, and its state in every phrasing, in its tone.
struct LaneWords<'a> {
    name: &'a str,
    phrasings: &'a [String],
    tone: &'static str,
}

impl LaneWords<'_> {
    /// The fullest phrasing within `px`, if any does fit.
    fn within(&self, g: &Geometry, px: f64) -> Option<&str> {
        self.phrasings.iter().find(|p| g.text_width(p, g.font) <= px).map(String::as_str)
    }

    /// The fullest phrasing the column has room for (the column's width is all the words
    /// get; the title keeps the fullest).
    fn column(&self, g: &Geometry) -> &str {
        fitting(g, self.phrasings, g.font, g.label_w - 14.0)
    }
}

fn text(out: &mut String, s: &str) {
    let _ = write!(out, "{}", Esc(s));
}

/// One line (a short lane on the lecture stage): the name, and beside it the clock where a
/// fault moved it (that is the lane's story then), else the state. Only what fits beside the
/// name (estimated in the column's fonts, bold for the name).
fn one_line_label(out: &mut String, g: &Geometry, b: &LaneBox, at: Time, c: Option<ClockReading>, w: &LaneWords) {
    let fs = g.font;
    let y = b.mid() + fs * 0.36;
    line(out, "lane-name small", 10.0, y, false, |o| text(o, w.name));
    let room = g.label_w - 4.0 - (10.0 + g.text_width(w.name, fs + 1.0) * 1.1 + 8.0);
    match c.filter(|c| c.wall_ms != at) {
        Some(c) => {
            let mut body = String::new();
            if clock_within(&mut body, g, "w", c.wall_ms, at, room) {
                line(out, "lane-clock", g.label_w - 4.0, y, true, |o| o.push_str(&body));
            }
        }
        None => {
            if let Some(words) = w.within(g, room) {
                line(out, &format!("lane-status small {}", w.tone), g.label_w - 4.0, y, true, |o| text(o, words))
            }
        }
    }
}

/// Compact (many servers): name and wall clock on one line, state and monotonic clock on the
/// next. Two lines a line apart (their boxes must not touch), centred on the lane.
fn compact_label(out: &mut String, g: &Geometry, b: &LaneBox, at: Time, c: Option<ClockReading>, w: &LaneWords) {
    let fs = g.font;
    let step = Geometry::line(fs);
    let y = b.mid() - step / 2.0 + fs * 0.35;
    line(out, "lane-name small", 10.0, y, false, |o| text(o, w.name));
    // The fullest phrasing that leaves the monotonic clock its place beside it, else the
    // fullest the column holds.
    let room = |left: &str| g.label_w - 4.0 - (10.0 + g.text_width(left, fs + 1.0) * 1.1 + 8.0);
    let mono = c.map_or(0.0, |c| g.text_width(&clock_text("m", c.mono_ms, at), fs));
    let words = w.within(g, (g.label_w - 4.0 - mono - 8.0 - 10.0) / 1.1).unwrap_or_else(|| w.column(g));
    line(out, &format!("lane-status small {}", w.tone), 10.0, y + step, false, |o| text(o, words));
    if let Some(c) = c {
        // Each clock only where it fits beside its line's words.
        if g.text_width(&clock_text("w", c.wall_ms, at), fs) <= room(w.name) {
            line(out, "lane-clock", g.label_w - 4.0, y, true, |o| clock_line(o, "w", c.wall_ms, at));
        }
        if g.text_width(&clock_text("m", c.mono_ms, at), fs) <= room(words) {
            line(out, "lane-clock", g.label_w - 4.0, y + step, true, |o| clock_line(o, "m", c.mono_ms, at));
        }
    }
}

/// A tall lane: name, state, and the two clocks on lines of their own where there is room.
fn full_label(out: &mut String, g: &Geometry, b: &LaneBox, at: Time, c: Option<ClockReading>, w: &LaneWords) {
    let fs = g.font;
    let y = b.top + fs + 8.0;
    line(out, "lane-name", 10.0, y, false, |o| text(o, w.name));
    line(out, &format!("lane-status {}", w.tone), 10.0, y + fs + 4.0, false, |o| text(o, w.column(g)));
    if let Some(c) = c {
        let (wall, mono) = if g.narrow { ("w", "m") } else { ("wall", "mono") };
        let room = g.label_w - 14.0;
        let clock = |out: &mut String, label: &str, reading: i64, y: f64| {
            let mut body = String::new();
            if clock_within(&mut body, g, label, reading, at, room) {
                line(out, "lane-clock", 10.0, y, false, |o| o.push_str(&body));
            }
        };
        if b.h >= 4.0 * fs + 22.0 {
            clock(out, wall, c.wall_ms, y + 2.0 * fs + 7.0);
            clock(out, mono, c.mono_ms, y + 3.0 * fs + 10.0);
        } else {
            // Both clocks on one line where they fit the column, else the wall clock.
            let both = format!("{} {}", clock_text("w", c.wall_ms, at), clock_text("m", c.mono_ms, at));
            if g.text_width(&both, fs) <= room {
                line(out, "lane-clock", 10.0, y + 2.0 * fs + 7.0, false, |o| {
                    clock_line(o, "w", c.wall_ms, at);
                    o.push(' ');
                    clock_line(o, "m", c.mono_ms, at);
                });
            } else {
                clock(out, "w", c.wall_ms, y + 2.0 * fs + 7.0);
            }
        }
    }
}
