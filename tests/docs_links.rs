//! The docs cannot drift from the tree: for README.md and every docs/*.md page, every relative
//! link names a file that exists, every `#anchor` names a heading of its target (GitHub's slug
//! rules), every repository path written in backticks or in a code block exists, and every
//! measured figure linked to a docs/measured/*.json file equals the value that file holds
//! (docs/PERFORMANCE.md, "Where the figures come from"). Plain file reads: milliseconds.

#[path = "support/paths.rs"]
mod paths;
use paths::normalize;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The folders a path must start with to count as a repository path ("looks like a path").
const REPO_DIRS: [&str; 8] = ["src/", "tests/", "scripts/", "docs/", "assets/", "real/", "room/", "styles/"];

/// README.md and every Markdown page in docs/, repository-relative, in a fixed order.
fn pages() -> Vec<PathBuf> {
    let mut docs: Vec<PathBuf> = fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| PathBuf::from("docs").join(e.unwrap().file_name()))
        .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("md"))
        .collect();
    docs.sort();
    let mut pages = vec![PathBuf::from("README.md")];
    pages.extend(docs);
    pages
}

/// What one page says that can be checked, read without a Markdown library (the pages keep to
/// inline links, ATX headings and fenced code blocks).
#[derive(Debug, Default)]
struct Page {
    /// The anchors its headings (and `<a id="…">`) define, as GitHub writes them.
    anchors: Vec<String>,
    /// `(line, text, target)` of every inline link or image, and of HTML `href`/`src`.
    links: Vec<(usize, String, String)>,
    /// `(line, text)` of every inline code span and every line of a fenced code block.
    code: Vec<(usize, String)>,
    /// `(line, path)` of every repository file named in plain prose, outside code: a word that
    /// starts with one of [`REPO_DIRS`] and ends in a file extension (`src/sim/host.rs`).
    prose_paths: Vec<(usize, String)>,
}

fn read_page(text: &str) -> Page {
    let mut page = Page::default();
    let mut slugs = Slugs::default();
    let mut fence: Option<&str> = None;
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        let trimmed = line.trim_start();
        if let Some(open) = fence {
            if trimmed.starts_with(open) {
                fence = None;
            } else {
                page.code.push((number, line.to_string()));
            }
            continue;
        }
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fence = Some(&trimmed[..3]);
            continue;
        }
        let spans = code_spans(line);
        page.code.extend(spans.iter().map(|&(from, to)| (number, line[from..to].to_string())));
        let masked = mask(line, &spans);
        let prose = without_link_targets(&masked);
        page.prose_paths.extend(repo_paths(&prose).into_iter().filter(|p| has_extension(p)).map(|p| (number, p)));
        if let Some(title) = heading(&masked) {
            // The heading's text as rendered: code spans keep their content, links their text.
            let rendered = rendered_text(&line[line.len() - title.len()..]);
            page.anchors.push(slugs.next(&rendered));
        }
        for (text, target) in inline_links(line, &masked) {
            page.links.push((number, text, target));
        }
        for attr in ["href=\"", "src=\"", "id=\"", "name=\""] {
            for (at, _) in masked.match_indices(attr) {
                let rest = &line[at + attr.len()..];
                let value = &rest[..rest.find('"').unwrap_or(rest.len())];
                if attr == "id=\"" || attr == "name=\"" {
                    page.anchors.push(value.to_string());
                } else {
                    page.links.push((number, String::new(), value.to_string()));
                }
            }
        }
    }
    page
}

