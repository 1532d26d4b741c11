//! The app's data as files beside it (issue 38; `locklab::library` says which and why): the
//! built-in scenarios, lessons and recordings the browser fetches when it first needs them,
//! instead of carrying them in its wasm.
//!
//!   cargo run --bin data-files -- DIR      # DIR: the build (Trunk's staging folder)
//!
//! Run by scripts/post-build.mjs. It writes `DIR/data-HASH/…` (removing any older `data-*`
//! folder), puts `<meta name="locklab-data" content="data-HASH/" data-ids="ID…">` into
//! DIR/index.html before its first script, and then checks that no wasm in DIR carries the data after all: a
//! piece of any built-in's, lesson's or recording's file found in a `.wasm` fails the build,
//! naming it (one `include_str!` reached from the app would put the whole file back).

use std::path::Path;

use locklab::library;
use locklab::scenario::catalog;

fn fail(message: String) -> ! {
    eprintln!("data-files: {message}");
    std::process::exit(1);
}

/// Texts that only the data files hold, each with what it is: 100 bytes from the middle of
/// every source file, as `include_str!` would have put it into a wasm.
fn telltales() -> Vec<(String, &'static str)> {
    let catalog = catalog::compiled().scenarios.into_iter().map(|s| format!("built-in {}", s.id)).zip(catalog::sources());
    let lessons =
        locklab::lesson::builtin::compiled().into_iter().map(|l| format!("lesson {}", l.id)).zip(locklab::lesson::builtin::sources());
    let recordings = locklab::recorded::FILES.iter().map(|(name, text)| (format!("recording {name}"), *text));
    catalog.chain(lessons).chain(recordings).map(|(what, src)| (what, middle(src, 100))).collect()
}

/// `n` bytes or so from the middle of `text`, cut at character boundaries.
fn middle(text: &str, n: usize) -> &str {
    let mut a = text.len().saturating_sub(n) / 2;
    while !text.is_char_boundary(a) {
        a += 1;
    }
    let mut b = (a + n).min(text.len());
    while !text.is_char_boundary(b) {
        b -= 1;
    }
    &text[a..b]
}

fn main() {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: data-files DIR   (DIR: the build folder with index.html)");
        std::process::exit(2);
    };
    let dir = Path::new(&dir);
    let index = dir.join("index.html");
    let html = std::fs::read_to_string(&index).unwrap_or_else(|e| fail(format!("cannot read {}: {e}", index.display())));
    if !html.contains("<main") {
        // Another page built with the same hook (the benchmark's bare-Yew floor): no data.
        println!("data-files: {} is not the app's page; nothing written", index.display());
        return;
    }
    let files = library::files();
    let folder = library::folder(&files);
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        if e.file_name().to_string_lossy().starts_with("data-") && e.path().is_dir() {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
    let mut bytes = 0;
    for (path, text) in &files {
        let to = dir.join(&folder).join(path);
        std::fs::create_dir_all(to.parent().expect("a file in a folder")).unwrap_or_else(|e| fail(format!("{}: {e}", to.display())));
        std::fs::write(&to, text).unwrap_or_else(|e| fail(format!("{}: {e}", to.display())));
        bytes += text.len();
    }
    let ids = catalog::compiled().scenarios.into_iter().map(|s| s.id).collect::<Vec<_>>().join(" ");
    let meta = format!(r#"<meta name="{}" content="{folder}" data-ids="{ids}">"#, library::META);
    // Run again on the same folder, the old one goes.
    let without = match html.find(r#"<meta name="locklab-data""#) {
        Some(a) => format!("{}{}", &html[..a], &html[a + html[a..].find('>').expect("a closed tag") + 1..]),
        None => html,
    };
    // Before the page's first script, which reads it (index.html).
    let at = without.find("<script").unwrap_or_else(|| fail("index.html has no <script>".into()));
    std::fs::write(&index, format!("{}{meta}{}", &without[..at], &without[at..]))
        .unwrap_or_else(|e| fail(format!("{}: {e}", index.display())));

    let wasms: Vec<_> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "wasm"))
        .collect();
    for wasm in &wasms {
        let code = std::fs::read(wasm).unwrap_or_else(|e| fail(format!("{}: {e}", wasm.display())));
        for (what, text) in telltales() {
            if code.windows(text.len()).any(|w| w == text.as_bytes()) {
                fail(format!("{} carries {what}: the app's data must come from {folder}, not be compiled in", wasm.display()));
            }
        }
    }
    println!("data-files: {} files, {bytes} B, in {folder}; {} wasm checked to carry none of it", files.len(), wasms.len());
}
