//! Whether a lesson's questions are fair (issue 36, item 1): a room must not be able to read
//! the answer off the choices' places, nor off the screen the question is asked on.
//!
//! Choices show in the order the file writes them (docs/LESSON_FORMAT.md, "Fair questions"),
//! so the balance of right-answer positions is the author's, and this is where it is counted:
//! across the course no position may hold more than `MAX_POSITION_PERCENT` of the answers.
//!
//! A question declares the facts its answer tells (`reveals`: "expires early", "no token").
//! The asking screen is computed with the code that draws it: the caption the session shows
//! with the cursor stopped at the step's moment (`session::still_view`, `text::caption`),
//! every label of the exported figure at that moment (`timeline::draw::export`, the app's
//! diagram drawn by the same scene code) at both lecture widths, and the step's own text. A
//! fact found there is a spoiler, and `locklab lesson check` refuses the lesson.

use super::limits::MAX_CHOICES;
use super::{caption_at, locate, At, Lesson, LessonStep};
use crate::theme::Theme;
use crate::timeline::draw::{export, Geometry};
use crate::timeline::Timeline;

/// The most any one choice position may hold of a course's right answers, in percent.
pub const MAX_POSITION_PERCENT: usize = 40;

/// A right choice longer than this share of the longest wrong one gives itself away (the
/// explained answer among bare ones), in percent.
pub const LONG_ANSWER_PERCENT: usize = 130;

/// The stage widths the labels are laid out at: a wider stage places more of them.
const WIDTHS: [f64; 2] = [1280.0, 1920.0];

/// A lesson's questions as a room could game them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Audit {
    pub id: String,
    /// Each question's number of choices, in step order.
    pub choices: Vec<usize>,
    /// How many right answers stand at each position (index 0: the first choice shown).
    pub positions: [usize; MAX_CHOICES],
    pub spoilers: Vec<Spoiler>,
    /// Declared facts the reveal never shows (step, fact): a fact must be on the answer's
    /// screen or in the right choice, or it is no fact of the answer.
    pub unshown: Vec<(usize, usize)>,
    /// Steps whose right choice is the long one: more than `LONG_ANSWER_PERCENT` of the longest
    /// wrong one's characters.
    pub long_answers: Vec<usize>,
}

/// A fact a question's answer tells, shown on the screen that asks it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spoiler {
    pub step: usize,
    /// Which of the question's `reveals`.
    pub fact: usize,
    pub words: String,
    /// Where it shows: "caption", "label" or "text", and that text.
    pub place: &'static str,
    pub shown: String,
}

impl Spoiler {
    /// The checker's error, at the fact's field path.
    pub fn message(&self) -> String {
        format!(
            "steps[{}].question.reveals[{}]: \"{}\" shows on the screen that asks the question, in its {}: \"{}\"; ask at an earlier moment, or say it in the reveal",
            self.step, self.fact, self.words, self.place, self.shown
        )
    }
}

/// What the screen shows while `step`'s question is asked (the cursor stopped at its `at`):
/// each text with where it is ("caption", "label", "text").
pub fn asking_screen(step: &LessonStep) -> Vec<(&'static str, String)> {
    let mut out = vec![("text", step.text.clone())];
    out.extend(step.blocks.words().into_iter().map(|w| ("text", w)));
    out.extend(screen(step, step.at));
    out
}

/// What the screen shows once `step`'s question is answered: the run stopped at `reveal_at`,
/// and the right choice.
pub fn answer_screen(step: &LessonStep) -> Vec<(&'static str, String)> {
    let Some(q) = &step.question else { return Vec::new() };
    let mut out = vec![("answer", q.choices[q.answer].clone())];
    out.extend(screen(step, q.reveal_at));
    out
}

/// The caption and the diagram's labels of `step`'s run stopped at `at`.
fn screen(step: &LessonStep, at: At) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    let Some(run) = step.run() else { return out };
    let timeline = Timeline::of_run(&run);
    let Some(cursor) = locate(at, &timeline) else { return out };
    out.extend(caption_at(&run, &timeline, cursor).map(|c| ("caption", c)));
    for width in WIDTHS {
        let figure = export::figure_in(&run, &timeline, cursor.ms, &Geometry::new(&timeline, width, true), Theme::Projector, "");
        for label in texts(&figure) {
            if !out.iter().any(|(_, t)| *t == label) {
                out.push(("label", label));
            }
        }
    }
    out
}

/// The words of every `<text>` element of an SVG (its tspans joined), unescaped: what a
/// viewer reads, not the tooltips (`<title>`), which show only on hover.
fn texts(svg: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = svg;
    while let Some(open) = rest.find("<text") {
        let after = &rest[open..];
        let (Some(start), Some(end)) = (after.find('>'), after.find("</text>")) else { break };
        if start < end {
            out.push(unescape(&strip_tags(&after[start + 1..end])));
        }
        rest = &after[end + "</text>".len()..];
    }
    out
}

fn strip_tags(s: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for c in s.chars() {
        match c {
            '<' => inside = true,
            '>' => {
                inside = false;
                out.push(' ');
            }
            c if !inside => out.push(c),
            _ => {}
        }
    }
    out
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&amp;", "&")
}

/// Words compared as a reader sees them: case and spacing aside.
fn normal(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}

