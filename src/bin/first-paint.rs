//! The first diagram at first paint (issue 25, item 4): every built-in pre-drawn at build time,
//! at its start and at each key moment, by the CLI's own drawing code (`export::figure`, what
//! `locklab svg` writes), so that the page shows a diagram before its wasm has arrived.
//!
//!   cargo run --bin first-paint -- DIR      # DIR: the build (Trunk's staging folder)
//!
//! Run by scripts/post-build.mjs before it hashes the inline scripts for the page's policy.
//! It writes
//!
//! - `DIR/paint-HASH/ID-W.json` for each built-in ID and each width W: its switches as shipped
//!   (`fencing`, `safe_unlock`, `seed`), `"i"`: its intro paragraph, and its figures, one per
//!   moment in time order (figure k is `p + m[k][1] + s`, `m[k][0]` its time in ms). One file holds
//!   every moment of a run: the static drawing is the same in each, and the build's brotli
//!   finds the repeats (a whole file costs little more than one of its figures). HASH is
//!   the content's, so the folder is served `immutable`;
//! - into DIR/index.html, in the loading placeholder's `<main>`: the first built-in (the
//!   default address) at its start at the desktop's width, inline, its intro above it and the
//!   loading line under it; `<main>`'s data attributes tell the page's inline picker script
//!   (index.html) the folder, the built-ins' ids (the first is the default) and the widths.
//!
//! The figures leave out the exported file's own stylesheet: the page links the same
//! styles/diagram.css, and an inline `<style>` would need its own hash in the page's policy.

use std::fmt::Write;
use std::path::Path;

use locklab::lab;
use locklab::scenario::{catalog, Scenario};
use locklab::theme::Theme;
use locklab::timeline::draw::export;
use locklab::timeline::draw::svg::Esc;
use locklab::timeline::draw::Geometry;
use locklab::timeline::Timeline;

/// The widths drawn (the diagram box's content width, px): a phone (360 px wide, less the
/// page's padding and the box's border; a phone's scrollbar takes no room) and a desktop (1280 px). The page shows the one for
/// the box's layout (narrow under 640 px) scaled to fit a box of the live diagram's size:
/// lane heights do not depend on the width, so the box is exactly the live one.
const WIDTHS: [u32; 2] = [342, 1246];

/// Embeds (issue 25): a frame's diagram box is short, and a figure at natural lane heights
/// scaled into it had 7 px type at 640×360. Each built-in is also drawn as an embed lays it
/// out in the frames a docs page most often gives it (320×240, 640×360, 800×450): the diagram
/// box's width and height there (measured in the app), lanes fitted to the height. An embed
/// of another size shows the nearest frame's figure, scaled to fit its box.
const EMBEDS: [(u32, u32, u32, u32); 3] = [(320, 240, 310, 132), (640, 360, 626, 210), (800, 450, 786, 301)];

/// One built-in's figures at one width, and its intro paragraph as the app writes it.
struct Drawn {
    id: String,
    /// The switches as shipped, as a link writes them: a link that sets another value shows
    /// another run, which is not pre-drawn.
    fencing: bool,
    safe_unlock: bool,
    seed: u64,
    /// The file's key: the width ("342"), or an embed's frame ("e640x360").
    key: String,
    intro: String,
    moments: Vec<(i64, String)>,
}

/// The instants drawn: the start and each key moment (the same millisecond once).
fn moments(t: &Timeline) -> Vec<i64> {
    let mut at: Vec<i64> = std::iter::once(0).chain(t.key_moments.iter().map(|k| k.at)).collect();
    at.sort_unstable();
    at.dedup();
    at
}

