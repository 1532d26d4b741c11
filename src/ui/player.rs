//! The embeds' player (issue 38): what an `embed=1` page shows, built as a second, smaller
//! wasm from this crate (`src/bin/player.rs`). The app's own components (the diagram, its
//! legend and caption, the transport, the keys, the link banner, the help) over a session
//! whose kit plays a run and nothing more (`session::Kit::PLAYER`): no editor, explorer,
//! lessons, comparison, recordings or fault menu reach its wasm. "Open in Lock Lab" is a link
//! to the full app at the same view, in a tab of its own: the app's wasm is fetched only then.
//! The page picks which wasm to start (scripts/post-build.mjs: the player for an embed of a
//! scenario, the app for anything else).

use std::rc::Rc;

use yew::prelude::*;

use super::app::{embed_name, one_run, open_full};
use super::keys::use_keyboard;
use super::playback::use_playback;
use super::share::link_error;
use super::state::{Session, Start};
use super::transport::{transport, TransportProps};
use crate::scenario::{share, Scenario};
use crate::session::Kit;

/// The built-in `id` as shipped, if there is one: the player's one way to a built-in's
/// scenario. Not from the wasm (the catalog is 54 KB of it, issue 38's budget): from the file
/// the build writes beside the pre-drawn figures (`paint-HASH/ID.scenario.json`,
/// src/bin/first-paint.rs), whose folder the page names (`<main data-paint>`).
pub async fn builtin(id: &str) -> Option<Scenario> {
    // An id is letters, digits and dashes: nothing else of the host is asked for.
    if id.is_empty() || !id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
        return None;
    }
    let text = fetch_text(&format!("{}{id}.scenario.json", paint("data-paint")?)).await?;
    crate::scenario::parse(&text).ok()
}

/// An attribute of the page's `<main data-paint>` (the build's first-paint step writes them).
fn paint(attribute: &str) -> Option<String> {
    gloo::utils::document().query_selector("main[data-paint]").ok()??.get_attribute(attribute)
}

async fn fetch_text(url: &str) -> Option<String> {
    use wasm_bindgen::JsCast;
    use wasm_bindgen_futures::JsFuture;
    let response: web_sys::Response = JsFuture::from(web_sys::window()?.fetch_with_str(url)).await.ok()?.dyn_into().ok()?;
    if !response.ok() {
        return None;
    }
    JsFuture::from(response.text().ok()?).await.ok()?.as_string()
}

/// The built-ins the address needs: the one it names, or, when it names none (or one there
/// is not), the first, which `share::open` then shows with its banner, as the app does; none
/// for a scenario of one's own (`#s=`). Only these: the links the player writes name a
/// built-in exactly as the app's do (`share::name` finds the scenario among them).
pub async fn needed(start: &Start) -> Vec<Scenario> {
    let own = share::pairs(start.hash.trim_start_matches('#')).find(|(k, _)| *k == "s");
    if own.is_some_and(|(_, text)| share::decode_scenario(text).is_ok()) {
        return Vec::new();
    }
    let id = share::pairs(start.search.trim_start_matches('?')).find(|(k, _)| *k == "scenario").map(|(_, v)| v);
    let named = match id {
        Some(id) => builtin(id).await,
        None => None,
    };
    let found = match named {
        Some(s) => Some(s),
        None => match paint("data-paint-ids") {
            Some(ids) => builtin(ids.split(' ').next().unwrap_or_default()).await,
            None => None,
        },
    };
    found.into_iter().collect()
}

/// Starts the player: the built-in it shows is fetched first (a file of the build), then the
/// player mounts over the page's placeholder, as the app does.
pub fn start() {
    wasm_bindgen_futures::spawn_local(async {
        let start = super::start::from_page();
        let catalog = Rc::new(needed(&start).await);
        yew::Renderer::<Player>::with_props(PlayerProps { start, catalog }).render();
    });
}

#[derive(Properties, PartialEq)]
pub struct PlayerProps {
    /// The page's address.
    pub start: Start,
    /// The built-ins it needs (`needed`).
    pub catalog: Rc<Vec<Scenario>>,
}

#[function_component(Player)]
pub fn player(p: &PlayerProps) -> Html {
    let lab = use_reducer(|| Session::open(&p.start, p.catalog.clone(), &Kit::PLAYER));
    super::fit::use_fitted_captions(true);
    let act = lab.dispatcher();
    use_keyboard(act.clone());
    use_playback(act.clone(), lab.playing, lab.frame);
    // The full app's link at this view, as the app's embed writes it (a scenario of one's own
    // by the `#s=` text it came in, `share::name_as_opened`): the scenario's part once per
    // scenario, the cursor and modes per render.
    let named = {
        let (catalog, hash) = (lab.catalog.clone(), p.start.hash.clone());
        use_memo(lab.scenario.clone(), move |s| {
            let own = share::pairs(hash.trim_start_matches('#')).find(|(k, _)| *k == "s").map_or("", |(_, v)| v);
            (share::name_as_opened(s, &catalog, own), super::start::page_base())
        })
    };
    let modes = share::Modes { embed: false, ..lab.modes() };
    let url = AttrValue::from(format!("{}{}", named.1, share::link(&named.0, lab.cursor_ms(), &modes)));
    let s = &lab.scenario;
    let props = TransportProps {
        playing: lab.playing,
        cursor: lab.cursor,
        duration_ms: lab.timeline.duration_ms,
        speed: lab.speed,
        act: act.clone(),
    };
    html! {
        <div class={classes!("app", "embed", "player", lab.lecture.then_some("lecture"), lab.reduced_motion.then_some("reduced-motion"), lab.future.then_some("future"), lab.outcome.then_some("whole"))}>
            if let Some(e) = &lab.link_error {
                {link_error(e, &act)}
            }
            <main aria-label={embed_name(s)}>
                // The page keeps its heading; the embed's is for screen readers.
                <h1 class="visually-hidden">{"Lock Lab"}</h1>
                <div class="stage">
                {one_run(&lab, &act, None)}
                {transport(&props)}
                </div>
                {open_full(url)}
            </main>
            if lab.help {
                {super::help::help(&act, false)}
            }
        </div>
    }
}
