//! The closing table of a lesson: one row per step it names, each row what that step's
//! scenario does with fencing off and on. Computed from the runs, so the table cannot claim
//! what the simulator does not show.

use super::Lesson;
use crate::lab;
use crate::scenario::Approach;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The step this row links to.
    pub step: usize,
    pub approach: Approach,
    pub title: String,
    /// Whether the approach hands out fencing tokens at all (Redlock does not).
    pub has_token: bool,
    pub fencing_off: Outcome,
    pub fencing_on: Outcome,
}

/// What a run came to, as one cell says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub safe: bool,
    pub stale_accepted: u32,
    pub stale_rejected: u32,
}

impl Outcome {
    pub fn text(self) -> &'static str {
        match (self.safe, self.stale_rejected > 0) {
            (true, true) => "safe: stale write rejected",
            (true, false) => "safe",
            (false, _) => "update lost",
        }
    }
}

/// The rows of step `step`'s table (empty if it has none).
pub fn rows(lesson: &Lesson, step: usize) -> Vec<Row> {
    let Some(s) = lesson.steps.get(step) else { return Vec::new() };
    s.table.iter().filter_map(|&i| row(lesson, i)).collect()
}

fn row(lesson: &Lesson, step: usize) -> Option<Row> {
    let scenario = lesson.steps.get(step)?.scenario()?;
    let outcome = |fencing: bool| {
        // A full run rather than `lab::judge`: the browser already has that code.
        let v = lab::run(&lab::with_fencing(&scenario, fencing)).verdict;
        Outcome { safe: v.safe, stale_accepted: v.stale_writes_accepted, stale_rejected: v.stale_writes_rejected }
    };
    Some(Row {
        step,
        approach: scenario.approach,
        title: scenario.title.clone(),
        has_token: scenario.approach.spec().token != crate::protocols::spec::TokenKind::None,
        fencing_off: outcome(false),
        fencing_on: outcome(true),
    })
}
