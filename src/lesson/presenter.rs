//! A lesson being presented: which step shows, what the audience predicted, and whether the
//! answer has been revealed. Plain state with the moves a clicker and the choice keys make;
//! the screen (src/ui/lesson.rs) turns it into session actions.

use super::{Lesson, LessonStep};

#[derive(Clone, Debug, PartialEq)]
pub struct Presenter {
    pub lesson: Lesson,
    pub step: usize,
    /// The choice picked for this step's question (None: not yet).
    pub chosen: Option<usize>,
    /// Whether this step's question has been revealed.
    pub revealed: bool,
}

impl Presenter {
    /// At step `step` (clamped to the lesson's steps).
    pub fn new(lesson: Lesson, step: usize) -> Presenter {
        let step = step.min(lesson.steps.len().saturating_sub(1));
        Presenter { lesson, step, chosen: None, revealed: false }
    }

    pub fn current(&self) -> &LessonStep {
        &self.lesson.steps[self.step]
    }

    pub fn is_last(&self) -> bool {
        self.step + 1 >= self.lesson.steps.len()
    }

    /// To the next step; false at the last.
    pub fn next(&mut self) -> bool {
        self.go(self.step + 1)
    }

    /// To the previous step; false at the first.
    pub fn prev(&mut self) -> bool {
        self.step.checked_sub(1).is_some_and(|s| self.go(s))
    }

    /// To step `step`, with its question unanswered; false if there is no such step or it is
    /// the one showing.
    pub fn go(&mut self, step: usize) -> bool {
        if step >= self.lesson.steps.len() || step == self.step {
            return false;
        }
        *self = Presenter::new(self.lesson.clone(), step);
        true
    }

    /// Picks choice `i` of the question; false without a question, with no such choice, or
    /// once revealed (a prediction is made before the run shows).
    pub fn choose(&mut self, i: usize) -> bool {
        let ok = !self.revealed && self.current().question.as_ref().is_some_and(|q| i < q.choices.len());
        if ok {
            self.chosen = Some(i);
        }
        ok
    }

    /// Reveals the answer; false without a question or if already revealed.
    pub fn reveal(&mut self) -> bool {
        let ok = !self.revealed && self.current().question.is_some();
        self.revealed |= ok;
        ok
    }

    /// Once revealed with a choice made: whether the prediction held.
    pub fn held(&self) -> Option<bool> {
        let q = self.current().question.as_ref()?;
        if !self.revealed {
            return None;
        }
        self.chosen.map(|c| c == q.answer)
    }
}
