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
    /// The faults the row's run strikes after the furthest moment its step showed (its cursor,
    /// or its question's answer) and before the run's first stale write, in words ("pause A
    /// for 40 s at 16 s"): what decides the cells that the room never saw in that step. Empty
    /// when the step shows the story the cells tell.
    pub beyond: Vec<String>,
}

impl Row {
    /// The slide's note for a row whose cells rest on faults its step never showed: the cells
    /// are the whole run's, and the room must not read them as the step's (issue 36: the
    /// Redisson row's "update lost" right after its step showed the watchdog saving A).
    pub fn note(&self) -> Option<String> {
        (!self.beyond.is_empty()).then(|| {
            format!(
                "{}, step {}: the row's run goes on past what the step showed, to {}.",
                self.approach.label(),
                self.step + 1,
                self.beyond.join(", then ")
            )
        })
    }
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
    let s = lesson.steps.get(step)?;
    let scenario = s.scenario()?;
    // Full runs rather than `lab::judge`: the browser already has that code, and the step's
    // own run (its scenario's fencing) is one of the two, for `shown_until`.
    let runs = [false, true].map(|fencing| lab::run(&lab::with_fencing(&scenario, fencing)));
    let verdicts = [&runs[0].verdict, &runs[1].verdict];
    let outcome = |v: &crate::check::Verdict| Outcome {
        safe: v.safe,
        stale_accepted: v.stale_writes_accepted,
        stale_rejected: v.stale_writes_rejected,
    };
    let first_stale = verdicts.iter().flat_map(|v| v.writes.iter().filter(|w| w.stale).map(|w| w.at_ms)).min();
    let shown = shown_until(s, &runs[usize::from(scenario.storage.fencing)]);
    let beyond = match (first_stale, shown) {
        (Some(stale), Some(shown)) if stale > shown => {
            scenario.faults.iter().filter(|f| (shown + 1..stale).contains(&f.at_ms())).map(crate::scenario::fault::words).collect()
        }
        _ => Vec::new(),
    };
    Some(Row {
        step,
        approach: scenario.approach,
        title: scenario.title.clone(),
        has_token: scenario.approach.spec().token != crate::protocols::spec::TokenKind::None,
        fencing_off: outcome(verdicts[0]),
        fencing_on: outcome(verdicts[1]),
        beyond,
    })
}

/// The furthest millisecond step `s` shows of its own run (`own`): its cursor, or its
/// answer's moment.
fn shown_until(s: &super::LessonStep, own: &lab::Run) -> Option<i64> {
    let timeline = crate::timeline::Timeline::of_run(own);
    let at = super::locate(s.at, &timeline)?.ms;
    let reveal = s.question.as_ref().and_then(|q| super::locate(q.reveal_at, &timeline)).map_or(at, |c| c.ms);
    Some(at.max(reveal))
}

/// The seed's table measured for a closing table's approaches: each approach's row of
/// `explore::table::plan()` (its base, mix, N and seed), fencing off and on: the searches the
/// CLI's `explore --table` and the Explore panel's table run, so the numbers are theirs. Run
/// on the lecture stage in slices (`Measured::step`), as the panel runs its table.
pub struct Measured {
    pub plans: Vec<crate::explore::table::Plan>,
    pub cells: Vec<crate::explore::table::CellSearch>,
    turn: usize,
}

impl Measured {
    /// For the approaches of `rows`, each once, in their order; every cell's first `runs`
    /// schedules instead of the plan's N when given.
    pub fn new(rows: &[Row], runs: Option<u64>) -> Measured {
        let mut plans: Vec<crate::explore::table::Plan> = Vec::new();
        for r in rows {
            if !plans.iter().any(|p| p.row.id == r.approach.id()) {
                plans.extend(crate::explore::table::plan().into_iter().find(|p| p.row.id == r.approach.id()));
            }
        }
        let cells = crate::explore::table::planned_searches(&plans, runs).expect("the plan's mixes are valid");
        Measured { plans, cells, turn: 0 }
    }

    pub fn done(&self) -> bool {
        self.cells.iter().all(|c| c.explorer.progress().done())
    }

    /// Runs schedules, one cell after another so that they fill together, while `more()`.
    pub fn step(&mut self, more: &mut dyn FnMut() -> bool) {
        let n = self.cells.len();
        while n > 0 && !self.done() && more() {
            let e = &mut self.cells[self.turn % n].explorer;
            self.turn = (self.turn + 1) % n;
            if !e.progress().done() {
                e.run_batch(1);
            }
        }
    }

    /// The plan and the progress of `approach`'s cell with fencing `fencing`.
    pub fn cell(&self, approach: Approach, fencing: bool) -> Option<(&crate::explore::table::Plan, crate::explore::Progress)> {
        let plan = self.plans.iter().find(|p| p.row.id == approach.id())?;
        let c = self.cells.iter().find(|c| c.row == plan.row.id && c.fencing == fencing)?;
        Some((plan, c.explorer.progress()))
    }

    /// A cell in words, as counts of its runs: "23 of 2,000 lost · 320 tokens again".
    pub fn words(p: &crate::explore::Progress) -> String {
        use crate::timeline::draw::words::thousands;
        let mut out = format!("{} of {} lost", thousands(p.counts.lost_update as usize), thousands(p.runs as usize));
        if p.token_repeats > 0 {
            out += &format!(" · {} token{} again", thousands(p.token_repeats as usize), if p.token_repeats == 1 { "" } else { "s" });
        }
        out
    }
}