/// `export::figure` for the page: no XML declaration, no stylesheet (the page's own applies),
/// and as wide as its box (`width="100%"`, scaled to fit, never stretched).
fn for_page(figure: &str) -> String {
    let start = figure.find("<svg").unwrap_or(0);
    let mut svg = figure[start..].trim_end().to_string();
    if let (Some(a), Some(b)) = (svg.find("<style>"), svg.find("</style>")) {
        let end = b + "</style>".len();
        svg.replace_range(a..end + usize::from(svg[end..].starts_with('\n')), "");
    }
    // No titles: the figure's names the moment (without it, every moment's figure starts with
    // the same static drawing), the others are tooltips (a quarter of the bytes) of a picture
    // for the eye only (aria-hidden: the app's own diagram is what a screen reader reads).
    let mut parts = svg.split("<title>");
    let mut bare = parts.next().unwrap_or_default().to_string();
    for part in parts {
        bare.push_str(part.split_once("</title>").map_or(part, |(_, after)| after.trim_start_matches('\n')));
    }
    let mut svg = bare;
    if let Some(w) = svg.find(" width=\"") {
        let end = svg[w + 8..].find('"').map_or(w, |e| w + 8 + e + 1);
        svg.replace_range(w..end, r#" width="100%" preserveAspectRatio="xMinYMin meet" aria-hidden="true""#);
    }
    svg
}

/// The app's intro paragraph for `s` (ui/app.rs `intro`), the same text in the same element.
fn intro(s: &Scenario) -> String {
    format!(r#"<p class="intro fp"><span class="approach">{}</span>{}</p>"#, Esc(s.approach.label()), Esc(&s.intro))
}

/// `s` at each of its moments, `width` px wide, its lanes fitted to `height` (an embed's box).
fn draw(s: &Scenario, key: String, width: u32, height: Option<u32>) -> Drawn {
    let run = lab::run(s);
    let t = Timeline::of_run(&run);
    let g = match height {
        Some(h) => Geometry::fitted(&t, width as f64, h as f64, false),
        None => Geometry::new(&t, width as f64, false),
    };
    let moments = moments(&t).into_iter().map(|at| (at, for_page(&export::figure_in(&run, &t, at, &g, Theme::Light, "")))).collect();
    Drawn { id: s.id.clone(), fencing: s.storage.fencing, safe_unlock: s.lock.safe_unlock, seed: s.seed, key, intro: intro(s), moments }
}

/// A JSON string.
fn json(s: &str) -> String {
    serde_json::to_string(s).expect("a string serializes")
}

/// The bytes every moment's figure starts with, and ends with (at a char boundary).
fn common(svgs: &[&str]) -> (usize, usize) {
    let first = svgs[0];
    let prefix = svgs.iter().map(|s| first.bytes().zip(s.bytes()).take_while(|(a, b)| a == b).count()).min().unwrap_or(0);
    let rest = svgs.iter().map(|s| s.len() - prefix).min().unwrap_or(0);
    let suffix =
        svgs.iter().map(|s| first.bytes().rev().zip(s.bytes().rev()).take_while(|(a, b)| a == b).count()).min().unwrap_or(0).min(rest);
    let back = |mut i: usize, step: fn(usize) -> usize| {
        while !first.is_char_boundary(i) {
            i = step(i);
        }
        i
    };
    (back(prefix, |i| i - 1), first.len() - back(first.len() - suffix, |i| i + 1))
}

/// A built-in's file: its intro, and its figures with what they share written once (the
/// static drawing comes first in each): figure k is `p + m[k][1] + s`.
fn file_text(d: &Drawn) -> String {
    let svgs: Vec<&str> = d.moments.iter().map(|(_, s)| s.as_str()).collect();
    let (p, s) = common(&svgs);
    let first = svgs[0];
    let moments: Vec<String> = d.moments.iter().map(|(at, svg)| format!("[{at},{}]", json(&svg[p..svg.len() - s]))).collect();
    format!(
        "{{\"fencing\":{},\"safe_unlock\":{},\"seed\":{},\"i\":{},\"p\":{},\"s\":{},\"m\":[\n{}\n]}}\n",
        d.fencing,
        d.safe_unlock,
        d.seed,
        json(&d.intro),
        json(&first[..p]),
        json(&first[first.len() - s..]),
        moments.join(",\n")
    )
}

/// FNV-1a, 64 bits: the folder's name follows its content (no clock, no randomness).
fn hash(texts: &[String]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in texts.iter().flat_map(|t| t.bytes().chain([0])) {
        h = (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// The placeholder's `<main>`: the default built-in (the first of `ids`) at its start.
fn main_element(dir: &str, ids: &[&str], first: &[&Drawn]) -> String {
    let d = first[0];
    let widths: Vec<String> = WIDTHS.iter().map(|w| w.to_string()).collect();
    let frames: Vec<String> = EMBEDS.iter().map(|(w, h, ..)| format!("{w}x{h}")).collect();
    let mut out = format!(
        r#"<main data-paint="{dir}" data-paint-ids="{}" data-paint-widths="{}" data-paint-frames="{}"><div class="stage">{}"#,
        Esc(&ids.join(" ")),
        widths.join(" "),
        frames.join(" "),
        d.intro
    );
    for d in first {
        let _ = write!(
            out,
            r#"<figure class="diagram-wrap fp fp-inline fp-{}" data-testid="first-paint" data-at="0">{}</figure>"#,
            d.key, d.moments[0].1
        );
    }
    out.push_str(
        r#"<p class="intro boot-line">Loading the simulator… until it is here, the diagram is a picture of the run.</p></div></main>"#,
    );
    out
}

fn main() {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: first-paint DIR   (DIR: the build folder with index.html)");
        std::process::exit(2);
    };
    let dir = Path::new(&dir);
    let index = dir.join("index.html");
    let html = std::fs::read_to_string(&index).unwrap_or_else(|e| {
        eprintln!("first-paint: cannot read {}: {e}", index.display());
        std::process::exit(2);
    });
    let (Some(a), Some(b)) = (html.find("<main"), html.find("</main>")) else {
        // Another page built with the same hook (the benchmark's bare-Yew floor): nothing to draw.
        println!("first-paint: {} has no <main> placeholder; nothing drawn", index.display());
        return;
    };

    let catalog = catalog::all();
    let drawn: Vec<Drawn> = catalog
        .iter()
        .flat_map(|s| {
            let widths = WIDTHS.map(|w| draw(s, w.to_string(), w, None));
            let embeds = EMBEDS.map(|(fw, fh, w, h)| draw(s, format!("e{fw}x{fh}"), w, Some(h)));
            widths.into_iter().chain(embeds)
        })
        .collect();
    let texts: Vec<String> = drawn.iter().map(file_text).collect();
    let folder = format!("paint-{}/", hash(&texts));
    let out = dir.join(&folder);
    // A rebuild into the same folder leaves no old figures behind.
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        if e.file_name().to_string_lossy().starts_with("paint-") {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
    std::fs::create_dir_all(&out).expect("create the figures' folder");
    let mut figures = 0;
    for (d, text) in drawn.iter().zip(&texts) {
        std::fs::write(out.join(format!("{}-{}.json", d.id, d.key)), text).expect("write a figure file");
        figures += d.moments.len();
    }
    // Inline, the desktop's alone: each page of the app (every embed in a docs page is one)
    // carries it; a phone's box fetches its width's file like any other address.
    let desktop = WIDTHS[WIDTHS.len() - 1].to_string();
    let first: Vec<&Drawn> = drawn.iter().filter(|d| d.id == catalog[0].id && d.key == desktop).collect();
    let ids: Vec<&str> = catalog.iter().map(|s| s.id.as_str()).collect();
    let page = format!("{}{}{}", &html[..a], main_element(&folder, &ids, &first), &html[b + "</main>".len()..]);
    std::fs::write(&index, page).expect("write index.html");
    println!(
        "first-paint: {figures} figures of {} built-ins at {:?} px and in {:?} embeds in {} files under {folder}; {} at {} px inline in index.html",
        catalog.len(),
        WIDTHS,
        EMBEDS.map(|(w, h, ..)| format!("{w}×{h}")),
        drawn.len(),
        first[0].id,
        first[0].key
    );
}
