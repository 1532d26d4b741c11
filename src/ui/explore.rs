//! The Explore panel: search the fault space for a lost update, the seed's table measured, a
//! sweep drawn. The model is `explore::page` and its markup `explore::view` (plain Rust);
//! this sets the markup, passes the controls' clicks and changes to `Page::input`, and feeds
//! the model time.
//!
//! Time-sliced on the page's thread: while a search has work, each animation frame runs
//! schedules for `SLICE_MS` (by `performance.now()`), then the frame is drawn. A worker would
//! need a second wasm instance and its glue under the page's CSP, for work the slices already
//! keep within the frame and input budgets (scripts/bench-explore-browser.mjs measures them).
//! A counterexample opens as a scenario of its own through `Action::Load`.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::render::request_animation_frame;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::state::{Act, Action};
use crate::explore::page::Page;
use crate::explore::view;

/// Script time a frame gives the search: half a 60 Hz frame, the rest for drawing and input.
const SLICE_MS: f64 = 8.0;

#[derive(Properties, PartialEq)]
pub struct ExploreProps {
    pub act: Act,
}

fn raw(markup: String) -> Html {
    Html::from_html_unchecked(AttrValue::from(markup))
}

/// Arms one animation frame while the page has work: it runs a slice, then redraws (which
/// arms the next).
#[hook]
fn use_slices(page: Rc<RefCell<Page>>, busy: bool) {
    let frame = use_state_eq(|| 0u64);
    let n = *frame;
    use_effect_with((busy, n), move |&(busy, n)| {
        let handle = busy.then(|| {
            request_animation_frame(move |_| {
                let perf = web_sys::window().and_then(|w| w.performance());
                let mut now = || perf.as_ref().map_or(0.0, |p| p.now());
                page.borrow_mut().step(&mut now, SLICE_MS);
                frame.set(n + 1);
            })
        });
        move || drop(handle)
    });
}

/// The control an event reached, if it is one: a field for `change`, a button (or a chart
/// point) for `click`.
fn control(e: &Event, change: bool) -> Option<Element> {
    let el = e.target()?.dyn_into::<Element>().ok()?.closest("[data-do]").ok()??;
    let field = matches!(el.tag_name().as_str(), "INPUT" | "SELECT");
    (field == change).then_some(el)
}

#[function_component(Explore)]
pub fn explore(p: &ExploreProps) -> Html {
    let page = use_mut_ref(Page::default);
    let redraw = use_force_update();
    // The control last used: if redrawing replaced it, focus goes back to its successor.
    let last = use_mut_ref(|| None::<String>);
    let busy = page.borrow().busy();
    use_slices(page.clone(), busy);
    let handler = |change: bool| {
        let (page, redraw, act, last) = (page.clone(), redraw.clone(), p.act.clone(), last.clone());
        Callback::from(move |e: Event| {
            let Some(el) = control(&e, change) else { return };
            let attr = |name| el.get_attribute(name).unwrap_or_default();
            let value = el
                .dyn_ref::<HtmlInputElement>()
                .map(|i| i.value())
                .or_else(|| el.dyn_ref::<HtmlSelectElement>().map(|s| s.value()))
                .unwrap_or_default();
            let (what, arg) = (attr("data-do"), attr("data-arg"));
            *last.borrow_mut() = Some(format!(r#"[data-do="{what}"][data-arg="{arg}"], [data-do="{what}"]:not([data-arg])"#));
            let open = page.borrow_mut().input(&what, &arg, &value);
            redraw.force_update();
            if let Some(json) = open {
                act.dispatch(Action::Load(json));
                if let Some(w) = web_sys::window() {
                    w.scroll_to_with_x_and_y(0.0, 0.0);
                }
            }
        })
    };
    let (onclick, onchange) = (handler(false).reform(Event::from), handler(true));
    let panel = use_node_ref();
    {
        let (panel, last) = (panel.clone(), last.clone());
        use_effect(move || {
            let lost = gloo::utils::document().active_element().is_none_or(|a| a.tag_name() == "BODY");
            if let (true, Some(root), Some(sel)) = (lost, panel.cast::<Element>(), last.borrow().as_deref()) {
                if let Some(el) = root.query_selector(sel).ok().flatten().and_then(|e| e.dyn_into::<HtmlElement>().ok()) {
                    let _ = el.focus();
                }
            }
        });
    }
    let pg = page.borrow();
    // As the stylesheet's phone layout (styles/explore.css): the chart is drawn narrower.
    let narrow = web_sys::window().and_then(|w| w.inner_width().ok()).and_then(|w| w.as_f64()).is_some_and(|w| w <= 640.0);
    let form = use_memo(pg.form_version, {
        let page = page.clone();
        move |_| AttrValue::from(view::form(&page.borrow()))
    });
    html! {
        <details class="explore" data-testid="explore-panel" ref={panel} {onclick} {onchange}>
            <summary>{"Break it: search the fault space for a lost update"}</summary>
            // Fixed containers: Yew matches unkeyed children from the end, so a live part
            // coming or going must not shift the form onto another part's markup.
            <div class="explore-form">{Html::from_html_unchecked((*form).clone())}</div>
            <div class="explore-bar">{raw(view::controls(&pg))}</div>
            <div class="explore-live">{for view::live(&pg, narrow).into_iter().map(raw)}</div>
        </details>
    }
}
