//! Fetches the app's data files (`crate::library` says which, and why they are not in the wasm)
//! and puts them on the shelves the core reads (`catalog::install`, `lesson::builtin::install`,
//! `recorded::install`). `before_start` gets what the address needs before the app can start:
//! the page's own built-in (which the first paint already asked for, index.html) or, for a
//! lesson, the catalog and the lessons. `after_start` gets the rest once the app answers input.

use std::cell::Cell;

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use crate::library::{self, Needs};
use crate::scenario::catalog::{self, Catalog};
use crate::session::Start;

thread_local! {
    static WHOLE_CATALOG: Cell<bool> = const { Cell::new(false) };
    static RECORDINGS: Cell<bool> = const { Cell::new(false) };
}

/// The data folder and the built-ins' ids, as index.html's `<meta name="locklab-data">` names them.
fn meta() -> Result<(String, String), String> {
    let doc = web_sys::window().and_then(|w| w.document()).ok_or("no document")?;
    let m = doc.query_selector(&format!("meta[name=\"{}\"]", library::META)).ok().flatten().ok_or_else(|| {
        format!("this page names no data folder (<meta name=\"{}\">); build it with scripts/post-build.mjs", library::META)
    })?;
    Ok((m.get_attribute("content").unwrap_or_default(), m.get_attribute("data-ids").unwrap_or_default()))
}

/// The text of a file of the data folder; an error names its address and what went wrong. The
/// offline file (scripts/offline.mjs) carries every file in the page, as a data block
/// `<script type="application/json" data-locklab-file="FILE">`: read there, nothing is fetched.
async fn fetch(file: &str) -> Result<String, String> {
    if let Some(text) = carried(file) {
        return Ok(text);
    }
    let url = format!("{}{file}", meta()?.0);
    let window = web_sys::window().ok_or("no window")?;
    let got = JsFuture::from(window.fetch_with_str(&url)).await.map_err(|_| format!("{url} could not be fetched"))?;
    let response: web_sys::Response = got.dyn_into().map_err(|_| format!("{url}: no response"))?;
    if !response.ok() {
        return Err(format!("{url}: HTTP {}", response.status()));
    }
    let text = response.text().map_err(|_| format!("{url}: no body"))?;
    JsFuture::from(text).await.ok().and_then(|t| t.as_string()).ok_or_else(|| format!("{url}: not text"))
}

/// Whether this page is the offline file (`<meta name="locklab-offline">`, scripts/offline.mjs),
/// which carries its data and needs no server. Read once: the page does not change.
pub fn is_offline_file() -> bool {
    thread_local!(static OFFLINE: bool = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector("meta[name=\"locklab-offline\"]").ok().flatten())
        .is_some());
    OFFLINE.with(|o| *o)
}

/// A data file the page carries itself (the offline file), if it does.
fn carried(file: &str) -> Option<String> {
    let doc = web_sys::window()?.document()?;
    let block = doc.query_selector(&format!("script[data-locklab-file=\"{file}\"]")).ok()??;
    block.text_content()
}

/// What the address needs before the app can start; an error says what failed.
pub async fn before_start(start: &Start) -> Result<(), String> {
    match library::needs(&start.search, &start.hash) {
        // Read now, not when first asked for: the lesson opens with the app.
        Needs::Lessons => {
            whole_catalog().await?;
            lessons().await
        }
        // Not a built-in: the whole catalog, so that the app says so and offers them.
        Needs::Scenario(id) if !meta()?.1.split(' ').any(|i| i == id) => whole_catalog().await,
        Needs::Scenario(id) => own_built_in(&fetch(&library::scenario_file(&id)).await?),
        Needs::First => {
            let ids = meta()?.1;
            own_built_in(&fetch(&library::scenario_file(ids.split(' ').next().unwrap_or_default())).await?)
        }
    }
}

/// The rest, once the app answers: every built-in, the recordings, the lessons. An embed shows
/// one scenario with no picker and no lessons: it fetches nothing more, but the recordings when
/// it compares with one (a docs page of several embeds would fetch each file once per frame).
pub async fn after_start(embed: bool, compares_recorded: bool) -> Result<(), String> {
    if !embed {
        whole_catalog().await?;
    }
    if (!embed || compares_recorded) && !RECORDINGS.with(Cell::get) {
        crate::recorded::install(fetch(library::RECORDINGS).await?);
        RECORDINGS.with(|r| r.set(true));
    }
    if embed {
        return Ok(());
    }
    lessons().await
}

/// Runs `then` once the page is idle after its start (`requestIdleCallback`, at most 1 s on; a
/// browser without it, 100 ms on): reading the catalog and drawing what it changes is then not
/// in the way of the app's first answers to input.
pub fn when_idle(then: impl FnOnce() + 'static) {
    let Some(w) = web_sys::window() else { return then() };
    // One function, called once: by the idle callback, or by the timeout when that was refused.
    let run = wasm_bindgen::closure::Closure::once_into_js(then);
    let options = web_sys::IdleRequestOptions::new();
    options.set_timeout(1000);
    if w.request_idle_callback_with_options(run.unchecked_ref(), &options).is_err() {
        let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(run.unchecked_ref(), 100);
    }
}

/// Whether everything is here (the page marks it, `data-arrived`, for scripts and tests).
pub fn arrived() -> bool {
    WHOLE_CATALOG.with(Cell::get) && RECORDINGS.with(Cell::get) && crate::lesson::builtin::arrived()
}

/// Every file put on the shelves at once, from what is compiled in: for the browser tests,
/// which mount the app with no data folder beside them. The app never calls it, so its wasm
/// carries none of the text (scripts/post-build.mjs's data-files step checks).
pub fn install_compiled() {
    for (path, text) in library::files() {
        match path.as_str() {
            library::CATALOG => catalog::install(catalog::read_all(&text).unwrap_or_default()),
            library::LESSONS => crate::lesson::builtin::install(text),
            library::RECORDINGS => crate::recorded::install(text),
            _ => {}
        }
    }
    WHOLE_CATALOG.with(|w| w.set(true));
    RECORDINGS.with(|r| r.set(true));
}

fn own_built_in(text: &str) -> Result<(), String> {
    let s = library::read_scenario(text).map_err(|e| format!("a built-in's file: {e}"))?;
    catalog::install(Catalog { scenarios: vec![s], outages: Vec::new() });
    Ok(())
}

async fn whole_catalog() -> Result<(), String> {
    if WHOLE_CATALOG.with(Cell::get) {
        return Ok(());
    }
    let c = catalog::read_all(&fetch(library::CATALOG).await?).map_err(|e| format!("{}: {e}", library::CATALOG))?;
    catalog::install(c);
    WHOLE_CATALOG.with(|w| w.set(true));
    Ok(())
}

async fn lessons() -> Result<(), String> {
    if crate::lesson::builtin::arrived() {
        return Ok(());
    }
    crate::lesson::builtin::install(fetch(library::LESSONS).await?);
    Ok(())
}

/// The loading line says why the app cannot start (index.html listens: `locklab-cannot-start`).
pub fn cannot_start(why: &str) {
    let Some(w) = web_sys::window() else { return };
    let init = web_sys::CustomEventInit::new();
    init.set_detail(&why.into());
    if let Ok(e) = web_sys::CustomEvent::new_with_event_init_dict("locklab-cannot-start", &init) {
        let _ = w.dispatch_event(&e);
    }
}
