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
    /// Font size (px) of small labels inside the plot, for fitting text.
    pub font: f64,
}

impl Geometry {
    pub fn new(t: &Timeline, width: f64, lecture: bool) -> Geometry {
        let width = width.max(300.0);
        let narrow = width < 640.0;
        let zoom = if lecture { 1.25 } else { 1.0 };
        let label_w = if narrow { 118.0 } else { 176.0 * zoom };
        let servers = t.lanes.iter().filter(|l| l.role == Role::LockServer).count();
        let many = t.lanes.len() > 6;
        let axis_h = 30.0 * zoom;
        let mut top = axis_h;
        let lanes = t
            .lanes
            .iter()
            .map(|l| {
                let h = zoom
                    * match l.role {
                        Role::LockServer if servers > 5 => 28.0,
                        Role::LockServer if servers > 2 => 36.0,
                        Role::LockServer => 58.0,
                        Role::Client if many => 60.0,
                        Role::Client => 72.0,
                        Role::Storage => 74.0,
                    };
                let b = LaneBox { node: l.node, role: l.role, top, h };
                top += h;
                b
            })
            .collect();
        Geometry {
            width,
            height: top + 6.0,
            label_w,
            x0: label_w + 10.0,
            x1: width - 14.0,
            axis_h,
            duration: t.duration_ms.max(1) as f64,
            lanes,
            narrow,
            lecture,
            font: if lecture { 14.0 } else { 12.0 },
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
            l.h = (l.h * factor).round();
            top += l.h;
        }
        self.height = top + 6.0;
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
    /// layout round trip; generous, so estimates err towards dropping a label).
    pub fn text_width(&self, text: &str, font: f64) -> f64 {
        text.chars().count() as f64 * font * 0.6
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

/// CSS class of a client's colour (neutral ink for everything else).
pub fn hue_class(hue: Option<usize>) -> String {
    hue.map_or("ink".into(), |h| format!("h{}", h % 8))
}
