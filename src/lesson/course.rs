//! The course: the built-in lessons in order, each with its length as the lesson index shows
//! it (steps, questions, minutes). The minutes are an estimate computed from the lesson's
//! own data, so a longer text or another question lengthens it without anyone editing a number.
//! The order is src/lesson/builtin.rs's: the first course (`leases` … `clocks`), then the second,
//! `in-the-wild` (the locks people run today and a real outage, issue 24) and `is-redlock-safe`
//! (the Redlock debate staged with client variants, and a Jepsen-style rate, issue 37).

use super::{builtin, Lesson};

/// A lecturer's speaking pace, in words a minute (a slow, clear delivery to a room).
const WORDS_PER_MINUTE: usize = 130;
/// Seconds a step's diagram holds the room beyond its words: pointing, playing, stepping.
const SECONDS_PER_STEP: usize = 30;
/// Seconds a question takes: the room predicts, hands go up, the reveal plays.
const SECONDS_PER_QUESTION: usize = 60;

/// One lesson's line in the index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub id: String,
    pub title: String,
    pub steps: usize,
    pub questions: usize,
    pub minutes: usize,
}

/// Every built-in lesson, in course order.
pub fn index() -> Vec<Entry> {
    builtin::all().iter().map(entry).collect()
}

/// A lesson's line: its counts and its estimated minutes.
pub fn entry(lesson: &Lesson) -> Entry {
    let steps = lesson.steps.len();
    let questions = lesson.steps.iter().filter(|s| s.question.is_some()).count();
    Entry { id: lesson.id.clone(), title: lesson.title.clone(), steps, questions, minutes: minutes(lesson) }
}

/// Spoken words at `WORDS_PER_MINUTE`, plus each step's and each question's time, in whole
/// minutes rounded up.
pub fn minutes(lesson: &Lesson) -> usize {
    let words: usize = lesson
        .steps
        .iter()
        .map(|s| {
            let q = s.question.iter().flat_map(|q| std::iter::once(&q.prompt).chain(&q.choices));
            std::iter::once(&s.text).chain(q).map(|t| t.split_whitespace().count()).sum::<usize>()
        })
        .sum();
    let questions = lesson.steps.iter().filter(|s| s.question.is_some()).count();
    let seconds = words * 60 / WORDS_PER_MINUTE + lesson.steps.len() * SECONDS_PER_STEP + questions * SECONDS_PER_QUESTION;
    seconds.div_ceil(60)
}

impl Entry {
    /// "10 steps · 5 questions · 14 min", as the index says it.
    pub fn length(&self) -> String {
        let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
        format!("{} · {} · {} min", plural(self.steps, "step"), plural(self.questions, "question"), self.minutes)
    }
}
