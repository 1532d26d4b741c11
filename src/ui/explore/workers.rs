//! The Explore panel's Web Workers: one per core (`navigator.hardwareConcurrency`), each the
//! explore-worker wasm (src/bin/explore-worker.rs) in an instance of its own, with no shared
//! memory (so no cross-origin isolation, which a static host cannot be asked for). What they
//! are given and how their answers are folded in is `session::explore::farm`; this only moves
//! JSON text between them and the `Page`.
//!
//! Where workers cannot run the page carries on alone (`Page::fall_back`): a frame sandboxed
//! without allow-same-origin (an opaque origin may not start a worker from a URL: the
//! constructor throws), a page opened from file://, a worker whose script or wasm fails to
//! load (an `error` event), or workers that never say "ready". gloo-worker is not used: its
//! spawner panics when the constructor throws, which would take the app down with it.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::timers::callback::Timeout;
use wasm_bindgen::prelude::{Closure, JsValue};
use wasm_bindgen::JsCast;
use web_sys::{MessageEvent, Worker};

use crate::session::explore::Page;

/// The worker's loader (Trunk's `data-loader-shim`), beside index.html.
const LOADER: &str = "./explore-worker_loader.js";

/// Tasks a worker holds at once: one to run and one queued, so it never waits for the page.
const IN_FLIGHT: usize = 2;

/// At most this many workers, whatever a machine says it has.
const MOST: usize = 16;

/// No worker ready this long after they were started: the page runs the search itself (a
/// worker whose wasm cannot start may fail without an `error` event).
const READY_WITHIN_MS: u32 = 10_000;

struct Slot {
    worker: Worker,
    ready: bool,
    in_flight: usize,
}

/// The page's workers, once started.
pub struct Pool {
    page: Rc<RefCell<Page>>,
    slots: Vec<Slot>,
    failed: bool,
    /// The listeners and the readiness deadline live as long as the pool.
    _keep: Vec<Closure<dyn FnMut(JsValue)>>,
    _deadline: Option<Timeout>,
}

pub type Shared = Rc<RefCell<Pool>>;

impl Pool {
    pub fn new(page: Rc<RefCell<Page>>) -> Shared {
        Rc::new(RefCell::new(Pool { page, slots: Vec::new(), failed: false, _keep: Vec::new(), _deadline: None }))
    }

    /// Workers for the page's next searches, started on the first call; false when there are
    /// none and the page runs its searches in slices.
    pub fn start(pool: &Shared) -> bool {
        let mut p = pool.borrow_mut();
        if p.failed || !p.slots.is_empty() {
            return !p.failed;
        }
        let cores = web_sys::window().map_or(1.0, |w| w.navigator().hardware_concurrency());
        let n = (cores as usize).clamp(1, MOST);
        for i in 0..n {
            let Ok(worker) = Worker::new(LOADER) else {
                drop(p);
                Pool::fail(pool);
                return false;
            };
            let on_message = {
                let pool = pool.clone();
                Closure::<dyn FnMut(JsValue)>::new(move |e: JsValue| Pool::heard(&pool, i, e.unchecked_into::<MessageEvent>().data()))
            };
            let on_error = {
                let pool = pool.clone();
                Closure::<dyn FnMut(JsValue)>::new(move |_| Pool::fail(&pool))
            };
            worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
            worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
            p._keep.extend([on_message, on_error]);
            p.slots.push(Slot { worker, ready: false, in_flight: 0 });
        }
        let late = pool.clone();
        p._deadline = Some(Timeout::new(READY_WITHIN_MS, move || {
            if !late.borrow().slots.iter().any(|s| s.ready) {
                Pool::fail(&late);
            }
        }));
        p.page.borrow_mut().workers = n;
        true
    }

    /// Worker `i` said `data`: "ready", or an answer to fold in; then it gets more work.
    fn heard(pool: &Shared, i: usize, data: JsValue) {
        let Some(text) = data.as_string() else { return };
        {
            let mut p = pool.borrow_mut();
            if p.failed {
                return;
            }
            let slot = &mut p.slots[i];
            if text == "ready" {
                slot.ready = true;
            } else {
                slot.in_flight = slot.in_flight.saturating_sub(1);
                p.page.borrow_mut().receive(&text);
            }
        }
        Pool::feed(pool);
    }

    /// Gives every ready worker tasks up to `IN_FLIGHT`, while the page has any.
    pub fn feed(pool: &Shared) {
        let mut sent_ok = true;
        {
            let mut p = pool.borrow_mut();
            if p.failed {
                return;
            }
            let Pool { page, slots, .. } = &mut *p;
            let mut page = page.borrow_mut();
            'slots: for slot in slots.iter_mut().filter(|s| s.ready) {
                while slot.in_flight < IN_FLIGHT {
                    let Some(task) = page.task() else { break 'slots };
                    sent_ok &= slot.worker.post_message(&JsValue::from_str(&task)).is_ok();
                    slot.in_flight += 1;
                }
            }
        }
        if !sent_ok {
            Pool::fail(pool);
        }
    }

    /// Workers cannot run here: they stop, and the page's searches go on in its own slices.
    fn fail(pool: &Shared) {
        let mut p = pool.borrow_mut();
        p.failed = true;
        for s in p.slots.drain(..) {
            s.worker.terminate();
        }
        p.page.borrow_mut().fall_back();
    }
}
