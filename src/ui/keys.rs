//! Keyboard control, for lecturers who never touch the mouse.

use gloo::events::{EventListener, EventListenerOptions};
use wasm_bindgen::JsCast;
use web_sys::{HtmlElement, HtmlInputElement, KeyboardEvent};
use yew::prelude::*;

use super::state::{Act, Action};

/// What the focused element already does with keys, so we do not steal them.
enum Target {
    /// Typing into a field or choosing in a list: leave every key alone.
    Field,
    /// A slider moves with arrows itself.
    Slider,
    /// Buttons and switches: Space would click them; we take Space for play/pause.
    Control,
    Page,
}

fn target(e: &KeyboardEvent) -> Target {
    let Some(el) = e.target().and_then(|t| t.dyn_into::<HtmlElement>().ok()) else { return Target::Page };
    // In the scenario editor and the Explore panel every control is for setting things up:
    // Space ticks their checkboxes and presses their buttons instead of playing.
    if el.closest(".scenario-json, .explore").ok().flatten().is_some() {
        return Target::Field;
    }
    match el.tag_name().as_str() {
        "SELECT" | "TEXTAREA" => Target::Field,
        "INPUT" => match el.dyn_ref::<HtmlInputElement>().map(|i| i.type_()).as_deref() {
            Some("range") => Target::Slider,
            Some("checkbox") | Some("button") => Target::Control,
            _ => Target::Field,
        },
        "BUTTON" | "SUMMARY" | "A" => Target::Control,
        _ => Target::Page,
    }
}

/// The action a key press asks for, if any.
pub fn action_for(e: &KeyboardEvent) -> Option<Action> {
    let where_ = target(e);
    // Undo and redo every edit, as anywhere (a text field keeps its own).
    if (e.ctrl_key() || e.meta_key()) && !e.alt_key() && !matches!(where_, Target::Field) {
        return match (e.key().as_str(), e.shift_key()) {
            ("z" | "Z", false) => Some(Action::Undo),
            ("z" | "Z", true) | ("y" | "Y", false) => Some(Action::Redo),
            _ => None,
        };
    }
    if e.ctrl_key() || e.meta_key() || e.alt_key() {
        return None;
    }
    let arrows_free = matches!(where_, Target::Page | Target::Control);
    Some(match (e.key().as_str(), e.shift_key()) {
        ("Escape", _) => Action::CloseHelp,
        _ if matches!(where_, Target::Field) => return None,
        (" ", _) | ("Spacebar", _) => Action::TogglePlay,
        ("ArrowRight", true) if arrows_free => Action::NextKey,
        ("ArrowLeft", true) if arrows_free => Action::PrevKey,
        ("ArrowRight", false) if arrows_free => Action::Step,
        ("ArrowLeft", false) if arrows_free => Action::StepBack,
        ("Home", _) if arrows_free => Action::Seek(0.0),
        ("End", _) if arrows_free => Action::Seek(f64::MAX),
        ("f" | "F", _) => Action::ToggleFencing,
        ("u" | "U", _) => Action::ToggleSafeUnlock,
        ("l" | "L", _) => Action::ToggleLecture,
        ("?", _) => Action::ToggleHelp,
        ("Delete" | "Backspace", _) => Action::RemoveSelected,
        _ => return None,
    })
}

/// Listens for keys on the whole document while the app is mounted.
#[hook]
pub fn use_keyboard(act: Act) {
    use_effect_with((), move |_| {
        let doc = gloo::utils::document();
        let listener = EventListener::new_with_options(&doc, "keydown", EventListenerOptions::enable_prevent_default(), move |e| {
            let Some(e) = e.dyn_ref::<KeyboardEvent>() else { return };
            if e.repeat() && e.key() == " " {
                return;
            }
            if let Some(action) = action_for(e) {
                e.prevent_default();
                act.dispatch(action);
            }
        });
        move || drop(listener)
    });
}
