//! The static drawing as components with cheap-to-compare props: moving the cursor never
//! re-renders the shapes, and the labels only when one more label's moment is reached. The
//! markup comes from `timeline::draw` and is inserted as is (our own output, escaped there),
//! so a run with thousands of messages costs one parse and no diffing.

use std::rc::Rc;

use yew::prelude::*;

use crate::timeline::draw::{self, Drawing, Geometry};
use crate::timeline::Timeline;

#[derive(Properties, PartialEq)]
pub struct BackdropProps {
    pub timeline: Rc<Timeline>,
    pub geo: Rc<Geometry>,
}

/// Lane bands, lane lines and the time axis.
#[function_component(Backdrop)]
pub fn backdrop(p: &BackdropProps) -> Html {
    Html::from_html_unchecked(AttrValue::from(draw::backdrop(&p.timeline, &p.geo)))
}

#[derive(Properties, PartialEq)]
pub struct ShapesProps {
    pub drawing: Rc<Drawing>,
}

/// Bands, bars, arrows, marks and writes.
#[function_component(Shapes)]
pub fn shapes(p: &ShapesProps) -> Html {
    Html::from_html_unchecked(AttrValue::from(p.drawing.shapes.clone()))
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
