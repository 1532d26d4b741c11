//! The scenario editor on screen: a form for the common fields and the JSON for everything,
//! both editing one draft; the draft checked as the user types (300 ms after the last change)
//! with the CLI's field-path errors; a valid draft runs with one click. Saved scenarios, import
//! and export.
//!
//! All of its state is the plain-Rust model `authoring::editor::Editor` (its reducer, natively
//! tested), here as Yew state through the shim below; this file draws it, keeps its timers and
//! files, and sends the session the `Load` a run asks for. One reducer: each Yew hook costs
//! bundle size.

mod form;
mod saved;
mod store;

use std::rc::Rc;

use gloo::timers::callback::Timeout;
use yew::prelude::*;

use crate::authoring::editor::{self, Msg, Refusal};
use crate::authoring::form::Edit;
use crate::session::Action;
use crate::ui::state::Act;

/// How long the draft must rest before it is checked and stored.
const CHECK_AFTER_MS: u32 = 300;

impl Reducible for editor::Editor {
    type Action = Msg;
    fn reduce(self: Rc<Self>, msg: Msg) -> Rc<Self> {
        Rc::new((*self).clone().apply(msg))
    }
}

/// A model's answer that asks the session for a run (`Load`) and the editor for a change.
fn answer(editing: &UseReducerHandle<editor::Editor>, act: &Act, (run, msg): (Option<Action>, Msg)) {
    run.into_iter().for_each(|a| act.dispatch(a));
    editing.dispatch(msg);
}

#[derive(Properties, PartialEq)]
pub struct EditorProps {
    /// The scenario on screen, as JSON (the draft's starting point, and what it follows).
    pub current: AttrValue,
    /// Where the cursor rests (None while playing): where a fault added to a draft that is the
    /// run on screen strikes.
    #[prop_or_default]
    pub cursor_ms: Option<i64>,
    pub act: Act,
}

/// Check and keep the draft once it rests; keep it at once if the page goes away first (a
/// reload within the 300 ms must not lose the last keystrokes). The draft follows the screen
/// while it is the scenario there.
#[hook]
fn use_kept_draft(editing: &UseReducerHandle<editor::Editor>, current: &AttrValue) {
    {
        let ed = editing.clone();
        use_effect_with(editing.revision, move |&revision| {
            let now = ed.clone();
            let on_leave = gloo::events::EventListener::new(&gloo::utils::window(), "pagehide", move |_| now.keep_draft());
            let timer = Timeout::new(CHECK_AFTER_MS, move || ed.dispatch(Msg::Rested(revision)));
            move || drop((timer, on_leave))
        });
    }
    let ed = editing.clone();
    use_effect_with(current.clone(), move |current| ed.dispatch(Msg::Screen(current.to_string())));
}

/// A field's input, sent to the draft as the message `make` makes of its value.
fn send(editing: &UseReducerHandle<editor::Editor>, make: fn(String) -> Msg) -> Callback<InputEvent> {
    let editing = editing.clone();
    Callback::from(move |ev: InputEvent| editing.dispatch(make(ev.target_unchecked_into::<web_sys::HtmlInputElement>().value())))
}

/// Imports a scenario file into the draft (and runs it when it is valid); one too large or
/// unreadable leaves the draft as it was, and says so.
fn import(editing: &UseReducerHandle<editor::Editor>, act: &Act) -> Callback<Event> {
    let (editing, act) = (editing.clone(), act.clone());
    Callback::from(move |ev: Event| {
        let input: web_sys::HtmlInputElement = ev.target_unchecked_into();
        let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
        input.set_value("");
        let name = file.name();
        if let Some(refused) = editor::too_large(&name, file.size()) {
            return editing.dispatch(refused);
        }
        let (editing, act) = (editing.clone(), act.clone());
        let read = wasm_bindgen_futures::JsFuture::from(file.text());
        wasm_bindgen_futures::spawn_local(async move {
            match read.await.ok().and_then(|t| t.as_string()) {
                Some(text) => answer(&editing, &act, editor::bring(text, &name)),
                None => editing.dispatch(Msg::Refused(Refusal::Unreadable(name))),
            }
        });
    })
}

