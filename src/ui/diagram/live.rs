//! The interactive part of the live layer: a ring on the event being captioned and the
//! key-moment markers on the axis. The cursor, messages in flight and the overlap banner are
//! markup from `timeline::draw::live`, shared with exported figures.

use std::rc::Rc;

use yew::prelude::*;

use super::n;
use crate::decimal::seconds;
use crate::sim::{NodeId, Time};
use crate::timeline::draw::Geometry;
use crate::timeline::{KeyKind, Timeline, WriteResult};
use crate::ui::state::{Act, Action, Shared};

/// A ring where the captioned event happened, so the eye finds it.
pub fn focus(g: &Geometry, at: Time, node: NodeId) -> Html {
    let Some(lane) = g.lane(node) else { return html! {} };
    html! { <circle class="focus-ring" cx={n(g.xt(at))} cy={n(lane.mid())} r="13" /> }
}

/// A key marker's colour, by what happened there (the embeds' player, `ui::player`, too).
pub(crate) fn key_class(k: KeyKind) -> &'static str {
    match k {
        KeyKind::Write(WriteResult::StaleAccepted) | KeyKind::LeaseDeleted => "bad",
        KeyKind::Takeover | KeyKind::LeaseExpired | KeyKind::SessionExpired | KeyKind::BeliefLost => "turn",
        KeyKind::Paused | KeyKind::Crashed | KeyKind::ClockChanged | KeyKind::Partition | KeyKind::StateLost => "fault",
        _ => "plain",
    }
}

/// Key moments as small diamonds on the axis; a click jumps there (`other`: markers of the
/// comparison's other run, whose events index that run's trace). A marker names its moment,
/// and takes the colour of its outcome, only once the cursor has reached it (`reached`: the
/// whole ms and the captioned event there, as `draw::reached` takes them); until then it is
/// a grey place to jump to. Made again only when one of these
/// changes: a memo in the diagram, like the lane labels, rather than a component of its own;
/// nothing (`measured` false) until the diagram is drawn at all.
#[hook]
pub fn use_key_markers(
    timeline: &Shared<Timeline>,
    geo: &Rc<Geometry>,
    act: &Act,
    other: bool,
    reached: (Time, Option<usize>),
    measured: bool,
) -> Html {
    let markers = use_memo(
        (timeline.clone(), geo.clone(), act.clone(), other, reached, measured),
        |(t, g, act, other, reached, measured)| {
            if !*measured {
                return Html::default();
            }
            let (other, (at, upto)) = (*other, *reached);
            let y = g.axis_h - 8.0;
            t.key_moments
            .iter()
            .map(|k| {
                let x = g.xt(k.at);
                let act = act.clone();
                let event = k.event;
                let onclick = Callback::from(move |e: MouseEvent| {
                    e.stop_propagation();
                    act.dispatch(if other { Action::FocusOther(event) } else { Action::Focus(event) });
                });
                let come = crate::timeline::draw::reached((k.at, k.event), at, upto);
                html! {
                    <g class={classes!("key", if come { key_class(k.kind) } else { "later" })} data-at={k.at.to_string()} data-event={k.event.to_string()} {onclick}>
                        // A moment still to come is a place to jump to, not a spoiler of what happens.
                        <title>{if come { format!("{} — {}", seconds(k.at), k.text) } else { format!("{}: a key moment", seconds(k.at)) }}</title>
                        <rect class="key-hit" x={n(x - 7.0)} y={n(y - 7.0)} width="14" height="14" />
                        <path class="key-mark" d={format!("M{} {}l4.5 4.5l-4.5 4.5l-4.5 -4.5z", n(x), n(y - 4.5))} />
                    </g>
                }
            })
            .collect()
        },
    );
    (*markers).clone()
}
