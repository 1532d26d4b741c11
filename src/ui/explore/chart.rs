//! The sweep, drawn: the share of runs losing an update at each value, one line per setting;
//! each point opens a run at its value. The geometry is `session::explore::Chart`.

use yew::prelude::*;

use super::{on, progress, Send};
use crate::session::explore::{percent, Action, Chart, Sweep};
use crate::timeline::draw::svg::N;
use crate::timeline::draw::words::thousands;

/// As the stylesheet's phone layout (styles/explore.css): the chart is drawn narrower.
fn narrow() -> bool {
    web_sys::window().and_then(|w| w.inner_width().ok()).and_then(|w| w.as_f64()).is_some_and(|w| w <= 640.0)
}

/// A number as an attribute's value (made here once rather than at each attribute).
fn n(v: f64) -> AttrValue {
    N(v).to_string().into()
}

pub fn sweep(sw: &Sweep, send: &Send) -> Html {
    let narrow = narrow();
    let c = Chart::new(sw, if narrow { Chart::NARROW } else { Chart::WIDE });
    let what = sw.settings.param.words();
    let caption = format!(
        "The share of runs with a lost update; {} schedules per point, each with one {} fault at that value and everything else drawn at random (explorer seed {}). Click a point to open a run at that value.",
        thousands(sw.settings.runs as usize),
        sw.settings.param.kind().noun(),
        sw.settings.seed
    );
    html! {
        <>
            {progress(sw.runs(), sw.total())}
            <figure class="explore-sweep" data-testid="explore-chart" data-runs={sw.runs().to_string()}>
                <svg class={if narrow { "narrow" } else { "wide" }} viewBox={format!("0 0 {} {}", n(c.width), n(c.height))} role="img"
                    aria-label={format!("Share of runs with a lost update against {what}")}>
                    {axes(&c, what)}
                    {c.lines.iter().enumerate().map(|(i, line)| series(sw, i, line, send)).collect::<Html>()}
                </svg>
                <figcaption>
                    <ul class="explore-legend">
                        {for sw.lines.iter().enumerate().map(|(i, (label, _))| html! { <li><span class={format!("sw s{}", i % 6)}></span>{label.clone()}</li> })}
                    </ul>
                    {caption}
                </figcaption>
            </figure>
        </>
    }
}

// The chart's parts are drawn by these few functions, each called for many parts: an `html!`
// at each part was 5 KB of the gzipped wasm, which has no room to grow.

/// A group: its class, its parts.
fn g(class: String, parts: Vec<Html>) -> Html {
    html! { <g {class}>{parts}</g> }
}

/// A label at (x, y), anchored at `anchor` (none: its start).
fn text(class: &'static str, (x, y): (f64, f64), anchor: Option<&'static str>, words: String) -> Html {
    html! { <text {class} x={n(x)} y={n(y)} text-anchor={anchor}>{words}</text> }
}

fn line(class: &'static str, (x1, y1): (f64, f64), (x2, y2): (f64, f64)) -> Html {
    html! { <line {class} x1={n(x1)} x2={n(x2)} y1={n(y1)} y2={n(y2)} /> }
}

/// The ticks and their labels, the axes, and where a pause is as long as the TTL.
fn axes(c: &Chart, what: &'static str) -> Vec<Html> {
    let (l, t, r, b) = c.area;
    let mut out = Vec::new();
    for (y, label) in &c.y_ticks {
        out.push(g("tick".into(), vec![line("", (l, *y), (r, *y)), text("", (l - 6.0, y + 4.0), Some("end"), label.clone())]));
    }
    for (x, label) in &c.x_ticks {
        out.push(text("tick", (*x, b + 18.0), Some("middle"), label.clone()));
    }
    out.push(line("axis", (l, b), (r, b)));
    out.push(line("axis", (l, t), (l, b)));
    out.push(text("axis-label", ((l + r) / 2.0, c.height - 4.0), Some("middle"), what.to_string()));
    if let Some(x) = c.ttl_x {
        out.push(g("ttl".into(), vec![line("", (x, t), (x, b)), text("", (x + 4.0, t + 12.0), None, "pause = TTL".into())]));
    }
    out
}

/// Line `i` and its points, each a click away from a run at its value.
fn series(sw: &Sweep, i: usize, (label, pts): &(String, Vec<(f64, f64, u64, u64)>), send: &Send) -> Html {
    let points: String = pts.iter().map(|(x, y, _, _)| format!("{},{} ", N(*x), N(*y))).collect();
    let mut parts = vec![html! { <polyline {points} /> }];
    for (k, (x, y, lost, runs)) in pts.iter().enumerate() {
        let title = format!(
            "{label} at {}: {} of {} runs lost an update ({}). Click to open a run at this value.",
            sw.x_words(sw.xs[k]),
            thousands(*lost as usize),
            thousands(*runs as usize),
            percent(*lost, *runs)
        );
        parts.push(html! {
            <circle class="dot" cx={n(*x)} cy={n(*y)} r="5" data-testid="sweep-point" onclick={on(send, Action::OpenPoint(i, k))}>
                <title>{title}</title>
            </circle>
        });
    }
    g(format!("s{}", i % 6), parts)
}
