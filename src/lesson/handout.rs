//! A lesson's printable handout (issue 36, item 5): one HTML page with a print stylesheet, its
//! steps' words in order, each question with its choices and a blank for the answer (never the
//! answer), and, the first time a step without a question shows a story (a scenario with its
//! fencing), the strip of that run's key moments (`timeline::draw::story`), in the columns that
//! fit an A4 page best; the stories met only with a question come after the steps. `locklab lesson handout` writes it; a
//! browser prints it to paper or PDF.

use std::fmt::Write;

use super::blocks::{highlight, Blocks};
use super::Lesson;
use crate::lab::Run;
use crate::theme::Theme;
use crate::timeline::draw::export::{self, run_title};
use crate::timeline::draw::story;
use crate::timeline::draw::svg::Esc;
use crate::timeline::Timeline;

/// The page's own styles: A4, the strips as wide as the text, nothing split across two pages
/// that fits on one.
const PRINT_CSS: &str = "\
@page { size: A4; margin: 14mm; }
body { font: 11pt/1.45 system-ui, -apple-system, \"Segoe UI\", Roboto, \"DejaVu Sans\", Arial, sans-serif; color: #000; max-width: 182mm; margin: 0 auto; }
h1 { font-size: 20pt; margin: 0 0 2mm; }
h2 { font-size: 12pt; margin: 0 0 1mm; }
.meta { color: #333; margin: 0 0 6mm; }
.step, .question, figure { break-inside: avoid; }
.after { break-before: page; }
.step { margin: 0 0 6mm; }
.question { border: 1px solid #000; border-radius: 2mm; padding: 2mm 4mm; margin: 2mm 0; }
.choices { list-style: upper-alpha; margin: 1mm 0; }
.blank { display: inline-block; width: 40mm; border-bottom: 1px solid #000; }
figure { margin: 3mm 0 0; }
figure > svg { display: block; width: 100%; height: auto; }
figcaption { font-size: 9pt; color: #333; }
pre.code { font: 9.5pt/1.35 ui-monospace, \"DejaVu Sans Mono\", monospace; background: var(--code-bg); color: var(--ink); border: 1px solid var(--line); border-radius: 2mm; padding: 2mm 3mm; break-inside: avoid; }
.tok-kw { color: var(--code-kw); font-weight: 700; } .tok-str { color: var(--code-str); } .tok-com { color: var(--code-com); font-style: italic; } .tok-num { color: var(--code-num); }
dt { font-weight: 700; } dd { margin: 0 0 1mm 6mm; }
@media screen { body { padding: 16px; } }
";

/// The handout of `lesson`; `css` is styles/diagram.css (the strips' drawing).
pub fn handout(lesson: &Lesson, css: &str) -> String {
    let questions = lesson.steps.iter().filter(|s| s.question.is_some()).count();
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{} · Lock Lab handout</title>\n<style>\n{PRINT_CSS}{}</style></head>\n<body>\n<h1>{}</h1>\n<p class=\"meta\">Lock Lab lesson <code>{}</code>: {} steps, {questions} questions.</p>\n",
        Esc(&lesson.title),
        code_colours(css),
        Esc(&lesson.title),
        Esc(&lesson.id),
        lesson.steps.len()
    );
    // A strip shows its story to the end: under a question it would give the answer away, so a
    // story first met with a question is shown at its next step without one, or after the steps.
    let mut shown: Vec<(String, bool)> = Vec::new();
    let mut held: Vec<Run> = Vec::new();
    for (i, step) in lesson.steps.iter().enumerate() {
        let _ = write!(out, "<section class=\"step\"><h2>Step {}</h2>\n<p>{}</p>\n", i + 1, Esc(&step.text));
        out.push_str(&blocks(&step.blocks, css));
        if let Some(q) = &step.question {
            let _ = write!(out, "<div class=\"question\"><p><strong>Question.</strong> {}</p><ol class=\"choices\">", Esc(&q.prompt));
            for c in &q.choices {
                let _ = write!(out, "<li>{}</li>", Esc(c));
            }
            out.push_str("</ol><p>Your answer: <span class=\"blank\"></span></p></div>\n");
        }
        if let Some(run) = step.run().filter(|_| !step.is_slide()) {
            let key = story_of(&run);
            if step.question.is_some() {
                if !shown.contains(&key) && !held.iter().any(|h| story_of(h) == key) {
                    held.push(run);
                }
            } else if !shown.contains(&key) {
                out.push_str(&strip(&run, css));
                held.retain(|h| story_of(h) != key);
                shown.push(key);
            }
        }
        out.push_str("</section>\n");
    }
    if !held.is_empty() {
        out.push_str("<section class=\"after\"><h2>The questions' stories, to the end</h2>\n");
        for run in &held {
            out.push_str(&strip(run, css));
        }
        out.push_str("</section>\n");
    }
    out.push_str("</body></html>\n");
    out
}

/// A step's blocks on paper: the list and definitions as HTML lists, the code highlighted in
/// the projector's colours (they survive a grey printer), the figure drawn as on the stage.
fn blocks(b: &Blocks, css: &str) -> String {
    let mut out = String::new();
    if !b.list.is_empty() {
        out.push_str("<ul>");
        for item in &b.list {
            let _ = write!(out, "<li>{}</li>", Esc(item));
        }
        out.push_str("</ul>\n");
    }
    if !b.definitions.is_empty() {
        out.push_str("<dl>");
        for d in &b.definitions {
            let _ = write!(out, "<dt>{}</dt><dd>{}</dd>", Esc(&d.term), Esc(&d.meaning));
        }
        out.push_str("</dl>\n");
    }
    if let Some(c) = &b.code {
        let _ = write!(out, "<pre class=\"code\" data-language=\"{}\"><code>", c.language.name());
        for line in &c.lines {
            for (role, text) in highlight(c.language, line) {
                match role.class() {
                    Some(class) => {
                        let _ = write!(out, "<span class=\"{class}\">{}</span>", Esc(text));
                    }
                    None => {
                        let _ = write!(out, "{}", Esc(text));
                    }
                }
            }
            out.push('\n');
        }
        out.push_str("</code></pre>\n");
    }
    if let Some(d) = b.draw_figure(Theme::Projector, css) {
        // A moment, not a story's strip: its own class (a handout counts one strip per story).
        let _ = writeln!(out, "<figure class=\"moment\">{}<figcaption>{}</figcaption></figure>", d.svg, Esc(&d.caption));
    }
    out
}

/// The code colours of the projector's palette, as the page's variables.
fn code_colours(css: &str) -> String {
    let vars: Vec<String> = export::palette(css, Theme::Projector)
        .into_iter()
        .filter(|(k, _)| k.starts_with("--code-") || k == "--ink" || k == "--line")
        .map(|(k, v)| format!("{k}: {v};"))
        .collect();
    format!(":root {{ {} }}\n", vars.join(" "))
}

/// Which story a run tells: its scenario, with its fencing.
fn story_of(run: &Run) -> (String, bool) {
    (run.scenario.id.clone(), run.scenario.storage.fencing)
}

/// A run's strip as a figure in the page: the SVG inline, without its XML declaration.
fn strip(run: &Run, css: &str) -> String {
    // On paper in the projector's colours: its contrast survives a grey laser printer.
    let svg = story::strip_for(run, &Timeline::of_run(run), css, Theme::Projector, story::A4_TEXT);
    let svg = svg.split_once("?>\n").map_or(svg.as_str(), |(_, rest)| rest);
    format!("<figure class=\"strip\">{svg}<figcaption>{}: its key moments</figcaption></figure>\n", Esc(&run_title(&run.scenario)))
}
