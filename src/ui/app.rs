//! The app: header (picker, switches), the diagram with its caption and transport, then the
//! verdict and the ledger. Owns only view state (see `state`).

use std::rc::Rc;

use yew::prelude::*;

use super::caption::Caption;
use super::compare::{CompareSelect, Sides};
use super::diagram::{Diagram, Editing};
use super::editor::Editor;
use super::help::help;
use super::keys::use_keyboard;
use super::ledger::Ledger;
use super::legend::legend;
use super::picker::Picker;
use super::playback::use_playback;
use super::share::{copy_link, link_error, use_copied, use_reopen_on_hash_change};
use super::state::{on_click, Act, Action, Session, Shared};
use super::switches::{Knobs, Switches};
use super::transport::{transport, TransportProps};
use super::verdict::{Judge, Verdict};
use crate::compare::short_name;
use crate::lab::Run;
use crate::scenario::share::Named;
use crate::timeline::Timeline;

/// How the picker names a scenario that is not a built-in as shipped: a built-in changed by a
/// knob or the editor, or one of the user's own.
fn custom_label(s: &crate::scenario::Scenario, catalog: &[crate::scenario::Scenario]) -> AttrValue {
    let title = if s.title.is_empty() { &s.id } else { &s.title };
    let edited = catalog.iter().any(|b| b.id == s.id);
    AttrValue::from(format!("{}{title}", if edited { "Edited: " } else { "Your scenario: " }))
}

/// A run on screen: its name ("Redis", "real Redis 7.0.15"), the run, its timeline, and
/// whether it is the compared side.
type OnScreen = (AttrValue, Shared<Run>, Shared<Timeline>, bool);

/// The runs on screen: this one and, comparing, the other.
fn runs_on_screen(lab: &Session) -> Vec<OnScreen> {
    let mut runs = vec![(AttrValue::Static(short_name(lab.scenario.approach)), Shared(lab.run.clone()), lab.timeline.clone(), false)];
    if let Some((name, (run, timeline, _))) = lab.other.as_ref().and_then(|o| o.run.clone().map(|r| (AttrValue::from(o.name.clone()), r))) {
        runs.push((name, Shared(run), timeline, true));
    }
    runs
}

/// Compared, each side's part goes under its approach's name.
fn named_side(compared: bool, name: &AttrValue, part: Html) -> Html {
    if compared {
        html! { <div class="side-panel" data-approach={name.clone()}>{part}</div> }
    } else {
        part
    }
}

/// The link to this view, and the address bar following it. The scenario's part is made once
/// per scenario (encoding a custom one is not free), the cursor and modes added per render.
/// The picker's name for a custom scenario is made here too (App renders every frame while
/// playing). (The page's base address rides along: it never changes, and one memo is less wasm.)
#[hook]
fn use_view_link(lab: &Session, in_lesson: bool) -> (Rc<(Named, String, Option<AttrValue>)>, AttrValue) {
    // Again when the whole catalog arrives (`library`): a scenario is named against it.
    let named = use_memo((Shared(lab.scenario.clone()), Shared(lab.catalog.clone())), |(s, catalog)| {
        let named = crate::scenario::share::name(&s.0, &catalog.0);
        let custom = named.is_custom().then(|| custom_label(&s.0, &catalog.0));
        (named, super::start::page_base(), custom)
    });
    // Copied or opened from an embed, a link leads to the full app.
    let link = crate::scenario::share::link(&named.0, lab.cursor_ms(), &crate::scenario::share::Modes { embed: false, ..lab.modes() });
    let url = AttrValue::from(format!("{}{link}", named.1));
    // The address bar follows the view once it rests (not per frame while playing, nor per
    // step of a scrub drag: browsers throttle history updates, and each costs a little).
    // Embedded, the page's address is the host page's business (and a sandbox forbids it).
    // A lesson writes its own address (`?lesson=ID&step=N`).
    let link = (!lab.playing && !lab.embed && !in_lesson).then_some(link);
    use_effect_with(link, |link| {
        let link = link.clone();
        let pending = link.map(|q| gloo::timers::callback::Timeout::new(300, move || super::start::write_back(&q)));
        move || drop(pending)
    });
    (named, url)
}

