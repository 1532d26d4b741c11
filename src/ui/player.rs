//! The embeds' player (issue 38): what an `embed=1` page shows, built as a second, smaller
//! wasm from this crate (`src/bin/player.rs`). The app's session over a kit that plays a run
//! and nothing more (`session::Kit::PLAYER`): no editor, explorer, lessons, comparison,
//! recordings or fault menu reach its wasm. "Open in Lock Lab" is a link to the full app at
//! the same view, in a tab of its own: the app's wasm is fetched only then. The page picks
//! which wasm to start (scripts/post-build.mjs: the player for an embed of a scenario, the app
//! for anything else).
//!
//! Why no framework here: the bundle. Yew's runtime and the components' expansions were about
//! 150 KB of the player's 426 KB of code (docs/measured/player.json), and the budget is 150 KB
//! brotli for all of it. What an embed shows is one fixed layout whose every changing part is
//! already markup from the core (`timeline::draw`: the static drawing, the labels, the live
//! layer; `text`: the captions), so the view below builds the page once and, after each
//! action, writes what changed: a string compared with the one written before, then one
//! `innerHTML` or attribute. The same DOM as the app's embed (classes, `data-testid`s, roles),
//! so the same style sheet and the same end-to-end specs hold.

use std::cell::RefCell;
use std::fmt::Write;
use std::rc::Rc;

use gloo::events::{EventListener, EventListenerOptions};
use gloo::render::{request_animation_frame, AnimationFrame};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, HtmlInputElement, HtmlSelectElement, KeyboardEvent, MouseEvent, ResizeObserver};

use super::app::{embed_name, open_full_markup};
use super::diagram::{key_class, n};
use super::icons::{path, Icon};
use super::state::{Action, Session, Shared, Start, SPEEDS};
use crate::decimal::seconds;
use crate::scenario::share;
use crate::session::{CaptionView, Kit};
use crate::sim::{Role, Time};
use crate::timeline::draw::svg::Esc;
use crate::timeline::draw::{self, hue_class, lanes, Drawing, Geometry};

/// Starts the player: what the address needs from the build's data folder first (its own
/// built-in's file: `library::before_start`, as the app does; the catalog is never in the
/// player's wasm), then the player replaces the page's placeholder, as the app does.
pub fn start() {
    wasm_bindgen_futures::spawn_local(async {
        let start = super::start::from_page();
        match super::library::before_start(&start).await {
            Ok(()) => mount(start),
            Err(why) => super::library::cannot_start(&why),
        }
    });
}

thread_local! {
    /// The one player on the page. Taken out while an action is applied, so that an event
    /// fired meanwhile finds it absent and is dropped rather than borrowing it twice.
    static PLAYER: RefCell<Option<Player>> = const { RefCell::new(None) };
    /// The listeners and the observer, alive as long as the page.
    static KEEP: RefCell<Vec<Box<dyn std::any::Any>>> = RefCell::new(Vec::new());
}

/// Applies an action to the session and redraws what changed.
fn dispatch(action: Action) {
    let Some(mut p) = PLAYER.with(|p| p.borrow_mut().take()) else { return };
    p.lab = p.lab.clone().reduce(action);
    p.render();
    PLAYER.with(|slot| *slot.borrow_mut() = Some(p));
}

/// Re-measures the diagram's box (a resize) and redraws.
fn resized() {
    let Some(mut p) = PLAYER.with(|p| p.borrow_mut().take()) else { return };
    p.render();
    super::fit::fit_all(true);
    PLAYER.with(|slot| *slot.borrow_mut() = Some(p));
}

fn keep(thing: impl std::any::Any) {
    KEEP.with(|k| k.borrow_mut().push(Box::new(thing)));
}

fn document() -> web_sys::Document {
    gloo::utils::document()
}

/// The element under `root` that `selector` names (the page's own markup, written just before).
fn find(root: &Element, selector: &str) -> Element {
    root.query_selector(selector).ok().flatten().unwrap_or_else(|| document().create_element("i").expect("an element"))
}

