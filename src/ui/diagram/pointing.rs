//! Faults where you point: a target over each lane (right-click, a long press, or M / Enter on
//! the focused lane opens the fault menu at the cursor; ↑/↓ move between lanes), the menu
//! itself, and a handle over each of the scenario's faults that drags to move it, drags at its
//! right edge to resize it, and is removed with Delete. What each item does is the session's
//! (`Session::fault_menu`, `Action::Inject`, …); this file only maps pointers and keys to it.
//!
//! An HTML layer over the SVG, not inside it: the diagram is one `role="img"`, whose parts a
//! screen reader does not enter, and these are controls. Its events are handled once, on the
//! layer, from the `data-*` of the element they hit (a closure per lane, handle and event
//! would cost the bundle several KB for the same behaviour).

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use gloo::timers::callback::Timeout;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, KeyboardEvent, PointerEvent, TouchEvent};
use yew::prelude::*;

use super::n;
use crate::scenario::fault::{self, Value};
use crate::scenario::{FaultSpec, Scenario};
use crate::session::{FaultMenu, Offer};
use crate::sim::Time;
use crate::timeline::draw::Geometry;
use crate::timeline::Timeline;
use crate::ui::state::{on_click, Act, Action, Shared};

/// What the layer needs of the session: the scenario's faults, the selected one, the open menu.
#[derive(Clone)]
pub struct Editing {
    pub scenario: Rc<Scenario>,
    pub selected: Option<usize>,
    /// The open menu and its items.
    pub menu: Option<(FaultMenu, Vec<Offer>)>,
    /// Draws the pointing layer (`layer`). Reached through the value, not named by the diagram,
    /// so that a diagram only to look at (the embeds' player) links none of this file's code.
    pub layer: fn(PointingProps) -> Html,
}

impl PartialEq for Editing {
    fn eq(&self, o: &Self) -> bool {
        self.scenario == o.scenario && self.selected == o.selected && self.menu == o.menu
    }
}

/// The pointing layer over a diagram a user edits (`Editing::layer`).
pub fn layer(p: PointingProps) -> Html {
    html! { <Pointing ..p /> }
}

#[derive(Properties, PartialEq)]
pub struct PointingProps {
    pub timeline: Shared<Timeline>,
    pub geo: Rc<Geometry>,
    pub editing: Rc<Editing>,
    pub cursor: f64,
    pub act: Act,
}

/// The visible way in to the fault menu, under the diagram a user edits: nothing on screen
/// said a lane can be right-clicked, or long-pressed on a phone (issue 25). Fixed text as
/// markup, like the legend: no node to build or diff.
pub fn hint() -> Html {
    const HINT: &str = r#"<p class="fault-hint" data-testid="fault-hint">Right-click a lane, or long-press it on a touch screen, to put a fault there: a pause, a crash, a clock jump…</p>"#;
    Html::from_html_unchecked(AttrValue::Static(HINT))
}

/// Holding a finger this long on a lane opens the menu (as a right-click does).
const LONG_PRESS_MS: u32 = 550;

/// A fault's drawn span on one lane, in true ms: from its time over its length (a pause's
/// duration, a crash's restart delay, …), or None for a fault with no length (a thin mark).
fn span(f: &FaultSpec) -> (Time, Option<Time>) {
    let length = fault::amount(f.kind()).filter(|(_, _, n)| n.unit == "ms").and_then(|(_, p, _)| match fault::get(f, p.name) {
        Some(Value::Int(x) | Value::Maybe(Some(x))) => Some(x),
        _ => None,
    });
    (f.at_ms(), length.map(|l| f.at_ms() + l))
}

/// A drag on a fault's handle: which fault, whether by its right edge (a resize), and where the
/// pointer went down and is now (drawing x).
#[derive(Clone, Copy, PartialEq)]
struct Drag {
    index: usize,
    resize: bool,
    from_x: f64,
    to_x: f64,
}

/// What a pointer or key event on the layer hit.
struct Hit {
    el: Element,
    /// The drawing's own x of the event (the drawing may be scaled to fit).
    x: f64,
}

