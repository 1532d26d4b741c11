//! The animation loop. One `requestAnimationFrame` is armed per rendered frame, and only while
//! playing: paused, nothing runs (RaftScope's users' hot laptops), and a hidden tab gets no
//! frames from the browser at all. A long gap (tab back in view) is clamped in `Session::tick`.

use gloo::render::request_animation_frame;
use yew::prelude::*;

use super::state::{Act, Action};

#[hook]
pub fn use_playback(act: Act, playing: bool, frame: u64) {
    use_effect_with((playing, frame), move |&(playing, _)| {
        let handle = playing.then(|| request_animation_frame(move |ts| act.dispatch(Action::Tick(ts))));
        // Dropping an armed handle cancels it (pause, or unmount).
        move || drop(handle)
    });
}
