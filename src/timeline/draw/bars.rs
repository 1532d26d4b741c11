//! Lease bars: what each client believes (solid, above its lane line) against what the lock
//! service holds for it (outlined, below), and each lock server's holders. The gap between
//! the two on a client's lane is the whole story of a paused lock holder.

use super::geometry::{hue_class, Geometry};
use super::svg::Svg;
use super::{Keepout, Label, Placer, Rect};
use crate::protocols::BeliefEnd;
use crate::timeline::{BeliefBar, HeldBar, LeaseBar, LeaseEnd, Timeline};

/// Belief bar: top and height relative to the lane's middle line.
const BELIEF_TOP: f64 = -15.0;
const BELIEF_H: f64 = 11.0;
/// Held bar (the service's side) just under the line.
const HELD_TOP: f64 = 4.0;
const HELD_H: f64 = 7.0;

fn lease_h(lane_h: f64) -> f64 {
    crate::decimal::clamp(lane_h * 0.42, 10.0, 20.0)
}

fn end_word(t: &Timeline, end: LeaseEnd) -> Option<String> {
    match end {
        LeaseEnd::Expired => Some(t.approach.spec().words.expired.into()),
        LeaseEnd::Released => Some("released".into()),
        LeaseEnd::DeletedBy(by) => Some(format!("deleted by {}", t.name(by))),
        LeaseEnd::StateLost => Some("lost in restart".into()),
        LeaseEnd::Demoted => Some("dropped: demoted".into()),
        LeaseEnd::Open | LeaseEnd::Superseded | LeaseEnd::Moved => None,
    }
}

/// A bar's box from `x0` to `x1` (at least 1.5 px wide), `y` down `h`.
fn bar(x0: f64, x1: f64, y: f64, h: f64) -> Rect {
    [x0, y, x0 + (x1 - x0).max(1.5), y + h]
}

/// A lock server's lease bar, centred on its lane line.
fn lease_box(g: &Geometry, l: &LeaseBar) -> Option<Rect> {
    let lane = g.lane(l.server)?;
    let bh = lease_h(lane.h);
    Some(bar(g.xt(l.from), g.xt(l.to), lane.mid() - bh / 2.0, bh))
}

/// The lock service's side of a client's lease, just under its lane line.
fn held_box(g: &Geometry, h: &HeldBar) -> Option<Rect> {
    let lane = g.lane(h.client)?;
    Some(bar(g.xt(h.from), g.xt(h.to), lane.mid() + HELD_TOP, HELD_H))
}

/// What a client believes, above its lane line.
fn belief_box(g: &Geometry, b: &BeliefBar) -> Option<Rect> {
    let lane = g.lane(b.client)?;
    Some(bar(g.xt(b.from), g.xt(b.to), lane.mid() + BELIEF_TOP, BELIEF_H))
}

/// Every bar, for the labels to keep off.
pub fn keepout(out: &mut Vec<(Rect, Keepout)>, t: &Timeline, g: &Geometry) {
    let leases = t.leases.iter().filter_map(|l| lease_box(g, l));
    let held = t.held.iter().filter_map(|h| held_box(g, h));
    let beliefs = t.beliefs.iter().filter_map(|b| belief_box(g, b));
    out.extend(leases.chain(held).chain(beliefs).map(|r| (r, Keepout::Bar)));
}

/// An SVG rect of box `r`.
fn rect(s: &mut Svg, class: &str, r: &Rect) {
    s.rect(class, r[0], r[1], r[2] - r[0], r[3] - r[1]);
}

