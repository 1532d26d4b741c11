//! Side by side: the scenario on screen and its counterpart on another approach
//! (crate::compare), or its run on real servers as recorded (crate::recorded), kept as one
//! `Other` and re-derived from the edited scenario on every re-simulation, so the switches and
//! knobs apply to both sides by construction (a recording is found again by the scenario's
//! fingerprint, or is not there).

use std::rc::Rc;

use super::{Session, Shared};
use crate::compare::{self, Against};
use crate::lab::{self, Run};
use crate::recorded::{self, Recording};
use crate::scenario::{Approach, Scenario};
use crate::text::Story;
use crate::timeline::Timeline;

/// The comparison's other side: its run, or why it could not be built.
#[derive(Debug)]
pub struct Other {
    pub with: Against,
    /// The approach its run is on (a recording's is the scenario's own).
    pub approach: Approach,
    /// What its heading and panels call it: "etcd", "real Redis 7.0.15".
    pub name: String,
    pub run: Option<(Rc<Run>, Shared<Timeline>, Shared<Story>)>,
    pub summary: String,
    pub not_applicable: Vec<String>,
    pub notes: Vec<String>,
    /// The recording drawn, for its when-and-on-what line.
    pub recording: Option<Rc<Recording>>,
    /// Why there is no counterpart (the field path and what is wrong).
    pub error: Option<String>,
}

impl Other {
    pub fn timeline(&self) -> Option<&Timeline> {
        self.run.as_ref().map(|(_, t, _)| &**t)
    }

    fn missing(with: Against, approach: Approach, name: String, error: String) -> Other {
        let (summary, not_applicable, notes) = (String::new(), Vec::new(), Vec::new());
        Other { with, approach, name, run: None, summary, not_applicable, notes, recording: None, error: Some(error) }
    }
}

/// Derives and runs the counterpart of `s` on `with`. `left` is the run already on screen.
pub fn derive(s: &Scenario, left: &Run, with: Approach) -> Other {
    let (against, name) = (Against::Approach(with), compare::short_name(with).to_string());
    match compare::counterpart(s, with) {
        Ok(c) => {
            let run = super::simulate(&c.scenario);
            let summary = compare::difference(&left.verdict, &run.0.verdict);
            let (not_applicable, notes) = (c.not_applicable, c.notes);
            Other { with: against, approach: with, name, run: Some(run), summary, not_applicable, notes, recording: None, error: None }
        }
        Err(e) => Other::missing(against, with, name, e.to_string()),
    }
}

/// The recorded real run of `s` (exactly `s`: `lab.recording` was found by its fingerprint),
/// drawn and judged as the simulation is; or why there is none.
pub fn recorded(lab: &Session) -> Other {
    let s = &*lab.scenario;
    let Some(r) = lab.recording.clone() else {
        let why = if recorded::of_id(&s.id) {
            "its recordings are of the built-in as shipped, fencing off and on: this run has been changed since"
        } else {
            "no real run of this scenario was recorded"
        };
        return Other::missing(Against::Recorded, s.approach, "real".into(), format!("{why} (scripts/record-real.sh records them)"));
    };
    let run = super::present(lab::of_trace(s, r.trace.clone()));
    let summary = recorded::agreement(&lab.run.verdict, &run.0.verdict);
    let (not_applicable, notes) = (Vec::new(), Vec::new());
    Other {
        with: Against::Recorded,
        approach: s.approach,
        name: format!("real {}", r.server),
        run: Some(run),
        summary,
        not_applicable,
        notes,
        recording: Some(r),
        error: None,
    }
}

/// The other side for the lab's current scenario, if compare mode is on and the approaches
/// differ (picking a scenario of the compared approach leaves compare mode).
pub fn refresh(lab: &Session, with: Option<Against>) -> Option<Rc<Other>> {
    Some(Rc::new(match with? {
        Against::Approach(a) if a == lab.scenario.approach => return None,
        Against::Approach(a) => derive(&lab.scenario, &lab.run, a),
        Against::Recorded => recorded(lab),
    }))
}
