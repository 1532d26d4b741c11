//! A lesson on screen, as a model (issue 34): which lesson is open (or why it could not be),
//! its presenter, and what the open step needs from its run, worked out once per step. Each
//! move is an `Action`; `Player::apply` gives the next player and the session actions that put
//! the move on screen (`Cue`s: Load, Focus / Seek, PlayTo, Stop), so the view only draws the
//! player and forwards those cues. The step's run is simulated here, never in the view.

use std::rc::Rc;

use super::presenter::Presenter;
use super::share::{self, Opened, Source};
use super::table::{self, Measured, Outcome, Row};
use super::{locate, At, Cursor};
use crate::session::Action as Cue;
use crate::timeline::Timeline;

/// The lesson open on the page, if any, why the last one could not be opened, and whether the
/// lesson index shows (`?lesson=` with no id, the Lesson button, the course's end).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Player {
    pub open: Option<Rc<Open>>,
    pub error: Option<Rc<str>>,
    pub index: bool,
}

/// An open lesson at one step, with what the step needs from its run.
#[derive(Clone, Debug, PartialEq)]
pub struct Open {
    pub presenter: Presenter,
    pub source: Source,
    /// The screen is blanked (the clicker's B), the lesson kept as it was.
    pub blank: bool,
    /// The step's scenario as the JSON `Cue::Load` takes.
    json: String,
    /// Where the step's cursor and its reveal land (None: the run has no such moment).
    pub at: Option<Cursor>,
    pub reveal: Option<Cursor>,
    /// The closing table's rows (empty on a step without one).
    pub rows: Vec<Row>,
    /// The step's heading: its scenario's title (a slide: the lesson's).
    pub title: String,
}

/// What a move reads of the session: where its cursor is, whether it plays, and whether the
/// lesson is embedded in a page (an embed shows one step: it does not move between steps).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Screen {
    pub cursor: f64,
    pub playing: bool,
    pub embed: bool,
}

/// Every way a lesson changes: the clicker's keys, the panel's buttons, opening and closing.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// To the next step; while the step's question waits, its reveal; while the reveal plays,
    /// straight to the answer's moment. At a built-in lesson's last step, to the course's next
    /// lesson, and after the last lesson to the index (a clicker's one button walks the course).
    Next,
    Prev,
    /// Play to the step's moment (its answer, once revealed); stop while playing.
    Play,
    /// A hand raised for choice `i` (0-based).
    Choose(usize),
    /// The room's votes (`locklab room`) for the question of lesson `.0`, step `.1` (0-based),
    /// one count per choice; counted with the hands while that step shows and is not revealed.
    RoomVotes(String, usize, Vec<u32>),
    /// Blank the screen, or bring it back.
    Blank,
    /// Reveal the question's answer: play from the step's moment to the moment that shows it.
    Reveal,
    /// To step `i` (0-based), as the closing table's rows link.
    Go(usize),
    /// Open the built-in lesson with this id at its first step.
    OpenBuiltin(String),
    /// Open a lecturer's own lesson from its text (Err: why the file could not be read).
    OpenOwn(Result<String, String>),
    /// Close the lesson, or dismiss why it could not be opened.
    Close,
    /// Show the lesson index, or leave it.
    Index(bool),
}

impl Player {
    /// The lesson the page's address opens (`?lesson=ID&step=N`, `#l=…`), if any.
    pub fn at_address(search: &str, hash: &str) -> Player {
        let index = share::wants_index(search, hash);
        Player { index, ..share::open(search, hash).map(Player::of).unwrap_or_default() }
    }

    fn of(opened: Result<Opened, String>) -> Player {
        match opened {
            Ok(o) => {
                Player { open: Some(Rc::new(Open::new(Presenter::new(o.lesson, o.step), o.source, false))), error: None, index: false }
            }
            Err(e) => Player { open: None, error: Some(Rc::from(e)), index: false },
        }
    }

