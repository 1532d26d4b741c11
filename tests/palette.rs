//! Every theme's palette (styles/diagram.css) against WCAG 2.1's contrast minimums: text 4.5:1
//! (1.4.3) on every surface it is drawn on, the diagram's marks 3:1 (1.4.11) on the panel and
//! on an odd lane, and the projector's text well above both. axe (tests/e2e/specs/a11y.spec.ts)
//! checks the page's HTML text as rendered; it does not look inside the SVG, which is why the
//! diagram's colours are held here, by their roles.
//!
//! Not held, on purpose: lane lines, grid lines and the pause hatching are guides, not content
//! (every lane is named in words, every pause labelled "paused").

use locklab::theme::Theme;
use locklab::timeline::draw::export::{self, STYLESHEET};

/// The palette of `theme`, as an exported figure resolves it.
fn palette(theme: Theme) -> Vec<(String, String)> {
    export::palette(STYLESHEET, theme)
}

fn colour(vars: &[(String, String)], name: &str) -> [f64; 3] {
    // The last of a name wins, as in the cascade (the theme's over the light one's).
    let v = &vars.iter().rev().find(|(n, _)| n == name).unwrap_or_else(|| panic!("{name} is not in the palette")).1;
    let hex = v.strip_prefix('#').unwrap_or_else(|| panic!("{name}: {v} is not a #rrggbb colour"));
    assert_eq!(hex.len(), 6, "{name}: {v} is not #rrggbb");
    let c = |i: usize| f64::from(u8::from_str_radix(&hex[i..i + 2], 16).unwrap()) / 255.0;
    [c(0), c(2), c(4)]
}

/// WCAG 2.1's relative luminance and contrast ratio.
fn contrast(a: [f64; 3], b: [f64; 3]) -> f64 {
    let lum = |c: [f64; 3]| {
        let f = |x: f64| if x <= 0.03928 { x / 12.92 } else { ((x + 0.055) / 1.055).powf(2.4) };
        0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2])
    };
    let (x, y) = (lum(a), lum(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

const CLIENTS: [&str; 9] = ["--c0", "--c1", "--c2", "--c3", "--c4", "--c5", "--c6", "--c7", "--c-ink"];
/// Text colours and the surfaces they are drawn on, in the diagram and around it.
const WORDS: [&str; 7] = ["--ink", "--muted", "--bad", "--fault", "--ok", "--link", "--so-far"];
const SURFACES: [&str; 3] = ["--panel", "--bg", "--lane-odd"];
const BOXES: [&str; 7] = ["--chip", "--kbd", "--bad-bg", "--ok-bg", "--warn-bg", "--chosen-bg", "--hover-fault"];
/// A lesson's code block: its plain text and each highlighted role, on its ground.
const CODE: [&str; 5] = ["--ink", "--code-kw", "--code-str", "--code-com", "--code-num"];
/// What is written on a filled shape: the cursor's time, the stale banner, buttons, badges.
const FILLS: [&str; 4] = ["--ink", "--accent", "--bad", "--ok"];

/// Every (foreground, background, ratio) of `theme` that falls short of `least` for text.
fn short_text(theme: Theme, least: f64) -> Vec<String> {
    let p = palette(theme);
    let mut pairs: Vec<(&str, &str)> = Vec::new();
    for fg in CLIENTS.iter().chain(&WORDS) {
        pairs.extend(SURFACES.iter().map(|bg| (*fg, *bg)));
    }
    pairs.extend(BOXES.iter().map(|bg| ("--ink", *bg)));
    pairs.extend(FILLS.iter().map(|bg| ("--on-ink", *bg)));
    pairs.extend(CODE.iter().map(|fg| (*fg, "--code-bg")));
    pairs
        .into_iter()
        .map(|(fg, bg)| (fg, bg, contrast(colour(&p, fg), colour(&p, bg))))
        .filter(|&(_, _, r)| r < least)
        .map(|(fg, bg, r)| format!("{theme}: {fg} on {bg} is {r:.2}:1"))
        .collect()
}

#[test]
fn every_theme_text_is_4_5_to_1_on_everything_it_is_drawn_on() {
    let short: Vec<String> = Theme::ALL.into_iter().flat_map(|t| short_text(t, 4.5)).collect();
    assert!(short.is_empty(), "{short:#?}");
}

#[test]
fn the_projector_text_is_6_to_1_for_a_washed_out_beamer() {
    let short = short_text(Theme::Projector, 6.0);
    assert!(short.is_empty(), "{short:#?}");
}

#[test]
fn every_theme_marks_are_3_to_1_on_the_panel_and_an_odd_lane() {
    let mut short = Vec::new();
    for theme in Theme::ALL {
        let p = palette(theme);
        for fg in CLIENTS.iter().chain(&["--bad", "--fault", "--ok", "--ink", "--pause-edge", "--down-edge"]) {
            for bg in ["--panel", "--lane-odd"] {
                let r = contrast(colour(&p, fg), colour(&p, bg));
                if r < 3.0 {
                    short.push(format!("{theme}: {fg} on {bg} is {r:.2}:1"));
                }
            }
        }
        // A mark's white (or dark) detail on its client-coloured fill: the tick in an accepted
        // write's dot, the outline that parts two dots.
        for fill in CLIENTS {
            let r = contrast(colour(&p, "--on-mark"), colour(&p, fill));
            if r < 3.0 {
                short.push(format!("{theme}: --on-mark on {fill} is {r:.2}:1"));
            }
        }
    }
    assert!(short.is_empty(), "{short:#?}");
}

#[test]
fn the_ratio_is_wcag_s() {
    // WCAG's own end points, and a published pair: #767676 on white is 4.54:1.
    assert!((contrast([0.0; 3], [1.0; 3]) - 21.0).abs() < 1e-9);
    let grey = f64::from(0x76u8) / 255.0;
    assert!((contrast([grey; 3], [1.0; 3]) - 4.54).abs() < 0.01);
}