impl Hit {
    /// From the event's target: Yew delegates events, so the current target is the app's root.
    fn of(e: &Event, client_x: f64, geo: &Geometry) -> Option<Hit> {
        let el = e.target()?.dyn_into::<Element>().ok()?;
        let r = el.closest(".pointing").ok()??.get_bounding_client_rect();
        Some(Hit { x: (client_x - r.left()) * geo.width / r.width().max(1.0), el })
    }
    fn up(&self, selector: &str) -> Option<Element> {
        self.el.closest(selector).ok().flatten()
    }
    /// The lane's node, for a hit on a lane target.
    fn lane(&self) -> Option<String> {
        self.up("[data-testid=lane]")?.get_attribute("data-node")
    }
    /// The fault's index, for a hit on a fault handle.
    fn fault(&self) -> Option<usize> {
        self.up(".fault-handle")?.get_attribute("data-fault")?.parse().ok()
    }
}

fn focus(el: Option<Element>) {
    if let Some(el) = el {
        let _ = el.unchecked_into::<HtmlElement>().focus();
    }
}

/// Stops the app's own keys from also acting on a key this layer took.
fn took(e: &KeyboardEvent) {
    e.prevent_default();
    e.stop_propagation();
}

/// A menu that opens takes the focus to its first item (keyboard users go on from there).
#[hook]
fn use_menu_focus(menu_ref: &NodeRef, ed: &Editing) {
    let menu_ref = menu_ref.clone();
    let open = ed.menu.as_ref().map(|(m, _)| m.clone());
    use_effect_with(open, move |open| {
        if open.is_some() {
            focus(menu_ref.cast::<Element>().and_then(|m| m.query_selector("button").ok().flatten()));
        }
    });
}

/// Opens the menu for `node` at a screen point, the cursor first moved to `at` (the faults
/// strike where the user pointed).
fn menu_opener(act: &Act) -> Rc<impl Fn(String, Option<f64>, f64, f64)> {
    let act = act.clone();
    Rc::new(move |node: String, at: Option<f64>, x: f64, y: f64| {
        if let Some(at) = at {
            act.dispatch(Action::Seek(at));
        }
        act.dispatch(Action::OpenFaultMenu(FaultMenu { node, x, y }));
    })
}

/// The time a drawing x points at, kept right of the lanes' names, to the ms.
fn time_at(geo: &Geometry, x: f64) -> f64 {
    geo.time_at(x.max(geo.x0)).round()
}

/// A click selects the fault it hits, or seeks to where it hits a lane.
fn click(geo: &Rc<Geometry>, act: &Act) -> Callback<MouseEvent> {
    let (geo, act) = (geo.clone(), act.clone());
    Callback::from(move |e: MouseEvent| {
        let Some(hit) = Hit::of(&e, e.client_x() as f64, &geo) else { return };
        if let Some(index) = hit.fault() {
            act.dispatch(Action::SelectFault(Some(index)));
        } else if hit.lane().is_some() && hit.x >= geo.x0 - 6.0 {
            act.dispatch(Action::Seek(time_at(&geo, hit.x)));
        }
    })
}

/// A press on a fault's handle starts a drag; a long press on a lane, on touch screens (which
/// have no right button), opens the menu.
fn pointer_down(
    geo: &Rc<Geometry>,
    act: &Act,
    drag: &UseStateHandle<Option<Drag>>,
    press: &Rc<RefCell<Option<Timeout>>>,
    pressed_open: &Rc<Cell<bool>>,
    open_at: &Rc<impl Fn(String, Option<f64>, f64, f64) + 'static>,
) -> Callback<PointerEvent> {
    let (geo, act, drag, press, open_at) = (geo.clone(), act.clone(), drag.clone(), press.clone(), open_at.clone());
    let pressed_open = pressed_open.clone();
    Callback::from(move |e: PointerEvent| {
        pressed_open.set(false);
        let Some(hit) = Hit::of(&e, e.client_x() as f64, &geo) else { return };
        if let Some(index) = hit.fault() {
            // No text selection while dragging; that also keeps the press from focusing the
            // handle, so it is focused here (Delete then goes to it).
            e.prevent_default();
            let _ = hit.el.set_pointer_capture(e.pointer_id());
            focus(hit.up(".fault-handle"));
            act.dispatch(Action::SelectFault(Some(index)));
            drag.set(Some(Drag { index, resize: hit.up(".fault-grip").is_some(), from_x: hit.x, to_x: hit.x }));
        } else if let (Some(node), "touch") = (hit.lane(), e.pointer_type().as_str()) {
            // At the cursor, as from the keyboard: a finger is too broad to point at a
            // millisecond, and a press that moved the cursor would lose the moment the user
            // chose by tapping or scrubbing first (the menu's heading names the moment).
            let (open_at, x, y) = (open_at.clone(), e.client_x() as f64, e.client_y() as f64);
            let pressed_open = pressed_open.clone();
            *press.borrow_mut() = Some(Timeout::new(LONG_PRESS_MS, move || {
                pressed_open.set(true);
                open_at(node, None, x, y)
            }));
        }
    })
}

