//! The page's first paint comes first. What is below the fold at start-up (the exports, the
//! verdict and ledger panels, the explorer, the knobs, the editor) is rendered on the pass
//! after the browser has painted the stage: none of it is on screen in the first frame, and
//! building it (and compiling its code: the browser compiles wasm functions on first call)
//! would delay that frame (issue 11's load budget).

use gloo::render::request_animation_frame;
use gloo::timers::callback::Timeout;
use yew::prelude::*;

/// False on the first render, true from the render after the first paint.
#[hook]
pub fn use_painted() -> bool {
    let painted = use_state_eq(|| false);
    {
        let painted = painted.clone();
        use_effect_with((), move |_| {
            // An animation frame runs just before its paint; a 0 ms timeout queued from it runs
            // once that paint is done.
            let frame = request_animation_frame(move |_| {
                Timeout::new(0, move || painted.set(true)).forget();
            });
            // Unmounted before the frame: the frame is cancelled.
            move || drop(frame)
        });
    }
    *painted
}