/// The draft's buttons: run it, export and import it as a file, start from the screen's
/// scenario, bring back the previous draft. `blocked`: a check of this very draft failed.
fn actions(editing: &UseReducerHandle<editor::Editor>, p: &EditorProps, blocked: bool) -> Html {
    let d = &editing.draft;
    let run = {
        let (editing, act) = (editing.clone(), p.act.clone());
        Callback::from(move |_| answer(&editing, &act, editing.run()))
    };
    let take_current = {
        let (editing, current) = (editing.clone(), p.current.clone());
        Callback::from(move |_| editing.dispatch(Msg::Replace(current.to_string(), "The draft is the scenario on screen.".into())))
    };
    let restore = {
        let editing = editing.clone();
        Callback::from(move |_| editing.dispatch(Msg::Restore))
    };
    // The draft as a file: a data: link made at the click (before the browser follows it), so
    // no Blob, no object URL, and no encoding on every keystroke.
    let export = {
        let editing = editing.clone();
        Callback::from(move |ev: MouseEvent| {
            let link: web_sys::Element = ev.target_unchecked_into();
            let href = format!("data:application/json;charset=utf-8,{}", js_sys::encode_uri_component(&editing.draft.text));
            let _ = link.set_attribute("href", &href);
        })
    };
    let export_name = editing.export_name();
    html! {
        <div class="scenario-json-actions">
            <button type="button" data-testid="scenario-json-run" onclick={run} disabled={blocked}>{"Run this scenario"}</button>
            <a class="button small" data-testid="export-scenario" href="#" download={export_name} onclick={export}>{"Export .json"}</a>
            <label class="import button small">{"Import .json"}<input type="file" accept=".json,application/json" data-testid="scenario-import" onchange={import(editing, &p.act)} /></label>
            <button type="button" class="small" onclick={take_current}>{"Start from the scenario on screen"}</button>
            if d.previous.is_some() {
                <button type="button" class="small" data-testid="restore-draft" onclick={restore}>{"Bring back the previous draft"}</button>
            }
        </div>
    }
}

#[function_component(Editor)]
pub fn editor(p: &EditorProps) -> Html {
    let editing = use_reducer({
        let current = p.current.clone();
        move || editor::Editor::new(Rc::new(store::Store::open()), &current)
    });
    use_kept_draft(&editing, &p.current);

    let e = &*editing;
    let d = &e.draft;
    let follows = e.follows();
    let add_at = e.add_at(p.cursor_ms);
    let error = e.error();
    let blocked = e.blocked();
    let on_edit = {
        let editing = editing.clone();
        Callback::from(move |edit: Edit| editing.dispatch(Msg::Edit(edit)))
    };

    let ontoggle = {
        let editing = editing.clone();
        Callback::from(move |ev: Event| editing.dispatch(Msg::Open(ev.target_unchecked_into::<web_sys::HtmlDetailsElement>().open())))
    };
    html! {
        <details class="scenario-json" data-testid="scenario-json" {ontoggle}>
            <summary>{"Scenario editor: write your own, save it, share it as a file"}</summary>
            if e.open {
            <p class="hint editor-follows" data-testid="editor-follows" data-follows={follows.to_string()}>
                {if follows {
                    "This draft is the run on screen: the switches, the diagram's fault menu and undo change it here too."
                } else {
                    "You are editing a draft of your own; the screen shows another scenario until you run it."
                }}
            </p>
            <div class="editor-cols">
                if let Some(s) = &d.form {
                    {form::view(s, d.form_current, error.map(|e| e.path.as_str()), add_at, &on_edit)}
                }
                // Between the form and the JSON in the markup: one column (a phone) shows it
                // right under the field it names; two columns place it below both (styles).
                if let Some(err) = error {
                    <p class="knob-error draft-error" role="alert" data-testid="scenario-error">{err.to_string()}</p>
                }
                <label class="json">
                    <span>{"JSON (every field; the format is in the README)"}</span>
                    <textarea data-testid="scenario-json-input" spellcheck="false" rows="18" value={d.text.clone()} oninput={send(&editing, Msg::Type)} />
                </label>
            </div>
            if !d.form_current {
                <p class="hint">{if d.form.is_some() { "The form shows the last readable version, greyed out: fix the JSON to use it again." } else { "The form appears once the JSON can be read." }}</p>
            }
            {actions(&editing, p, blocked)}
            if let Some(s) = &e.status {
                <p class="status" role="status" data-testid="editor-status">{s.clone()}</p>
            }
            {saved::view(&editing, send(&editing, Msg::SaveName), &p.act)}
            }
        </details>
    }
}
