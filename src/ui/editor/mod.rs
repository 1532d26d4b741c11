//! The scenario editor: a form for the common fields and the JSON for everything, both editing
//! one draft; the draft checked as the user types (300 ms after the last change) with the CLI's
//! field-path errors; a valid draft runs with one click. Saved scenarios, import and export.
//!
//! Nothing the user wrote is lost: the draft is kept in local storage as they type and comes
//! back after a reload; an import or a load keeps the draft it replaced one click away; when
//! storage is unavailable the editor works in memory and says so.

mod form;
mod saved;
mod store;

use std::rc::Rc;

use gloo::timers::callback::Timeout;
use yew::prelude::*;

use crate::authoring::draft::Draft;
use crate::authoring::form::Edit;
use crate::authoring::saved::SavedList;
use crate::scenario::limits::MAX_SCENARIO_BYTES;
use crate::scenario::validate::ScenarioError;
use crate::ui::state::{Act, Action};
use store::{Store, DRAFT_KEY, SAVED_KEY};

/// How long the draft must rest before it is checked and stored.
const CHECK_AFTER_MS: u32 = 300;

pub enum DraftAction {
    Type(String),
    Edit(Edit),
    Replace(String),
    Restore,
}

/// The draft with a revision number, so a check can tell whether it is still about the draft.
#[derive(PartialEq)]
pub struct Drafting {
    draft: Draft,
    revision: u32,
}

impl Reducible for Drafting {
    type Action = DraftAction;
    fn reduce(self: Rc<Self>, action: DraftAction) -> Rc<Self> {
        let mut draft = self.draft.clone();
        match action {
            DraftAction::Type(t) => draft.type_json(t),
            DraftAction::Edit(e) => draft.edit(&e),
            DraftAction::Replace(t) => draft.replace(t),
            DraftAction::Restore => draft.restore(),
        }
        Rc::new(Drafting { draft, revision: self.revision + 1 })
    }
}

/// The last check: which revision it was about and what it found.
type Checked = (u32, Option<ScenarioError>);

#[derive(Properties, PartialEq)]
pub struct EditorProps {
    /// The scenario on screen, as JSON (the draft's starting point).
    pub current: AttrValue,
    pub act: Act,
}

/// Replaces the draft and runs it if it is valid; says what happened in `status`.
fn replace_and_run(drafting: &UseReducerHandle<Drafting>, act: &Act, text: String, what: &str) -> String {
    drafting.dispatch(DraftAction::Replace(text.clone()));
    match crate::scenario::parse(&text) {
        Ok(_) => {
            act.dispatch(Action::Load(text));
            format!("Loaded {what}.")
        }
        Err(e) => format!("Not run: {what} is not a valid scenario ({e}). Fix it here, or bring back the previous draft."),
    }
}

