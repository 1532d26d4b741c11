//! The scenario picker: every built-in, grouped by approach.

use std::rc::Rc;

use yew::prelude::*;

use crate::scenario::{Approach, Scenario};
use crate::ui::state::{Act, Action};

#[derive(Properties, PartialEq)]
pub struct PickerProps {
    pub catalog: Rc<Vec<Scenario>>,
    pub selected: AttrValue,
    pub act: Act,
}

#[function_component(Picker)]
pub fn picker(p: &PickerProps) -> Html {
    let select = use_node_ref();
    // `selected` on an option stops counting once the user has touched the select, so keep
    // the DOM value in step with the state explicitly.
    {
        let select = select.clone();
        use_effect_with(p.selected.clone(), move |id| {
            if let Some(s) = select.cast::<web_sys::HtmlSelectElement>() {
                s.set_value(id);
            }
        });
    }
    let onchange = {
        let act = p.act.clone();
        Callback::from(move |e: Event| {
            let s: web_sys::HtmlSelectElement = e.target_unchecked_into();
            act.dispatch(Action::Pick(s.value()));
        })
    };
    let groups = Approach::ALL.iter().filter_map(|&a| {
        let mine: Vec<&Scenario> = p.catalog.iter().filter(|s| s.approach == a).collect();
        (!mine.is_empty()).then(|| {
            html! {
                <optgroup label={a.label()}>
                    { for mine.iter().map(|s| html! {
                        <option value={s.id.clone()} selected={s.id == p.selected.as_str()}>{s.title.clone()}</option>
                    }) }
                </optgroup>
            }
        })
    });
    html! {
        <label class="picker">
            <span class="visually-hidden">{"Scenario"}</span>
            <select ref={select} data-testid="scenario-picker" {onchange} aria-label="Scenario">{for groups}</select>
        </label>
    }
}
