//! Captions that fit their box. In lecture mode and embeds a caption's box has a fixed height
//! (the transport under it must not move as captions change), so a caption too long for it is
//! set smaller (the style sheet multiplies its size by `--fit`), step by step down to `STEPS`'
//! floor, until it fits; what still does not fit scrolls (embeds) or is cut (the stage, whose
//! key moments' captions are measured to fit at full size: tests/e2e/specs/stage.spec.ts).
//! Never below `text::caption::CAPTION_MIN_PX` (12 px): the style sheet floors every fitted
//! size with `max(12px, …)` (tests/words.rs holds it), so a 320×240 embed's 13 px caption
//! stops at 12 px and scrolls, where it used to shrink to 9.9 px.
//! Elsewhere the box grows with its words and nothing is done.

use gloo::events::EventListener;
use wasm_bindgen::JsCast;
use web_sys::Element;
use yew::prelude::*;

/// Steps of the caption's scale, in hundredths, from the full size down.
const STEPS: std::ops::RangeInclusive<u32> = 72..=100;

/// Fits every caption on the page after each render and when the window is resized, while
/// `fixed` (the page gives captions a fixed height).
#[hook]
pub fn use_fitted_captions(fixed: bool) {
    use_effect_with(fixed, |fixed| {
        // Leaving the stage: captions go back to their full size.
        if !fixed {
            clear_all();
        }
    });
    use_effect(move || {
        if fixed {
            fit_all(false)
        }
    });
    use_effect_with(fixed, |fixed| {
        let fixed = *fixed;
        let listener = EventListener::new(&gloo::utils::window(), "resize", move |_| {
            if fixed {
                fit_all(true)
            }
        });
        move || drop(listener)
    });
}

fn captions() -> Vec<Element> {
    let Ok(list) = gloo::utils::document().query_selector_all(".caption") else { return vec![] };
    (0..list.length()).filter_map(|i| list.item(i).and_then(|n| n.dyn_into::<Element>().ok())).collect()
}

fn clear_all() {
    for el in captions() {
        let _ = el.remove_attribute("style");
        let _ = el.remove_attribute("data-fit");
    }
}

/// (Also after each of the embeds' player's renders, `ui::player`.)
pub(super) fn fit_all(resized: bool) {
    for el in captions() {
        fit(&el, resized);
    }
}

/// Scales one caption down until its words fit its box. Captions that did not change (the
/// app renders every frame while playing) are left alone.
fn fit(el: &Element, resized: bool) {
    let key = format!("{}|{}x{}", el.text_content().unwrap_or_default(), el.client_width(), el.client_height());
    if !resized && el.get_attribute("data-fit").as_deref() == Some(key.as_str()) {
        return;
    }
    for step in STEPS.rev().step_by(4) {
        let _ = el.set_attribute("style", &format!("--fit:{}", step as f64 / 100.0));
        if el.scroll_height() <= el.client_height() + 1 {
            break;
        }
    }
    let _ = el.set_attribute("data-fit", &key);
}
