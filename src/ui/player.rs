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

/// Starts the player: what the address needs from the build's data folder first (its own
/// built-in's file: `library::before_start`, as the app does; the catalog is never in the
/// player's wasm), then the player mounts over the page's placeholder, as the app does.
pub fn start() {
    wasm_bindgen_futures::spawn_local(async {
        let start = super::start::from_page();
        match super::library::before_start(&start).await {
            Ok(()) => {
                let catalog = Rc::new(crate::scenario::catalog::all());
                yew::Renderer::<Player>::with_props(PlayerProps { start, catalog }).render();
            }
            Err(why) => super::library::cannot_start(&why),
        }
    });
}

#[derive(Properties, PartialEq)]
pub struct PlayerProps {
    /// The page's address.
    pub start: Start,
    /// The built-ins it has: the one the address shows (`library::before_start`).
    pub catalog: Rc<Vec<Scenario>>,
}

#[function_component(Player)]
pub fn player(p: &PlayerProps) -> Html {
    let lab = use_reducer(|| Session::open(&p.start, p.catalog.clone(), &Kit::PLAYER));
    super::fit::use_fitted_captions(true);
    let act = lab.dispatcher();
    use_keyboard(act.clone());
    use_playback(act.clone(), lab.playing, lab.frame);
    super::theme::use_theme(lab.theme_shown());
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
