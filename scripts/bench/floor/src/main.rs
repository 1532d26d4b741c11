//! A counter: the smallest Yew app that renders, keeps state and handles a click.
use yew::prelude::*;

#[function_component(App)]
fn app() -> Html {
    let n = use_state(|| 0);
    let onclick = {
        let n = n.clone();
        move |_| n.set(*n + 1)
    };
    html! { <div><button {onclick}>{"+1"}</button><p>{*n}</p></div> }
}

fn main() {
    yew::Renderer::<App>::new().render();
}
