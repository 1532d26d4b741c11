//! The stage's side of a room (`locklab room`, docs/ROOM.md): only when the page was opened
//! with `?room=KEY` (the presenter key `locklab room` prints). The stage tells the room the
//! question on screen (never its answer) and its reveal, shows the voters' address as a QR code
//! (drawn by the server, an <img>: the wasm draws none) and in text, and hands the room's live
//! counts to the lesson as `Action::RoomVotes`, which counts them as the hand tally (keys 1-4)
//! and reports them at the reveal as it does the hands. Without a key nothing here runs.
//! A web-sys WebSocket, no crate of its own; the messages are src/lesson/room.rs's.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{MessageEvent, WebSocket};
use yew::prelude::*;

use crate::lesson::player::Open;
use crate::lesson::room::{announcement, read, FromRoom};

/// Where the key is kept for this tab: the lesson rewrites the address bar (`?lesson=…&step=…`)
/// and drops `?room=`, and a reload of the stage stays in the room.
const KEY_ITEM: &str = "locklab-room";

/// The presenter key from `?room=KEY` (kept for the tab), or the tab's kept one; None: no room.
fn room_key() -> Option<String> {
    let window = web_sys::window()?;
    let search = window.location().search().ok().unwrap_or_default();
    let given = search.trim_start_matches('?').split('&').find_map(|kv| kv.strip_prefix("room=")).map(str::to_string);
    let storage = window.session_storage().ok().flatten();
    let key = match given {
        Some(k) => {
            if let Some(s) = &storage {
                let _ = s.set_item(KEY_ITEM, &k);
            }
            k
        }
        None => storage?.get_item(KEY_ITEM).ok().flatten()?,
    };
    // The key goes into the socket's address: letters and digits only.
    (!key.is_empty() && key.len() <= 64 && key.chars().all(|c| c.is_ascii_alphanumeric())).then_some(key)
}

/// What the stage shows of its room.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RoomView {
    /// In a room at all (opened with a key).
    pub on: bool,
    pub connected: bool,
    pub voter_url: String,
    pub qr: String,
    /// Phones connected now, and votes on the question on screen.
    pub voters: usize,
    pub votes: u32,
    /// The room's last error (a refused key, a refused question).
    pub error: Option<String>,
}

/// A socket's event handler.
type Handler = Closure<dyn FnMut(web_sys::Event)>;

/// The stage's socket and what it last told the room (sent again after a reconnect).
struct Link {
    key: String,
    socket: RefCell<Option<WebSocket>>,
    announced: RefCell<String>,
    /// The socket's handlers, kept alive with it (dropped when a reconnect replaces them).
    handlers: RefCell<Vec<Handler>>,
    /// The view as the handlers change it (a handle's own value is the render's it came from).
    current: RefCell<RoomView>,
    view: UseStateHandle<RoomView>,
    on_counts: Callback<(String, usize, Vec<u32>)>,
}

impl Link {
    fn send(&self, text: &str) {
        if let Some(s) = self.socket.borrow().as_ref().filter(|s| s.ready_state() == WebSocket::OPEN) {
            let _ = s.send_with_str(text);
        }
    }

    fn set(&self, change: impl FnOnce(&mut RoomView)) {
        let mut v = self.current.borrow_mut();
        change(&mut v);
        self.view.set(v.clone());
    }
}

