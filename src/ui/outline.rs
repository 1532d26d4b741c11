//! The run in words, lane by lane (`text::outline`): the diagram's parallel document, for a
//! screen reader or anyone who would rather read than look. Each lane is a heading with a list
//! of its events up to the cursor (the whole run once the outcome shows: the list gives no
//! more away than the ledger does). Kept in step with the cursor both ways: the event the
//! cursor stands on is `aria-current` and the list's one Tab stop; reaching an event with the
//! keys moves the cursor there (and so the caption, which the live region reads out).
//!
//! Keys inside it: ← / → along a lane (→ past the last event shown moves the cursor on to the
//! lane's next one), ↑ / ↓ to the nearest event at or before this time on the lane above or
//! below, Home / End to the lane's first and last. src/ui/keys.rs leaves these keys to it.

use std::rc::Rc;

use wasm_bindgen::JsCast;
use web_sys::{HtmlElement, KeyboardEvent};
use yew::prelude::*;

use crate::lab::Run;
use crate::text::outline::{at_cursor, lane_heading, outline, step, LaneOutline, OutlineKey};
use crate::text::Story;
use crate::timeline::Timeline;
use crate::ui::state::{Act, Action, Shared};

#[derive(Properties, PartialEq)]
pub struct OutlineProps {
    pub run: Shared<Run>,
    pub timeline: Shared<Timeline>,
    pub story: Shared<Story>,
    /// How many of the timeline's steps the cursor has passed (a count, so playback re-renders
    /// the list only when an event is reached).
    pub passed: usize,
    /// The event a step or a click landed on, among those at the cursor's millisecond.
    pub focus: Option<usize>,
    /// The whole run is listed (the outcome shows).
    pub whole: bool,
    pub act: Act,
}

#[function_component(RunOutline)]
pub fn run_outline(p: &OutlineProps) -> Html {
    let lanes: Rc<Vec<LaneOutline>> = use_memo((p.run.clone(), p.timeline.clone(), p.story.clone()), |(run, t, story)| {
        outline(&run.trace, run.scenario.approach, story, t)
    });
    // The event to give the keyboard's focus once it is drawn (a key moved the cursor to it).
    let pending = use_mut_ref(|| None::<usize>);
    {
        let pending = pending.clone();
        use_effect(move || {
            if let Some(event) = pending.borrow_mut().take() {
                let selector = format!("[data-testid=\"outline\"] [data-event=\"{event}\"]");
                if let Some(el) =
                    gloo::utils::document().query_selector(&selector).ok().flatten().and_then(|e| e.dyn_into::<HtmlElement>().ok())
                {
                    let _ = el.focus();
                }
            }
        });
    }
    let upto = p.passed.checked_sub(1).and_then(|i| p.timeline.steps.get(i)).map(|s| s.at);
    let shown = |at: i64| p.whole || upto.is_some_and(|u| at <= u);
    let here = upto.and_then(|u| at_cursor(&lanes, u, p.focus));

    let onkeydown = {
        let (lanes, act, pending) = (lanes.clone(), p.act.clone(), pending.clone());
        let listed_upto = if p.whole { None } else { upto };
        Callback::from(move |e: KeyboardEvent| {
            if e.ctrl_key() || e.meta_key() || e.alt_key() || e.shift_key() {
                return;
            }
            let Some(key) = OutlineKey::of(&e.key()) else { return };
            let Some(from) = e.target().and_then(|t| t.dyn_into::<HtmlElement>().ok()).and_then(|el| place(&el)) else { return };
            e.prevent_default();
            e.stop_propagation();
            if let Some((li, ei)) = step(&lanes, from, key, listed_upto) {
                let event = lanes[li].events[ei].event;
                *pending.borrow_mut() = Some(event);
                act.dispatch(Action::Focus(event));
            }
        })
    };

    let lane_views = lanes.iter().enumerate().map(|(li, lane)| {
        let listed = lane.events.iter().filter(|e| shown(e.at)).count();
        let events = lane.events.iter().enumerate().filter(|(_, e)| shown(e.at)).map(|(ei, e)| {
            let current = here == Some((li, ei));
            let onclick = {
                let (act, event) = (p.act.clone(), e.event);
                Callback::from(move |_: MouseEvent| act.dispatch(Action::Focus(event)))
            };
            html! {
                <li class={classes!(e.key.is_some().then_some("key"))}>
                    <button type="button" class="outline-event" data-event={e.event.to_string()} data-lane={li.to_string()} data-index={ei.to_string()}
                        aria-current={current.then_some("step")} tabindex={if current { "0" } else { "-1" }} {onclick}>
                        {e.words.clone()}
                        // The blue edge says "key moment" to the eye; this says it to the ear.
                        if e.key.is_some() {
                            <span class="visually-hidden">{" Key moment."}</span>
                        }
                    </button>
                </li>
            }
        });
        let heading = lane_heading(&lane.name, listed);
        html! {
            <section class="outline-lane" aria-label={heading.clone()}>
                <h3>{lane.name.clone()}</h3>
                <ol>{for events}</ol>
            </section>
        }
    });
    // Before the first event there is nothing to stand on: the first lane's first event is the
    // way in, so Tab still reaches the list.
    let nothing_yet = here.is_none();
    html! {
        <section class="outline" data-testid="outline" aria-labelledby="outline-title">
            <h2 id="outline-title">{"The run in words, lane by lane"}</h2>
            <p class="outline-keys" id="outline-keys">
                {"Tab to the event at the cursor; ← → move along a lane, ↑ ↓ to the lane above or below, Home and End to a lane's ends. Each event you reach moves the diagram's cursor there."}
            </p>
            if nothing_yet {
                <p class="outline-empty">{"Nothing has happened yet: press Play, or → to step."}</p>
            }
            <div class="outline-lanes" aria-describedby="outline-keys" {onkeydown}>{for lane_views}</div>
        </section>
    }
}

/// The (lane, index) an event button stands for.
fn place(el: &HtmlElement) -> Option<(usize, usize)> {
    let lane = el.get_attribute("data-lane")?.parse().ok()?;
    let index = el.get_attribute("data-index")?.parse().ok()?;
    Some((lane, index))
}
