//! The panel's form: the tabs, a line on what the tab does, and its settings.

use yew::prelude::*;

use super::{on, on_choice, on_number, Send};
use crate::check::properties;
use crate::explore::sweep::Param;
use crate::explore::table;
use crate::scenario::FaultKind;
use crate::session::explore::{Action, Fencing, Field, Lines, Settings, SweepSettings, Tab, MAX_FAULTS};

#[derive(Properties, PartialEq)]
pub struct FormProps {
    pub tab: Tab,
    /// The search's or the table's settings, as the tab is.
    pub settings: Settings,
    pub sweep: SweepSettings,
    /// `Page::form_version`: a change draws the form again from the page.
    pub version: u64,
    pub send: Send,
}

#[function_component(Form)]
pub fn form(p: &FormProps) -> Html {
    let lede = match p.tab {
        Tab::Search => {
            "Draw fault schedules at random, run each, and keep the ones that go wrong, shrunk to the fewest faults that still fail."
        }
        Tab::Table => "Every approach with fencing off and on, each row at the fault mix that reveals what is claimed of it: measured here, not quoted.",
        Tab::Sweep => {
            "Fix one number of a single fault and vary it: the share of lost updates steps up where the fault outlives the lease."
        }
    };
    let tabs = [(Tab::Search, "Search"), (Tab::Table, "The seed’s table"), (Tab::Sweep, "Sweep")];
    html! {
        <>
            <div class="explore-tabs" role="tablist">
                {for tabs.into_iter().map(|(tab, label)| tab_button(p, tab, label))}
            </div>
            <p class="explore-lede">{lede}</p>
            // A tab's fields are its own elements: a select the user touched keeps its choice
            // against a `selected` drawn for another tab.
            <div class="explore-settings" key={p.tab.id()}>
                {match p.tab {
                    Tab::Sweep => sweep_settings(&p.sweep, &p.send),
                    Tab::Search => settings(&p.settings, true, &p.send),
                    // The table's mixes, N and seed are its plan's (`table::plan()`, named under it).
                    Tab::Table => Html::default(),
                }}
            </div>
        </>
    }
}

fn tab_button(p: &FormProps, tab: Tab, label: &'static str) -> Html {
    let on_tab = if p.tab == tab { "true" } else { "false" };
    html! {
        <button type="button" class="small" role="tab" aria-selected={on_tab} aria-pressed={on_tab}
            data-testid={format!("explore-tab-{}", tab.id())} onclick={on(&p.send, Action::Tab(tab))}>{label}</button>
    }
}

/// A checkbox or radio button with its label.
fn check(kind: &'static str, name: &'static str, testid: String, on_now: bool, label: &str, onchange: Callback<Event>) -> Html {
    html! {
        <label class="explore-check">
            <input type={kind} name={name} data-testid={testid} checked={on_now} {onchange} />{label.to_string()}
        </label>
    }
}

/// A number field with its label; its bounds are the page's.
fn number(field: Field, label: &'static str, now: i64, send: &Send) -> Html {
    let (lo, hi) = field.bounds();
    html! {
        <label class="explore-field">
            <span>{label}</span>
            <input type="number" data-testid={format!("explore-set-{}", field.id())} min={lo.to_string()} max={hi.to_string()}
                value={now.to_string()} onchange={on_number(send, field)} />
        </label>
    }
}

/// A select with its label: (value, text, chosen) per option.
fn select(id: &'static str, label: &'static str, options: Vec<(String, String, bool)>, onchange: Callback<Event>) -> Html {
    html! {
        <label class="explore-field">
            <span>{label}</span>
            <select data-testid={format!("explore-set-{id}")} {onchange}>
                {for options.into_iter().map(|(value, text, on_now)| html! { <option {value} selected={on_now}>{text}</option> })}
            </select>
        </label>
    }
}

/// A search's or the table's settings: the table runs every approach with fencing off and on.
fn settings(s: &Settings, search: bool, send: &Send) -> Html {
    let choice = search.then(|| {
        html! {
            <>
                <fieldset><legend>{"Approaches"}</legend>
                    {for table::rows().into_iter().map(|r| {
                        let on_now = s.rows.contains(&r.id);
                        check("checkbox", "explore-row", format!("explore-row-{}", r.id), on_now, &r.label, on(send, Action::ToggleRow(r.id.clone())))
                    })}
                </fieldset>
                <fieldset><legend>{"Fencing"}</legend>
                    {for Fencing::ALL.into_iter().map(|f| {
                        check("radio", "explore-fencing", format!("explore-fencing-{}", f.id()), s.fencing == f, f.words(), on(send, Action::Fencing(f)))
                    })}
                </fieldset>
            </>
        }
    });
    let counts = (1..=MAX_FAULTS).map(|k| (k.to_string(), k.to_string(), s.max_faults == k)).collect();
    let looks_for = search.then(|| {
        let classes = (String::new(), "anything that goes wrong (each class)".to_string(), s.property.is_none());
        let named =
            properties::all().iter().map(|p| (p.id.to_string(), format!("{}: {}", p.kind.id(), p.statement), s.property == Some(p)));
        let options = std::iter::once(classes).chain(named).collect();
        html! {
            <fieldset class="explore-numbers"><legend>{"Look for"}</legend>
                {select("property", "runs that show", options, on_choice(send, |v| Some(Action::Property(properties::by_id(v)))))}
            </fieldset>
        }
    });
    html! {
        <>
            {looks_for}
            {choice}
            <fieldset><legend>{"Fault kinds"}</legend>
                {for FaultKind::ALL.into_iter().map(|k| {
                    let (id, on_now) = (k.id(), s.kinds.contains(&k));
                    check("checkbox", "explore-kind", format!("explore-kind-{id}"), on_now, k.noun(), on(send, Action::ToggleKind(k)))
                })}
            </fieldset>
            <fieldset class="explore-numbers"><legend>{"Budget"}</legend>
                {select("max", "faults per schedule, at most", counts, on_number(send, Field::MaxFaults))}
                {number(Field::Runs, if search { "schedules per approach" } else { "schedules per cell" }, s.runs as i64, send)}
                {number(Field::Seed, "explorer seed", s.seed as i64, send)}
            </fieldset>
        </>
    }
}

fn sweep_settings(s: &SweepSettings, send: &Send) -> Html {
    let params = Param::all().into_iter().map(|p| (p.id().to_string(), p.words().to_string(), s.param == p)).collect();
    let lines = Lines::choices().into_iter().map(|(l, text)| (l.id(), text, l == s.lines)).collect();
    html! {
        <fieldset class="explore-numbers"><legend>{"Sweep"}</legend>
            {select("param", "vary", params, on_choice(send, |v| Param::by_id(v).map(Action::Param)))}
            {number(Field::From, if s.param.per_ttl() { "from (% of the TTL)" } else { "from" }, s.from, send)}
            {number(Field::To, "to", s.to, send)}
            {number(Field::Steps, "points", s.steps as i64, send)}
            {number(Field::PointRuns, "schedules per point", s.runs as i64, send)}
            {select("lines", "lines", lines, on_choice(send, |v| Lines::by_id(v).map(Action::Lines)))}
        </fieldset>
    }
}
