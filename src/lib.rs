//! Lock Lab: distributed locks, simulated deterministically and explained.
//!
//! Layers (see docs/ARCHITECTURE.md): `sim` → `protocols` → `scenario` / `check` → `lab` →
//! `timeline` → `text` → `session` → `lesson` / `authoring` (the lesson's and the editor's
//! models, which drive a session) → `ui` (browser only). `param` (a field's description) sits
//! under `protocols` and `scenario`, beside `sim`.

pub mod authoring;
pub mod bench;
pub mod check;
pub mod compare;
pub mod decimal;
pub mod explore;
pub mod history;
pub mod lab;
pub mod lesson;
pub mod library;
pub mod param;
pub mod protocols;
pub mod recorded;
pub mod scenario;
pub mod session;
pub mod shelf;
pub mod sim;
pub mod sort;
pub mod text;
pub mod theme;
pub mod timeline;
#[cfg(target_arch = "wasm32")]
pub mod ui;
pub mod vec_map;
