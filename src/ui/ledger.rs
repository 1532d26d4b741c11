//! The storage ledger: every write that reached storage, with its token and outcome, telling
//! stale, after-takeover and unfenced writes apart. A row moves the cursor to its write.

use yew::prelude::*;

use crate::decimal::seconds;
use crate::timeline::draw::hue_class;
use crate::timeline::{Timeline, WriteMark, WriteResult};
use crate::ui::state::{Act, Action, Shared};

#[derive(Properties, PartialEq)]
pub struct LedgerProps {
    pub timeline: Shared<Timeline>,
    /// How many writes (in time order) the cursor has passed. A count, not the cursor, so
    /// playback re-renders the ledger only when a write is reached.
    pub passed: usize,
    /// Also list the writes still to come (dimmed): the outcome is shown. Otherwise they are
    /// left out, so the ledger does not give the ending away.
    #[prop_or_default]
    pub future: bool,
    /// The comparison's other run (compare mode): rows move the cursor to that run's writes,
    /// and the test hook is `ledger-other`.
    #[prop_or_default]
    pub other_side: bool,
    pub act: Act,
}

fn note(w: &WriteMark) -> &'static str {
    match w.result {
        WriteResult::StaleAccepted => "lost update: a newer holder had already written",
        WriteResult::Rejected => "fenced: its token is below the highest seen",
        WriteResult::Accepted if w.unfenced => "unfenced: no token, nothing to check",
        WriteResult::Accepted if w.after_takeover => "after takeover: no harm yet, and fencing cannot see it",
        WriteResult::Accepted => "",
    }
}

fn result_word(r: WriteResult) -> &'static str {
    match r {
        WriteResult::Accepted => "accepted",
        WriteResult::Rejected => "rejected",
        WriteResult::StaleAccepted => "STALE, accepted",
    }
}

#[function_component(Ledger)]
pub fn ledger(p: &LedgerProps) -> Html {
    let t = &p.timeline;
    let shown = if p.future { t.writes.len() } else { p.passed };
    let rows = t.writes.iter().take(shown).enumerate().map(|(i, w)| {
        let act = p.act.clone();
        let event = w.event;
        let later = i >= p.passed;
        let focus = if p.other_side { Action::FocusOther } else { Action::Focus };
        let onclick = move |_| act.dispatch(focus(event));
        html! {
            <tr data-testid="ledger-row" data-result={w.result.id()} data-future={later.to_string()}
                data-after-takeover={w.after_takeover.to_string()} data-unfenced={w.unfenced.to_string()}
                class={classes!(w.result.id(), later.then_some("later"), w.after_takeover.then_some("after-takeover"), w.unfenced.then_some("unfenced"))}>
                <td class="num"><button type="button" class="link" {onclick} title="Move the cursor here">{seconds(w.at)}</button></td>
                <td class={classes!("who", hue_class(t.hue(w.client)))}>{t.name(w.client).to_string()}</td>
                <td class="num">{t.approach.token_value(w.token)}</td>
                <td class="result"><span class="result-shape" aria-hidden="true">{match w.result {
                    WriteResult::Accepted => "●", WriteResult::Rejected => "■", WriteResult::StaleAccepted => "▲" }}</span>{" "}{result_word(w.result)}</td>
                <td class="note">{note(w)}</td>
            </tr>
        }
    });
    html! {
        <section class="ledger" data-testid={if p.other_side { "ledger-other" } else { "ledger" }} aria-label={if p.other_side { "Storage ledger, the compared approach" } else { "Storage ledger" }}>
            <h2>{"Storage ledger"}</h2>
            if t.writes.is_empty() && p.future {
                <p class="empty">{"No write reached storage in this run."}</p>
            } else if shown == 0 {
                <p class="empty">{"No write has reached storage yet."}</p>
            } else {
                <table>
                    <thead><tr><th>{"arrived"}</th><th>{"writer"}</th><th>{"token"}</th><th>{"result"}</th><th class="note">{"why it matters"}</th></tr></thead>
                    <tbody>{for rows}</tbody>
                </table>
            }
        </section>
    }
}