/// The page's fixed layout, as the app's embed lays it out (ui/app.rs `one_run`, ui/transport.rs);
/// what changes is written into it by `Player::render`.
fn skeleton() -> String {
    let button = |testid: &str, label: &str, keys: &str, glyph: Icon| {
        format!(
            r#"<button type="button" class="tbtn" data-testid="{testid}" title="{label} ({keys})" aria-label="{label}">{}</button>"#,
            icon(glyph)
        )
    };
    let mut speeds = String::new();
    for (_, text) in SPEEDS {
        let _ = write!(speeds, r#"<option value="{text}">{text}×</option>"#);
    }
    format!(
        concat!(
            r#"<main><h1 class="visually-hidden">Lock Lab</h1><div class="stage">"#,
            r#"<figure class="diagram-wrap"><div class="diagram-scale">"#,
            r#"<svg class="diagram diagram-static" aria-hidden="true"></svg><div class="veil" aria-hidden="true"></div>"#,
            r#"<svg class="diagram diagram-live" data-testid="diagram" role="img">"#,
            r#"<g class="p-dots"></g><g class="labels-layer"></g><g class="p-words"></g><g class="p-focus"></g><g class="p-banner"></g>"#,
            r#"<g class="p-lanes"></g><g class="p-cursor"></g><g class="p-keys"></g></svg></div></figure>"#,
            r#"<section class="caption" data-testid="caption" role="status" aria-live="polite" aria-atomic="true" aria-label="What is happening" tabindex="0"></section>"#,
            r#"<div class="transport" data-testid="transport" role="group" aria-label="Playback"><div class="buttons">{prev}{back}"#,
            r#"<button type="button" class="tbtn play" data-testid="play"></button>{step}{next}</div>"#,
            r#"<input type="range" class="scrub" data-testid="scrub" min="0" step="1" aria-label="Time (ms of true time)">"#,
            r#"<span class="clock-readout" aria-hidden="true"><span class="now"></span> / <span class="total"></span></span>"#,
            r#"<label class="speed"><span>Speed</span><select data-testid="speed" aria-label="Playback speed">{speeds}</select></label></div>"#,
            r#"</div>{open}</main>"#,
        ),
        prev = button("key-prev", "Previous key moment", "Shift+←", Icon::PrevKey),
        back = button("step-back", "Step back", "←", Icon::StepBack),
        step = button("step", "Step to the next event", "→", Icon::Step),
        next = button("key-next", "Next key moment", "Shift+→", Icon::NextKey),
        speeds = speeds,
        open = open_full_markup(""),
    )
}

fn icon(glyph: Icon) -> String {
    format!(
        r#"<svg class="icon" viewBox="0 0 20 20" width="20" height="20" aria-hidden="true" focusable="false"><path d="{}"></path></svg>"#,
        path(glyph)
    )
}

/// The keyboard help (ui/help.rs draws the app's from the same table).
fn help_markup() -> String {
    let mut rows = String::new();
    for (k, what) in super::help::KEYS {
        let _ = write!(rows, r#"<tr><th scope="row"><kbd>{}</kbd></th><td>{}</td></tr>"#, Esc(k), Esc(what));
    }
    format!(
        concat!(
            r#"<div class="sheet"><h2 id="help-title">Keyboard</h2><table class="keys">{}</table>"#,
            r#"<p class="legend">In the diagram: a solid bar is what a client <em>believes</em>; the outlined bar under it is what the lock service "#,
            r#"<em>holds</em> for it. Hatching is a pause. At storage: ● accepted, ■ rejected, ▲ stale write accepted (a lost update).</p>"#,
            r#"<button type="button" class="close">Close</button></div>"#
        ),
        rows
    )
}

/// The link error's banner (ui/share.rs `link_error` in the app).
fn link_error_markup(text: &str) -> String {
    format!(
        r#"<div class="link-error" role="alert" data-testid="link-error"><p>{}</p><button type="button" class="small" aria-label="Dismiss" title="Dismiss">×</button></div>"#,
        Esc(text)
    )
}

/// The caption's class, view and words (ui/caption.rs in the app: the same markup).
fn caption_markup(lab: &Session) -> (&'static str, String) {
    let (run, timeline) = (&lab.run, &lab.timeline);
    let trace = &run.trace;
    let meta =
        |time: String, rest: String| format!(r#"<div class="caption-meta"><span class="caption-time">{}</span>{rest}</div>"#, Esc(&time));
    let text = |t: String| format!(r#"<p class="caption-text">{}</p>"#, Esc(&t));
    match lab.caption_view() {
        CaptionView::Event(i) if trace.events.get(i).is_some() => {
            let e = &trace.events[i];
            let mut rest = String::new();
            if let Some(info) = trace.nodes.get(e.node) {
                let hue = hue_class(if info.role == Role::Client { timeline.hue(e.node) } else { None });
                let _ = write!(rest, r#"<span class="caption-node {hue}">{}</span>"#, Esc(&info.name));
            }
            if let Some(k) = timeline.key_moments.iter().find(|k| k.event == i) {
                let _ =
                    write!(rest, r#"<span class="caption-key">key moment</span><span class="visually-hidden">: {}</span>"#, Esc(&k.text));
            }
            ("event", meta(seconds(e.at_ms), rest) + &text(crate::text::caption(trace, run.scenario.approach, &lab.story, i)))
        }
        CaptionView::Quiet { from, to } => (
            "quiet",
            meta(
                format!("{} – {}", seconds(from), seconds(to)),
                r#"<span class="caption-key ff" data-testid="fast-forward">⏩ fast-forward</span>"#.into(),
            ) + &text(crate::text::quiet::summary(trace, from, to)),
        ),
        CaptionView::Outcome => (
            "outcome",
            meta(seconds(timeline.duration_ms), r#"<span class="caption-key outcome">outcome</span>"#.into())
                + &text(crate::text::verdict::sentence(&run.verdict)),
        ),
        _ => ("start", text("Press play (Space), or step through it with →.".into())),
    }
}

/// Key moments as small diamonds on the axis (ui/diagram/live.rs `use_key_markers` in the app):
/// a marker names its moment, and takes its outcome's colour, once the cursor has reached it.
/// A click on one focuses its event (`Player::on_diagram_click`).
fn key_markers(lab: &Session, g: &Geometry, reached: (Time, Option<usize>)) -> String {
    let y = g.axis_h - 8.0;
    let mut out = String::new();
    for k in &lab.timeline.key_moments {
        let x = g.xt(k.at);
        let come = draw::reached((k.at, k.event), reached.0, reached.1);
        let title = if come { format!("{} — {}", seconds(k.at), k.text) } else { format!("{}: a key moment", seconds(k.at)) };
        let _ = write!(
            out,
            r#"<g class="key {}" data-at="{}" data-event="{}"><title>{}</title><rect class="key-hit" x="{}" y="{}" width="14" height="14"></rect><path class="key-mark" d="M{} {}l4.5 4.5l-4.5 4.5l-4.5 -4.5z"></path></g>"#,
            if come { key_class(k.kind) } else { "later" },
            k.at,
            k.event,
            Esc(&title),
            n(x - 7.0),
            n(y - 7.0),
            n(x),
            n(y - 4.5)
        );
    }
    out
}

/// Labels per group, as the app's diagram keeps them (ui/diagram/scene.rs `use_labels`): a seek
/// changes the visibility of whole groups and re-writes at most one.
const CHUNK: usize = 64;

/// One group of labels: how many of its labels are written, and whether it is shown.
#[derive(Clone, Copy, PartialEq)]
struct Group {
    written: usize,
    shown: bool,
}

/// An element and the last markup written into it: written again only when it differs.
struct Slot {
    el: Element,
    last: String,
}

impl Slot {
    fn new(el: Element) -> Slot {
        Slot { el, last: String::new() }
    }

    fn set(&mut self, markup: String) {
        if markup != self.last {
            self.el.set_inner_html(&markup);
            self.last = markup;
        }
    }
}

/// Sets an attribute only when it changed (the DOM is read back, which costs less than a write).
fn attr(el: &Element, name: &str, value: &str) {
    if el.get_attribute(name).as_deref() != Some(value) {
        let _ = el.set_attribute(name, value);
    }
}

/// What the diagram was drawn for: the run, the box and the modes that decide the geometry.
#[derive(Clone, PartialEq)]
struct Drawn {
    timeline: Shared<crate::timeline::Timeline>,
    size: (i32, i32),
    screen: (i32, i32),
    lecture: bool,
}

struct Player {
    lab: Session,
    root: Element,
    /// The link error's banner, while there is one (before `main`).
    link: Option<(String, Element)>,
    figure: Element,
    scale: Element,
    static_svg: Element,
    veil: Element,
    live: Element,
    dots: Slot,
    labels_el: Element,
    groups: Vec<(Element, Group)>,
    words: Slot,
    focus: Slot,
    banner: Slot,
    lanes: Slot,
    cursor: Slot,
    keys: Slot,
    legend: Option<Element>,
    caption: Slot,
    play: Slot,
    scrub: HtmlInputElement,
    now: Slot,
    total: Slot,
    speed: HtmlSelectElement,
    open: Element,
    help: Option<Element>,
    /// The diagram as drawn: for what, its geometry, its drawing.
    drawn: Option<(Drawn, Rc<Geometry>, Rc<Drawing>)>,
    /// The full app's link for this scenario (the cursor and modes are added per render).
    named: (Option<Rc<crate::scenario::Scenario>>, share::Named, String),
    /// The next animation frame, armed while playing (dropped: cancelled).
    frame: Option<AnimationFrame>,
    armed_for: u64,
}

fn mount(start: Start) {
    let catalog = Rc::new(crate::scenario::catalog::all());
    let lab = Session::open(&start, catalog, &Kit::PLAYER);
    let doc = document();
    let Ok(root) = doc.create_element("div") else { return };
    root.set_inner_html(&skeleton());
    // As Yew did for the app: the page's placeholder (and its pre-drawn figure) gives way.
    let body = doc.body().expect("a body");
    body.set_inner_html("");
    let _ = body.append_child(&root);
    let own = share::pairs(start.hash.trim_start_matches('#')).find(|(k, _)| *k == "s").map_or("", |(_, v)| v).to_string();
    let named = (Some(lab.scenario.clone()), share::name_as_opened(&lab.scenario, &lab.catalog, &own), super::start::page_base());
    let slot = |s: &str| Slot::new(find(&root, s));
    let p = Player {
        link: None,
        figure: find(&root, "figure"),
        scale: find(&root, ".diagram-scale"),
        static_svg: find(&root, ".diagram-static"),
        veil: find(&root, ".veil"),
        live: find(&root, ".diagram-live"),
        dots: slot(".p-dots"),
        labels_el: find(&root, ".labels-layer"),
        groups: Vec::new(),
        words: slot(".p-words"),
        focus: slot(".p-focus"),
        banner: slot(".p-banner"),
        lanes: slot(".p-lanes"),
        cursor: slot(".p-cursor"),
        keys: slot(".p-keys"),
        legend: None,
        caption: slot(".caption"),
        play: slot(".play"),
        scrub: find(&root, ".scrub").unchecked_into(),
        now: slot(".now"),
        total: slot(".total"),
        speed: find(&root, "select").unchecked_into(),
        open: find(&root, ".open-full"),
        help: None,
        drawn: None,
        named,
        frame: None,
        armed_for: u64::MAX,
        lab,
        root: root.clone(),
    };
    listen(&p);
    PLAYER.with(|slot| *slot.borrow_mut() = Some(p));
    resized();
}

/// The page's listeners: clicks (one for the whole player), the scrub, the speed, the keys (the
/// app's, `keys::action_for`), the diagram's box being resized.
fn listen(p: &Player) {
    keep(EventListener::new(&p.root, "click", |e| {
        if let Some(action) = e.target().and_then(|t| t.dyn_into::<Element>().ok()).and_then(|t| clicked(&t, e)) {
            dispatch(action);
        }
    }));
    keep(EventListener::new(&p.scrub, "input", |e| {
        let Some(input) = e.target().and_then(|t| t.dyn_into::<HtmlInputElement>().ok()) else { return };
        // The range steps in whole milliseconds.
        if let Ok(v) = input.value().parse::<i64>() {
            dispatch(Action::Seek(v as f64));
        }
    }));
    keep(EventListener::new(&p.speed, "change", |e| {
        let Some(select) = e.target().and_then(|t| t.dyn_into::<HtmlSelectElement>().ok()) else { return };
        if let Some(&(v, _)) = SPEEDS.iter().find(|(_, text)| *text == select.value()) {
            dispatch(Action::SetSpeed(v));
        }
    }));
    keep(EventListener::new_with_options(&document(), "keydown", EventListenerOptions::enable_prevent_default(), |e| {
        let Some(e) = e.dyn_ref::<KeyboardEvent>() else { return };
        if e.repeat() && e.key() == " " {
            return;
        }
        if let Some(action) = super::keys::action_for(e) {
            e.prevent_default();
            dispatch(action);
        }
    }));
    let cb = Closure::<dyn FnMut(JsValue)>::new(|_| resized());
    if let Ok(observer) = ResizeObserver::new(cb.as_ref().unchecked_ref()) {
        observer.observe(&p.figure);
        keep(observer);
    }
    keep(cb);
    keep(EventListener::new(&gloo::utils::window(), "resize", |_| super::fit::fit_all(true)));
}

/// What a click inside the player asks for: a transport button, the banner's ×, the help's
/// Close, a key marker (its event), or a place on the diagram (a seek there).
fn clicked(t: &Element, e: &web_sys::Event) -> Option<Action> {
    let closest = |s: &str| t.closest(s).ok().flatten();
    if let Some(b) = closest("button") {
        return match b.get_attribute("data-testid").as_deref() {
            Some("play") => Some(Action::TogglePlay),
            Some("step") => Some(Action::Step),
            Some("step-back") => Some(Action::StepBack),
            Some("key-prev") => Some(Action::PrevKey),
            Some("key-next") => Some(Action::NextKey),
            _ if b.closest(".link-error").ok().flatten().is_some() => Some(Action::DismissLinkError),
            _ if b.matches(".overlay .close").unwrap_or(false) => Some(Action::CloseHelp),
            _ => None,
        };
    }
    if let Some(k) = closest(".diagram-live .key") {
        return k.get_attribute("data-event").and_then(|v| v.parse().ok()).map(Action::Focus);
    }
    let svg = closest(".diagram-live")?;
    let e = e.dyn_ref::<MouseEvent>()?;
    PLAYER.with(|p| {
        let p = p.borrow();
        let (_, geo, _) = p.as_ref()?.drawn.as_ref()?;
        // On screen the drawing may be scaled (fit): map back to its own pixels.
        let r = svg.get_bounding_client_rect();
        let x = (e.client_x() as f64 - r.left()) * geo.width / r.width().max(1.0);
        (x >= geo.x0 - 6.0).then(|| Action::Seek(geo.time_at(x).round()))
    })
}

/// Shows the first `count` labels (in time order), group by group.
fn show_labels(groups: &mut [(Element, Group)], drawing: &Drawing, count: usize) {
    for (i, (el, group)) in groups.iter_mut().enumerate() {
        let first = i * CHUNK;
        let len = drawing.labels.len().saturating_sub(first).min(CHUNK);
        let want = count.saturating_sub(first).min(len);
        let mut next = Group { written: group.written, shown: want > 0 };
        if want > 0 && group.written != want {
            el.set_inner_html(&drawing.labels[first..first + want].iter().map(|(_, m)| m.as_str()).collect::<String>());
            next.written = want;
        }
        if next.shown != group.shown {
            if next.shown {
                let _ = el.remove_attribute("style");
            } else {
                let _ = el.set_attribute("style", "display:none");
            }
        }
        *group = next;
    }
}

impl Player {
    /// Writes what the session shows now into the page, each part only when it changed.
    fn render(&mut self) {
        let lab = &self.lab;
        let mut class = String::from("app embed player");
        for (on, name) in
            [(lab.lecture, " lecture"), (lab.reduced_motion, " reduced-motion"), (lab.future, " future"), (lab.outcome, " whole")]
        {
            if on {
                class.push_str(name);
            }
        }
        attr(&self.root, "class", &class);
        super::theme::set(lab.theme_shown());
        attr(&find(&self.root, "main"), "aria-label", &embed_name(&lab.scenario));
        self.link_error();
        self.diagram();
        self.legend();
        let (view, markup) = caption_markup(&self.lab);
        attr(&self.caption.el, "class", if self.lab.fast_forward() { "caption fast" } else { "caption" });
        attr(&self.caption.el, "data-view", view);
        self.caption.set(markup);
        self.transport();
        self.open_link();
        self.help();
        super::fit::fit_all(false);
        self.arm();
    }

    /// The diagram: drawn again when the run, the box or the lecture mode changes; its live
    /// layer (labels reached, lanes' words, messages in flight, cursor, markers) every time.
    fn diagram(&mut self) {
        let lab = &self.lab;
        let w = web_sys::window();
        let get = |v: Option<Result<JsValue, JsValue>>| v.and_then(|v| v.ok()).and_then(|v| v.as_f64()).unwrap_or(0.0);
        let screen = (get(w.as_ref().map(|w| w.inner_width())), get(w.as_ref().map(|w| w.inner_height())));
        let size = (self.figure.client_width(), self.figure.client_height());
        if size.0 <= 0 {
            // Not laid out (yet): drawn once the observer reports the box.
            return;
        }
        let want = Drawn { timeline: lab.timeline.clone(), size, screen: (screen.0 as i32, screen.1 as i32), lecture: lab.lecture };
        if self.drawn.as_ref().is_none_or(|(d, ..)| *d != want) {
            let (g, scale) = Geometry::staged(&lab.timeline, size.0 as f64, size.1 as f64, screen, lab.lecture, true);
            let drawing = draw::scene(&lab.timeline, &g);
            let (gw, gh) = (n(g.width), n(g.height));
            if scale != 1.0 {
                attr(&self.scale, "style", &format!("width:{gw}px;transform:scale({})", crate::decimal::Fixed(scale, 4)));
            } else {
                let _ = self.scale.remove_attribute("style");
            }
            for svg in [&self.static_svg, &self.live] {
                attr(svg, "width", &gw);
                attr(svg, "height", &gh);
                attr(svg, "viewBox", &format!("0 0 {gw} {gh}"));
            }
            // No labels: under the veil the future's shapes show faintly, its words not at all
            // (no spoilers); the labels' groups below show each once the cursor reaches it.
            self.static_svg.set_inner_html(&format!("{}{}{}", draw::DEFS, draw::backdrop(&lab.timeline, &g), drawing.shapes));
            let mut groups = String::new();
            for _ in 0..drawing.labels.len().div_ceil(CHUNK) {
                groups.push_str(r#"<g style="display:none"></g>"#);
            }
            self.labels_el.set_inner_html(&groups);
            let list = self.labels_el.children();
            self.groups = (0..list.length()).filter_map(|i| list.item(i)).map(|el| (el, Group { written: 0, shown: false })).collect();
            let names: Vec<&str> = lab.timeline.lanes.iter().map(|l| l.name.as_str()).collect();
            let title =
                format!("Space-time diagram: lanes for {}; true time from 0 to {}.", names.join(", "), seconds(lab.timeline.duration_ms));
            attr(&self.live, "aria-label", &title);
            self.drawn = Some((want, Rc::new(g), Rc::new(drawing)));
        }
        let Some((_, g, drawing)) = self.drawn.clone() else { return };
        let cursor = lab.cursor;
        let at = cursor.floor() as Time;
        let caption_event = lab.caption_event();
        let upto = super::compare::event_at_cursor(&lab.run, caption_event, cursor).filter(|_| !lab.outcome);
        attr(&self.live, "data-cursor-ms", &(cursor.max(0.0) as i64).to_string());
        match upto {
            Some(e) => attr(&self.live, "data-upto", &e.to_string()),
            None => {
                let _ = self.live.remove_attribute("data-upto");
            }
        }
        // The future is veiled by a plain box that only moves (a compositor transform), so
        // playing and seeking never repaint the static drawing underneath.
        let veil = if lab.outcome {
            "display:none".to_string()
        } else {
            format!("transform:translateX({}px);top:{}px;height:{}px", n(g.x(cursor)), n(g.axis_h - 6.0), n(g.height - g.axis_h + 6.0))
        };
        attr(&self.veil, "style", &veil);
        let count = if lab.outcome { drawing.labels.len() } else { drawing.labels_upto(at, upto) };
        show_labels(&mut self.groups, &drawing, count);
        let (flying, banner) = draw::live::layer(&lab.timeline, &g, &drawing, cursor);
        self.dots.set(flying.dots);
        self.words.set(flying.labels);
        let focus = caption_event.and_then(|i| lab.run.trace.events.get(i)).filter(|e| e.at_ms == at).and_then(|e| g.lane(e.node));
        self.focus.set(
            focus
                .map(|lane| format!(r#"<circle class="focus-ring" cx="{}" cy="{}" r="13"></circle>"#, n(g.xt(at)), n(lane.mid())))
                .unwrap_or_default(),
        );
        self.banner.set(banner);
        self.lanes.set(lanes::labels(&lab.timeline, &g, at, upto));
        self.cursor.set(draw::live::cursor(&g, cursor));
        let reached = if lab.outcome { (Time::MAX, None) } else { (at, upto) };
        self.keys.set(key_markers(lab, &g, reached));
    }

    /// The one-line key under the diagram (K), in the approach's words.
    fn legend(&mut self) {
        match (self.lab.legend, &self.legend) {
            (true, None) => {
                let holder = document().create_element("div").expect("an element");
                holder.set_inner_html(&super::legend::markup(&self.lab.scenario.approach.spec().words.belief));
                if let Some(p) = holder.first_element_child() {
                    let _ = self.caption.el.before_with_node_1(&p);
                    self.legend = Some(p);
                }
            }
            (false, Some(p)) => {
                p.remove();
                self.legend = None;
            }
            _ => {}
        }
    }

    fn transport(&mut self) {
        let lab = &self.lab;
        let (label, glyph) = if lab.playing { ("Pause", Icon::Pause) } else { ("Play", Icon::Play) };
        attr(&self.play.el, "aria-pressed", if lab.playing { "true" } else { "false" });
        attr(&self.play.el, "title", &format!("{label} (Space)"));
        self.play.set(format!(r#"{}<span class="play-word">{label}</span>"#, icon(glyph)));
        let ms = lab.cursor.max(0.0).floor() as i64;
        attr(&self.scrub, "max", &lab.timeline.duration_ms.to_string());
        if self.scrub.value() != ms.to_string() {
            self.scrub.set_value(&ms.to_string());
        }
        attr(&self.scrub, "aria-valuetext", &seconds(ms));
        self.now.set(seconds(ms));
        self.total.set(seconds(lab.timeline.duration_ms));
        if let Some(&(_, text)) = SPEEDS.iter().find(|(s, _)| (s - lab.speed).abs() < 1e-9) {
            if self.speed.value() != text {
                self.speed.set_value(text);
            }
        }
    }

    /// The full app's link at this view, as the app's embed writes it (a scenario of one's
    /// own by the `#s=` text it came in, `share::name_as_opened`): the scenario's part once
    /// per scenario, the cursor and modes per render.
    fn open_link(&mut self) {
        let lab = &self.lab;
        if !self.named.0.as_ref().is_some_and(|s| Rc::ptr_eq(s, &lab.scenario)) {
            let hash = super::start::from_page().hash;
            let own = share::pairs(hash.trim_start_matches('#')).find(|(k, _)| *k == "s").map_or("", |(_, v)| v).to_string();
            self.named = (Some(lab.scenario.clone()), share::name_as_opened(&lab.scenario, &lab.catalog, &own), self.named.2.clone());
        }
        let modes = share::Modes { embed: false, ..lab.modes() };
        let url = format!("{}{}", self.named.2, share::link(&self.named.1, lab.cursor_ms(), &modes));
        attr(&self.open, "href", &url);
    }

    /// The link error's banner above the rest, while the session has one (× dismisses it).
    fn link_error(&mut self) {
        let want = self.lab.link_error.clone();
        if self.link.as_ref().map(|(text, _)| text) == want.as_ref() {
            return;
        }
        if let Some((_, el)) = self.link.take() {
            el.remove();
        }
        if let Some(text) = want {
            let holder = document().create_element("div").expect("an element");
            holder.set_inner_html(&link_error_markup(&text));
            if let Some(banner) = holder.first_element_child() {
                let _ = self.root.prepend_with_node_1(&banner);
                self.link = Some((text, banner));
            }
        }
    }

    /// The keyboard help (?), while it is open; its Close button takes the focus.
    fn help(&mut self) {
        match (self.lab.help, &self.help) {
            (true, None) => {
                let doc = document();
                let overlay = doc.create_element("div").expect("an element");
                for (k, v) in [
                    ("class", "overlay"),
                    ("role", "dialog"),
                    ("aria-modal", "true"),
                    ("aria-labelledby", "help-title"),
                    ("data-testid", "help"),
                ] {
                    let _ = overlay.set_attribute(k, v);
                }
                overlay.set_inner_html(&help_markup());
                let _ = self.root.append_child(&overlay);
                if let Some(close) = overlay.query_selector(".close").ok().flatten().and_then(|c| c.dyn_into::<HtmlElement>().ok()) {
                    let _ = close.focus();
                }
                self.help = Some(overlay);
            }
            (false, Some(overlay)) => {
                overlay.remove();
                self.help = None;
            }
            _ => {}
        }
    }

    /// One animation frame per rendered frame, and only while playing: paused, nothing runs,
    /// and a hidden tab gets no frames from the browser at all (ui/playback.rs in the app).
    fn arm(&mut self) {
        if !self.lab.playing {
            self.frame = None;
            self.armed_for = u64::MAX;
        } else if self.armed_for != self.lab.frame || self.frame.is_none() {
            self.armed_for = self.lab.frame;
            self.frame = Some(request_animation_frame(|ts| dispatch(Action::Tick(ts))));
        }
    }
}
