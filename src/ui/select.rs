//! What the scenario picker and the compare select share: a `<select>` whose DOM value
//! follows the state, and whose change becomes one action. One hook and one callback instead
//! of a copy in each (smaller wasm: Yew's hook and callback code is generic per closure).

use yew::prelude::*;

use crate::ui::state::{Act, Action};

/// The select's `NodeRef`, its DOM value kept on `value`: `selected` on an option stops
/// counting once the user has touched the select, so the value is set explicitly after every
/// render, not only when `value` changes: when the options change under an unchanged value
/// (the compare select offers every approach but the one on screen), Yew patches the option
/// nodes in place and the browser's selection stays on the old node, now another approach.
#[hook]
pub fn use_select_value(value: AttrValue) -> NodeRef {
    let select = use_node_ref();
    {
        let select = select.clone();
        use_effect(move || {
            if let Some(s) = select.cast::<web_sys::HtmlSelectElement>() {
                if s.value() != value.as_str() {
                    s.set_value(&value);
                }
            }
        });
    }
    select
}

/// `onchange` for a select: the chosen option's value, made into an action.
pub fn on_select(act: &Act, make: fn(String) -> Action) -> Callback<Event> {
    let act = act.clone();
    Callback::from(move |e: Event| {
        let s: web_sys::HtmlSelectElement = e.target_unchecked_into();
        act.dispatch(make(s.value()));
    })
}
