//! A run at one moment as a self-contained SVG file: what the app shows at that cursor (the
//! static drawing, the future veiled, the labels of what has happened, messages in flight,
//! lane names with their states and clocks, the cursor and its time) with the diagram's
//! stylesheet inlined, so it opens in a browser, Inkscape or a slide deck looking the same.
//! The CLI (`locklab svg`) and the app's export button both call `figure`.

use std::fmt::Write;

use super::svg::{Esc, N};
use super::{backdrop, lanes, live, scene, Drawing, Geometry, DEFS};
use crate::decimal::seconds;
use crate::lab::Run;
use crate::scenario::Scenario;
use crate::sim::Time;
use crate::theme::Theme;
use crate::timeline::Timeline;

/// An exported figure's width in px unless asked otherwise: the same picture whatever the
/// window it was exported from (the CLI and the app agree), and wide enough for a slide.
pub const FIGURE_WIDTH: f64 = 1280.0;

/// The diagram's stylesheet, for the CLI and tests. The browser app never names it (it reads
/// the same file back from the page's stylesheet, `ui::export`), and a `const` is only emitted
/// where it is used, so the wasm bundle carries no second copy of it.
pub const STYLESHEET: &str = include_str!("../../../styles/diagram.css");

/// The figure of `run` (drawn as `t`) at true time `at`, `width` px wide. `css` is the text of
/// styles/diagram.css (or the browser's serialisation of it); its colours are `theme`'s.
pub fn figure(run: &Run, t: &Timeline, at: Time, width: f64, lecture: bool, theme: Theme, css: &str) -> String {
    figure_in(run, t, at, &Geometry::new(t, width, lecture), theme, css)
}

/// `figure`, laid out by `g` (an embed's: its lanes fitted to the frame's diagram box).
pub fn figure_in(run: &Run, t: &Timeline, at: Time, g: &Geometry, theme: Theme, css: &str) -> String {
    let (g, lecture) = (g.clone(), g.lecture);
    let drawing = scene(t, &g);
    let at = at.clamp(0, t.duration_ms);
    let (w, h) = (N(g.width), N(g.height));
    let mut out = String::new();
    let _ = writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    // The lecture's type sizes hang off a `.lecture` ancestor of `.diagram`, as in the page.
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" class="{}">"#,
        if lecture { "lecture" } else { "figure" }
    );
    let _ = writeln!(out, "<title>{}</title>", Esc(&title(&run.scenario, at)));
    // CDATA: the stylesheet is text, not markup, whatever characters a selector holds.
    let _ = writeln!(out, "<style><![CDATA[\n{}]]></style>", standalone_css(css, lecture, theme).replace("]]>", "]]]]><![CDATA[>"));
    let _ = write!(out, r#"<g class="diagram"><rect class="paper" width="{w}" height="{h}"/>"#);
    out.push_str(DEFS);
    out.push_str(&at_moment(t, &g, &drawing, at, None));
    out.push_str("</g>\n</svg>\n");
    out
}

/// What the app draws at true time `at` up to event `upto` there (None: all of `at`'s events),
/// over the paper: the backdrop, the run's shapes with the future veiled, the labels of what has
/// happened, messages in flight, the lane column and the cursor. A figure's, and each panel's
/// of a strip (`story`); the hatch patterns (`DEFS`) are the document's, written once.
pub fn at_moment(t: &Timeline, g: &Geometry, drawing: &Drawing, at: Time, upto: Option<usize>) -> String {
    let cursor = at as f64;
    let x = g.x(cursor);
    let mut out = backdrop(t, g);
    out.push_str(&drawing.shapes);
    // The future stays visible but faint, as in the app; what has not happened yet has no labels.
    let _ = write!(
        out,
        r#"<rect class="future" x="{}" y="{}" width="{}" height="{}"/>"#,
        N(x),
        N(g.axis_h - 6.0),
        N(g.width - x),
        N(g.height - g.axis_h + 6.0)
    );
    let (flying, banner) = live::layer(t, g, drawing, cursor);
    out.push_str(&flying.dots);
    out.push_str(&drawing.label_markup(drawing.labels_upto(at, upto)));
    out.push_str(&flying.labels);
    out.push_str(&banner);
    out.push_str(&lanes::labels(t, g, at, upto));
    out.push_str(&live::cursor(g, cursor));
    out
}

