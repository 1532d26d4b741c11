//! The scenario editor: a form for the common fields and the JSON for everything, both editing
//! one draft; the draft checked as the user types (300 ms after the last change) with the CLI's
//! field-path errors; a valid draft runs with one click. Saved scenarios, import and export.
//!
//! Nothing the user wrote is lost: the draft is kept in local storage as they type and comes
//! back after a reload; an import or a load keeps the draft it replaced one click away; when
//! storage is unavailable the editor works in memory and says so.
//!
//! All of its state is one reducer (`Editing`): each Yew hook costs bundle size, and one
//! reducer also means a late timer can never overwrite a newer status with a stale copy.

mod form;
mod saved;
mod store;

use std::rc::Rc;

use gloo::timers::callback::Timeout;
use yew::prelude::*;

use crate::authoring::draft::Draft;
use crate::authoring::form::Edit;
use crate::authoring::saved::{SavedList, Saving};
use crate::scenario::limits::MAX_SCENARIO_BYTES;
use crate::scenario::validate::ScenarioError;
use crate::ui::state::{Act, Action};
use store::{Store, DRAFT_KEY, SAVED_KEY};

/// How long the draft must rest before it is checked and stored.
const CHECK_AFTER_MS: u32 = 300;

#[derive(Clone)]
pub struct Editing {
    store: Rc<Store>,
    draft: Draft,
    /// Counts changes to the draft, so a check can tell whether it is still about it.
    revision: u32,
    /// The last check: the revision it was about and what it found.
    checked: Option<(u32, Option<ScenarioError>)>,
    /// What the last import, load, save or delete did.
    status: Option<String>,
    /// Why the draft itself could not be kept in storage just now (a full quota).
    draft_unkept: Option<String>,
    /// The name typed for saving.
    save_name: String,
    /// The saved list, or why the stored one cannot be read (then saving is off, so it is
    /// not overwritten).
    saved: Result<SavedList, String>,
    /// The scenario on screen, as last seen: while the draft is that scenario, it follows the
    /// screen (a switch, a fault injected on the diagram, an undo); once the user writes a draft
    /// of their own, it stays theirs.
    shown: String,
    /// Whether the editor is open. Closed, only its summary is rendered: the form and the JSON
    /// of a scenario are a page of elements nobody sees, built at start-up and re-set (the
    /// textarea's whole text) on every edit of the run.
    open: bool,
}

/// Whether two scenario texts are the same scenario (formatting aside).
fn same_scenario(a: &str, b: &str) -> bool {
    a == b || matches!((crate::scenario::parse(a), crate::scenario::parse(b)), (Ok(x), Ok(y)) if x == y)
}

pub enum Msg {
    Type(String),
    Edit(Edit),
    /// The draft replaced by a file, a saved scenario or the scenario on screen, and what to say.
    Replace(String, String),
    Restore,
    /// The draft rested: check it and keep it.
    Rested(u32),
    /// The scenario on screen changed (to this JSON).
    Screen(String),
    /// The editor was opened or closed.
    Open(bool),
    Status(String),
    SaveName(String),
    Save,
    Delete(String),
}

impl Editing {
    fn new(current: &str) -> Editing {
        let store = Rc::new(Store::open());
        let draft = Draft::new(store.get(DRAFT_KEY).unwrap_or_else(|| current.to_string()));
        let saved = store.get(SAVED_KEY).map_or(Ok(SavedList::default()), |t| SavedList::from_storage(&t));
        let shown = current.to_string();
        Editing {
            store,
            draft,
            revision: 0,
            checked: None,
            status: None,
            draft_unkept: None,
            save_name: String::new(),
            saved,
            shown,
            open: false,
        }
    }

    /// Whether the draft is the scenario on screen.
    fn follows(&self) -> bool {
        same_scenario(&self.draft.text, &self.shown)
    }

    /// Stores a changed saved list; only what was stored is shown.
    fn commit(&mut self, list: SavedList, done: String) {
        self.status = Some(match self.store.set(SAVED_KEY, &list.to_storage()) {
            Ok(()) => {
                self.saved = Ok(list);
                done
            }
            Err(why) => format!("Not saved: {why}."),
        });
    }
}

