//! A one-line key to the diagram's marks, for whoever sees it for the first time.

use yew::prelude::*;

#[function_component(Legend)]
pub fn legend() -> Html {
    html! {
        <p class="legend-line" aria-label="How to read the diagram">
            <span><i class="sw belief" />{"client believes it holds the lock"}</span>
            <span><i class="sw held" />{"the lock service holds its lease"}</span>
            <span><i class="sw pause" />{"paused"}</span>
            <span><i class="sw overlap" />{"two believers"}</span>
            <span><b class="g ok">{"●"}</b>{"accepted"}</span>
            <span><b class="g no">{"■"}</b>{"rejected"}</span>
            <span><b class="g stale">{"▲"}</b>{"stale write accepted"}</span>
            <span class="hint">{"click to seek · ? keys"}</span>
        </p>
    }
}
