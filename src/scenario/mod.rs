//! The scenario format, its validation with field-path errors, the built-in catalog, and
//! turning a scenario into a world.

pub mod build;
pub mod catalog;
pub mod embed;
pub(crate) mod error;
pub mod fault;
pub mod format;
pub(crate) mod json_path;
pub(crate) mod json_read;
pub mod limits;
pub mod lock_settings;
pub mod nodes;
pub(crate) mod read;
pub mod share;
pub(crate) mod strict_json;
pub mod validate;

pub use fault::FaultKind;
pub use format::{Approach, ClientSpec, Expect, FaultSpec, LockConfig, Outcome, Persistence, Scenario, Schedule};
pub use validate::{parse, ScenarioError};
