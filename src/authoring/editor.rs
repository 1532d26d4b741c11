//! The scenario editor as a model (issue 34): the draft and its form, the check that runs once
//! the draft rests, what the last import, load, save or delete did, and the saved list, kept
//! in a `Store` (the browser's local storage in the app, memory in tests). One reducer
//! (`Editor::apply`), so a late timer can never overwrite a newer status with a stale copy;
//! the view (`ui::editor`) draws it, wraps it in a six-line Yew shim and sends the session the
//! `Load` a run asks for.
//!
//! Nothing the user wrote is lost: the draft is kept in the store as they type and comes back
//! in a new editor; an import or a load keeps the draft it replaced one click away; when the
//! store is unavailable the editor works in memory and says so.

use std::rc::Rc;

use super::draft::Draft;
use super::form::Edit;
use super::saved::{SavedList, Saving};
use crate::scenario::limits::MAX_SCENARIO_BYTES;
use crate::scenario::validate::ScenarioError;
use crate::session::Action as Cue;

/// The draft as the user last left it.
pub const DRAFT_KEY: &str = "locklab.draft";
/// The saved scenarios (`SavedList::to_storage`).
pub const SAVED_KEY: &str = "locklab.saved";

/// Where the editor keeps the draft and the saved list: text under a key. It never throws:
/// a store that cannot be used says why (`off`), and a refused write says why (`set`).
pub trait Store {
    /// Why nothing can be stored here, if so.
    fn off(&self) -> Option<&str>;
    fn get(&self, key: &str) -> Option<String>;
    fn set(&self, key: &str, value: &str) -> Result<(), String>;
}

#[derive(Clone)]
pub struct Editor {
    store: Rc<dyn Store>,
    pub draft: Draft,
    /// Counts changes to the draft, so a check can tell whether it is still about it.
    pub revision: u32,
    /// The last check: the revision it was about and what it found.
    checked: Option<(u32, Option<ScenarioError>)>,
    /// What the last import, load, save or delete did.
    pub status: Option<String>,
    /// Why the draft itself could not be kept in the store just now (a full quota).
    pub draft_unkept: Option<String>,
    /// The name typed for saving.
    pub save_name: String,
    /// The saved list, or why the stored one cannot be read (then saving is off, so it is
    /// not overwritten).
    saved: Result<SavedList, String>,
    /// The scenario on screen, as last seen: while the draft is that scenario, it follows the
    /// screen (a switch, a fault injected on the diagram, an undo); once the user writes a draft
    /// of their own, it stays theirs.
    shown: String,
    /// Whether the editor is open. Closed, the view renders only its summary: the form and the
    /// JSON of a scenario are a page of elements nobody sees.
    pub open: bool,
}

/// Every way the editor changes.
#[derive(Clone, Debug, PartialEq)]
pub enum Msg {
    /// The user typed in the JSON.
    Type(String),
    /// The user changed the form.
    Edit(Edit),
    /// The draft replaced by a file, a saved scenario or the scenario on screen, and what to say.
    Replace(String, String),
    /// The draft the last replacement replaced, back.
    Restore,
    /// The draft rested since this revision: check it and keep it.
    Rested(u32),
    /// The scenario on screen changed (to this JSON).
    Screen(String),
    /// The editor was opened or closed.
    Open(bool),
    /// A file could not be imported, and the draft is unchanged.
    Refused(Refusal),
    SaveName(String),
    /// Save the draft under the typed name.
    Save,
    Delete(String),
}

/// Why a file was not imported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The file (named) is larger than any scenario can be.
    TooLarge(String),
    /// The file (named) is not text.
    Unreadable(String),
}

impl Refusal {
    fn words(&self) -> String {
        match self {
            Refusal::TooLarge(name) => {
                format!("Not imported: {name} is larger than a scenario can be ({MAX_SCENARIO_BYTES} bytes). The draft is unchanged.")
            }
            Refusal::Unreadable(name) => format!("Not imported: {name} could not be read as text. The draft is unchanged."),
        }
    }
}

/// A file of `bytes` bytes named `name` offered for import: refused at once if it is larger
/// than a scenario can be (before it is read).
pub fn too_large(name: &str, bytes: f64) -> Option<Msg> {
    (bytes > MAX_SCENARIO_BYTES as f64).then(|| Msg::Refused(Refusal::TooLarge(name.to_string())))
}

/// Whether two scenario texts are the same scenario (formatting aside).
fn same_scenario(a: &str, b: &str) -> bool {
    a == b || matches!((crate::scenario::parse(a), crate::scenario::parse(b)), (Ok(x), Ok(y)) if x == y)
}

/// `text` (a file, a saved scenario) brought into the draft as `what`: the session's `Load`
/// when it is a valid scenario, and the editor's message saying which happened.
pub fn bring(text: String, what: &str) -> (Option<Cue>, Msg) {
    match crate::scenario::parse(&text) {
        Ok(_) => (Some(Cue::Load(text.clone())), Msg::Replace(text, format!("Loaded {what}."))),
        Err(e) => {
            let said = format!("Not run: {what} is not a valid scenario ({e}). Fix it here, or bring back the previous draft.");
            (None, Msg::Replace(text, said))
        }
    }
}

