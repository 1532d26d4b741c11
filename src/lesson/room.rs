//! The stage's messages to and from `locklab room` (docs/ROOM.md), as plain Rust: the question
//! on screen as the stage announces it (never its answer), and the room's messages read.
//! The protocol's types live in the server's crate (room/src/protocol.rs); here they are read
//! and written field by field through `serde_json::Value`, which the app already carries: their
//! derived (de)serializers cost the wasm ~34 KB raw. tests/room_stage.rs holds both to the
//! server's types.

use serde_json::{json, Value};

use super::player::Open;

/// What the stage tells the room for the lesson on screen: its question, with the choices in
/// shown order (the order `Action::Choose` and the room's counts take) and whether it has been
/// revealed; or idle (no lesson, a slide).
pub fn announcement(open: Option<&Open>) -> String {
    let question = open.and_then(|o| {
        let pr = &o.presenter;
        let q = pr.current().question.as_ref()?;
        let choices: Vec<String> = o.choices(false).into_iter().map(|c| c.text).collect();
        Some(json!({"type": "question", "lesson": pr.lesson.id, "step": pr.step, "prompt": q.prompt, "choices": choices, "revealed": pr.revealed()}))
    });
    question.unwrap_or_else(|| json!({"type": "idle"})).to_string()
}

/// A message from the room, as the stage uses it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FromRoom {
    /// On connecting: the voters' address and the path of its QR code.
    Room {
        voter_url: String,
        qr: String,
    },
    /// The question's live counts (one per choice, in shown order), votes and phones connected.
    Counts {
        lesson: String,
        step: usize,
        counts: Vec<u32>,
        votes: u32,
        voters: usize,
    },
    Error(String),
}

/// Reads one of the room's messages; Err names what the stage could not read.
pub fn read(text: &str) -> Result<FromRoom, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("not JSON ({e})"))?;
    let s = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string).ok_or(format!("{k}: missing"));
    let n = |k: &str| v.get(k).and_then(Value::as_u64).ok_or(format!("{k}: missing"));
    match v.get("type").and_then(Value::as_str) {
        Some("room") => Ok(FromRoom::Room { voter_url: s("voter_url")?, qr: s("qr")? }),
        Some("counts") => {
            let counts = v.get("counts").and_then(Value::as_array).ok_or("counts: missing")?;
            Ok(FromRoom::Counts {
                lesson: s("lesson")?,
                step: n("step")? as usize,
                counts: counts.iter().map(|c| c.as_u64().map(|c| c as u32).ok_or("counts: not a count")).collect::<Result<_, _>>()?,
                votes: n("votes")? as u32,
                voters: n("voters")? as usize,
            })
        }
        Some("error") => Ok(FromRoom::Error(s("error")?)),
        other => Err(format!("type: unknown ({other:?})")),
    }
}
