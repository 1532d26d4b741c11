//! The browser's local storage, reached so that it can never throw or panic. In a sandboxed
//! iframe without `allow-same-origin` merely reading `window.localStorage` throws a
//! SecurityError; Safari's private mode and a full quota refuse writes. Each of those turns
//! saving off with a reason the editor shows, and the editor keeps working in memory. This is
//! the editor model's `Store` in the browser.

use wasm_bindgen::JsValue;

const PROBE_KEY: &str = "locklab.probe";

pub struct Store {
    storage: Result<web_sys::Storage, String>,
}

impl Store {
    pub fn open() -> Store {
        let storage = match web_sys::window().map(|w| w.local_storage()) {
            Some(Ok(Some(s))) => s,
            Some(Err(e)) => return Store { storage: Err(why(&e)) },
            _ => return Store { storage: Err("this browser has no local storage".into()) },
        };
        // Readable is not enough: private modes and a full quota refuse the first write.
        if let Err(e) = storage.set_item(PROBE_KEY, "1").and_then(|_| storage.remove_item(PROBE_KEY)) {
            return Store { storage: Err(why(&e)) };
        }
        Store { storage: Ok(storage) }
    }
}

impl crate::authoring::editor::Store for Store {
    fn off(&self) -> Option<&str> {
        self.storage.as_ref().err().map(String::as_str)
    }

    fn get(&self, key: &str) -> Option<String> {
        self.storage.as_ref().ok()?.get_item(key).ok().flatten()
    }

    fn set(&self, key: &str, value: &str) -> Result<(), String> {
        match &self.storage {
            Ok(s) => s.set_item(key, value).map_err(|e| why(&e)),
            Err(off) => Err(off.clone()),
        }
    }
}

/// A storage exception in words a student can act on.
fn why(e: &JsValue) -> String {
    let name = js_sys::Reflect::get(e, &JsValue::from_str("name")).ok().and_then(|n| n.as_string()).unwrap_or_default();
    match name.as_str() {
        "SecurityError" => "this page may not store anything here (a sandboxed frame, or site data is blocked)",
        "QuotaExceededError" => "the browser's storage for this site is full",
        _ => "the browser refused to store anything",
    }
    .into()
}
