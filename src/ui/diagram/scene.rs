//! The static drawing as components with cheap-to-compare props: moving the cursor never
//! re-renders it, and the live labels are all written once and revealed by one CSS rule. The
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

/// Tells the diagrams on a page apart (side by side there are two), for their label rule.
fn next_diagram_id() -> usize {
    thread_local!(static NEXT: std::cell::Cell<usize> = const { std::cell::Cell::new(0) });
    NEXT.with(|n| {
        n.set(n.get() + 1);
        n.get()
    })
}

/// Every label of the run is in the DOM once, in time order, one element each; the labels of
/// moments after the cursor are hidden by a single CSS rule. Playing or seeking then changes
/// one line of style, not thousands of elements (a long Redlock run has thousands of labels).
#[function_component(Labels)]
pub fn labels(p: &LabelsProps) -> Html {
    let id = *use_memo((), |_| next_diagram_id());
    let all = use_memo(p.drawing.clone(), |d| Html::from_html_unchecked(AttrValue::from(d.label_markup(usize::MAX))));
    let rule = format!("#labels-{id}>:nth-child(n+{}){{display:none}}", p.count + 1);
    html! {
        <>
            <style>{rule}</style>
            <g class="labels-layer" id={format!("labels-{id}")}>{(*all).clone()}</g>
        </>
    }
}
