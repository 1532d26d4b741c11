//! Reads a lesson from JSON text with the scenario reader's helpers (`scenario::read`), so its
//! errors name field paths the same way: `steps[2].question.answer: 5 is out of range: must
//! be 0..=2`. Everything is checked before anything is returned: each step's scenario is
//! validated and run, and the moments its cursor and its reveal name must happen in that run.

use serde_json::Value;

use super::blocks::{Blocks, Code, Definition, Figure, Language};
use super::format::{locate, At, Lesson, LessonStep, Moment, Question, StepScenario};
use super::limits::*;
use crate::scenario::read::{boolean, choice, err, int, join, list, string, Object, Read};
use crate::scenario::validate::{slug, validate};
use crate::scenario::{catalog, ScenarioError};
use crate::timeline::Timeline;

/// Parses and checks a lesson.
pub fn parse(text: &str) -> Result<Lesson, ScenarioError> {
    // A byte-order mark from a Windows editor is not part of the JSON (as for scenarios).
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.len() > MAX_LESSON_BYTES {
        return err("", format!("lesson is {} bytes; the limit is {MAX_LESSON_BYTES}", text.len()));
    }
    let value = crate::scenario::strict_json::parse(text).map_err(|e| syntax_error(text, &e))?;
    parse_value(&value)
}

/// Reads and checks a lesson already parsed as JSON (one of a file of several).
pub fn parse_value(value: &Value) -> Result<Lesson, ScenarioError> {
    let lesson = lesson(value)?;
    for (i, step) in lesson.steps.iter().enumerate() {
        check_moments(step, &format!("steps[{i}]"))?;
    }
    Ok(lesson)
}

/// A syntax error at its path. A key written twice is named itself (`steps[0].text`), not
/// only its object, which is all the position of serde_json's error tells.
fn syntax_error(text: &str, e: &serde_json::Error) -> ScenarioError {
    let at = crate::scenario::json_path::of_error(text, e);
    let message = e.to_string();
    let twice = message.strip_prefix("duplicate field `").and_then(|rest| rest.rsplit_once("` at line")).map(|(key, _)| key);
    let path = twice.map_or_else(|| at.clone(), |key| join(&at, key));
    ScenarioError { path, message: crate::scenario::json_path::words(e) }
}

fn lesson(v: &Value) -> Read<Lesson> {
    let o = Object::new(v, "", &["version", "id", "title", "aims", "steps"])?;
    let version = o.req("version", |v, p| {
        int(v, p).and_then(|n| if n == 1 { Ok(1) } else { err(p, format!("unsupported version {n}: only 1 exists")) })
    })?;
    let title = o.req("title", |v, p| bounded(v, p, MAX_TITLE_LEN))?;
    let id = o.or("id", String::new(), lesson_id)?;
    let aims = o.or("aims", Vec::new(), |v, p| list(v, p, |v, p| bounded(v, p, MAX_AIM_LEN)))?;
    if aims.len() > MAX_AIMS {
        return err("aims", format!("{} aims: a lesson has at most {MAX_AIMS}", aims.len()));
    }
    let steps = o.req("steps", |v, p| list(v, p, step))?;
    if steps.is_empty() || steps.len() > MAX_STEPS {
        return err("steps", format!("{} steps: a lesson has 1 to {MAX_STEPS}", steps.len()));
    }
    for (i, s) in steps.iter().enumerate() {
        check_table(&s.table, i, steps.len())?;
    }
    let id = if id.is_empty() { slug(&title) } else { id };
    Ok(Lesson { version, id, title, aims, steps })
}

/// A non-empty string of at most `max` characters.
fn bounded(v: &Value, path: &str, max: usize) -> Read<String> {
    let s = string(v, path)?;
    let n = s.chars().count();
    if s.trim().is_empty() {
        return err(path, "must not be empty".into());
    }
    if n > max {
        return err(path, format!("{n} characters: the limit is {max}"));
    }
    Ok(s)
}

/// Ids go into URLs (`?lesson=ID`): lowercase letters, digits and dashes.
fn lesson_id(v: &Value, path: &str) -> Read<String> {
    let s = string(v, path)?;
    if s.len() > MAX_ID_LEN || !s.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-') {
        return err(path, format!("must be at most {MAX_ID_LEN} lowercase letters, digits and dashes"));
    }
    Ok(s)
}

