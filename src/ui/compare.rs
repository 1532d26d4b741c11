//! Side by side in the browser: the scenario on screen and its counterpart on another approach
//! (crate::compare), or its run on real servers as recorded (crate::recorded), two diagrams
//! stacked under one cursor and one transport, each headed by its approach and outcome, then
//! the one-line difference and what could not be carried over (a recording: when and on what
//! it was recorded, and whether it agrees with the model).
//!
//! The state keeps the other side as one `Other`, re-derived from the edited scenario on every
//! re-simulation, so the switches and knobs apply to both sides by construction.

use yew::prelude::*;

use super::caption::Caption;
use super::diagram::Diagram;
use super::select::{on_select, use_select_value};
use super::state::{Act, Action, Shared};
use crate::check::Verdict;
use crate::compare::{self, short_name, Against};
use crate::lab::Run;
use crate::scenario::Approach;
use crate::session::{CaptionView, Other, Speaker};
use crate::sim::{NodeId, Time};
use crate::text::Story;
use crate::timeline::Timeline;

#[derive(Properties, PartialEq)]
pub struct SelectProps {
    /// The approach on screen (not offered: a comparison needs two).
    pub approach: Approach,
    pub with: Option<Against>,
    /// The recording of exactly the scenario on screen, as the select offers it ("real Redis
    /// 7.0.15 (recorded)"), if there is one.
    pub recorded: Option<AttrValue>,
    pub act: Act,
}

/// "Compare with…": none, another approach, or the scenario's real run as recorded (offered
/// only while the scenario on screen is the one recorded; still listed, disabled, when it is
/// chosen and the scenario changed, so the select says what is shown).
#[function_component(CompareSelect)]
pub fn compare_select(p: &SelectProps) -> Html {
    // As in the picker: the DOM value follows the state once the select was touched.
    let select = use_select_value(AttrValue::Static(p.with.map_or("none", Against::id)));
    let onchange = on_select(&p.act, |id| Action::CompareWith(Against::by_id(&id)));
    let options = Approach::ALL.into_iter().filter(|&a| a != p.approach).map(|a| {
        html! { <option value={a.id()} selected={p.with == Some(Against::Approach(a))}>{short_name(a)}</option> }
    });
    let chosen = p.with == Some(Against::Recorded);
    let real = match &p.recorded {
        Some(label) => html! { <option value="real" selected={chosen}>{label.clone()}</option> },
        None if chosen => html! { <option value="real" selected=true disabled=true>{"real (no recording of this run)"}</option> },
        None => html! {},
    };
    html! {
        <label class="compare-pick">
            <span class="compare-pick-lbl">{"Compare with"}</span>
            <select ref={select} data-testid="compare-with" {onchange} aria-label="Compare with another approach">
                <option value="none" selected={p.with.is_none()}>{"none"}</option>
                {real}
                {for options}
            </select>
        </label>
    }
}

/// A side's heading: its approach and, once the outcome shows (`upto` None), whether it was
/// safe and why; before that, the verdict so far.
fn head(v: &Verdict, name: &str, testid: &'static str, left_out: Option<String>, upto: Option<Time>) -> Html {
    let (class, badge, text) = match upto {
        None => (if v.safe { "safe" } else { "unsafe" }, if v.safe { "● Safe" } else { "▲ Unsafe" }, compare::side_as(name, v)),
        Some(u) => ("so-far", "So far", format!("{name}: {}", crate::text::verdict::so_far(v, u).trim_start_matches("So far: "))),
    };
    html! {
        <h2 class={classes!("side-head", class)} data-testid={testid} data-safe={v.safe.to_string()}>
            <span class="side-badge">{badge}</span>
            {" "}{text}
            // Why a side stayed calm is often that the fault has no node there: say it up here.
            // Never a bare "Safe" for a side that met fewer faults (issue 22, item 5).
            if let Some(missing) = left_out {
                // A space of its own: the lecture stage's heading is a line box, not a flex row.
                {" "}<span class="side-na" data-testid="side-missing">{missing}
                    // The list is under the diagrams, and under the lecture stage (styles/app.css).
                    <span class="below">{" (listed below)"}</span></span>
            }
        </h2>
    }
}

/// "etcd ran without 1 of Redlock's 3 faults", when a fault could not be carried over.
fn missing(p: &SidesProps, o: &Other) -> Option<String> {
    let n = o.not_applicable.len();
    let total = p.run.scenario.faults.len();
    (n > 0).then(|| {
        format!(
            "{} ran without {n} of {}'s {total} {}",
            o.name,
            short_name(p.run.scenario.approach),
            if total == 1 { "fault" } else { "faults" }
        )
    })
}