/// "Lock Lab · Redis: GC pause after acquire · fencing off · seed 42 · at 15.502 s".
pub fn title(s: &Scenario, at: Time) -> String {
    format!("{} · at {}", run_title(s), seconds(at))
}

/// "Lock Lab · Redis: GC pause after acquire · fencing off · seed 42": a whole run's.
pub fn run_title(s: &Scenario) -> String {
    format!("Lock Lab · {} · fencing {} · seed {}", s.title, if s.storage.fencing { "on" } else { "off" }, s.seed)
}

/// A file name for an export: "redis-gc-pause-t15502.svg", "-fencing-on" when it is on, no
/// time for a whole run (`at` None). The id is the scenario's own, so only letters, digits,
/// `-` and `_` are kept from it (a user's scenario may have any id).
pub fn file_name(s: &Scenario, at: Option<Time>, ext: &str) -> String {
    let mut name: String = s.id.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '-' }).collect();
    if name.trim_matches('-').is_empty() {
        name = "scenario".into();
    }
    if s.storage.fencing {
        name.push_str("-fencing-on");
    }
    if let Some(at) = at {
        let _ = write!(name, "-t{at}");
    }
    let _ = write!(name, ".{ext}");
    name
}

/// The stylesheet made to stand alone in a figure, for viewers with no CSS variables
/// (Inkscape): the palette's `var(--x)` are replaced by their values (`theme`'s over the
/// light one, `:root`) and the variables and the themes' own rules dropped; at-rules (media
/// queries, animations) are the page's business and lecture-only rules are dropped from a
/// normal figure.
pub fn standalone_css(css: &str, lecture: bool, theme: Theme) -> String {
    let vars = palette(css, theme);
    let css = strip_comments(css);
    let rules = rules(&css);
    let is_theme = |sel: &str| Theme::ALL.iter().any(|t| t.selector() == Some(sel));
    let mut out = String::new();
    for (sel, body) in &rules {
        if sel.starts_with('@') || is_theme(sel) || (!lecture && sel.split(',').all(|s| s.trim_start().starts_with(".lecture"))) {
            continue;
        }
        let decls: Vec<String> =
            declarations(body).filter(|(k, _)| !k.starts_with("--")).map(|(k, v)| format!("{k}: {}", resolve(v, &vars, 0))).collect();
        if !decls.is_empty() {
            let _ = writeln!(out, "{sel} {{ {}; }}", decls.join("; "));
        }
    }
    out
}

/// `theme`'s palette in the stylesheet `css`: the light one's variables (`:root`), then the
/// theme's rule's, in order, so that the last of a name wins as in the cascade. tests/palette.rs
/// holds each theme's contrast to it.
pub fn palette(css: &str, theme: Theme) -> Vec<(String, String)> {
    let css = strip_comments(css);
    let rules = rules(&css);
    let mut vars = Vec::new();
    for palette in std::iter::once(":root").chain(theme.selector()) {
        for (_, body) in rules.iter().filter(|(sel, _)| *sel == palette) {
            vars.extend(declarations(body).filter(|(k, _)| k.starts_with("--")).map(|(k, v)| (k.to_string(), v.to_string())));
        }
    }
    vars
}

fn strip_comments(css: &str) -> String {
    let mut out = String::with_capacity(css.len());
    let mut rest = css;
    while let Some(i) = rest.find("/*") {
        out.push_str(&rest[..i]);
        rest = rest[i + 2..].find("*/").map_or("", |j| &rest[i + 2 + j + 2..]);
    }
    out.push_str(rest);
    out
}

