//! What the screen shows and every way it changes, in plain Rust (docs/ARCHITECTURE.md: the UI renders
//! a pure function of trace and cursor). A `Session` owns no simulation: it holds the
//! finished run, its timeline and a cursor; `Session::apply` maps each `Action` to the next
//! session. Toggles edit the scenario and re-simulate; the cursor stays. The browser wraps it
//! in a Yew reducer (`ui::state`) and feeds it animation-frame timestamps; tests drive it
//! directly, frame by frame, with no browser and no sleeps.

mod comparison;
pub mod explore;
mod faults;
mod playback;
mod shared;
mod stepping;
#[cfg(test)]
mod tests;

use std::rc::Rc;

pub use comparison::Other;
pub use faults::{FaultMenu, Offer};
pub use playback::{still_view, CaptionView, Speaker, DWELL_MS};
pub use shared::Shared;

use crate::lab::{self, Run};
use crate::scenario::{catalog, fault, share, validate, Approach, Scenario};
use crate::text::Story;
use crate::theme::Theme;
use crate::timeline::Timeline;

/// Playback speeds offered (multiples of the paced base rate), with their text: the select
/// reads its value back by text, so no float is ever parsed or printed (the bundle budget).
pub const SPEEDS: [(f64, &str); 5] = [(0.25, "0.25"), (0.5, "0.5"), (1.0, "1"), (2.0, "2"), (4.0, "4")];

#[derive(Clone)]
pub struct Session {
    pub catalog: Rc<Vec<Scenario>>,
    /// The scenario as picked, with the user's edits (switches and knobs).
    pub scenario: Rc<Scenario>,
    pub run: Rc<Run>,
    pub timeline: Shared<Timeline>,
    /// The causes behind its captions' claims.
    pub story: Shared<Story>,
    /// True time in ms; fractional so slow-motion playback moves smoothly.
    pub cursor: f64,
    /// The event a step or a link landed on, so its caption shows even when other events share
    /// its millisecond.
    pub focus: Option<usize>,
    pub playing: bool,
    pub speed: f64,
    pub lecture: bool,
    /// The colour theme chosen by link (`theme=`) or key (T); None: `Theme::shown` decides
    /// from the lecture and the screen (`prefers_dark`).
    pub theme: Option<Theme>,
    /// The screen's owner prefers dark (`prefers-color-scheme: dark`).
    pub prefers_dark: bool,
    /// The whole run's verdict shows from the start (`outcome=1`); otherwise the verdict and
    /// findings build up as the cursor passes them, so the ending is not given away.
    pub outcome: bool,
    /// For a run the user changed: the verdict of the run before the last change (opened
    /// already changed, as from a link: of the built-in as shipped, same fencing), against
    /// which the change is judged.
    pub original: Option<Rc<crate::check::Verdict>>,
    pub help: bool,
    /// Embedded in a page: the diagram, transport and caption alone.
    pub embed: bool,
    pub reduced_motion: bool,
    /// Counts animation frames while playing; the frame loop re-arms when it changes.
    pub frame: u64,
    last_frame_ts: Option<f64>,
    slide_ms: f64,
    /// Real ms left to hold the cursor at the key moment playback just reached.
    dwell_ms: f64,
    /// Lecture mode: playback stops at each key moment until Space (the presenter's pace).
    pub stop_at_keys: bool,
    /// Lecture mode: the run's future shows faintly under the veil (key G). Off, it is hidden:
    /// where a pause ends or a write lands is for the class to predict.
    pub future: bool,
    /// The key to the diagram's marks under it (key K).
    pub legend: bool,
    /// Where `Action::PlayTo` stops playback.
    play_to: Option<(i64, Option<usize>)>,
    /// Why the last edit was refused (the previous run stays on screen).
    pub error: Option<String>,
    /// Why the last scenario JSON was refused (the previous run stays on screen).
    pub load_error: Option<String>,
    /// The run on screen is a history of one's own (`crate::history`), not a simulation: there
    /// is nothing to re-run, so edits, switches and comparisons leave it as it is.
    pub history: bool,
    /// Why the last history was refused (the run on screen stays).
    pub history_error: Option<String>,
    /// Compare mode: the same story on another approach (None: the single view).
    pub other: Option<Rc<comparison::Other>>,
    /// The real run recorded of exactly this scenario, if there is one (`crate::recorded`).
    pub recording: Option<Rc<crate::recorded::Recording>>,
    /// The other run's event a step landed on (as `focus` is for this run).
    pub other_focus: Option<usize>,
    /// What was wrong with the link the page was opened with (a banner until dismissed).
    pub link_error: Option<String>,
    /// The fault (index in `scenario.faults`) the user last added, moved or clicked: what
    /// Delete removes.
    pub selected: Option<usize>,
    /// The fault menu, while it is open.
    pub menu: Option<FaultMenu>,
    /// The scenarios before each edit, latest last (Ctrl+Z), and those undone (Ctrl+Shift+Z).
    undo: Vec<Rc<Scenario>>,
    redo: Vec<Rc<Scenario>>,
    /// What this session reaches beyond playing a run (see `Kit`).
    kit: &'static Kit,
}

