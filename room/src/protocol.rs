//! The room's messages (docs/ROOM.md): JSON text frames, one object each, named by `type`.
//! What each side may send is its own enum, so a voter's socket cannot even parse a stage's
//! message; every limit is a constant here, stated in docs/ROOM.md.

use serde::{Deserialize, Serialize};

/// The longest text frame read, in bytes; a longer one is answered with an error and dropped.
pub const MAX_MESSAGE_BYTES: usize = 4096;
/// A frame longer than this closes the socket (WebSocket close 1009): it is not even read.
pub const MAX_FRAME_BYTES: usize = 64 * 1024;
/// A question's choices, at most.
pub const MAX_CHOICES: usize = 8;
/// A choice's label and the prompt, at most, in characters.
pub const MAX_LABEL_CHARS: usize = 200;
pub const MAX_PROMPT_CHARS: usize = 500;
/// A lesson id, at most, in characters.
pub const MAX_LESSON_CHARS: usize = 64;
/// A voter id: 8 to 64 characters of A-Z, a-z, 0-9, - and _ (the voter page makes 22).
pub const VOTER_ID_CHARS: std::ops::RangeInclusive<usize> = 8..=64;
/// Distinct voters one question counts, at most (a phone's reconnect keeps its one place).
pub const MAX_VOTERS_PER_QUESTION: usize = 5000;
/// Sockets open at once (stages and voters together); the next is refused with 503.
pub const MAX_SOCKETS: usize = 2000;

/// The question on screen as the stage announces it: never its answer (a stage that sends
/// one is refused: `deny_unknown_fields`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Question {
    pub lesson: String,
    /// The lesson's step, 0-based.
    pub step: usize,
    pub prompt: String,
    /// The labels in the order the stage shows them: a vote's `choice` indexes this list.
    pub choices: Vec<String>,
    /// The answer has been revealed: voting on it is closed.
    #[serde(default)]
    pub revealed: bool,
}

/// What the stage sends.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
pub enum FromStage {
    /// The question on screen now (again, after a reveal, with `revealed: true`).
    Question(Question),
    /// No question on screen (a slide, or the lesson closed).
    Idle,
}

/// What a voter sends.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
pub enum FromVoter {
    /// First: who this phone is (kept in its localStorage, so a reconnect is the same voter).
    Hello { voter: String },
    /// A vote for choice `choice` (0-based, in shown order) of the question `lesson`/`step`.
    Vote { lesson: String, step: usize, choice: usize },
}

/// What the stage receives.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ToStage {
    /// On connecting: the voters' address (in text and as the QR code at `qr`).
    Room {
        voter_url: String,
        qr: String,
    },
    /// The current question's live counts, one per choice in shown order. `seq` grows by one
    /// with every vote counted or moved (a vote's `voted.seq` is in every counts from then on).
    Counts {
        lesson: String,
        step: usize,
        counts: Vec<u32>,
        votes: u32,
        voters: usize,
        seq: u64,
    },
    Error {
        error: String,
    },
}

/// What a voter receives.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ToVoter {
    /// The question on screen, and this voter's vote on it, if any.
    Question {
        lesson: String,
        step: usize,
        prompt: String,
        choices: Vec<String>,
        open: bool,
        yours: Option<usize>,
    },
    /// No question on screen.
    Idle,
    /// The vote is counted (once, however often it is sent).
    Voted {
        lesson: String,
        step: usize,
        choice: usize,
        seq: u64,
    },
    Error {
        error: String,
    },
}

impl Question {
    /// The question's fields within their limits, or what is wrong, naming the field.
    pub fn check(&self) -> Result<(), String> {
        let chars = |s: &str| s.chars().count();
        if self.lesson.is_empty() || chars(&self.lesson) > MAX_LESSON_CHARS {
            return Err(format!("question.lesson: give 1 to {MAX_LESSON_CHARS} characters, got {}", chars(&self.lesson)));
        }
        if chars(&self.prompt) > MAX_PROMPT_CHARS {
            return Err(format!("question.prompt: {} characters is over the limit of {MAX_PROMPT_CHARS}", chars(&self.prompt)));
        }
        if !(2..=MAX_CHOICES).contains(&self.choices.len()) {
            return Err(format!("question.choices: give 2 to {MAX_CHOICES} choices, got {}", self.choices.len()));
        }
        if let Some((i, c)) = self.choices.iter().enumerate().find(|(_, c)| c.is_empty() || chars(c) > MAX_LABEL_CHARS) {
            return Err(format!("question.choices[{i}]: give 1 to {MAX_LABEL_CHARS} characters, got {}", chars(c)));
        }
        Ok(())
    }
}

/// A voter id within its limits, or what is wrong.
pub fn check_voter_id(id: &str) -> Result<(), String> {
    let ok_char = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    if !VOTER_ID_CHARS.contains(&id.len()) || !id.chars().all(ok_char) {
        let (lo, hi) = (VOTER_ID_CHARS.start(), VOTER_ID_CHARS.end());
        return Err(format!("hello.voter: give {lo} to {hi} characters of A-Z, a-z, 0-9, - and _"));
    }
    Ok(())
}

/// A frame's text as one of `T`'s messages, or the error to send back: too long, not JSON, or
/// not a message of this side (`who` names the side, and `foreign` the other side's types,
/// so a voter that tries to set the question hears why it may not).
pub fn parse<T: serde::de::DeserializeOwned>(text: &str, foreign: &[(&str, &str)]) -> Result<T, String> {
    if text.len() > MAX_MESSAGE_BYTES {
        return Err(format!("message: {} bytes is over the limit of {MAX_MESSAGE_BYTES} bytes", text.len()));
    }
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("message: not JSON ({e})"))?;
    let kind = value.get("type").and_then(|t| t.as_str()).ok_or("message.type: missing; every message names its type")?.to_string();
    if let Some((_, why)) = foreign.iter().find(|(t, _)| *t == kind) {
        return Err(format!("{kind}: {why}"));
    }
    serde_json::from_value(value).map_err(|e| format!("{kind}: {e}"))
}

/// Serializes a message (they always serialize).
pub fn text<T: Serialize>(message: &T) -> String {
    serde_json::to_string(message).expect("room messages serialize")
}
