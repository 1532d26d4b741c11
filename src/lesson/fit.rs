//! Whether a step's words fit the lecture stage (issue 36, item 3): a native estimate of the
//! height the step's panel needs at 1280×720 and 1920×1080, from the stage's type scale
//! (styles/lesson.css: every size is a share of `--cap`, 28 px at 1280×720 and 42 px at
//! 1920×1080) and the panel's box as measured in Chromium (`Stage`). Nothing on the stage
//! scrolls, so a step that needs more than its box is refused by the checker; a code line
//! wider than its box would be cut (code does not wrap), and is refused too.
//!
//! An estimate: words laid out greedily by the measured widths of the stage's font
//! (`REGULAR`, `BOLD`), a monospace character as `MONO_EM`; tests/e2e/specs/lesson.spec.ts
//! measures the steps with blocks as Chromium renders them.

use super::blocks::Blocks;
use super::{Lesson, LessonStep};
use crate::theme::Theme;

/// A screen the stage is checked at, and its step panel's content box there (CSS px), as
/// measured in Chromium (tests/e2e/specs/lesson.spec.ts checks these are the boxes it shows).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stage {
    pub screen: (f64, f64),
    /// A slide's content box (the step is the whole stage).
    pub slide: (f64, f64),
    /// A step's column beside the diagram.
    pub column: (f64, f64),
}

pub const STAGES: [Stage; 2] = [
    Stage { screen: (1280.0, 720.0), slide: (1185.0, 642.0), column: (459.0, 451.0) },
    Stage { screen: (1920.0, 1080.0), slide: (1825.0, 991.0), column: (715.0, 717.0) },
];

/// The advance of each printable ASCII character (from ' ' to '~') in the stage's
/// sans-serif, in thousandths of an em, regular and bold: DejaVu Sans, the font Chromium on
/// Linux resolves the stage's `system-ui` stack to, measured with a canvas in Chromium. A
/// character outside ASCII counts as `OTHER_EM` (an em dash or an ellipsis is a whole em).
const REGULAR: [u16; 95] = [
    318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, 636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337,
    337, 838, 838, 838, 531, 1000, 684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787, 603, 787, 695, 635, 611, 732,
    684, 989, 685, 611, 685, 390, 337, 390, 838, 500, 500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612, 635,
    635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838,
];
const BOLD: [u16; 95] = [
    348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365, 696, 696, 696, 696, 696, 696, 696, 696, 696, 696, 400,
    400, 838, 838, 838, 580, 1000, 774, 762, 734, 830, 683, 683, 821, 837, 372, 372, 775, 637, 995, 837, 850, 733, 850, 770, 720, 682, 812,
    774, 1103, 771, 724, 725, 457, 365, 457, 838, 500, 500, 675, 716, 593, 716, 678, 435, 716, 712, 343, 343, 665, 343, 1042, 712, 687,
    716, 716, 493, 595, 478, 712, 652, 924, 645, 652, 582, 712, 365, 712, 838,
];
const OTHER_EM: f64 = 1.0;
/// A monospace character, in ems (DejaVu Sans Mono: .602).
pub const MONO_EM: f64 = 0.61;

/// The width of `word` in ems, regular or bold.
fn em_width(word: &str, bold: bool) -> f64 {
    let table = if bold { &BOLD } else { &REGULAR };
    word.chars().map(|c| table.get((c as usize).wrapping_sub(32)).map_or(OTHER_EM, |&w| f64::from(w) / 1000.0)).sum()
}

/// The stage's `--cap` on a screen (styles/app.css: `max(20px, min(2.1875vw, 3.889vh))`).
pub fn cap(screen: (f64, f64)) -> f64 {
    (screen.0 * 0.021875).min(screen.1 * 0.03889).max(20.0)
}

/// The type sizes of the step's parts, as shares of `--cap` (styles/lesson.css).
pub const TITLE: f64 = 1.0;
pub const TEXT: f64 = 0.86;
/// Code, a figure's caption: the diagram labels' size on the stage (18 px at 1280×720).
pub const SMALL: f64 = 0.64;

/// The longest verdict the room's count can give (`player::Open::verdict`: a two-digit
/// majority, wrong).
const LONGEST_VERDICT: &str = "Room: 4 (88/99 hands); it was 1.";

