//! The lesson index (issue 22): the built-in lessons in course order, each with its length in
//! steps, questions and minutes (`lesson::course`), for `?lesson=` with no id and the header's
//! Lesson button. Choosing one opens it at its first step. A hook and a function rather than a
//! component, as the help overlay is: each Yew component costs bundle size.

use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::lesson::{open_builtin, LessonState};
use crate::lesson::course;
use crate::lesson::player::{Action, Screen};

/// When the index opens (`Player::index`: at first when the address asks for it, `?lesson=`),
/// the first lesson takes the focus (`autofocus` does nothing on an element inserted later), so
/// Enter opens it and Escape, heard by the overlay, closes the index.
#[hook]
pub fn use_index_focus(shown: bool) {
    // Opened before the lessons arrived (src/ui/library.rs), the index has no entry yet: the
    // first one takes the focus when they come.
    use_effect_with((shown, super::library::arrived()), |(shown, _)| {
        let first = shown.then(|| gloo::utils::document().query_selector(".lesson-entry").ok().flatten()).flatten();
        if let Some(el) = first.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = el.focus();
        }
    });
}

/// The index over the page, while the lesson model says it shows.
pub fn lesson_index(lesson: &UseStateHandle<LessonState>) -> Html {
    if !lesson.index {
        return Html::default();
    }
    let close = {
        let lesson = lesson.clone();
        move || {
            lesson.set((*lesson).clone().apply(Action::Index(false), Screen::default()).0);
            // The address no longer asks for the index; a lesson chosen writes its own.
            super::start::write_back("");
        }
    };
    let entries = course::index().into_iter().enumerate().map(|(n, e)| {
        let open = {
            let (lesson, id) = (lesson.clone(), e.id.clone());
            move |_: MouseEvent| open_builtin(&lesson, &id)
        };
        html! {
            <li>
                <button type="button" class="lesson-entry" data-testid="lesson-entry" data-lesson={e.id.clone()} onclick={open}>
                    <span class="lesson-entry-n" aria-hidden="true">{(n + 1).to_string()}</span>
                    <span class="lesson-entry-title">{e.title.clone()}</span>
                    <span class="lesson-entry-length" data-testid="lesson-entry-length">{e.length()}</span>
                </button>
            </li>
        }
    });
    let on_close = {
        let close = close.clone();
        move |_: MouseEvent| close()
    };
    let on_key = {
        let close = close.clone();
        move |e: KeyboardEvent| {
            if e.key() == "Escape" {
                e.prevent_default();
                close();
            }
        }
    };
    html! {
        <div class="overlay" role="dialog" aria-modal="true" aria-labelledby="lesson-index-title" data-testid="lesson-index" onkeydown={on_key}>
            <div class="sheet lesson-index">
                <h2 id="lesson-index-title">{"Lessons, in course order"}</h2>
                if !crate::lesson::builtin::arrived() {
                    // Fetched once the app answers (`library`); the index fills when they are here.
                    <p class="lesson-loading" role="status" data-testid="lesson-index-loading">{"The lessons are on their way…"}</p>
                }
                <ol class="lesson-entries">{for entries}</ol>
                <button type="button" class="close" data-testid="lesson-index-close" onclick={on_close}>{"Close"}</button>
            </div>
        </div>
    }
}
