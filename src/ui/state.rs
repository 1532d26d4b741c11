//! The session model (`crate::session`, plain Rust) as Yew state: each action a component
//! dispatches becomes `Session::apply`, the `function_memory_game` way.

use std::rc::Rc;

use yew::prelude::*;

pub use crate::session::{Action, Session, Shared, Start, SPEEDS};

impl Reducible for Session {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        Rc::new((*self).clone().reduce(action))
    }
}

/// The dispatcher children receive: compares by identity, so passing it never re-renders.
pub type Act = UseReducerDispatcher<Session>;

/// A click that dispatches one fixed action: one closure type for every such button (a
/// `move |_| act.dispatch(..)` of each button's own was callback code of its own in the wasm).
pub fn on_click(act: &Act, action: fn() -> Action) -> Callback<MouseEvent> {
    let act = act.clone();
    Callback::from(move |_| act.dispatch(action()))
}
