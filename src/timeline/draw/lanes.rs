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

/// The words beside a lane's name: what the node is doing at `at`, and their tone (a class).
pub fn status(t: &Timeline, lane: &LaneBox, at: Time, upto: Option<usize>, narrow: bool) -> (String, &'static str) {
    let s = t.lane_state_upto(lane.node, at, upto);
    if s.down {
        return ("down".into(), "warn");
    }
    match lane.role {
        Role::Client => {
            let [wide, short] = t.approach.spec().words.belief.lane;
            match (s.paused, s.believes) {
                (true, Some(_)) if narrow => ("paused, sure".into(), "warn"),
                (true, Some(_)) => ("paused · still sure".into(), "warn"),
                (true, None) => ("paused".into(), "warn"),
                (false, Some(None)) => (wide.into(), "holds"),
                // Long tokens (czxids) do not fit the column; the bar's label carries them.
                (false, Some(tok)) if t.approach.token_value(tok).len() > 6 => (wide.into(), "holds"),
                (false, Some(tok)) if narrow => (format!("{short} · {}", t.approach.token_value(tok)), "holds"),
                (false, Some(tok)) => (format!("{wide} · {}", t.approach.token_value(tok)), "holds"),
                (false, None) => (t.approach.spec().words.belief.none.into(), "quiet"),
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
                Some(l) if narrow => (format!("{paused}{l}"), if l == roles[0] { "holds" } else { "quiet" }),
                Some(l) => (format!("{paused}{l} · lock: {lock}"), "quiet"),
                None => (format!("{paused}lock: {lock}"), "quiet"),
            }
        }
        Role::Storage => {
            let seen = t.writes.iter().filter(|w| w.storage == lane.node && w.at <= at && w.result != WriteResult::Rejected);
            // Conditional writes: the object's version (1, one higher with each accepted
            // write), not the highest version a write was based on.
            if t.approach.spec().workload == Workload::ReadModifyWrite {
                let version = 1 + seen.count();
                return (if narrow { format!("version {version}") } else { format!("object at version {version}") }, "quiet");
            }
            match seen.map(|w| w.token).max() {
                None => ("no writes yet".into(), "quiet"),
                Some(None) if narrow => ("no tokens".into(), "quiet"),
                Some(None) => ("writes carry no token".into(), "quiet"),
                Some(k) => (format!("highest {}", t.approach.token_label(k)), "quiet"),
            }
        }
    }
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

/// `text`, or its leading whole words that fit in `px` at `font` (never a word cut short:
/// "highest revisio…" says less than "highest"); the lane's title keeps them all.
fn clipped(g: &Geometry, text: &str, font: f64, px: f64) -> String {
    let mut out = text.trim_end_matches([' ', '·']).to_string();
    while g.text_width(&out, font) > px {
        match out.rfind(' ') {
            Some(i) => out = out[..i].trim_end_matches([' ', '·', ',']).to_string(),
            None => break,
        }
    }
    out
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
        let (full, tone) = status(t, b, at, upto, g.narrow || compact);
        let c = t.clocks.at(lane.node, at);
        let name = Esc(&lane.name);
        let _ = write!(out, r#"<g class="lane-label {}"><title>{name}: {}</title>"#, hue_class(lane.hue), Esc(&full));
        // The column's width is all the words get (the title keeps them whole).
        let words = LaneWords { name: &lane.name, words: &clipped(g, &full, fs, g.label_w - 14.0), tone };
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

/// What a lane's label says: its name, and its state clipped to the column, in its tone.
struct LaneWords<'a> {
    name: &'a str,
    words: &'a str,
    tone: &'static str,
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
        None if g.text_width(w.words, fs) <= room => {
            line(out, &format!("lane-status small {}", w.tone), g.label_w - 4.0, y, true, |o| text(o, w.words))
        }
        None => {}
    }
}

/// Compact (many servers): name and wall clock on one line, state and monotonic clock on the
/// next. Two lines a line apart (their boxes must not touch), centred on the lane.
fn compact_label(out: &mut String, g: &Geometry, b: &LaneBox, at: Time, c: Option<ClockReading>, w: &LaneWords) {
    let fs = g.font;
    let step = Geometry::line(fs);
    let y = b.mid() - step / 2.0 + fs * 0.35;
    line(out, "lane-name small", 10.0, y, false, |o| text(o, w.name));
    line(out, &format!("lane-status small {}", w.tone), 10.0, y + step, false, |o| text(o, w.words));
    if let Some(c) = c {
        // Each clock only where it fits beside its line's words.
        let room = |left: &str| g.label_w - 4.0 - (10.0 + g.text_width(left, fs + 1.0) * 1.1 + 8.0);
        if g.text_width(&clock_text("w", c.wall_ms, at), fs) <= room(w.name) {
            line(out, "lane-clock", g.label_w - 4.0, y, true, |o| clock_line(o, "w", c.wall_ms, at));
        }
        if g.text_width(&clock_text("m", c.mono_ms, at), fs) <= room(w.words) {
            line(out, "lane-clock", g.label_w - 4.0, y + step, true, |o| clock_line(o, "m", c.mono_ms, at));
        }
    }
}

/// A tall lane: name, state, and the two clocks on lines of their own where there is room.
fn full_label(out: &mut String, g: &Geometry, b: &LaneBox, at: Time, c: Option<ClockReading>, w: &LaneWords) {
    let fs = g.font;
    let y = b.top + fs + 8.0;
    line(out, "lane-name", 10.0, y, false, |o| text(o, w.name));
    line(out, &format!("lane-status {}", w.tone), 10.0, y + fs + 4.0, false, |o| text(o, w.words));
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