/// What a session reaches beyond playing one run: the app's whole set of actions (faults
/// where you point, loading JSON, comparing, undo) and the runs it sets beside the one on
/// screen (a recording, a counterpart). The app's session has `Kit::APP`; the embeds' player
/// (`ui::player`) has `Kit::PLAYER`, which reaches none of that code, so the player's wasm
/// links none of it (issue 38: a second, smaller wasm from the same crate). Function
/// pointers, not a generic: one `Session` type for every component both share.
pub struct Kit {
    /// The session after an action.
    pub apply: fn(Session, Action) -> Session,
    /// The real run recorded of exactly this scenario.
    pub recording: fn(&Scenario) -> Option<crate::recorded::Recording>,
    /// The comparison's other side for the session's scenario.
    pub compare: fn(&Session, Option<crate::compare::Against>) -> Option<Rc<comparison::Other>>,
}

impl Kit {
    /// Everything: the app.
    pub const APP: Kit = Kit { apply: Session::apply, recording: crate::recorded::find, compare: comparison::refresh };
    /// Playing a run: the run, the cursor, playback, steps, the fencing and safe-unlock
    /// switches and the view's toggles (`Session::apply_play`); nothing beside it.
    pub const PLAYER: Kit = Kit { apply: Session::apply_play, recording: |_| None, compare: |_, _| None };
}

/// Why a history on screen takes no edit, switch or comparison.
pub const HISTORY_IS_FIXED: &str =
    "This is your history: its writes were answered as it says, so there is nothing to re-run or compare. Pick a scenario to simulate again.";

/// Edits remembered for undo; the oldest are forgotten past this.
pub const UNDO_DEPTH: usize = 100;

