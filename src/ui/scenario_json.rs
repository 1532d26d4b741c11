//! Run any scenario written in the public format: paste or import its JSON, see it validated
//! with the same field-path errors as the CLI. The draft is the user's: a refused scenario
//! leaves it (and the run on screen) untouched.

use yew::prelude::*;

use crate::ui::state::{Act, Action};

#[derive(Properties, PartialEq)]
pub struct ScenarioJsonProps {
    /// The scenario on screen, as JSON (offered as a starting point).
    pub current: AttrValue,
    /// Why the last loaded scenario was refused.
    pub error: Option<AttrValue>,
    pub act: Act,
}

#[function_component(ScenarioJson)]
pub fn scenario_json(p: &ScenarioJsonProps) -> Html {
    let draft = use_state(|| p.current.to_string());
    let oninput = {
        let draft = draft.clone();
        Callback::from(move |e: InputEvent| {
            let area: web_sys::HtmlTextAreaElement = e.target_unchecked_into();
            draft.set(area.value());
        })
    };
    let run = {
        let (draft, act) = (draft.clone(), p.act.clone());
        Callback::from(move |_| act.dispatch(Action::Load((*draft).clone())))
    };
    let take_current = {
        let (draft, current) = (draft.clone(), p.current.clone());
        Callback::from(move |_| draft.set(current.to_string()))
    };
    let import = {
        let (draft, act) = (draft.clone(), p.act.clone());
        Callback::from(move |e: Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
            let (draft, act) = (draft.clone(), act.clone());
            let read = wasm_bindgen_futures::JsFuture::from(file.text());
            wasm_bindgen_futures::spawn_local(async move {
                if let Ok(text) = read.await {
                    let text = text.as_string().unwrap_or_default();
                    draft.set(text.clone());
                    act.dispatch(Action::Load(text));
                }
            });
            input.set_value("");
        })
    };
    html! {
        <details class="scenario-json" data-testid="scenario-json">
            <summary>{"Your own scenario (JSON)"}</summary>
            <p class="hint">
                {"Edit the scenario below, or import a file, then run it. The format is documented in the README; errors name the field."}
            </p>
            <textarea data-testid="scenario-json-input" spellcheck="false" rows="14" value={(*draft).clone()} {oninput} aria-label="Scenario JSON" />
            <div class="scenario-json-actions">
                <button type="button" data-testid="scenario-json-run" onclick={run}>{"Run this scenario"}</button>
                <button type="button" class="small" onclick={take_current}>{"Start from the scenario on screen"}</button>
                <label class="import">{"Import a file… "}<input type="file" accept=".json,application/json" data-testid="scenario-import" onchange={import} /></label>
            </div>
            if let Some(e) = &p.error {
                <p class="knob-error" role="alert" data-testid="scenario-error">{e.clone()}</p>
            }
        </details>
    }
}
