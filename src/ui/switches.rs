//! The switches (fencing, safe unlock) and knobs (TTL, pause length, seed). Each edits the
//! scenario and re-simulates at once; the cursor stays where it is.

use yew::prelude::*;

use crate::scenario::Approach;
use crate::ui::state::{Act, Action};

#[derive(Properties, PartialEq)]
pub struct SwitchesProps {
    pub fencing: bool,
    pub safe_unlock: bool,
    pub safe_unlock_applies: bool,
    pub act: Act,
}

/// Which scenario setting a switch edits.
#[derive(Clone, Copy, PartialEq)]
enum Which {
    Fencing,
    SafeUnlock,
}

impl Which {
    fn set(self, on: bool) -> Action {
        match self {
            Which::Fencing => Action::SetFencing(on),
            Which::SafeUnlock => Action::SetSafeUnlock(on),
        }
    }
}

/// One switch (not a component of its own: `Switches` re-renders only when one of them
/// changes, and a component type costs more wasm than re-diffing the other switch).
struct Toggle {
    on: bool,
    testid: &'static str,
    label: &'static str,
    /// The key that toggles it too.
    shortcut: &'static str,
    which: Which,
    /// Why it is disabled (None: enabled).
    why_not: Option<AttrValue>,
    act: Act,
}

/// A checkbox drawn as a switch, with its state in words as well as position.
fn toggle(p: Toggle) -> Html {
    let onchange = {
        let (act, which) = (p.act, p.which);
        Callback::from(move |e: Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            act.dispatch(which.set(input.checked()));
        })
    };
    let enabled = p.why_not.is_none();
    let title = p.why_not.unwrap_or_else(|| format!("{} ({})", p.label, p.shortcut).into());
    html! {
        <label class={classes!("switch", (!enabled).then_some("disabled"))} title={title}>
            <input type="checkbox" role="switch" data-testid={p.testid} checked={p.on} disabled={!enabled} {onchange} />
            <span class="track" aria-hidden="true"><span class="thumb" /></span>
            <span class="switch-label">{p.label}</span>
            <span class="switch-state" aria-hidden="true">{if !enabled { "n/a" } else if p.on { "on" } else { "off" }}</span>
        </label>
    }
}

/// Why the safe-unlock switch is off for some approaches: their releases cannot remove
/// another holder's lock ("ZooKeeper and etcd releases are owner-scoped by construction").
fn owner_scoped() -> AttrValue {
    // Conditional writes take no lock, so have nothing to release.
    let locks = |a: &&Approach| a.spec().workload == crate::protocols::spec::Workload::UnderLock;
    let names: Vec<&str> = Approach::ALL.iter().filter(|a| !a.spec().safe_unlock).filter(locks).map(|a| a.short_name()).collect();
    format!("{} releases are owner-scoped by construction", crate::timeline::draw::words::and_list(&names)).into()
}

#[function_component(Switches)]
pub fn switches(p: &SwitchesProps) -> Html {
    let why_not = (!p.safe_unlock_applies).then(owner_scoped);
    html! {
        <div class="switches">
            {toggle(Toggle { on: p.fencing, testid: "fencing-toggle", label: "Fencing", shortcut: "F", which: Which::Fencing, why_not: None, act: p.act.clone() })}
            {toggle(Toggle { on: p.safe_unlock, testid: "safe-unlock-toggle", label: "Safe unlock", shortcut: "U", which: Which::SafeUnlock, why_not, act: p.act.clone() })}
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct KnobsProps {
    pub ttl_ms: i64,
    pub pause_ms: Option<i64>,
    pub seed: u64,
    pub error: Option<AttrValue>,
    pub act: Act,
}

/// One number knob: its value in use, its field, and the action a typed value becomes.
struct Knob {
    value: i64,
    testid: &'static str,
    label: &'static str,
    unit: &'static str,
    step: i64,
    make: fn(i64) -> Action,
}

/// A knob's field. On a change the field goes back to the value in use at once: a valid value
/// comes back from the run as the new value in use, and a refused one is named by the message
/// under the knobs ("… not applied"), so field and message never disagree (issue 25: the field
/// kept -5 while the message quoted the number typed after it). Text that is no whole number
/// (too large for one, say) is refused here, in the same words.
fn number(act: &Act, refused: &UseStateHandle<Option<String>>, k: Knob) -> Html {
    let (act, refused) = (act.clone(), refused.clone());
    let (value, label, make) = (k.value, k.label, k.make);
    let onchange = Callback::from(move |e: Event| {
        let input: web_sys::HtmlInputElement = e.target_unchecked_into();
        let text = input.value().trim().to_string();
        input.set_value(&value.to_string());
        match text.parse::<i64>() {
            Ok(v) => {
                refused.set(None);
                act.dispatch(make(v));
            }
            Err(_) => refused.set(Some(format!("{label}: \u{201c}{text}\u{201d} is not a whole number Lock Lab can use"))),
        }
    });
    html! {
        <label class="knob">
            <span>{k.label}</span>
            <input type="number" inputmode="numeric" data-testid={k.testid} value={k.value.to_string()} step={k.step.to_string()} min="0" {onchange} />
            <span class="unit">{k.unit}</span>
        </label>
    }
}

#[function_component(Knobs)]
pub fn knobs(p: &KnobsProps) -> Html {
    let next_seed = {
        let (act, seed) = (p.act.clone(), p.seed);
        move |_| act.dispatch(Action::SetSeed(seed.wrapping_add(1)))
    };
    let refused = use_state_eq(|| None::<String>);
    let ttl = Knob { value: p.ttl_ms, testid: "ttl", label: "Lease TTL", unit: "ms", step: 500, make: Action::SetTtl };
    let seed = Knob { value: p.seed as i64, testid: "seed", label: "Seed", unit: "", step: 1, make: |v| Action::SetSeed(v.max(0) as u64) };
    let error = (*refused).clone().or_else(|| p.error.as_ref().map(|e| e.to_string()));
    html! {
        <details class="knobs">
            <summary>{"Knobs: TTL, pause, seed"}</summary>
            <div class="knob-row">
                {number(&p.act, &refused, ttl)}
                if let Some(pause) = p.pause_ms {
                    {number(&p.act, &refused, Knob { value: pause, testid: "pause-length", label: "Pause length", unit: "ms", step: 500, make: Action::SetPause })}
                }
                {number(&p.act, &refused, seed)}
                <button type="button" class="small" onclick={next_seed} title="Same scenario, next seed">{"next seed"}</button>
            </div>
            if let Some(e) = error {
                <p class="knob-error" role="alert" data-testid="knob-error">{format!("{e} \u{2014} not applied: the fields show the values in use.")}</p>
            }
        </details>
    }
}