pub enum Action {
    Pick(String),
    /// Run a scenario given as JSON in the public format (validated first).
    Load(String),
    /// Draw and judge a history of one's own (docs/HISTORY_FORMAT.md), read first.
    JudgeHistory(String),
    SetFencing(bool),
    ToggleFencing,
    SetSafeUnlock(bool),
    ToggleSafeUnlock,
    SetTtl(i64),
    SetPause(i64),
    SetSeed(u64),
    Seek(f64),
    /// Move the cursor to a trace event and caption it.
    Focus(usize),
    Step,
    StepBack,
    NextKey,
    PrevKey,
    TogglePlay,
    Stop,
    /// An animation frame at this `performance.now()` timestamp.
    Tick(f64),
    SetSpeed(f64),
    ToggleLecture,
    /// The next colour theme (light → dark → projector), chosen from then on.
    NextTheme,
    /// Show the whole run's verdict from the start, or build it up as the cursor passes.
    ToggleOutcome,
    /// Lecture mode: whether playback stops at each key moment.
    ToggleStopAtKeys,
    /// Lecture mode: whether the run's future shows faintly.
    ToggleFuture,
    ToggleLegend,
    ToggleHelp,
    CloseHelp,
    /// Show the same story on another approach beside this one (None: back to one diagram).
    CompareWith(Option<crate::compare::Against>),
    /// Move the cursor to an event of the comparison's other run.
    FocusOther(usize),
    DismissLinkError,
    /// Open the fault menu for a lane at the cursor.
    OpenFaultMenu(FaultMenu),
    CloseFaultMenu,
    /// Add the fault of this kind (`pause`, …) the fault menu offers for this node at the cursor.
    Inject {
        kind: String,
        node: String,
    },
    /// Strike fault `index` at this time instead.
    MoveFault {
        index: usize,
        at_ms: i64,
    },
    /// Give fault `index` this length (ms: its form's amount).
    ResizeFault {
        index: usize,
        length_ms: i64,
    },
    RemoveFault(usize),
    /// Remove the selected fault (the Delete key).
    RemoveSelected,
    SelectFault(Option<usize>),
    Undo,
    Redo,
    /// The page's data arrived (the whole catalog, the recordings, the lessons: `ui::library`),
    /// or failed to with this reason: the picker, Compare and the recorded run take them up.
    DataArrived(Option<String>),
    /// Play from the cursor to this millisecond (and focus this event there), then stop,
    /// passing key moments without stopping at them: a lesson's step or reveal.
    PlayTo {
        ms: i64,
        event: Option<usize>,
    },
}

/// Where the app starts: the page's address, read by `scenario::share::open`
/// (`?scenario=…&fencing=on&t=…&lecture=1` or `#s=…`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Start {
    pub search: String,
    pub hash: String,
    pub reduced_motion: bool,
    pub prefers_dark: bool,
}

impl Session {
    pub fn new(start: &Start) -> Session {
        Session::open(start, Rc::new(catalog::all()), &Kit::APP)
    }

    /// The session `start` opens, with these built-ins (the app's whole catalog; the player's
    /// is the one built-in it shows, if any) and this kit.
    pub fn open(start: &Start, catalog: Rc<Vec<Scenario>>, kit: &'static Kit) -> Session {
        let opened = share::open(&start.search, &start.hash, &catalog);
        let link_error = opened.banner();
        let scenario = opened.scenario;
        let (run, timeline, story) = simulate(&scenario);
        let cursor = opened.cursor_ms.unwrap_or(0).clamp(0, timeline.duration_ms) as f64;
        let mut lab = Session {
            catalog,
            scenario: Rc::new(scenario),
            run,
            timeline,
            story,
            cursor,
            focus: None,
            playing: false,
            speed: 1.0,
            lecture: opened.modes.lecture,
            theme: opened.modes.theme,
            prefers_dark: start.prefers_dark,
            help: false,
            embed: opened.modes.embed,
            outcome: opened.modes.outcome,
            original: None,
            reduced_motion: start.reduced_motion,
            frame: 0,
            last_frame_ts: None,
            slide_ms: 0.0,
            dwell_ms: 0.0,
            stop_at_keys: true,
            future: false,
            legend: true,
            play_to: None,
            error: None,
            load_error: None,
            history: false,
            history_error: None,
            other: None,
            recording: None,
            other_focus: None,
            link_error,
            selected: None,
            menu: None,
            undo: Vec::new(),
            redo: Vec::new(),
            kit,
        };
        lab.recording = (kit.recording)(&lab.scenario).map(Rc::new);
        lab.other = (kit.compare)(&lab, opened.modes.compare);
        lab.original = lab.original_verdict();
        lab
    }

    /// How the view is shown, as a link carries it.
    pub fn modes(&self) -> share::Modes {
        share::Modes { lecture: self.lecture, embed: self.embed, outcome: self.outcome, compare: self.compared_with(), theme: self.theme }
    }

    /// The colour theme on screen (and in exports).
    pub fn theme_shown(&self) -> Theme {
        Theme::shown(self.theme, self.lecture, self.prefers_dark)
    }

    /// Whether the whole run's verdict shows: at the end, or from the start when asked for.
    pub fn outcome_shown(&self) -> bool {
        self.outcome || self.cursor_ms() >= self.timeline.duration_ms
    }

