//! The session model (`crate::session`, plain Rust) as Yew state: each action a component
//! dispatches becomes `Session::apply`, the `function_memory_game` way.

use std::rc::Rc;

use yew::prelude::*;

pub use crate::session::{Action, Session, Shared, Start, SPEEDS};

impl Reducible for Session {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        Rc::new((*self).clone().apply(action))
    }
}

/// The dispatcher children receive: compares by identity, so passing it never re-renders.
pub type Act = UseReducerDispatcher<Session>;
