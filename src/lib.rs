//! Lock Lab: distributed locks, simulated deterministically and explained.
//!
//! Layers (see ../shared/DESIGN.md): `sim` → `protocols` → `scenario` / `check` → `lab` →
//! `narrate` / `timeline` → `ui` (browser only).

pub mod sim;
pub mod protocols;
pub mod scenario;
pub mod check;
pub mod lab;
pub mod narrate;
