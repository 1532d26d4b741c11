//! The caption: the current moment in plain words, announced politely to screen readers.

use yew::prelude::*;

use crate::decimal::seconds;
use crate::lab::Run;
use crate::sim::Role;
use crate::text::{self, Story};
use crate::timeline::draw::hue_class;
use crate::timeline::Timeline;
use crate::ui::state::Shared;

#[derive(Properties, PartialEq)]
pub struct CaptionProps {
    pub run: Shared<Run>,
    pub timeline: Shared<Timeline>,
    pub story: Shared<Story>,
    /// The trace event to caption (None before the first).
    pub event: Option<usize>,
}

#[function_component(Caption)]
pub fn caption(p: &CaptionProps) -> Html {
    let trace = &p.run.trace;
    let body = match p.event.and_then(|i| trace.events.get(i).map(|e| (i, e))) {
        Some((i, e)) => {
            let text = text::caption(trace, p.run.scenario.approach, &p.story, i);
            let who = trace.nodes.get(e.node).map(|info| (info.name.clone(), info.role));
            let key = p.timeline.key_moments.iter().find(|k| k.event == i);
            html! {
                <>
                    <div class="caption-meta">
                        <span class="caption-time">{seconds(e.at_ms)}</span>
                        if let Some((name, role)) = who {
                            <span class={classes!("caption-node", hue_class(if role == Role::Client { p.timeline.hue(e.node) } else { None }))}>{name}</span>
                        }
                        if let Some(k) = key {
                            <span class="caption-key">{"key moment"}</span>
                            <span class="visually-hidden">{format!(": {}", k.text)}</span>
                        }
                    </div>
                    <p class="caption-text">{text}</p>
                </>
            }
        }
        None => html! {
            <p class="caption-text">{"Press play (Space), or step through it with →."}</p>
        },
    };
    html! {
        <section class="caption" data-testid="caption" aria-live="polite" aria-atomic="true" aria-label="What is happening">
            {body}
        </section>
    }
}