/// Byte ranges of the contents of the line's inline code spans (a run of backticks closed by a
/// run of the same length).
fn code_spans(line: &str) -> Vec<(usize, usize)> {
    let bytes = line.as_bytes();
    let mut spans = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] != b'`' {
            at += 1;
            continue;
        }
        let run = bytes[at..].iter().take_while(|&&b| b == b'`').count();
        let open_end = at + run;
        let closer = "`".repeat(run);
        let mut search = open_end;
        let mut closed = None;
        while let Some(found) = line[search..].find(&closer) {
            let start = search + found;
            let len = bytes[start..].iter().take_while(|&&b| b == b'`').count();
            if len == run {
                closed = Some(start);
                break;
            }
            search = start + len;
        }
        match closed {
            Some(close) => {
                spans.push((open_end, close));
                at = close + run;
            }
            None => at = open_end,
        }
    }
    spans
}

/// The line with every code span's content blanked, so brackets and quotes inside code are
/// not read as links (byte offsets stay those of the line).
fn mask(line: &str, spans: &[(usize, usize)]) -> String {
    let mut masked = line.as_bytes().to_vec();
    for &(from, to) in spans {
        masked[from..to].fill(b' ');
    }
    // Blanking whole code spans replaces whole UTF-8 sequences with spaces: still valid.
    String::from_utf8(masked).unwrap()
}

/// The title of an ATX heading (`## Title`), else None.
fn heading(masked: &str) -> Option<&str> {
    let trimmed = masked.trim_start();
    let hashes = trimmed.bytes().take_while(|&b| b == b'#').count();
    let rest = &trimmed[hashes..];
    ((1..=6).contains(&hashes) && rest.starts_with(' ')).then(|| rest.trim_start())
}

