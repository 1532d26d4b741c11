//! A lesson in the address bar: `?lesson=ID&step=N` for a built-in, `?step=N#l=…` for a
//! lecturer's own (its JSON text in base64url, as `#s=` carries a scenario). Steps count
//! from 1 here, as a lecturer says them. Plain Rust: the UI hands in the page's address.

use std::rc::Rc;

use super::{builtin, parse, Lesson};
use crate::scenario::share::{decode, encode, pairs};

/// The longest `#l=` value read or written: a lesson holds several scenarios, so more than
/// `#s=`'s 16 KB, still within what browsers and chat apps keep.
pub const MAX_ENCODED_LEN: usize = 48 * 1024;

/// Where a lesson came from, which is what its link names.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    Builtin(String),
    /// The lesson's JSON text as loaded (a file or a link).
    Own(Rc<str>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Opened {
    pub lesson: Lesson,
    pub source: Source,
    /// 0-based, clamped to the lesson's steps.
    pub step: usize,
}

/// The lesson a page address opens: None when it names none; Err with what is wrong.
pub fn open(search: &str, hash: &str) -> Option<Result<Opened, String>> {
    let query: Vec<(&str, &str)> = pairs(search.trim_start_matches('?')).collect();
    let get = |key: &str| query.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
    let encoded = pairs(hash.trim_start_matches('#')).find(|(k, _)| *k == "l").map(|(_, v)| v);
    let step = get("step").and_then(|v| v.parse::<usize>().ok()).unwrap_or(1).saturating_sub(1);
    let opened = match (encoded, get("lesson")) {
        (Some(text), _) => decode_lesson(text).map(|(lesson, text)| (lesson, Source::Own(text))),
        (None, Some(id)) if !id.is_empty() => match builtin::get(id) {
            Some(lesson) => Ok((lesson, Source::Builtin(id.to_string()))),
            None => Err(format!("lesson={id}: no built-in lesson has this id (there are {})", builtin::ids_quoted())),
        },
        // `?lesson=` without an id asks for the index (`wants_index`), not a lesson.
        (None, _) => return None,
    };
    Some(opened.map(|(lesson, source)| {
        let step = step.min(lesson.steps.len() - 1);
        Opened { lesson, source, step }
    }))
}

/// Whether the address asks for the lesson index: `?lesson=` with no id (and no `#l=`).
pub fn wants_index(search: &str, hash: &str) -> bool {
    let lesson = pairs(search.trim_start_matches('?')).find(|(k, _)| *k == "lesson").map(|(_, v)| v);
    lesson == Some("") && !pairs(hash.trim_start_matches('#')).any(|(k, _)| k == "l")
}

/// A lecturer's own lesson from its text, with the source kept for its link.
pub fn own(text: &str) -> Result<Opened, String> {
    let lesson = parse(text).map_err(|e| e.to_string())?;
    Ok(Opened { lesson, source: Source::Own(Rc::from(text)), step: 0 })
}

fn decode_lesson(text: &str) -> Result<(Lesson, Rc<str>), String> {
    if text.len() > MAX_ENCODED_LEN {
        return Err(format!("#l=: the encoded lesson is {} characters; a link carries at most {MAX_ENCODED_LEN}", text.len()));
    }
    let json = String::from_utf8(decode(text)?).map_err(|_| "#l=: the decoded lesson is not UTF-8 text".to_string())?;
    let lesson = parse(&json).map_err(|e| format!("#l=: invalid lesson: {e}"))?;
    Ok((lesson, Rc::from(json)))
}

/// The link (`?…#…`) to step `step` (0-based) of a lesson; `embed` adds `embed=1`. An own
/// lesson too large for a link is named by its step alone.
pub fn link(source: &Source, step: usize, embed: bool) -> String {
    let embed = if embed { "&embed=1" } else { "" };
    match source {
        Source::Builtin(id) => format!("?lesson={id}&step={}{embed}", step + 1),
        Source::Own(text) => {
            let encoded = encode(text.as_bytes());
            let hash = if encoded.len() <= MAX_ENCODED_LEN { format!("#l={encoded}") } else { String::new() };
            format!("?step={}{embed}{hash}", step + 1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_round_trip() {
        let o = open("?lesson=why-fencing&step=3", "").unwrap().unwrap();
        assert_eq!((o.step, &o.source), (2, &Source::Builtin("why-fencing".into())));
        assert_eq!(link(&o.source, o.step, false), "?lesson=why-fencing&step=3");
        assert_eq!(link(&o.source, 0, true), "?lesson=why-fencing&step=1&embed=1");
        assert_eq!(open("?lesson=why-fencing&step=99", "").unwrap().unwrap().step, o.lesson.steps.len() - 1);
        assert_eq!(open("?lesson=why-fencing&step=0", "").unwrap().unwrap().step, 0);
        assert!(open("?scenario=redis-gc-pause", "#s=abc").is_none());
        assert!(open("?lesson=nope", "").unwrap().unwrap_err().contains("lesson=nope"));
        assert!(open("?lesson=nope", "").unwrap().unwrap_err().contains(r#""leases", "why-fencing""#));
        // No id: the index, not an error.
        assert!(open("?lesson=", "").is_none() && open("?lesson=&lecture=1", "").is_none());
        assert!(wants_index("?lesson=", "") && wants_index("?lecture=1&lesson=", ""));
        assert!(!wants_index("?lesson=leases", "") && !wants_index("", "") && !wants_index("?lesson=", "#l=abc"));

        let text = r#"{"version": 1, "title": "Mine", "steps": [{"scenario": "happy-path-redis", "text": "a"}, {"scenario": "happy-path-etcd", "text": "b"}]}"#;
        let mine = own(text).unwrap();
        let l = link(&mine.source, 1, false);
        assert!(l.starts_with("?step=2#l="), "{l}");
        let (q, h) = l.split_at(l.find('#').unwrap());
        let back = open(q, h).unwrap().unwrap();
        assert_eq!((back.lesson.title.as_str(), back.step, back.source), ("Mine", 1, mine.source));
        // The fragment wins over `lesson=`, as `#s=` wins over `scenario=`.
        assert_eq!(open(&format!("?lesson=why-fencing{}", &q[..0]), h).unwrap().unwrap().lesson.title, "Mine");
        let bad = encode(br#"{"version": 1, "title": "x", "steps": []}"#);
        assert_eq!(open("", &format!("#l={bad}")).unwrap().unwrap_err(), "#l=: invalid lesson: steps: 0 steps: a lesson has 1 to 30");
        assert!(own("{").unwrap_err().contains("the text ends"));
    }
}
