//! The scenario picker: every built-in, grouped by approach, and the real outages as a group
//! of their own.

use std::rc::Rc;

use yew::prelude::*;

use crate::scenario::{catalog, Approach, Scenario};
use crate::ui::select::{on_select, use_select_value};
use crate::ui::state::{Act, Action};

#[derive(Properties, PartialEq)]
pub struct PickerProps {
    pub catalog: Rc<Vec<Scenario>>,
    pub selected: AttrValue,
    /// What to call the scenario on screen when it is not a built-in as shipped (edited, or
    /// imported, or from a `#s=` link): listed first, so the picker names what is running
    /// instead of going blank or naming the built-in it started from.
    pub custom: Option<AttrValue>,
    pub act: Act,
}

#[function_component(Picker)]
pub fn picker(p: &PickerProps) -> Html {
    // The custom entry's value is "", which no built-in has.
    let selected = if p.custom.is_some() { AttrValue::default() } else { p.selected.clone() };
    let select = use_select_value(selected.clone());
    let onchange = on_select(&p.act, Action::Pick);
    let outage = |s: &&Scenario| catalog::is_outage(&s.id);
    let by_approach = Approach::ALL.iter().map(|&a| (a.label(), p.catalog.iter().filter(|s| s.approach == a && !outage(s)).collect()));
    let outages = std::iter::once(("Real outages", p.catalog.iter().filter(outage).collect()));
    let groups = by_approach.chain(outages).filter_map(|(label, mine): (&str, Vec<&Scenario>)| {
        (!mine.is_empty()).then(|| {
            html! {
                <optgroup {label}>
                    { for mine.iter().map(|s| html! {
                        <option value={s.id.clone()} selected={s.id == selected.as_str()}>{s.title.clone()}</option>
                    }) }
                </optgroup>
            }
        })
    });
    html! {
        <label class="picker">
            <span class="visually-hidden">{"Scenario"}</span>
            <select ref={select} data-testid="scenario-picker" {onchange} aria-label="Scenario">
                if let Some(label) = &p.custom {
                    <option value="" selected=true disabled=true data-testid="custom-scenario">{label.clone()}</option>
                }
                {for groups}
            </select>
        </label>
    }
}
