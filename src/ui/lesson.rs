//! A lesson on screen (issue 12, "Presenter"): the step's text, its question and the closing
//! table above the diagram, and the clicker's keys. The lesson's state is plain Rust
//! (`lesson::presenter`); each step goes on screen through the session's own actions (Load,
//! Focus / Seek, PlayTo), so what shows is exactly the scenario the step names, run as always.
//! One component and one hook: each Yew component costs bundle size.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::events::{EventListener, EventListenerOptions, EventListenerPhase};
use wasm_bindgen::JsCast;
use web_sys::KeyboardEvent;
use yew::prelude::*;

use super::keys::{lesson_key, LessonKey};
use super::state::{Act, Action, Shared};
use crate::lesson::presenter::Presenter;
use crate::lesson::share::{self, Opened, Source};
use crate::lesson::table::{self, Measured, Outcome, Row};
use crate::lesson::{locate, At, Cursor, Question};
use crate::timeline::Timeline;

/// The lesson open on the page, if any, and why the last one could not be opened.
#[derive(Clone, PartialEq, Default)]
pub struct LessonState {
    pub open: Option<Shared<Open>>,
    pub error: Option<Rc<str>>,
}

impl LessonState {
    pub fn is_open(&self) -> bool {
        self.open.is_some()
    }
}

/// An open lesson at one step, with what the step needs from its run worked out once.
#[derive(Clone)]
pub struct Open {
    pub presenter: Presenter,
    pub source: Source,
    pub blank: bool,
    /// The step's scenario as the JSON `Action::Load` takes.
    json: String,
    /// Where the step's cursor and its reveal land.
    at: Option<Cursor>,
    reveal: Option<Cursor>,
    rows: Vec<Row>,
    /// The step's heading: its scenario's title (a slide: the lesson's).
    title: String,
}

impl Open {
    fn new(presenter: Presenter, source: Source, blank: bool) -> Open {
        let step = presenter.current();
        let scenario = step.scenario();
        let timeline = scenario.as_ref().map(|s| Timeline::of_run(&crate::lab::run(s)));
        let find = |at: At| timeline.as_ref().and_then(|t| locate(at, t));
        let at = find(step.at);
        let reveal = step.question.as_ref().and_then(|q| find(q.reveal_at));
        // Pretty, as the editor writes it: the compact writer would be another copy of the
        // scenario's serializer in the bundle.
        let title = match &scenario {
            Some(s) if !step.is_slide() => s.title.clone(),
            _ => presenter.lesson.title.clone(),
        };
        let json = scenario.and_then(|s| serde_json::to_string_pretty(&s).ok()).unwrap_or_default();
        let rows = table::rows(&presenter.lesson, presenter.step);
        Open { presenter, source, blank, json, at, reveal, rows, title }
    }

    /// The same lesson after `change`; a new step is worked out anew.
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

    fn blanked(&self, blank: bool) -> Open {
        Open { blank, ..self.clone() }
    }
}

fn state_of(opened: Result<Opened, String>) -> LessonState {
    match opened {
        Ok(o) => LessonState { open: Some(Shared(Rc::new(Open::new(Presenter::new(o.lesson, o.step), o.source, false)))), error: None },
        Err(e) => LessonState { open: None, error: Some(Rc::from(e)) },
    }
}

/// The lesson the page's address opens (`?lesson=ID&step=N`, `#l=…`), as state.
#[hook]
pub fn use_lesson() -> UseStateHandle<LessonState> {
    use_state(|| {
        let start = super::start::from_page();
        share::open(&start.search, &start.hash).map(state_of).unwrap_or_default()
    })
}

/// What the presenter can be asked to do, by key or by click.
#[derive(Clone, Copy, PartialEq)]
enum Cmd {
    Key(LessonKey),
    Reveal,
    Go(usize),
    Close,
}

/// The view a command acts on (the key listener reads the latest render's).
#[derive(Clone)]
struct Ctx {
    open: Shared<Open>,
    cursor: f64,
    playing: bool,
    embed: bool,
}

