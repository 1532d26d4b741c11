//! The live label column: each node's name, its situation and both of its local clocks at
//! the cursor. The words and their layout are plain Rust (`timeline::draw::lanes`), shared
//! with exported figures; this hook only decides when to redraw them.

use std::rc::Rc;

use yew::prelude::*;

use super::raw;
use crate::sim::Time;
use crate::timeline::draw::{lanes, Geometry};
use crate::timeline::Timeline;
use crate::ui::state::Shared;

/// The column's markup, made again only when the run, the geometry or the cursor's whole ms
/// changes: slow-motion frames within one ms redraw nothing here. A memo in the diagram
/// rather than a component of its own, which cost more wasm for the same comparison; nothing
/// (`measured` false) until the diagram is drawn at all.
#[hook]
pub fn use_lane_labels(timeline: &Shared<Timeline>, geo: &Rc<Geometry>, at: Time, upto: Option<usize>, measured: bool) -> Html {
    let labels = use_memo((timeline.clone(), geo.clone(), at, upto, measured), |(t, g, at, upto, measured)| {
        if *measured {
            raw(lanes::labels(t, g, *at, *upto))
        } else {
            Html::default()
        }
    });
    (*labels).clone()
}
