//! The lesson on screen as a model (`lesson::player`), driven natively with the session it
//! drives: every built-in lesson walked forward (each question answered by its reveal) and
//! back, the room's answers, and the bounds of every move.

use locklab::lesson::player::{Action, Player, Screen};
use locklab::lesson::{builtin, Cursor};
use locklab::session::{Action as Cue, Session, Start};

/// A session as the app starts one, without motion: a play-to lands at once.
fn session() -> Session {
    Session::new(&Start { reduced_motion: true, ..Start::default() })
}

fn screen(s: &Session) -> Screen {
    Screen { cursor: s.cursor, playing: s.playing, embed: false }
}

/// A cue in words, to compare (session actions have no equality of their own).
fn words(c: &Cue) -> String {
    match c {
        Cue::Load(_) => "load".into(),
        Cue::Seek(t) => format!("seek {t}"),
        Cue::Focus(e) => format!("focus {e}"),
        Cue::PlayTo { ms, event } => format!("play to {ms} {event:?}"),
        Cue::Stop => "stop".into(),
        Cue::ToggleLecture => "lecture".into(),
        _ => "another action".into(),
    }
}

fn all_words(cues: &[Cue]) -> Vec<String> {
    cues.iter().map(words).collect()
}

/// The session after the cues.
fn cue(s: Session, cues: Vec<Cue>) -> Session {
    cues.into_iter().fold(s, Session::apply)
}

/// `action` applied to the player, its cues to the session.
fn act(p: Player, s: Session, action: Action) -> (Player, Session) {
    let (p, cues) = p.apply(action, screen(&s));
    (p, cue(s, cues))
}

fn open(id: &str) -> Player {
    let p = Player::at_address(&format!("?lesson={id}"), "");
    assert!(p.is_open() && p.error.is_none(), "{id}");
    p
}

/// The session shows the player's step: its scenario, the cursor at `at` (focused on its event).
fn assert_shows(p: &Player, s: &Session, at: Option<Cursor>, what: &str) {
    let o = p.open.as_ref().unwrap();
    let want = o.presenter.current().scenario().unwrap();
    assert_eq!(*s.scenario, want, "{what}: the step's scenario, switches applied");
    let c = at.unwrap_or_else(|| panic!("{what}: the step's moment is in its run"));
    assert_eq!((s.cursor, s.focus), (c.ms as f64, c.event), "{what}");
}

/// The step on screen, as the view does when the step changes.
fn put_on_screen(p: &Player, s: Session) -> Session {
    cue(s, p.open.as_ref().unwrap().on_screen())
}

#[test]
fn every_built_in_lesson_walks_forward_answering_each_question_and_back() {
    let lessons = builtin::all();
    assert!(!lessons.is_empty());
    for (k, lesson) in lessons.iter().enumerate() {
        let id = &lesson.id;
        let mut p = open(id);
        let n = lesson.steps.len();
        let mut s = put_on_screen(&p, session());
        let mut questions = 0;
        // Forward: each question is revealed by the first → of its step, the step by the second.
        for i in 0..n {
            let o = p.open.clone().unwrap();
            assert_eq!((o.presenter.step, o.count()), (i, format!("Step {} of {n}", i + 1)), "{id}");
            assert_shows(&p, &s, o.at, &format!("{id} step {i}"));
            assert!(!o.json().is_empty());
            assert_eq!(o.rows.is_empty(), lesson.steps[i].table.is_empty(), "{id} step {i}: the closing table");
            if o.asking() {
                questions += 1;
                assert_eq!(
                    o.verdict().as_deref(),
                    Some(format!("It was {}.", o.presenter.current().question.as_ref().unwrap().answer + 1).as_str())
                );
                let (next, cues) = p.apply(Action::Next, screen(&s));
                let r = next.open.clone().unwrap();
                assert_eq!(r.presenter.step, i, "{id} step {i}: → reveals before it moves on");
                assert!(r.presenter.revealed() && !r.asking());
                assert_eq!(
                    all_words(&cues).last().unwrap(),
                    &words(&Cue::PlayTo { ms: r.reveal.unwrap().ms, event: r.reveal.unwrap().event })
                );
                s = cue(s, cues);
                assert_shows(&next, &s, r.reveal, &format!("{id} step {i} revealed"));
                assert!(r.reached(screen(&s)));
                p = next;
            }
            let (next, cues) = p.clone().apply(Action::Next, screen(&s));
            assert!(cues.is_empty(), "{id} step {i}: a step goes on screen through `on_screen`");
            if i + 1 == n {
                // → on the last step goes on in the course: the next lesson, the index after the last.
                assert_eq!(p.open.as_ref().unwrap().can_go(), (n > 1, true));
                match lessons.get(k + 1) {
                    Some(after) => {
                        let o = next.open.as_ref().unwrap_or_else(|| panic!("{id}: → opens {}", after.id));
                        assert_eq!((o.presenter.lesson.id.as_str(), o.presenter.step), (after.id.as_str(), 0), "{id}: →");
                    }
                    None => assert!(next.index && !next.is_open(), "{id}, the course's last lesson: → shows the index"),
                }
            } else {
                assert_eq!(next.open.as_ref().unwrap().presenter.step, i + 1);
                s = put_on_screen(&next, s);
                p = next;
            }
        }
        assert_eq!(questions, lesson.steps.iter().filter(|st| st.question.is_some()).count(), "{id}");
        // Back: each step on screen again, an answered question standing at its answer.
        for i in (0..n - 1).rev() {
            let (next, cues) = p.apply(Action::Prev, screen(&s));
            assert!(cues.is_empty());
            let o = next.open.clone().unwrap();
            assert_eq!(o.presenter.step, i, "{id}");
            s = put_on_screen(&next, s);
            let at = if o.presenter.current().question.is_some() { o.reveal } else { o.at };
            assert_eq!(o.presenter.revealed(), o.presenter.current().question.is_some(), "{id} step {i}: the room's answer is kept");
            assert_shows(&next, &s, at, &format!("{id} back at step {i}"));
            p = next;
        }
        let (first, cues) = p.clone().apply(Action::Prev, screen(&s));
        assert!(first == p && cues.is_empty(), "{id}: ← on the first step does nothing");
        assert!(!p.open.as_ref().unwrap().can_go().0);
    }
}