/// The facts of `step`'s question that its asking screen shows.
pub fn spoilers(index: usize, step: &LessonStep) -> Vec<Spoiler> {
    let Some(q) = &step.question else { return Vec::new() };
    let screen = asking_screen(step);
    let mut out = Vec::new();
    for (f, fact) in q.reveals.iter().enumerate() {
        let words = normal(fact);
        if let Some((place, shown)) = screen.iter().find(|(_, t)| normal(t).contains(&words)) {
            out.push(Spoiler { step: index, fact: f, words: fact.clone(), place, shown: shown.clone() });
        }
    }
    out
}

/// The facts of `step`'s question (their indices) that its answer's screen does not show.
pub fn unshown(step: &LessonStep) -> Vec<usize> {
    let Some(q) = &step.question else { return Vec::new() };
    let screen: Vec<String> = answer_screen(step).iter().map(|(_, t)| normal(t)).collect();
    (0..q.reveals.len()).filter(|&f| !screen.iter().any(|t| t.contains(&normal(&q.reveals[f])))).collect()
}

/// Whether a question's right choice is the long one among its choices.
pub fn long_answer(q: &super::Question) -> bool {
    let len = |s: &String| s.chars().count();
    let longest_wrong = q.choices.iter().enumerate().filter(|&(i, _)| i != q.answer).map(|(_, c)| len(c)).max().unwrap_or(0);
    len(&q.choices[q.answer]) * 100 > longest_wrong * LONG_ANSWER_PERCENT
}

/// A lesson's questions counted and checked.
pub fn audit(lesson: &Lesson) -> Audit {
    let mut a = Audit {
        id: lesson.id.clone(),
        choices: Vec::new(),
        positions: [0; MAX_CHOICES],
        spoilers: Vec::new(),
        unshown: Vec::new(),
        long_answers: Vec::new(),
    };
    for (i, step) in lesson.steps.iter().enumerate() {
        let Some(q) = &step.question else { continue };
        a.choices.push(q.choices.len());
        a.positions[q.answer] += 1;
        a.spoilers.extend(spoilers(i, step));
        a.unshown.extend(unshown(step).into_iter().map(|f| (i, f)));
        if long_answer(q) {
            a.long_answers.push(i);
        }
    }
    a
}

impl Audit {
    /// The first reason to refuse the lesson, as the checker's error (None: fair).
    pub fn refusal(&self) -> Option<String> {
        if let Some(s) = self.spoilers.first() {
            return Some(s.message());
        }
        if let Some(&(step, fact)) = self.unshown.first() {
            return Some(format!(
                "steps[{step}].question.reveals[{fact}]: not on the answer's screen (its caption, its labels or the right choice): a fact the reveal does not tell"
            ));
        }
        self.long_answers.first().map(|step| {
            format!("steps[{step}].question.answer: the right choice is more than {LONG_ANSWER_PERCENT}% of the longest wrong one's length: a room picks the long, explained choice")
        })
    }
}

/// The course's right answers by position: the sum of the lessons'.
pub fn course_positions(audits: &[Audit]) -> [usize; MAX_CHOICES] {
    let mut sum = [0; MAX_CHOICES];
    for a in audits {
        for (s, n) in sum.iter_mut().zip(a.positions) {
            *s += n;
        }
    }
    sum
}

/// The position that holds more than `MAX_POSITION_PERCENT` of the course's answers, if one
/// does: (its index, its count, the questions).
pub fn crowded(audits: &[Audit]) -> Option<(usize, usize, usize)> {
    let sum = course_positions(audits);
    let total: usize = sum.iter().sum();
    sum.iter().enumerate().find(|(_, &n)| n * 100 > total * MAX_POSITION_PERCENT).map(|(i, &n)| (i, n, total))
}

/// The audits as a Markdown table, a line per lesson and one for the course: its questions,
/// each question's choices, how many right answers stand first, second…, its spoilers and the
/// steps whose right choice is the long one.
pub fn table(audits: &[Audit]) -> String {
    let mut out = String::from(
        "| lesson | questions | choices per question | right answer at 1 / 2 / 3 / 4 | spoilers | long right choice |\n|---|---|---|---|---|---|\n",
    );
    let join = |v: Vec<String>, sep: &str| if v.is_empty() { "none".to_string() } else { v.join(sep) };
    let row = |id: &str, questions: usize, choices: String, pos: [usize; MAX_CHOICES], spoilers: String, long: String| {
        let pos = pos.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(" / ");
        format!("| {id} | {questions} | {choices} | {pos} | {spoilers} | {long} |\n")
    };
    for a in audits {
        let spoilers = join(a.spoilers.iter().map(|s| format!("step {}: \"{}\" in the {}", s.step + 1, s.words, s.place)).collect(), "; ");
        let long = join(a.long_answers.iter().map(|s| format!("step {}", s + 1)).collect(), ", ");
        let each = a.choices.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" ");
        out += &row(&a.id, a.choices.len(), each, a.positions, spoilers, long);
    }
    let all: Vec<usize> = audits.iter().flat_map(|a| a.choices.iter().copied()).collect();
    let three = format!("{} of {} have 3 or more", all.iter().filter(|&&c| c >= 3).count(), all.len());
    let spoilers: usize = audits.iter().map(|a| a.spoilers.len()).sum();
    let long: usize = audits.iter().map(|a| a.long_answers.len()).sum();
    out + &row("course", all.len(), three, course_positions(audits), spoilers.to_string(), long.to_string())
}
