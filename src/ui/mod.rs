//! The browser UI (Yew). It renders a pure function of (trace, cursor, view options): the
//! components own nothing but view state, and every toggle re-simulates (docs/ARCHITECTURE.md).

mod app;
mod caption;
pub mod compare;
pub mod diagram;
mod editor;
mod embed;
mod explore;
mod export;
mod fit;
mod help;
mod history;
mod icons;
pub mod keys;
mod ledger;
mod legend;
mod lesson;
mod lesson_index;
pub mod library;
mod outline;
mod painted;
mod picker;
mod playback;
pub mod player;
mod room;
mod select;
mod share;
pub mod start;
pub mod state;
mod switches;
mod theme;
mod transport;
mod verdict;

pub use app::App;

/// The page's start: what its address needs from the data folder (`library::before_start`),
/// then the app mounted; what cannot load is said in the loading line instead.
pub fn start() {
    wasm_bindgen_futures::spawn_local(async {
        match library::before_start(&start::from_page()).await {
            Ok(()) => {
                yew::Renderer::<App>::new().render();
            }
            Err(why) => library::cannot_start(&why),
        }
    });
}
