//! Point marks on lanes: crashes, restarts, clock steps and drift, lost state, link faults,
//! leadership changes.

use super::geometry::Geometry;
use super::svg::{Svg, N};
use super::{Keepout, Label, Placer, Rect};
use crate::decimal::seconds;
use crate::timeline::{Mark, MarkKind, Timeline};

fn describe(t: &Timeline, m: &Mark) -> (&'static str, String) {
    match m.kind {
        MarkKind::Crash { machine: true } => ("crash", "power loss".into()),
        MarkKind::Crash { machine: false } => ("crash", "crash".into()),
        MarkKind::Restart => ("restart", "restart".into()),
        MarkKind::ClockJump { by_ms } => ("clock", format!("clock {}{}", if by_ms >= 0 { "+" } else { "−" }, seconds(by_ms.abs()))),
        MarkKind::ClockDrift { ppm } => ("clock", format!("clock {ppm:+} ppm")),
        MarkKind::StateLost => ("crash", "state lost".into()),
        MarkKind::LinkCut { to } => ("link", format!("cut → {}", t.name(to))),
        MarkKind::LinkDelayed { to, by_ms } => ("link", format!("+{} → {}", seconds(by_ms), t.name(to))),
        MarkKind::Leader { epoch } => ("leader", format!("leader · epoch {epoch}")),
        MarkKind::Follower { epoch } => ("follower", format!("steps down · epoch {epoch}")),
    }
}

/// Whether a mark is drawn as a flag on a pole (else a cross or a ring on the lane line).
fn flag(m: &Mark) -> bool {
    !matches!(m.kind, MarkKind::Crash { .. } | MarkKind::StateLost | MarkKind::Restart)
}

/// Half the stroke of a cross (2.5 px, round caps: styles/diagram.css `.mark.crash`) and a px
/// of air: a cross's box is its path's 10 px plus this each side. Without it a lease's label
/// ended where the path did and the ✕'s stroke ran over its last letter (issue 36).
const CROSS_INK: f64 = 1.25 + 1.0;

/// The box a mark covers on screen, stroke included.
pub fn mark_box(g: &Geometry, m: &Mark) -> Option<Rect> {
    let lane = g.lane(m.node)?;
    let (x, y) = (g.xt(m.at), lane.mid());
    let r = 5.0 + CROSS_INK;
    Some(if flag(m) { [x - 1.0, lane.top + 3.0, x + 9.0, y] } else { [x - r, y - r, x + r, y + r] })
}

/// Every mark's box, for the labels to keep off.
pub fn keepout(out: &mut Vec<(Rect, Keepout)>, t: &Timeline, g: &Geometry) {
    out.extend(t.marks.iter().filter_map(|m| mark_box(g, m)).map(|r| (r, Keepout::Point)));
}

/// The boxes of the marks drawn when the cursor is at `cursor` (the live layer's words keep
/// off them as the static labels do).
pub fn drawn(t: &Timeline, g: &Geometry, cursor: f64) -> Vec<Rect> {
    t.marks.iter().filter(|m| m.at as f64 <= cursor).filter_map(|m| mark_box(g, m)).collect()
}

pub fn shapes(s: &mut Svg, t: &Timeline, g: &Geometry) {
    for m in &t.marks {
        let Some(lane) = g.lane(m.node) else { continue };
        let (x, y) = (g.xt(m.at), lane.mid());
        let (class, word) = describe(t, m);
        s.open(&format!("mark {class}"));
        s.title(&word);
        match m.kind {
            MarkKind::Crash { .. } | MarkKind::StateLost => {
                s.path("mark-shape", &format!("M{} {}l10 10m0 -10l-10 10", N(x - 5.0), N(y - 5.0)))
            }
            MarkKind::Restart => s.circle("mark-shape", x, y, 5.0),
            // A flag on a pole: clocks, links and leaders change at an instant and stay changed.
            _ => s.path("mark-shape", &format!("M{} {}V{}h8l-3 4l3 4h-8", N(x), N(y), N(lane.top + 4.0))),
        }
        s.close();
    }
}

pub fn labels(p: &mut Placer, t: &Timeline, g: &Geometry) {
    for m in &t.marks {
        let Some(lane) = g.lane(m.node) else { continue };
        let (class, word) = describe(t, m);
        // Beside the flag, above the lane line (on a narrow server lane the top plus one line of
        // text would put it on the line, through the messages' stubs), on a plate: there it
        // often sits on the top edge of a lease bar.
        let y = (lane.top + g.font + 1.0).min(lane.mid() - 4.0);
        p.place_on_plate(
            g,
            Label {
                at: (m.at, m.event),
                class: &format!("lbl-sm mark-lbl {class}"),
                x: g.xt(m.at) + 10.0,
                y,
                anchor: "start",
                text: &word,
                font: g.small(),
            },
        );
    }
}
