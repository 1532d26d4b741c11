//! The static drawing as components with cheap-to-compare props: moving the cursor never
//! re-renders it, and the live labels are written once and revealed group by group. The
//! markup comes from `timeline::draw` and is inserted as is (our own output, escaped there),
//! so a run with thousands of messages costs one parse and no diffing.

use std::rc::Rc;

use yew::prelude::*;

use super::n;
use crate::timeline::draw::{self, Drawing, Geometry};
use crate::timeline::Timeline;
use crate::ui::state::Shared;

#[derive(Properties, PartialEq)]
pub struct StaticProps {
    pub drawing: Rc<Drawing>,
    pub timeline: Shared<Timeline>,
    pub geo: Rc<Geometry>,
}

/// The whole run drawn in full ink: lanes, axis, bands, bars, arrows, marks, writes, labels.
#[function_component(StaticLayer)]
pub fn static_layer(p: &StaticProps) -> Html {
    let g = &*p.geo;
    let markup = format!("{}{}{}{}", draw::DEFS, draw::backdrop(&p.timeline, g), p.drawing.shapes, p.drawing.label_markup(usize::MAX));
    let (w, h) = (n(g.width), n(g.height));
    html! {
        <svg class="diagram diagram-static" width={w.clone()} height={h.clone()} viewBox={format!("0 0 {w} {h}")} aria-hidden="true">
            {Html::from_html_unchecked(AttrValue::from(markup))}
        </svg>
    }
}

#[derive(Properties, PartialEq)]
pub struct LabelsProps {
    pub drawing: Rc<Drawing>,
    /// How many labels (in time order) to show.
    pub count: usize,
}

/// Labels per group: a seek changes the visibility of whole groups and re-writes at most one.
const CHUNK: usize = 64;

/// Every label of the run is in the DOM, in time order, in groups of `CHUNK`; the groups
/// after the cursor are hidden, and the group the cursor is in holds only the labels reached.
/// A seek anywhere then changes a few `display` styles and re-writes one small group, instead
/// of re-writing thousands of labels (a long Redlock run has thousands) or changing a style
/// sheet (which makes the browser re-check the whole document).
#[function_component(Labels)]
pub fn labels(p: &LabelsProps) -> Html {
    let chunks = use_memo(p.drawing.clone(), |d| {
        d.labels.chunks(CHUNK).map(|c| AttrValue::from(c.iter().map(|(_, m)| m.as_str()).collect::<String>())).collect::<Vec<_>>()
    });
    let (full, rest) = (p.count / CHUNK, p.count % CHUNK);
    let group = |i: usize, markup: &AttrValue| {
        if i < full {
            html! { <g>{Html::from_html_unchecked(markup.clone())}</g> }
        } else if i == full && rest > 0 {
            let reached: String = p.drawing.labels[i * CHUNK..i * CHUNK + rest].iter().map(|(_, m)| m.as_str()).collect();
            html! { <g>{Html::from_html_unchecked(AttrValue::from(reached))}</g> }
        } else {
            html! { <g style="display:none">{Html::from_html_unchecked(markup.clone())}</g> }
        }
    };
    html! { <g class="labels-layer">{ for chunks.iter().enumerate().map(|(i, m)| group(i, m)) }</g> }
}
