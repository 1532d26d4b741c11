//! The live label column: each node's name, its situation and both of its local clocks at
//! the cursor. The words and their layout are plain Rust (`timeline::draw::lanes`), shared
//! with exported figures; this component only decides when to redraw them.

use std::rc::Rc;

use yew::prelude::*;

use crate::sim::Time;
use crate::timeline::draw::{lanes, Geometry};
use crate::timeline::Timeline;
use crate::ui::state::Shared;

#[derive(Properties, PartialEq)]
pub struct LaneLabelsProps {
    pub timeline: Shared<Timeline>,
    pub geo: Rc<Geometry>,
    /// Whole ms: slow-motion frames within one ms re-render nothing here.
    pub at: Time,
}

#[function_component(LaneLabels)]
pub fn lane_labels(p: &LaneLabelsProps) -> Html {
    Html::from_html_unchecked(AttrValue::from(lanes::labels(&p.timeline, &p.geo, p.at)))
}
