//! Lessons (docs/LESSON_FORMAT.md): the reader refuses a bad lesson whole with a field path,
//! the built-in lesson says only what its runs show, and the presenter's moves.

use locklab::lab::{self, Run};
use locklab::lesson::presenter::Presenter;
use locklab::lesson::{builtin, locate, parse, table, At, Lesson, Moment, StepScenario};
use locklab::timeline::{KeyKind, Timeline};

const GOOD: &str = r#"{
  "version": 1,
  "id": "tiny",
  "title": "A tiny lesson",
  "steps": [
    { "scenario": "redis-gc-pause", "at": "pause", "text": "A pauses." ,
      "question": { "prompt": "What happens?", "choices": ["lost", "safe", "nothing"], "answer": 0, "reveal_at": "stale_write" } },
    { "scenario": "redis-gc-pause", "fencing": true, "safe_unlock": false, "at": 12000, "text": "With fencing." },
    { "scenario": { "version": 1, "title": "Inline happy", "approach": "etcd", "duration_ms": 8000 },
      "text": "Inline.", "table": [0, 1] }
  ]
}"#;

/// GOOD with `from` replaced by `to` (which must occur).
fn bad(from: &str, to: &str) -> String {
    assert!(GOOD.contains(from), "{from}");
    GOOD.replacen(from, to, 1)
}

fn error_of(text: &str) -> String {
    parse(text).map(|l| format!("accepted: {}", l.id)).unwrap_or_else(|e| e.to_string())
}

