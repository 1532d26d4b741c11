//! The caption: the current moment in plain words, announced politely to screen readers. What
//! it shows (an event, a fast-forwarded stretch, the outcome) is the session's `CaptionView`.

use yew::prelude::*;

use crate::decimal::seconds;
use crate::lab::Run;
use crate::session::CaptionView;
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
    pub view: CaptionView,
    /// Playback is fast-forwarding through a quiet stretch.
    #[prop_or_default]
    pub fast_forward: bool,
    /// The box has a fixed height and scrolls when a caption is longer (embeds): it then takes
    /// focus, so a keyboard can scroll it too.
    #[prop_or_default]
    pub scrolls: bool,
    /// The run it speaks for, named in its first line (a comparison's one caption on the
    /// lecture stage).
    #[prop_or_default]
    pub side: Option<AttrValue>,
}

#[function_component(Caption)]
pub fn caption(p: &CaptionProps) -> Html {
    let trace = &p.run.trace;
    let meta = |time: String, who: Html, tag: Html| {
        html! {
            <div class="caption-meta">
                if let Some(side) = &p.side {
                    <span class="caption-side">{side.clone()}</span>
                }
                <span class="caption-time">{time}</span>
                {who}
                {tag}
            </div>
        }
    };
    let (kind, body) = match &p.view {
        CaptionView::Event(i) if trace.events.get(*i).is_some() => {
            let e = &trace.events[*i];
            let text = text::caption(trace, p.run.scenario.approach, &p.story, *i);
            let who = trace.nodes.get(e.node).map_or(html! {}, |info| {
                let hue = hue_class(if info.role == Role::Client { p.timeline.hue(e.node) } else { None });
                html! { <span class={classes!("caption-node", hue)}>{info.name.clone()}</span> }
            });
            let key = p.timeline.key_moments.iter().find(|k| k.event == *i);
            let tag = key.map_or(html! {}, |k| {
                html! {
                    <>
                        <span class="caption-key">{"key moment"}</span>
                        <span class="visually-hidden">{format!(": {}", k.text)}</span>
                    </>
                }
            });
            ("event", html! { <>{meta(seconds(e.at_ms), who, tag)}<p class="caption-text">{text}</p></> })
        }
        CaptionView::Quiet { from, to } => {
            let tag = html! { <span class="caption-key ff" data-testid="fast-forward">{"⏩ fast-forward"}</span> };
            let text = text::quiet::summary(trace, *from, *to);
            (
                "quiet",
                html! { <>{meta(format!("{} – {}", seconds(*from), seconds(*to)), html! {}, tag)}<p class="caption-text">{text}</p></> },
            )
        }
        CaptionView::Outcome => {
            let tag = html! { <span class="caption-key outcome">{"outcome"}</span> };
            let text = text::verdict::sentence(&p.run.verdict);
            ("outcome", html! { <>{meta(seconds(p.timeline.duration_ms), html! {}, tag)}<p class="caption-text">{text}</p></> })
        }
        _ => ("start", html! { <p class="caption-text">{"Press play (Space), or step through it with →."}</p> }),
    };
    html! {
        <section class={classes!("caption", p.fast_forward.then_some("fast"))} data-testid="caption" data-view={kind}
            role="status" aria-live="polite" aria-atomic="true" aria-label="What is happening" tabindex={p.scrolls.then_some("0")}>
            {body}
        </section>
    }
}
