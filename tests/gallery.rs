//! The gallery's rule, so it cannot rot: git keeps an image under assets/ only while README.md or
//! a page in docs/ shows it, and every local image those pages show exists. Images are taken by
//! scripts/gallery.mjs, which adds a missing one and never rewrites a tracked one; the test
//! command never writes them (docs/APP.md, "The pictures on these pages").

#[path = "support/paths.rs"]
mod paths;
use paths::normalize;
use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

const IMAGE_TYPES: [&str; 6] = ["png", "webp", "svg", "jpg", "jpeg", "gif"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// README.md and every Markdown or HTML page in docs/, repository-relative.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![PathBuf::from("README.md")];
    let mut docs: Vec<PathBuf> = fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| PathBuf::from("docs").join(e.unwrap().file_name()))
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("md" | "html")))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// The targets of Markdown links and images (`](target)`) and of HTML `src="target"`.
fn link_targets(text: &str) -> Vec<&str> {
    let mut targets = Vec::new();
    for opener in ["](", "src=\""] {
        for (at, _) in text.match_indices(opener) {
            let rest = &text[at + opener.len()..];
            let end = rest.find([')', '"', ' ', '\n', '#', '?']).unwrap_or(rest.len());
            targets.push(&rest[..end]);
        }
    }
    targets
}

fn is_image(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| IMAGE_TYPES.contains(&e.to_ascii_lowercase().as_str()))
}

/// Every local image a page shows or links, repository-relative, with the page that names it.
fn shown_images() -> Vec<(PathBuf, PathBuf)> {
    let mut shown = Vec::new();
    for page in pages() {
        let text = fs::read_to_string(root().join(&page)).unwrap();
        for target in link_targets(&text) {
            if target.contains("://") || target.starts_with("data:") || !is_image(Path::new(target)) {
                continue;
            }
            let dir = page.parent().unwrap_or(Path::new(""));
            shown.push((normalize(&dir.join(target)), page.clone()));
        }
    }
    shown
}

/// Every file under `dir`, repository-relative.
fn files_under(dir: &Path, out: &mut BTreeSet<PathBuf>) {
    let Ok(entries) = fs::read_dir(root().join(dir)) else { return };
    for entry in entries {
        let entry = entry.unwrap();
        let path = dir.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            files_under(&path, out);
        } else {
            out.insert(path);
        }
    }
}

#[test]
fn every_image_a_page_shows_exists() {
    let missing: Vec<String> = shown_images()
        .into_iter()
        .filter(|(image, _)| !root().join(image).is_file())
        .map(|(image, page)| format!("{} (shown by {})", image.display(), page.display()))
        .collect();
    assert!(
        missing.is_empty(),
        "images the pages show but the repository lacks (make them with `node scripts/gallery.mjs`):\n{}",
        missing.join("\n")
    );
}

#[test]
fn every_file_under_assets_is_shown_by_a_page() {
    let shown: BTreeSet<PathBuf> = shown_images().into_iter().map(|(image, _)| image).collect();
    let mut kept = BTreeSet::new();
    files_under(Path::new("assets"), &mut kept);
    let orphans: Vec<String> = kept.difference(&shown).map(|p| p.display().to_string()).collect();
    assert!(
        orphans.is_empty(),
        "files under assets/ that README.md and docs/ never show (delete them, or show them on a page):\n{}",
        orphans.join("\n")
    );
}

#[test]
fn the_rule_reads_links_images_and_html_sources() {
    let text = "![a](assets/x.png) [b](assets/y.svg \"title\") <img src=\"../assets/z.webp\"> [c](https://e.org/w.png) [d](#anchor)";
    assert_eq!(link_targets(text), ["assets/x.png", "assets/y.svg", "https://e.org/w.png", "", "../assets/z.webp"]);
    assert_eq!(normalize(Path::new("docs/../assets/z.webp")), PathBuf::from("assets/z.webp"));
}