/// `[text](target "title")` and `![alt](target)`, found on the masked line; text and target
/// are cut from the line itself.
fn inline_links(line: &str, masked: &str) -> Vec<(String, String)> {
    let mut links = Vec::new();
    let bytes = masked.as_bytes();
    for (open, _) in masked.match_indices('[') {
        let mut depth = 0;
        let mut close = None;
        for (i, &b) in bytes.iter().enumerate().skip(open) {
            match b {
                b'[' => depth += 1,
                b']' => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(i);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(close) = close else { continue };
        if bytes.get(close + 1) != Some(&b'(') {
            continue;
        }
        let Some(end) = masked[close + 2..].find(')') else { continue };
        let inside = &line[close + 2..close + 2 + end];
        let target = inside.split_whitespace().next().unwrap_or("");
        links.push((line[open + 1..close].to_string(), target.to_string()));
    }
    links
}

/// A heading's text as GitHub renders it before making its slug: code spans keep their content,
/// links keep their text, emphasis marks go.
fn rendered_text(title: &str) -> String {
    let masked = mask(title, &code_spans(title));
    let mut out = title.to_string();
    for (text, target) in inline_links(title, &masked) {
        out = out.replace(&format!("[{text}]({target})"), &text);
    }
    out.replace(['`', '*'], "")
}

/// GitHub's heading anchors: lower case, every character that is not a letter, a digit, `-`,
/// `_` or a space dropped, spaces turned into `-`; a repeated slug gets `-1`, `-2`, ….
#[derive(Default)]
struct Slugs(BTreeMap<String, usize>);

impl Slugs {
    fn next(&mut self, text: &str) -> String {
        let slug: String = text
            .trim()
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let seen = self.0.entry(slug.clone()).or_insert(0);
        let anchor = if *seen == 0 { slug } else { format!("{slug}-{seen}") };
        *seen += 1;
        anchor
    }
}

fn is_external(target: &str) -> bool {
    target.contains("://") || target.starts_with("mailto:") || target.starts_with("data:")
}

/// The repository paths a code span or code line names: each word that starts with one of
/// [`REPO_DIRS`], cut at a `:line` or `::item` suffix and trailing punctuation.
fn repo_paths(code: &str) -> Vec<String> {
    code.split(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | '"' | '\'' | '`' | ',' | ';' | '='))
        .filter(|word| REPO_DIRS.iter().any(|dir| word.starts_with(dir)))
        .map(|word| {
            let word = word.split("::").next().unwrap().split('#').next().unwrap();
            let word = match word.rsplit_once(':') {
                Some((path, line)) if line.chars().all(|c| c.is_ascii_digit()) => path,
                _ => word,
            };
            word.trim_end_matches(['.', ':', ',']).to_string()
        })
        .collect()
}

/// The masked line with every `](target)` blanked: link targets are checked as links, and a
/// target relative to a docs page is not a repository path.
fn without_link_targets(masked: &str) -> String {
    let mut out = masked.to_string();
    let mut from = 0;
    while let Some(at) = out[from..].find("](") {
        let start = from + at + 2;
        let end = out[start..].find(')').map_or(out.len(), |e| start + e);
        out.replace_range(start..end, &" ".repeat(end - start));
        from = end;
    }
    out
}

/// `docs/APP.md` yes, `src/protocols` no: a bare folder name in prose is as often a module's
/// name as a path, so prose is held only to file names.
fn has_extension(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.rsplit_once('.').is_some_and(|(stem, ext)| !stem.is_empty() && !ext.is_empty() && ext.chars().all(|c| c.is_ascii_alphanumeric()))
}

/// Does a repository path exist? `*` and `<placeholder>` stand for any part of one name
/// (`tests/web*.rs`, `src/scenario/catalog/<id>.json`): some file must then match.
fn path_exists(root: &Path, path: &str) -> bool {
    let mut here = vec![root.to_path_buf()];
    for part in path.trim_end_matches('/').split('/') {
        let pattern = placeholders_to_stars(part);
        let mut next = Vec::new();
        for dir in &here {
            if !pattern.contains('*') {
                let candidate = dir.join(part);
                if candidate.exists() {
                    next.push(candidate);
                }
                continue;
            }
            let Ok(entries) = fs::read_dir(dir) else { continue };
            for entry in entries.flatten() {
                if glob_match(&pattern, &entry.file_name().to_string_lossy()) {
                    next.push(entry.path());
                }
            }
        }
        here = next;
    }
    !here.is_empty()
}

fn placeholders_to_stars(part: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for c in part.chars() {
        match c {
            '<' => {
                inside = true;
                out.push('*');
            }
            '>' => inside = false,
            _ if !inside => out.push(c),
            _ => {}
        }
    }
    out
}

/// `*` matches any run of characters (one name only: the caller splits at `/`).
fn glob_match(pattern: &str, name: &str) -> bool {
    let mut pieces = pattern.split('*');
    let first = pieces.next().unwrap();
    let Some(mut rest) = name.strip_prefix(first) else { return false };
    let pieces: Vec<&str> = pieces.collect();
    for (i, piece) in pieces.iter().enumerate() {
        if i + 1 == pieces.len() {
            return rest.len() >= piece.len() && rest.ends_with(piece);
        }
        match rest.find(piece) {
            Some(at) => rest = &rest[at + piece.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// A measured figure: a link into docs/measured/*.json whose fragment is the key path of a
/// number there (`[2,256 ms](measured/load.json#slow.live_answers_p50_ms)`); the link text's
/// first number must equal it.
fn check_figure(text: &str, json_path: &Path, key: &str) -> Result<(), String> {
    let source = fs::read_to_string(json_path).map_err(|e| format!("cannot read it: {e}"))?;
    let value: serde_json::Value = serde_json::from_str(&source).map_err(|e| format!("not JSON: {e}"))?;
    let mut at = &value;
    for part in key.split('.') {
        at = at.get(part).ok_or_else(|| format!("has no key `{key}`"))?;
    }
    let recorded = at.as_f64().ok_or_else(|| format!("`{key}` is not a number"))?;
    let quoted = first_number(text).ok_or_else(|| format!("the link text {text:?} quotes no number"))?;
    if (quoted - recorded).abs() > 1e-9 {
        return Err(format!("the page says {quoted}, the file holds {recorded} at `{key}`"));
    }
    Ok(())
}

/// The first number in a figure's text, thousands separators allowed, digits inside a word
/// skipped: "p50 2,256 ms" → 2256.
fn first_number(text: &str) -> Option<f64> {
    let start = text.char_indices().find(|&(at, c)| c.is_ascii_digit() && !text[..at].ends_with(|p: char| p.is_alphanumeric()))?.0;
    let negative = text[..start].ends_with(['-', '−']);
    let digits: String = text[start..].chars().take_while(|c| c.is_ascii_digit() || matches!(c, ',' | '.')).filter(|&c| c != ',').collect();
    let number: f64 = digits.trim_end_matches('.').parse().ok()?;
    Some(if negative { -number } else { number })
}

/// Every problem on one page (`page` repository-relative), each naming the line.
fn check_page(root: &Path, page: &Path, text: &str) -> Vec<String> {
    let read = read_page(text);
    let dir = page.parent().unwrap_or(Path::new(""));
    let mut problems = Vec::new();
    for (line, link_text, target) in &read.links {
        if target.is_empty() || is_external(target) {
            continue;
        }
        let at = format!("{}:{line}", page.display());
        let (file, fragment) = match target.split_once('#') {
            Some((file, fragment)) => (file, Some(fragment)),
            None => (target.split('?').next().unwrap(), None),
        };
        let resolved = if file.is_empty() { page.to_path_buf() } else { normalize(&dir.join(file)) };
        if resolved != page && !root.join(&resolved).exists() {
            problems.push(format!("{at}: link to {target}: {} does not exist", resolved.display()));
            continue;
        }
        let Some(fragment) = fragment else { continue };
        match resolved.extension().and_then(|e| e.to_str()) {
            Some("md") => {
                let anchors = if resolved == page {
                    read.anchors.clone()
                } else {
                    read_page(&fs::read_to_string(root.join(&resolved)).unwrap()).anchors
                };
                if !anchors.iter().any(|a| a == fragment) {
                    problems.push(format!("{at}: link to {target}: no heading in {} has the anchor #{fragment}", resolved.display()));
                }
            }
            Some("json") => {
                if let Err(why) = check_figure(link_text, &root.join(&resolved), fragment) {
                    problems.push(format!("{at}: figure [{link_text}]({target}): {} {why}", resolved.display()));
                }
            }
            _ => {}
        }
    }
    for (line, code) in &read.code {
        for path in repo_paths(code) {
            if !path_exists(root, &path) {
                problems.push(format!("{}:{line}: `{path}` does not exist", page.display()));
            }
        }
    }
    for (line, path) in &read.prose_paths {
        if !path_exists(root, path) {
            problems.push(format!("{}:{line}: {path} does not exist", page.display()));
        }
    }
    problems
}

#[test]
fn every_link_anchor_path_and_figure_in_the_docs_exists() {
    let root = root();
    let mut problems = Vec::new();
    for page in pages() {
        let text = fs::read_to_string(root.join(&page)).unwrap();
        problems.extend(check_page(&root, &page, &text));
    }
    assert!(problems.is_empty(), "README.md and docs/ name what the repository lacks:\n{}", problems.join("\n"));
}

#[test]
fn the_readme_stays_a_front_door() {
    let text = fs::read_to_string(root().join("README.md")).unwrap();
    let lines = text.lines().count();
    assert!(lines <= 200, "README.md has {lines} lines (at most 200: the rest belongs in docs/)");
    let pictures = text.matches("![").count();
    assert!(pictures <= 3, "README.md shows {pictures} pictures (at most three: the others belong on a docs page)");
}

/// The limits table of docs/SCENARIO_FORMAT.md states `src/scenario/limits.rs`'s numbers: each
/// row's first number (and the tick's range) must be the constant the reader enforces.
#[test]
fn the_limits_table_states_the_readers_limits() {
    use locklab::scenario::limits::*;
    use locklab::scenario::lock_settings::thousands;
    let text = fs::read_to_string(root().join("docs/SCENARIO_FORMAT.md")).unwrap();
    let table = &text[text.find("## Limits").expect("docs/SCENARIO_FORMAT.md has a Limits section")..];
    let rows: BTreeMap<&str, &str> = table
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .filter_map(|l| l.trim_matches('|').split_once(" | "))
        .map(|(what, limit)| (what.trim(), limit.trim()))
        .collect();
    let expected: [(&str, f64); 12] = [
        ("clients", MAX_CLIENTS as f64),
        ("servers (Redlock instances, ZooKeeper/etcd ensemble)", f64::from(MAX_SERVERS)),
        ("simulated duration", MAX_DURATION_MS as f64),
        ("faults", MAX_FAULTS as f64),
        ("writes per client", f64::from(MAX_WRITES_PER_CLIENT)),
        ("lease TTL", MAX_TTL_MS as f64),
        ("one-way message latency", MAX_LATENCY_MS as f64),
        ("clock jump", MAX_CLOCK_JUMP_MS as f64),
        ("clock drift", MAX_DRIFT_PPM as f64),
        ("scenario file size", (MAX_SCENARIO_BYTES / 1024) as f64),
        ("trace events per run", MAX_TRACE_EVENTS as f64),
        ("retry delay", MIN_RETRY_MS as f64),
    ];
    for (what, value) in expected {
        let limit = rows.get(what).unwrap_or_else(|| panic!("the limits table has no row {what:?}"));
        assert_eq!(first_number(limit), Some(value), "the limits table says {what}: {limit}; limits.rs says {value}");
    }
    let name = rows["client name"];
    assert!(name.starts_with(&format!("1–{MAX_NAME_LEN} ")), "client name: {name}");
    let tick = rows["ZooKeeper tickTime (`lock.tick_ms`)"];
    assert_eq!(tick, format!("{}–{} ms", thousands(MIN_TICK_MS), thousands(MAX_TICK_MS)));
    let timeout = rows["request timeout (`lock.request_timeout_ms`)"];
    assert_eq!(timeout, format!("1–{} ms", thousands(MAX_REQUEST_TIMEOUT_MS)));
}

/// Every `lock` setting's range and default, as the code declares them (the common numbers'
/// `Param`s in src/scenario/lock_settings.rs, each approach's own `Setting`s), stands in README.md's
/// Limits and in docs/SCENARIO_FORMAT.md's, the same table generated from the same declarations:
/// change a bound or a default and this fails until both pages say so.
#[test]
fn every_lock_settings_range_and_default_is_in_the_readme_and_the_format_as_the_code_declares_it() {
    let table = locklab::scenario::lock_settings::table();
    for page in ["README.md", "docs/SCENARIO_FORMAT.md"] {
        let text = fs::read_to_string(root().join(page)).unwrap();
        let limits = &text[text.find("## Limits").unwrap_or_else(|| panic!("{page} has a Limits section"))..];
        assert!(limits.contains(&table), "{page}'s Limits should carry this table (src/scenario/lock_settings.rs):\n{table}");
    }
    // Each setting the reader knows has its row: the common numbers and every approach's own.
    for name in ["ttl_ms", "servers", "drift_factor", "retry_ms", "request_timeout_ms", "tick_ms"]
        .into_iter()
        .chain(locklab::protocols::config::setting_names())
    {
        assert!(table.contains(&format!("| `lock.{name}` |")), "no row for lock.{name}");
    }
}

/// The checker itself, on a made-up page: each broken kind of reference is reported, and
/// each sound one is not. Nothing is written: the page is a string, the tree is the repo's.
#[test]
fn the_checker_finds_each_broken_kind_on_a_made_up_page() {
    let root = root();
    let page = Path::new("docs/MADE_UP.md");
    let text = "\
# A made-up page

## The `redis` row: A's lease

[fine](../README.md) [fine anchor](#a-made-up-page) [code anchor](#the-redis-row-as-lease)
[missing file](NOPE.md) [missing anchor](../README.md#no-such-heading)
[html](embed-example.html) [outside](https://example.org/x.md) [me](MADE_UP.md#the-redis-row-as-lease)

Paths: `src/lab.rs`, `tests/docs_links.rs:12`, `src/scenario/catalog/<id>.json`, `tests/web*.rs`,
`src/check.rs`, `scripts/nope-*.sh`, `cargo run -- docs/NOPE.md`, `target/anything` and `Path::new`.
In prose: src/sim/host.rs, src/protocols as a module, and src/old_name.rs.

```sh
scripts/serve.sh
real/no-such-dir/x.rs
```
";
    let problems = check_page(&root, page, text);
    let reported = |needle: &str| problems.iter().any(|p| p.contains(needle));
    for broken in [
        "MADE_UP.md:6: link to NOPE.md",
        "#no-such-heading",
        "`src/check.rs` does not exist",
        "`scripts/nope-*.sh` does not exist",
        "`docs/NOPE.md` does not exist",
        "MADE_UP.md:15: `real/no-such-dir/x.rs` does not exist",
        "MADE_UP.md:11: src/old_name.rs does not exist",
    ] {
        assert!(reported(broken), "the checker missed {broken:?}; it reported:\n{}", problems.join("\n"));
    }
    assert_eq!(problems.len(), 7, "only the broken references: {problems:#?}");
}

#[test]
fn anchors_follow_githubs_slug_rules() {
    let mut slugs = Slugs::default();
    assert_eq!(slugs.next("The two commands"), "the-two-commands");
    assert_eq!(slugs.next("`db-lease` — a row with a TTL (PROTOCOLS.md P1)"), "db-lease--a-row-with-a-ttl-protocolsmd-p1");
    assert_eq!(
        slugs.next(&rendered_text("Side by side: [Compare](x.md), **1.2×** and `lock.ttl_ms`")),
        "side-by-side-compare-12-and-lockttl_ms"
    );
    assert_eq!(slugs.next("The two commands"), "the-two-commands-1");
    assert_eq!(slugs.next("The two commands"), "the-two-commands-2");
}

#[test]
fn figures_must_equal_their_file() {
    let scratch = root().join("target/docs_links");
    fs::create_dir_all(&scratch).unwrap();
    let file = scratch.join("figures.json");
    fs::write(&file, r#"{"slow": {"p50_ms": 2256, "kb": 327.5}}"#).unwrap();
    assert_eq!(check_figure("p50 2,256 ms", &file, "slow.p50_ms"), Ok(()));
    assert_eq!(check_figure("327.5 KB", &file, "slow.kb"), Ok(()));
    assert!(check_figure("2,265 ms", &file, "slow.p50_ms").unwrap_err().contains("the page says 2265"));
    assert!(check_figure("2,256 ms", &file, "slow.p95_ms").unwrap_err().contains("no key"));
    assert!(check_figure("about two seconds", &file, "slow.p50_ms").unwrap_err().contains("quotes no number"));
    assert_eq!(first_number("−1.5 KB"), Some(-1.5));
    assert_eq!(first_number("measured 2026"), Some(2026.0));
}

#[test]
fn paths_may_use_placeholders_and_globs_but_must_match_something() {
    let root = root();
    assert!(path_exists(&root, "src/scenario/catalog/<id>.json"));
    assert!(path_exists(&root, "tests/web*.rs"));
    assert!(path_exists(&root, "src/sim/"));
    assert!(!path_exists(&root, "tests/nothing*.rs"));
    assert!(!path_exists(&root, "src/<x>/nope.rs"));
    assert_eq!(
        repo_paths("see tests/in_the_wild.rs:231, src/lab.rs::run and (docs/ADDING.md)."),
        ["tests/in_the_wild.rs", "src/lab.rs", "docs/ADDING.md"]
    );
}
