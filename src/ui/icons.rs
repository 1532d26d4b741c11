//! Transport icons as inline SVG paths (no icon font: nothing to fetch, nothing to miss).

use yew::prelude::*;

#[derive(Clone, Copy, PartialEq)]
pub enum Icon {
    Play,
    Pause,
    Step,
    StepBack,
    NextKey,
    PrevKey,
}

/// The icon's path: the app's buttons (`icon`) and the embeds' player (`ui::player`, no Yew)
/// draw the same shapes.
pub fn path(i: Icon) -> &'static str {
    match i {
        Icon::Play => "M6 4l11 6-11 6z",
        Icon::Pause => "M5 4h3.5v12H5zM11.5 4H15v12h-3.5z",
        Icon::Step => "M4 4l9 6-9 6zM14 4h2.5v12H14z",
        Icon::StepBack => "M16 4l-9 6 9 6zM3.5 4H6v12H3.5z",
        Icon::NextKey => "M2 4l7 6-7 6zM9 4l7 6-7 6zM16 4h2v12h-2z",
        Icon::PrevKey => "M18 4l-7 6 7 6zM11 4l-7 6 7 6zM2 4h2v12H2z",
    }
}

pub fn icon(i: Icon) -> Html {
    let d = path(i);
    html! {
        <svg class="icon" viewBox="0 0 20 20" width="20" height="20" aria-hidden="true" focusable="false"><path d={d} /></svg>
    }
}
