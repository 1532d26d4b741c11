//! Faults where you point: a target over each lane (right-click, a long press, or M / Enter on
//! the focused lane opens the fault menu at the cursor; ↑/↓ move between lanes), the menu
//! itself, and a handle over each of the scenario's faults that drags to move it, drags at its
//! right edge to resize it, and is removed with Delete. What each item does is the session's
//! (`Session::fault_menu`, `Action::Inject`, …); this file only maps pointers and keys to it.
//! An HTML layer over the SVG, not inside it: the diagram is one `role="img"`, whose parts a
//! screen reader does not enter, and these are controls.

use std::rc::Rc;

use gloo::timers::callback::Timeout;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, KeyboardEvent, PointerEvent};
use yew::prelude::*;

use super::n;
use crate::scenario::fault::{self, Value};
use crate::scenario::{FaultSpec, Scenario};
use crate::session::{FaultMenu, Offer};
use crate::sim::Time;
use crate::timeline::draw::Geometry;
use crate::timeline::Timeline;
use crate::ui::state::{Act, Action, Shared};

/// What the layer needs of the session: the scenario's faults, the selected one, the open menu.
#[derive(Clone, PartialEq)]
pub struct Editing {
    pub scenario: Rc<Scenario>,
    pub selected: Option<usize>,
    /// The open menu and its items.
    pub menu: Option<(FaultMenu, Vec<Offer>)>,
}

#[derive(Properties, PartialEq)]
pub struct PointingProps {
    pub timeline: Shared<Timeline>,
    pub geo: Rc<Geometry>,
    pub editing: Rc<Editing>,
    pub cursor: f64,
    pub act: Act,
}

/// Holding a finger this long on a lane opens the menu (as a right-click does).
const LONG_PRESS_MS: u32 = 550;

/// The drawing's own x for a pointer event (the drawing may be scaled to fit). From the event's
/// target: Yew delegates events, so the current target is the app's root, not this layer.
fn drawing_x(e: &MouseEvent, geo: &Geometry) -> Option<f64> {
    let layer = e.target()?.dyn_into::<Element>().ok()?.closest(".pointing").ok()??;
    let r = layer.get_bounding_client_rect();
    Some((e.client_x() as f64 - r.left()) * geo.width / r.width().max(1.0))
}

/// A fault's drawn span on one lane, in true ms: from its time over its length (a pause's
/// duration, a crash's restart delay, …), or a thin mark for a fault with no length.
fn span(f: &FaultSpec) -> (Time, Option<Time>) {
    let length = fault::amount(f.kind()).filter(|(_, _, n)| n.unit == "ms").and_then(|(_, p, _)| match fault::get(f, p.name) {
        Some(Value::Int(x) | Value::Maybe(Some(x))) => Some(x),
        _ => None,
    });
    (f.at_ms(), length.map(|l| f.at_ms() + l))
}

/// What a drag on a handle changes.
#[derive(Clone, Copy, PartialEq)]
enum Grip {
    Move,
    Resize,
}

#[derive(Clone, Copy, PartialEq)]
struct Drag {
    index: usize,
    grip: Grip,
    /// Where the pointer went down, and where it is now (drawing x).
    from_x: f64,
    to_x: f64,
}

