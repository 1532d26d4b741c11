//! The verdict: safe or not, what went wrong in one sentence, whether the run agrees with the
//! scenario's `expect`, and each finding as a link that moves the cursor to it.

use yew::prelude::*;

use crate::check::FindingKind;
use crate::decimal::seconds;
use crate::lab::Run;
use crate::timeline::draw::words::thousands;
use crate::ui::state::Shared;
use crate::ui::state::{Act, Action};

#[derive(Properties, PartialEq)]
pub struct VerdictProps {
    pub run: Shared<Run>,
    /// True time the cursor has reached, in whole ms (findings after it are dimmed).
    pub cursor_ms: i64,
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

#[function_component(Verdict)]
pub fn verdict(p: &VerdictProps) -> Html {
    let v = &p.run.verdict;
    let findings = v.findings.iter().map(|f| {
        let act = p.act.clone();
        let event = f.event;
        let focus = if p.other_side { Action::FocusOther } else { Action::Focus };
        let later = f.at_ms > p.cursor_ms;
        let bad = matches!(f.kind, FindingKind::StaleWriteAccepted | FindingKind::TokenRepeated | FindingKind::TokenRegressed);
        html! {
            <li class={classes!("finding", bad.then_some("bad"), later.then_some("later"))}>
                <button type="button" class="link" onclick={move |_| act.dispatch(focus(event))}
                    title="Move the cursor here">{seconds(f.at_ms)}</button>
                {" "}{f.text.clone()}
            </li>
        }
    });
    html! {
        <section class={classes!("verdict", if v.safe { "safe" } else { "unsafe" })} data-testid={if p.other_side { "verdict-other" } else { "verdict" }}
            data-safe={v.safe.to_string()} data-stale-accepted={v.stale_writes_accepted.to_string()} aria-label="Verdict">
            <h2>
                <span class="verdict-badge" aria-hidden="true">{if v.safe { "●" } else { "▲" }}</span>
                {if v.safe { "Safe" } else { "Unsafe" }}
                <span class="verdict-sub">{if v.safe { " — no update was lost" } else { " — a stale write was accepted" }}</span>
            </h2>
            <p class="sentence">{crate::text::verdict::sentence(v)}</p>
            // A comparison's other side runs a derived scenario: the author's `expect` was
            // written for the original approach and is not carried over (compare.rs).
            if !p.other_side {
                {expectation(&p.run)}
            }
            <p class="counts">
                {format!("{} grants · stale writes accepted {} · rejected {} · most believers at once {}",
                    v.grants.len(), v.stale_writes_accepted, v.stale_writes_rejected, v.max_concurrent_holders)}
            </p>
            if !v.findings.is_empty() {
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
