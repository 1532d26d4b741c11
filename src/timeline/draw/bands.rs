//! Stretches of time behind the bars: pauses (hatched), outages (cross-hatched), partitions,
//! and intervals where two or more clients believe they hold the lock.

use super::geometry::Geometry;
use super::svg::Svg;
use super::{Label, Placer};
use crate::decimal::seconds;
use crate::timeline::{BandKind, Timeline};

pub fn shapes(s: &mut Svg, t: &Timeline, g: &Geometry) {
    for p in &t.partitions {
        let (x0, x1) = (g.xt(p.from), g.xt(p.to));
        s.open("partition");
        s.rect("band", x0, g.axis_h, (x1 - x0).max(2.0), g.height - g.axis_h - 4.0);
        s.close();
    }
    for o in &t.overlaps {
        let boxes: Vec<_> = o.clients.iter().filter_map(|&c| g.lane(c)).collect();
        let (Some(top), Some(bottom)) = (boxes.iter().map(|b| b.top).reduce(f64::min), boxes.iter().map(|b| b.bottom()).reduce(f64::max))
        else {
            continue;
        };
        let (x0, x1) = (g.xt(o.from), g.xt(o.to));
        s.rect("overlap", x0, top + 1.0, (x1 - x0).max(3.0), bottom - top - 2.0);
    }
    for b in &t.bands {
        let Some(lane) = g.lane(b.node) else { continue };
        let (x0, x1) = (g.xt(b.from), g.xt(b.to));
        s.open(if b.kind == BandKind::Paused { "pause" } else { "down" });
        s.rect("band", x0, lane.top + 3.0, (x1 - x0).max(2.0), lane.h - 6.0);
        s.close();
    }
}

pub fn labels(p: &mut Placer, t: &Timeline, g: &Geometry) {
    for b in &t.bands {
        let Some(lane) = g.lane(b.node) else { continue };
        let (x0, x1) = (g.xt(b.from), g.xt(b.to));
        let long = match b.kind {
            BandKind::Paused => format!("paused {}", seconds(b.to - b.from)),
            BandKind::Down { machine: true } => "down (power loss)".into(),
            BandKind::Down { machine: false } => "down (crashed)".into(),
        };
        let short = if b.kind == BandKind::Paused { "paused" } else { "down" };
        let y = lane.bottom() - 8.0;
        // Named once it is over: its length (and where it ends) is what the class is asked to
        // predict while it lasts.
        let at = (b.to, b.to_event.unwrap_or(0));
        for word in [long.as_str(), short] {
            let font = g.emphasis();
            if g.text_width(word, font) <= x1 - x0 - 8.0
                && p.place(g, Label { at, class: "lbl band-lbl", x: (x0 + x1) / 2.0, y, anchor: "middle", text: word, font })
            {
                break;
            }
        }
    }
    for part in &t.partitions {
        let sides: Vec<String> = part.groups.iter().map(|grp| grp.iter().map(|&n| t.name(n)).collect::<Vec<_>>().join(", ")).collect();
        let label = format!("partition: {{{}}}", sides.join("} | {"));
        p.place(
            g,
            Label {
                at: (part.from, 0),
                class: "lbl-sm partition-lbl",
                x: g.xt(part.from) + 3.0,
                y: g.height - 8.0,
                anchor: "start",
                text: &label,
                font: g.font,
            },
        );
    }
}
