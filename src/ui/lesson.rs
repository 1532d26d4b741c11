//! A lesson on screen (issue 12, "Presenter"): the step's text, its question and the closing
//! table above the diagram, and the clicker's keys. The lesson is a plain-Rust model
//! (`lesson::player`): each move is its `Action`, and the session actions it answers with
//! (Load, Focus / Seek, PlayTo) put the step on screen, so what shows is exactly the scenario
//! the step names, run as always. This file draws the player and forwards those actions.
//! One component and one hook: each Yew component costs bundle size.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::events::{EventListener, EventListenerOptions, EventListenerPhase};
use wasm_bindgen::JsCast;
use web_sys::KeyboardEvent;
use yew::prelude::*;

use super::keys::{lesson_key, LessonKey};
use super::share::{copy_text, Copied};
use super::state::Act;
use crate::lesson::blocks::{highlight, Blocks, Drawn};
pub use crate::lesson::player::Player as LessonState;
use crate::lesson::player::{self, Action, MeasuredSummary, Open, Screen};
use crate::lesson::table::{Measured, Row};

/// The lesson the page's address opens (`?lesson=ID&step=N`, `#l=…`), as state.
#[hook]
pub fn use_lesson() -> UseStateHandle<LessonState> {
    use_state_eq(|| {
        let start = super::start::from_page();
        LessonState::at_address(&start.search, &start.hash)
    })
}

/// The view a command acts on (the key listener reads the latest render's).
#[derive(Clone)]
struct Ctx {
    player: LessonState,
    open: Rc<Open>,
    screen: Screen,
}

/// The shim: the model's next state becomes the view's, and its cues the session's actions.
/// Returns that state, for a caller that may act again before the view renders it.
fn command(action: Action, state: &UseStateHandle<LessonState>, player: &LessonState, screen: Screen, act: &Act) -> LessonState {
    let (next, cues) = player.clone().apply(action, screen);
    state.set(next.clone());
    cues.into_iter().for_each(|c| act.dispatch(c));
    next
}

/// Opens the built-in lesson `id` at its first step.
pub fn open_builtin(state: &UseStateHandle<LessonState>, id: &str) {
    let (next, _) = (**state).clone().apply(Action::OpenBuiltin(id.to_string()), Screen::default());
    state.set(next)
}

/// The header's way into lessons: the index of the built-in ones (`index`), or a file of one's own.
pub fn opener(state: &UseStateHandle<LessonState>) -> Html {
    let start = {
        let state = state.clone();
        move |_| state.set((*state).clone().apply(Action::Index(true), Screen::default()).0)
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
                state.set(LessonState::default().apply(Action::OpenOwn(text), Screen::default()).0);
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

/// The model's action for a clicker key.
fn action_of(key: LessonKey) -> Action {
    match key {
        LessonKey::Next => Action::Next,
        LessonKey::Prev => Action::Prev,
        LessonKey::Play => Action::Play,
        LessonKey::Choose(i) => Action::Choose(i),
        LessonKey::Blank => Action::Blank,
    }
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
                    let next = command(action_of(key), &state, &ctx.player, ctx.screen, &act);
                    // A second key before the next render acts on this state, not the render's:
                    // two quick presses of 2 are two hands, not one (a lost update otherwise).
                    if let Some(c) = latest.borrow_mut().as_mut() {
                        c.player = next;
                    }
                }
            });
            move || drop(listener)
        }
    });
}

/// A room (`?room=KEY`, src/ui/room.rs): its counts are the lesson's `RoomVotes`, applied to
/// the latest state as the clicker's keys are (`latest`).
#[hook]
fn use_room_votes(
    state: &UseStateHandle<LessonState>,
    act: &Act,
    latest: &Rc<RefCell<Option<Ctx>>>,
    open: Option<&Open>,
) -> super::room::RoomView {
    let on_counts = {
        let (state, act, latest) = (state.clone(), act.clone(), latest.clone());
        Callback::from(move |(lesson, step, votes): (String, usize, Vec<u32>)| {
            let Some(ctx) = latest.borrow().clone() else { return };
            let next = command(Action::RoomVotes(lesson, step, votes), &state, &ctx.player, ctx.screen, &act);
            if let Some(c) = latest.borrow_mut().as_mut() {
                c.player = next;
            }
        })
    };
    super::room::use_room(open, on_counts)
}

