//! The form half of the editor: the common fields, the clients and the faults as a list. Each
//! input is an `authoring::form::Field`; a change becomes an `Edit` of the JSON draft, so the
//! form and the JSON cannot disagree. An input whose field the current error names is marked.

use yew::prelude::*;

use crate::authoring::form::{self, Edit, Field, NewFault};
use crate::scenario::limits::{MAX_CLIENTS, MAX_FAULTS};
use crate::scenario::{validate, Approach, Scenario};

/// What every input needs to draw and report itself.
struct Ctx<'a> {
    s: &'a Scenario,
    error_path: Option<&'a str>,
    on_edit: &'a Callback<Edit>,
}

impl Ctx<'_> {
    fn invalid(&self, field: Field) -> bool {
        self.error_path.is_some_and(|p| field.is_at(self.s, p))
    }

    /// A text input (numbers too: `inputmode` brings the number pad, and the raw text reaches
    /// the field, so "12a" is named in the error instead of silently becoming empty).
    fn input(&self, field: Field, label: &'static str, unit: &'static str, placeholder: impl Into<AttrValue>) -> Html {
        let placeholder = placeholder.into();
        let on_edit = self.on_edit.clone();
        let oninput = Callback::from(move |e: InputEvent| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            on_edit.emit(Edit::Set(field, input.value()));
        });
        let numeric = !matches!(field, Field::Title | Field::ClientName(_) | Field::FaultGroups(_));
        html! {
            <label class={classes!("field", numeric.then_some("num"))}>
                <span>{label}</span>
                <input value={field.value(self.s)} data-path={field.path(self.s)} aria-invalid={self.invalid(field).to_string()}
                    inputmode={numeric.then_some("numeric")} {placeholder} {oninput} />
                {unit}
            </label>
        }
    }

    fn check(&self, field: Field, label: &'static str) -> Html {
        let on_edit = self.on_edit.clone();
        let onchange = Callback::from(move |e: Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            on_edit.emit(Edit::Set(field, input.checked().to_string()));
        });
        html! {
            <label class="field check">
                <input type="checkbox" checked={field.value(self.s) == "true"} data-path={field.path(self.s)} {onchange} />
                {label}
            </label>
        }
    }

    /// A select of `options` showing the field's value; a value that is not among them (a node
    /// that no longer exists) is still shown, and the error names it. Keyed by the value so a
    /// change made in the JSON re-selects.
    fn select(&self, field: Field, label: &'static str, options: Vec<(String, &str)>) -> Html {
        let value = field.value(self.s);
        let on_edit = self.on_edit.clone();
        let onchange = Callback::from(move |e: Event| {
            let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
            on_edit.emit(Edit::Set(field, select.value()));
        });
        let missing = !options.iter().any(|(v, _)| *v == value);
        html! {
            <label class="field">
                <span>{label}</span>
                <select key={value.clone()} data-path={field.path(self.s)} aria-invalid={self.invalid(field).to_string()} {onchange}>
                    if missing { <option selected=true>{value.clone()}</option> }
                    { for options.iter().map(|(v, text)| html! { <option value={v.clone()} selected={*v == value}>{*text}</option> }) }
                </select>
            </label>
        }
    }

    fn button(&self, text: &'static str, edit: Edit, title: String, disabled: bool) -> Html {
        let on_edit = self.on_edit.clone();
        let onclick = Callback::from(move |_| on_edit.emit(edit.clone()));
        html! { <button type="button" class="small" aria-label={title.clone()} {title} {disabled} {onclick}>{text}</button> }
    }
}

/// The form for `s`; `editable` is false while the JSON is unreadable (the form then shows the
/// last readable draft, disabled); `error_path` is the field the current error names. A plain
/// function, not a component: it re-renders only with the editor anyway. A fault added strikes
/// at `at_ms` (the cursor's, when the draft is the run on screen).
pub fn view(s: &Scenario, editable: bool, error_path: Option<&str>, at_ms: i64, on_edit: &Callback<Edit>) -> Html {
    let c = Ctx { s, error_path, on_edit };
    let approaches = Approach::ALL.iter().map(|a| (a.id().to_string(), a.label())).collect();
    let nodes = validate::node_names(s);
    let clients = s.clients.iter().enumerate().map(|(i, _)| {
        html! {
            <li>
                {c.input(Field::ClientName(i), "Client", "", "")}
                {c.input(Field::ClientStartMs(i), "starts at", "ms", "")}
                {c.button("✕", Edit::RemoveClient(i), format!("Remove client {}", i + 1), s.clients.len() == 1)}
            </li>
        }
    });
    let faults = s.faults.iter().enumerate().map(|(i, f)| {
        let amount = form::amount(f);
        let node = form::node_of(f).map(|_| c.select(Field::FaultNode(i), "on", nodes.iter().map(|n| (n.clone(), n.as_str())).collect()));
        html! {
            <li>
                <b>{form::kind_label(f)}</b>
                {for node}
                {for form::link_of(f)}
                {c.input(Field::FaultAtMs(i), "at", "ms", "")}
                if form::has_groups(f) {
                    {c.input(Field::FaultGroups(i), "groups", "", "A, redis | B")}
                }
                {c.input(Field::FaultAmount(i), amount.label, amount.unit, amount.when_empty)}
                {c.button("✕", Edit::RemoveFault(i), format!("Remove fault {}", i + 1), false)}
            </li>
        }
    });
    // The approach's own settings (k8s-lease's RenewDeadline, dynamodb-lock's heartbeat), drawn
    // from their `Param`s: no approach is named here. Empty takes the default, shown greyed.
    let settings = form::settings(s);
    let own_settings = settings.iter().map(|r| {
        html! {
            <span title={r.why}>{c.input(r.field, r.label, r.unit, r.when_empty.clone())}</span>
        }
    });
    let add_faults = NewFault::offered(s)
        .map(|k| c.button(k.label(), Edit::AddFault(k, at_ms), format!("Add a {}", k.label()), s.faults.len() >= MAX_FAULTS));
    html! {
        <fieldset class="draft-form" disabled={!editable} data-testid="editor-form">
            <legend>{"Form"}</legend>
            <div class="form-row">
                {c.input(Field::Title, "Title", "", "")}
                {c.select(Field::Approach, "Approach", approaches)}
            </div>
            <div class="form-row">
                {c.input(Field::TtlMs, "Lease TTL", "ms", "")}
                {c.input(Field::DurationMs, "Duration", "ms", "")}
                {c.input(Field::Seed, "Seed", "", "")}
                {c.check(Field::Fencing, "Fencing")}
                {c.check(Field::SafeUnlock, "Safe unlock")}
            </div>
            if !settings.is_empty() {
                <div class="form-row" data-testid="approach-settings">{for own_settings}</div>
            }
            <ul class="rows">{for clients}</ul>
            {c.button("+ client", Edit::AddClient, "Add a client".into(), s.clients.len() >= MAX_CLIENTS)}
            <ol class="rows" data-testid="fault-list">{for faults}</ol>
            <div class="add-faults"><span>{"Add a fault:"}</span>{for add_faults}</div>
        </fieldset>
    }
}