impl Reducible for Editing {
    type Action = Msg;
    fn reduce(self: Rc<Self>, msg: Msg) -> Rc<Self> {
        let mut e = (*self).clone();
        match msg {
            Msg::Type(t) => e.draft.type_json(t),
            Msg::Edit(edit) => e.draft.edit(&edit),
            Msg::Replace(t, said) => {
                e.draft.replace(t);
                e.status = Some(said);
            }
            Msg::Restore => {
                e.draft.restore();
                e.status = Some("The previous draft is back.".into());
            }
            Msg::Rested(revision) => {
                if revision == e.revision {
                    e.checked = Some((revision, e.draft.check().err()));
                    e.draft_unkept = e.store.set(DRAFT_KEY, &e.draft.text).err().filter(|_| e.store.off().is_none());
                }
                return Rc::new(e);
            }
            Msg::Screen(current) => {
                if e.follows() && e.draft.text != current {
                    // Not the user's own text: nothing to keep restorable.
                    e.draft = Draft::new(current.clone());
                }
                e.shown = current;
            }
            Msg::Open(open) => e.open = open,
            Msg::Status(s) => e.status = Some(s),
            Msg::SaveName(n) => e.save_name = n,
            Msg::Save => {
                if let Ok(mut list) = e.saved.clone() {
                    match list.save(&e.save_name, &e.draft.text) {
                        Ok(how) => {
                            let n = e.save_name.trim();
                            let done = if how == Saving::Replaced {
                                format!("Replaced the saved “{n}”.")
                            } else {
                                format!("Saved “{n}”.")
                            };
                            e.commit(list, done)
                        }
                        Err(why) => e.status = Some(why),
                    }
                }
            }
            Msg::Delete(name) => {
                if let Ok(mut list) = e.saved.clone() {
                    list.delete(&name);
                    e.commit(list, format!("Deleted “{name}”."));
                }
            }
        }
        // Only changes of the draft start a new check.
        if e.draft.text != self.draft.text || e.draft.input_error != self.draft.input_error {
            e.revision += 1;
        }
        Rc::new(e)
    }
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

/// Puts `text` in the draft and runs it if it is valid, saying which happened.
fn replace_and_run(editing: &UseReducerHandle<Editing>, act: &Act, text: String, what: &str) {
    let said = match crate::scenario::parse(&text) {
        Ok(_) => {
            act.dispatch(Action::Load(text.clone()));
            format!("Loaded {what}.")
        }
        Err(e) => format!("Not run: {what} is not a valid scenario ({e}). Fix it here, or bring back the previous draft."),
    };
    editing.dispatch(Msg::Replace(text, said));
}

/// Check and keep the draft once it rests; keep it at once if the page goes away first (a
/// reload within the 300 ms must not lose the last keystrokes). The draft follows the screen
/// while it is the scenario there.
#[hook]
fn use_kept_draft(editing: &UseReducerHandle<Editing>, current: &AttrValue) {
    {
        let ed = editing.clone();
        use_effect_with(editing.revision, move |&revision| {
            let now = ed.clone();
            let on_leave = gloo::events::EventListener::new(&gloo::utils::window(), "pagehide", move |_| {
                let _ = now.store.set(DRAFT_KEY, &now.draft.text);
            });
            let timer = Timeout::new(CHECK_AFTER_MS, move || ed.dispatch(Msg::Rested(revision)));
            move || drop((timer, on_leave))
        });
    }
    let ed = editing.clone();
    use_effect_with(current.clone(), move |current| ed.dispatch(Msg::Screen(current.to_string())));
}

/// A field's input, sent to the draft as the message `make` makes of its value.
fn send(editing: &UseReducerHandle<Editing>, make: fn(String) -> Msg) -> Callback<InputEvent> {
    let editing = editing.clone();
    Callback::from(move |ev: InputEvent| editing.dispatch(make(ev.target_unchecked_into::<web_sys::HtmlInputElement>().value())))
}

/// Imports a scenario file into the draft (and runs it when it is valid); one too large or
/// unreadable leaves the draft as it was, and says so.
fn import(editing: &UseReducerHandle<Editing>, act: &Act) -> Callback<Event> {
    let (editing, act) = (editing.clone(), act.clone());
    Callback::from(move |ev: Event| {
        let input: web_sys::HtmlInputElement = ev.target_unchecked_into();
        let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
        input.set_value("");
        let name = file.name();
        if file.size() > MAX_SCENARIO_BYTES as f64 {
            let said =
                format!("Not imported: {name} is larger than a scenario can be ({MAX_SCENARIO_BYTES} bytes). The draft is unchanged.");
            return editing.dispatch(Msg::Status(said));
        }
        let (editing, act) = (editing.clone(), act.clone());
        let read = wasm_bindgen_futures::JsFuture::from(file.text());
        wasm_bindgen_futures::spawn_local(async move {
            match read.await.ok().and_then(|t| t.as_string()) {
                Some(text) => replace_and_run(&editing, &act, text, &name),
                None => editing.dispatch(Msg::Status(format!("Not imported: {name} could not be read as text. The draft is unchanged."))),
            }
        });
    })
}

/// The draft's buttons: run it, export and import it as a file, start from the screen's
/// scenario, bring back the previous draft. `blocked`: a check of this very draft failed.
fn actions(editing: &UseReducerHandle<Editing>, p: &EditorProps, blocked: bool) -> Html {
    let d = &editing.draft;
    let run = {
        let (editing, act) = (editing.clone(), p.act.clone());
        Callback::from(move |_| {
            if editing.draft.check().is_ok() {
                act.dispatch(Action::Load(editing.draft.text.clone()));
            }
            editing.dispatch(Msg::Rested(editing.revision));
        })
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
    let export_name = format!("{}.json", crate::scenario::validate::slug(d.form.as_ref().map_or("", |s| &s.title)));
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
        move || Editing::new(&current)
    });
    use_kept_draft(&editing, &p.current);

    let e = &*editing;
    let d = &e.draft;
    let follows = e.follows();
    // A fault added to the run on screen strikes at the cursor; to a draft of one's own, at 1 s.
    let add_at = p.cursor_ms.filter(|_| follows).unwrap_or(1000);
    let error = e.checked.as_ref().and_then(|(_, err)| err.as_ref());
    // Only a check of this very draft can stop it from running; a stale one just shows.
    let blocked = matches!(&e.checked, Some((r, Some(_))) if *r == e.revision);
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
