//! "Judge a history of your own" (issue 37 item 6; docs/HISTORY_FORMAT.md): a box to paste a
//! history into, a file to load one from, the recordings of real servers to start from, and
//! the run on screen to save as one. Judging sends the text to the session
//! (`Action::JudgeHistory`), which reads it, draws it on its approach's lanes and judges it;
//! a refused history leaves the run on screen and the text in the box, with the error under it.

use yew::prelude::*;

use crate::history::{self, MAX_BYTES};
use crate::lab::Run;
use crate::recorded;
use crate::session::{Action, Shared};
use crate::ui::state::Act;

#[derive(Properties, PartialEq)]
pub struct HistoryProps {
    /// The run on screen: what "Save as a history" writes.
    pub run: Shared<Run>,
    /// The run on screen is a history.
    pub shown: bool,
    /// Why the last history was refused.
    pub error: Option<AttrValue>,
    /// The page's data has arrived (`library::arrived`): the recordings to start from are here.
    pub arrived: bool,
    pub act: Act,
}

/// Reads a chosen file into the box; one too large or unreadable leaves the box as it was and
/// says why.
fn load_file(text: UseStateHandle<String>, refused: UseStateHandle<Option<String>>) -> Callback<Event> {
    Callback::from(move |ev: Event| {
        let input: web_sys::HtmlInputElement = ev.target_unchecked_into();
        let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
        input.set_value("");
        let name = file.name();
        if file.size() > MAX_BYTES as f64 {
            return refused.set(Some(format!("{name}: {} bytes: the limit is {MAX_BYTES} (10 MB)", file.size())));
        }
        let (text, refused) = (text.clone(), refused.clone());
        let read = wasm_bindgen_futures::JsFuture::from(file.text());
        wasm_bindgen_futures::spawn_local(async move {
            match read.await.ok().and_then(|t| t.as_string()) {
                Some(t) => {
                    refused.set(None);
                    text.set(t);
                }
                None => refused.set(Some(format!("{name}: the file could not be read"))),
            }
        });
    })
}

#[function_component(HistoryJudge)]
pub fn history_judge(p: &HistoryProps) -> Html {
    let text = use_state(String::new);
    // Why a file was not loaded (the session's error is about a history judged).
    let refused = use_state(|| None::<String>);
    let recordings = recorded::all();
    let oninput = {
        let text = text.clone();
        Callback::from(move |ev: InputEvent| text.set(ev.target_unchecked_into::<web_sys::HtmlTextAreaElement>().value()))
    };
    let judge = {
        let (text, act) = (text.clone(), p.act.clone());
        Callback::from(move |_| act.dispatch(Action::JudgeHistory((*text).clone())))
    };
    let start_from = {
        let (text, recordings) = (text.clone(), recordings.clone());
        Callback::from(move |ev: Event| {
            let select: web_sys::HtmlSelectElement = ev.target_unchecked_into();
            let chosen = select.value().parse::<usize>().ok().and_then(|i| recordings.get(i)).and_then(recorded::as_history);
            select.set_value("");
            if let Some(h) = chosen {
                text.set(h);
            }
        })
    };
    // The run on screen as a history: a data: link made at the click, as the editor's export.
    let save = {
        let run = p.run.clone();
        Callback::from(move |ev: MouseEvent| {
            let link: web_sys::Element = ev.target_unchecked_into();
            let href = format!("data:application/x-ndjson;charset=utf-8,{}", js_sys::encode_uri_component(&history::write(&run.0)));
            let _ = link.set_attribute("href", &href);
        })
    };
    let save_name = format!("{}.jsonl", p.run.0.scenario.id);
    let error = (*refused).clone().map(AttrValue::from).or_else(|| p.error.clone());
    html! {
        // The editor's class: its look, its place (hidden in lecture mode, lessons and embeds), and
        // the app's keys left alone while typing in it (`keys`).
        <details class="scenario-json history-judge" data-testid="history" open={p.shown || error.is_some()}>
            <summary>{"Judge a history of your own: what your processes did with a lock, from your logs"}</summary>
            <p class="hint">
                {"One JSON object a line: "}<code>{"{\"t\": 2, \"process\": \"A\", \"op\": \"grant\", \"token\": 33}"}</code>
                {". Operations: acquire, denied, grant, renew, expire, lost, release, write (with its token and \"result\": \"accepted\" or \"rejected\"), pause, crash, restart; a first line such as "}
                <code>{"{\"history\": 1, \"approach\": \"redis\"}"}</code>
                {" names the lanes. Lock Lab draws it and judges it as it judges a run (the format: docs/HISTORY_FORMAT.md in the repository). At most 10 MB and 100,000 lines."}
            </p>
            <label class="json">
                <span>{"History (JSON lines)"}</span>
                <textarea data-testid="history-input" spellcheck="false" rows="12" value={(*text).clone()} {oninput} />
            </label>
            if let Some(e) = error {
                <p class="knob-error" role="alert" data-testid="history-error">{e}</p>
            }
            <div class="scenario-json-actions">
                <button type="button" data-testid="history-judge" onclick={judge} disabled={text.trim().is_empty()}>{"Judge this history"}</button>
                <label class="import button small">{"Load a file"}<input type="file" accept=".jsonl,.ndjson,.json,.txt" data-testid="history-import" onchange={load_file(text.clone(), refused.clone())} /></label>
                if !recordings.is_empty() {
                    <select class="small" data-testid="history-recording" aria-label="Start from a recording of real servers" onchange={start_from}>
                        <option value="" selected=true>{"Start from a recording of real servers…"}</option>
                        { for recordings.iter().enumerate().map(|(i, r)| html! {
                            <option value={i.to_string()}>{format!("{}, fencing {}: {}", r.id, if r.fencing { "on" } else { "off" }, r.label())}</option>
                        }) }
                    </select>
                }
                <a class="button small" data-testid="history-export" href="#" download={save_name} onclick={save}>{"Save the run on screen as a history"}</a>
            </div>
            if p.shown {
                <p class="status" role="status" data-testid="history-shown">
                    {format!("On screen: your history, on the lanes of {}. The switches, knobs and faults do not change it; pick a scenario to simulate again.", p.run.0.scenario.approach.label())}
                </p>
            }
        </details>
    }
}