    /// The built-in this scenario is, as shipped (switches aside: its `expect` covers fencing
    /// off and on), if it is one.
    pub fn as_shipped(&self) -> Option<&Scenario> {
        let s = &*self.scenario;
        self.catalog.iter().find(|b| b.id == s.id && lab::with_fencing(b, s.storage.fencing) == *s)
    }

    /// The built-in this scenario was changed from, if it is an edited built-in.
    pub fn edited_from(&self) -> Option<&Scenario> {
        if self.as_shipped().is_some() {
            return None;
        }
        self.catalog.iter().find(|b| b.id == self.scenario.id)
    }

    /// The verdict of the built-in as shipped with this run's fencing, for an edited built-in.
    fn original_verdict(&self) -> Option<Rc<crate::check::Verdict>> {
        let b = self.edited_from()?;
        Some(Rc::new(lab::run(&lab::with_fencing(b, self.scenario.storage.fencing)).verdict))
    }

    /// The cursor as the whole milliseconds shown in `data-cursor-ms` and the scrub.
    pub fn cursor_ms(&self) -> i64 {
        self.cursor.floor() as i64
    }

    /// The event whose caption shows at the cursor.
    pub fn caption_event(&self) -> Option<usize> {
        playback::event_at(&self.run.trace, self.cursor_ms(), self.focus)
    }

    /// Whether the safe-unlock switch means anything for this approach.
    pub fn safe_unlock_applies(&self) -> bool {
        let applies = |a: Approach| a.spec().safe_unlock;
        // Side by side, the switch edits both scenarios: it counts if either side has it.
        applies(self.scenario.approach) || self.other.as_ref().is_some_and(|o| applies(o.approach))
    }

    /// The link (`?…#…`) that reopens this view (`scenario::share`). The app memoizes the
    /// scenario's part; this is for one-off use.
    pub fn permalink(&self) -> String {
        share::link(&share::name(&self.scenario, &self.catalog), self.cursor_ms(), &self.modes())
    }

    /// What is shown side by side, if anything (for the link).
    pub fn compared_with(&self) -> Option<crate::compare::Against> {
        self.other.as_ref().map(|o| o.with)
    }

    /// What the toolbar's length knob shows: the amount of the first fault of the kind it
    /// sets (`Kind::KNOB`: a pause's length).
    pub fn pause_ms(&self) -> Option<i64> {
        fault::knob(&self.scenario.faults)
    }

    fn seek(mut self, t: f64, focus: Option<usize>) -> Self {
        self.cursor = crate::decimal::clamp(t, 0.0, self.timeline.duration_ms as f64);
        self.focus = focus;
        self.other_focus = None;
        self.dwell_ms = 0.0;
        self
    }

    /// Lands a step or key jump through both runs of a comparison (None: `end` that way).
    pub(crate) fn seek_both(self, to: Option<(i64, Option<usize>, Option<usize>)>, end: f64) -> Self {
        match to {
            Some((at, focus, other_focus)) => {
                let mut lab = self.seek(at as f64, focus);
                lab.other_focus = other_focus;
                lab
            }
            None => self.seek(end, None),
        }
    }

    /// Re-derives the comparison's other side after this side changed (a history has none:
    /// its scenario only names its lanes).
    fn recompare(mut self) -> Self {
        if self.history {
            (self.recording, self.other) = (None, None);
            return self;
        }
        self.recording = (self.kit.recording)(&self.scenario).map(Rc::new);
        self.other = (self.kit.compare)(&self, self.other.as_ref().map(|o| o.with));
        self
    }

    /// Re-simulates an edited scenario in place (see `resimulate`), remembering the one it
    /// replaces for undo; a change that makes the scenario invalid is refused with its reason.
    fn edit(mut self, change: impl FnOnce(&mut Scenario)) -> Self {
        if self.history {
            self.error = Some(HISTORY_IS_FIXED.into());
            return self;
        }
        let mut s = (*self.scenario).clone();
        change(&mut s);
        if s == *self.scenario {
            self.error = None;
            return self;
        }
        if let Err(e) = validate::validate(&s) {
            self.error = Some(e.to_string());
            return self;
        }
        self.remember();
        self.resimulate(s)
    }