    /// Where Next goes from a built-in lesson's last step: the course's next lesson's id, or
    /// None for the index after the last (a lecturer's own lesson, or an embed, stays put).
    fn onward(&self, screen: Screen) -> Option<Option<String>> {
        let open = self.open.as_ref()?;
        let Source::Builtin(id) = &open.source else { return None };
        if screen.embed || !open.presenter.is_last() || open.asking() || open.revealing(screen) {
            return None;
        }
        let course = super::course::index();
        let at = course.iter().position(|e| e.id == *id)?;
        Some(course.get(at + 1).map(|e| e.id.clone()))
    }

    pub fn is_open(&self) -> bool {
        self.open.is_some()
    }

    /// The player after `action`, and what the session must do to show it.
    pub fn apply(self, action: Action, screen: Screen) -> (Player, Vec<Cue>) {
        match action {
            Action::OpenBuiltin(id) => (share::open(&format!("?lesson={id}"), "").map(Player::of).unwrap_or_default(), Vec::new()),
            Action::OpenOwn(text) => (Player::of(text.and_then(|t| share::own(&t))), Vec::new()),
            Action::Close => (Player::default(), Vec::new()),
            Action::Index(shown) => (Player { index: shown, ..self }, Vec::new()),
            Action::Next => match self.onward(screen) {
                Some(Some(id)) => self.apply(Action::OpenBuiltin(id), screen),
                Some(None) => (Player { index: true, ..Player::default() }, Vec::new()),
                None => self.command(action, screen),
            },
            _ => self.command(action, screen),
        }
    }

    /// `action` for the open lesson's presenter (none open: nothing changes).
    fn command(self, action: Action, screen: Screen) -> (Player, Vec<Cue>) {
        let Some(open) = self.open.clone() else { return (self, Vec::new()) };
        match open.command(action, screen) {
            (Some(next), cues) => (Player { open: Some(Rc::new(next)), error: None, index: false }, cues),
            (None, cues) => (self, cues),
        }
    }

    /// A lesson runs in lecture mode: the session's toggle when one is open and lecture is off.
    pub fn lecture_cue(&self, lecture: bool) -> Option<Cue> {
        (self.is_open() && !lecture).then_some(Cue::ToggleLecture)
    }
}

/// The session's move to `c`: focus its event (so its caption shows), or seek its millisecond.
fn seek(c: Cursor) -> Cue {
    c.event.map_or(Cue::Seek(c.ms as f64), Cue::Focus)
}

impl Open {
    /// The lesson at the presenter's step: the step's run simulated once, to find its moments.
    fn new(presenter: Presenter, source: Source, blank: bool) -> Open {
        let step = presenter.current();
        let scenario = step.scenario();
        let timeline = scenario.as_ref().map(|s| Timeline::of_run(&crate::lab::run(s)));
        let find = |at: At| timeline.as_ref().and_then(|t| locate(at, t));
        let at = find(step.at);
        let reveal = step.question.as_ref().and_then(|q| find(q.reveal_at));
        let title = match &scenario {
            Some(s) if !step.is_slide() => s.title.clone(),
            _ => presenter.lesson.title.clone(),
        };
        // Pretty, as the editor writes it: the compact writer would be another copy of the
        // scenario's serializer in the bundle.
        let json = scenario.and_then(|s| serde_json::to_string_pretty(&s).ok()).unwrap_or_default();
        let rows = table::rows(&presenter.lesson, presenter.step);
        Open { presenter, source, blank, json, at, reveal, rows, title }
    }

    /// The lesson after `change` (None when it changed nothing); a new step is worked out anew.
    fn after(&self, change: impl FnOnce(&mut Presenter) -> bool) -> Option<Open> {
        let mut o = self.clone();
        if !change(&mut o.presenter) {
            return None;
        }
        if o.presenter.step != self.presenter.step {
            return Some(Open::new(o.presenter, o.source, o.blank));
        }
        Some(o)
    }

