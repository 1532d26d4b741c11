//! Side by side: the scenario on screen and its counterpart on another approach
//! (crate::compare), kept as one `Other` and re-derived from the edited scenario on every
//! re-simulation, so the switches and knobs apply to both sides by construction.

use std::rc::Rc;

use super::{Session, Shared};
use crate::compare;
use crate::lab::Run;
use crate::scenario::{Approach, Scenario};
use crate::text::Story;
use crate::timeline::Timeline;

/// The comparison's other side: its run, or why it could not be built.
#[derive(Debug)]
pub struct Other {
    pub with: Approach,
    pub run: Option<(Rc<Run>, Shared<Timeline>, Shared<Story>)>,
    pub summary: String,
    pub not_applicable: Vec<String>,
    pub notes: Vec<String>,
    /// Why there is no counterpart (the field path and what is wrong).
    pub error: Option<String>,
}

impl Other {
    pub fn timeline(&self) -> Option<&Timeline> {
        self.run.as_ref().map(|(_, t, _)| &**t)
    }
}

/// Derives and runs the counterpart of `s` on `with`. `left` is the run already on screen.
pub fn derive(s: &Scenario, left: &Run, with: Approach) -> Other {
    match compare::counterpart(s, with) {
        Ok(c) => {
            let run = super::simulate(&c.scenario);
            let summary = compare::difference(&left.verdict, &run.0.verdict);
            Other { with, run: Some(run), summary, not_applicable: c.not_applicable, notes: c.notes, error: None }
        }
        Err(e) => {
            Other { with, run: None, summary: String::new(), not_applicable: Vec::new(), notes: Vec::new(), error: Some(e.to_string()) }
        }
    }
}

/// The other side for the lab's current scenario, if compare mode is on and the approaches
/// differ (picking a scenario of the compared approach leaves compare mode).
pub fn refresh(lab: &Session, with: Option<Approach>) -> Option<Rc<Other>> {
    let with = with.filter(|&a| a != lab.scenario.approach)?;
    Some(Rc::new(derive(&lab.scenario, &lab.run, with)))
}
