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
mod icons;
pub mod keys;
mod ledger;
mod legend;
mod lesson;
mod lesson_index;
mod painted;
mod picker;
mod playback;
pub mod player;
mod select;
mod share;
pub mod start;
pub mod state;
mod switches;
mod transport;
mod verdict;

pub use app::App;