/// One edit (one re-simulation, one undo step) per drag, when it is let go.
fn pointer_up(
    geo: &Rc<Geometry>,
    act: &Act,
    drag: &UseStateHandle<Option<Drag>>,
    press: &Rc<RefCell<Option<Timeout>>>,
    faults: &Rc<Scenario>,
) -> Callback<PointerEvent> {
    let (geo, act, drag, press, faults) = (geo.clone(), act.clone(), drag.clone(), press.clone(), faults.clone());
    Callback::from(move |e: PointerEvent| {
        drop(press.borrow_mut().take());
        let Some(d) = *drag else { return };
        drag.set(None);
        let (Some(hit), Some(f)) = (Hit::of(&e, e.client_x() as f64, &geo), faults.faults.get(d.index)) else { return };
        let moved_ms = (geo.time_at(hit.x) - geo.time_at(d.from_x)).round() as i64;
        let (from, to) = span(f);
        act.dispatch(match (d.resize, to) {
            _ if moved_ms == 0 => return,
            (true, Some(to)) => Action::ResizeFault { index: d.index, length_ms: (to - from + moved_ms).max(1) },
            _ => Action::MoveFault { index: d.index, at_ms: from + moved_ms },
        });
    })
}

/// The open menu's keys: Escape closes it, ↑/↓ move between its items.
fn menu_key(e: &KeyboardEvent, key: &str, hit: &Hit, act: &Act) {
    let item = hit.up("button");
    match key {
        "Escape" => {
            took(e);
            act.dispatch(Action::CloseFaultMenu);
        }
        "ArrowDown" => {
            took(e);
            focus(item.and_then(|i| i.next_element_sibling()));
        }
        "ArrowUp" => {
            took(e);
            focus(item.and_then(|i| i.previous_element_sibling()).filter(|el| el.tag_name() == "BUTTON"));
        }
        // The menu's own keys (Space and Enter press the item) are not the app's.
        " " | "Enter" => e.stop_propagation(),
        _ => {}
    }
}

/// A focused lane's keys: M (Enter, the menu key) opens the menu, ↑/↓ move between lanes.
fn lane_key(
    e: &KeyboardEvent,
    key: &str,
    node: String,
    lane: &Element,
    geo: &Geometry,
    cursor: f64,
    open_at: &impl Fn(String, Option<f64>, f64, f64),
) {
    match key {
        // From the keyboard the menu opens on the lane, at the cursor.
        "m" | "M" | "Enter" | "ContextMenu" => {
            took(e);
            let r = lane.get_bounding_client_rect();
            open_at(node, None, r.left() + geo.x(cursor) * r.width() / geo.width.max(1.0), r.top() + r.height() / 2.0);
        }
        "ArrowUp" | "ArrowDown" => {
            took(e);
            let next = if key == "ArrowDown" { lane.next_element_sibling() } else { lane.previous_element_sibling() };
            focus(next.filter(|el| el.get_attribute("data-testid").as_deref() == Some("lane")));
        }
        _ => {}
    }
}

/// Delete removes the focused fault; the menu and the lanes have their own keys.
fn key_down(
    geo: &Rc<Geometry>,
    act: &Act,
    cursor: f64,
    open_at: Rc<impl Fn(String, Option<f64>, f64, f64) + 'static>,
) -> Callback<KeyboardEvent> {
    let (geo, act) = (geo.clone(), act.clone());
    Callback::from(move |e: KeyboardEvent| {
        let Some(hit) = Hit::of(&e, 0.0, &geo) else { return };
        let key = e.key();
        if hit.up(".fault-menu").is_some() {
            menu_key(&e, &key, &hit, &act);
        } else if let Some(index) = hit.fault() {
            if matches!(key.as_str(), "Delete" | "Backspace") {
                took(&e);
                act.dispatch(Action::RemoveFault(index));
            }
        } else if let (Some(node), Some(lane)) = (hit.lane(), hit.up("[data-testid=lane]")) {
            lane_key(&e, &key, node, &lane, &geo, cursor, &*open_at);
        }
    })
}