pub fn shapes(s: &mut Svg, t: &Timeline, g: &Geometry) {
    for l in &t.leases {
        let (Some(lane), Some(r)) = (g.lane(l.server), lease_box(g, l)) else { continue };
        let x1 = g.xt(l.to);
        let (y, bh) = (r[1], r[3] - r[1]);
        s.open(&format!("lease {}{}", hue_class(t.hue(l.holder)), if l.takeover { " takeover" } else { "" }));
        s.title(&format!("{} holds {}'s lease ({})", t.name(l.server), t.name(l.holder), t.approach.token_label(l.token)));
        // A clock step can end a lease before its TTL: show where the TTL would have ended.
        if let Some(p) = l.planned_end.filter(|&p| l.end == LeaseEnd::Expired && (g.xt(p) - x1).abs() > 4.0) {
            s.line("lease-planned", x1.min(g.xt(p)), lane.mid(), x1.max(g.xt(p)), lane.mid());
        }
        rect(s, "lease-bar", &r);
        if end_word(t, l.end).is_some() {
            s.line("lease-end", x1, y - 3.0, x1, y + bh + 3.0);
        }
        s.close();
    }
    for h in &t.held {
        let Some(r) = held_box(g, h) else { continue };
        let (x1, y) = (g.xt(h.to), r[1]);
        let bad = matches!(h.end, LeaseEnd::DeletedBy(_));
        s.open(&format!("held {}{}", hue_class(t.hue(h.client)), if bad { " bad" } else { "" }));
        s.title(&format!("the lock service holds {}'s lease ({})", t.name(h.client), t.approach.token_label(h.token)));
        rect(s, "held-bar", &r);
        if end_word(t, h.end).is_some() {
            s.line("held-end", x1, y - 3.0, x1, y + HELD_H + 3.0);
        }
        s.close();
    }
    for b in &t.beliefs {
        let Some(r) = belief_box(g, b) else { continue };
        let (x1, y) = (g.xt(b.to), r[1]);
        s.open(&format!("belief {}", hue_class(t.hue(b.client))));
        s.title(&format!("{} {} ({})", t.name(b.client), t.approach.spec().words.belief.bar, t.approach.token_label(b.token)));
        rect(s, "belief-bar", &r);
        // Past its own deadline the client is still sure of itself: hatch that part.
        if let Some(d) = b.deadline.filter(|&d| d < b.to && x1 - g.xt(d) > 2.0) {
            let xd = g.xt(d);
            s.rect("belief-overdue", xd, y, x1 - xd, BELIEF_H);
            s.line("deadline", xd, y - 5.0, xd, y + BELIEF_H + 2.0);
        }
        s.close();
    }
}

pub fn labels(p: &mut Placer, t: &Timeline, g: &Geometry) {
    // In this order: a label placed first keeps its place.
    for l in &t.leases {
        lease_labels(p, t, g, l);
    }
    for b in &t.beliefs {
        belief_labels(p, t, g, b);
    }
    for h in &t.held {
        held_labels(p, t, g, h);
    }
}

/// A lock server's lease: its holder (and token) inside the bar; on a tall lane, a takeover
/// above it and how it ended after it.
fn lease_labels(p: &mut Placer, t: &Timeline, g: &Geometry, l: &LeaseBar) {
    let (f, small) = (g.font, g.small());
    let Some(lane) = g.lane(l.server) else { return };
    let (x0, x1) = (g.xt(l.from), g.xt(l.to));
    let who = t.name(l.holder);
    let bh = lease_h(lane.h);
    let mut inside = vec![format!("{who} · {}", t.approach.token_label(l.token))];
    if l.token.is_some() {
        inside.push(format!("{who} · {}", t.approach.token_value(l.token)));
    }
    inside.push(who.to_string());
    let own = lease_box(g, l).unwrap_or_default();
    // The fullest words that fit the bar and keep off what is drawn on it (a crash's ✕ inside
    // a lease kept over a restart): "A · token 1", else "A · 1", else "A".
    for label in inside.iter().filter(|w| g.fits(w, x1 - x0 - 6.0)) {
        let at = (l.from, l.event);
        let label = Label { at, class: "lbl lease-lbl", x: x0 + 4.0, y: lane.mid() + f * 0.36, anchor: "start", text: label, font: f };
        if p.place_in(g, label, &own) {
            break;
        }
    }
    // Tall lanes (one or two servers) have room for words above and below the bar.
    if lane.h >= 44.0 {
        let cls = format!("lbl-sm takeover-lbl {}", hue_class(t.hue(l.holder)));
        if l.takeover {
            p.place(
                g,
                Label {
                    at: (l.from, l.event),
                    class: &cls,
                    x: x0 + 2.0,
                    y: lane.mid() - bh / 2.0 - 4.0,
                    anchor: "start",
                    text: &format!("{who} takes over"),
                    font: small,
                },
            );
        }
        if let Some(word) = end_word(t, l.end) {
            p.place(
                g,
                Label {
                    at: (l.to, l.end_event.unwrap_or(0)),
                    class: "lbl-sm end-lbl",
                    x: x1 + 3.0,
                    y: lane.mid() + bh / 2.0 + small,
                    anchor: "start",
                    text: &word,
                    font: small,
                },
            );
        }
    }
}