/// Opens the stage's socket on this page's server; after a close, again in 2 s.
fn connect(link: &Rc<Link>) {
    let Some(location) = web_sys::window().map(|w| w.location()) else { return };
    let scheme = if location.protocol().ok().as_deref() == Some("https:") { "wss" } else { "ws" };
    let url = format!("{scheme}://{}/room/stage?key={}", location.host().unwrap_or_default(), link.key);
    let Ok(socket) = WebSocket::new(&url) else { return };
    let on_open = {
        let link = link.clone();
        Handler::new(move |_| {
            link.set(|v| v.connected = true);
            link.send(&link.announced.borrow().clone());
        })
    };
    let on_message = {
        let link = link.clone();
        Handler::new(move |e: web_sys::Event| {
            let Some(text) = e.dyn_ref::<MessageEvent>().and_then(|m| m.data().as_string()) else { return };
            match read(&text) {
                Ok(FromRoom::Room { voter_url, qr }) => link.set(|v| (v.voter_url, v.qr) = (voter_url, qr)),
                Ok(FromRoom::Counts { lesson, step, counts, votes, voters }) => {
                    link.set(|v| (v.votes, v.voters, v.error) = (votes, voters, None));
                    link.on_counts.emit((lesson, step, counts));
                }
                Ok(FromRoom::Error(error)) => link.set(|v| v.error = Some(error)),
                Err(e) => link.set(|v| v.error = Some(format!("the room sent what the stage cannot read ({e})"))),
            }
        })
    };
    let on_close = {
        let link = link.clone();
        Handler::new(move |_| {
            link.set(|v| v.connected = false);
            let link = link.clone();
            gloo::timers::callback::Timeout::new(2000, move || connect(&link)).forget();
        })
    };
    socket.set_onopen(Some(on_open.as_ref().unchecked_ref()));
    socket.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    socket.set_onclose(Some(on_close.as_ref().unchecked_ref()));
    *link.socket.borrow_mut() = Some(socket);
    *link.handlers.borrow_mut() = vec![on_open, on_message, on_close];
}

/// The room, when the page was opened with a key: keeps the room told of `open`'s question and
/// emits the room's counts to `on_counts`. Returns what the stage shows of it.
#[hook]
pub fn use_room(open: Option<&Open>, on_counts: Callback<(String, usize, Vec<u32>)>) -> RoomView {
    let view = use_state_eq(RoomView::default);
    let link = use_mut_ref(|| None::<Rc<Link>>);
    {
        let (view, link) = (view.clone(), link.clone());
        use_effect_with((), move |_| {
            if let Some(key) = room_key() {
                let on = RoomView { on: true, ..RoomView::default() };
                view.set(on.clone());
                let l = Rc::new(Link {
                    current: RefCell::new(on),
                    key,
                    socket: RefCell::default(),
                    announced: RefCell::new(announcement(None)),
                    handlers: RefCell::default(),
                    view,
                    on_counts,
                });
                connect(&l);
                *link.borrow_mut() = Some(l);
            }
        });
    }
    let text = announcement(open);
    use_effect_with(text, move |text| {
        if let Some(l) = link.borrow().as_ref() {
            *l.announced.borrow_mut() = text.clone();
            l.send(text);
        }
    });
    (*view).clone()
}

/// Beside the question: how to join (the QR code and the short address) and how many have.
/// A <details>: a click on the address folds the QR code away once the room has joined (it sits
/// over the diagram's top right on the lecture stage), and the browser keeps it folded.
pub fn join(view: &RoomView, asking: bool) -> Html {
    if !view.on {
        return html! {};
    }
    let status = match (&view.error, view.connected) {
        (Some(e), _) => format!("Room: {e}"),
        (None, false) => "Room: connecting…".to_string(),
        (None, true) => format!("{} connected · {} voted", view.voters, view.votes),
    };
    html! {
        <details class="room-join" open=true data-testid="room-join" aria-label="Vote from your phone" data-voters={view.voters.to_string()} data-votes={view.votes.to_string()}>
            <summary title="Vote from your phone at this address (click: show or hide the QR code)">
                <span class="room-url" data-testid="room-url">{view.voter_url.clone()}</span>
                <span class="room-status" data-testid="room-status" role="status">{status}</span>
            </summary>
            if asking && !view.qr.is_empty() {
                <img class="room-qr" src={view.qr.clone()} alt={format!("QR code of {}", view.voter_url)} data-testid="room-qr" width="160" height="160" />
            }
        </details>
    }
}
