//! The keyboard help overlay (press ?).

use yew::prelude::*;

use crate::ui::state::{on_click, Act, Action};

/// The app's keys (the embeds' player, `ui::player`, lists the same).
pub(super) const KEYS: &[(&str, &str)] = &[
    ("Space", "play / pause"),
    ("→  /  ←", "step to the next / previous event"),
    ("Shift + →  /  ←", "jump to the next / previous key moment"),
    ("Home  /  End", "start / end of the run"),
    ("F", "fencing at storage on / off"),
    ("U", "safe unlock on / off"),
    ("L", "lecture mode: big type, the projector's colours"),
    ("T", "colours: light → dark → projector"),
    ("G", "lecture mode: show the run's future faintly"),
    ("K", "the legend under the diagram on / off"),
    (
        "M  /  Enter",
        "on a lane: its fault menu at the cursor (or right-click the lane, or long-press it on a touch screen; ↑ / ↓: next lane)",
    ),
    ("Delete", "remove the selected fault"),
    ("Ctrl + Z  /  Ctrl + Shift + Z", "undo / redo the last edit"),
    ("?", "this help"),
    ("Esc", "close"),
];

/// A lesson's keys: a presentation clicker's, then the stage's.
const LESSON_KEYS: &[(&str, &str)] = &[
    (
        "→  /  PageDown",
        "next step; a question first plays to its answer (pressed again, lands on it); from the last step, the course's next lesson",
    ),
    ("←  /  PageUp", "previous step (the room's answers stay)"),
    ("Space", "play to the step's moment (or its answer)"),
    ("1 – 4", "a hand for that choice: press once per hand raised"),
    ("B  /  .", "blank the screen (again: back)"),
    ("Shift + →  /  ←", "next / previous key moment"),
    ("G", "show the run's future faintly"),
    ("K", "the legend under the diagram on / off"),
    ("F  /  U", "fencing / safe unlock on or off"),
    ("?", "this help"),
    ("Esc", "close"),
];

/// The overlay, while it is open (`lesson`: a lesson is open, whose keys it lists). A function the app calls rather than a component (less
/// wasm): it is only there while the help is open, and re-diffed then with the app.
pub fn help(act: &Act, lesson: bool) -> Html {
    let close = on_click(act, || Action::CloseHelp);
    html! {
        <div class="overlay" role="dialog" aria-modal="true" aria-labelledby="help-title" data-testid="help">
            <div class="sheet">
                <h2 id="help-title">{if lesson { "Keyboard: presenting a lesson" } else { "Keyboard" }}</h2>
                <table class="keys">
                    { for (if lesson { LESSON_KEYS } else { KEYS }).iter().map(|(k, what)| html! { <tr><th scope="row"><kbd>{*k}</kbd></th><td>{*what}</td></tr> }) }
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