fn set(state: &UseStateHandle<LessonState>, open: Open) {
    state.set(LessonState { open: Some(Shared(Rc::new(open))), error: None });
}

/// Plays from the cursor to `to` (from the start if the cursor is already there or past it).
fn play_to(act: &Act, ctx: &Ctx, to: Option<Cursor>) {
    let Some(c) = to else { return };
    if ctx.cursor >= c.ms as f64 {
        act.dispatch(Action::Seek(0.0));
    }
    act.dispatch(Action::PlayTo { ms: c.ms, event: c.event });
}

fn command(cmd: Cmd, state: &UseStateHandle<LessonState>, ctx: &Ctx, act: &Act) {
    let open = &ctx.open;
    let p = &open.presenter;
    let unrevealed = p.current().question.is_some() && !p.revealed();
    match cmd {
        Cmd::Key(LessonKey::Next) if unrevealed => command(Cmd::Reveal, state, ctx, act),
        Cmd::Key(LessonKey::Next) if !ctx.embed => open.after(Presenter::next).into_iter().for_each(|o| set(state, o)),
        Cmd::Key(LessonKey::Prev) if !ctx.embed => open.after(Presenter::prev).into_iter().for_each(|o| set(state, o)),
        Cmd::Go(step) if !ctx.embed => open.after(|p| p.go(step)).into_iter().for_each(|o| set(state, o)),
        Cmd::Key(LessonKey::Next | LessonKey::Prev) | Cmd::Go(_) => {}
        Cmd::Key(LessonKey::Play) if ctx.playing => act.dispatch(Action::Stop),
        Cmd::Key(LessonKey::Play) => play_to(act, ctx, if p.revealed() { open.reveal } else { open.at }),
        Cmd::Key(LessonKey::Choose(i)) => open.after(|p| p.choose(i)).into_iter().for_each(|o| set(state, o)),
        Cmd::Key(LessonKey::Blank) => set(state, open.blanked(!open.blank)),
        Cmd::Reveal => {
            if let (Some(o), Some(reveal)) = (open.after(Presenter::reveal), open.reveal) {
                set(state, o);
                // From the step's own moment, so the reveal shows what follows the question.
                if let Some(at) = open.at.filter(|at| ctx.cursor != at.ms as f64) {
                    act.dispatch(at.event.map_or(Action::Seek(at.ms as f64), Action::Focus));
                }
                act.dispatch(Action::PlayTo { ms: reveal.ms, event: reveal.event });
            }
        }
        Cmd::Close => state.set(LessonState::default()),
    }
}

/// Opens the built-in lesson `id` at its first step.
pub fn open_builtin(state: &UseStateHandle<LessonState>, id: &str) {
    state.set(share::open(&format!("?lesson={id}"), "").map(state_of).unwrap_or_default())
}

/// The header's way into lessons: the index of the built-in ones (`index`), or a file of one's own.
pub fn opener(state: &UseStateHandle<LessonState>, index: &UseStateHandle<bool>) -> Html {
    let start = {
        let index = index.clone();
        move |_| index.set(true)
    };
    let load = {
        let state = state.clone();
        Callback::from(move |ev: Event| {
            let input: web_sys::HtmlInputElement = ev.target_unchecked_into();
            let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
            input.set_value("");
            let state = state.clone();
            let read = wasm_bindgen_futures::JsFuture::from(file.text());
            wasm_bindgen_futures::spawn_local(async move {
                let text =
                    read.await.ok().and_then(|t| t.as_string()).ok_or_else(|| "the lesson file could not be read as text".to_string());
                state.set(state_of(text.and_then(|t| share::own(&t))));
            });
        })
    };
    html! {
        <span class="lesson-opener">
            <button type="button" class="small" data-testid="lesson-start" onclick={start} title="The built-in lessons, in course order">{"Lesson"}</button>
            <label class="button small lesson-file" title="Open a lesson of your own (docs/LESSON_FORMAT.md)">
                {"Lesson file…"}<input type="file" accept=".json,application/json" data-testid="lesson-file" onchange={load} />
            </label>
        </span>
    }
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub state: UseStateHandle<LessonState>,
    pub act: Act,
    pub cursor: f64,
    pub playing: bool,
    pub lecture: bool,
    pub embed: bool,
}