#[function_component(Editor)]
pub fn editor(p: &EditorProps) -> Html {
    let store = use_memo((), |_| Store::open());
    let drafting = {
        let (store, current) = (store.clone(), p.current.clone());
        use_reducer(move || Drafting { draft: Draft::new(store.get(DRAFT_KEY).unwrap_or_else(|| current.to_string())), revision: 0 })
    };
    let checked = use_state(|| None::<Checked>);
    let saved = {
        let store = store.clone();
        use_state(move || store.get(SAVED_KEY).map_or(Ok(SavedList::default()), |t| SavedList::from_storage(&t)))
    };
    let status = use_state(|| None::<String>);
    let save_name = use_state(String::new);
    // Why the draft could not be kept in storage just now (a full quota), if it could not.
    let draft_unkept = use_state(|| None::<String>);

    // Check and keep the draft once it rests; keep it at once if the page goes away first (a
    // reload within the 300 ms must not lose the last keystrokes).
    {
        let (checked, store, draft_unkept, d) = (checked.clone(), store.clone(), draft_unkept.clone(), drafting.clone());
        use_effect_with(drafting.revision, move |&revision| {
            let (store_now, d_now) = (store.clone(), d.clone());
            let on_leave = gloo::events::EventListener::new(&gloo::utils::window(), "pagehide", move |_| {
                let _ = store_now.set(DRAFT_KEY, &d_now.draft.text);
            });
            let timer = Timeout::new(CHECK_AFTER_MS, move || {
                checked.set(Some((revision, d.draft.check().err())));
                if store.off().is_none() {
                    draft_unkept.set(store.set(DRAFT_KEY, &d.draft.text).err());
                }
            });
            move || drop((timer, on_leave))
        });
    }

    let d = &drafting.draft;
    let error = checked.as_ref().and_then(|(_, e)| e.clone());
    // Only a check of this very draft can stop it from running; a stale one just shows.
    let blocked = matches!(&*checked, Some((r, Some(_))) if *r == drafting.revision);

    let on_edit = {
        let drafting = drafting.clone();
        Callback::from(move |e: Edit| drafting.dispatch(DraftAction::Edit(e)))
    };
    let oninput = {
        let drafting = drafting.clone();
        Callback::from(move |e: InputEvent| {
            let area: web_sys::HtmlTextAreaElement = e.target_unchecked_into();
            drafting.dispatch(DraftAction::Type(area.value()));
        })
    };
    let run = {
        let (drafting, checked, act) = (drafting.clone(), checked.clone(), p.act.clone());
        Callback::from(move |_| {
            let result = drafting.draft.check();
            if result.is_ok() {
                act.dispatch(Action::Load(drafting.draft.text.clone()));
            }
            checked.set(Some((drafting.revision, result.err())));
        })
    };
    let take_current = {
        let (drafting, current) = (drafting.clone(), p.current.clone());
        Callback::from(move |_| drafting.dispatch(DraftAction::Replace(current.to_string())))
    };
    let restore = {
        let (drafting, status) = (drafting.clone(), status.clone());
        Callback::from(move |_| {
            drafting.dispatch(DraftAction::Restore);
            status.set(Some("The previous draft is back.".into()));
        })
    };
    let import = {
        let (drafting, status, act) = (drafting.clone(), status.clone(), p.act.clone());
        Callback::from(move |e: Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
            input.set_value("");
            let name = file.name();
            if file.size() > MAX_SCENARIO_BYTES as f64 {
                status.set(Some(format!(
                    "Not imported: {name} is larger than a scenario can be ({MAX_SCENARIO_BYTES} bytes). The draft is unchanged."
                )));
                return;
            }
            let (drafting, status, act) = (drafting.clone(), status.clone(), act.clone());
            let read = wasm_bindgen_futures::JsFuture::from(file.text());
            wasm_bindgen_futures::spawn_local(async move {
                let said = match read.await.ok().and_then(|t| t.as_string()) {
                    Some(text) => replace_and_run(&drafting, &act, text, &name),
                    None => format!("Not imported: {name} could not be read as text. The draft is unchanged."),
                };
                status.set(Some(said));
            });
        })
    };
    // The draft as a file: a data: link, so no Blob or object URL is needed.
    let export_href = use_memo(d.text.clone(), |t| format!("data:application/json;charset=utf-8,{}", js_sys::encode_uri_component(t)));
    let export_name = format!("{}.json", crate::scenario::validate::slug(d.form.as_ref().map_or("", |s| &s.title)));
    let on_load_saved = {
        let (drafting, status, act) = (drafting.clone(), status.clone(), p.act.clone());
        Callback::from(move |(name, json): (String, String)| status.set(Some(replace_and_run(&drafting, &act, json, &format!("“{name}”")))))
    };

    html! {
        <details class="scenario-json" data-testid="scenario-json">
            <summary>{"Scenario editor: write your own, save it, share it as a file"}</summary>
            <div class="editor-cols">
                if let Some(s) = &d.form {
                    <form::DraftForm scenario={s.clone()} editable={d.form_current} error_path={error.as_ref().map(|e| AttrValue::from(e.path.clone()))} {on_edit} />
                }
                <label class="json">
                    <span>{"JSON (every field; the format is in the README)"}</span>
                    <textarea data-testid="scenario-json-input" spellcheck="false" rows="18" value={d.text.clone()} {oninput} aria-invalid={error.is_some().to_string()} />
                </label>
            </div>
            if !d.form_current {
                <p class="hint">{"The form shows the last readable version: fix the JSON to use it again."}</p>
            }
            if let Some(e) = &error {
                <p class="knob-error" role="alert" data-testid="scenario-error">{e.to_string()}</p>
            }
            <div class="scenario-json-actions">
                <button type="button" data-testid="scenario-json-run" onclick={run} disabled={blocked} title={blocked.then_some("Fix the error first")}>{"Run this scenario"}</button>
                <a class="button small" data-testid="export-scenario" href={(*export_href).clone()} download={export_name}>{"Export .json"}</a>
                <label class="import button small">{"Import .json"}<input type="file" accept=".json,application/json" data-testid="scenario-import" onchange={import} /></label>
                <button type="button" class="small" onclick={take_current}>{"Start from the scenario on screen"}</button>
                if d.previous.is_some() {
                    <button type="button" class="small" data-testid="restore-draft" onclick={restore}>{"Bring back the previous draft"}</button>
                }
            </div>
            if let Some(s) = &*status {
                <p class="status" role="status" data-testid="editor-status">{s.clone()}</p>
            }
            {saved::view(&saved::Ctx { store: &store, list: &saved, name: &save_name, drafting: &drafting, status: &status, draft_unkept: draft_unkept.as_deref() }, on_load_saved)}
        </details>
    }
}