/// The Embed button for the view on screen: Copy link's link (`base` + the view), in embed mode.
fn embed_button(lab: &Session, named: &Named, base: &str) -> Html {
    let modes = crate::scenario::share::Modes { embed: true, ..lab.modes() };
    let src = AttrValue::from(format!("{base}{}", crate::scenario::share::link(named, lab.cursor_ms(), &modes)));
    let s = &lab.scenario;
    let title = if s.title.is_empty() { &s.id } else { &s.title };
    let fencing = if s.storage.fencing { "on" } else { "off" };
    let title = AttrValue::from(format!("{title}, fencing {fencing}, at {}", crate::decimal::seconds(lab.cursor_ms())));
    let (run, timeline, cursor_ms, lecture) = (Shared(lab.run.clone()), lab.timeline.clone(), lab.cursor_ms(), lab.lecture);
    html! { <super::embed::EmbedButton {src} {title} {run} {timeline} {cursor_ms} {lecture} /> }
}

/// The header's buttons: lecture mode and its stops, the outcome, undo and redo, help, and
/// (`sharing`) the copy-link and lesson buttons.
fn modes(lab: &Session, act: &Act, sharing: Html) -> Html {
    let (can_undo, can_redo) = lab.can_undo();
    let undo_btn = on_click(act, || Action::Undo);
    let redo_btn = on_click(act, || Action::Redo);
    let lecture_btn = on_click(act, || Action::ToggleLecture);
    let theme_btn = on_click(act, || Action::NextTheme);
    let theme = lab.theme_shown();
    let stops_btn = on_click(act, || Action::ToggleStopAtKeys);
    let outcome_btn = {
        let (act, shown) = (act.clone(), lab.outcome);
        Callback::from(move |_: MouseEvent| {
            act.dispatch(Action::ToggleOutcome);
            if !shown {
                reveal_verdict();
            }
        })
    };
    let help_btn = on_click(act, || Action::ToggleHelp);
    html! {
        <div class="modes">
            <button type="button" class="small" aria-pressed={lab.lecture.to_string()} onclick={lecture_btn} title="Lecture mode (L)">{"Lecture"}</button>
            <button type="button" class="small" data-testid="theme" onclick={theme_btn}
                title={format!("Colours: {theme}. Next: {} (T)", theme.next())} aria-label={format!("Theme: {theme} (T for {})", theme.next())}>
                <span aria-hidden="true">{"◐ "}</span>{theme.label()}</button>
            if lab.lecture {
                <button type="button" class="small" data-testid="stop-at-keys" aria-pressed={lab.stop_at_keys.to_string()} onclick={stops_btn}
                    title="In lecture mode, playback stops at each key moment until Space">{"Stop at key moments"}</button>
            }
            <button type="button" class="small" data-testid="show-outcome" aria-pressed={lab.outcome.to_string()} onclick={outcome_btn}
                title="Show the whole run's verdict from the start (otherwise it builds up as the run plays)">{"Outcome"}</button>
            if !lab.embed {
                <button type="button" class="small" data-testid="undo" disabled={!can_undo} onclick={undo_btn} title="Undo the last edit (Ctrl+Z)">{"Undo"}</button>
                <button type="button" class="small" data-testid="redo" disabled={!can_redo} onclick={redo_btn} title="Redo (Ctrl+Shift+Z)">{"Redo"}</button>
            }
            <button type="button" class="small" onclick={help_btn} title="Keyboard help (?)" aria-label="Keyboard help">{"?"}</button>
            if !lab.embed {
                {sharing}
            }
        </div>
    }
}

/// The phone's fold (styles/app.css, at most 640 px wide): the header shows the title, the
/// picker and Fencing, so the diagram and Play are on the first screen; this button shows the
/// rest (Safe unlock, Compare, the modes, sharing) under them. Wider screens never show it.
fn more_toggle(more: &UseStateHandle<bool>) -> Html {
    let onclick = {
        let more = more.clone();
        Callback::from(move |_: MouseEvent| more.set(!*more))
    };
    html! {
        <button type="button" class="small more-toggle" data-testid="more-controls" aria-expanded={more.to_string()}
            {onclick}>{if **more { "Less ▴" } else { "More ▾" }}</button>
    }
}

/// The outcome is the verdict, below the stage (on a phone a screen and more below the button):
/// once drawn, it is scrolled to the top of the view unless it is in view already (issue 25).
fn reveal_verdict() {
    gloo::timers::callback::Timeout::new(0, || {
        let Some(w) = web_sys::window() else { return };
        let verdict = w.document().and_then(|d| d.query_selector("[data-testid=verdict]").ok().flatten());
        let (Some(v), Some(height)) = (verdict, w.inner_height().ok().and_then(|h| h.as_f64())) else { return };
        let r = v.get_bounding_client_rect();
        if r.top() < 0.0 || r.bottom() > height {
            w.scroll_by_with_x_and_y(0.0, r.top() - 8.0);
        }
    })
    .forget();
}

