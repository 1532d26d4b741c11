//! A tiny SVG writer. The static part of the diagram is written as markup, not built as a
//! virtual DOM: it is drawn once per run, never diffed, and the code that writes it is a
//! fraction of the size (the bundle budget) — and the same string exports as a static figure.

use std::fmt::{self, Display, Write};

/// A number with at most one decimal: enough for pixels, short in the markup.
#[derive(Clone, Copy)]
pub struct N(pub f64);

impl Display for N {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::decimal::Short(self.0, 1).fmt(f)
    }
}

/// Text escaped for element content and attribute values.
pub struct Esc<'a>(pub &'a str);

impl Display for Esc<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.0.chars() {
            match c {
                '&' => f.write_str("&amp;")?,
                '<' => f.write_str("&lt;")?,
                '>' => f.write_str("&gt;")?,
                '"' => f.write_str("&quot;")?,
                c => f.write_char(c)?,
            }
        }
        Ok(())
    }
}

/// Markup being written.
#[derive(Default)]
pub struct Svg {
    pub out: String,
}

impl Svg {
    pub fn open(&mut self, class: &str) {
        let _ = write!(self.out, r#"<g class="{class}">"#);
    }

    pub fn close(&mut self) {
        self.out.push_str("</g>");
    }

    /// A tooltip for the enclosing group.
    pub fn title(&mut self, text: &str) {
        let _ = write!(self.out, "<title>{}</title>", Esc(text));
    }

    pub fn rect(&mut self, class: &str, x: f64, y: f64, w: f64, h: f64) {
        let _ =
            write!(self.out, r#"<rect class="{class}" x="{}" y="{}" width="{}" height="{}"/>"#, N(x), N(y), N(w.max(0.0)), N(h.max(0.0)));
    }

    pub fn line(&mut self, class: &str, x1: f64, y1: f64, x2: f64, y2: f64) {
        let _ = write!(self.out, r#"<line class="{class}" x1="{}" y1="{}" x2="{}" y2="{}"/>"#, N(x1), N(y1), N(x2), N(y2));
    }

    pub fn path(&mut self, class: &str, d: &str) {
        let _ = write!(self.out, r#"<path class="{class}" d="{d}"/>"#);
    }

    pub fn circle(&mut self, class: &str, x: f64, y: f64, r: f64) {
        let _ = write!(self.out, r#"<circle class="{class}" cx="{}" cy="{}" r="{}"/>"#, N(x), N(y), N(r));
    }

    /// Text starting at x (or ending at x with `end`, centred with `middle`).
    pub fn text(&mut self, class: &str, x: f64, y: f64, anchor: &str, text: &str) {
        let anchor = if anchor == "start" { String::new() } else { format!(r#" text-anchor="{anchor}""#) };
        let _ = write!(self.out, r#"<text class="{class}" x="{}" y="{}"{anchor}>{}</text>"#, N(x), N(y), Esc(text));
    }
}

/// Builds a path's `d` with numbers formatted like everything else.
pub fn d(parts: &[(&str, f64)]) -> String {
    let mut s = String::new();
    for (cmd, v) in parts {
        let _ = write!(s, "{cmd}{}", N(*v));
    }
    s
}
