//! The colour theme on the page: `data-theme` on the root element selects its palette in
//! styles/diagram.css. The page's early script (index.html) sets it before the first paint
//! from the link and the screen; from then on the session decides (`Session::theme_shown`).

use yew::prelude::*;

use crate::theme::Theme;

/// Keeps the root element's `data-theme` at `theme`.
#[hook]
pub fn use_theme(theme: Theme) {
    use_effect_with(theme, |theme| set(*theme));
}

/// Puts `theme` on the root element (the app through `use_theme`, the embeds' player directly).
pub fn set(theme: Theme) {
    if let Some(root) = gloo::utils::document().document_element() {
        let _ = root.set_attribute("data-theme", theme.id());
    }
}

/// The theme on the page now, for an export: a figure looks as the screen it came from (the
/// root's attribute is the session's choice, `use_theme`, so no export needs it passed down).
pub fn on_page() -> Theme {
    gloo::utils::document()
        .document_element()
        .and_then(|root| root.get_attribute("data-theme"))
        .and_then(|id| Theme::by_id(&id))
        .unwrap_or(Theme::Light)
}