fn cell(o: Outcome, has_token: bool, fencing: bool) -> Html {
    let text = if fencing && !has_token && !o.safe { "update lost: no token to check" } else { o.text() };
    html! { <td class={if o.safe { "safe" } else { "unsafe" }}>{text}</td> }
}

/// The clicker's keys, ahead of the app's own (capture phase on the window): while a lesson is
/// open they move between steps, not events. `latest` is the view of the latest render.
#[hook]
fn use_clicker_keys(state: &UseStateHandle<LessonState>, act: &Act, latest: &Rc<RefCell<Option<Ctx>>>) {
    use_effect_with((), {
        let (state, act, latest) = (state.clone(), act.clone(), latest.clone());
        move |_| {
            let options = EventListenerOptions { phase: EventListenerPhase::Capture, passive: false };
            let listener = EventListener::new_with_options(&gloo::utils::window(), "keydown", options, move |e| {
                let Some(e) = e.dyn_ref::<KeyboardEvent>() else { return };
                let Some(ctx) = latest.borrow().clone() else { return };
                let Some(key) = lesson_key(e) else { return };
                e.prevent_default();
                e.stop_propagation();
                if !e.repeat() {
                    command(Cmd::Key(key), &state, &ctx, &act);
                }
            });
            move || drop(listener)
        }
    });
}

/// A lesson runs in lecture mode; each step on screen: its scenario with its switches, the
/// cursor at its moment; the address bar names lesson and step (an embed leaves the host
/// page's address alone).
#[hook]
fn use_step_on_screen(p: &Props, ctx: &Option<Ctx>) {
    let opened = p.state.is_open();
    use_effect_with(opened, {
        let (act, lecture) = (p.act.clone(), p.lecture && !p.embed);
        move |opened| {
            if *opened && !lecture {
                act.dispatch(Action::ToggleLecture);
            }
        }
    });
    let step_key = ctx.as_ref().map(|c| (c.open.presenter.step, c.open.source.clone(), c.open.presenter.lesson.id.clone()));
    use_effect_with(step_key, {
        let (open, act, embed) = (p.state.open.clone(), p.act.clone(), p.embed);
        move |_| {
            if let Some(o) = open {
                act.dispatch(Action::Load(o.json.clone()));
                // A question the room has already seen answered stands at its answer.
                if let Some(at) = if o.presenter.revealed() { o.reveal } else { o.at } {
                    act.dispatch(at.event.map_or(Action::Seek(at.ms as f64), Action::Focus));
                }
                if !embed {
                    super::start::write_back(&share::link(&o.source, o.presenter.step, false));
                }
            }
        }
    });
}

/// Why the last lesson could not be opened, until dismissed.
fn lesson_error(state: &UseStateHandle<LessonState>, e: &str) -> Html {
    let state = state.clone();
    html! {
        <div class="link-error" role="alert" data-testid="lesson-error">
            <p>{format!("The lesson could not be opened: {e}")}</p>
            <button type="button" class="small" aria-label="Dismiss" onclick={move |_| state.set(LessonState::default())}>{"×"}</button>
        </div>
    }
}

/// The panel's buttons: each runs a command on the open lesson.
struct Buttons<'a> {
    state: &'a UseStateHandle<LessonState>,
    act: &'a Act,
    ctx: &'a Ctx,
}

impl Buttons<'_> {
    fn on(&self, cmd: Cmd) -> impl Fn(MouseEvent) + 'static {
        let (state, act, ctx) = (self.state.clone(), self.act.clone(), self.ctx.clone());
        move |_: MouseEvent| command(cmd, &state, &ctx, &act)
    }
}

