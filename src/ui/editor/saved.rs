//! Saved scenarios: save the draft under a name, load or delete a saved one. The list is
//! written to storage before it changes on screen, so what is listed is what is stored. When
//! storage is off, this says why instead of offering buttons that cannot work.

use std::rc::Rc;

use yew::prelude::*;

use super::store::{Store, SAVED_KEY};
use super::Drafting;
use crate::authoring::saved::{SavedList, Saving, MAX_NAME_CHARS, MAX_SAVED};

pub struct Ctx<'a> {
    pub store: &'a Rc<Store>,
    /// The saved list, or why the stored one cannot be read (then saving is off, so it is not
    /// overwritten).
    pub list: &'a UseStateHandle<Result<SavedList, String>>,
    /// The name typed for saving.
    pub name: &'a UseStateHandle<String>,
    pub drafting: &'a UseReducerHandle<Drafting>,
    pub status: &'a UseStateHandle<Option<String>>,
    /// Why the draft itself could not be kept just now.
    pub draft_unkept: Option<&'a str>,
}

/// Stores `list` and shows it, or says why it could not be stored (the old one stays).
fn commit(
    store: &Store,
    shown: &UseStateHandle<Result<SavedList, String>>,
    status: &UseStateHandle<Option<String>>,
    list: SavedList,
    done: String,
) {
    match store.set(SAVED_KEY, &list.to_storage()) {
        Ok(()) => {
            shown.set(Ok(list));
            status.set(Some(done));
        }
        Err(why) => status.set(Some(format!("Not saved: {why}."))),
    }
}

pub fn view(c: &Ctx, on_load: Callback<(String, String)>) -> Html {
    let off = c.store.off().map(str::to_string).or_else(|| c.list.as_ref().err().cloned());
    let hint = format!(
        "Kept in this browser only, up to {MAX_SAVED} scenarios of at most 64 KiB each (and within the browser's storage quota for this site, usually about 5 MB). Export a file to keep one elsewhere."
    );
    let Some(list) = c.list.as_ref().ok().filter(|_| off.is_none()) else {
        return html! {
            <section class="saved">
                <h3>{"Saved scenarios"}</h3>
                <p class="storage-off" role="note" data-testid="storage-off">
                    {format!("Saving is off: {}. The editor still works, but your draft lasts only until this page closes: export it as a file to keep it.", off.unwrap_or_default())}
                </p>
            </section>
        };
    };
    let exists = list.get(c.name).is_some();
    let save = {
        let (store, list, name, drafting, status) = (c.store.clone(), c.list.clone(), c.name.clone(), c.drafting.clone(), c.status.clone());
        Callback::from(move |_| {
            let Ok(mut l) = (*list).clone() else { return };
            match l.save(&name, &drafting.draft.text) {
                Ok(how) => {
                    let n = name.trim();
                    let done = if how == Saving::Replaced { format!("Replaced the saved “{n}”.") } else { format!("Saved “{n}”.") };
                    commit(&store, &list, &status, l, done)
                }
                Err(e) => status.set(Some(e)),
            }
        })
    };
    let oninput = {
        let name = c.name.clone();
        Callback::from(move |e: InputEvent| name.set(e.target_unchecked_into::<web_sys::HtmlInputElement>().value()))
    };
    let rows = list.entries().iter().map(|s| {
        let load = {
            let (on_load, entry) = (on_load.clone(), (s.name.clone(), s.json.clone()));
            Callback::from(move |_| on_load.emit(entry.clone()))
        };
        let delete = {
            let (store, list, status, gone) = (c.store.clone(), c.list.clone(), c.status.clone(), s.name.clone());
            Callback::from(move |_| {
                if let Ok(mut l) = (*list).clone() {
                    l.delete(&gone);
                    commit(&store, &list, &status, l, format!("Deleted “{gone}”."));
                }
            })
        };
        html! {
            <li data-testid="saved-item" data-name={s.name.clone()}>
                <span>{s.name.clone()}</span>
                <button type="button" class="small" onclick={load}>{"Load"}</button>
                <button type="button" class="small" onclick={delete} aria-label={format!("Delete {}", s.name)}>{"Delete"}</button>
            </li>
        }
    });
    html! {
        <section class="saved">
            <h3>{"Saved scenarios"}</h3>
            <div class="save-row">
                <input data-testid="save-name" value={(**c.name).clone()} {oninput} maxlength={MAX_NAME_CHARS.to_string()} placeholder="Name" aria-label="Save the draft as" />
                <button type="button" class="small" data-testid="save-scenario" onclick={save}>{if exists { "Overwrite" } else { "Save draft" }}</button>
                if exists {
                    <span class="hint">{"A saved scenario has this name: saving replaces it."}</span>
                }
            </div>
            if let Some(why) = c.draft_unkept {
                <p class="storage-off" role="note">{format!("Your draft could not be kept in this browser just now: {why}.")}</p>
            }
            <ul class="saved-list" data-testid="saved-list">{for rows}</ul>
            <p class="hint">{hint}</p>
        </section>
    }
}
