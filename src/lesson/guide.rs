//! The teacher's guide (docs/TEACHING.md), written from the lessons themselves: per lesson its
//! aims, its minutes (`course::minutes`), and per step a link that opens it, what it shows, and
//! its question with the right answer. Generated, so it cannot drift from the lessons:
//! `locklab lesson guide -o docs/TEACHING.md` writes it and tests/teaching.rs fails when the
//! committed page differs.

use std::fmt::Write;

use super::{course, Lesson, StepScenario};
use crate::scenario::Scenario;

/// Where `scripts/serve.sh` serves the app: the guide's links open there.
pub const APP: &str = "http://127.0.0.1:8080/";

/// The whole page for these lessons (the course, in order) and built-ins.
pub fn markdown(lessons: &[Lesson], builtins: &[Scenario]) -> String {
    let mut out = String::from(INTRO);
    let total: usize = lessons.iter().map(course::minutes).sum();
    let _ = writeln!(out, "## The course\n");
    let _ = writeln!(out, "| # | lesson | steps | questions | minutes |\n|---|---|---|---|---|");
    for (n, lesson) in lessons.iter().enumerate() {
        let e = course::entry(lesson);
        let _ =
            writeln!(out, "| {} | [{}](#{}) | {} | {} | {} |", n + 1, e.title, anchor(n + 1, &e.title), e.steps, e.questions, e.minutes);
    }
    let _ = writeln!(out, "\n{total} minutes in all, by the app's own estimate (the lesson index's): a course of two or three classes.\n");
    for (n, lesson) in lessons.iter().enumerate() {
        lesson_section(&mut out, n + 1, lesson);
    }
    let _ = writeln!(out, "## Every built-in in lecture mode\n");
    let _ = writeln!(out, "For a class of your own: each opens on the projector's stage at its start.\n");
    let _ = writeln!(out, "| built-in | what it shows |\n|---|---|");
    for s in builtins {
        let _ = writeln!(out, "| [`{}`]({APP}?scenario={}&lecture=1) | {} |", s.id, s.id, cell(&s.title));
    }
    out
}

fn lesson_section(out: &mut String, n: usize, lesson: &Lesson) {
    let e = course::entry(lesson);
    let _ = writeln!(out, "## {n}. {}\n", e.title);
    let _ = writeln!(
        out,
        "`{}` · {} · [open it]({APP}?lesson={}&step=1) · handout: `locklab lesson handout --builtin {} -o {}.html`\n",
        lesson.id,
        e.length(),
        lesson.id,
        lesson.id,
        lesson.id
    );
    if !lesson.aims.is_empty() {
        let _ = writeln!(out, "After it, a student can:\n");
        for aim in &lesson.aims {
            let _ = writeln!(out, "- {aim}");
        }
        out.push('\n');
    }
    let _ = writeln!(out, "| step | scenario | what it shows | question | answer |\n|---|---|---|---|---|");
    for (i, step) in lesson.steps.iter().enumerate() {
        let scenario = match &step.scenario {
            StepScenario::Builtin(id) => format!("`{id}`"),
            StepScenario::Inline(s) => format!("its own: `{}`", s.id),
        };
        let (prompt, answer) = step.question.as_ref().map_or((String::new(), String::new()), |q| {
            (cell(&q.prompt), q.choices.get(q.answer).map(|c| format!("{} (choice {})", cell(c), q.answer + 1)).unwrap_or_default())
        });
        let _ = writeln!(
            out,
            "| [{}]({APP}?lesson={}&step={}) | {scenario} | {} | {prompt} | {answer} |",
            i + 1,
            lesson.id,
            i + 1,
            shows(step)
        );
    }
    out.push('\n');
}

/// What a step shows: its text's first sentence, and its blocks in a few words.
fn shows(step: &super::LessonStep) -> String {
    let first = cell(first_sentence(&step.text));
    match step.blocks.summary() {
        Some(b) => format!("{first} *With {}.*", cell(&b)),
        None => first,
    }
}

/// The text up to the end of its first sentence (a step's text is a few sentences).
fn first_sentence(text: &str) -> &str {
    text.find(". ").map_or(text, |i| &text[..=i])
}

/// Text made safe for a Markdown table cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// GitHub's anchor for the heading "N. Title".
fn anchor(n: usize, title: &str) -> String {
    let words: String = format!("{n}. {title}")
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect();
    words
}

const INTRO: &str = "\
# Teaching with Lock Lab

<!-- Written by `locklab lesson guide -o docs/TEACHING.md` from src/lesson/*.json: edit the
     lessons, not this page (tests/teaching.rs fails when the two differ). -->

Six lessons make a course on distributed locks, each a walk through runs of the simulator with
questions for the room. This page is the teacher's: per lesson its aims, its length, and per
step a link that opens it, what it shows, and its question with the right answer.

**In the room.** Open a lesson from the **Lesson** button or a link below; it runs on the
lecture stage in the projector's colours. A presentation clicker's one button (PageDown) is
enough: it plays a step to its moment, asks a question, plays the reveal to its answer and goes
on, and from a lesson's last step to the course's next. Keys 1 to 4 count raised hands for a
choice; B blanks the screen; ? lists every key ([LESSON_FORMAT.md](LESSON_FORMAT.md#in-the-app)).
**Copy link to this step** in the lesson's panel gives the link to the step on screen, for a
slide or a message to the class.

**Before and after.** `locklab lesson handout --builtin ID -o ID.html` writes a printable
handout (the steps, the questions with a blank for the answer, a strip of each story's key
moments); `locklab svg --builtin ID --strip` and `--animated` give a story for a slide
([CLI.md](CLI.md#locklab-svg)). **Offline copy** in the app saves the whole app, lessons
included, as one HTML file for a room without a network ([APP.md](APP.md#one-file-offline)).

**Your own lessons.** A lesson is a JSON file ([LESSON_FORMAT.md](LESSON_FORMAT.md)); `locklab
lesson check FILE` checks it as the app does, including that no question is answered on the
screen that asks it.

The links open the app where `scripts/serve.sh` serves it (`http://127.0.0.1:8080/`); on your
own host, change the address and keep the part after it.

";
