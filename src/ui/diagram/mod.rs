//! The space-time diagram: one lane per node, true time left to right. Three layers: the
//! run's static drawing (written once per run), a veil over the future that the cursor only
//! slides, and a thin live layer (cursor, messages in flight, lane states and clocks, labels
//! of what has happened). That is what makes seeking anywhere instant.

mod lanes;
mod live;
mod pointing;
mod scene;

pub(crate) use live::key_class;
pub use pointing::{hint as fault_hint, layer as pointing_layer, Editing};

use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, ResizeObserver};
use yew::prelude::*;

use self::scene::{use_labels, use_static_layer};
use crate::decimal::seconds;
use crate::sim::{NodeId, Time};
use crate::timeline::draw::{self, Geometry};
use crate::timeline::Timeline;
use crate::ui::state::{Act, Action, Shared};

/// SVG numbers with one decimal: enough for pixels, short in the DOM.
pub(crate) fn n(v: f64) -> String {
    crate::timeline::draw::svg::N(v).to_string()
}

/// Our own markup (escaped where it was written) inserted as is: Yew compares the string and
/// re-parses it only when it changed.
fn raw(markup: String) -> Html {
    Html::from_html_unchecked(AttrValue::from(markup))
}

#[derive(Properties, PartialEq)]
pub struct DiagramProps {
    pub timeline: Shared<Timeline>,
    pub cursor: f64,
    /// The captioned event's place, for the focus ring.
    pub focus: Option<(Time, NodeId)>,
    /// The captioned event, when the cursor stands on its millisecond: what comes after it in
    /// that millisecond is not drawn yet (its labels, the lanes' words, its marker's colour).
    #[prop_or_default]
    pub upto: Option<usize>,
    /// The whole run shown (the Outcome switch): no veil, every label and marker.
    #[prop_or_default]
    pub whole: bool,
    pub lecture: bool,
    /// Scale the drawing down to the height its box is given (embed mode: an iframe of any
    /// size shows the whole diagram, with no scrolling).
    #[prop_or_default]
    pub fit: bool,
    pub act: Act,
    /// Lanes squeezed to fit two diagrams on one screen (compare mode).
    #[prop_or_default]
    pub compact: bool,
    /// The comparison's other side: its key markers focus events of the other run.
    #[prop_or_default]
    pub other: bool,
    /// The scenario's faults and the fault menu, where the user may edit them by pointing
    /// (None: a diagram only to look at — the comparison's sides, an embed).
    #[prop_or_default]
    pub editing: Option<Rc<Editing>>,
}

/// Tracks an element's content width and height with a ResizeObserver (window resizes,
/// lecture mode and the phone layout all change it). The height only where the drawing is fitted
/// to it (`tall`: the lecture stage, an embed); elsewhere it is 0, so the drawing's own height
/// coming in does not start another pass. `alone`: the page's one diagram (not a comparison's).
#[hook]
fn use_size(node: NodeRef, tall: bool, alone: bool) -> (i32, i32) {
    // Where the box's width can be told before it is laid out (one diagram on the page, not
    // the stage: see `first_width`), the first pass draws at it: Yew yields to the browser after 16 ms of
    // work, so a pass that waited for the measurement would come a whole frame later. Elsewhere
    // (0, 0) until measured: one scene, at the real width, not one at a guess and another when
    // the guess is a few pixels off.
    let size = use_state_eq(|| if alone && !tall { (first_width(), 0) } else { (0, 0) });
    {
        let size = size.clone();
        use_effect_with(tall, move |&tall| {
            let el = node.cast::<Element>();
            let measure = {
                let node = node.clone();
                move || {
                    if let Some(el) = node.cast::<Element>() {
                        let w = el.client_width();
                        if w > 0 {
                            size.set((w, if tall { el.client_height() } else { 0 }));
                        } else if size.0 == 0 {
                            // Not laid out (a hidden container): draw at the window's width.
                            let guess = web_sys::window().and_then(|w| w.inner_width().ok()).and_then(|v| v.as_f64()).unwrap_or(1280.0);
                            size.set(((guess as i32 - 32).max(300), 0));
                        }
                    }
                }
            };
            measure();
            let cb = Closure::<dyn FnMut(JsValue)>::new(move |_| measure());
            let observer = ResizeObserver::new(cb.as_ref().unchecked_ref()).ok();
            if let (Some(o), Some(el)) = (&observer, &el) {
                o.observe(el);
            }
            move || {
                if let Some(o) = observer {
                    o.disconnect();
                }
                drop(cb);
            }
        });
    }
    *size
}

/// The diagram box's content width on the page alone, from the window's: styles/app.css gives
/// `.app` at most 1440 px and 16 px of padding a side (8 px where the window is at most 640 px
/// wide, as its media query counts, scrollbar included), the box a 1 px border, and `html` a
/// scrollbar always, so the root's client width is the page's before anything is laid out and
/// stays it when the page grows taller than the window. 0 when there is no window to read.
fn first_width() -> i32 {
    let Some(window) = web_sys::window() else { return 0 };
    let Some(root) = window.document().and_then(|d| d.document_element()) else { return 0 };
    let view = root.client_width();
    if view <= 0 {
        return 0;
    }
    let media_width = window.inner_width().ok().and_then(|v| v.as_f64()).unwrap_or(view as f64);
    let pad = if media_width <= 640.0 { 8 } else { 16 };
    view.min(1440) - 2 * pad - 2
}