/// Top-level rules as (prelude, body); an at-rule's body is its whole nested block.
fn rules(css: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let mut rest = css;
    while let Some(open) = rest.find('{') {
        let mut depth = 0;
        let mut close = rest.len();
        for (i, c) in rest[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        close = open + i;
                        break;
                    }
                }
                _ => {}
            }
        }
        out.push((rest[..open].trim(), &rest[open + 1..close]));
        rest = rest.get(close + 1..).unwrap_or("");
    }
    out
}

/// A rule body's `property: value` pairs, trimmed.
fn declarations(body: &str) -> impl Iterator<Item = (&str, &str)> {
    body.split(';').filter_map(|d| d.split_once(':')).map(|(k, v)| (k.trim(), v.trim())).filter(|(k, _)| !k.is_empty())
}

/// `value` with every `var(--x)` / `var(--x, fallback)` replaced; an unknown variable with no
/// fallback is left as written (the browser still resolves it; nothing better exists).
fn resolve(value: &str, vars: &[(String, String)], depth: u8) -> String {
    let mut out = String::new();
    let mut rest = value;
    while let Some(i) = rest.find("var(") {
        out.push_str(&rest[..i]);
        let args = i + 4;
        let mut open = 1;
        let Some(close) = rest[args..].char_indices().find_map(|(j, c)| {
            open += match c {
                '(' => 1,
                ')' => -1,
                _ => 0,
            };
            (open == 0).then_some(args + j)
        }) else {
            break;
        };
        let inner = &rest[args..close];
        let (name, fallback) = match inner.split_once(',') {
            Some((n, f)) => (n.trim(), Some(f.trim())),
            None => (inner.trim(), None),
        };
        match vars.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v.as_str()).or(fallback) {
            // A variable may name another; a cycle stops at a depth no real palette reaches.
            Some(v) if depth < 8 => out.push_str(&resolve(v, vars, depth + 1)),
            _ => out.push_str(&rest[i..=close]),
        }
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variables_are_resolved_with_the_theme_palette_over_the_light_one() {
        let css = ":root { --ink: #111; --c: var(--ink) }\n[data-theme=\"dark\"] { color-scheme: dark; --ink: #eee }\n/* a { b } */\n\
                   .a { fill: var(--ink); stroke: var(--c); }\n.b { fill: var(--nope, red) }\n.lecture .a { font-size: 14px }\n\
                   @media (max-width: 9px) { .a { fill: blue } }";
        let plain = standalone_css(css, false, Theme::Light);
        assert_eq!(plain, ".a { fill: #111; stroke: #111; }\n.b { fill: red; }\n");
        let dark = standalone_css(css, true, Theme::Dark);
        assert!(dark.starts_with(".a { fill: #eee; stroke: #eee; }\n"), "{dark}");
        assert!(dark.contains(".lecture .a { font-size: 14px; }"));
        assert!(!dark.contains("color-scheme"), "the theme's own rule is the page's: {dark}");
    }

    #[test]
    fn the_real_stylesheet_stands_alone_in_every_theme() {
        for theme in Theme::ALL {
            for lecture in [false, true] {
                let css = standalone_css(STYLESHEET, lecture, theme);
                assert!(!css.contains("var("), "{css}");
                assert!(!css.contains("--"), "{css}");
                assert!(!css.contains("data-theme"), "{css}");
            }
        }
        let colour = |theme| standalone_css(STYLESHEET, false, theme).lines().find(|l| l.starts_with(".h0 ")).unwrap().to_string();
        assert_eq!(colour(Theme::Light), ".h0 { color: #0072b2; }");
        assert_eq!(colour(Theme::Dark), ".h0 { color: #56b4e9; }");
        assert_eq!(colour(Theme::Projector), ".h0 { color: #005a8e; }");
    }
}
