//! What is wrong with a scenario, and where: `faults[2].node: no node named "redis-9"`. Its
//! own file because the reader and the validator both make these.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    /// The field path, e.g. `faults[2].node`; empty for the document as a whole.
    pub path: String,
    pub message: String,
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for ScenarioError {}

pub(crate) fn err(path: impl Into<String>, message: impl Into<String>) -> ScenarioError {
    ScenarioError { path: path.into(), message: message.into() }
}

/// `{v}{unit} is out of range: must be {lo}..={hi}{unit}` at `path`, unless `v` is within.
pub(crate) fn range(path: &str, v: i64, lo: i64, hi: i64, unit: &str) -> Result<(), ScenarioError> {
    if v < lo || v > hi {
        return Err(err(path, format!("{v}{unit} is out of range: must be {lo}..={hi}{unit}")));
    }
    Ok(())
}