/// Verdicts, then ledgers: compared, the two of each side by side. No spoilers: until the end
/// (or `outcome=1`) the verdict is judged up to the cursor and the ledger lists only the writes
/// that have arrived.
fn panels(lab: &Session, runs: &[OnScreen], act: &Act) -> Html {
    let (cursor, whole, compared) = (lab.cursor_ms(), lab.outcome_shown(), runs.len() > 1);
    let judge = match &lab.original {
        Some(original) => Judge::Change(Shared(original.clone())),
        None => Judge::Expect,
    };
    let verdicts = runs.iter().map(|(name, run, _, other_side)| {
        // The verdict only changes look when the cursor crosses a milestone.
        let upto = (!whole).then(|| crate::text::verdict::milestone(&run.verdict, cursor));
        let judge = if *other_side { Judge::Nothing } else { judge.clone() };
        named_side(compared, name, html! { <Verdict run={run.clone()} {upto} {judge} other_side={*other_side} act={act.clone()} /> })
    });
    let ledgers = runs.iter().map(|(name, _, timeline, other_side)| {
        let passed = timeline.writes.partition_point(|w| w.at <= cursor);
        named_side(
            compared,
            name,
            html! { <Ledger timeline={timeline.clone()} {passed} future={whole} other_side={*other_side} act={act.clone()} /> },
        )
    });
    html! { <div class={classes!("panels", compared.then_some("compared"))}>{for verdicts}{for ledgers}</div> }
}

/// The run in words, lane by lane: the diagram's parallel document (this run's; compared, the
/// other run's words are its own diagram's caption).
fn outline(lab: &Session, act: &Act) -> Html {
    let cursor = lab.cursor_ms();
    let passed = lab.timeline.steps.partition_point(|s| s.at <= cursor);
    html! {
        <super::outline::RunOutline run={Shared(lab.run.clone())} timeline={lab.timeline.clone()} story={lab.story.clone()}
            {passed} focus={lab.focus} whole={lab.outcome_shown()} act={act.clone()} />
    }
}

/// Each run's exports; compared, each under its approach's name.
fn exports(lab: &Session, runs: &[OnScreen]) -> Html {
    let (cursor, compared) = (lab.cursor_ms(), runs.len() > 1);
    let exports = runs.iter().map(|(name, run, timeline, other_side)| {
        let side = compared.then(|| name.clone());
        html! { <super::export::Export run={run.clone()} timeline={timeline.clone()} cursor_ms={cursor} lecture={lab.lecture} {side} other_side={*other_side} /> }
    });
    html! { <div class="exports">{for exports}{offline_copy()}</div> }
}

/// The whole app as one file to keep (scripts/offline.mjs writes it beside the page): for a USB
/// stick or a course page, opened from disk with no network. Not offered by that file itself.
fn offline_copy() -> Html {
    if super::library::is_offline_file() {
        return Html::default();
    }
    html! {
        <div class="export">
            <a class="button small offline-copy" data-testid="offline-copy" href={crate::library::OFFLINE_FILE} download={crate::library::OFFLINE_FILE}
                title="Lock Lab in one HTML file: every built-in and lesson, opened from disk, with no network">{"Offline copy"}</a>
        </div>
    }
}

/// Faults where you point, on the diagram a user edits (an embed's is only to look at).
fn editing(lab: &Session) -> Option<Rc<Editing>> {
    (!lab.embed).then(|| {
        let menu = lab.menu.clone().map(|m| {
            let offers = lab.fault_menu(&m.node);
            (m, offers)
        });
        Rc::new(Editing { scenario: lab.scenario.clone(), selected: lab.selected, menu, layer: super::diagram::pointing_layer })
    })
}

/// The story's part of the stage: the diagram with its legend and caption, or, comparing,
/// the two sides.
fn story(lab: &Session, act: &Act) -> Html {
    let caption_event = lab.caption_event();
    if let Some(other) = lab.other.clone() {
        return html! {
            <Sides run={Shared(lab.run.clone())} timeline={lab.timeline.clone()} story={lab.story.clone()} other={Shared(other)} cursor={lab.cursor}
                event={caption_event} view={lab.caption_view()} other_view={lab.other_caption_view()} fast_forward={lab.fast_forward()}
                other_focus={lab.other_focus} lecture={lab.lecture} speaker={lab.stage_speaker()} whole={lab.outcome_shown()} outcome={lab.outcome} act={act.clone()} />
        };
    }
    one_run(lab, act, editing(lab))
}

