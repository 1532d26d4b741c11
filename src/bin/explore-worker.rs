//! The explorer's Web Worker: a wasm instance of its own that answers the Explore panel's
//! tasks (a range of schedules, a counterexample to shrink) with `session::explore::Hand`,
//! JSON text each way (src/session/explore/farm.rs). Trunk builds it from index.html's
//! `data-type="worker"` link with a loader script; src/ui/explore/workers.rs spawns it. It
//! says "ready" once its wasm runs: a message sent before then would find no listener.
//! Natively it is an empty program (the CLI runs `locklab explore` on every core itself).

#[cfg(target_arch = "wasm32")]
fn main() {
    use std::cell::RefCell;
    use wasm_bindgen::prelude::{Closure, JsValue};
    use wasm_bindgen::JsCast;
    use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let perf = scope.performance();
    let reply = scope.clone();
    let hand = RefCell::new(locklab::session::explore::Hand::default());
    let on_task = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
        let Some(task) = e.data().as_string() else { return };
        let mut now = || perf.as_ref().map_or(0.0, |p| p.now());
        let answer = hand.borrow_mut().answer(&task, &mut now);
        // A page that went away takes its worker with it: nothing to tell anyone.
        let _ = reply.post_message(&JsValue::from_str(&answer));
    });
    scope.set_onmessage(Some(on_task.as_ref().unchecked_ref()));
    // The worker lives as long as the page's handle on it: so does its listener.
    on_task.forget();
    let _ = scope.post_message(&JsValue::from_str("ready"));
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {}