fn step(v: &Value, path: &str) -> Read<LessonStep> {
    let o = Object::new(
        v,
        path,
        &["scenario", "fencing", "safe_unlock", "at", "text", "question", "table", "slide", "list", "definitions", "code", "figure"],
    )?;
    Ok(LessonStep {
        scenario: o.req("scenario", step_scenario)?,
        fencing: o.opt("fencing", boolean)?,
        safe_unlock: o.opt("safe_unlock", boolean)?,
        at: o.or("at", At::Moment(Moment::Start), at)?,
        text: o.req("text", |v, p| bounded(v, p, MAX_TEXT_LEN))?,
        question: o.opt("question", question)?,
        table: o.or("table", Vec::new(), |v, p| list(v, p, index))?,
        slide: o.or("slide", false, boolean)?,
        blocks: Blocks {
            list: o.or("list", Vec::new(), bullet_list)?,
            definitions: o.or("definitions", Vec::new(), definitions)?,
            code: o.opt("code", code)?,
            figure: o.opt("figure", figure)?,
        },
    })
}

/// A list of at most `max` items, each read by `read`: "3 items: a list has 1 to 6".
fn bounded_list<T>(v: &Value, path: &str, max: usize, what: &str, read: impl Fn(&Value, &str) -> Read<T>) -> Read<Vec<T>> {
    let items = list(v, path, read)?;
    if items.is_empty() || items.len() > max {
        return err(path, format!("{} {what}: at most {max}, and at least 1 (leave the field out for none)", items.len()));
    }
    Ok(items)
}

fn bullet_list(v: &Value, path: &str) -> Read<Vec<String>> {
    bounded_list(v, path, MAX_LIST_ITEMS, "items", |v, p| one_line(v, p, MAX_ITEM_LEN))
}

fn definitions(v: &Value, path: &str) -> Read<Vec<Definition>> {
    bounded_list(v, path, MAX_DEFINITIONS, "definitions", |v, p| {
        let o = Object::new(v, p, &["term", "meaning"])?;
        Ok(Definition {
            term: o.req("term", |v, p| one_line(v, p, MAX_TERM_LEN))?,
            meaning: o.req("meaning", |v, p| one_line(v, p, MAX_MEANING_LEN))?,
        })
    })
}

/// `bounded`, on one line: a list item or a term is a line of the slide, not a paragraph.
fn one_line(v: &Value, path: &str, max: usize) -> Read<String> {
    let s = bounded(v, path, max)?;
    if s.contains('\n') {
        return err(path, "must be one line (no line break)".into());
    }
    Ok(s)
}

fn code(v: &Value, path: &str) -> Read<Code> {
    let o = Object::new(v, path, &["language", "lines"])?;
    let language = o.req("language", |v, p| {
        let name = string(v, p)?;
        match Language::NAMES.iter().find(|(n, _)| *n == name) {
            Some(&(_, l)) => Ok(l),
            None => {
                let names: Vec<&str> = Language::NAMES.iter().map(|(n, _)| *n).collect();
                err(p, format!("unknown language \"{name}\"; expected {}", names.join(", ")))
            }
        }
    })?;
    let lines = o.req("lines", |v, p| bounded_list(v, p, MAX_CODE_LINES, "lines", code_line))?;
    Ok(Code { language, lines })
}

/// A line of code: empty is fine (a blank line parts two statements), a tab is not (its width
/// is the viewer's, so the fit could not be known), and it must be short enough to show whole.
fn code_line(v: &Value, path: &str) -> Read<String> {
    let s = string(v, path)?;
    let n = s.chars().count();
    if n > MAX_CODE_LINE_LEN {
        return err(path, format!("{n} characters: a line of code has at most {MAX_CODE_LINE_LEN}"));
    }
    if let Some(c) = s.chars().find(|c| *c == '\t' || c.is_control()) {
        return err(path, format!("holds {c:?}: indent with spaces, one line per string"));
    }
    Ok(s)
}

fn figure(v: &Value, path: &str) -> Read<Figure> {
    let o = Object::new(v, path, &["builtin", "at_ms", "fencing", "safe_unlock"])?;
    let builtin = o.req("builtin", |v, p| {
        let id = string(v, p)?;
        match catalog::get(&id) {
            Some(_) => Ok(id),
            None => err(p, format!("no built-in scenario \"{id}\" (see `locklab list`)")),
        }
    })?;
    let at_ms = o.req("at_ms", |v, p| {
        let ms = int(v, p)?;
        if ms < 0 {
            return err(p, format!("{ms} is before the run starts: must be at least 0"));
        }
        Ok(ms)
    })?;
    let f = Figure { builtin, at_ms, fencing: o.opt("fencing", boolean)?, safe_unlock: o.opt("safe_unlock", boolean)? };
    let duration = f.scenario().map_or(0, |s| s.duration_ms);
    if f.at_ms > duration {
        return err(&format!("{path}.at_ms"), format!("{} is after the run ends: must be at most {duration}", f.at_ms));
    }
    Ok(f)
}