    /// Keeps the scenario on screen for undo, before it is replaced.
    fn remember(&mut self) {
        if self.undo.len() == UNDO_DEPTH {
            self.undo.remove(0);
        }
        self.undo.push(self.scenario.clone());
        self.redo.clear();
    }

    /// Whether there is an edit to undo, and one to redo.
    pub fn can_undo(&self) -> (bool, bool) {
        (!self.undo.is_empty(), !self.redo.is_empty())
    }

    /// Puts back the scenario before the last edit (`back`) or the one last undone, the cursor
    /// staying where it is.
    fn undo_redo(mut self, back: bool) -> Self {
        let (from, to) = if back { (&mut self.undo, &mut self.redo) } else { (&mut self.redo, &mut self.undo) };
        let Some(s) = from.pop() else { return self };
        to.push(self.scenario.clone());
        self.selected = None;
        self.resimulate((*s).clone())
    }

    /// Runs `s` (valid) in place of the scenario on screen; the cursor (and the focused event,
    /// whose index is the same in the common prefix of the two deterministic runs) stays.
    fn resimulate(mut self, s: Scenario) -> Self {
        let (run, timeline, story) = simulate(&s);
        self.history = false;
        self.focus = self.focus.filter(|&f| run.trace.events.get(f).map(|e| e.at_ms) == self.run.trace.events.get(f).map(|e| e.at_ms));
        self.cursor = self.cursor.min(timeline.duration_ms as f64);
        // A change is judged against the run it changed (issue 25: fencing saving an edited,
        // unsafe run said "Still safe", judged against the built-in with fencing on); the run
        // as shipped again is judged by its author's expectation.
        let before = Rc::new(self.run.verdict.clone());
        self.scenario = Rc::new(s);
        self.run = run;
        self.timeline = timeline;
        self.story = story;
        self.error = None;
        self.original = self.as_shipped().is_none().then_some(before);
        self.recompare()
    }

    /// Puts another scenario on screen, from its start.
    fn show(self, s: Scenario) -> Self {
        self.show_run(lab::run(&s), false)
    }

    /// Puts a run on screen from its start: a scenario's, or a history's (`history`).
    fn show_run(mut self, run: Run, history: bool) -> Self {
        // Picking or loading another scenario is an edit too: undo brings the last one back.
        self.remember();
        self.selected = None;
        self.menu = None;
        self.history = history;
        self.history_error = None;
        let s = run.scenario.clone();
        let (run, timeline, story) = present(run);
        self.scenario = Rc::new(s);
        self.run = run;
        self.timeline = timeline;
        self.story = story;
        self.original = self.original_verdict();
        self.error = None;
        self.load_error = None;
        // Another scenario on screen: what was wrong with the opening link no longer applies.
        self.link_error = None;
        self.playing = false;
        self.seek(0.0, None).recompare()
    }

    pub(crate) fn stop_at_end(mut self) -> Self {
        self.cursor = self.timeline.duration_ms as f64;
        self.playing = false;
        self
    }
}

/// A scenario run, drawn and narrated: everything the screen shows of it.
pub fn simulate(s: &Scenario) -> (Rc<Run>, Shared<Timeline>, Shared<Story>) {
    present(lab::run(s))
}

/// A run, simulated or recorded on real servers, drawn and narrated: one path for both.
pub fn present(run: Run) -> (Rc<Run>, Shared<Timeline>, Shared<Story>) {
    let timeline = Timeline::of_run(&run);
    let story = Story::new(&run.trace, &run.verdict, &timeline);
    (Rc::new(run), Shared(Rc::new(timeline)), Shared(Rc::new(story)))
}

impl Session {
    /// The session after `action`, as this session's kit applies it (`Kit::apply`).
    pub fn reduce(self, action: Action) -> Session {
        (self.kit.apply)(self, action)
    }

