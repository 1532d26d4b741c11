//! Messages as arrows between lane lines, coloured by the client whose exchange they belong
//! to. Retries, keep-alives and server-to-server chatter are faint, and drawn as two short
//! stubs (leaving, arriving) instead of a line across every lane between: a heartbeat every
//! few hundred milliseconds would otherwise fence the whole picture with vertical lines.
//! While playing, the live layer still shows each one in flight.

use std::fmt::Write;

use super::geometry::{hue_class, Geometry};
use super::svg::{Esc, Svg, N};
use super::{Keepout, Rect};
use crate::timeline::{Arrow, Timeline};

/// Screen endpoints of an arrow: (x0, y0) → (x1, y1), shortened to a stub if it was lost.
pub fn ends(g: &Geometry, a: &Arrow) -> (f64, f64, f64, f64) {
    let (x0, y0) = (g.xt(a.sent), g.mid(a.from));
    let (mut x1, mut y1) = (g.xt(a.end()), g.mid(a.to));
    if a.loss.is_some() && a.arrive.is_none() {
        // Lost in the network: it never got there.
        x1 = x0 + (x1 - x0) * 0.55;
        y1 = y0 + (y1 - y0) * 0.55;
    }
    (x0, y0, x1, y1)
}

/// The two back corners of a chevron head of `size` at (x1, y1), coming from (x0, y0).
fn barbs(x0: f64, y0: f64, x1: f64, y1: f64, size: f64) -> [(f64, f64); 2] {
    let (dx, dy) = (x1 - x0, y1 - y0);
    let len = (dx * dx + dy * dy).sqrt().max(0.001);
    let (ux, uy) = (dx / len, dy / len);
    let (bx, by) = (x1 - ux * size, y1 - uy * size);
    let (px, py) = (-uy * size * 0.55, ux * size * 0.55);
    [(bx + px, by + py), (bx - px, by - py)]
}

/// Size of a story arrow's head, in px.
const HEAD: f64 = 6.0;

/// The ends of the story's arrows (their heads, a lost one's cross), for the labels to keep
/// off. Faint messages' stubs are not among them: there are hundreds in a consensus run, and
/// their words are never labels.
pub fn keepout(out: &mut Vec<(Rect, Keepout)>, t: &Timeline, g: &Geometry) {
    for a in t.arrows.iter().filter(|a| !(a.quiet || a.client.is_none())) {
        let (x0, y0, x1, y1) = ends(g, a);
        let [(ax, ay), (bx, by)] = barbs(x0, y0, x1, y1, HEAD);
        let k = if a.loss.is_some() { 4.0 } else { 0.0 };
        let r = [ax.min(bx).min(x1 - k), ay.min(by).min(y1 - k), ax.max(bx).max(x1 + k), ay.max(by).max(y1 + k)];
        // Its stroke is within the 2 px a label's box keeps round its letters.
        out.push((r, Keepout::Point));
    }
}

/// The arrow's line and a chevron head at its end, as one path.
fn path(x0: f64, y0: f64, x1: f64, y1: f64, size: f64) -> String {
    let [(ax, ay), (bx, by)] = barbs(x0, y0, x1, y1, size);
    format!("M{} {}L{} {}M{} {}L{} {}L{} {}", N(x0), N(y0), N(x1), N(y1), N(ax), N(ay), N(x1), N(y1), N(bx), N(by))
}

/// A faint message: a stub where it leaves and a stub with its head where it arrives.
fn stubs(x0: f64, y0: f64, x1: f64, y1: f64) -> String {
    let (dx, dy) = (x1 - x0, y1 - y0);
    let len = (dx * dx + dy * dy).sqrt().max(0.001);
    let stub = (len / 2.0).min(STUB_PX);
    let (sx, sy) = (dx / len * stub, dy / len * stub);
    let out = format!("M{} {}l{} {}", N(x0), N(y0), N(sx), N(sy));
    out + &path(x1 - sx, y1 - sy, x1, y1, 4.0)
}

