//! Keyboard control, for lecturers who never touch the mouse.

use gloo::events::{EventListener, EventListenerOptions};
use wasm_bindgen::JsCast;
use web_sys::{HtmlElement, HtmlInputElement, KeyboardEvent};
use yew::prelude::*;

use super::state::{Act, Action};

/// What the focused element already does with keys, so we do not steal them.
enum Target {
    /// Typing into a field: leave every key alone.
    Field,
    /// A slider moves with the plain arrows itself.
    Slider,
    /// The run in words (src/ui/outline.rs): its arrows, Home and End move along its lanes;
    /// the rest of the app's keys (Space, F, …) still work there.
    Outline,
    /// Everything else: buttons, switches, links, the page, and a `<select>`. A closed select
    /// chooses with ↑/↓ (the app binds neither); the rest of its keys (type-ahead letters,
    /// Space opening the list, ←/→ changing the choice) are the app's, so that after picking a
    /// scenario, or a speed, Shift+→ or F works at once. While a select's list is open the
    /// browser gives the keys to the list, not to the page.
    Control,
}

fn target(e: &KeyboardEvent) -> Target {
    let Some(el) = e.target().and_then(|t| t.dyn_into::<HtmlElement>().ok()) else { return Target::Control };
    // In the scenario editor and the Explore panel every control is for setting things up:
    // Space ticks their checkboxes and presses their buttons instead of playing.
    if el.closest(".scenario-json, .explore").ok().flatten().is_some() || el.is_content_editable() {
        return Target::Field;
    }
    if el.closest(".outline-lanes").ok().flatten().is_some() {
        return Target::Outline;
    }
    match el.tag_name().as_str() {
        "TEXTAREA" => Target::Field,
        "INPUT" => match el.dyn_ref::<HtmlInputElement>().map(|i| i.type_()).as_deref() {
            Some("range") => Target::Slider,
            Some("checkbox" | "radio" | "button" | "submit" | "reset" | "file" | "color") => Target::Control,
            _ => Target::Field,
        },
        _ => Target::Control,
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
    // The slider and the outline keep their own plain arrows; Shift+arrows (key moments) are
    // the app's everywhere.
    let arrows_free = !matches!(where_, Target::Slider | Target::Outline);
    if matches!(where_, Target::Outline) && matches!(e.key().as_str(), "Home" | "End") && !e.shift_key() {
        return None;
    }
    Some(match (e.key().as_str(), e.shift_key()) {
        ("Escape", _) => Action::CloseHelp,
        _ if matches!(where_, Target::Field) => return None,
        (" ", _) | ("Spacebar", _) => Action::TogglePlay,
        ("ArrowRight", true) => Action::NextKey,
        ("ArrowLeft", true) => Action::PrevKey,
        ("ArrowRight", false) if arrows_free => Action::Step,
        ("ArrowLeft", false) if arrows_free => Action::StepBack,
        ("Home", _) => Action::Seek(0.0),
        ("End", _) => Action::Seek(f64::MAX),
        ("f" | "F", _) => Action::ToggleFencing,
        ("u" | "U", _) => Action::ToggleSafeUnlock,
        ("l" | "L", _) => Action::ToggleLecture,
        ("t" | "T", _) => Action::NextTheme,
        ("g" | "G", _) => Action::ToggleFuture,
        ("k" | "K", _) => Action::ToggleLegend,
        ("?", _) => Action::ToggleHelp,
        ("Delete" | "Backspace", _) => Action::RemoveSelected,
        _ => return None,
    })
}

/// What a key does while a lesson is open (src/ui/lesson.rs): a presentation clicker's
/// PageDown / PageUp and the arrows move between steps instead of events, Space plays to the
/// step's moment, 1–4 pick a choice, B blanks the screen. None: the app's own key (or a field's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LessonKey {
    Next,
    Prev,
    Play,
    Choose(usize),
    Blank,
}

pub fn lesson_key(e: &KeyboardEvent) -> Option<LessonKey> {
    if e.ctrl_key() || e.meta_key() || e.alt_key() || e.shift_key() || matches!(target(e), Target::Field | Target::Slider | Target::Outline)
    {
        return None;
    }
    Some(match e.key().as_str() {
        "ArrowRight" | "PageDown" => LessonKey::Next,
        "ArrowLeft" | "PageUp" => LessonKey::Prev,
        " " | "Spacebar" => LessonKey::Play,
        "b" | "B" | "." => LessonKey::Blank,
        k @ ("1" | "2" | "3" | "4") => LessonKey::Choose(k.as_bytes()[0] as usize - b'1' as usize),
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