/// A target over each lane; only the first is in the Tab order (↑/↓ move between them).
fn lane_targets<'a>(t: &'a Timeline, g: &'a Geometry) -> impl Iterator<Item = Html> + 'a {
    t.lanes.iter().zip(&g.lanes).enumerate().map(|(i, (lane, b))| {
        html! {
            <div class="lane-target" data-testid="lane" data-node={lane.name.clone()} tabindex={if i == 0 { "0" } else { "-1" }} role="button"
                aria-haspopup="menu" aria-label={format!("{}: faults here (M)", lane.name)}
                style={format!("top:{}px;height:{}px", n(b.top), n(b.h))} />
        }
    })
}

/// A handle over each of the scenario's faults, where it is drawn (moved along while dragged).
fn fault_handles<'a>(t: &'a Timeline, g: &'a Geometry, ed: &'a Editing, drag: Option<Drag>) -> impl Iterator<Item = Html> + 'a {
    let lane_box = |name: &str| t.lanes.iter().position(|l| l.name == name).and_then(|i| g.lanes.get(i));
    ed.scenario.faults.iter().enumerate().filter_map(move |(index, f)| {
        // On the first lane it names (a link's sender, a partition's first member).
        let b = lane_box(fault::nodes(f).first()?)?;
        let (from, to) = span(f);
        let d = drag.filter(|d| d.index == index);
        let shift = d.map_or(0.0, |d| d.to_x - d.from_x);
        let (x0, x1) = match (d.map(|d| d.resize), to) {
            (Some(true), Some(to)) => (g.xt(from), (g.xt(to) + shift).max(g.xt(from) + 4.0)),
            (_, Some(to)) => (g.xt(from) + shift, g.xt(to) + shift),
            (_, None) => (g.xt(from) + shift - 5.0, g.xt(from) + shift + 5.0),
        };
        let words = fault::words(f);
        let resize = if to.is_some() { ", drag its right edge to resize" } else { "" };
        Some(html! {
            <div class={classes!("fault-handle", (ed.selected == Some(index)).then_some("selected"), d.is_some().then_some("dragging"))}
                data-testid="fault-handle" data-fault={index.to_string()} data-kind={f.kind().id()} tabindex="0" role="button"
                aria-label={format!("{words}: drag to move{resize}; Delete removes it")} title={words}
                style={format!("left:{}px;width:{}px;top:{}px;height:{}px", n(x0), n((x1 - x0).max(10.0)), n(b.top + 2.0), n(b.h - 4.0))}>
                if to.is_some() {
                    <span class="fault-grip" data-testid="fault-resize" />
                }
            </div>
        })
    })
}

/// Where the menu goes: fixed on the screen where it was asked for (no ancestor is transformed
/// where one can be edited), and kept on it: near the right or bottom edge it opens leftward or
/// upward.
fn menu_place(m: &FaultMenu) -> String {
    let window = web_sys::window();
    let size = |v: Option<wasm_bindgen::JsValue>| v.and_then(|v| v.as_f64()).unwrap_or(1280.0);
    let (w, h) = (size(window.as_ref().and_then(|w| w.inner_width().ok())), size(window.as_ref().and_then(|w| w.inner_height().ok())));
    if w < 600.0 {
        // A phone: a sheet along the bottom of the screen, under the thumb.
        "left:8px;right:8px;bottom:8px;max-height:70vh".to_string()
    } else {
        let left = if m.x > w * 0.6 { format!("right:{}px", n(w - m.x)) } else { format!("left:{}px", n(m.x)) };
        let (top, room) = if m.y > h * 0.55 { (format!("bottom:{}px", n(h - m.y)), m.y) } else { (format!("top:{}px", n(m.y)), h - m.y) };
        format!("{left};{top};max-height:{}px", n(room - 8.0))
    }
}