/// The first step of a built-in lesson with a question, and the player there.
fn at_a_question() -> (Player, usize) {
    for lesson in builtin::all() {
        if let Some(i) = lesson.steps.iter().position(|st| st.question.is_some()) {
            let p = Player::at_address(&format!("?lesson={}&step={}", lesson.id, i + 1), "");
            return (p, lesson.steps[i].question.as_ref().unwrap().answer);
        }
    }
    panic!("no built-in lesson asks a question")
}

#[test]
fn the_room_answers_and_the_reveal_judges_its_majority() {
    let (p, answer) = at_a_question();
    let other = (answer + 1) % 2;
    let s = put_on_screen(&p, session());
    let sc = screen(&s);
    let choose = |p: Player, i: usize| p.apply(Action::Choose(i), sc).0;
    let p = choose(choose(choose(p, answer), other), answer);
    let o = p.open.clone().unwrap();
    assert_eq!((o.presenter.hands()[answer], o.presenter.hands()[other]), (2, 1));
    let c = o.choices(false);
    // Shown in the file's order (docs/LESSON_FORMAT.md, "Fair questions"): key i + 1, the
    // i-th choice drawn and the file's choice i are one choice.
    let q = o.presenter.current().question.clone().unwrap();
    assert_eq!(c.iter().map(|c| c.text.clone()).collect::<Vec<_>>(), q.choices);
    assert!(c[answer].chosen && !c[other].chosen && c[answer].bar_percent == 100 && c[other].bar_percent == 50);
    assert!(c.iter().all(|c| !c.right && !c.wrong), "nothing judged before the reveal");
    // A choice the question does not have raises no hand.
    assert_eq!(choose(p.clone(), 9), p);
    // Revealed and played to its moment: the majority was right.
    let (p, s) = act(p, s, Action::Reveal);
    let o = p.open.clone().unwrap();
    assert!(o.reached(screen(&s)));
    assert_eq!(o.verdict().unwrap(), format!("Room: {} (2/3 hands), right.", answer + 1));
    let c = o.choices(true);
    assert!(c[answer].right && !c.iter().any(|c| c.wrong));
    assert!(o.choices(false).iter().all(|c| !c.right), "judged only once the answering moment is reached");
    assert_eq!(choose(p.clone(), other), p, "no hands after the reveal");
    assert_eq!(p.clone().apply(Action::Reveal, screen(&s)).0, p, "revealed once");

    // A room whose majority was wrong, and one split at the top.
    let (q, _) = at_a_question();
    let q = choose(choose(choose(q, other), other), answer);
    let s = put_on_screen(&q, session());
    let (q, s) = act(q, s, Action::Next);
    let o = q.open.clone().unwrap();
    assert_eq!(o.verdict().unwrap(), format!("Room: {} (2/3 hands); it was {}.", other + 1, answer + 1));
    assert!(o.choices(o.reached(screen(&s)))[other].wrong);
    let (q, _) = at_a_question();
    let q = choose(choose(q, 0), 1);
    let q = q.apply(Action::Reveal, sc).0;
    assert_eq!(q.open.unwrap().verdict().unwrap(), format!("Room split; it was {}.", answer + 1));
}