/// What a step needs on one stage, against what it has.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    pub screen: (f64, f64),
    /// The height the step's words need and the box's, in CSS px.
    pub need: f64,
    pub room: f64,
    /// Code lines wider than the box: (line index, its width in px, the box's).
    pub wide: Vec<(usize, f64, f64)>,
}

impl Fit {
    pub fn fits(&self) -> bool {
        self.need <= self.room && self.wide.is_empty()
    }
}

/// Lines `text` takes at `px` in a box `width` wide: words filled greedily by their widths, as
/// the browser breaks lines (a word wider than a line takes lines of its own).
fn wrapped(text: &str, px: f64, width: f64, bold: bool) -> f64 {
    let room = width / px;
    let space = em_width(" ", bold);
    let mut lines = 1.0;
    let mut used = 0.0;
    for word in text.split_whitespace() {
        let w = em_width(word, bold);
        if used == 0.0 || used + space + w <= room {
            used += if used == 0.0 { w } else { space + w };
        } else {
            lines += 1.0;
            used = w;
        }
        if used > room {
            lines += (used / room).ceil() - 1.0;
            used %= room;
        }
    }
    lines
}

/// `wrapped` in the stage's regular sans-serif.
fn lines(text: &str, px: f64, width: f64) -> f64 {
    wrapped(text, px, width, false)
}

/// `wrapped` in its bold (a title, a prompt, a verdict).
fn bold_lines(text: &str, px: f64, width: f64) -> f64 {
    wrapped(text, px, width, true)
}

fn chars(s: &str) -> usize {
    s.chars().count()
}

/// The height `blocks` take in a box `width` wide (`measure`: the widest a paragraph is set)
/// with `--cap` at `cap`, and their code lines too wide for it. A figure beside the other
/// blocks takes its share of the width, and the taller of the two columns counts.
pub fn blocks_height(blocks: &Blocks, cap: f64, width: f64, measure: f64) -> (f64, Vec<(usize, f64, f64)>) {
    let (left, right) = if blocks.beside() {
        let (l, r) = blocks.columns();
        let k = width / (l + r);
        (l * k, r * k)
    } else {
        (width, width)
    };
    let measure = measure.min(left);
    let text = cap * TEXT;
    let line = text * 1.25;
    let gap = cap * 0.3;
    let mut h = 0.0;
    if !blocks.list.is_empty() {
        // Each item indented by its bullet (1.2 em).
        h += gap + blocks.list.iter().map(|i| lines(i, text, measure - 1.2 * text) * line + 2.0).sum::<f64>();
    }
    if !blocks.definitions.is_empty() {
        // "term — meaning", the meaning wrapping under itself.
        // The term is bold: widened by its bold's extra width.
        let term = |t: &str| {
            let extra = ((em_width(t, true) - em_width(t, false)) / em_width(" ", false)).ceil() as usize;
            format!("{t}{}", " x".repeat(extra.div_ceil(2)))
        };
        h += gap
            + blocks.definitions.iter().map(|d| lines(&format!("{} — {}", term(&d.term), d.meaning), text, measure) * line).sum::<f64>();
    }
    let mut wide = Vec::new();
    if let Some(code) = &blocks.code {
        let px = cap * SMALL;
        // Padding: .5 em above and below, .8 em each side, and the block's border.
        h += gap + code.lines.len() as f64 * px * 1.3 + px + 2.0;
        for (i, l) in code.lines.iter().enumerate() {
            let w = chars(l) as f64 * px * MONO_EM + 1.6 * px + 2.0;
            if w > left {
                wide.push((i, w.round(), left.round()));
            }
        }
    }
    let mut figure = 0.0;
    if let Some(d) = blocks.draw_figure(Theme::Projector, "") {
        let caption = lines(&d.caption, cap * SMALL, right) * cap * SMALL * 1.25;
        figure = gap + right * d.aspect + 2.0 + 4.0 + caption;
    }
    let h = if blocks.beside() { h.max(figure) } else { h + figure };
    (h, wide)
}