    /// The session after `action`: every action of the app.
    pub fn apply(self, action: Action) -> Session {
        let mut lab = self;
        // Any other move of the cursor or the run ends a play-to.
        if !matches!(action, Action::Tick(_) | Action::SetSpeed(_) | Action::DataArrived(_)) {
            lab.play_to = None;
        }
        match action {
            Action::DataArrived(error) => {
                lab.catalog = Rc::new(catalog::all());
                if let Some(e) = error {
                    lab.link_error = Some(format!("Lock Lab could not load its other scenarios, lessons and recordings ({e}); this one runs. Reload the page to try again."));
                }
                lab.recompare()
            }
            Action::Pick(id) => match lab.catalog.iter().find(|s| s.id == id).cloned() {
                Some(s) => lab.show(s),
                None => lab,
            },
            Action::Load(text) => match crate::scenario::parse(&text) {
                Ok(s) => lab.show(s),
                Err(e) => {
                    lab.load_error = Some(e.to_string());
                    lab
                }
            },
            Action::JudgeHistory(text) => match crate::history::read(&text).and_then(|h| crate::history::to_run(&h)) {
                Ok(run) => lab.show_run(run, true),
                Err(e) => {
                    lab.history_error = Some(e.to_string());
                    lab
                }
            },
            Action::SetTtl(_) | Action::SetPause(_) | Action::SetSeed(_) => lab.apply_setting(action),
            Action::CompareWith(_) if lab.history => {
                lab.error = Some(HISTORY_IS_FIXED.into());
                lab
            }
            Action::CompareWith(with) => {
                // The cursor stays; only the other side appears or goes.
                lab.other = comparison::refresh(&lab, with);
                lab.other_focus = None;
                lab
            }
            Action::FocusOther(event) => {
                let at = lab.other.as_ref().and_then(|o| o.run.as_ref()).and_then(|(r, _, _)| r.trace.events.get(event)).map(|e| e.at_ms);
                match at {
                    Some(at) => lab.seek_both(Some((at, None, Some(event))), 0.0),
                    None => lab,
                }
            }
            Action::Undo => lab.undo_redo(true),
            Action::Redo => lab.undo_redo(false),
            Action::PlayTo { ms, event } => lab.play_to_start(ms, event),
            Action::OpenFaultMenu(_)
            | Action::CloseFaultMenu
            | Action::Inject { .. }
            | Action::MoveFault { .. }
            | Action::ResizeFault { .. }
            | Action::RemoveFault(_)
            | Action::RemoveSelected
            | Action::SelectFault(_) => lab.apply_fault(action),
            played => lab.apply_play(played),
        }
    }

    /// The session after one of the actions that play a run (the cursor, playback, steps, the
    /// switches and the view's toggles); any other action leaves it as it is. The player's
    /// whole set of actions (`Kit::PLAYER`), and the app's for these.
    pub fn apply_play(self, action: Action) -> Session {
        let mut lab = self;
        if !matches!(action, Action::Tick(_) | Action::SetSpeed(_)) {
            lab.play_to = None;
        }
        match action {
            Action::SetFencing(_) | Action::ToggleFencing | Action::SetSafeUnlock(_) | Action::ToggleSafeUnlock => lab.apply_switch(action),
            Action::Seek(t) => lab.seek(t, None),
            Action::Focus(event) => match lab.run.trace.events.get(event).map(|e| e.at_ms) {
                Some(at) => lab.seek(at as f64, Some(event)),
                None => lab,
            },
            Action::Step | Action::StepBack | Action::NextKey | Action::PrevKey => lab.apply_step(action),
            Action::TogglePlay => lab.toggle_play(),
            Action::Stop => {
                lab.playing = false;
                lab
            }
            Action::Tick(ts) => lab.tick(ts),
            Action::SetSpeed(x) => {
                lab.speed = crate::decimal::clamp(x, SPEEDS[0].0, SPEEDS[SPEEDS.len() - 1].0);
                lab
            }
            Action::ToggleLecture
            | Action::NextTheme
            | Action::ToggleOutcome
            | Action::ToggleStopAtKeys
            | Action::ToggleFuture
            | Action::ToggleLegend
            | Action::ToggleHelp
            | Action::CloseHelp
            | Action::DismissLinkError => lab.apply_view(action),
            _ => lab,
        }
    }

