//! Where things go: true time → x, node → lane band. Sized in real CSS pixels from
//! the measured width (not a scaled viewBox), so text stays readable on a phone and on a
//! projector alike.

use crate::sim::{NodeId, Role, Time};
use crate::timeline::Timeline;

#[derive(Clone, Debug, PartialEq)]
pub struct LaneBox {
    pub node: NodeId,
    pub role: Role,
    pub top: f64,
    pub h: f64,
}

impl LaneBox {
    pub fn mid(&self) -> f64 {
        self.top + self.h / 2.0
    }
    pub fn bottom(&self) -> f64 {
        self.top + self.h
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Geometry {
    pub width: f64,
    pub height: f64,
    /// Left column with lane names, states and clocks.
    pub label_w: f64,
    /// Plot area in x.
    pub x0: f64,
    pub x1: f64,
    /// Height of the time axis strip at the top.
    pub axis_h: f64,
    pub duration: f64,
    pub lanes: Vec<LaneBox>,
    pub narrow: bool,
    pub lecture: bool,
    /// Font size (px) of the labels inside the plot, for fitting text.
    pub font: f64,
}

/// Room under the last lane.
const BOTTOM: f64 = 6.0;

/// Lanes grow at most this much over their natural height when a box has room: beyond it a
/// lane is mostly air.
const MAX_STRETCH: f64 = 1.6;

/// The lecture drawing's label font, in its own px (styles/diagram.css sets every text of a
/// `.lecture .diagram` at least this big).
pub const LECTURE_FONT: f64 = 14.0;

/// The smallest type of a drawing off the lecture stage, in its own px: the secondary labels
/// (`lbl-sm`), a compact lane's state and the lane clocks (styles/diagram.css).
pub const SMALLEST_TYPE: f64 = 11.0;

/// On a projector the stage scales the lecture drawing so that its smallest text is this many
/// screen px at 1280×720, and grows with the screen from there (27 px at 1920×1080).
pub const LECTURE_LABEL_PX: f64 = 18.0;

/// The narrowest a drawing is laid out, in its own px (its lane names' column and a plot).
pub const LEAST_WIDTH: f64 = 300.0;

/// The factor a lecture drawing is scaled by on a `vw`×`vh` screen (CSS px): the 720p stage's
/// type, times how much larger than 1280×720 the screen is in its tighter dimension.
pub fn lecture_scale(vw: f64, vh: f64) -> f64 {
    let screen = (vw / 1280.0).min(vh / 720.0).max(1.0);
    LECTURE_LABEL_PX / LECTURE_FONT * screen
}

/// The least height a lane needs. On the lecture stage: its lane line with a bar, its label
/// column on one line (see `lanes::labels`; a lock server's line and 3 px), a client's belief
/// label above its bar and the end word under it, each a line from the lane line, and a
/// write's two lines of words. Compared, nine lanes at these heights keep the stage's 18 px
/// type at 1280×720, their labels apart (tests/drawing_matrix.rs checks both at every key
/// moment). Elsewhere (an embed in a small frame) the story's shapes alone:
/// bars, write marks and one line of lane name; the labels that do not fit give way.
fn least_lane(role: Role, font: f64, lecture: bool) -> f64 {
    match (role, lecture) {
        (Role::LockServer, true) => Geometry::line(font) + 3.0,
        (Role::Client, true) => (font * 3.3).round(),
        (Role::Storage, true) => (font * 4.2).round(),
        (Role::LockServer, false) => Geometry::line(font) + 2.0,
        (Role::Client, false) => (font * 2.0).round(),
        (Role::Storage, false) => (font * 2.3).round(),
    }
}

/// Lane heights that add up to `room`: the natural ones scaled alike (at most `MAX_STRETCH`
/// times), never under `least` (lanes that reach it stay there while the others give up the
/// rest). Whole px. When even the least heights do not fit, the least heights.
fn fit_lanes(natural: &[f64], least: &[f64], room: f64) -> Vec<f64> {
    let sized = |f: f64| -> Vec<f64> { natural.iter().zip(least).map(|(n, l)| (n * f).max(*l).floor()).collect() };
    let sum: f64 = natural.iter().sum();
    if sum <= room {
        return sized((room / sum).min(MAX_STRETCH));
    }
    // The largest factor whose heights fit (bisection: the total only grows with the factor).
    let (mut lo, mut hi) = (0.0, 1.0);
    for _ in 0..30 {
        let mid = (lo + hi) / 2.0;
        if sized(mid).iter().sum::<f64>() <= room {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    sized(lo)
}

impl Geometry {
    /// The drawing at its natural lane heights.
    pub fn new(t: &Timeline, width: f64, lecture: bool) -> Geometry {
        Geometry::layout(t, width, None, lecture)
    }

    /// The drawing with its lanes fitted into `height` (the lecture stage and embeds, where the
    /// page gives the diagram a box): taller lanes when there is room, down to the least a lane
    /// needs when there is not (labels that no longer fit then give way). When even that is
    /// taller than `height`, so is the result, and the page scales it down.
    pub fn fitted(t: &Timeline, width: f64, height: f64, lecture: bool) -> Geometry {
        Geometry::layout(t, width, Some(height), lecture)
    }

    /// The drawing for a box of `box_w`×`box_h` CSS px on a `screen` (w, h), and the factor it
    /// is scaled by to fill the box. On the lecture stage it is laid out smaller and scaled up
    /// to the projector's type (`lecture_scale`), its lanes fitted to the box's height; where
    /// even their least heights do not fit (two diagrams compared), it is scaled down to fit
    /// instead. `fit` (an embed) fits its lanes to the box, unscaled. Otherwise
    /// the drawing is the box's width at natural heights, unscaled. A box of height 0 (not
    /// laid out) gets natural heights.
    pub fn staged(t: &Timeline, box_w: f64, box_h: f64, screen: (f64, f64), lecture: bool, fit: bool) -> (Geometry, f64) {
        if fit && box_h > 0.0 {
            // Never scaled down: its smallest text stays at 11 px, however small the frame.
            // What the least heights cannot fit scrolls inside the frame (styles/app.css).
            return (Geometry::fitted(t, box_w, box_h, false), 1.0);
        }
        if !lecture {
            return (Geometry::new(t, box_w, false), 1.0);
        }
        // The stage's type, but never so large that the drawing's least width overflows its
        // box (a phone: 342 px would have shown a 386 px drawing, its right part cut off).
        let s = lecture_scale(screen.0, screen.1);
        let s = if box_w > 0.0 { s.min(box_w / LEAST_WIDTH) } else { s };
        if box_h <= 0.0 {
            return (Geometry::new(t, box_w / s, true), s);
        }
        let g = Geometry::fitted(t, box_w / s, box_h / s, true);
        if g.height * s <= box_h + 0.5 {
            return (g, s);
        }
        // Lane heights do not depend on the width: laid out wider, the least heights are the same.
        let s = box_h / g.height;
        (Geometry::fitted(t, box_w / s, box_h / s, true), s)
    }

    /// The distance between two lines of text at `font` px.
    pub fn line(font: f64) -> f64 {
        (font * 1.25).ceil()
    }

    fn layout(t: &Timeline, width: f64, height: Option<f64>, lecture: bool) -> Geometry {
        let width = width.max(LEAST_WIDTH);
        let narrow = width < 640.0;
        let zoom = if lecture { 1.25 } else { 1.0 };
        let label_w = zoom * if narrow { 118.0 } else { 176.0 };
        let servers = t.lanes.iter().filter(|l| l.role == Role::LockServer).count();
        let many = t.lanes.len() > 6;
        let axis_h = 30.0 * zoom;
        let font = if lecture { LECTURE_FONT } else { 12.0 };
        let natural: Vec<f64> = t
            .lanes
            .iter()
            .map(|l| {
                zoom * match l.role {
                    Role::LockServer if servers > 5 => 28.0,
                    Role::LockServer if servers > 2 => 36.0,
                    Role::LockServer => 58.0,
                    Role::Client if many => 60.0,
                    Role::Client => 72.0,
                    Role::Storage => 74.0,
                }
            })
            .collect();
        let heights = match height {
            Some(h) => {
                let least: Vec<f64> = t.lanes.iter().map(|l| least_lane(l.role, font, lecture)).collect();
                fit_lanes(&natural, &least, h - axis_h - BOTTOM)
            }
            None => natural,
        };
        let mut top = axis_h;
        let lanes = t
            .lanes
            .iter()
            .zip(heights)
            .map(|(l, h)| {
                let b = LaneBox { node: l.node, role: l.role, top, h };
                top += h;
                b
            })
            .collect();
        Geometry {
            width,
            height: top + BOTTOM,
            label_w,
            x0: label_w + 10.0,
            x1: width - 14.0,
            axis_h,
            duration: t.duration_ms.max(1) as f64,
            lanes,
            narrow,
            lecture,
            font,
        }
    }

    /// The same layout with shorter lanes, so two diagrams stacked for a comparison fit a
    /// projector's 720 px. The lock servers give up most and storage nothing: its write outcomes
    /// are what a comparison is about. Lanes under about three lines of text switch their labels
    /// to the two-line compact form by themselves (see ui/diagram/lanes.rs).
    pub fn squeezed(mut self) -> Geometry {
        let mut top = self.axis_h;
        for l in &mut self.lanes {
            let factor = match l.role {
                Role::LockServer => 0.7,
                Role::Client => 0.75,
                Role::Storage => 1.0,
            };
            l.top = top;
            l.h = (l.h * factor).round().max(least_lane(l.role, self.font, self.lecture));
            top += l.h;
        }
        self.height = top + BOTTOM;
        self
    }

    pub fn x(&self, t: f64) -> f64 {
        self.x0 + (self.x1 - self.x0) * crate::decimal::clamp(t / self.duration, 0.0, 1.0)
    }

    pub fn xt(&self, t: Time) -> f64 {
        self.x(t as f64)
    }

    /// The true time under screen x (for click-to-seek).
    pub fn time_at(&self, x: f64) -> f64 {
        crate::decimal::clamp((x - self.x0) / (self.x1 - self.x0), 0.0, 1.0) * self.duration
    }

    pub fn lane(&self, node: NodeId) -> Option<&LaneBox> {
        self.lanes.iter().find(|l| l.node == node)
    }

    pub fn mid(&self, node: NodeId) -> f64 {
        self.lane(node).map_or(self.axis_h, LaneBox::mid)
    }

    /// Estimated width of `text` at `font` px (no text measuring, so the first paint needs no
    /// layout round trip). From the advance widths of DejaVu Sans Bold, the widest of the
    /// common sans fonts (system-ui falls back to it on Linux): estimates err towards giving a
    /// label more room than it takes, and so towards dropping a label rather than overlapping.
    pub fn text_width(&self, text: &str, font: f64) -> f64 {
        let em: u32 = text
            .chars()
            .map(|c| match c {
                ' '..='~' => BOLD_WIDTHS[c as usize - 32] as u32,
                '·' => 38,
                '…' | '—' | '→' => 100,
                '–' | '−' => 84,
                _ => 84,
            })
            .sum();
        em as f64 / 100.0 * font
    }

    /// The secondary labels' font (`lbl-sm`): a size under the labels', the same on the
    /// lecture stage, where no text is under `LECTURE_FONT`.
    pub fn small(&self) -> f64 {
        if self.lecture {
            self.font
        } else {
            self.font - 1.0
        }
    }

    /// The smallest font size any text of this drawing is set in, in its own px: on the lecture
    /// stage `LECTURE_FONT` (styles/diagram.css sets every text of `.lecture .diagram` at least
    /// that), elsewhere `SMALLEST_TYPE`. On screen it is this times the drawing's scale
    /// (`staged`); the calibration spec (tests/e2e/specs/calibration.spec.ts) holds it against
    /// the browser's computed font sizes, the drawing matrix (tests/drawing_matrix.rs) against
    /// the room's floors.
    pub fn smallest_type(&self) -> f64 {
        if self.lecture {
            LECTURE_FONT
        } else {
            SMALLEST_TYPE
        }
    }

    /// The type of the bands' names and the two-believers banner: half a px over the labels'
    /// off the stage (styles/diagram.css: `.band-lbl`, `.banner text` at 12.5 px), the labels'
    /// on it. Their boxes are estimated at it: at the labels' size they came out up to 4 px
    /// narrower than the text (tests/e2e/specs/calibration.spec.ts found it).
    pub fn emphasis(&self) -> f64 {
        if self.lecture {
            self.font
        } else {
            self.font + 0.5
        }
    }

    /// Whether `text` in the small label font fits in `px` horizontally.
    pub fn fits(&self, text: &str, px: f64) -> bool {
        self.text_width(text, self.font) <= px
    }

    /// Horizontal room from `x` to the plot's right edge.
    pub fn room_after(&self, x: f64) -> f64 {
        self.x1 - x
    }
}

/// Advance widths of DejaVu Sans Bold for ' ' to '~', in hundredths of an em.
const BOLD_WIDTHS: [u8; 95] = [
    35, 46, 52, 84, 70, 100, 87, 31, 46, 46, 52, 84, 38, 42, 38, 37, // space to /
    70, 70, 70, 70, 70, 70, 70, 70, 70, 70, 40, 40, 84, 84, 84, 58, // 0 to ?
    100, 77, 76, 73, 83, 68, 68, 82, 84, 37, 37, 77, 64, 100, 84, 85, // @ to O
    73, 85, 77, 72, 68, 81, 77, 110, 77, 72, 73, 46, 37, 46, 84, 50, // P to _
    50, 67, 72, 59, 72, 68, 44, 72, 71, 34, 34, 67, 34, 104, 71, 69, // ` to o
    72, 72, 49, 60, 48, 71, 65, 92, 65, 65, 58, 71, 37, 71, 84, // p to ~
];

/// CSS class of a client's colour (neutral ink for everything else).
pub fn hue_class(hue: Option<usize>) -> String {
    hue.map_or("ink".into(), |h| format!("h{}", h % 8))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab;
    use crate::scenario::catalog;

    #[test]
    fn the_lecture_scale_grows_with_the_screen() {
        assert_eq!(lecture_scale(1280.0, 720.0) * LECTURE_FONT, LECTURE_LABEL_PX);
        assert!(lecture_scale(1920.0, 1080.0) * LECTURE_FONT >= 26.0);
        // A small window keeps the projector's type; a wide but short one follows its height.
        assert_eq!(lecture_scale(1024.0, 600.0), lecture_scale(1280.0, 720.0));
        assert_eq!(lecture_scale(2560.0, 720.0), lecture_scale(1280.0, 720.0));
    }

    #[test]
    fn fitted_lanes_fill_the_box_and_never_go_under_their_least() {
        for s in catalog::all() {
            let t = Timeline::of_run(&lab::run(&s));
            for h in [200.0, 360.0, 700.0] {
                let g = Geometry::fitted(&t, 1000.0, h, true);
                for l in &g.lanes {
                    assert!(l.h >= least_lane(l.role, g.font, true), "{} in {h}: {l:?}", s.id);
                }
                let least: f64 = g.axis_h + BOTTOM + t.lanes.iter().map(|l| least_lane(l.role, g.font, true)).sum::<f64>();
                let natural = Geometry::new(&t, 1000.0, true).height;
                if least <= h {
                    assert!(g.height <= h, "{} in {h}: {}", s.id, g.height);
                    // Within a px per lane of the box, or at the stretch limit.
                    assert!(
                        g.height >= h - g.lanes.len() as f64 - 1.0 || g.height >= (natural - g.axis_h) * MAX_STRETCH - 8.0,
                        "{} in {h}: {}",
                        s.id,
                        g.height
                    );
                } else {
                    assert!((g.height - least).abs() < 1.0, "{} in {h}", s.id);
                }
            }
        }
    }
}