/// The room's verdict once the answering moment is reached: its majority against what happened.
fn verdict(q: &Question, pr: &Presenter) -> String {
    let answer = q.answer + 1;
    let total: u32 = pr.hands().iter().sum();
    match (pr.majority(), pr.held()) {
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
    }
}

/// The step's question: its choices, each with the room's hands as a bar, and once the
/// answering moment is `reached`, how the room's majority did.
fn question(q: &Question, pr: &Presenter, reached: bool, on: &Buttons) -> Html {
    let (hands, revealed, top) = (pr.hands(), pr.revealed(), pr.majority());
    let most = hands.iter().copied().max().unwrap_or(0).max(1);
    let choices = q.choices.iter().enumerate().map(|(i, c)| {
        let shown = revealed && reached;
        let n = hands.get(i).copied().unwrap_or(0);
        let class = classes!(
            "lesson-choice",
            (top == Some(i)).then_some("chosen"),
            (shown && i == q.answer).then_some("right"),
            (shown && top == Some(i) && i != q.answer).then_some("wrong")
        );
        html! {
            <li><button type="button" {class} data-testid="lesson-choice" data-choice={i.to_string()} data-hands={n.to_string()} aria-pressed={(top == Some(i)).to_string()}
                style={format!("--hands:{}%", n * 100 / most)} disabled={revealed} onclick={on.on(Cmd::Key(LessonKey::Choose(i)))}>
                <kbd>{(i + 1).to_string()}</kbd><span class="lesson-choice-words">{c.clone()}</span>
                if n > 0 {
                    <span class="lesson-hands" aria-label={format!("{n} hands")}>{n.to_string()}</span>
                }
            </button></li>
        }
    });
    html! {
        <div class="lesson-question" role="group" aria-label="Question">
            <p class="lesson-prompt">{q.prompt.clone()}</p>
            <ol class="lesson-choices">{for choices}</ol>
            if revealed && reached {
                <p class={classes!("lesson-verdict", pr.held().map(|h| if h { "held" } else { "missed" }))} data-testid="lesson-revealed" role="status">{verdict(q, pr)}</p>
            } else if revealed {
                <p class="lesson-verdict" role="status">{"Playing to the answer…"}</p>
            }
        </div>
    }
}

/// A table of more rows than this is long: in lecture mode each row keeps to one line (its
/// step's title stays in the step itself), so that the nine approaches fit one slide.
const LONG_TABLE: usize = 6;

/// The closing table: each approach, the step that shows it, and its outcome either way: the
/// step's own run, or (once asked) the seed's table measured for its approach, each cell a
/// count of its runs at the row's plan (its label then names a base the plan changed).
fn table_rows(rows: &[Row], measured: Option<&Measured>, on: &Buttons) -> Html {
    let rows = rows.iter().map(|r| {
        let plan = measured.and_then(|m| m.cell(r.approach, false)).map(|(p, _)| p);
        let label = plan.map_or_else(|| r.approach.label().to_string(), |p| p.row.label.clone());
        let cells = match measured {
            Some(m) => html! { <>{measured_cell(m, r.approach, false)}{measured_cell(m, r.approach, true)}</> },
            None => html! { <>{cell(r.fencing_off, r.has_token, false)}{cell(r.fencing_on, r.has_token, true)}</> },
        };
        html! {
            <tr data-step={(r.step + 1).to_string()}>
                <th scope="row"><button type="button" class="link" onclick={on.on(Cmd::Go(r.step))} title={format!("Go to step {}", r.step + 1)}>
                    {label}<span class="lesson-row-step">{format!(" · step {}", r.step + 1)}<span class="lesson-row-title">{format!(": {}", r.title)}</span></span>
                </button></th>
                {cells}
            </tr>
        }
    });
    html! { {for rows} }
}