#[test]
fn a_good_lesson_reads() {
    let l = parse(GOOD).unwrap();
    assert_eq!((l.version, l.id.as_str(), l.title.as_str(), l.steps.len()), (1, "tiny", "A tiny lesson", 3));
    assert_eq!(l.steps[0].scenario, StepScenario::Builtin("redis-gc-pause".into()));
    assert_eq!(l.steps[0].at, At::Moment(Moment::Key(KeyKind::Paused)));
    let q = l.steps[0].question.as_ref().unwrap();
    assert_eq!((q.choices.len(), q.answer, q.reveal_at.describe().as_str()), (3, 0, "stale_write"));
    assert_eq!((l.steps[1].fencing, l.steps[1].safe_unlock, l.steps[1].at), (Some(true), Some(false), At::Ms(12000)));
    assert!(l.steps[1].scenario().unwrap().storage.fencing);
    let StepScenario::Inline(s) = &l.steps[2].scenario else { panic!("inline") };
    assert_eq!((s.id.as_str(), s.duration_ms), ("inline-happy", 8000));
    assert_eq!(l.steps[2].at, At::Moment(Moment::Start));
    assert_eq!(l.steps[2].table, vec![0, 1]);
    // A byte-order mark is not part of the JSON; an id defaults to the title's slug.
    let bom = format!("\u{feff}{}", GOOD.replace(r#""id": "tiny","#, ""));
    assert_eq!(parse(&bom).unwrap().id, "a-tiny-lesson");
}

#[test]
fn bad_lessons_are_refused_whole_with_the_field_path() {
    let cases: Vec<(String, &str)> = vec![
        (bad(r#""answer": 0"#, r#""answer": 5"#), "steps[0].question.answer: 5 is out of range: must be 0..=2"),
        (bad(r#""approach": "etcd""#, r#""approach": "etcd", "servers": 3"#), "steps[2].scenario.servers: unknown field `servers`"),
        (bad(r#""version": 1,"#, r#""version": 2,"#), "version: unsupported version 2"),
        (bad(r#""title": "A tiny lesson","#, r#""title": 7,"#), "title: invalid type: integer, expected a string"),
        (bad(r#""at": "pause""#, r#""at": "lunch""#), "steps[0].at: unknown variant `lunch`, expected one of `start`"),
        (bad(r#""at": "pause""#, r#""at": "crash""#), "steps[0].at: no \"crash\" moment in this step's run (redis-gc-pause, fencing off)"),
        (bad(r#""at": 12000"#, r#""at": 99000"#), "steps[1].at: 99000 is after the run ends: must be at most 20000"),
        (bad(r#""at": 12000"#, r#""at": -5"#), "steps[1].at: -5 is before the run starts"),
        (
            bad(r#""reveal_at": "stale_write""#, r#""reveal_at": "rejected_write""#),
            "steps[0].question.reveal_at: no \"rejected_write\" moment",
        ),
        (
            bad(r#""choices": ["lost", "safe", "nothing"]"#, r#""choices": ["lost"]"#),
            "steps[0].question.choices: 1 choices: a question has 2 to 4",
        ),
        (bad(r#""choices": ["lost", "safe", "nothing"]"#, r#""choices": ["lost", ""]"#), "steps[0].question.choices[1]: must not be empty"),
        (
            bad(r#""scenario": "redis-gc-pause", "fencing""#, r#""scenario": "redis-gc-paws", "fencing""#),
            "steps[1].scenario: no built-in scenario \"redis-gc-paws\"",
        ),
        (
            bad(r#""scenario": "redis-gc-pause", "fencing""#, r#""scenario": 3, "fencing""#),
            "steps[1].scenario: invalid type: integer, expected a built-in scenario id or a scenario object",
        ),
        (bad(r#""fencing": true"#, r#""fencing": "yes""#), "steps[1].fencing: invalid type: string, expected a boolean"),
        (bad(r#""text": "Inline.""#, r#""txt": "Inline.""#), "steps[2].txt: unknown field `txt`"),
        (
            bad(r#""text": "With fencing.""#, &format!(r#""text": "{}""#, "x".repeat(601))),
            "steps[1].text: 601 characters: the limit is 600",
        ),
        (bad(r#""table": [0, 1]"#, r#""table": [0, 7]"#), "steps[2].table[1]: 7 is out of range: must be 0..=2"),
        (bad(r#""table": [0, 1]"#, r#""table": [2]"#), "steps[2].table[0]: 2 is this step itself"),
        (bad(r#""id": "tiny""#, r#""id": "Tiny Lesson""#), "id: must be at most 64 lowercase letters"),
        (bad(r#""id": "tiny","#, r#""id": "tiny", "id": "again","#), "duplicate field `id` at line 3"),
        (bad(r#""approach": "etcd""#, r#""approach": "etcd",,"#), "steps[2].scenario"),
    ];
    for (text, want) in &cases {
        let got = error_of(text);
        assert!(!got.starts_with("accepted"), "{want}: {got}");
        assert!(got.contains(want), "want {want:?}, got {got:?}");
    }
    // A key written twice names the field itself (issue 21), at any depth.
    let twice = error_of(&bad(r#""text": "A pauses.""#, r#""text": "A pauses.", "text": "Again.""#));
    assert!(twice.starts_with("steps[0].text: duplicate field `text` at line 6"), "{twice}");
    let twice = error_of(&bad(r#""duration_ms": 8000"#, r#""duration_ms": 8000, "duration_ms": 9000"#));
    assert!(twice.starts_with("steps[2].scenario.duration_ms: duplicate field `duration_ms`"), "{twice}");
    let twice = error_of(&bad(r#""id": "tiny","#, r#""id": "tiny", "id": "again","#));
    assert!(twice.starts_with("id: duplicate field `id`"), "{twice}");
    // An inline scenario that fails validation names its field under the step.
    let got = error_of(&bad(r#""duration_ms": 8000"#, r#""duration_ms": -1"#));
    assert!(got.starts_with("steps[2].scenario.duration_ms"), "{got}");
    let many =
        format!(r#"{{"version": 1, "title": "t", "steps": [{}]}}"#, vec![r#"{"scenario": "happy-path-redis", "text": "x"}"#; 31].join(","));
    assert_eq!(error_of(&many), "steps: 31 steps: a lesson has 1 to 30");
    assert_eq!(error_of(r#"{"version": 1, "title": "t"}"#), "missing field `steps`");
    assert!(error_of(&" ".repeat(300 * 1024)).starts_with("lesson is 307200 bytes; the limit is 262144"));
}

// ---- the built-in lesson: every claim true of its run ----

fn why() -> Lesson {
    builtin::get("why-fencing").expect("the built-in lesson")
}

fn run_of(l: &Lesson, i: usize) -> Run {
    l.steps[i].run().unwrap()
}

fn step_of(l: &Lesson, scenario_id: &str, fencing: bool) -> usize {
    (0..l.steps.len())
        .find(|&i| l.steps[i].scenario().is_some_and(|s| s.id == scenario_id && s.storage.fencing == fencing))
        .unwrap_or_else(|| panic!("no step runs {scenario_id} with fencing {fencing}"))
}

fn tokens(r: &Run) -> Vec<(String, Option<u64>)> {
    r.verdict.grants.iter().map(|g| (g.client.clone(), g.token)).collect()
}

#[test]
fn the_built_in_lesson_reads_and_every_step_lands_on_its_moment() {
    let l = why();
    assert_eq!(l.title, "Why a lock needs a fencing token");
    assert!((10..=14).contains(&l.steps.len()), "{}", l.steps.len());
    for (i, s) in l.steps.iter().enumerate() {
        let run = s.run().unwrap();
        let tl = Timeline::of_run(&run);
        assert!(locate(s.at, &tl).is_some(), "step {i}");
        if let At::Moment(Moment::Key(kind)) = s.at {
            let c = locate(s.at, &tl).unwrap();
            assert_eq!(tl.key_moments.iter().find(|k| Some(k.event) == c.event).unwrap().kind, kind, "step {i}");
        }
    }
}

#[test]
fn each_step_shows_what_its_text_says() {
    let l = why();
    let text = |i: usize| l.steps[i].text.as_str();
    // A lock is a row; A gets token 1, B is refused until A is done, then token 2.
    let r = run_of(&l, 0);
    assert!(text(0).contains("row") && r.scenario.approach == locklab::scenario::Approach::DbLease);
    assert_eq!(tokens(&r), vec![("A".into(), Some(1)), ("B".into(), Some(2))]);
    assert!(r.verdict.safe && r.verdict.max_concurrent_holders == 1);
    // Happy path with a 10 s TTL: one holder, every write in order.
    let r = run_of(&l, 1);
    assert!(text(1).contains("10 s") && r.scenario.lock.ttl_ms == 10_000);
    assert_eq!(tokens(&r), vec![("A".into(), Some(1)), ("B".into(), Some(2))]);
    assert!(r.verdict.safe && r.verdict.max_concurrent_holders == 1 && r.verdict.writes.iter().all(|w| w.accepted && !w.stale));
    assert_eq!(r.verdict.writes.iter().filter(|w| w.client == "A").count(), 2);
    // Lost updates: the pause, the delay and the clock each get a stale write accepted, fencing off.
    for (i, cause) in [(2, "pause"), (3, "delay"), (4, "clock_jump")] {
        let r = run_of(&l, i);
        assert!(!r.scenario.storage.fencing && !r.verdict.safe && r.verdict.stale_writes_accepted >= 1, "step {i}");
        let kinds: Vec<&str> = r.scenario.faults.iter().map(|f| f.kind().id()).collect();
        assert_eq!(kinds, vec![cause], "step {i} has only its one cause");
    }
    let r = run_of(&l, 2);
    assert!(
        matches!(r.scenario.faults[0], locklab::scenario::FaultSpec::Pause(locklab::scenario::fault::Pause { duration_ms: 15_000, .. }))
            && r.scenario.lock.ttl_ms == 10_000
    );
    // The fencing token rejects the stale write.
    let i = step_of(&l, "redis-gc-pause", true);
    let r = run_of(&l, i);
    assert!(r.verdict.safe && r.verdict.stale_writes_rejected >= 1);
    assert_eq!(tokens(&r), vec![("A".into(), Some(1)), ("B".into(), Some(2))]);
    // A token from a forgetful source: restart without persistence and failover repeat token 1,
    // and fencing on does not save B's update.
    for id in ["redis-restart-without-persistence", "redis-failover"] {
        let r = run_of(&l, step_of(&l, id, true));
        assert_eq!(tokens(&r), vec![("A".into(), Some(1)), ("B".into(), Some(1))], "{id}");
        assert!(!r.verdict.safe && r.verdict.stale_writes_accepted >= 1, "{id}");
    }
    // Redlock: a majority of 5, no token, unsafe with fencing on.
    let r = run_of(&l, step_of(&l, "redlock-clock-jump", true));
    assert_eq!(locklab::scenario::validate::quorum(&r.scenario), 3);
    assert!(r.verdict.grants.iter().all(|g| g.token.is_none()) && !r.verdict.safe);
    // etcd and ZooKeeper with fencing: stale write rejected, nothing lost.
    let r = run_of(&l, step_of(&l, "etcd-gc-pause", true));
    assert_eq!(tokens(&r), vec![("A".into(), Some(2)), ("B".into(), Some(3))]);
    for id in ["etcd-gc-pause", "zookeeper-session-expiry"] {
        let r = run_of(&l, step_of(&l, id, true));
        assert!(r.verdict.safe && r.verdict.stale_writes_rejected >= 1 && r.verdict.stale_writes_accepted == 0, "{id}");
    }
}

#[test]
fn each_answer_is_what_the_run_shows() {
    let l = why();
    let mut questions = 0;
    for (i, s) in l.steps.iter().enumerate() {
        let Some(q) = &s.question else { continue };
        questions += 1;
        let r = s.run().unwrap();
        let answer = q.choices[q.answer].to_lowercase();
        // An answer says the update is lost (or that storage accepts the late write) or that
        // storage rejects the write; the run agrees.
        let says_lost = answer.contains("lost") || answer.starts_with("no") || answer.starts_with("accepts");
        let says_rejected = answer.contains("reject");
        assert!(says_lost != says_rejected, "step {i}: {answer}");
        assert_eq!(says_lost, !r.verdict.safe, "step {i}: {answer}");
        assert_eq!(says_rejected, r.verdict.stale_writes_rejected > 0, "step {i}: {answer}");
        // The reveal plays to the moment that shows it.
        let want = if says_lost { "stale_write" } else { "rejected_write" };
        assert_eq!(q.reveal_at.describe(), want, "step {i}");
        // The other choices are what did not happen here.
        for (c, choice) in q.choices.iter().enumerate().filter(|&(c, _)| c != q.answer) {
            let c_lost = choice.to_lowercase().contains("lost");
            assert!(!(c_lost && r.verdict.safe), "step {i} choice {c}");
        }
    }
    assert!(questions >= 3, "{questions}");
}

#[test]
fn the_closing_table_is_computed_from_the_runs() {
    let l = why();
    let last = l.steps.len() - 1;
    let rows = table::rows(&l, last);
    assert!(!rows.is_empty());
    assert_eq!(rows.len(), l.steps[last].table.len(), "a row for each step the table lists");
    for row in &rows {
        let s = l.steps[row.step].scenario().unwrap();
        for (fencing, cell) in [(false, row.fencing_off), (true, row.fencing_on)] {
            let v = lab::run(&lab::with_fencing(&s, fencing)).verdict;
            assert_eq!((cell.safe, cell.stale_accepted, cell.stale_rejected), (v.safe, v.stale_writes_accepted, v.stale_writes_rejected));
        }
        assert!(!row.fencing_off.safe, "every row shows the gap without fencing: step {}", row.step);
    }
    // The seed's table: each approach once or more, and what fencing does for it.
    use locklab::scenario::Approach::*;
    let by = |a| rows.iter().filter(move |r| r.approach == a);
    assert!(by(DbLease).all(|r| r.fencing_on.safe) && by(DbLease).count() >= 1);
    assert!(by(Redlock).all(|r| !r.fencing_on.safe && !r.has_token) && by(Redlock).count() >= 1);
    assert!(by(Etcd).chain(by(Zookeeper)).all(|r| r.fencing_on.safe) && by(Etcd).count() + by(Zookeeper).count() >= 2);
    assert!(by(Redis).any(|r| r.fencing_on.safe) && by(Redis).any(|r| !r.fencing_on.safe));
    assert!(table::rows(&l, 0).is_empty());
}

#[test]
fn the_presenter_moves_and_reveals() {
    let l = why();
    let n = l.steps.len();
    let q = (0..n).find(|&i| l.steps[i].question.is_some()).unwrap();
    let mut p = Presenter::new(l.clone(), 99);
    assert_eq!(p.step, n - 1);
    assert!(p.is_last() && !p.next());
    let mut p = Presenter::new(l.clone(), 0);
    assert!(!p.prev() && !p.choose(0) && !p.reveal());
    assert!(p.go(q));
    let answer = p.current().question.as_ref().unwrap().answer;
    let other = (answer + 1) % 2;
    assert_eq!(p.held(), None);
    // The room's hands: two for the answer, one for another choice.
    assert!(p.choose(answer) && p.choose(other) && p.choose(answer) && !p.choose(9));
    assert_eq!((p.hands()[answer], p.hands()[other], p.majority()), (2, 1, Some(answer)));
    assert_eq!(p.held(), None, "not before the reveal");
    assert!(p.reveal() && !p.reveal());
    assert_eq!(p.held(), Some(true));
    assert!(!p.choose(other), "no hands after the reveal");
    // Going back a step and forward again keeps the room's answer.
    assert!(p.prev() && p.next());
    assert!(p.revealed() && p.held() == Some(true) && p.hands()[answer] == 2);
    // A room whose majority was wrong.
    let mut p = Presenter::new(l.clone(), q);
    assert!(p.choose(other) && p.choose(other) && p.choose(answer) && p.reveal());
    assert_eq!(p.held(), Some(false));
    // A tie at the top, and no hands at all, say nothing about the room.
    let mut p = Presenter::new(l.clone(), q);
    assert!(p.choose(0) && p.choose(1) && p.majority().is_none() && p.reveal());
    assert_eq!(p.held(), None);
    let mut p = Presenter::new(l, q);
    assert!(p.reveal());
    assert_eq!(p.held(), None);
}