#[function_component(Diagram)]
pub fn diagram(p: &DiagramProps) -> Html {
    let wrap = use_node_ref();
    let svg = use_node_ref();
    let (width, height) = use_size(wrap.clone(), p.lecture || p.fit, !p.compact);
    // The screen's size sets the lecture stage's type; it changes only with the box's size
    // (a resize), so it is read again only then.
    let screen = use_memo((width, height), |_| {
        let w = web_sys::window();
        let get = |v: Option<Result<JsValue, JsValue>>| v.and_then(|v| v.ok()).and_then(|v| v.as_f64()).unwrap_or(0.0);
        (get(w.as_ref().map(|w| w.inner_width())), get(w.as_ref().map(|w| w.inner_height())))
    });
    let staged =
        use_memo((p.timeline.clone(), width, height, *screen, p.lecture, p.fit, p.compact), |(t, w, h, screen, lecture, fit, compact)| {
            let (g, scale) = Geometry::staged(t, *w as f64, *h as f64, *screen, *lecture, *fit);
            let g = if *compact && !*lecture { g.squeezed() } else { g };
            (Rc::new(g), scale)
        });
    let (geo, scale) = (staged.0.clone(), staged.1);
    let measured = width > 0;
    let drawing = use_memo(
        (p.timeline.clone(), geo.clone(), measured),
        |(t, g, measured)| if *measured { draw::scene(t, g) } else { Default::default() },
    );
    let static_layer = use_static_layer(&drawing, &p.timeline, &geo);
    let at = p.cursor.floor() as Time;
    let upto = p.upto.filter(|_| !p.whole);
    let labels = use_labels(&drawing, if p.whole { drawing.labels.len() } else { drawing.labels_upto(at, upto) });
    let lane_labels = lanes::use_lane_labels(&p.timeline, &geo, at, upto, measured);
    let reached = if p.whole { (Time::MAX, None) } else { (at, upto) };
    let key_markers = live::use_key_markers(&p.timeline, &geo, &p.act, p.other, reached, measured);
    let t = &*p.timeline;
    let g = &*geo;
    let onclick = {
        let (svg, geo, act) = (svg.clone(), geo.clone(), p.act.clone());
        Callback::from(move |e: MouseEvent| {
            if let Some(el) = svg.cast::<Element>() {
                // On screen the drawing may be scaled (fit): map back to its own pixels.
                let r = el.get_bounding_client_rect();
                let x = (e.client_x() as f64 - r.left()) * geo.width / r.width().max(1.0);
                if x >= geo.x0 - 6.0 {
                    act.dispatch(Action::Seek(geo.time_at(x).round()));
                }
            }
        })
    };
    let names: Vec<&str> = t.lanes.iter().map(|l| l.name.as_str()).collect();
    let title = format!("Space-time diagram: lanes for {}; true time from 0 to {}.", names.join(", "), seconds(t.duration_ms));
    let x_cursor = g.x(p.cursor);
    let (flying, banner) = draw::live::layer(t, g, &drawing, p.cursor);
    let focus = p.focus.filter(|(at, _)| *at == p.cursor.floor() as Time).map(|(at, node)| live::focus(g, at, node));
    // The future is veiled by a plain box that only moves (a compositor transform), so playing
    // and seeking never repaint the static drawing underneath.
    let veil = format!("transform:translateX({}px);top:{}px;height:{}px", n(x_cursor), n(g.axis_h - 6.0), n(g.height - g.axis_h + 6.0));
    if !measured {
        // Measured right after this render, before the browser paints.
        return html! { <figure class="diagram-wrap" ref={wrap} /> };
    }
    html! {
        <figure class="diagram-wrap" ref={wrap}>
            <div class="diagram-scale" style={(scale != 1.0).then(|| format!("width:{}px;transform:scale({})", n(g.width), crate::decimal::Fixed(scale, 4)))}>
            {static_layer}
            if !p.whole {
                <div class="veil" style={veil} aria-hidden="true" />
            }
            <svg ref={svg} class="diagram diagram-live" data-testid="diagram" data-cursor-ms={(p.cursor.max(0.0) as i64).to_string()} data-upto={upto.map(|e| e.to_string())}
                width={n(g.width)} height={n(g.height)} viewBox={format!("0 0 {} {}", n(g.width), n(g.height))}
                role="img" aria-label={title} {onclick}>
                // Messages in flight: dots under the labels and write marks, words over them.
                {raw(flying.dots)}
                {labels}
                {raw(flying.labels)}
                {focus.unwrap_or_default()}
                {raw(banner)}
                {lane_labels}
                {raw(draw::live::cursor(g, p.cursor))}
                {key_markers}
            </svg>
            if let Some(editing) = &p.editing {
                {(editing.layer)(pointing::PointingProps { timeline: p.timeline.clone(), geo: geo.clone(), editing: editing.clone(), cursor: p.cursor, act: p.act.clone() })}
            }
            </div>
        </figure>
    }
}
