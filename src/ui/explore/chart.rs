//! The sweep, drawn: the share of runs losing an update at each value, one line per setting;
//! each point opens a run at its value. The geometry is `session::explore::Chart`.

use yew::prelude::*;

use super::live::progress;
use super::{on, Send};
use crate::session::explore::{percent, swept_fault, Action, Chart, Sweep};
use crate::timeline::draw::svg::N;
use crate::timeline::draw::words::thousands;

/// As the stylesheet's phone layout (styles/explore.css): the chart is drawn narrower.
fn narrow() -> bool {
    web_sys::window().and_then(|w| w.inner_width().ok()).and_then(|w| w.as_f64()).is_some_and(|w| w <= 640.0)
}

fn n(v: f64) -> String {
    N(v).to_string()
}

pub fn sweep(sw: &Sweep, send: &Send) -> Html {
    let narrow = narrow();
    let c = Chart::new(sw, if narrow { Chart::NARROW } else { Chart::WIDE });
    let what = sw.settings.param.words();
    let caption = format!(
        "The share of runs with a lost update; {} schedules per point, each with one {} fault at that value and everything else drawn at random (explorer seed {}). Click a point to open a run at that value.",
        thousands(sw.settings.runs as usize),
        swept_fault(sw.settings.param),
        sw.settings.seed
    );
    html! {
        <>
            {progress(sw.runs(), sw.total())}
            <figure class="explore-sweep" data-testid="explore-chart" data-runs={sw.runs().to_string()}>
                <svg class={if narrow { "narrow" } else { "wide" }} viewBox={format!("0 0 {} {}", n(c.width), n(c.height))} role="img"
                    aria-label={format!("Share of runs with a lost update against {what}")}>
                    {axes(&c, what)}
                    {for c.lines.iter().enumerate().map(|(i, line)| series(sw, i, line, send))}
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

/// The ticks and their labels, the axes, and where a pause is as long as the TTL.
fn axes(c: &Chart, what: &'static str) -> Html {
    let (l, t, r, b) = c.area;
    let y_tick = |(y, label): &(f64, String)| {
        html! {
            <g class="tick">
                <line x1={n(l)} x2={n(r)} y1={n(*y)} y2={n(*y)} />
                <text x={n(l - 6.0)} y={n(y + 4.0)} text-anchor="end">{label.clone()}</text>
            </g>
        }
    };
    let x_tick =
        |(x, label): &(f64, String)| html! { <text class="tick" x={n(*x)} y={n(b + 18.0)} text-anchor="middle">{label.clone()}</text> };
    let ttl = c.ttl_x.map(|x| {
        html! {
            <g class="ttl">
                <line x1={n(x)} x2={n(x)} y1={n(t)} y2={n(b)} />
                <text x={n(x + 4.0)} y={n(t + 12.0)}>{"pause = TTL"}</text>
            </g>
        }
    });
    html! {
        <>
            {for c.y_ticks.iter().map(y_tick)}
            {for c.x_ticks.iter().map(x_tick)}
            <line class="axis" x1={n(l)} x2={n(r)} y1={n(b)} y2={n(b)} />
            <line class="axis" x1={n(l)} x2={n(l)} y1={n(t)} y2={n(b)} />
            <text class="axis-label" x={n((l + r) / 2.0)} y={n(c.height - 4.0)} text-anchor="middle">{what}</text>
            {ttl}
        </>
    }
}

/// Line `i` and its points, each a click away from a run at its value.
fn series(sw: &Sweep, i: usize, (label, pts): &(String, Vec<(f64, f64, f64, u64)>), send: &Send) -> Html {
    let points: String = pts.iter().map(|(x, y, _, _)| format!("{},{} ", N(*x), N(*y))).collect();
    let dot = |(k, (x, y, share, runs)): (usize, &(f64, f64, f64, u64))| {
        let title = format!(
            "{label} at {}: {} of {} runs lost an update. Click to open a run at this value.",
            sw.x_words(sw.xs[k]),
            percent(*share),
            thousands(*runs as usize)
        );
        html! {
            <circle class="dot" cx={n(*x)} cy={n(*y)} r="5" data-testid="sweep-point" onclick={on(send, Action::OpenPoint(i, k))}>
                <title>{title}</title>
            </circle>
        }
    };
    html! {
        <g class={format!("s{}", i % 6)}>
            <polyline {points} />
            {for pts.iter().enumerate().map(dot)}
        </g>
    }
}
