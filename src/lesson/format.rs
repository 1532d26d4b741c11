//! The lesson's shape once read, and the one thing every step needs from its run: the
//! millisecond (and event) its cursor stands on.

use super::blocks::Blocks;
use crate::lab::{self, Run};
use crate::scenario::{catalog, Scenario};
use crate::session::{still_view, CaptionView};
use crate::text::Story;
use crate::timeline::{KeyKind, KeyMoment, Timeline, WriteResult};

#[derive(Clone, Debug, PartialEq)]
pub struct Lesson {
    pub version: u32,
    pub id: String,
    pub title: String,
    /// What a student should be able to say afterwards (docs/TEACHING.md lists them); may be
    /// empty.
    pub aims: Vec<String>,
    pub steps: Vec<LessonStep>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StepScenario {
    Builtin(String),
    Inline(Box<Scenario>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct LessonStep {
    pub scenario: StepScenario,
    /// None: as the scenario says.
    pub fencing: Option<bool>,
    pub safe_unlock: Option<bool>,
    pub at: At,
    pub text: String,
    pub question: Option<Question>,
    /// The closing table's rows: the steps whose runs it compares (see `table`).
    pub table: Vec<usize>,
    /// Shown as a slide: its text (and table) fill the stage, with no diagram under them.
    pub slide: bool,
    /// What it shows under its text: a list, definitions, code, a figure (`blocks`).
    pub blocks: Blocks,
}

impl LessonStep {
    /// Whether the step is a slide: marked so, a closing table (a table over a shrunken
    /// diagram could be read from neither), or a figure (a second diagram needs the stage's
    /// width: beside the step's own it would be a third of its size).
    pub fn is_slide(&self) -> bool {
        self.slide || !self.table.is_empty() || self.blocks.figure.is_some()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Question {
    pub prompt: String,
    pub choices: Vec<String>,
    pub answer: usize,
    pub reveal_at: At,
    /// The facts the answer tells, as words ("expires early", "no token"): while the question
    /// is asked, its screen must not show them (`fair::spoilers`).
    pub reveals: Vec<String>,
}

/// Where a cursor stands: a millisecond of true time, or the first key moment of a kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum At {
    Ms(i64),
    Moment(Moment),
}

/// The key moments a step can name: `start` and `end` of the run, and the kinds of the
/// timeline's key moments (`timeline::KeyKind`), the first of which is meant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moment {
    Start,
    End,
    Key(KeyKind),
}

impl Moment {
    /// Every name, in the order the docs list them.
    pub const NAMES: &'static [(&'static str, Moment)] = &[
        ("start", Moment::Start),
        ("grant", Moment::Key(KeyKind::Grant)),
        ("takeover", Moment::Key(KeyKind::Takeover)),
        ("pause", Moment::Key(KeyKind::Paused)),
        ("resume", Moment::Key(KeyKind::Resumed)),
        ("expiry", Moment::Key(KeyKind::LeaseExpired)),
        ("session_expiry", Moment::Key(KeyKind::SessionExpired)),
        ("lease_deleted", Moment::Key(KeyKind::LeaseDeleted)),
        ("belief_lost", Moment::Key(KeyKind::BeliefLost)),
        ("write", Moment::Key(KeyKind::Write(WriteResult::Accepted))),
        ("rejected_write", Moment::Key(KeyKind::Write(WriteResult::Rejected))),
        ("stale_write", Moment::Key(KeyKind::Write(WriteResult::StaleAccepted))),
        ("crash", Moment::Key(KeyKind::Crashed)),
        ("restart", Moment::Key(KeyKind::Restarted)),
        ("state_lost", Moment::Key(KeyKind::StateLost)),
        ("clock", Moment::Key(KeyKind::ClockChanged)),
        ("partition", Moment::Key(KeyKind::Partition)),
        ("heal", Moment::Key(KeyKind::Healed)),
        ("leader_change", Moment::Key(KeyKind::LeaderChanged)),
        ("end", Moment::End),
    ];

    pub fn name(self) -> &'static str {
        Moment::NAMES.iter().find(|(_, m)| *m == self).map_or("?", |(n, _)| n)
    }
}

impl At {
    pub fn describe(self) -> String {
        match self {
            At::Ms(ms) => format!("{ms} ms"),
            At::Moment(m) => m.name().to_string(),
        }
    }
}

/// Where a step's cursor lands in its run: the millisecond, and the key moment's event to
/// focus (None for a plain millisecond, `start` and `end`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cursor {
    pub ms: i64,
    pub event: Option<usize>,
}

impl LessonStep {
    /// The scenario this step runs, switches applied. None only for an unknown built-in id,
    /// which the reader refuses.
    pub fn scenario(&self) -> Option<Scenario> {
        let s = match &self.scenario {
            StepScenario::Builtin(id) => catalog::get(id)?,
            StepScenario::Inline(s) => (**s).clone(),
        };
        Some(switched(s, self.fencing, self.safe_unlock))
    }

    /// The step's run (its scenario with its switches).
    pub fn run(&self) -> Option<Run> {
        self.scenario().map(|s| lab::run(&s))
    }
}

/// Where `at` stands in a run drawn as `timeline`; None when the run has no such moment.
pub fn locate(at: At, timeline: &Timeline) -> Option<Cursor> {
    match at {
        At::Ms(ms) => Some(Cursor { ms: ms.clamp(0, timeline.duration_ms), event: None }),
        At::Moment(Moment::Start) => Some(Cursor { ms: 0, event: None }),
        At::Moment(Moment::End) => Some(Cursor { ms: timeline.duration_ms, event: None }),
        At::Moment(Moment::Key(kind)) => first(&timeline.key_moments, kind).map(|k| Cursor { ms: k.at, event: Some(k.event) }),
    }
}

fn first(moments: &[KeyMoment], kind: KeyKind) -> Option<&KeyMoment> {
    moments.iter().find(|k| k.kind == kind)
}

/// The caption the app shows with the cursor stopped at `cursor` in `run` (drawn as
/// `timeline`): an event's, or the verdict at the run's end; None where it shows none (the
/// start, a quiet stretch). The fairness check reads the asking screen with it, a figure's
/// caption is it.
pub fn caption_at(run: &Run, timeline: &Timeline, cursor: Cursor) -> Option<String> {
    let story = Story::of_run(run);
    match still_view(timeline, &run.trace, cursor.ms, cursor.event) {
        CaptionView::Event(i) => Some(crate::text::caption(&run.trace, run.scenario.approach, &story, i)),
        CaptionView::Outcome => Some(crate::text::verdict::sentence(&run.verdict)),
        CaptionView::Start | CaptionView::Quiet { .. } => None,
    }
}

/// A scenario with a step's or a figure's switches set, where they say.
pub(crate) fn switched(mut s: Scenario, fencing: Option<bool>, safe_unlock: Option<bool>) -> Scenario {
    if let Some(f) = fencing {
        s.storage.fencing = f;
    }
    if let Some(u) = safe_unlock {
        s.lock.safe_unlock = u;
    }
    s
}
