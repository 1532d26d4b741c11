//! Lock Lab: distributed locks, simulated deterministically and explained.
//!
//! Layers (see ../shared/DESIGN.md): `sim` → `protocols` → `scenario` / `check` → `lab` →
//! `narrate` / `timeline` → `ui` (browser only).

pub mod authoring;
pub mod bench;
pub mod check;
pub mod compare;
pub mod decimal;
pub mod explore;
pub mod lab;
pub mod narrate;
pub mod protocols;
pub mod scenario;
pub mod sim;
pub mod sort;
pub mod timeline;
#[cfg(target_arch = "wasm32")]
pub mod ui;
pub mod vec_map;