#[test]
fn a_reveal_plays_from_the_steps_own_moment_and_lands_on_its_answer() {
    let (p, _) = at_a_question();
    let o = p.open.clone().unwrap();
    let (at, reveal) = (o.at.unwrap(), o.reveal.unwrap());
    // Played on, at the normal pace: the reveal goes back to the step's moment first.
    let mut s = Session::new(&Start::default());
    s = put_on_screen(&p, s).apply(Cue::Seek(reveal.ms as f64 + 1.0));
    let (p, cues) = p.apply(Action::Reveal, screen(&s));
    let seek = at.event.map_or(Cue::Seek(at.ms as f64), Cue::Focus);
    assert_eq!(all_words(&cues), vec![words(&seek), words(&Cue::PlayTo { ms: reveal.ms, event: reveal.event })]);
    s = cue(s, cues);
    assert!(s.playing && !p.open.as_ref().unwrap().reached(screen(&s)), "playing to the answer");
    let mut now = 0.0;
    while s.playing && now < 600_000.0 {
        s = s.apply(Cue::Tick(now));
        now += 16.0;
    }
    assert_eq!((s.cursor, s.focus), (reveal.ms as f64, reveal.event), "stopped on the answer");
    assert!(p.open.as_ref().unwrap().reached(screen(&s)));
    // Play: to the answer again, from the start since the cursor is there.
    let (_, cues) = p.clone().apply(Action::Play, screen(&s));
    assert_eq!(all_words(&cues), vec![words(&Cue::Seek(0.0)), words(&Cue::PlayTo { ms: reveal.ms, event: reveal.event })]);
    let playing = Screen { playing: true, ..screen(&s) };
    assert_eq!(all_words(&p.apply(Action::Play, playing).1), vec!["stop"]);
}

#[test]
fn moves_stay_within_the_lesson_and_an_embed_stays_on_its_step() {
    let p = Player::at_address("?lesson=why-fencing&step=99", "");
    let n = p.open.as_ref().unwrap().presenter.lesson.steps.len();
    assert_eq!(p.open.as_ref().unwrap().presenter.step, n - 1, "a step past the end opens the last");
    let sc = Screen::default();
    assert_eq!(p.clone().apply(Action::Go(n), sc).0, p, "no such step");
    assert_eq!(p.clone().apply(Action::Go(n - 1), sc).0, p, "the step showing");
    let first = p.clone().apply(Action::Go(0), sc).0;
    assert_eq!(first.open.as_ref().unwrap().presenter.step, 0);
    assert_eq!(first.open.as_ref().unwrap().title, first.open.as_ref().unwrap().presenter.current().scenario().unwrap().title);
    // The closing table is a slide: its heading is the lesson's title, its rows link to steps.
    let last = p.open.as_ref().unwrap();
    assert!(!last.rows.is_empty() && last.title == last.presenter.lesson.title);

    let embed = Screen { embed: true, ..sc };
    for action in [Action::Next, Action::Prev, Action::Go(0)] {
        assert_eq!(first.clone().apply(action.clone(), embed).0, first, "{action:?} in an embed");
    }
    let (at_q, _) = at_a_question();
    let revealed = at_q.clone().apply(Action::Next, embed).0;
    assert!(revealed.open.unwrap().presenter.revealed(), "→ still reveals in an embed");

    // Blank and back; closing; a lesson that cannot open says why; a closed player ignores moves.
    let blank = first.clone().apply(Action::Blank, sc).0;
    assert!(blank.open.as_ref().unwrap().blank);
    assert_eq!(blank.apply(Action::Blank, sc).0, first);
    assert_eq!(first.clone().apply(Action::Close, sc).0, Player::default());
    let nope = first.apply(Action::OpenBuiltin("nope".into()), sc).0;
    assert!(!nope.is_open() && nope.error.as_deref().unwrap().contains("lesson=nope"));
    assert_eq!(nope.clone().apply(Action::Next, sc).0, nope);
    let unread = Player::default().apply(Action::OpenOwn(Err("the lesson file could not be read as text".into())), sc).0;
    assert_eq!(unread.error.as_deref(), Some("the lesson file could not be read as text"));
    let own = r#"{"version": 1, "title": "Mine", "steps": [{"scenario": "happy-path-redis", "text": "a"}]}"#;
    let mine = Player::default().apply(Action::OpenOwn(Ok(own.into())), sc).0;
    assert_eq!(mine.open.as_ref().unwrap().link(), locklab::lesson::share::link(&mine.open.as_ref().unwrap().source, 0, false));
    assert!(mine.open.as_ref().unwrap().link().starts_with("?step=1#l="));
    // Lecture mode comes with an open lesson.
    assert!(mine.lecture_cue(false).is_some_and(|c| words(&c) == "lecture"));
    assert!(mine.lecture_cue(true).is_none() && Player::default().lecture_cue(false).is_none());
}

