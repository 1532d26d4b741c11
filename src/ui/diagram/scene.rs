//! The static drawing as components with cheap-to-compare props: moving the cursor never
//! re-renders it, and the live labels only when one more label's moment is reached. The
//! markup comes from `timeline::draw` and is inserted as is (our own output, escaped there),
//! so a run with thousands of messages costs one parse and no diffing.

use std::rc::Rc;

use yew::prelude::*;

use super::n;
use crate::timeline::draw::{self, Drawing, Geometry};
use crate::timeline::Timeline;

#[derive(Properties, PartialEq)]
pub struct StaticProps {
    pub drawing: Rc<Drawing>,
    pub timeline: Rc<Timeline>,
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

#[function_component(Labels)]
pub fn labels(p: &LabelsProps) -> Html {
    html! { <g class="labels-layer">{Html::from_html_unchecked(AttrValue::from(p.drawing.label_markup(p.count)))}</g> }
}