/// A lesson runs in lecture mode; each step on screen: its scenario with its switches, the
/// cursor at its moment (`Open::on_screen`); the address bar names lesson and step (an embed
/// leaves the host page's address alone).
#[hook]
fn use_step_on_screen(p: &Props, ctx: &Option<Ctx>) {
    use_effect_with(p.state.is_open(), {
        let (act, cue) = (p.act.clone(), p.state.lecture_cue(p.lecture && !p.embed));
        move |_| cue.into_iter().for_each(|c| act.dispatch(c))
    });
    let step_key = ctx.as_ref().map(|c| c.open.step_key());
    use_effect_with(step_key, {
        let (open, act, embed) = (p.state.open.clone(), p.act.clone(), p.embed);
        move |_| {
            if let Some(o) = open {
                o.on_screen().into_iter().for_each(|c| act.dispatch(c));
                if !embed {
                    super::start::write_back(&o.link());
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

/// The panel's buttons: each runs an action on the open lesson.
struct Buttons<'a> {
    state: &'a UseStateHandle<LessonState>,
    act: &'a Act,
    ctx: &'a Ctx,
}

impl Buttons<'_> {
    fn on(&self, action: Action) -> impl Fn(MouseEvent) + 'static {
        let (state, act, ctx) = (self.state.clone(), self.act.clone(), self.ctx.clone());
        move |_: MouseEvent| {
            command(action.clone(), &state, &ctx.player, ctx.screen, &act);
        }
    }
}

/// The step's question: its choices, each with the room's hands as a bar, and once the
/// answering moment is `reached`, how the room's majority did; `join`: how phones join a room.
fn question(open: &Open, prompt: &str, reached: bool, on: &Buttons, join: Html) -> Html {
    let pr = &open.presenter;
    let revealed = pr.revealed();
    let choices = open.choices(reached).into_iter().enumerate().map(|(i, c)| {
        let class = classes!("lesson-choice", c.chosen.then_some("chosen"), c.right.then_some("right"), c.wrong.then_some("wrong"));
        html! {
            // Shown in the file's order (docs/LESSON_FORMAT.md, "Fair questions"): key i + 1 is
            // this choice; `data-right` marks the answer once it shows, as the class does.
            <li><button type="button" {class} data-testid="lesson-choice" data-choice={i.to_string()} data-right={c.right.then_some("true")} data-hands={c.hands.to_string()} aria-pressed={c.chosen.to_string()}
                style={format!("--hands:{}%", c.bar_percent)} disabled={revealed} onclick={on.on(Action::Choose(i))}>
                <kbd>{(i + 1).to_string()}</kbd><span class="lesson-choice-words">{c.text}</span>
                if c.hands > 0 {
                    <span class="lesson-hands" aria-label={format!("{} hands", c.hands)}>{c.hands.to_string()}</span>
                }
            </button></li>
        }
    });
    html! {
        <div class="lesson-question" role="group" aria-label="Question">
            {join}
            <p class="lesson-prompt">{prompt.to_string()}</p>
            <ol class="lesson-choices">{for choices}</ol>
            if revealed && reached {
                <p class={classes!("lesson-verdict", pr.held().map(|h| if h { "held" } else { "missed" }))} data-testid="lesson-revealed" role="status">{open.verdict().unwrap_or_default()}</p>
            } else if revealed {
                <p class="lesson-verdict" role="status">{"Playing to the answer…"}</p>
            }
        </div>
    }
}

/// The step's blocks under its text (docs/LESSON_FORMAT.md, "Lists, definitions, code and
/// figures"): a bullet list, definitions, highlighted code, and a figure drawn by the core
/// (`lesson::blocks`), inline so that the page's stylesheet and theme colour it.
fn blocks(b: &Blocks, figure: Option<&Drawn>) -> Html {
    let list =
        (!b.list.is_empty()).then(|| html! { <ul class="lesson-list">{for b.list.iter().map(|i| html! { <li>{i.clone()}</li> })}</ul> });
    let defs = (!b.definitions.is_empty()).then(|| {
        html! {
            <dl class="lesson-defs">{for b.definitions.iter().map(|d| html! { <div><dt>{d.term.clone()}</dt><dd>{d.meaning.clone()}</dd></div> })}</dl>
        }
    });
    let code = b.code.as_ref().map(|c| {
        let lines = c.lines.iter().map(|l| {
            let pieces = highlight(c.language, l).into_iter().map(|(role, text)| match role.class() {
                Some(class) => html! { <span {class}>{text}</span> },
                None => html! { {text} },
            });
            html! { <>{for pieces}{"\n"}</> }
        });
        html! {
            <pre class="lesson-code" data-testid="lesson-code" data-language={c.language.name()} aria-label={format!("Code, {}", c.language.name())}><code>{for lines}</code></pre>
        }
    });
    let figure = figure.map(|d| {
        html! {
            <figure class="lesson-figure" data-testid="lesson-figure">
                {Html::from_html_unchecked(AttrValue::from(d.svg.clone()))}
                <figcaption>{d.caption.clone()}</figcaption>
            </figure>
        }
    });
    if b.is_empty() {
        return html! {};
    }
    // Beside other blocks the figure is the slide's right column (`Blocks::beside`).
    html! {
        <div class={classes!("lesson-blocks", b.beside().then_some("beside"))}>
            if b.beside() {
                <div class="lesson-blocks-words">{for list}{for defs}{for code}</div>
            } else {
                {for list}{for defs}{for code}
            }
            {for figure}
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
            None => html! { <>{cell(r, false)}{cell(r, true)}</> },
        };
        html! {
            <tr data-step={(r.step + 1).to_string()}>
                <th scope="row"><button type="button" class="link" onclick={on.on(Action::Go(r.step))} title={format!("Go to step {}", r.step + 1)}>
                    {label}<span class="lesson-row-step">{format!(" · step {}", r.step + 1)}<span class="lesson-row-title">{format!(": {}", r.title)}</span></span>
                </button></th>
                {cells}
            </tr>
        }
    });
    html! { {for rows} }
}

/// A cell from the step's own run.
fn cell(r: &Row, fencing: bool) -> Html {
    let (safe, text) = player::cell(if fencing { r.fencing_on } else { r.fencing_off }, r.has_token, fencing);
    html! { <td class={if safe { "safe" } else { "unsafe" }}>{text}</td> }
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
    let s = MeasuredSummary::of(m);
    html! {
        <div class="lesson-measured" data-testid="lesson-measured" data-runs={s.runs.to_string()} data-total={s.total.to_string()}>
            {s.words()}
            {for s.mixes.iter().map(|(w, rows)| html! { <span class="lesson-mix">{format!("{}: {}. ", rows.join(", "), w)}</span> })}
        </div>
    }
}

/// "Copy link to this step": the step's own link (`?lesson=…&step=…`, or `#l=` for a lesson of
/// one's own) on the clipboard; where the browser refuses the clipboard, the link shows in a
/// field, selected, to copy by hand (`share::copy_text`, as the header's Copy link does).
fn step_link(open: &Open, copied: &UseStateHandle<Copied>) -> Html {
    let url = format!("{}{}", super::start::page_base(), open.link());
    let onclick = {
        let (copied, url) = (copied.clone(), url.clone());
        move |_: MouseEvent| copy_text(&url, &copied)
    };
    let onfocus = |e: FocusEvent| {
        if let Some(input) = e.target_dyn_into::<web_sys::HtmlInputElement>() {
            input.select();
        }
    };
    html! {
        <>
            <button type="button" class="small lesson-copy-link" data-testid="lesson-copy-link" data-link={url.clone()} {onclick}
                title="Copy link to this step" aria-label="Copy link to this step">{if **copied == Copied::Yes { "✓ Copied" } else { "Copy link" }}</button>
            if **copied == Copied::ByHand {
                <input class="lesson-link-field" data-testid="lesson-link-field" readonly=true value={url} aria-label="Link to this step: copy it" {onfocus} />
            }
        </>
    }
}

/// The step's count, its Reveal (while its question waits) and the clicker's buttons.
fn head(open: &Open, embed: bool, on: &Buttons, measure: Option<Html>, link: Html) -> Html {
    let pr = &open.presenter;
    let (back, forward) = open.can_go();
    html! {
        <div class="lesson-head">
            <span class="lesson-title">{pr.lesson.title.clone()}</span>
            <span class="lesson-count">{open.count()}</span>
            {for measure}
            if open.asking() {
                <button type="button" class="small lesson-reveal-btn" data-testid="lesson-reveal" onclick={on.on(Action::Reveal)} title="Play to the moment that answers it (→)">{"Reveal"}</button>
            }
            if !embed {
                {link}
                <button type="button" class="small" data-testid="lesson-prev" disabled={!back} onclick={on.on(Action::Prev)} title="Previous step (← or PageUp)" aria-label="Previous step">{"←"}</button>
                <button type="button" class="small" data-testid="lesson-next" disabled={!forward} onclick={on.on(Action::Next)} title={open.forward_title()} aria-label={open.forward_title()}>{"→"}</button>
                <button type="button" class="small" data-testid="lesson-close" onclick={on.on(Action::Close)} title="Close the lesson" aria-label="Close the lesson">{"×"}</button>
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
    let screen = Screen { cursor: p.cursor, playing: p.playing, embed: p.embed };
    let ctx = p.state.open.clone().map(|open| Ctx { player: (*p.state).clone(), open, screen });
    *latest.borrow_mut() = ctx.clone();
    use_clicker_keys(&p.state, &p.act, &latest);
    let room = use_room_votes(&p.state, &p.act, &latest, ctx.as_ref().map(|c| &*c.open));
    use_step_on_screen(p, &ctx);
    let step_key = ctx.as_ref().map(|c| (c.open.presenter.lesson.id.clone(), c.open.presenter.step));
    let (measured, measure) = use_measured(step_key.clone());
    // The step's figure, drawn once per step (a run and a scene): the panel renders on every
    // frame of playback. Drawn with no stylesheet of its own: the page's colours it.
    let figure = ctx.as_ref().map(|c| c.open.presenter.current().blocks.clone()).filter(|b| b.figure.is_some());
    let drawn = use_memo(figure, |b| b.as_ref().and_then(|b| b.draw_figure(crate::theme::Theme::Projector, "")));
    // What the last "Copy link" did, forgotten when the step changes.
    let copied = use_state_eq(|| Copied::Not);
    {
        let copied = copied.clone();
        use_effect_with(step_key, move |_| copied.set(Copied::Not));
    }

    let Some(ctx) = ctx else {
        return match &p.state.error {
            Some(e) => lesson_error(&p.state, e),
            None => html! {},
        };
    };
    let buttons = Buttons { state: &p.state, act: &p.act, ctx: &ctx };
    let open = &ctx.open;
    let pr = &open.presenter;
    let step = pr.current();
    let join = super::room::join(&room, open.asking());
    let question = step.question.as_ref().map(|q| question(open, &q.prompt, open.reached(screen), &buttons, join));
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
            <section class={classes!("lesson", open.asking().then_some("asking"), step.is_slide().then_some("slide"))} data-testid="lesson" data-lesson={pr.lesson.id.clone()} data-step={(pr.step + 1).to_string()} aria-label="Lesson">
                {head(open, p.embed, &buttons, measure_button, step_link(open, &copied))}
                <h2 class="lesson-step-title" data-testid="lesson-step-title">{open.title.clone()}</h2>
                <p class="lesson-text">{step.text.clone()}</p>
                {blocks(&step.blocks, (*drawn).as_ref())}
                {for question}
                if !open.rows.is_empty() {
                    <table class={classes!("lesson-table", (open.rows.len() > LONG_TABLE).then_some("long"), m.is_some().then_some("measured"))} data-testid="lesson-table">
                        <thead><tr><th scope="col">{"Approach, and the step that shows it"}</th><th scope="col">{"fencing off"}</th><th scope="col">{"fencing on"}</th></tr></thead>
                        <tbody>{table_rows(&open.rows, m.as_ref(), &buttons)}</tbody>
                    </table>
                    if let Some(m) = m.as_ref() {
                        {measured_notes(m)}
                    } else {
                        // A row whose cells rest on faults its step never showed says so.
                        {for open.rows.iter().filter_map(|r| r.note()).map(|n| html! { <p class="lesson-table-note" data-testid="lesson-table-note">{n}</p> })}
                    }
                }
            </section>
            if open.blank {
                <div class="lesson-blank" data-testid="lesson-blank" onclick={buttons.on(Action::Blank)} />
            }
        </>
    }
}