/// One run's part of the stage: the diagram (`editing`: faults where you point), its legend,
/// the hint that says how, and the caption. The app's single view and the embeds' player
/// (`ui::player`) both show it.
pub(super) fn one_run(lab: &Session, act: &Act, editing: Option<Rc<Editing>>) -> Html {
    let caption_event = lab.caption_event();
    let focus = caption_event.and_then(|i| lab.run.trace.events.get(i)).map(|e| (e.at_ms, e.node));
    html! {
        <>
        <Diagram timeline={lab.timeline.clone()} cursor={lab.cursor} focus={focus} upto={super::compare::event_at_cursor(&lab.run, caption_event, lab.cursor)} whole={lab.outcome}
            lecture={lab.lecture} fit={lab.embed} act={act.clone()} {editing} />
        if lab.legend {
            {legend(&lab.scenario.approach.spec().words.belief)}
        }
        // A history takes no fault (its panel says why): no hint to put one there.
        if !lab.embed && !lab.history {
            {super::diagram::fault_hint()}
        }
        <Caption run={Shared(lab.run.clone())} timeline={lab.timeline.clone()} story={lab.story.clone()} view={lab.caption_view()} fast_forward={lab.fast_forward()} scrolls={lab.embed} />
        </>
    }
}

/// The approach's name and the scenario's introduction.
fn intro(lab: &Session) -> Html {
    let s = &lab.scenario;
    html! {
        <p class="intro">
            <span class="approach">{s.approach.label()}</span>
            {s.intro.clone()}
            // An intro tells the built-in's story with its numbers: once they changed, say so.
            if lab.edited_from().is_some() && !s.intro.is_empty() {
                <span class="intro-original" data-testid="intro-original">{" (This describes the scenario as shipped; you have changed it.)"}</span>
            }
        </p>
    }
}

/// Once the app answers, the rest of the page's data (`library::after_start`), taken up by
/// the session when it is here.
#[hook]
fn use_data_arriving(lab: &Session, act: &Act) {
    let act = act.clone();
    let recorded = lab.compared_with() == Some(crate::scenario::share::Against::Recorded);
    use_effect_with(lab.embed, move |&embed| {
        super::library::when_idle(move || {
            wasm_bindgen_futures::spawn_local(async move {
                let error = super::library::after_start(embed, recorded).await.err();
                act.dispatch(Action::DataArrived(error));
            })
        });
    });
}

/// What an embed's landmark is called: a docs page may hold several embeds side by side, and
/// screen readers list every frame's landmarks together.
pub(super) fn embed_name(s: &crate::scenario::Scenario) -> String {
    let title = if s.title.is_empty() { &s.id } else { &s.title };
    format!("{title}, fencing {}", if s.storage.fencing { "on" } else { "off" })
}

/// The embed's link to the full app at the same view, and its words.
pub(super) fn open_full(url: AttrValue) -> Html {
    Html::from_html_unchecked(AttrValue::from(open_full_markup(&url)))
}

/// The link's markup (the embeds' player, `ui::player`, puts in the same; its href changes).
pub(super) fn open_full_markup(url: &str) -> String {
    format!(
        r#"<a class="open-full" data-testid="open-full" href="{}" target="_blank" rel="noopener">Open<span class="wide"> in Lock Lab</span> ↗</a>"#,
        crate::timeline::draw::svg::Esc(url)
    )
}