#[function_component(Pointing)]
pub fn pointing(p: &PointingProps) -> Html {
    let (t, g, ed) = (&*p.timeline, &*p.geo, &*p.editing);
    let drag = use_state(|| None::<Drag>);
    let press = use_mut_ref(|| None::<Timeout>);
    let menu_ref = use_node_ref();
    // A menu that opens takes the focus to its first item (keyboard users go on from there).
    {
        let menu_ref = menu_ref.clone();
        let open = ed.menu.as_ref().map(|(m, _)| m.clone());
        use_effect_with(open, move |open| {
            if open.is_some() {
                if let Some(b) = menu_ref.cast::<Element>().and_then(|m| m.query_selector("button").ok().flatten()) {
                    let _ = b.unchecked_into::<HtmlElement>().focus();
                }
            }
        });
    }
    let open_menu = {
        let act = p.act.clone();
        move |node: String, x: f64, y: f64| act.dispatch(Action::OpenFaultMenu(FaultMenu { node, x, y }))
    };
    let lanes = t.lanes.iter().zip(&g.lanes).enumerate().map(|(i, (lane, b))| {
        let name = lane.name.clone();
        let oncontextmenu = {
            let (open_menu, geo, act, name) = (open_menu.clone(), p.geo.clone(), p.act.clone(), name.clone());
            Callback::from(move |e: MouseEvent| {
                e.prevent_default();
                if let Some(x) = drawing_x(&e, &geo) {
                    // The menu's faults strike where the user pointed: the cursor goes there first.
                    act.dispatch(Action::Seek(geo.time_at(x.max(geo.x0)).round()));
                    open_menu(name.clone(), e.client_x() as f64, e.client_y() as f64);
                }
            })
        };
        let onclick = {
            let (geo, act) = (p.geo.clone(), p.act.clone());
            Callback::from(move |e: MouseEvent| {
                if let Some(x) = drawing_x(&e, &geo) {
                    if x >= geo.x0 - 6.0 {
                        act.dispatch(Action::Seek(geo.time_at(x).round()));
                    }
                }
            })
        };
        // A long press on touch screens, which have no right button.
        let onpointerdown = {
            let (press, open_menu, geo, act, name) = (press.clone(), open_menu.clone(), p.geo.clone(), p.act.clone(), name.clone());
            Callback::from(move |e: PointerEvent| {
                if e.pointer_type() != "touch" {
                    return;
                }
                let Some(x) = drawing_x(&e, &geo) else { return };
                let (open_menu, act, name, at) = (open_menu.clone(), act.clone(), name.clone(), geo.time_at(x.max(geo.x0)).round());
                let (cx, cy) = (e.client_x() as f64, e.client_y() as f64);
                *press.borrow_mut() = Some(Timeout::new(LONG_PRESS_MS, move || {
                    act.dispatch(Action::Seek(at));
                    open_menu(name, cx, cy);
                }));
            })
        };
        let cancel_press = {
            let press = press.clone();
            Callback::from(move |_: PointerEvent| drop(press.borrow_mut().take()))
        };
        let onkeydown = {
            let (open_menu, geo, name, cursor) = (open_menu.clone(), p.geo.clone(), name.clone(), p.cursor);
            Callback::from(move |e: KeyboardEvent| {
                let lane_of = |e: &KeyboardEvent| e.target().and_then(|t| t.dyn_into::<Element>().ok());
                let sibling = |el: Element, down: bool| if down { el.next_element_sibling() } else { el.previous_element_sibling() };
                // From the keyboard the menu opens on the lane, at the cursor.
                let at_cursor = |e: &KeyboardEvent| {
                    let r = lane_of(e)?.get_bounding_client_rect();
                    Some((r.left() + geo.x(cursor) * r.width() / geo.width.max(1.0), r.top() + r.height() / 2.0))
                };
                let key = e.key();
                match key.as_str() {
                    "m" | "M" | "Enter" | "ContextMenu" | "F10" if key != "F10" || e.shift_key() => {
                        e.prevent_default();
                        e.stop_propagation();
                        if let Some((x, y)) = at_cursor(&e) {
                            open_menu(name.clone(), x, y);
                        }
                    }
                    key @ ("ArrowUp" | "ArrowDown") => {
                        e.prevent_default();
                        e.stop_propagation();
                        let next = lane_of(&e).and_then(|el| sibling(el, key == "ArrowDown"));
                        if let Some(next) = next.filter(|el| el.get_attribute("data-testid").as_deref() == Some("lane")) {
                            let _ = next.unchecked_into::<HtmlElement>().focus();
                        }
                    }
                    _ => {}
                }
            })
        };
        let style = format!("top:{}px;height:{}px", n(b.top), n(b.h));
        html! {
            <div class="lane-target" data-testid="lane" data-node={name.clone()} tabindex={if i == 0 { "0" } else { "-1" }} role="button"
                aria-haspopup="menu" aria-label={format!("{name}: faults here (M)")} {style}
                {oncontextmenu} {onclick} {onpointerdown} onpointerup={cancel_press.clone()} onpointerleave={cancel_press.clone()}
                onpointercancel={cancel_press} {onkeydown} />
        }
    });
    let lane_box = |name: &str| t.lanes.iter().position(|l| l.name == name).and_then(|i| g.lanes.get(i));
    let handles = ed.scenario.faults.iter().enumerate().flat_map(|(index, f)| {
        let (from, to) = span(f);
        let d = drag.filter(|d| d.index == index);
        let shift = d.map_or(0.0, |d| d.to_x - d.from_x);
        let (x0, x1) = match (d.map(|d| d.grip), to) {
            (Some(Grip::Resize), Some(to)) => (g.xt(from), (g.xt(to) + shift).max(g.xt(from) + 4.0)),
            (_, Some(to)) => (g.xt(from) + shift, g.xt(to) + shift),
            (_, None) => (g.xt(from) + shift - 5.0, g.xt(from) + shift + 5.0),
        };
        let words = fault::words(f);
        let selected = ed.selected == Some(index);
        let resizable = to.is_some();
        fault::nodes(f)
            .into_iter()
            // On the first lane it names (a link's sender, a partition's first member).
            .take(1)
            .filter_map(|node| lane_box(&node).cloned())
            .map(|b| {
                let down = |grip: Grip| {
                    let (drag, act, geo) = (drag.clone(), p.act.clone(), p.geo.clone());
                    Callback::from(move |e: PointerEvent| {
                        e.stop_propagation();
                        e.prevent_default();
                        if let Some(el) = e.target().and_then(|t| t.dyn_into::<Element>().ok()) {
                            let _ = el.set_pointer_capture(e.pointer_id());
                        }
                        act.dispatch(Action::SelectFault(Some(index)));
                        if let Some(x) = drawing_x(&e, &geo) {
                            drag.set(Some(Drag { index, grip, from_x: x, to_x: x }));
                        }
                    })
                };
                let onpointermove = {
                    let (drag, geo) = (drag.clone(), p.geo.clone());
                    Callback::from(move |e: PointerEvent| {
                        if let (Some(d), Some(x)) = (*drag, drawing_x(&e, &geo)) {
                            drag.set(Some(Drag { to_x: x, ..d }));
                        }
                    })
                };
                // One edit (one re-simulation, one undo step) per drag, when it is let go.
                let onpointerup = {
                    let (drag, act, geo) = (drag.clone(), p.act.clone(), p.geo.clone());
                    Callback::from(move |e: PointerEvent| {
                        e.stop_propagation();
                        let Some(d) = *drag else { return };
                        drag.set(None);
                        let moved_ms = (geo.time_at(d.to_x) - geo.time_at(d.from_x)).round() as i64;
                        if moved_ms == 0 {
                            return;
                        }
                        act.dispatch(match (d.grip, to) {
                            (Grip::Resize, Some(to)) => Action::ResizeFault { index, length_ms: (to - from + moved_ms).max(1) },
                            _ => Action::MoveFault { index, at_ms: from + moved_ms },
                        });
                    })
                };
                let onkeydown = {
                    let act = p.act.clone();
                    Callback::from(move |e: KeyboardEvent| {
                        if matches!(e.key().as_str(), "Delete" | "Backspace") {
                            e.prevent_default();
                            e.stop_propagation();
                            act.dispatch(Action::RemoveFault(index));
                        }
                    })
                };
                let onclick = Callback::from(|e: MouseEvent| e.stop_propagation());
                let style = format!("left:{}px;width:{}px;top:{}px;height:{}px", n(x0), n((x1 - x0).max(10.0)), n(b.top + 2.0), n(b.h - 4.0));
                html! {
                    <div class={classes!("fault-handle", selected.then_some("selected"), d.is_some().then_some("dragging"))}
                        data-testid="fault-handle" data-fault={index.to_string()} data-kind={f.kind().id()} tabindex="0" role="button"
                        aria-label={format!("{words}: drag to move{}; Delete removes it", if resizable { ", drag its right edge to resize" } else { "" })}
                        title={words.clone()} {style} onpointerdown={down(Grip::Move)} onpointermove={onpointermove.clone()}
                        onpointerup={onpointerup.clone()} {onkeydown} {onclick}>
                        if resizable {
                            <span class="fault-grip" data-testid="fault-resize" onpointerdown={down(Grip::Resize)} onpointermove={onpointermove}
                                onpointerup={onpointerup} />
                        }
                    </div>
                }
            })
            .collect::<Vec<_>>()
    });
    let menu = ed.menu.as_ref().map(|(m, offers)| {
        let close = {
            let act = p.act.clone();
            Callback::from(move |_: MouseEvent| act.dispatch(Action::CloseFaultMenu))
        };
        let onkeydown = {
            let act = p.act.clone();
            Callback::from(move |e: KeyboardEvent| {
                let item = e.target().and_then(|t| t.dyn_into::<Element>().ok());
                let go = |el: Option<Element>| {
                    if let Some(el) = el {
                        let _ = el.unchecked_into::<HtmlElement>().focus();
                    }
                };
                match e.key().as_str() {
                    "Escape" => {
                        e.stop_propagation();
                        act.dispatch(Action::CloseFaultMenu);
                    }
                    "ArrowDown" => {
                        e.prevent_default();
                        e.stop_propagation();
                        go(item.and_then(|i| i.next_element_sibling()));
                    }
                    "ArrowUp" => {
                        e.prevent_default();
                        e.stop_propagation();
                        go(item.and_then(|i| i.previous_element_sibling()).filter(|el| el.tag_name() == "BUTTON"));
                    }
                    // The menu's own keys (Space and Enter press the item) are not the app's.
                    " " | "Enter" => e.stop_propagation(),
                    _ => {}
                }
            })
        };
        // Fixed on the screen where it was asked for (no ancestor is transformed where one can
        // be edited), and kept on it: near the right or bottom edge it opens leftward or upward.
        let window = web_sys::window();
        let size = |v: Option<wasm_bindgen::JsValue>| v.and_then(|v| v.as_f64()).unwrap_or(1280.0);
        let (w, h) = (size(window.as_ref().and_then(|w| w.inner_width().ok())), size(window.as_ref().and_then(|w| w.inner_height().ok())));
        let left = if m.x > w * 0.6 { format!("right:{}px", n(w - m.x)) } else { format!("left:{}px", n(m.x)) };
        let top = if m.y > h * 0.55 { format!("bottom:{}px", n(h - m.y)) } else { format!("top:{}px", n(m.y)) };
        let at = crate::decimal::seconds(p.cursor.floor() as i64);
        html! {
            <>
            <div class="fault-menu-shade" onclick={close} oncontextmenu={Callback::from(|e: MouseEvent| e.prevent_default())} />
            <div class="fault-menu" data-testid="fault-menu" role="menu" aria-label={format!("Faults on {} at {at}", m.node)}
                style={format!("{left};{top}")} ref={menu_ref.clone()} {onkeydown}>
                <p class="fault-menu-head">{format!("{} at {at}", m.node)}</p>
                {for offers.iter().map(|o| {
                    let act = p.act.clone();
                    let (kind, node) = (o.kind.id().to_string(), m.node.clone());
                    let onclick = Callback::from(move |_: MouseEvent| act.dispatch(Action::Inject { kind: kind.clone(), node: node.clone() }));
                    html! {
                        <button type="button" role="menuitem" data-testid={format!("fault-menu-{}", o.kind.id().replace('_', "-"))} {onclick}>
                            {o.words()}
                        </button>
                    }
                })}
            </div>
            </>
        }
    });
    html! {
        <div class="pointing">
            {for lanes}
            {for handles}
            {menu.unwrap_or_default()}
        </div>
    }
}
