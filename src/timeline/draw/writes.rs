//! Storage writes, marked by shape and word as well as colour: ● accepted, ■ rejected,
//! ▲ STALE accepted (a lost update), each with its writer and token.

use super::geometry::{hue_class, Geometry};
use super::svg::{Svg, N};
use super::words::token;
use super::{Label, Placer};
use crate::timeline::{Timeline, WriteMark, WriteResult};

/// The shape for a write's result, centred at (x, y).
pub fn glyph_svg(result: WriteResult, x: f64, y: f64) -> String {
    let mut s = Svg::default();
    match result {
        WriteResult::Accepted => {
            s.open("glyph accepted");
            s.circle("disc", x, y, 7.5);
            s.path("tick", &format!("M{} {}l3 3l5.5 -6.5", N(x - 4.0), N(y)));
        }
        WriteResult::Rejected => {
            s.open("glyph rejected");
            s.rect("box", x - 7.0, y - 7.0, 14.0, 14.0);
            s.path("cross", &format!("M{} {}l7 7m0 -7l-7 7", N(x - 3.5), N(y - 3.5)));
        }
        WriteResult::StaleAccepted => {
            s.open("glyph stale");
            s.path("tri", &format!("M{} {}l9.5 16.5h-19z", N(x), N(y - 10.5)));
            s.path("bang", &format!("M{} {}v6m0 3v1.5", N(x), N(y - 4.5)));
        }
    }
    s.close();
    s.out
}

fn word(r: WriteResult) -> &'static str {
    match r {
        WriteResult::Accepted => "accepted",
        WriteResult::Rejected => "rejected",
        WriteResult::StaleAccepted => "STALE, accepted",
    }
}

/// A write's mark: a stem across the storage lane and the result's shape. It goes with the
/// labels (revealed whole at its moment): the outcome must never be half-clipped by the cursor.
fn mark(t: &Timeline, g: &Geometry, w: &WriteMark) -> Option<String> {
    let lane = g.lane(w.storage)?;
    let x = g.xt(w.at);
    let mut s = Svg::default();
    s.open(&format!("write {} {}", w.result.id(), hue_class(t.hue(w.client))));
    s.title(&format!("{}'s write ({}): {}", t.name(w.client), token(t.approach, w.token), word(w.result)));
    s.line("write-stem", x, lane.top + 4.0, x, lane.bottom() - 4.0);
    s.out.push_str(&glyph_svg(w.result, x, lane.mid()));
    s.close();
    Some(s.out)
}

/// Write labels are placed first and always: they are the outcome. When two writes crowd
/// together the second's writer goes above the line.
pub fn labels(p: &mut Placer, t: &Timeline, g: &Geometry) {
    let mut last_x = f64::NEG_INFINITY;
    let mut up = false;
    for w in &t.writes {
        let Some(lane) = g.lane(w.storage) else { continue };
        let (x, y) = (g.xt(w.at), lane.mid());
        up = x - last_x < 110.0 && !up;
        last_x = x;
        let (who_y, word_y) = if up { (y - 15.0 - g.font, y - 14.0) } else { (y + 21.0, y + 22.0 + g.font) };
        let anchor = if g.room_after(x) < 120.0 { "end" } else { "start" };
        let lx = if anchor == "end" { x + 6.0 } else { x - 6.0 };
        if let Some(m) = mark(t, g, w) {
            p.raw(w.at, m);
        }
        let class = format!("lbl write-who {} {}", w.result.id(), hue_class(t.hue(w.client)));
        p.force(
            g,
            Label {
                at: w.at,
                class: &class,
                x: lx,
                y: who_y,
                anchor,
                text: &format!("{} · {}", t.name(w.client), token(t.approach, w.token)),
                font: g.font,
            },
        );
        p.force(
            g,
            Label {
                at: w.at,
                class: &format!("lbl write-word {}", w.result.id()),
                x: lx,
                y: word_y,
                anchor,
                text: word(w.result),
                font: g.font,
            },
        );
    }
}