/// A measured cell: lost updates and tokens handed out again, as counts of its runs so far.
fn measured_cell(m: &Measured, approach: crate::scenario::Approach, fencing: bool) -> Html {
    let Some((_, p)) = m.cell(approach, fencing) else { return html! { <td /> } };
    html! {
        <td class={if p.counts.lost_update > 0 { "unsafe" } else { "safe" }} data-testid="lesson-measured-cell" data-runs={p.runs.to_string()}
            data-lost={p.counts.lost_update.to_string()} data-tokens={p.token_repeats.to_string()}>{Measured::words(&p)}</td>
    }
}

/// Under a measured table: how far it is, and each mix in words with the rows that ran it.
fn measured_notes(m: &Measured) -> Html {
    use crate::timeline::draw::words::thousands;
    let (runs, total): (u64, u64) = m.cells.iter().map(|c| c.explorer.progress()).fold((0, 0), |(r, t), p| (r + p.runs, t + p.total));
    let mut mixes: Vec<(String, Vec<String>)> = Vec::new();
    for p in &m.plans {
        let name = p.row.base.approach.label().to_string();
        match mixes.iter_mut().find(|(w, _)| *w == p.mix_words) {
            Some((_, rows)) => rows.push(name),
            None => mixes.push((p.mix_words.clone(), vec![name])),
        }
    }
    let state = if m.done() { "measured" } else { "measuring" };
    html! {
        <div class="lesson-measured" data-testid="lesson-measured" data-runs={runs.to_string()} data-total={total.to_string()}>
            {format!("The seed's table, {state}: {} of {} schedules, explorer seed {} (as the Explore panel and locklab explore --table). ", thousands(runs as usize), thousands(total as usize), m.plans.first().map_or(1, |p| p.seed))}
            {for mixes.iter().map(|(w, rows)| html! { <span class="lesson-mix">{format!("{}: {}. ", rows.join(", "), w)}</span> })}
        </div>
    }
}

/// The step's count, its Reveal (while its question waits) and the clicker's buttons.
fn head(open: &Open, n: usize, embed: bool, on: &Buttons, measure: Option<Html>) -> Html {
    let pr = &open.presenter;
    let asking = pr.current().question.is_some() && !pr.revealed();
    html! {
        <div class="lesson-head">
            <span class="lesson-title">{pr.lesson.title.clone()}</span>
            <span class="lesson-count">{format!("Step {} of {n}", pr.step + 1)}</span>
            {for measure}
            if asking {
                <button type="button" class="small lesson-reveal-btn" data-testid="lesson-reveal" onclick={on.on(Cmd::Reveal)} title="Play to the moment that answers it (→)">{"Reveal"}</button>
            }
            if !embed {
                <button type="button" class="small" data-testid="lesson-prev" disabled={pr.step == 0} onclick={on.on(Cmd::Key(LessonKey::Prev))} title="Previous step (← or PageUp)" aria-label="Previous step">{"←"}</button>
                <button type="button" class="small" data-testid="lesson-next" disabled={pr.is_last() && !asking} onclick={on.on(Cmd::Key(LessonKey::Next))} title="Next step (→ or PageDown)" aria-label="Next step">{"→"}</button>
                <button type="button" class="small" data-testid="lesson-close" onclick={on.on(Cmd::Close)} title="Close the lesson" aria-label="Close the lesson">{"×"}</button>
            }
        </div>
    }
}