#[function_component(App)]
pub fn app() -> Html {
    let lab = use_reducer(|| Session::new(&super::start::from_page()));
    super::fit::use_fitted_captions(lab.lecture || lab.embed);
    let act = lab.dispatcher();
    use_data_arriving(&lab, &act);
    use_keyboard(act.clone());
    use_playback(act.clone(), lab.playing, lab.frame);
    super::theme::use_theme(lab.theme_shown());

    use_reopen_on_hash_change();
    // Below the fold waits for the first paint (see `painted`).
    let painted = super::painted::use_painted();
    let lesson = super::lesson::use_lesson();
    super::lesson_index::use_index_focus(lesson.index);
    let (copied, copy_field) = use_copied();
    let (named, url) = use_view_link(&lab, lesson.is_open());
    // On a phone the header's controls but the picker and Fencing fold away (styles/app.css).
    let more = use_state(|| false);

    // The scenario as JSON for the editor, made once per scenario (App renders every frame),
    // from the first paint on, when the editor is there.
    let scenario_json = use_memo((lab.scenario.clone(), painted), |(s, painted)| {
        AttrValue::from(if *painted { serde_json::to_string_pretty(&**s).unwrap_or_default() } else { String::new() })
    });
    let s = &lab.scenario;
    let runs = runs_on_screen(&lab);
    // Embedded, a docs page may hold several of these side by side, and screen readers list
    // every frame's landmarks together: the embed's are named after what it shows.
    let embed_name = lab.embed.then(|| AttrValue::from(embed_name(s)));
    let sharing = if lab.embed {
        Html::default()
    } else if lab.history {
        // A history has no link (its scenario only names its lanes): it is saved as a file.
        super::lesson::opener(&lesson)
    } else {
        html! { <>{copy_link(&copied, &copy_field, &url, named.0.too_large.is_some())}{embed_button(&lab, &named.0, &named.1)}{super::lesson::opener(&lesson)}</> }
    };
    html! {
        <div class={classes!("app", lab.lecture.then_some("lecture"), lab.embed.then_some("embed"), lab.reduced_motion.then_some("reduced-motion"), lab.other.is_some().then_some("comparing"), lesson.is_open().then_some("in-lesson"), lab.future.then_some("future"), lab.outcome.then_some("whole"))} data-arrived={super::library::arrived().to_string()}>
            if let Some(e) = &lab.link_error {
                {link_error(e, &act)}
            }
            <header class={classes!("top", (*more).then_some("more-open"))}>
                <h1 class="brand"><span class="brand-mark" aria-hidden="true" />{"Lock Lab"}</h1>
                {more_toggle(&more)}
                <Picker catalog={lab.catalog.clone()} selected={AttrValue::from(s.id.clone())}
                    custom={named.2.clone()} act={act.clone()} />
                <Switches fencing={s.storage.fencing} safe_unlock={s.lock.safe_unlock} safe_unlock_applies={lab.safe_unlock_applies()} act={act.clone()} />
                // After the switches: Tab from the picker lands on a switch, where the app's keys work.
                <CompareSelect approach={s.approach} with={lab.other.as_ref().map(|o| o.with)} recorded={lab.recording.as_ref().map(|r| AttrValue::from(r.label()))} act={act.clone()} />
                {modes(&lab, &act, sharing)}
            </header>
            <main aria-label={embed_name.clone()}>
                if lab.embed {
                    // The header (and its title) is left out of an embed; the page keeps its heading.
                    <h1 class="visually-hidden">{"Lock Lab"}</h1>
                }
                // What a lecture shows at once; in lecture mode it is exactly the screen under the
                // header (styles/app.css), and the panels below it scroll into view.
                <div class="stage">
                <super::lesson::LessonPanel state={lesson.clone()} act={act.clone()} cursor={lab.cursor} playing={lab.playing} lecture={lab.lecture} embed={lab.embed} />
                {intro(&lab)}
                {story(&lab, &act)}
                {transport(&TransportProps { playing: lab.playing, cursor: lab.cursor, duration_ms: lab.timeline.duration_ms, speed: lab.speed, act: act.clone() })}
                </div>
                if lab.embed {
                    {open_full(url)}
                } else if painted {
                    {exports(&lab, &runs)}
                }
                if painted {
                    {panels(&lab, &runs, &act)}
                    if !lab.embed {
                        {outline(&lab, &act)}
                    }
                    if !lab.embed {
                        <super::explore::Explore act={act.clone()} />
                    }
                    // A history has no knobs: its scenario only names its lanes (its panel says why
                    // an edit was refused).
                    if !lab.history {
                        <Knobs ttl_ms={s.lock.ttl_ms} pause_ms={lab.pause_ms()} seed={s.seed} error={lab.error.clone().map(AttrValue::from)} act={act.clone()} />
                    }
                    <Editor current={(*scenario_json).clone()} cursor_ms={(!lab.playing).then(|| lab.cursor_ms())} act={act.clone()} />
                    if !lab.embed {
                        <super::history::HistoryJudge run={Shared(lab.run.clone())} shown={lab.history} arrived={super::library::arrived()} error={lab.history_error.clone().or_else(|| lab.error.clone().filter(|_| lab.history)).map(AttrValue::from)} act={act.clone()} />
                    }
                }
            </main>
            if lab.help {
                {help(&act, lesson.is_open())}
            }
            {super::lesson_index::lesson_index(&lesson)}
        </div>
    }
}