#[derive(Properties, PartialEq)]
pub struct SidesProps {
    pub run: Shared<Run>,
    pub timeline: Shared<Timeline>,
    pub story: Shared<Story>,
    pub other: Shared<Other>,
    pub cursor: f64,
    /// The left run's captioned event.
    pub event: Option<usize>,
    /// What each side's caption shows.
    pub view: CaptionView,
    pub other_view: Option<CaptionView>,
    pub fast_forward: bool,
    pub other_focus: Option<usize>,
    pub lecture: bool,
    /// Whose caption the lecture stage shows (it has room for one at full size).
    pub speaker: Speaker,
    /// The outcome shows (the end, or `outcome=1`): headings and the one-line difference say
    /// how each side ended; before that, how it stands so far.
    pub whole: bool,
    /// The Outcome switch: both diagrams show their whole runs.
    #[prop_or_default]
    pub outcome: bool,
    pub act: Act,
}

/// Where an event is drawn, for the focus ring.
fn place(run: &Run, event: Option<usize>) -> Option<(Time, NodeId)> {
    event.and_then(|i| run.trace.events.get(i)).map(|e| (e.at_ms, e.node))
}

/// The captioned event when it is at the cursor's millisecond: the diagram draws that
/// millisecond up to it (`DiagramProps::upto`).
pub fn event_at_cursor(run: &Run, event: Option<usize>, cursor: f64) -> Option<usize> {
    event.filter(|&i| run.trace.events.get(i).is_some_and(|e| e.at_ms == cursor.floor() as Time))
}

/// Both diagrams, each under its heading; under them the one-line difference, what was not
/// carried over, and both captions.
#[function_component(Sides)]
pub fn sides(p: &SidesProps) -> Html {
    let upto = |v: &Verdict| (!p.whole).then(|| crate::text::verdict::milestone(v, p.cursor.floor() as Time));
    let o = &*p.other;
    let ms = p.cursor.floor() as Time;
    // On the lecture stage one caption speaks, for the side marked as speaking.
    let speaking = |s: Speaker| (p.lecture && p.speaker == s).then_some("speaking");
    let left = html! {
        <section class={classes!("side", speaking(Speaker::Left))} aria-label={short_name(p.run.scenario.approach)}>
            {head(&p.run.verdict, short_name(p.run.scenario.approach), "compare-left", None, upto(&p.run.verdict))}
            <Diagram timeline={p.timeline.clone()} cursor={p.cursor} focus={place(&p.run, p.event)} upto={event_at_cursor(&p.run, p.event, p.cursor)} whole={p.outcome} lecture={p.lecture} act={p.act.clone()} compact=true />
        </section>
    };
    let side_caption = |name: AttrValue, run: Shared<Run>, timeline: Shared<Timeline>, story: Shared<Story>, view: CaptionView| {
        html! {
            <div class="side-caption" data-approach={name.clone()}>
                <Caption {run} {timeline} {story} {view} fast_forward={p.fast_forward} side={p.lecture.then_some(name)} />
            </div>
        }
    };
    let left_caption = side_caption(
        AttrValue::Static(short_name(p.run.scenario.approach)),
        p.run.clone(),
        p.timeline.clone(),
        p.story.clone(),
        p.view.clone(),
    );
    let Some((run, timeline, story)) = &o.run else {
        return html! {
            <div class="compare" data-testid="compare">
                {left}
                <p class="compare-error" role="alert" data-testid="compare-error">{format!("No {} side: {}", o.name, o.error.clone().unwrap_or_default())}</p>
                {left_caption}
            </div>
        };
    };
    let event = match p.other_focus {
        Some(f) if run.trace.events.get(f).is_some_and(|e| e.at_ms == ms) => Some(f),
        _ => crate::timeline::current_event(&run.trace, ms),
    };
    html! {
        <div class="compare" data-testid="compare">
            {left}
            <section class={classes!("side", speaking(Speaker::Other))} aria-label={o.name.clone()}>
                {head(&run.verdict, &o.name, "compare-right", missing(p, o), upto(&run.verdict))}
                if let Some(r) = &o.recording {
                    <p class="recorded-on" data-testid="recorded-on">{r.provenance()}</p>
                }
                <Diagram timeline={timeline.clone()} cursor={p.cursor} focus={place(run, event)} upto={event_at_cursor(run, event, p.cursor)} whole={p.outcome} lecture={p.lecture} act={p.act.clone()} compact=true other=true />
            </section>
            if p.whole {
                <p class="compare-summary" data-testid="compare-summary">{o.summary.clone()}</p>
            }
            <ul class="compare-na" data-testid="compare-not-applicable" aria-label="Faults not carried over">
                {for o.not_applicable.iter().map(|t| html! { <li>{t.clone()}</li> })}
            </ul>
            if !o.notes.is_empty() {
                <details class="compare-notes">
                    <summary>{format!("How the {} side was derived", o.name)}</summary>
                    <ul>{for o.notes.iter().map(|t| html! { <li>{t.clone()}</li> })}</ul>
                </details>
            }
            <div class={classes!("side-captions", p.lecture.then_some("one"))}>
                if !p.lecture || p.speaker == Speaker::Left {
                    {left_caption}
                }
                if !p.lecture || p.speaker == Speaker::Other {
                    {side_caption(AttrValue::from(o.name.clone()), Shared(run.clone()), timeline.clone(), story.clone(), p.other_view.clone().unwrap_or(CaptionView::Start))}
                }
            </div>
        </div>
    }
}