    /// One move on the open lesson: the lesson after it (None: unchanged) and the cues.
    fn command(&self, action: Action, screen: Screen) -> (Option<Open>, Vec<Cue>) {
        let p = &self.presenter;
        match action {
            Action::Next if self.asking() => self.command(Action::Reveal, screen),
            // Never past the answer, never to the next step: the room sees it first.
            Action::Next if self.revealing(screen) => (None, self.reveal.map(|r| vec![Cue::Stop, seek(r)]).unwrap_or_default()),
            Action::Next if !screen.embed => (self.after(Presenter::next), Vec::new()),
            Action::Prev if !screen.embed => (self.after(Presenter::prev), Vec::new()),
            Action::Go(step) if !screen.embed => (self.after(|p| p.go(step)), Vec::new()),
            Action::Play if screen.playing => (None, vec![Cue::Stop]),
            Action::Play => (None, play_to(screen, if p.revealed() { self.reveal } else { self.at })),
            Action::Choose(i) => (self.after(|p| p.choose(i)), Vec::new()),
            Action::RoomVotes(lesson, step, votes) if lesson == p.lesson.id && step == p.step => {
                (self.after(|p| p.room_votes(&votes)), Vec::new())
            }
            Action::Blank => (Some(Open { blank: !self.blank, ..self.clone() }), Vec::new()),
            Action::Reveal => match (self.after(Presenter::reveal), self.reveal) {
                (Some(o), Some(reveal)) => {
                    // From the step's own moment, so the reveal shows what follows the question.
                    let from = self.at.filter(|at| screen.cursor != at.ms as f64).map(seek);
                    (Some(o), from.into_iter().chain([Cue::PlayTo { ms: reveal.ms, event: reveal.event }]).collect())
                }
                _ => (None, Vec::new()),
            },
            // An embed stays on its step; the rest are the player's own.
            Action::Next
            | Action::Prev
            | Action::Go(_)
            | Action::RoomVotes(..)
            | Action::OpenBuiltin(_)
            | Action::OpenOwn(_)
            | Action::Close
            | Action::Index(_) => (None, Vec::new()),
        }
    }

    /// What puts this step on screen: its scenario, and the cursor at its moment (a question
    /// the room has already seen answered stands at its answer).
    pub fn on_screen(&self) -> Vec<Cue> {
        let at = if self.presenter.revealed() { self.reveal } else { self.at };
        std::iter::once(Cue::Load(self.json.clone())).chain(at.map(seek)).collect()
    }

    /// What names this step on screen: when it changes, the step goes on screen anew.
    pub fn step_key(&self) -> (usize, Source, String) {
        (self.presenter.step, self.source.clone(), self.presenter.lesson.id.clone())
    }

    /// The address of this step (`?lesson=ID&step=N`, or an own lesson's `#l=`).
    pub fn link(&self) -> String {
        share::link(&self.source, self.presenter.step, false)
    }

    /// The step's scenario as the session loads it (JSON).
    pub fn json(&self) -> &str {
        &self.json
    }

    /// Whether the step's question waits for its reveal.
    pub fn asking(&self) -> bool {
        self.presenter.current().question.is_some() && !self.presenter.revealed()
    }

    /// Whether the question was revealed and the run is still on its way to the answer's moment.
    pub fn revealing(&self, screen: Screen) -> bool {
        self.presenter.revealed() && self.reveal.is_some_and(|c| screen.cursor < c.ms as f64)
    }

    /// Whether the session stands at the reveal's moment, stopped: the answer may show.
    pub fn reached(&self, screen: Screen) -> bool {
        self.reveal.is_some_and(|c| !screen.playing && screen.cursor >= c.ms as f64)
    }

    /// The step's count as the head says it.
    pub fn count(&self) -> String {
        format!("Step {} of {}", self.presenter.step + 1, self.presenter.lesson.steps.len())
    }

    /// Whether the head's ← and → can move (→ also reveals a waiting question, and from a
    /// built-in lesson's last step goes on in the course).
    pub fn can_go(&self) -> (bool, bool) {
        (self.presenter.step > 0, !self.presenter.is_last() || self.asking() || self.in_course())
    }

