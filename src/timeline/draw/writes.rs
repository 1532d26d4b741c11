//! Storage writes, marked by shape and word as well as colour: ● accepted, ■ rejected,
//! ▲ STALE accepted (a lost update), each with its writer and token.

use super::geometry::{hue_class, Geometry};
use super::svg::{Svg, N};
use super::{Keepout, Label, Placer, Rect};
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

/// The box of a result's shape centred at (x, y) (see `glyph_svg`).
fn glyph_box(result: WriteResult, x: f64, y: f64) -> Rect {
    match result {
        WriteResult::Accepted => [x - 7.5, y - 7.5, x + 7.5, y + 7.5],
        WriteResult::Rejected => [x - 7.0, y - 7.0, x + 7.0, y + 7.0],
        WriteResult::StaleAccepted => [x - 9.5, y - 10.5, x + 9.5, y + 6.0],
    }
}

/// Every write's glyph, for the labels to keep off.
pub fn keepout(out: &mut Vec<(Rect, Keepout)>, t: &Timeline, g: &Geometry) {
    for w in &t.writes {
        if let Some(lane) = g.lane(w.storage) {
            out.push((glyph_box(w.result, g.xt(w.at), lane.mid()), Keepout::Point));
        }
    }
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
/// two lines below the lane line (writer and token; result in words), or above it where a
/// neighbour's words are below; where neither fits, one line "A · 1", below or above (the
/// glyph's shape still says the result, and the ledger spells it out), beside the glyph
/// if need be; where nothing fits clear of the others, none.
pub fn labels(p: &mut Placer, t: &Timeline, g: &Geometry) {
    let line = Geometry::line(g.font);
    for w in &t.writes {
        let Some(lane) = g.lane(w.storage) else { continue };
        let (x, y) = (g.xt(w.at), lane.mid());
        if let Some(m) = mark(t, g, w) {
            p.raw((w.at, w.event), m);
        }
        let who = t.name(w.client);
        let full = format!("{who} · {}", t.approach.token_label(w.token));
        let short = format!("{who} · {}", t.approach.token_value(w.token));
        let anchor = if g.room_after(x) < 120.0 { "end" } else { "start" };
        let lx = if anchor == "end" { x + 6.0 } else { x - 6.0 };
        let who_class = format!("lbl write-who {} {}", w.result.id(), hue_class(t.hue(w.client)));
        let word_class = format!("lbl write-word {}", w.result.id());
        let (below, above) = (y + 21.0, y - 14.0);
        let glyph = glyph_box(w.result, x, y);
        let spots = [
            Spot { y: below, y2: Some(below + line), text: &full, anchor, x: lx },
            Spot { y: above - line, y2: Some(above), text: &full, anchor, x: lx },
            Spot { y: below, y2: None, text: &short, anchor: "middle", x },
            Spot { y: above, y2: None, text: &short, anchor: "middle", x },
            Spot { y: below, y2: None, text: &short, anchor: "start", x: x + 2.0 },
            Spot { y: below, y2: None, text: &short, anchor: "end", x: x - 2.0 },
            Spot { y: above, y2: None, text: &short, anchor: "start", x: x + 2.0 },
            Spot { y: above, y2: None, text: &short, anchor: "end", x: x - 2.0 },
            // A low lane (a small embed): beside the glyph, on the lane line.
            Spot { y: y + g.font * 0.36, y2: None, text: &short, anchor: "start", x: glyph[2] + 2.0 },
            Spot { y: y + g.font * 0.36, y2: None, text: &short, anchor: "end", x: glyph[0] - 2.0 },
        ];
        let words = word(w.result);
        // No free spot (writes crowd together on a phone): the glyph alone says the result.
        if let Some(chosen) = spots.iter().find(|c| p.fits_all(g, &spot_labels(c, (w.at, w.event), &who_class, &word_class, words, g.font)))
        {
            for l in spot_labels(chosen, (w.at, w.event), &who_class, &word_class, words, g.font) {
                p.force(g, l);
            }
        }
    }
}

/// Where a write's words may go: the first line's baseline, the second's (if two), the first
/// line's words, and their anchor and x.
struct Spot<'a> {
    y: f64,
    y2: Option<f64>,
    text: &'a str,
    anchor: &'a str,
    x: f64,
}

/// A spot's one or two labels.
fn spot_labels<'a>(c: &Spot<'a>, at: super::Instant, who_class: &'a str, word_class: &'a str, word: &'a str, font: f64) -> Vec<Label<'a>> {
    let mut v = vec![Label { at, class: who_class, x: c.x, y: c.y, anchor: c.anchor, text: c.text, font }];
    if let Some(y2) = c.y2 {
        v.push(Label { at, class: word_class, x: c.x, y: y2, anchor: c.anchor, text: word, font });
    }
    v
}