impl Editor {
    /// The editor over `store`: the draft it kept, or else the scenario on screen (`current`).
    pub fn new(store: Rc<dyn Store>, current: &str) -> Editor {
        let draft = Draft::new(store.get(DRAFT_KEY).unwrap_or_else(|| current.to_string()));
        let saved = store.get(SAVED_KEY).map_or(Ok(SavedList::default()), |t| SavedList::from_storage(&t));
        Editor {
            store,
            draft,
            revision: 0,
            checked: None,
            status: None,
            draft_unkept: None,
            save_name: String::new(),
            saved,
            shown: current.to_string(),
            open: false,
        }
    }

    /// Whether the draft is the scenario on screen.
    pub fn follows(&self) -> bool {
        same_scenario(&self.draft.text, &self.shown)
    }

    /// Where a fault added in the form strikes: at the cursor (`cursor_ms`, None while playing)
    /// of the run on screen when the draft is that run; in a draft of one's own, at 1 s.
    pub fn add_at(&self, cursor_ms: Option<i64>) -> i64 {
        cursor_ms.filter(|_| self.follows()).unwrap_or(1000)
    }

    /// What the last check found wrong, if anything (perhaps about an earlier revision).
    pub fn error(&self) -> Option<&ScenarioError> {
        self.checked.as_ref().and_then(|(_, err)| err.as_ref())
    }

    /// Whether Run is off: a check of this very draft failed (a stale one only shows).
    pub fn blocked(&self) -> bool {
        matches!(&self.checked, Some((r, Some(_))) if *r == self.revision)
    }

    /// Run: the session's `Load` of the draft if it is valid now, and the check it gets at once.
    pub fn run(&self) -> (Option<Cue>, Msg) {
        (self.draft.check().ok().map(|_| Cue::Load(self.draft.text.clone())), Msg::Rested(self.revision))
    }

    /// The file name an export of the draft gets: its title's slug.
    pub fn export_name(&self) -> String {
        format!("{}.json", crate::scenario::validate::slug(self.draft.form.as_ref().map_or("", |s| &s.title)))
    }

    /// The saved list, or why saving is off: the store is unavailable, or the list it holds is
    /// unreadable (saving over it would destroy it).
    pub fn saved(&self) -> Result<&SavedList, String> {
        match (self.store.off(), &self.saved) {
            (Some(off), _) => Err(off.to_string()),
            (None, Err(why)) => Err(why.clone()),
            (None, Ok(list)) => Ok(list),
        }
    }

    /// Whether a saved scenario has the typed name (saving then replaces it).
    pub fn name_taken(&self) -> bool {
        self.saved.as_ref().is_ok_and(|l| l.get(&self.save_name).is_some())
    }

    /// Keeps the draft now, whatever its check (the page is going away).
    pub fn keep_draft(&self) {
        let _ = self.store.set(DRAFT_KEY, &self.draft.text);
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

    fn save(&mut self) {
        let Ok(mut list) = self.saved.clone() else { return };
        match list.save(&self.save_name, &self.draft.text) {
            Ok(how) => {
                let n = self.save_name.trim();
                let done = if how == Saving::Replaced { format!("Replaced the saved “{n}”.") } else { format!("Saved “{n}”.") };
                self.commit(list, done)
            }
            Err(why) => self.status = Some(why),
        }
    }

    /// The editor after `msg`.
    pub fn apply(mut self, msg: Msg) -> Editor {
        let before = (self.draft.text.clone(), self.draft.input_error.clone());
        match msg {
            Msg::Type(t) => self.draft.type_json(t),
            Msg::Edit(edit) => self.draft.edit(&edit),
            Msg::Replace(t, said) => {
                self.draft.replace(t);
                self.status = Some(said);
            }
            Msg::Restore => {
                self.draft.restore();
                self.status = Some("The previous draft is back.".into());
            }
            Msg::Rested(revision) => {
                if revision == self.revision {
                    self.checked = Some((revision, self.draft.check().err()));
                    self.draft_unkept = self.store.set(DRAFT_KEY, &self.draft.text).err().filter(|_| self.store.off().is_none());
                }
            }
            Msg::Screen(current) => {
                if self.follows() && self.draft.text != current {
                    // Not the user's own text: nothing to keep restorable.
                    self.draft = Draft::new(current.clone());
                }
                self.shown = current;
            }
            Msg::Open(open) => self.open = open,
            Msg::Refused(why) => self.status = Some(why.words()),
            Msg::SaveName(n) => self.save_name = n,
            Msg::Save => self.save(),
            Msg::Delete(name) => {
                if let Ok(mut list) = self.saved.clone() {
                    list.delete(&name);
                    self.commit(list, format!("Deleted “{name}”."));
                }
            }
        }
        // Only changes of the draft start a new check.
        if (&self.draft.text, &self.draft.input_error) != (&before.0, &before.1) {
            self.revision += 1;
        }
        self
    }
}
