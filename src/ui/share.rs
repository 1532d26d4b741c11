//! Sharing a view: the "Copy link" control, the banner for a link that could not be opened
//! as shared, and embed mode's way back to the full app. The links come from
//! `scenario::share`.

use wasm_bindgen::prelude::*;
use yew::prelude::*;

use crate::ui::state::{on_click, Act, Action};

#[wasm_bindgen]
extern "C" {
    // `navigator.clipboard` is missing in insecure contexts and may be blocked (sandboxed
    // iframes, permissions): `catch` turns every such failure into an Err, never a throw
    // through the app.
    #[wasm_bindgen(catch, js_namespace = ["navigator", "clipboard"], js_name = writeText)]
    pub fn write_text(text: &str) -> Result<js_sys::Promise, JsValue>;
}

#[derive(Clone, Copy, PartialEq)]
pub enum Copied {
    Not,
    /// The link is on the clipboard (for a moment, "Link copied").
    Yes,
    /// The clipboard refused: the link is shown in a field to copy by hand.
    ByHand,
}

/// What the last "Copy link" did, and the field shown when it had to be done by hand. A hook
/// in the app, not a component of its own: each Yew component type costs ~1 KB of wasm.
#[hook]
pub fn use_copied() -> (UseStateHandle<Copied>, NodeRef) {
    let copied = use_state_eq(|| Copied::Not);
    let field = use_node_ref();
    // The confirmation fades after a moment; the by-hand field is selected, ready for Ctrl+C.
    use_effect_with((*copied, field.clone()), {
        let copied = copied.clone();
        move |(state, field)| {
            if let Some(input) = field.cast::<web_sys::HtmlInputElement>() {
                input.select();
            }
            let reset = (*state == Copied::Yes).then(|| gloo::timers::callback::Timeout::new(2000, move || copied.set(Copied::Not)));
            move || drop(reset)
        }
    });
    (copied, field)
}

/// Puts `text` on the clipboard and says how it went in `copied`: Yes, or ByHand where the
/// browser refuses (no clipboard, a sandbox, a permission), for the caller to show it in a field.
pub fn copy_text(text: &str, copied: &UseStateHandle<Copied>) {
    match write_text(text) {
        Ok(promise) => {
            let copied = copied.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let ok = wasm_bindgen_futures::JsFuture::from(promise).await.is_ok();
                copied.set(if ok { Copied::Yes } else { Copied::ByHand });
            });
        }
        Err(_) => copied.set(Copied::ByHand),
    }
}

/// The "Copy link" control. `url` is the full URL of the view; `too_large`: the scenario is
/// too large for a link, which then names only the built-in it came from.
pub fn copy_link(copied: &UseStateHandle<Copied>, field: &NodeRef, url: &AttrValue, too_large: bool) -> Html {
    let onclick = {
        let (copied, url) = (copied.clone(), url.clone());
        move |_| {
            if too_large {
                // The field says so, and shows what the link can carry.
                copied.set(Copied::ByHand);
            } else {
                copy_text(&url, &copied);
            }
        }
    };
    let close = {
        let copied = copied.clone();
        move |_| copied.set(Copied::Not)
    };
    html! {
        <div class="share">
            <button type="button" class="small copy-link" data-testid="copy-link" data-link={url.clone()} {onclick}
                title="Copy a link to this view: scenario, switches, knobs and the moment on screen">
                {if **copied == Copied::Yes { "✓ Link copied" } else { "Copy link" }}
            </button>
            if **copied == Copied::ByHand {
                <div class="share-pop" role="dialog" aria-label="Link to this view">
                    <p>
                        {if too_large {
                            "This scenario is too large for a link (over 16 KB encoded): the link below opens only the built-in it came from. Share its JSON instead (\u{201c}Your own scenario\u{201d}), or copy it from here."
                        } else {
                            "The browser did not let Lock Lab copy the link: copy it from here."
                        }}
                    </p>
                    <input ref={field.clone()} type="text" readonly=true value={url.clone()} data-testid="copy-link-field" aria-label="Link to this view" />
                    <button type="button" class="small" onclick={close}>{"Done"}</button>
                </div>
            }
        </div>
    }
}

/// What was wrong with the link the page was opened with; the app works on underneath.
pub fn link_error(text: &str, act: &Act) -> Html {
    html! {
        <div class="link-error" role="alert" data-testid="link-error">
            <p>{text.to_string()}</p>
            <button type="button" class="small" aria-label="Dismiss" title="Dismiss" onclick={on_click(act, || Action::DismissLinkError)}>{"×"}</button>
        </div>
    }
}

/// A pasted link that differs only in its `#s=` does not load a page: open it as a link.
#[hook]
pub fn use_reopen_on_hash_change() {
    use_effect_with((), |_| {
        let listener = web_sys::window().map(|w| {
            gloo::events::EventListener::new(&w, "hashchange", |_| {
                if let Some(w) = web_sys::window() {
                    let _ = w.location().reload();
                }
            })
        });
        move || drop(listener)
    });
}
