//! What changes with the cursor: the cursor line and its time, messages in flight (dots that
//! travel while playing), a ring on the event being captioned, the key-moment markers on the
//! axis, and a banner while two clients both believe they hold the lock.

use std::rc::Rc;

use yew::prelude::*;

use super::n;
use crate::sim::{NodeId, Time};
use crate::timeline::draw::arrows::ends;
use crate::timeline::draw::words::{and_list, secs};
use crate::timeline::draw::{hue_class, Geometry};
use crate::timeline::{KeyKind, Timeline, WriteResult};
use crate::ui::state::{Act, Action};

/// At most this many in-flight messages get a text label (the rest are dots).
const LABELLED: usize = 3;

pub fn cursor(g: &Geometry, cursor: f64) -> Html {
    let x = g.x(cursor);
    let text = secs((cursor.floor()).max(0.0));
    let w = text.chars().count() as f64 * g.font * 0.62 + 12.0;
    let bx = (x - w / 2.0).clamp(g.x0 - 8.0, g.x1 - w + 8.0);
    html! {
        <g class="cursor">
            <line class="cursor-line" x1={n(x)} x2={n(x)} y1={n(g.axis_h - 8.0)} y2={n(g.height - 2.0)} />
            <rect class="cursor-tag" x={n(bx)} y="1" width={n(w)} height={n(g.axis_h - 10.0)} rx="3" />
            <text class="cursor-time" x={n(bx + w / 2.0)} y={n(g.axis_h - 14.0)} text-anchor="middle">{text}</text>
        </g>
    }
}

pub fn in_flight(t: &Timeline, g: &Geometry, cursor: f64) -> Html {
    let mut labelled = 0;
    t.arrows
        .iter()
        .filter(|a| a.in_flight(cursor))
        .map(|a| {
            let (x0, y0, x1, y1) = ends(g, a);
            let span = (a.end() - a.sent).max(1) as f64;
            let p = ((cursor - a.sent as f64) / span).clamp(0.0, 1.0);
            let (x, y) = (x0 + (x1 - x0) * p, y0 + (y1 - y0) * p);
            let faint = a.quiet || a.client.is_none();
            let label = (!faint && labelled < LABELLED).then(|| {
                labelled += 1;
                a.label.clone()
            });
            // Near the right edge the label goes to the left of the dot.
            let flip = label.as_ref().is_some_and(|l| x + 10.0 + g.text_width(l, g.font) > g.x1);
            html! {
                <g class={classes!("flight", hue_class(a.client.and_then(|c| t.hue(c))), faint.then_some("quiet"))}>
                    <circle class="dot" cx={n(x)} cy={n(y)} r={if faint { "3.5" } else { "6" }} />
                    if let Some(label) = label {
                        <text class="lbl flight-lbl" x={n(if flip { x - 10.0 } else { x + 10.0 })} y={n(y - 8.0)}
                            text-anchor={if flip { "end" } else { "start" }}>{label}</text>
                    }
                </g>
            }
        })
        .collect()
}

/// A ring where the captioned event happened, so the eye finds it.
pub fn focus(g: &Geometry, at: Time, node: NodeId) -> Html {
    let Some(lane) = g.lane(node) else { return html! {} };
    html! { <circle class="focus-ring" cx={n(g.xt(at))} cy={n(lane.mid())} r="13" /> }
}

pub fn overlap_banner(t: &Timeline, g: &Geometry, cursor: f64) -> Html {
    let Some(o) = t.overlaps.iter().find(|o| (o.from as f64) <= cursor && cursor < o.to as f64) else { return html! {} };
    let names: Vec<&str> = o.clients.iter().map(|&c| t.name(c)).collect();
    let both = if names.len() == 2 { "both" } else { "all" };
    let text = if g.narrow {
        format!("{} {both} hold it", and_list(&names))
    } else {
        format!("{} {both} believe they hold the lock", and_list(&names))
    };
    let top = o.clients.iter().filter_map(|&c| g.lane(c)).map(|b| b.top).fold(f64::INFINITY, f64::min);
    let x = g.x(cursor);
    let w = text.chars().count() as f64 * g.font * 0.6 + 30.0;
    let bx = if x + 12.0 + w < g.x1 { x + 12.0 } else { (x - 12.0 - w).max(g.x0) };
    html! {
        <g class="banner">
            <rect x={n(bx)} y={n(top + 2.0)} width={n(w)} height={n(g.font + 10.0)} rx="4" />
            <path class="banner-icon" d={format!("M{} {}l6 10.5h-12z", n(bx + 12.0), n(top + 5.5))} />
            <text x={n(bx + 24.0)} y={n(top + g.font + 3.5)}>{text}</text>
        </g>
    }
}

fn key_class(k: KeyKind) -> &'static str {
    match k {
        KeyKind::Write(WriteResult::StaleAccepted) | KeyKind::LeaseDeleted => "bad",
        KeyKind::Takeover | KeyKind::LeaseExpired | KeyKind::SessionExpired | KeyKind::BeliefLost => "turn",
        KeyKind::Paused | KeyKind::Crashed | KeyKind::ClockChanged | KeyKind::Partition | KeyKind::StateLost => "fault",
        _ => "plain",
    }
}

#[derive(Properties, PartialEq)]
pub struct KeyMarkersProps {
    pub timeline: Rc<Timeline>,
    pub geo: Rc<Geometry>,
    pub act: Act,
    /// Markers of the comparison's other run (their events index that run's trace).
    #[prop_or_default]
    pub other: bool,
}

/// Key moments as small diamonds on the axis; a click jumps there. Static per run.
#[function_component(KeyMarkers)]
pub fn key_markers(p: &KeyMarkersProps) -> Html {
    let (t, g, act, other) = (&*p.timeline, &*p.geo, &p.act, p.other);
    let y = g.axis_h - 8.0;
    t.key_moments
        .iter()
        .map(|k| {
            let x = g.xt(k.at);
            let act = act.clone();
            let event = k.event;
            let onclick = Callback::from(move |e: MouseEvent| {
                e.stop_propagation();
                act.dispatch(if other { Action::FocusOther(event) } else { Action::Focus(event) });
            });
            html! {
                <g class={classes!("key", key_class(k.kind))} {onclick}>
                    <title>{format!("{} — {}", secs(k.at as f64), k.text)}</title>
                    <rect class="key-hit" x={n(x - 7.0)} y={n(y - 7.0)} width="14" height="14" />
                    <path class="key-mark" d={format!("M{} {}l4.5 4.5l-4.5 4.5l-4.5 -4.5z", n(x), n(y - 4.5))} />
                </g>
            }
        })
        .collect()
}