#[test]
fn the_clicker_completes_a_reveal_before_it_goes_on() {
    let (p, _) = at_a_question();
    let o = p.open.clone().unwrap();
    let reveal = o.reveal.unwrap();
    let mut s = put_on_screen(&p, Session::new(&Start::default()));
    // → reveals: the run plays towards the answer at story pace.
    let (p, cues) = p.apply(Action::Next, screen(&s));
    s = cue(s, cues);
    s = s.apply(Cue::Tick(0.0)).apply(Cue::Tick(16.0));
    assert!(s.playing && s.cursor < reveal.ms as f64 && p.open.as_ref().unwrap().revealing(screen(&s)));
    // → again, while it plays: straight to the answer's moment, stopped there, on the same step.
    let (q, cues) = p.clone().apply(Action::Next, screen(&s));
    assert_eq!(q, p, "the step stays");
    s = cue(s, cues);
    assert_eq!((s.cursor, s.focus, s.playing), (reveal.ms as f64, reveal.event, false), "at the answer, never past it");
    assert!(p.open.as_ref().unwrap().reached(screen(&s)));
    // → once more: on to the next step.
    let (r, _) = p.clone().apply(Action::Next, screen(&s));
    assert_eq!(r.open.unwrap().presenter.step, o.presenter.step + 1);
}

#[test]
fn only_a_built_in_lesson_goes_on_in_the_course_and_not_in_an_embed() {
    let own = r#"{"version": 1, "title": "Mine", "steps": [{"scenario": "happy-path-redis", "text": "a"}]}"#;
    let mine = Player::default().apply(Action::OpenOwn(Ok(own.into())), Screen::default()).0;
    assert_eq!(mine.clone().apply(Action::Next, Screen::default()).0, mine, "a lecturer's own lesson ends at its last step");
    assert!(!mine.open.as_ref().unwrap().can_go().1);
    let last = Player::at_address("?lesson=leases&step=99", "");
    let embed = Screen { embed: true, ..Screen::default() };
    assert_eq!(last.clone().apply(Action::Next, embed).0, last, "an embed stays on its step");
    // The index: shown and left by its own action, and by the address `?lesson=`.
    assert!(Player::at_address("?lesson=", "").index);
    let shown = Player::default().apply(Action::Index(true), Screen::default()).0;
    assert!(shown.index && !shown.apply(Action::Index(false), Screen::default()).0.index);
}

/// `locklab room` (docs/ROOM.md): the phones' votes are the room's hands, counted with those
/// raised in the hall, and the reveal reports them as it reports the hands; votes for another
/// step, of another length, or after the reveal change nothing.
#[test]
fn the_rooms_votes_count_as_hands_and_the_reveal_reports_them() {
    let (p, answer) = at_a_question();
    let other = (answer + 1) % 2;
    let s = put_on_screen(&p, session());
    let sc = screen(&s);
    let (lesson, step, n) = {
        let pr = &p.open.as_ref().unwrap().presenter;
        (pr.lesson.id.clone(), pr.step, pr.current().question.as_ref().unwrap().choices.len())
    };
    let votes = |answer_votes: u32, other_votes: u32| {
        let mut v = vec![0; n];
        v[answer] = answer_votes;
        v[other] = other_votes;
        v
    };
    let room = |p: Player, lesson: &str, step: usize, v: Vec<u32>| p.apply(Action::RoomVotes(lesson.into(), step, v), sc).0;
    // The room's whole count replaces its last (it is not added), beside a hand raised by key.
    let p = room(p, &lesson, step, votes(1, 3));
    let p = room(p, &lesson, step, votes(2, 40));
    let p = p.apply(Action::Choose(answer), sc).0;
    assert_eq!(p.open.as_ref().unwrap().presenter.hands(), votes(3, 40));
    for (l, st, v) in [(lesson.as_str(), step + 1, votes(90, 0)), ("another", step, votes(90, 0)), (lesson.as_str(), step, vec![1; n + 1])]
    {
        assert_eq!(room(p.clone(), l, st, v), p, "{l} step {st}: not this question's count");
    }
    let (p, s) = act(p, s, Action::Reveal);
    assert_eq!(room(p.clone(), &lesson, step, votes(90, 0)), p, "closed at the reveal");
    let o = p.open.clone().unwrap();
    assert!(o.reached(screen(&s)));
    assert_eq!(o.verdict().unwrap(), format!("Room: {} (40/43 hands); it was {}.", other + 1, answer + 1));
}
