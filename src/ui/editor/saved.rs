//! Saved scenarios: save the draft under a name, load or delete a saved one. The list is
//! written to storage before it changes on screen (`Editor::apply`), so what is listed is
//! what is stored. When storage is off, this says why instead of offering buttons that cannot
//! work.

use yew::prelude::*;

use super::answer;
use crate::authoring::editor::{bring, Editor, Msg};
use crate::authoring::saved::{MAX_NAME_CHARS, MAX_SAVED};
use crate::ui::state::Act;

pub fn view(editing: &UseReducerHandle<Editor>, on_name: Callback<InputEvent>, act: &Act) -> Html {
    let list = match editing.saved() {
        Ok(list) => list,
        Err(off) => {
            return html! {
                <p class="storage-off" role="note" data-testid="storage-off">
                    {format!("Saving is off: {off}. The editor still works, but your draft lasts only until this page closes: export it as a file to keep it.")}
                </p>
            }
        }
    };
    let exists = editing.name_taken();
    let save = {
        let editing = editing.clone();
        Callback::from(move |_| editing.dispatch(Msg::Save))
    };
    let rows = list.entries().iter().map(|s| {
        let load = {
            let (editing, act, name, json) = (editing.clone(), act.clone(), s.name.clone(), s.json.clone());
            Callback::from(move |_| answer(&editing, &act, bring(json.clone(), &format!("“{name}”"))))
        };
        let delete = {
            let (editing, name) = (editing.clone(), s.name.clone());
            Callback::from(move |_| editing.dispatch(Msg::Delete(name.clone())))
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
                <input data-testid="save-name" value={editing.save_name.clone()} oninput={on_name} maxlength={MAX_NAME_CHARS.to_string()} placeholder="Name" aria-label="Save the draft as" />
                <button type="button" class="small" data-testid="save-scenario" onclick={save}>{if exists { "Overwrite" } else { "Save draft" }}</button>
                if exists {
                    <span class="hint">{"A saved scenario has this name: saving replaces it."}</span>
                }
            </div>
            if let Some(why) = &editing.draft_unkept {
                <p class="storage-off" role="note">{format!("Your draft could not be kept in this browser just now: {why}.")}</p>
            }
            <ul class="saved-list" data-testid="saved-list">{for rows}</ul>
            <p class="hint">
                {format!("Kept in this browser only: up to {MAX_SAVED} scenarios of at most 64 KiB each, within the browser's storage quota for this site (usually about 5 MB). Export a file to keep one elsewhere.")}
            </p>
        </section>
    }
}