/// Length of a faint message's stubs, in px.
const STUB_PX: f64 = 7.0;

/// Above this many messages the faint ones are merged: one path per style instead of an
/// element and a tooltip each. A run that dense (a retry storm, a lossy network) has more
/// faint messages than the picture has pixels for, and 46,000 separate arrows made its
/// drawing 9 MB of markup that took the browser seconds to lay out. A consensus run's
/// heartbeats (some 360 in 20 s) are merged too: as three elements each they were a third of
/// what an injected fault cost to redraw (ZooKeeper, etcd: p95 ~20 ms against a 16 ms frame).
/// The messages of the story (not faint) keep their own element and tooltip at any density.
const MERGE_FAINT_ABOVE: usize = 150;

/// The cross at the end of a lost message.
fn lost_x(x1: f64, y1: f64) -> String {
    let k = 4.0;
    format!("M{} {}l{} {}m0 {}l{} {}", N(x1 - k), N(y1 - k), N(2.0 * k), N(2.0 * k), N(-2.0 * k), N(-2.0 * k), N(2.0 * k))
}

/// Faint messages of one style, merged.
struct Merged {
    class: String,
    shafts: String,
    lost: String,
    /// Queue marks, which take their colour from the group.
    queued: Svg,
}

pub fn shapes(s: &mut Svg, t: &Timeline, g: &Geometry) {
    let merge = t.arrows.len() > MERGE_FAINT_ABOVE;
    let mut merged: Vec<Merged> = Vec::new();
    // The arrows drawn one by one go after the merged ones, so the story's stay on top.
    let mut single = Svg::default();
    for a in &t.arrows {
        let (x0, y0, x1, y1) = ends(g, a);
        let faint = a.quiet || a.client.is_none();
        let mut class = format!("msg {}", hue_class(a.client.and_then(|c| t.hue(c))));
        for (on, word) in [(faint, " quiet"), (a.reply, " reply"), (a.data, " data"), (a.loss.is_some(), " lost")] {
            if on {
                class.push_str(word);
            }
        }
        if merge && faint {
            let i = merged.iter().position(|m| m.class == class).unwrap_or_else(|| {
                merged.push(Merged { class, shafts: String::new(), lost: String::new(), queued: Svg::default() });
                merged.len() - 1
            });
            let m = &mut merged[i];
            m.shafts += &stubs(x0, y0, x1, y1);
            if a.loss.is_some() {
                m.lost += &lost_x(x1, y1);
            }
            queued(&mut m.queued, g, a, y1);
            continue;
        }
        let s = &mut single;
        let _ = write!(s.out, r#"<g class="{class}"><title>{} → {}: {}</title>"#, Esc(t.name(a.from)), Esc(t.name(a.to)), Esc(&a.label));
        s.path("shaft", &if faint { stubs(x0, y0, x1, y1) } else { path(x0, y0, x1, y1, HEAD) });
        if a.loss.is_some() {
            s.path("lost-x", &lost_x(x1, y1));
        }
        queued(s, g, a, y1);
        s.close();
    }
    for m in &merged {
        s.open(&m.class);
        s.path("shaft", &m.shafts);
        if !m.lost.is_empty() {
            s.path("lost-x", &m.lost);
        }
        s.out.push_str(&m.queued.out);
        s.close();
    }
    s.out.push_str(&single.out);
}

/// Arrived while the receiver was paused: it waits, unhandled, until the receiver wakes.
fn queued(s: &mut Svg, g: &Geometry, a: &Arrow, y1: f64) {
    if let (Some(at), Some(h)) = (a.arrive, a.handled) {
        if g.xt(h) - g.xt(at) > 2.0 {
            s.line("queued", g.xt(at), y1 + 2.0, g.xt(h), y1 + 2.0);
        }
    }
}
