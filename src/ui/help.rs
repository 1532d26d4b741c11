//! The keyboard help overlay (press ?).

use yew::prelude::*;

use crate::ui::state::{on_click, Act, Action};

const KEYS: &[(&str, &str)] = &[
    ("Space", "play / pause"),
    ("→  /  ←", "step to the next / previous event"),
    ("Shift + →  /  ←", "jump to the next / previous key moment"),
    ("Home  /  End", "start / end of the run"),
    ("F", "fencing at storage on / off"),
    ("U", "safe unlock on / off"),
    ("L", "lecture mode: big type, high contrast"),
    (
        "M  /  Enter",
        "on a lane: its fault menu at the cursor (or right-click the lane, or long-press it on a touch screen; ↑ / ↓: next lane)",
    ),
    ("Delete", "remove the selected fault"),
    ("Ctrl + Z  /  Ctrl + Shift + Z", "undo / redo the last edit"),
    ("?", "this help"),
    ("Esc", "close"),
];

/// The overlay, while it is open. A function the app calls rather than a component (less
/// wasm): it is only there while the help is open, and re-diffed then with the app.
pub fn help(act: &Act) -> Html {
    let close = on_click(act, || Action::CloseHelp);
    html! {
        <div class="overlay" role="dialog" aria-modal="true" aria-labelledby="help-title" data-testid="help">
            <div class="sheet">
                <h2 id="help-title">{"Keyboard"}</h2>
                <table class="keys">
                    { for KEYS.iter().map(|(k, what)| html! { <tr><th scope="row"><kbd>{*k}</kbd></th><td>{*what}</td></tr> }) }
                </table>
                <p class="legend">
                    {"In the diagram: a solid bar is what a client "}<em>{"believes"}</em>{"; the outlined bar under it is what the lock service "}
                    <em>{"holds"}</em>{" for it. Hatching is a pause. At storage: ● accepted, ■ rejected, ▲ stale write accepted (a lost update)."}
                </p>
                <button type="button" class="close" onclick={close} autofocus=true>{"Close"}</button>
            </div>
        </div>
    }
}
