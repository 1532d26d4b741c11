//! The scenario editor as a model (`authoring::editor`), natively: edits in the form and the
//! JSON, validation with field paths once the draft rests, what a run asks the session, the draft
//! kept and restored, saving, loading and deleting, imports, and a store that refuses (a
//! sandboxed frame, a full quota). The browser's own tests (tests/web_editor.rs) keep what only
//! a browser can tell: the real local storage and the page's keys.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use locklab::authoring::editor::{bring, too_large, Editor, Msg, Store, DRAFT_KEY, SAVED_KEY};
use locklab::authoring::form::{Edit, Field};
use locklab::scenario::{catalog, limits::MAX_SCENARIO_BYTES};
use locklab::session::{Action, Session, Start};

/// A store in memory; `off` says why it cannot be used at all, `full` refuses every write.
#[derive(Default)]
struct Memory {
    items: RefCell<BTreeMap<String, String>>,
    off: Option<String>,
    full: RefCell<bool>,
}

impl Store for Memory {
    fn off(&self) -> Option<&str> {
        self.off.as_deref()
    }
    fn get(&self, key: &str) -> Option<String> {
        self.off.is_none().then(|| self.items.borrow().get(key).cloned()).flatten()
    }
    fn set(&self, key: &str, value: &str) -> Result<(), String> {
        if let Some(off) = &self.off {
            return Err(off.clone());
        }
        if *self.full.borrow() {
            return Err("the browser's storage for this site is full".into());
        }
        self.items.borrow_mut().insert(key.into(), value.into());
        Ok(())
    }
}

/// The scenario the app opens with, as the editor gets it (pretty JSON).
fn on_screen() -> String {
    let s = Session::new(&Start::default());
    serde_json::to_string_pretty(&*s.scenario).unwrap()
}

fn editor(store: &Rc<Memory>) -> Editor {
    Editor::new(store.clone(), &on_screen())
}

/// The editor after `msgs`.
fn apply(e: Editor, msgs: impl IntoIterator<Item = Msg>) -> Editor {
    msgs.into_iter().fold(e, Editor::apply)
}

/// The draft rests (the view's 300 ms timer fires for the latest revision).
fn rest(e: Editor) -> Editor {
    let r = e.revision;
    e.apply(Msg::Rested(r))
}

fn set(field: Field, value: &str) -> Msg {
    Msg::Edit(Edit::Set(field, value.into()))
}

fn loaded(run: Option<Action>) -> Option<String> {
    match run {
        Some(Action::Load(text)) => Some(text),
        Some(_) => panic!("a run asks the session for a Load"),
        None => None,
    }
}

#[test]
fn an_invalid_value_is_named_once_the_draft_rests_and_cannot_run() {
    let store = Rc::new(Memory::default());
    let e = rest(editor(&store).apply(set(Field::TtlMs, "0")));
    let out_of_range = "lock.ttl_ms: 0 ms is out of range: must be 1..=600000 ms";
    assert_eq!(e.error().map(|x| x.to_string()).as_deref(), Some(out_of_range));
    assert!(e.blocked());
    assert_eq!(loaded(e.run().0), None, "an invalid draft does not run");
    // The invalid draft is kept, in the JSON and in the store.
    assert!(e.draft.text.contains("\"ttl_ms\": 0"));
    assert!(store.get(DRAFT_KEY).unwrap().contains("\"ttl_ms\": 0"));
    // The next change: the old error still shows but no longer blocks; resting clears it.
    let e = e.apply(set(Field::TtlMs, "10000"));
    assert!(e.error().is_some() && !e.blocked(), "a stale check only shows");
    let e = rest(e);
    assert!(e.error().is_none() && !e.blocked());
    // A late timer of an earlier revision checks nothing.
    let r = e.revision;
    let e = e.apply(set(Field::TtlMs, "0")).apply(Msg::Rested(r));
    assert!(e.error().is_none());
}

#[test]
fn text_a_field_cannot_take_is_refused_with_its_path_and_the_draft_keeps_its_value() {
    let store = Rc::new(Memory::default());
    let e = rest(editor(&store).apply(set(Field::FaultAmount(0), "15s")));
    assert_eq!(e.error().unwrap().to_string(), "faults[0].duration_ms: \"15s\" is not a whole number");
    assert!(e.draft.text.contains("\"duration_ms\": 15000"));
    assert!(e.blocked());
}