/// The fault menu of a lane at the cursor: its shade closes it, an item injects its fault.
fn fault_menu(m: &FaultMenu, offers: &[Offer], cursor: f64, act: &Act, menu_ref: &NodeRef) -> Html {
    let close = on_click(act, || Action::CloseFaultMenu);
    let at = crate::decimal::seconds(cursor.floor() as i64);
    let choose = {
        let (act, node) = (act.clone(), m.node.clone());
        Callback::from(move |e: MouseEvent| {
            let kind = e.target().and_then(|t| t.dyn_into::<Element>().ok()).and_then(|el| el.closest("button").ok().flatten());
            if let Some(kind) = kind.and_then(|b| b.get_attribute("data-kind")) {
                act.dispatch(Action::Inject { kind, node: node.clone() });
            }
        })
    };
    html! {
        <>
        <div class="fault-menu-shade" onclick={close} />
        <div class="fault-menu" data-testid="fault-menu" role="menu" aria-label={format!("Faults on {} at {at}", m.node)}
            style={menu_place(m)} ref={menu_ref.clone()} onclick={choose}>
            <p class="fault-menu-head">{format!("{} at {at}", m.node)}</p>
            {for offers.iter().map(|o| html! {
                <button type="button" role="menuitem" data-testid={format!("fault-menu-{}", o.kind.id().replace('_', "-"))}
                    data-kind={o.kind.id()}>{o.words()}</button>
            })}
        </div>
        </>
    }
}

#[function_component(Pointing)]
pub fn pointing(p: &PointingProps) -> Html {
    let (t, g, ed) = (&*p.timeline, &*p.geo, &*p.editing);
    let drag = use_state(|| None::<Drag>);
    let press = use_mut_ref(|| None::<Timeout>);
    // Whether the press now under the finger opened the menu (so its lift must not act).
    let pressed_open = use_memo((), |_| Cell::new(false));
    let menu_ref = use_node_ref();
    use_menu_focus(&menu_ref, ed);
    let open_at = menu_opener(&p.act);
    let oncontextmenu = {
        let (geo, open_at, press, pressed_open) = (p.geo.clone(), open_at.clone(), press.clone(), pressed_open.clone());
        Callback::from(move |e: MouseEvent| {
            let Some(hit) = Hit::of(&e, e.client_x() as f64, &geo) else { return };
            e.prevent_default();
            let Some(node) = hit.lane() else { return };
            // A touch screen's browser has a long press of its own that ends in this event:
            // during a press (ours pending, or it opened the menu already) it opens the menu
            // once, at the cursor, as ours does. A right-click points at its moment.
            let touch = press.borrow_mut().take().is_some() || pressed_open.get();
            if !touch {
                open_at(node, Some(time_at(&geo, hit.x)), e.client_x() as f64, e.client_y() as f64);
            } else if !pressed_open.replace(true) {
                open_at(node, None, e.client_x() as f64, e.client_y() as f64);
            }
        })
    };
    let onpointermove = {
        let (geo, drag) = (p.geo.clone(), drag.clone());
        Callback::from(move |e: PointerEvent| {
            if let (Some(d), Some(hit)) = (*drag, Hit::of(&e, e.client_x() as f64, &geo)) {
                drag.set(Some(Drag { to_x: hit.x, ..d }));
            }
        })
    };
    let cancel = {
        let press = press.clone();
        Callback::from(move |_: PointerEvent| drop(press.borrow_mut().take()))
    };
    // The lift that ends a long press would be a click where the finger is: on the menu the
    // press just opened (its first item, under the finger on a phone), its shade, or the lane
    // (a seek). A cancelled touchend makes no click (Touch Events, "click" after touchend), so
    // the lift does nothing and the menu waits for a tap of its own.
    let ontouchend = {
        let pressed_open = pressed_open.clone();
        Callback::from(move |e: TouchEvent| {
            if pressed_open.replace(false) {
                e.prevent_default();
            }
        })
    };
    let menu = ed.menu.as_ref().map(|(m, offers)| fault_menu(m, offers, p.cursor, &p.act, &menu_ref));
    html! {
        <div class="pointing" {oncontextmenu} onclick={click(&p.geo, &p.act)} onpointerdown={pointer_down(&p.geo, &p.act, &drag, &press, &pressed_open, &open_at)} {ontouchend}
            {onpointermove} onpointerup={pointer_up(&p.geo, &p.act, &drag, &press, &ed.scenario)} onpointercancel={cancel.clone()}
            onpointerleave={cancel} onkeydown={key_down(&p.geo, &p.act, p.cursor, open_at)}>
            {for lane_targets(t, g)}
            {for fault_handles(t, g, ed, *drag)}
            {menu.unwrap_or_default()}
        </div>
    }
}
