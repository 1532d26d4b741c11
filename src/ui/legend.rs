//! A one-line key to the diagram's marks, for whoever sees it for the first time.

use yew::prelude::*;

use crate::protocols::spec::BeliefWords;

/// The key as fixed markup in the approach's words (a conditional write has no lock service
/// and no lease to draw): a string costs less in the wasm than a component and the code that
/// builds each node, and the app's every render compares only the string (no node is touched).
/// The embeds' player (`ui::player`) puts the same string in.
pub(super) fn markup(words: &BeliefWords) -> String {
    let held = if words.service_holds { r#"<span><i class="sw held"></i>lock service holds its lease</span>"# } else { "" };
    format!(
        concat!(
            r#"<p class="legend-line" aria-label="How to read the diagram">"#,
            r#"<span><i class="sw belief"></i>{belief}</span>{held}"#,
            r#"<span><i class="sw pause"></i>paused</span>"#,
            r#"<span><i class="sw overlap"></i>{overlap}</span>"#,
            r#"<span><b class="g ok">●</b>accepted</span>"#,
            r#"<span><b class="g no">■</b>rejected</span>"#,
            r#"<span><b class="g stale">▲</b>stale write accepted</span>"#,
            r#"<span class="hint">click to seek · ? keys</span>"#,
            "</p>",
        ),
        belief = words.legend[0],
        held = held,
        overlap = words.legend[1],
    )
}

pub fn legend(words: &BeliefWords) -> Html {
    Html::from_html_unchecked(AttrValue::from(markup(words)))
}