/// A built-in's id, or a scenario object in the scenario format, validated as a file would be.
fn step_scenario(v: &Value, path: &str) -> Read<StepScenario> {
    if let Value::String(id) = v {
        return match catalog::get(id) {
            Some(_) => Ok(StepScenario::Builtin(id.clone())),
            None => err(path, format!("no built-in scenario \"{id}\" (see `locklab list`)")),
        };
    }
    if !v.is_object() {
        return crate::scenario::read::invalid(path, v, "a built-in scenario id or a scenario object");
    }
    let under = |e: ScenarioError| {
        let inner = if e.path.is_empty() { path.to_string() } else { crate::scenario::read::join(path, &e.path) };
        ScenarioError { path: inner, message: e.message }
    };
    let mut s = crate::scenario::read::scenario(v).map_err(under)?;
    if s.id.is_empty() {
        s.id = slug(&s.title);
    }
    validate(&s).map_err(under)?;
    Ok(StepScenario::Inline(Box::new(s)))
}

/// An index into the lesson's steps (checked against their number later, in `check_table`).
fn index(v: &Value, path: &str) -> Read<usize> {
    let n = int(v, path)?;
    usize::try_from(n).map_or_else(|_| err(path, format!("{n} is not a step index")), Ok)
}

/// A table row names another step of the lesson.
fn check_table(rows: &[usize], own: usize, steps: usize) -> Read<()> {
    for (r, &row) in rows.iter().enumerate() {
        let path = format!("steps[{own}].table[{r}]");
        if row >= steps {
            return err(&path, format!("{row} is out of range: must be 0..={}", steps - 1));
        }
        if row == own {
            return err(&path, format!("{row} is this step itself: a row names another step"));
        }
    }
    Ok(())
}

fn at(v: &Value, path: &str) -> Read<At> {
    match v {
        Value::String(_) => choice(v, path, Moment::NAMES).map(At::Moment),
        _ => {
            let ms = int(v, path)?;
            if ms < 0 {
                return err(path, format!("{ms} is before the run starts: must be at least 0"));
            }
            Ok(At::Ms(ms))
        }
    }
}

fn question(v: &Value, path: &str) -> Read<Question> {
    let o = Object::new(v, path, &["prompt", "choices", "answer", "reveal_at", "reveals"])?;
    let prompt = o.req("prompt", |v, p| bounded(v, p, MAX_PROMPT_LEN))?;
    let choices = o.req("choices", |v, p| list(v, p, |v, p| bounded(v, p, MAX_CHOICE_LEN)))?;
    if !(MIN_CHOICES..=MAX_CHOICES).contains(&choices.len()) {
        return err(&format!("{path}.choices"), format!("{} choices: a question has {MIN_CHOICES} to {MAX_CHOICES}", choices.len()));
    }
    let last = choices.len() - 1;
    let answer = o.req("answer", |v, p| {
        let n = int(v, p)?;
        usize::try_from(n).ok().filter(|&n| n <= last).map_or_else(|| err(p, format!("{n} is out of range: must be 0..={last}")), Ok)
    })?;
    let reveal_at = o.or("reveal_at", At::Moment(Moment::End), at)?;
    let reveals = o.or("reveals", Vec::new(), |v, p| list(v, p, |v, p| bounded(v, p, MAX_REVEAL_LEN)))?;
    if reveals.len() > MAX_REVEALS {
        return err(&format!("{path}.reveals"), format!("{} facts: a question declares at most {MAX_REVEALS}", reveals.len()));
    }
    Ok(Question { prompt, choices, answer, reveal_at, reveals })
}

/// The moments a step names must happen in its run: a cursor at a stale write that never
/// happens would put the lecture on a claim the run does not make.
fn check_moments(step: &LessonStep, path: &str) -> Read<()> {
    let Some(run) = step.run() else { return err(&format!("{path}.scenario"), "no such built-in scenario".into()) };
    let timeline = Timeline::of_run(&run);
    let fencing = if run.scenario.storage.fencing { "on" } else { "off" };
    let check = |at: At, field: &str| match (at, locate(at, &timeline)) {
        // The run's own end: the axis (`timeline.duration_ms`) may stop sooner, after the story.
        (At::Ms(ms), _) if ms > run.trace.duration_ms => {
            err(&format!("{path}.{field}"), format!("{ms} is after the run ends: must be at most {}", run.trace.duration_ms))
        }
        (_, Some(_)) => Ok(()),
        (_, None) => err(
            &format!("{path}.{field}"),
            format!("no \"{}\" moment in this step's run ({}, fencing {fencing})", at.describe(), run.scenario.id),
        ),
    };
    check(step.at, "at")?;
    if let Some(q) = &step.question {
        check(q.reveal_at, "question.reveal_at")?;
    }
    Ok(())
}
