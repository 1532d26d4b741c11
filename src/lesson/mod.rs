//! Lessons as data (docs/LESSON_FORMAT.md): a title and ordered steps, each a scenario (a
//! built-in or inline), its switches, where the cursor stands, a short text and perhaps a
//! question that asks the audience to predict before the run shows. Plain Rust, read with the
//! scenario reader's field paths and limits; a lesson that fails anywhere is refused whole.

pub mod blocks;
pub mod builtin;
pub mod course;
pub mod fair;
pub mod fit;
mod format;
pub mod guide;
pub mod handout;
pub mod player;
pub mod presenter;
mod read;
pub mod room;
pub mod share;
pub mod table;

pub use format::{caption_at, locate, At, Cursor, Lesson, LessonStep, Moment, Question, StepScenario};
pub use read::{parse, parse_value};

/// The bounds every accepted lesson stays within (docs/LESSON_FORMAT.md, "Limits").
pub mod limits {
    pub const MAX_STEPS: usize = 30;
    pub const MAX_TITLE_LEN: usize = 120;
    pub const MAX_TEXT_LEN: usize = 600;
    pub const MAX_PROMPT_LEN: usize = 300;
    pub const MAX_CHOICE_LEN: usize = 120;
    pub const MIN_CHOICES: usize = 2;
    pub const MAX_CHOICES: usize = 4;
    pub const MAX_ID_LEN: usize = 64;
    /// A question's declared facts (`reveals`): how many, and each one's length.
    pub const MAX_REVEALS: usize = 8;
    pub const MAX_REVEAL_LEN: usize = 60;
    pub const MAX_LESSON_BYTES: usize = 256 * 1024;
    /// A lesson's aims: how many, and each one's length.
    pub const MAX_AIMS: usize = 6;
    pub const MAX_AIM_LEN: usize = 200;
    /// A step's bullet list: how many items, and each one's length (one line on a slide).
    pub const MAX_LIST_ITEMS: usize = 6;
    pub const MAX_ITEM_LEN: usize = 90;
    /// A step's definitions: how many, a term's length and its meaning's.
    pub const MAX_DEFINITIONS: usize = 6;
    pub const MAX_TERM_LEN: usize = 30;
    pub const MAX_MEANING_LEN: usize = 140;
    /// A code block: its lines, and each line's characters (the widest a 1280×720 slide shows
    /// whole at the stage's code size; in a step's column fewer fit, which `fit` checks).
    pub const MAX_CODE_LINES: usize = 12;
    pub const MAX_CODE_LINE_LEN: usize = 60;
}
