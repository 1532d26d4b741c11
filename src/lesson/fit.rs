//! Whether a step's words fit the lecture stage (issue 36, item 3): a native estimate of the
//! height the step's panel needs at 1280×720 and 1920×1080, from the stage's type scale
//! (styles/lesson.css: every size is a share of `--cap`, 28 px at 1280×720 and 42 px at
//! 1920×1080) and the panel's box as measured in Chromium (`Stage`). Nothing on the stage
//! scrolls, so a step that needs more than its box is refused by the checker; a code line
//! wider than its box would be cut (code does not wrap), and is refused too.
//!
//! An estimate, on the safe side: a character of the stage's sans-serif is taken as
//! `SANS_EM` of its size (DejaVu Sans, the widest of the fonts the stage falls back to, is
//! about .55 on English text), a monospace one as `MONO_EM`. tests/e2e/specs/lesson.spec.ts
//! measures the same steps as Chromium renders them.

use super::blocks::Blocks;
use super::LessonStep;
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
    Stage { screen: (1280.0, 720.0), slide: (1190.0, 640.0), column: (466.0, 452.0) },
    Stage { screen: (1920.0, 1080.0), slide: (1830.0, 990.0), column: (718.0, 708.0) },
];

/// The width of a character of the stage's sans-serif, and of its monospace, in ems.
pub const SANS_EM: f64 = 0.55;
pub const MONO_EM: f64 = 0.6;

/// The stage's `--cap` on a screen (styles/app.css: `max(20px, min(2.1875vw, 3.889vh))`).
pub fn cap(screen: (f64, f64)) -> f64 {
    (screen.0 * 0.021875).min(screen.1 * 0.03889).max(20.0)
}

/// The type sizes of the step's parts, as shares of `--cap` (styles/lesson.css).
pub const TITLE: f64 = 1.0;
pub const TEXT: f64 = 0.86;
/// Code, a figure's caption: the diagram labels' size on the stage (18 px at 1280×720).
pub const SMALL: f64 = 0.64;

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

/// Lines a paragraph of `chars` characters takes at `px` in a box `width` wide.
fn lines(chars: usize, px: f64, width: f64) -> f64 {
    let per_line = (width / (px * SANS_EM)).floor().max(1.0);
    (chars as f64 / per_line).ceil().max(1.0)
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
        h += gap + blocks.list.iter().map(|i| lines(chars(i), text, measure - 1.2 * text) * line).sum::<f64>();
    }
    if !blocks.definitions.is_empty() {
        // "term — meaning", the meaning wrapping under itself.
        h += gap + blocks.definitions.iter().map(|d| lines(chars(&d.term) + 3 + chars(&d.meaning), text, measure) * line).sum::<f64>();
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
        let caption = lines(chars(&d.caption), cap * SMALL, right) * cap * SMALL * 1.25;
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
    // The head (the step's count and buttons, .6 cap on a line of small buttons) and the title.
    let mut need = cap * 0.6 * 2.0 + 4.0 + lines(chars(title), cap * TITLE, width) * cap * TITLE * 1.2;
    need += 4.0 + lines(chars(&step.text), text, if step.is_slide() { width.min(48.0 * text) } else { width }) * line;
    if let Some(q) = &step.question {
        need += 4.0 + lines(chars(&q.prompt), text, width) * line + 6.0;
        // Each choice on its line (or more), with its key and the room's count beside it.
        need += q.choices.iter().map(|c| lines(chars(c) + 6, text, width - 20.0) * line + 6.0).sum::<f64>();
        // The verdict once revealed, two lines at most.
        need += 4.0 + 2.0 * line;
    }
    // A slide's paragraphs stop at 48 em (styles/lesson.css), a column's at its width.
    let measure = if step.is_slide() { width.min(48.0 * text) } else { width };
    let (blocks, wide) = blocks_height(&step.blocks, cap, width, measure);
    Fit { screen: stage.screen, need: need + blocks, room, wide }
}