    /// A flip of the fencing or safe-unlock switch: a new run.
    fn apply_switch(self, action: Action) -> Session {
        let safe_unlock = self.safe_unlock_applies();
        match action {
            Action::SetFencing(on) => self.edit(|s| s.storage.fencing = on),
            Action::ToggleFencing => self.edit(|s| s.storage.fencing = !s.storage.fencing),
            Action::SetSafeUnlock(on) if safe_unlock => self.edit(|s| s.lock.safe_unlock = on),
            Action::ToggleSafeUnlock if safe_unlock => self.edit(|s| s.lock.safe_unlock = !s.lock.safe_unlock),
            _ => self,
        }
    }

    /// A change to the scenario's knobs: a new run.
    fn apply_setting(self, action: Action) -> Session {
        match action {
            Action::SetTtl(ms) => self.edit(|s| s.lock.ttl_ms = ms),
            Action::SetPause(ms) => self.edit(|s| fault::set_knob(&mut s.faults, ms)),
            Action::SetSeed(seed) => self.edit(|s| s.seed = seed),
            _ => self,
        }
    }

    /// Steps and key moments, through both runs of a comparison (one run otherwise).
    fn apply_step(self, action: Action) -> Session {
        let end = self.timeline.duration_ms as f64;
        let (to, edge) = match action {
            Action::Step => (stepping::step(&self, true), end),
            Action::StepBack => (stepping::step(&self, false), 0.0),
            Action::NextKey => (stepping::key(&self, true), end),
            Action::PrevKey => (stepping::key(&self, false), 0.0),
            _ => return self,
        };
        self.seek_both(to, edge)
    }

    fn toggle_play(mut self) -> Session {
        self.playing = !self.playing;
        if self.playing && self.cursor >= self.timeline.duration_ms as f64 {
            self.cursor = 0.0; // play at the end starts over
        }
        self.last_frame_ts = None;
        self.slide_ms = 0.0;
        self.dwell_ms = 0.0;
        self
    }

    /// What the screen shows besides the run: lecture mode, the outcome, help, the link error.
    fn apply_view(mut self, action: Action) -> Session {
        match action {
            Action::ToggleLecture => self.lecture = !self.lecture,
            Action::NextTheme => self.theme = Some(self.theme_shown().next()),
            Action::ToggleOutcome => self.outcome = !self.outcome,
            Action::ToggleStopAtKeys => self.stop_at_keys = !self.stop_at_keys,
            Action::ToggleFuture => self.future = !self.future,
            Action::ToggleLegend => self.legend = !self.legend,
            Action::ToggleHelp => self.help = !self.help,
            Action::CloseHelp => self.help = false,
            Action::DismissLinkError => self.link_error = None,
            _ => {}
        }
        self
    }

    /// Faults where the user points (faults.rs): the menu, adding, moving, resizing, removing.
    fn apply_fault(mut self, action: Action) -> Session {
        match action {
            Action::OpenFaultMenu(menu) => {
                self.menu = Some(menu).filter(|m| !self.fault_menu(&m.node).is_empty());
                self.playing = false;
                self
            }
            Action::CloseFaultMenu => {
                self.menu = None;
                self
            }
            Action::Inject { kind, node } => self.inject(&kind, &node),
            Action::MoveFault { index, at_ms } => self.move_fault(index, at_ms),
            Action::ResizeFault { index, length_ms } => self.resize_fault(index, length_ms),
            Action::RemoveFault(index) => self.remove_fault(index),
            Action::RemoveSelected => match self.selected {
                Some(index) => self.remove_fault(index),
                None => self,
            },
            Action::SelectFault(index) => {
                self.selected = index.filter(|&i| i < self.scenario.faults.len());
                self
            }
            _ => self,
        }
    }
}
