//! A lesson being presented: which step shows, the room's hands on each question, and whether
//! its answer has been revealed. Plain state with the moves a clicker and the choice keys make;
//! the lesson player (`player.rs`) turns it into session actions, and src/ui/lesson.rs draws it.

use super::{Lesson, LessonStep};

#[derive(Clone, Debug, PartialEq)]
pub struct Presenter {
    pub lesson: Lesson,
    pub step: usize,
    /// Each step's question as the room answered it. Kept while the lesson is open: going back
    /// a step (PageUp) and forward again finds the class's answer where it was.
    answers: Vec<Answer>,
}

/// The room's answer to one step's question.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Answer {
    /// Hands raised for each choice (a press of 1–4 or a click adds one).
    pub hands: Vec<u32>,
    /// The room's votes for each choice (`locklab room`, docs/ROOM.md): phones' hands, counted
    /// with the raised ones. The room sends its whole count, so this is replaced, not added to.
    pub room: Vec<u32>,
    pub revealed: bool,
}

impl Presenter {
    /// At step `step` (clamped to the lesson's steps), no question answered yet.
    pub fn new(lesson: Lesson, step: usize) -> Presenter {
        let step = step.min(lesson.steps.len().saturating_sub(1));
        let answers = lesson
            .steps
            .iter()
            .map(|s| {
                let n = s.question.as_ref().map_or(0, |q| q.choices.len());
                Answer { hands: vec![0; n], room: vec![0; n], revealed: false }
            })
            .collect();
        Presenter { lesson, step, answers }
    }

    pub fn current(&self) -> &LessonStep {
        &self.lesson.steps[self.step]
    }

    fn answer(&self) -> &Answer {
        &self.answers[self.step]
    }

    /// Whether this step's question has been revealed.
    pub fn revealed(&self) -> bool {
        self.answer().revealed
    }

    /// This step's hands, one count per choice: those raised in the hall and the room's votes.
    pub fn hands(&self) -> Vec<u32> {
        let a = self.answer();
        a.hands.iter().zip(&a.room).map(|(h, r)| h + r).collect()
    }

    /// The choice most hands went up for; None with no hands or a tie at the top.
    pub fn majority(&self) -> Option<usize> {
        let hands = self.hands();
        let top = hands.iter().copied().max().filter(|&m| m > 0)?;
        let mut at = hands.iter().enumerate().filter(|(_, &h)| h == top).map(|(i, _)| i);
        let first = at.next();
        at.next().is_none().then_some(first).flatten()
    }

    pub fn is_last(&self) -> bool {
        self.step + 1 >= self.lesson.steps.len()
    }

    /// To the next step; false at the last.
    // Not an iterator's `next`: a move between steps, the pair of `prev` and a short hand for
    // `go`, that reports whether it moved and yields nothing (the lint asks for `Iterator`).
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> bool {
        self.go(self.step + 1)
    }

    /// To the previous step; false at the first.
    pub fn prev(&mut self) -> bool {
        self.step.checked_sub(1).is_some_and(|s| self.go(s))
    }

    /// To step `step`, its question as the room left it; false if there is no such step or
    /// it is the one showing.
    pub fn go(&mut self, step: usize) -> bool {
        if step >= self.lesson.steps.len() || step == self.step {
            return false;
        }
        self.step = step;
        true
    }

    /// Raises a hand for choice `i`; false without a question, with no such choice, or once
    /// revealed (a prediction is made before the run shows).
    pub fn choose(&mut self, i: usize) -> bool {
        let a = &mut self.answers[self.step];
        let ok = !a.revealed && i < a.hands.len();
        if ok {
            a.hands[i] += 1;
        }
        ok
    }

    /// The room's votes for this step's question, one count per choice in the order `choose`
    /// takes; false (nothing changes) once revealed, for a count of another length, or the same.
    pub fn room_votes(&mut self, votes: &[u32]) -> bool {
        let a = &mut self.answers[self.step];
        let ok = !a.revealed && votes.len() == a.room.len() && a.room != votes;
        if ok {
            a.room = votes.to_vec();
        }
        ok
    }

    /// Reveals the answer; false without a question or if already revealed.
    pub fn reveal(&mut self) -> bool {
        let ok = !self.revealed() && self.current().question.is_some();
        self.answers[self.step].revealed |= ok;
        ok
    }

    /// Once revealed: whether the room's majority was right (None without a majority).
    pub fn held(&self) -> Option<bool> {
        let q = self.current().question.as_ref()?;
        if !self.revealed() {
            return None;
        }
        self.majority().map(|c| c == q.answer)
    }
}
