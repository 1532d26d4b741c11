//! The static drawing as components and memos with cheap-to-compare inputs: moving the cursor never
//! re-renders it, and the live labels are written once and revealed group by group. The
//! markup comes from `timeline::draw` and is inserted as is (our own output, escaped there),
//! so a run with thousands of messages costs one parse and no diffing.

use std::rc::Rc;

use yew::prelude::*;

use super::n;
use crate::timeline::draw::{self, Drawing, Geometry};
use crate::timeline::Timeline;
use crate::ui::state::Shared;

/// The whole run's shapes in full ink (lanes, axis, bands, bars, arrows, marks, writes), under
/// the veil that fades what is after the cursor; its labels are `use_labels`' alone.
/// The markup is put in by one `innerHTML`, after Yew renders the empty `<svg>`: as Yew's raw
/// HTML it would be taken out again node by node when the run changes (thousands of
/// `removeChild` calls across the wasm boundary, most of what an injected fault cost).
/// A hook of the diagram rather than a component of its own (less wasm): the `<svg>` is made
/// again only when the geometry changes, its markup written again only when the drawing,
/// the run or the geometry changes, as the component's props were compared.
#[hook]
pub fn use_static_layer(drawing: &Rc<Drawing>, timeline: &Shared<Timeline>, geo: &Rc<Geometry>) -> Html {
    let svg = use_node_ref();
    {
        let svg = svg.clone();
        use_effect_with((drawing.clone(), timeline.clone(), geo.clone()), move |(drawing, timeline, geo)| {
            if let Some(el) = svg.cast::<web_sys::Element>() {
                // No labels: under the veil the future's shapes show faintly, its words not at
                // all (no spoilers); `use_labels` writes each label once the cursor reaches it.
                let markup = format!("{}{}{}", draw::DEFS, draw::backdrop(timeline, geo), drawing.shapes);
                el.set_inner_html(&markup);
            }
        });
    }
    let layer = use_memo(geo.clone(), move |g| {
        let (w, h) = (n(g.width), n(g.height));
        html! {
            <svg ref={svg} class="diagram diagram-static" width={w.clone()} height={h.clone()} viewBox={format!("0 0 {w} {h}")} aria-hidden="true" />
        }
    });
    (*layer).clone()
}

/// Labels per group: a seek changes the visibility of whole groups and re-writes at most one.
const CHUNK: usize = 64;

/// Every label of the run is in the DOM, in time order, in groups of `CHUNK`; the groups
/// after the cursor are hidden, and the group the cursor is in holds only the labels reached.
/// A seek anywhere then changes a few `display` styles and re-writes one small group, instead
/// of re-writing thousands of labels (a long Redlock run has thousands) or changing a style
/// sheet (which makes the browser re-check the whole document).
///
/// `count` labels (in time order) are shown. A memo in the diagram, made again only when the
/// drawing or `count` changes, rather than a component of its own (less wasm, same renders).
#[hook]
pub fn use_labels(drawing: &Rc<Drawing>, count: usize) -> Html {
    let chunks = use_memo(drawing.clone(), |d| {
        d.labels.chunks(CHUNK).map(|c| AttrValue::from(c.iter().map(|(_, m)| m.as_str()).collect::<String>())).collect::<Vec<_>>()
    });
    let layer = use_memo((drawing.clone(), count), move |(drawing, count)| {
        let (full, rest) = (count / CHUNK, count % CHUNK);
        let group = |i: usize, markup: &AttrValue| {
            if i == full && rest > 0 {
                let reached: String = drawing.labels[i * CHUNK..i * CHUNK + rest].iter().map(|(_, m)| m.as_str()).collect();
                html! { <LabelGroup markup={AttrValue::from(reached)} hidden=false /> }
            } else {
                html! { <LabelGroup markup={markup.clone()} hidden={i >= full} /> }
            }
        };
        html! { <g class="labels-layer">{ for chunks.iter().enumerate().map(|(i, m)| group(i, m)) }</g> }
    });
    (*layer).clone()
}

#[derive(Properties, PartialEq)]
struct LabelGroupProps {
    markup: AttrValue,
    hidden: bool,
}

/// One group of labels, its markup put in by `innerHTML` (see `use_static_layer`: replaced, not
/// taken apart node by node, when the run changes).
#[function_component(LabelGroup)]
fn label_group(p: &LabelGroupProps) -> Html {
    let g = use_node_ref();
    {
        let g = g.clone();
        use_effect_with(p.markup.clone(), move |markup| {
            if let Some(el) = g.cast::<web_sys::Element>() {
                el.set_inner_html(markup);
            }
        });
    }
    html! { <g ref={g} style={p.hidden.then_some("display:none")} /> }
}
