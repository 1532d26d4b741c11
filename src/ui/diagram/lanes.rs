//! The live label column: each node's name, its situation and both of its local clocks at
//! the cursor.

use std::rc::Rc;

use yew::prelude::*;

use super::n;
use crate::scenario::Approach;
use crate::sim::{Role, Time};
use crate::timeline::draw::words::{span, token, token_value};
use crate::timeline::draw::{hue_class, Geometry, LaneBox};
use crate::timeline::{Timeline, WriteResult};

/// The words beside a lane's name: what the node is doing at `t`.
fn status(t: &Timeline, approach: Approach, lane: &LaneBox, at: Time, narrow: bool) -> (String, &'static str) {
    let s = t.lane_state(lane.node, at);
    if s.down {
        return ("down".into(), "warn");
    }
    match lane.role {
        Role::Client => match (s.paused, s.believes) {
            (true, Some(_)) if narrow => ("paused, sure".into(), "warn"),
            (true, Some(_)) => ("paused · still sure".into(), "warn"),
            (true, None) => ("paused".into(), "warn"),
            (false, Some(None)) => ("believes it holds".into(), "holds"),
            // Long tokens (czxids) do not fit the column; the bar's label carries them.
            (false, Some(tok)) if token_value(t.approach, tok).len() > 6 => ("believes it holds".into(), "holds"),
            (false, Some(tok)) if narrow => (format!("holds · {}", token_value(t.approach, tok)), "holds"),
            (false, Some(tok)) => (format!("believes it holds · {}", token_value(t.approach, tok)), "holds"),
            (false, None) => ("no lock".into(), "quiet"),
        },
        Role::LockServer => {
            let lead = t.leader_at(lane.node, at).map(|l| match (approach, l) {
                (Approach::Redis, true) => "primary",
                (Approach::Redis, false) => "replica",
                (_, true) => "leader",
                (_, false) => "follower",
            });
            let lock = match s.holders.as_slice() {
                [] => "free".to_string(),
                // The bar beside it shows the token; the column has room for names only.
                hs => hs.iter().map(|&(h, _)| t.name(h)).collect::<Vec<_>>().join(", "),
            };
            let paused = if s.paused { "paused · " } else { "" };
            match lead {
                Some(l) if narrow => (format!("{paused}{l}"), if l == "leader" || l == "primary" { "holds" } else { "quiet" }),
                Some(l) => (format!("{paused}{l} · lock: {lock}"), "quiet"),
                None => (format!("{paused}lock: {lock}"), "quiet"),
            }
        }
        Role::Storage => {
            let seen = t.writes.iter().filter(|w| w.storage == lane.node && w.at <= at && w.result != WriteResult::Rejected);
            match seen.map(|w| w.token).max() {
                None => ("no writes yet".into(), "quiet"),
                Some(None) => ("writes carry no token".into(), "quiet"),
                Some(k) => (format!("highest {}", token(t.approach, k)), "quiet"),
            }
        }
    }
}

fn clock(ms: i64) -> String {
    crate::decimal::secs(ms as f64, 3).to_string()
}

/// A clock reading as "wall 13.129 (+10 s)": the offset from true time is spelled out (not
/// just coloured) wherever a step or drift moved the clock.
fn clock_line(label: &str, reading: i64, at: Time) -> Html {
    let off = reading - at;
    let text = if off == 0 {
        format!("{label} {}", clock(reading))
    } else {
        format!("{label} {} ({}{})", clock(reading), if off > 0 { "+" } else { "−" }, span(off.abs()))
    };
    html! { <tspan class={classes!((off != 0).then_some("skewed"))}>{text}</tspan> }
}

#[derive(Properties, PartialEq)]
pub struct LaneLabelsProps {
    pub timeline: Rc<Timeline>,
    pub geo: Rc<Geometry>,
    /// Whole ms: slow-motion frames within one ms re-render nothing here.
    pub at: Time,
}

#[function_component(LaneLabels)]
pub fn lane_labels(p: &LaneLabelsProps) -> Html {
    labels(&p.timeline, &p.geo, p.timeline.approach, p.at)
}

fn labels(t: &Timeline, g: &Geometry, approach: Approach, at: Time) -> Html {
    let fs = g.font;
    let rows = t.lanes.iter().zip(&g.lanes).map(|(lane, b)| {
        // Name, state and a clock line need about three lines of text; fewer fit a compact lane.
        let compact = b.h < 3.0 * fs + 20.0;
        let (words, tone) = status(t, approach, b, at, g.narrow || compact);
        let c = t.clocks.at(lane.node, at);
        let body = if compact {
            // Compact (many servers): name and wall clock on one line, state and monotonic
            // clock on the next.
            let y = b.top + b.h / 2.0 - 2.0;
            html! {
                <>
                    <text class="lane-name small" x="10" y={n(y)}>{lane.name.clone()}</text>
                    <text class={classes!("lane-status", "small", tone)} x="10" y={n(y + fs)}>{words.clone()}</text>
                    if let Some(c) = c {
                        <text class="lane-clock" x={n(g.label_w - 4.0)} y={n(y)} text-anchor="end">{clock_line("w", c.wall_ms, at)}</text>
                        <text class="lane-clock" x={n(g.label_w - 4.0)} y={n(y + fs)} text-anchor="end">{clock_line("m", c.mono_ms, at)}</text>
                    }
                </>
            }
        } else {
            let y = b.top + fs + 8.0;
            let two_lines = b.h >= 68.0;
            html! {
                <>
                    <text class="lane-name" x="10" y={n(y)}>{lane.name.clone()}</text>
                    <text class={classes!("lane-status", tone)} x="10" y={n(y + fs + 3.0)}>{words.clone()}</text>
                    if let Some(c) = c {
                        if two_lines {
                            <text class="lane-clock" x="10" y={n(y + 2.0 * fs + 6.0)}>{clock_line(if g.narrow { "w" } else { "wall" }, c.wall_ms, at)}</text>
                            <text class="lane-clock" x="10" y={n(y + 3.0 * fs + 8.0)}>{clock_line(if g.narrow { "m" } else { "mono" }, c.mono_ms, at)}</text>
                        } else {
                            <text class="lane-clock" x="10" y={n(y + 2.0 * fs + 6.0)}>{clock_line("w", c.wall_ms, at)}{" "}{clock_line("m", c.mono_ms, at)}</text>
                        }
                    }
                </>
            }
        };
        html! {
            <g class={classes!("lane-label", hue_class(lane.hue))}>
                <title>{format!("{}: {words}", lane.name)}</title>
                {body}
            </g>
        }
    });
    html! {
        <g class="labels">
            <rect class="labels-bg" x="0" y={n(g.axis_h)} width={n(g.label_w)} height={n(g.height - g.axis_h)} />
            {for rows}
        </g>
    }
}