    /// What → does here, as its button's title says it.
    pub fn forward_title(&self) -> &'static str {
        if self.presenter.is_last() && !self.asking() && self.in_course() {
            "On in the course: its next lesson, or the index after the last (→ or PageDown)"
        } else {
            "Next step (→ or PageDown)"
        }
    }

    fn in_course(&self) -> bool {
        matches!(self.source, Source::Builtin(_))
    }

    /// The room's verdict once the answering moment is reached: its majority against what
    /// happened. None without a question.
    pub fn verdict(&self) -> Option<String> {
        let pr = &self.presenter;
        let answer = pr.current().question.as_ref()?.answer + 1;
        let total: u32 = pr.hands().iter().sum();
        Some(match (pr.majority(), pr.held()) {
            (Some(m), Some(right)) => {
                let said = format!("Room: {} ({}/{total} hands)", m + 1, pr.hands()[m]);
                if right {
                    format!("{said}, right.")
                } else {
                    format!("{said}; it was {answer}.")
                }
            }
            _ if total > 0 => format!("Room split; it was {answer}."),
            _ => format!("It was {answer}."),
        })
    }

    /// The question's choices as drawn, once the answering moment is `reached` or not.
    pub fn choices(&self, reached: bool) -> Vec<Choice> {
        let pr = &self.presenter;
        let Some(q) = pr.current().question.as_ref() else { return Vec::new() };
        let (hands, top) = (pr.hands(), pr.majority());
        let shown = pr.revealed() && reached;
        let most = hands.iter().copied().max().unwrap_or(0).max(1);
        q.choices
            .iter()
            .enumerate()
            .map(|(i, text)| {
                let n = hands.get(i).copied().unwrap_or(0);
                Choice {
                    text: text.clone(),
                    hands: n,
                    bar_percent: n * 100 / most,
                    chosen: top == Some(i),
                    right: shown && i == q.answer,
                    wrong: shown && top == Some(i) && i != q.answer,
                }
            })
            .collect()
    }
}

/// One choice of a question as drawn: its hands as a bar, and once the answer shows, whether
/// it was right or the room's wrong majority.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    pub text: String,
    pub hands: u32,
    /// The bar's length: hands as a percentage of the most any choice has.
    pub bar_percent: u32,
    /// The room's majority.
    pub chosen: bool,
    pub right: bool,
    pub wrong: bool,
}

/// Plays from the cursor to `to` (from the start if the cursor is already there or past it).
fn play_to(screen: Screen, to: Option<Cursor>) -> Vec<Cue> {
    let Some(c) = to else { return Vec::new() };
    let restart = (screen.cursor >= c.ms as f64).then_some(Cue::Seek(0.0));
    restart.into_iter().chain([Cue::PlayTo { ms: c.ms, event: c.event }]).collect()
}

/// A cell of the closing table, from the step's own run: safe or not, and in words (with
/// fencing on, an approach without a token has nothing for the storage to check).
pub fn cell(o: Outcome, has_token: bool, fencing: bool) -> (bool, &'static str) {
    let text = if fencing && !has_token && !o.safe { "update lost: no token to check" } else { o.text() };
    (o.safe, text)
}

/// Under a measured table: how far it is, in runs of all its cells, and each mix in words with
/// the rows (approaches) that ran it, in the plans' order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeasuredSummary {
    pub runs: u64,
    pub total: u64,
    pub done: bool,
    pub seed: u64,
    pub mixes: Vec<(String, Vec<String>)>,
}

impl MeasuredSummary {
    pub fn of(m: &Measured) -> MeasuredSummary {
        let (runs, total) = m.cells.iter().map(|c| c.explorer.progress()).fold((0, 0), |(r, t), p| (r + p.runs, t + p.total));
        let mut mixes: Vec<(String, Vec<String>)> = Vec::new();
        for p in &m.plans {
            let name = p.row.base.approach.label().to_string();
            match mixes.iter_mut().find(|(w, _)| *w == p.mix_words) {
                Some((_, rows)) => rows.push(name),
                None => mixes.push((p.mix_words.clone(), vec![name])),
            }
        }
        MeasuredSummary { runs, total, done: m.done(), seed: m.plans.first().map_or(1, |p| p.seed), mixes }
    }

    /// The summary's opening sentence.
    pub fn words(&self) -> String {
        use crate::timeline::draw::words::thousands;
        let state = if self.done { "measured" } else { "measuring" };
        format!(
            "The seed's table, {state}: {} of {} schedules, explorer seed {} (as the Explore panel and locklab explore --table). ",
            thousands(self.runs as usize),
            thousands(self.total as usize),
            self.seed
        )
    }
}