/// The closing table measured over many runs, once asked for: run in slices of each animation
/// frame (as the Explore panel runs its table), dropped when the step changes.
#[hook]
fn use_measured(key: Option<(String, usize)>) -> (Rc<RefCell<Option<Measured>>>, Callback<Vec<Row>>) {
    let slot = use_mut_ref(|| None::<Measured>);
    let frame = use_state_eq(|| 0u64);
    {
        let slot = slot.clone();
        use_effect_with(key, move |_| move || drop(slot.borrow_mut().take()));
    }
    let busy = slot.borrow().as_ref().is_some_and(|m| !m.done());
    let n = *frame;
    {
        let (slot, frame) = (slot.clone(), frame.clone());
        use_effect_with((busy, n), move |&(busy, n)| {
            let handle = busy.then(|| {
                gloo::render::request_animation_frame(move |_| {
                    let perf = web_sys::window().and_then(|w| w.performance());
                    let now = || perf.as_ref().map_or(0.0, |p| p.now());
                    let end = now() + 8.0;
                    if let Some(m) = slot.borrow_mut().as_mut() {
                        m.step(&mut || now() < end);
                    }
                    frame.set(n + 1);
                })
            });
            move || drop(handle)
        });
    }
    let start = {
        let (slot, frame) = (slot.clone(), frame.clone());
        Callback::from(move |rows: Vec<Row>| {
            *slot.borrow_mut() = Some(Measured::new(&rows, None));
            frame.set(*frame + 1);
        })
    };
    (slot, start)
}

#[function_component(LessonPanel)]
pub fn lesson_panel(p: &Props) -> Html {
    let latest: Rc<RefCell<Option<Ctx>>> = use_mut_ref(|| None);
    let ctx = p.state.open.clone().map(|open| Ctx { open, cursor: p.cursor, playing: p.playing, embed: p.embed });
    *latest.borrow_mut() = ctx.clone();
    use_clicker_keys(&p.state, &p.act, &latest);
    use_step_on_screen(p, &ctx);
    let (measured, measure) = use_measured(ctx.as_ref().map(|c| (c.open.presenter.lesson.id.clone(), c.open.presenter.step)));

    let Some(ctx) = ctx else {
        return match &p.state.error {
            Some(e) => lesson_error(&p.state, e),
            None => html! {},
        };
    };
    let buttons = Buttons { state: &p.state, act: &p.act, ctx: &ctx };
    let on = |cmd: Cmd| buttons.on(cmd);
    let open = &ctx.open;
    let pr = &open.presenter;
    let step = pr.current();
    let n = pr.lesson.steps.len();
    let reached = open.reveal.is_some_and(|c| !p.playing && p.cursor >= c.ms as f64);
    let question = step.question.as_ref().map(|q| question(q, pr, reached, &buttons));
    let m = measured.borrow();
    // In the step's head, where a slide has room: below the table it cost a line of the stage.
    let measure_button = (!open.rows.is_empty() && m.is_none()).then(|| {
        let (rows, measure) = (open.rows.clone(), measure.clone());
        html! {
            <button type="button" class="small lesson-measure" data-testid="lesson-measure" onclick={move |_: MouseEvent| measure.emit(rows.clone())}
                title="Each row's approach over many runs, at the mix that reveals what is claimed of it">{"Measure over many runs"}</button>
        }
    });
    html! {
        <>
            <section class={classes!("lesson", (step.question.is_some() && !pr.revealed()).then_some("asking"), step.is_slide().then_some("slide"))} data-testid="lesson" data-lesson={pr.lesson.id.clone()} data-step={(pr.step + 1).to_string()} aria-label="Lesson">
                {head(open, n, p.embed, &buttons, measure_button)}
                <h2 class="lesson-step-title" data-testid="lesson-step-title">{open.title.clone()}</h2>
                <p class="lesson-text">{step.text.clone()}</p>
                {for question}
                if !open.rows.is_empty() {
                    <table class={classes!("lesson-table", (open.rows.len() > LONG_TABLE).then_some("long"), m.is_some().then_some("measured"))} data-testid="lesson-table">
                        <thead><tr><th scope="col">{"Approach, and the step that shows it"}</th><th scope="col">{"fencing off"}</th><th scope="col">{"fencing on"}</th></tr></thead>
                        <tbody>{table_rows(&open.rows, m.as_ref(), &buttons)}</tbody>
                    </table>
                    if let Some(m) = m.as_ref() {
                        {measured_notes(m)}
                    }
                }
            </section>
            if open.blank {
                <div class="lesson-blank" data-testid="lesson-blank" onclick={on(Cmd::Key(LessonKey::Blank))} />
            }
        </>
    }
}