/// The height of a step's own words (title, text, question) and blocks; a closing table is
/// not estimated here (its rows are measured in the browser, tests/in_the_wild.rs and
/// lesson-index.spec.ts), so `need` leaves it out.
pub fn step(step: &LessonStep, title: &str, stage: &Stage) -> Fit {
    let cap = cap(stage.screen);
    let (width, room) = if step.is_slide() { stage.slide } else { stage.column };
    let text = cap * TEXT;
    let line = text * 1.25;
    let measure = if step.is_slide() { width.min(48.0 * text) } else { width };
    // The head (the step's count and buttons, .6 cap on a line of small buttons), the title
    // 4 px under it, the text 4 px under that (styles/lesson.css, `.app.lecture .lesson…`).
    let mut need = cap * 0.6 * 1.45 + 4.0 + bold_lines(title, cap * TITLE, width) * cap * TITLE * 1.2;
    need += 4.0 + lines(&step.text, text, measure) * line;
    if let Some(q) = &step.question {
        // The prompt (bold) 6 px over the choices, each a line (or more) in a 2 px border and
        // 1 px padding beside its key, 4 px apart; once revealed, the room's verdict (bold)
        // 4 px under them.
        need += 4.0 + bold_lines(&q.prompt, text, width) * line + 6.0;
        need += q.choices.iter().map(|c| lines(c, text, width - 60.0) * line + 6.0 + 4.0).sum::<f64>() - 4.0;
        need += 4.0 + bold_lines(LONGEST_VERDICT, text, width) * line;
    }
    // A slide's paragraphs stop at 48 em (styles/lesson.css), a column's at its width.
    let (blocks, wide) = blocks_height(&step.blocks, cap, width, measure);
    Fit { screen: stage.screen, need: need + blocks, room, wide }
}

/// The title the stage shows over a step: its scenario's, or on a slide the lesson's (as the
/// lesson player titles it, `player::Open`).
fn shown_title(lesson: &Lesson, step: &LessonStep) -> String {
    match step.scenario() {
        Some(s) if !step.is_slide() => s.title,
        _ => lesson.title.clone(),
    }
}

/// Every step of `lesson` on every stage (`STAGES`), in step order.
pub fn lesson(lesson: &Lesson) -> Vec<(usize, Fit)> {
    let mut out = Vec::new();
    for (i, s) in lesson.steps.iter().enumerate() {
        let title = shown_title(lesson, s);
        out.extend(STAGES.iter().map(|stage| (i, step(s, &title, stage))));
    }
    out
}

/// The first reason a lesson's blocks do not fit the stage, as the checker's error at its
/// field path: a step with a list, definitions, code or a figure that needs more than its box,
/// or a code line wider than it. Steps of words alone are estimated too (`table`), but not
/// refused: their fit was measured in Chromium when they were written, and the estimate of a
/// question's step runs up to 50 px over what Chromium shows (the verdict's line, the choices'
/// wrapping), which would refuse steps that fit.
pub fn refusal(lesson: &Lesson) -> Option<String> {
    let (i, f) = self::lesson(lesson).into_iter().find(|(i, f)| !lesson.steps[*i].blocks.is_empty() && !f.fits())?;
    let (w, h) = f.screen;
    Some(match f.wide.first() {
        Some((line, px, room)) => format!(
            "steps[{i}].code.lines[{line}]: {px} px wide on the {w}×{h} stage, where its box is {room} px; code does not wrap: shorten the line"
        ),
        None => format!(
            "steps[{i}]: its words need about {} px of the {} px the {w}×{h} stage gives {}; nothing on the stage scrolls: shorten its text or blocks",
            f.need.round(),
            f.room,
            if lesson.steps[i].is_slide() { "a slide" } else { "a step beside its diagram" }
        ),
    })
}

/// The estimates as a Markdown table, a line per step: its box and how much of it each
/// stage's estimate needs.
pub fn table(lessons: &[Lesson]) -> String {
    let mut out = String::from("| lesson | step | box | 1280×720 need / room | 1920×1080 need / room |\n|---|---|---|---|---|\n");
    for l in lessons {
        let fits = self::lesson(l);
        for (i, s) in l.steps.iter().enumerate() {
            let cells: Vec<String> =
                fits.iter().filter(|(j, _)| *j == i).map(|(_, f)| format!("{} / {}", f.need.round(), f.room)).collect();
            let kind = if s.is_slide() { "slide" } else { "column" };
            out += &format!("| {} | {} | {kind} | {} |\n", l.id, i + 1, cells.join(" | "));
        }
    }
    out
}