#[test]
fn the_form_writes_the_json_and_a_run_shows_it_on_the_session() {
    let store = Rc::new(Memory::default());
    let session = Session::new(&Start::default());
    assert!(!session.run.verdict.safe, "the app opens on an unsafe run");
    let e = editor(&store);
    assert!(e.follows());
    let e = e.apply(set(Field::Fencing, "true"));
    assert!(e.draft.text.contains("\"fencing\": true") && !e.follows());
    let (run, msg) = e.run();
    let session = session.apply(Action::Load(loaded(run).expect("a valid draft runs")));
    assert!(session.run.verdict.safe && session.scenario.storage.fencing);
    let e = e.apply(msg);
    assert!(e.error().is_none() && store.get(DRAFT_KEY).unwrap().contains("\"fencing\": true"));
    // The screen now shows the draft: the editor follows it again.
    let e = e.apply(Msg::Screen(serde_json::to_string_pretty(&*session.scenario).unwrap()));
    assert!(e.follows());
    assert_eq!(e.add_at(Some(4200)), 4200, "a fault added to the run on screen strikes at the cursor");
}

#[test]
fn json_the_form_cannot_read_keeps_the_last_form_and_names_the_field() {
    let store = Rc::new(Memory::default());
    let e = rest(editor(&store).apply(Msg::Type(r#"{"version": 1, "approach": "redis", "lock": {"ttl": 5}}"#.into())));
    let error = e.error().unwrap().to_string();
    assert!(error.starts_with("lock.ttl: unknown field `ttl`"), "{error}");
    assert!(!e.draft.form_current && e.draft.form.is_some(), "the last readable form stays, greyed out");
    assert!(e.blocked());
    assert_eq!(e.add_at(Some(4200)), 1000, "a draft of one's own gets its faults at 1 s");
}

#[test]
fn the_draft_comes_back_in_a_new_editor_and_follows_the_screen_until_it_is_ones_own() {
    let store = Rc::new(Memory::default());
    let e = rest(editor(&store).apply(set(Field::Title, "Mine, half done")));
    assert!(store.get(DRAFT_KEY).unwrap().contains("\"title\": \"Mine, half done\""));
    let again = editor(&store);
    assert!(again.draft.text.contains("\"title\": \"Mine, half done\""));
    assert_eq!(again.draft.form.as_ref().unwrap().title, "Mine, half done");
    // A draft of one's own stays when the screen changes…
    let other = serde_json::to_string_pretty(&catalog::get("happy-path-etcd").unwrap()).unwrap();
    let kept = e.clone().apply(Msg::Screen(other.clone()));
    assert!(kept.draft.text.contains("Mine, half done") && !kept.follows());
    // …and a draft that is the screen's scenario follows it, with nothing to restore.
    let fresh = Editor::new(Rc::new(Memory::default()), &on_screen()).apply(Msg::Screen(other.clone()));
    assert_eq!((fresh.draft.text.as_str(), fresh.draft.previous.as_deref()), (other.as_str(), None));
    // Kept at once when the page goes away, whatever its check.
    let store = Rc::new(Memory::default());
    let e = editor(&store).apply(Msg::Type("{ half".into()));
    e.keep_draft();
    assert_eq!(store.get(DRAFT_KEY).as_deref(), Some("{ half"));
}

#[test]
fn imports_run_when_valid_keep_the_previous_draft_and_refuse_what_no_scenario_can_be() {
    let store = Rc::new(Memory::default());
    let e = editor(&store);
    let before = e.draft.text.clone();
    let etcd = serde_json::to_string_pretty(&catalog::get("happy-path-etcd").unwrap()).unwrap();
    let (run, msg) = bring(etcd.clone(), "etcd.json");
    assert_eq!(loaded(run).as_deref(), Some(etcd.as_str()));
    let e = e.apply(msg);
    assert_eq!((e.draft.text.as_str(), e.status.as_deref()), (etcd.as_str(), Some("Loaded etcd.json.")));
    assert_eq!(e.draft.previous.as_deref(), Some(before.as_str()));
    // Garbage is not run, but it is the draft now, and the previous one is a click away.
    let (run, msg) = bring("\u{89}PNG not json".into(), "cat.png");
    assert!(run.is_none());
    let e = e.apply(msg);
    assert!(e.status.as_deref().unwrap().starts_with("Not run: cat.png is not a valid scenario ("), "{:?}", e.status);
    let e = e.apply(Msg::Restore);
    assert_eq!((e.draft.text.as_str(), e.status.as_deref()), (etcd.as_str(), Some("The previous draft is back.")));
    // Too large to be a scenario, or not text: the draft is unchanged, and the editor says so.
    assert_eq!(too_large("big.json", MAX_SCENARIO_BYTES as f64), None);
    let refused = too_large("big.json", MAX_SCENARIO_BYTES as f64 + 1.0).unwrap();
    let e2 = e.clone().apply(refused);
    assert_eq!(e2.draft, e.draft);
    assert_eq!(
        e2.status.as_deref(),
        Some(
            format!("Not imported: big.json is larger than a scenario can be ({MAX_SCENARIO_BYTES} bytes). The draft is unchanged.")
                .as_str()
        )
    );
    assert_eq!(e2.revision, e.revision, "no new check for an unchanged draft");
    let e3 = e.clone().apply(Msg::Refused(locklab::authoring::editor::Refusal::Unreadable("x.bin".into())));
    assert_eq!(e3.status.as_deref(), Some("Not imported: x.bin could not be read as text. The draft is unchanged."));
}

#[test]
fn saved_scenarios_are_stored_before_they_are_listed() {
    let store = Rc::new(Memory::default());
    let e = apply(editor(&store), [Msg::SaveName(" mine ".into()), Msg::Save]);
    assert_eq!(e.status.as_deref(), Some("Saved “mine”."));
    assert_eq!(e.saved().unwrap().entries().len(), 1);
    assert!(store.get(SAVED_KEY).unwrap().contains("mine"));
    assert!(e.name_taken());
    let e = apply(e, [set(Field::Title, "changed"), Msg::Save]);
    assert_eq!(e.status.as_deref(), Some("Replaced the saved “mine”."));
    assert!(e.saved().unwrap().get("mine").unwrap().json.contains("changed"));
    // The list comes back in a new editor; an empty name is refused with why.
    assert_eq!(editor(&store).saved().unwrap(), e.saved().unwrap());
    let e = apply(e, [Msg::SaveName("  ".into()), Msg::Save]);
    assert_eq!(e.status.as_deref(), Some("Give the scenario a name to save it under."));
    // A refused write (a full quota) leaves the list as stored, and says so.
    *store.full.borrow_mut() = true;
    let full = apply(e.clone(), [Msg::SaveName("two".into()), Msg::Save]);
    assert_eq!(full.status.as_deref(), Some("Not saved: the browser's storage for this site is full."));
    assert_eq!(full.saved().unwrap().entries().len(), 1);
    let full = rest(full.apply(set(Field::Title, "again")));
    assert_eq!(full.draft_unkept.as_deref(), Some("the browser's storage for this site is full"));
    *store.full.borrow_mut() = false;
    let e = e.apply(Msg::Delete("mine".into()));
    assert_eq!(e.status.as_deref(), Some("Deleted “mine”."));
    assert!(e.saved().unwrap().entries().is_empty() && store.get(SAVED_KEY).as_deref() == Some("[]"));
}

#[test]
fn without_a_store_saving_is_off_with_why_and_the_editor_still_runs() {
    let off = "this page may not store anything here (a sandboxed frame, or site data is blocked)";
    let store = Rc::new(Memory { off: Some(off.into()), ..Memory::default() });
    let e = editor(&store);
    assert_eq!(e.saved(), Err(off.to_string()));
    let e = rest(apply(e, [set(Field::Fencing, "true"), Msg::SaveName("x".into()), Msg::Save]));
    assert_eq!(e.status, Some(format!("Not saved: {off}.")), "(the view offers no Save here)");
    assert!(e.saved().is_err());
    assert_eq!(e.draft_unkept, None, "saving is off: said once, not for every keystroke");
    assert!(loaded(e.run().0).is_some_and(|t| t.contains("\"fencing\": true")));
    // An unreadable stored list turns saving off too, rather than being saved over.
    let store = Rc::new(Memory::default());
    store.set(SAVED_KEY, "{\"oops\": 1}").unwrap();
    let e = apply(editor(&store), [Msg::SaveName("x".into()), Msg::Save]);
    assert!(e.saved().unwrap_err().starts_with("the saved scenarios stored in this browser are unreadable"));
    assert_eq!(store.get(SAVED_KEY).as_deref(), Some("{\"oops\": 1}"));
}

#[test]
fn opening_closing_and_the_export_name() {
    let store = Rc::new(Memory::default());
    let e = editor(&store);
    assert!(!e.open);
    let e = e.apply(Msg::Open(true));
    assert!(e.open && !e.clone().apply(Msg::Open(false)).open);
    let e = e.apply(set(Field::Title, "My Lock Story"));
    assert_eq!(e.export_name(), "my-lock-story.json");
}
