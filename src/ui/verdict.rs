//! The verdict: safe or not, what went wrong in one sentence, whether the run agrees with the
//! scenario's `expect`, and each finding as a link that moves the cursor to it.

use yew::prelude::*;

use crate::check::{FindingKind, Verdict as Judgement};
use crate::decimal::seconds;
use crate::lab::Run;
use crate::text;
use crate::timeline::draw::words::thousands;
use crate::ui::state::Shared;
use crate::ui::state::{Act, Action};

/// What the run is judged against, under its verdict.
#[derive(Clone, PartialEq)]
pub enum Judge {
    /// The scenario's own `expect` (a built-in as shipped, or the user's own scenario).
    Expect,
    /// A built-in the user changed: the verdict of the built-in as shipped.
    Change(Shared<Judgement>),
    /// Nothing (a comparison's derived side: its `expect` was written for the original).
    Nothing,
}

#[derive(Properties, PartialEq)]
pub struct VerdictProps {
    pub run: Shared<Run>,
    /// The moment the verdict is judged up to (`text::verdict::milestone` of the cursor), or
    /// None for the whole run (at the end, or when the outcome is shown up front).
    pub upto: Option<i64>,
    pub judge: Judge,
    /// The comparison's other run (compare mode): its links move the cursor to that run's
    /// events, and its test hook is `verdict-other`.
    #[prop_or_default]
    pub other_side: bool,
    pub act: Act,
}

fn expectation(run: &Run) -> Html {
    let side = if run.scenario.storage.fencing { "fencing on" } else { "fencing off" };
    match run.expect_mismatches() {
        None => html! { <p class="expect none">{"The scenario states no expected outcome for "}{side}{"."}</p> },
        Some(m) if m.is_empty() => html! {
            <p class="expect ok"><span class="mark" aria-hidden="true">{"✓"}</span>{format!(" Matches what the scenario expects with {side}.")}</p>
        },
        Some(m) => {
            let diffs: Vec<String> = m.iter().map(|d| format!("{}: expected {}, got {}", d.field, d.expected, d.actual)).collect();
            html! {
                <p class="expect differs"><span class="mark" aria-hidden="true">{"✗"}</span>
                    {format!(" Differs from the scenario's expectation ({side}): {}.", diffs.join("; "))}</p>
            }
        }
    }
}

/// What the student's change did, judged against the built-in as shipped.
fn change(original: &Judgement, now: &Judgement) -> Html {
    let better = !original.safe && now.safe;
    html! { <p class={classes!("expect", "change", better.then_some("ok"))} data-testid="change-feedback">{text::verdict::change(original, now)}</p> }
}

#[function_component(Verdict)]
pub fn verdict(p: &VerdictProps) -> Html {
    let v = &p.run.verdict;
    let passed = |at: i64| p.upto.is_none_or(|u| at <= u);
    let findings: Vec<Html> = v
        .findings
        .iter()
        .filter(|f| passed(f.at_ms))
        .map(|f| {
            let act = p.act.clone();
            let event = f.event;
            let focus = if p.other_side { Action::FocusOther } else { Action::Focus };
            let bad = matches!(
                f.kind,
                FindingKind::StaleWriteAccepted
                    | FindingKind::TokenRepeated
                    | FindingKind::TokenRegressed
                    | FindingKind::HolderWriteRejected
            );
            html! {
                <li class={classes!("finding", bad.then_some("bad"))}>
                    <button type="button" class="link" onclick={move |_| act.dispatch(focus(event))}
                        title="Move the cursor here">{seconds(f.at_ms)}</button>
                    {" "}{f.text.clone()}
                </li>
            }
        })
        .collect();
    let judged = |at: i64| passed(at);
    let grants = v.grants.iter().filter(|g| judged(g.at_ms)).count();
    let belief = &v.approach.spec().words.belief;
    let stale = |accepted: bool| v.writes.iter().filter(|w| w.stale && w.accepted == accepted && judged(w.at_ms)).count();
    let (class, head, sub, sentence) = match p.upto {
        None => (
            if v.safe { "safe" } else { "unsafe" },
            if v.safe { "Safe" } else { "Unsafe" },
            if v.safe { " — no update was lost" } else { " — a stale write was accepted" },
            text::verdict::sentence(v),
        ),
        Some(u) => ("so-far", "So far", " — the verdict builds up as the run plays", text::verdict::so_far(v, u)),
    };
    html! {
        <section class={classes!("verdict", class)} data-testid={if p.other_side { "verdict-other" } else { "verdict" }}
            data-safe={v.safe.to_string()} data-stale-accepted={v.stale_writes_accepted.to_string()} aria-label={if p.other_side { "Verdict, the compared approach" } else { "Verdict" }}>
            <h2>
                if p.upto.is_none() {
                    <span class="verdict-badge" aria-hidden="true">{if v.safe { "●" } else { "▲" }}</span>
                }
                {head}
                <span class="verdict-sub">{sub}</span>
            </h2>
            <p class="sentence" data-testid={if p.other_side { "verdict-so-far-other" } else { "verdict-so-far" }} data-final={p.upto.is_none().to_string()}>{sentence}</p>
            if p.upto.is_none() {
                {match &p.judge {
                    Judge::Expect => expectation(&p.run),
                    Judge::Change(original) => change(original, v),
                    Judge::Nothing => html! {},
                }}
            }
            <p class="counts">
                {format!("{grants} {} · stale writes accepted {} · rejected {}{}",
                    belief.grant[usize::from(grants != 1)], stale(true), stale(false),
                    if p.upto.is_none() { format!(" · {} {}", belief.most, v.max_concurrent_holders) } else { String::new() })}
            </p>
            if !findings.is_empty() {
                <ul class="findings" aria-label="Findings">{for findings}</ul>
            }
            if let Some(t) = v.truncated_at_ms {
                <p class="cut" data-testid="run-cut">{format!(
                    "The run was cut at {}: it reached the limit of {} trace events, and everything here is judged up to that moment. A shorter duration or fewer clients shows the rest.",
                    seconds(t), thousands(crate::scenario::limits::MAX_TRACE_EVENTS))}</p>
            }
        </section>
    }
}
