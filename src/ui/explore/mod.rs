//! The Explore panel: search the fault space for a lost update, the seed's table measured, a
//! sweep drawn. The state and its actions are `session::explore` (plain Rust, tested
//! natively); this draws a `Page`, sends it the controls' `Action`s and feeds it time.
//!
//! A search and the seed's table run on every core: Web Workers (`workers`), each its own
//! wasm instance, fed tasks by the page's model (`session::explore::farm`); the page folds
//! their answers in and draws the state every animation frame while there is work. Where
//! workers cannot start, and for the sweep, the page runs schedules itself in each frame for
//! `SLICE_MS` (by `performance.now()`), then draws the frame: the same results either way
//! (scripts/bench-explore-browser.mjs measures both).
//! A counterexample opens as a scenario of its own through the session's `Action::Load`.
//!
//! The form (`form`) is a component of its own, drawn again only when its settings change:
//! the live part (`live`, `chart`) is drawn every frame while a search runs, and a redrawn
//! field would lose what is being typed into it.

mod chart;
mod form;
mod live;
mod workers;

use std::cell::RefCell;
use std::rc::Rc;

use gloo::render::request_animation_frame;
use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::state::{self, Act};
use crate::session::explore::{Action, Field, Page, Tab};

/// Script time a frame gives the search: half a 60 Hz frame, the rest for drawing and input.
const SLICE_MS: f64 = 8.0;

/// How often the panel is drawn while all its work is on workers: ten times a second shows the
/// table filling, and leaves the page's thread idle in between, so that on a machine whose
/// cores the workers fill it still answers input at once (a thread that has slept is run first
/// when it wakes; one drawing every frame has used its share).
const WORKERS_REDRAW_MS: u32 = 100;

/// The next look at the page: an animation frame, or a timer while workers do the work; held
/// only for its drop, which cancels it.
enum Armed {
    Frame { _next: gloo::render::AnimationFrame },
    Later { _next: gloo::timers::callback::Timeout },
}

/// Where the panel's controls send their actions.
type Send = Callback<Action>;

/// A click (or a change of a box) that sends one fixed action: one closure type for every
/// such control (a closure of each control's own would be callback code of its own in the
/// wasm).
fn on<E: 'static>(send: &Send, action: Action) -> Callback<E> {
    let send = send.clone();
    Callback::from(move |_| send.emit(action.clone()))
}

/// The value of the field or select an event came from.
fn value_of(e: &Event) -> String {
    let target = e.target();
    let input = target.as_ref().and_then(|t| t.dyn_ref::<HtmlInputElement>()).map(HtmlInputElement::value);
    input.or_else(|| target.as_ref().and_then(|t| t.dyn_ref::<HtmlSelectElement>()).map(HtmlSelectElement::value)).unwrap_or_default()
}

/// `onchange` of a number field (or the select of one): the text, for the page to keep or
/// correct.
fn on_number(send: &Send, field: Field) -> Callback<Event> {
    let send = send.clone();
    Callback::from(move |e: Event| send.emit(Action::Set(field, value_of(&e))))
}

/// `onchange` of a select of choices: the chosen option's value read back as an action.
fn on_choice(send: &Send, read: fn(&str) -> Option<Action>) -> Callback<Event> {
    let send = send.clone();
    Callback::from(move |e: Event| {
        if let Some(a) = read(&value_of(&e)) {
            send.emit(a);
        }
    })
}

#[derive(Properties, PartialEq)]
pub struct ExploreProps {
    pub act: Act,
}

/// Arms one animation frame while the page has work: it runs a slice, then redraws (which
/// arms the next).
/// The workers are fed here too: a search just started has tasks before any worker asks.
/// While all the work is on workers it looks every `WORKERS_REDRAW_MS` instead.
#[hook]
fn use_slices(page: Rc<RefCell<Page>>, pool: workers::Shared, busy: bool) {
    let frame = use_state_eq(|| 0u64);
    let n = *frame;
    use_effect_with((busy, n), move |&(busy, n)| {
        let handle = busy.then(|| {
            let on_workers = page.borrow().all_on_workers();
            let look = move || {
                let perf = web_sys::window().and_then(|w| w.performance());
                let mut now = || perf.as_ref().map_or(0.0, |p| p.now());
                page.borrow_mut().step(&mut now, SLICE_MS);
                workers::Pool::feed(&pool);
                frame.set(n + 1);
            };
            if on_workers {
                Armed::Later { _next: gloo::timers::callback::Timeout::new(WORKERS_REDRAW_MS, look) }
            } else {
                Armed::Frame { _next: request_animation_frame(move |_| look()) }
            }
        });
        move || drop(handle)
    });
}

/// The panel's `Send`, made once: applies an action to the page, redraws, and opens the
/// scenario file an action asks to open.
/// A search or the table started here starts the workers first, if they can run.
#[hook]
fn use_send(page: Rc<RefCell<Page>>, pool: workers::Shared, act: Act) -> Send {
    let redraw = use_force_update();
    let send = use_memo((), move |_| {
        Callback::from(move |action: Action| {
            if action == Action::Start && page.borrow().tab != Tab::Sweep {
                workers::Pool::start(&pool);
            }
            let open = page.borrow_mut().apply(action);
            redraw.force_update();
            if let Some(json) = open {
                act.dispatch(state::Action::Load(json));
                if let Some(w) = web_sys::window() {
                    w.scroll_to_with_x_and_y(0.0, 0.0);
                }
            }
        })
    });
    (*send).clone()
}

#[function_component(Explore)]
pub fn explore(p: &ExploreProps) -> Html {
    let page = use_mut_ref(Page::default);
    let pool = {
        let page = page.clone();
        use_memo((), move |_| workers::Pool::new(page))
    };
    let send = use_send(page.clone(), (*pool).clone(), p.act.clone());
    let busy = page.borrow().busy();
    use_slices(page.clone(), (*pool).clone(), busy);
    let pg = page.borrow();
    let settings = if pg.tab == Tab::Table { &pg.table_settings } else { &pg.search_settings };
    html! {
        <details class="explore" data-testid="explore-panel">
            <summary>{"Break it: search the fault space for a lost update"}</summary>
            <div class="explore-form">
                <form::Form tab={pg.tab} settings={settings.clone()} sweep={pg.sweep_settings.clone()} version={pg.form_version} send={send.clone()} />
            </div>
            <div class="explore-bar">{live::controls(&pg, &send)}</div>
            <div class="explore-live">{live::live(&pg, &send)}</div>
        </details>
    }
}

/// A search's progress bar (the search's counter and the sweep's, so neither of their
/// modules imports the other).
pub fn progress(runs: u64, total: u64) -> Html {
    html! { <progress max={total.to_string()} value={runs.to_string()} aria-label="Schedules run"></progress> }
}
