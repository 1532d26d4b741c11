//! The stage's side of `locklab room` (src/lesson/room.rs) against the server's own types
//! (room/src/protocol.rs, read here as source): what the stage announces is a question the
//! server accepts, in shown order and without its answer; what the server sends, the stage reads.

#[allow(dead_code)]
#[path = "../room/src/protocol.rs"]
mod protocol;

use locklab::lesson::builtin;
use locklab::lesson::player::{Action, Player, Screen};
use locklab::lesson::room::{announcement, read, FromRoom};
use protocol::{FromStage, ToStage};

#[test]
fn every_question_announced_is_one_the_server_takes_and_never_its_answer() {
    let mut asked = 0;
    for lesson in builtin::all() {
        for (i, st) in lesson.steps.iter().enumerate() {
            let p = Player::at_address(&format!("?lesson={}&step={}", lesson.id, i + 1), "");
            let text = announcement(p.open.as_deref());
            let said: FromStage = protocol::parse(&text, &[]).unwrap_or_else(|e| panic!("{} step {}: {e}", lesson.id, i + 1));
            match (said, &st.question) {
                (FromStage::Question(q), Some(file)) => {
                    q.check().unwrap_or_else(|e| panic!("{} step {}: {e}", lesson.id, i + 1));
                    let shown: Vec<String> = p.open.as_ref().unwrap().choices(false).into_iter().map(|c| c.text).collect();
                    assert_eq!(
                        (q.lesson.as_str(), q.step, &q.prompt, &q.choices, q.revealed),
                        (lesson.id.as_str(), i, &file.prompt, &shown, false)
                    );
                    assert!(!text.contains("answer"), "{text}");
                    asked += 1;
                }
                (FromStage::Idle, None) => {}
                (said, _) => panic!("{} step {}: announced {said:?}", lesson.id, i + 1),
            }
        }
    }
    assert!(asked > 0);
    assert_eq!(announcement(None), r#"{"type":"idle"}"#);
}

#[test]
fn a_revealed_question_says_so() {
    let lesson = builtin::all().into_iter().find(|l| l.steps.iter().any(|s| s.question.is_some())).unwrap();
    let i = lesson.steps.iter().position(|s| s.question.is_some()).unwrap();
    let p = Player::at_address(&format!("?lesson={}&step={}", lesson.id, i + 1), "");
    let (p, _) = p.apply(Action::Reveal, Screen::default());
    match protocol::parse::<FromStage>(&announcement(p.open.as_deref()), &[]).unwrap() {
        FromStage::Question(q) => assert!(q.revealed),
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_stage_reads_what_the_server_sends() {
    let room = ToStage::Room { voter_url: "http://10.0.0.2:8080/v".into(), qr: "/room/qr.svg".into() };
    assert_eq!(read(&protocol::text(&room)), Ok(FromRoom::Room { voter_url: "http://10.0.0.2:8080/v".into(), qr: "/room/qr.svg".into() }));
    let counts = ToStage::Counts { lesson: "clocks".into(), step: 3, counts: vec![4, 0, 9], votes: 13, voters: 20, seq: 77 };
    assert_eq!(
        read(&protocol::text(&counts)),
        Ok(FromRoom::Counts { lesson: "clocks".into(), step: 3, counts: vec![4, 0, 9], votes: 13, voters: 20 })
    );
    let error = ToStage::Error { error: "question.choices: give 2 to 8 choices, got 9".into() };
    assert_eq!(read(&protocol::text(&error)), Ok(FromRoom::Error("question.choices: give 2 to 8 choices, got 9".into())));
    assert!(read("{").unwrap_err().starts_with("not JSON"));
    assert_eq!(read(r#"{"type":"shout"}"#), Err(r#"type: unknown (Some("shout"))"#.into()));
}
