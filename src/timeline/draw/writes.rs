//! Storage writes, marked by shape and word as well as colour: ● accepted, ■ rejected,
//! ▲ STALE accepted (a lost update), each with its writer and token.

use super::geometry::{hue_class, Geometry};
use super::svg::{Svg, N};
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
    s.title(&format!("{}'s write ({}): {}", t.name(w.client), t.approach.token_label(w.token), word(w.result)));
    s.line("write-stem", x, lane.top + 4.0, x, lane.bottom() - 4.0);
    s.out.push_str(&glyph_svg(w.result, x, lane.mid()));
    s.close();
    Some(s.out)
}

/// Write labels are placed first and always: they are the outcome. A write with room gets
/// two lines below the lane line (writer and token; result in words). Writes that crowd
/// together alternate above and below, and when even that cannot fit, shrink to "A · 1": the
/// glyph's shape still says the result, and the ledger spells it out.
pub fn labels(p: &mut Placer, t: &Timeline, g: &Geometry) {
    let xs: Vec<f64> = t.writes.iter().map(|w| g.xt(w.at)).collect();
    let gap = |i: usize| {
        let before = if i > 0 { xs[i] - xs[i - 1] } else { f64::INFINITY };
        let after = xs.get(i + 1).map_or(f64::INFINITY, |x| x - xs[i]);
        before.min(after)
    };
    let mut up = false;
    for (i, w) in t.writes.iter().enumerate() {
        let Some(lane) = g.lane(w.storage) else { continue };
        let (x, y) = (xs[i], lane.mid());
        up = i > 0 && xs[i] - xs[i - 1] < 110.0 && !up;
        let tight = gap(i) < 60.0;
        if let Some(m) = mark(t, g, w) {
            p.raw(w.at, m);
        }
        let who = t.name(w.client);
        let (head, words) = if tight {
            (format!("{who} · {}", t.approach.token_value(w.token)), None)
        } else {
            (format!("{who} · {}", t.approach.token_label(w.token)), Some(word(w.result)))
        };
        let (who_y, word_y) = if up { (y - 15.0 - g.font, y - 14.0) } else { (y + 21.0, y + 22.0 + g.font) };
        let who_y = if up && tight { y - 14.0 } else { who_y };
        let anchor = if tight {
            "middle"
        } else if g.room_after(x) < 120.0 {
            "end"
        } else {
            "start"
        };
        let lx = match anchor {
            "end" => x + 6.0,
            "start" => x - 6.0,
            _ => x,
        };
        let class = format!("lbl write-who {} {}", w.result.id(), hue_class(t.hue(w.client)));
        p.force(g, Label { at: w.at, class: &class, x: lx, y: who_y, anchor, text: &head, font: g.font });
        if let Some(words) = words {
            let class = format!("lbl write-word {}", w.result.id());
            p.force(g, Label { at: w.at, class: &class, x: lx, y: word_y, anchor, text: words, font: g.font });
        }
    }
}
