//! `locklab lesson check (FILE | --builtin ID)`: reads a lesson with the app's checks
//! (docs/LESSON_FORMAT.md) and prints one line per step: its run, where its cursor lands and
//! what its question reveals, so an author sees each step's claim next to its run's verdict;
//! then its questions' fairness (`lesson::fair`): right-answer positions, and a refusal when a
//! question's answer shows on the screen that asks it, or a step that would not fit the
//! lecture stage (`lesson::fit`). `--all` prints the course's table.
//! `locklab lesson handout … -o OUT.html` writes its printable handout; `locklab lesson guide`
//! the teacher's guide to the course.

use locklab::lesson::{builtin, fair, fit, locate, parse, At, Lesson, LessonStep};
use locklab::timeline::Timeline;

/// `lesson check`: the one lesson given (a FILE read and checked now, or a built-in), or with
/// `--all` every built-in lesson's fairness.
pub fn check(file: Option<String>, one: Option<Lesson>, all: bool) -> Result<String, String> {
    if all {
        return match (file, one) {
            (None, None) => course(),
            _ => Err("lesson check: --all checks every built-in lesson; give no FILE or --builtin with it".into()),
        };
    }
    let lesson = load("check", file, one)?;
    let audit = fair::audit(&lesson);
    if let Some(why) = audit.refusal().or_else(|| fit::refusal(&lesson)) {
        return Err(format!("{}: {why}", lesson.id));
    }
    // A lesson without questions has nothing to game: no table.
    let table = if audit.choices.is_empty() { String::new() } else { fair::table(&[audit]) };
    Ok(summary(&lesson) + &table)
}

/// Every built-in lesson's fairness as one table; refused when a question is spoiled or one
/// position holds too many of the course's right answers.
fn course() -> Result<String, String> {
    let audits: Vec<fair::Audit> = builtin::all().iter().map(fair::audit).collect();
    let table = fair::table(&audits);
    if let Some((id, why)) = audits.iter().find_map(|a| a.refusal().map(|w| (&a.id, w))) {
        return Err(format!("{table}{id}: {why}"));
    }
    if let Some((id, why)) = builtin::all().iter().find_map(|l| fit::refusal(l).map(|w| (l.id.clone(), w))) {
        return Err(format!("{table}{id}: {why}"));
    }
    if let Some((at, n, total)) = fair::crowded(&audits) {
        return Err(format!(
            "{table}the course: {n} of its {total} right answers are choice {}; at most {}% may share a position",
            at + 1,
            fair::MAX_POSITION_PERCENT
        ));
    }
    Ok(table)
}

/// `lesson handout`: the lesson's printable page (`lesson::handout`), written to `-o`.
pub fn handout(file: Option<String>, one: Option<Lesson>, out: Option<String>) -> Result<String, String> {
    let lesson = load("handout", file, one)?;
    let out = out.ok_or("lesson handout: give an output file with -o OUT.html (or -o - for stdout)")?;
    let page = locklab::lesson::handout::handout(&lesson, locklab::timeline::draw::export::STYLESHEET);
    if out == "-" {
        return Ok(page);
    }
    std::fs::write(&out, page).map_err(|e| format!("-o: cannot write {out}: {e}"))?;
    Ok(String::new())
}

/// `lesson guide`: the teacher's guide to the built-in course (`lesson::guide`).
pub fn guide(out: Option<String>) -> Result<String, String> {
    let page = locklab::lesson::guide::markdown(&builtin::all(), &locklab::scenario::catalog::all());
    match out.as_deref() {
        None | Some("-") => Ok(page),
        Some(file) => std::fs::write(file, page).map(|()| String::new()).map_err(|e| format!("-o: cannot write {file}: {e}")),
    }
}

/// The one lesson given to `lesson CMD`: a FILE read and checked now, or a built-in.
fn load(cmd: &str, file: Option<String>, one: Option<Lesson>) -> Result<Lesson, String> {
    match (file, one) {
        (Some(file), None) => {
            let text = std::fs::read_to_string(&file).map_err(|e| format!("{file}: cannot read: {e}"))?;
            parse(&text).map_err(|e| format!("{file}: {e}"))
        }
        (None, Some(lesson)) => Ok(lesson),
        _ => Err(format!("lesson {cmd}: give a lesson FILE or --builtin ID (one, not two)")),
    }
}

fn summary(l: &Lesson) -> String {
    let mut out = format!("{} ({}): {} steps\n", l.title, l.id, l.steps.len());
    for (i, step) in l.steps.iter().enumerate() {
        out.push_str(&format!("  step {i:>2}  {}\n", step_line(step)));
    }
    out
}

fn step_line(step: &LessonStep) -> String {
    // The reader ran every step already; these cannot fail for a lesson it accepted.
    let Some(run) = step.run() else { return "no scenario".into() };
    let timeline = Timeline::of_run(&run);
    let at = |a: At| match (a, locate(a, &timeline)) {
        (At::Ms(ms), _) => format!("{ms} ms"),
        (_, Some(c)) => format!("{} ({} ms)", a.describe(), c.ms),
        (_, None) => a.describe(),
    };
    let s = &run.scenario;
    let verdict = if run.verdict.safe { "SAFE" } else { "UNSAFE" };
    let mut line = format!("{} (fencing {}) at {}: {verdict}", s.id, if s.storage.fencing { "on" } else { "off" }, at(step.at));
    if let Some(q) = &step.question {
        line.push_str(&format!("; question: {} choices, answer {}, reveal at {}", q.choices.len(), q.answer, at(q.reveal_at)));
    }
    if !step.table.is_empty() {
        let rows: Vec<String> = step.table.iter().map(|r| r.to_string()).collect();
        line.push_str(&format!("; table of steps {}", rows.join(", ")));
    }
    line
}
