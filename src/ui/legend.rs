//! A one-line key to the diagram's marks, for whoever sees it for the first time.

use yew::prelude::*;

/// The key as fixed markup, the same nodes `html!` made of it: a string in the wasm's data
/// costs less than a component and the code that builds each node, and the app's every
/// render compares only the string (no node is touched).
const LEGEND: &str = concat!(
    r#"<p class="legend-line" aria-label="How to read the diagram">"#,
    r#"<span><i class="sw belief"></i>believes it holds the lock</span>"#,
    r#"<span><i class="sw held"></i>lock service holds its lease</span>"#,
    r#"<span><i class="sw pause"></i>paused</span>"#,
    r#"<span><i class="sw overlap"></i>two believers</span>"#,
    r#"<span><b class="g ok">●</b>accepted</span>"#,
    r#"<span><b class="g no">■</b>rejected</span>"#,
    r#"<span><b class="g stale">▲</b>stale write accepted</span>"#,
    r#"<span class="hint">click to seek · ? keys</span>"#,
    "</p>",
);

pub fn legend() -> Html {
    Html::from_html_unchecked(AttrValue::Static(LEGEND))
}