/// A client's belief: what it believes above its bar, when its own timer was due, how it ended.
fn belief_labels(p: &mut Placer, t: &Timeline, g: &Geometry, b: &BeliefBar) {
    let (f, small) = (g.font, g.small());
    let Some(lane) = g.lane(b.client) else { return };
    let (x0, x1) = (g.xt(b.from), g.xt(b.to));
    let y = lane.mid() + BELIEF_TOP;
    let name = t.name(b.client);
    let cls = format!("lbl bar-lbl {}", hue_class(t.hue(b.client)));
    let words = &t.approach.spec().words.belief;
    let long = format!("{name} {} ({})", words.bar, t.approach.token_label(b.token));
    let short = format!("{} · {}", words.bar_short, t.approach.token_value(b.token));
    for label in [long, short] {
        if p.place(g, Label { at: (b.from, b.event), class: &cls, x: x0 + 2.0, y: y - 4.0, anchor: "start", text: &label, font: f }) {
            break;
        }
    }
    if let Some(d) = b.deadline.filter(|&d| d < b.to && x1 - g.xt(d) > 40.0) {
        p.place(
            g,
            Label {
                at: (d, 0),
                class: "lbl-sm deadline-lbl",
                x: g.xt(d) + 4.0,
                y: y - 4.0,
                anchor: "start",
                text: "its own timer was due",
                font: small,
            },
        );
    }
    let end = match b.end {
        Some(BeliefEnd::WriteRejected) => Some("learns: rejected"),
        Some(BeliefEnd::ValidityExpired) => Some("gives up"),
        _ => None,
    };
    if let Some(end) = end.filter(|_| !b.open) {
        p.place(
            g,
            Label {
                at: (b.to, b.end_event.unwrap_or(0)),
                class: "lbl-sm end-lbl",
                x: x1 + 4.0,
                y: y + BELIEF_H - 1.0,
                anchor: "start",
                text: end,
                font: small,
            },
        );
    }
}

/// The lock service's side of a client's lease: how it ended, and what the bar is.
fn held_labels(p: &mut Placer, t: &Timeline, g: &Geometry, h: &HeldBar) {
    let small = g.small();
    let Some(lane) = g.lane(h.client) else { return };
    let (x0, x1) = (g.xt(h.from), g.xt(h.to));
    let y = lane.mid() + HELD_TOP;
    if let Some(word) = end_word(t, h.end) {
        p.place(g, Label { at: (h.to, 0), class: "lbl-sm end-lbl", x: x1 + 4.0, y: y + HELD_H, anchor: "start", text: &word, font: small });
    }
    let held = "lease held by the lock service";
    p.place(
        g,
        Label {
            at: (h.from, 0),
            class: "lbl-sm held-lbl",
            x: x0 + 2.0,
            y: y + HELD_H + small + 2.0,
            anchor: "start",
            text: held,
            font: small,
        },
    );
}
