//! The HTML a documentation page pastes to embed a view (the app's Embed button, issue 25):
//! an iframe with the README's sandbox, or the lite embed, which shows a figure of the view
//! drawn with no script and starts the app in its place when the reader clicks it.

/// The sandbox the README recommends, and why ("Why these sandbox flags"): the app keeps its
/// own origin (its files load without CORS and from the HTTP cache), and "Open in Lock Lab ↗"
/// opens a normal tab.
pub const SANDBOX: &str = "allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox";

/// The frame's size: a width in px, or the page column's whole width (`None`), and a height.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Size {
    pub width: Option<u32>,
    pub height: u32,
}

impl Size {
    /// The sizes offered first (the issue's docs page: a phone-sized figure, a column, a wide one).
    pub const PRESETS: [Size; 4] = [
        Size { width: Some(320), height: 240 },
        Size { width: Some(640), height: 360 },
        Size { width: Some(800), height: 450 },
        Size { width: None, height: 480 },
    ];
    /// Embed mode fits any frame from 320×240 up (README, "Embed a scenario").
    pub const MIN: (u32, u32) = (320, 240);
    pub const MAX: (u32, u32) = (2560, 1440);

    /// A width (`width`) or a height typed for a frame, held to the sizes embed mode is made for.
    pub fn fit(width: bool, px: u32) -> u32 {
        if width {
            px.clamp(Self::MIN.0, Self::MAX.0)
        } else {
            px.clamp(Self::MIN.1, Self::MAX.1)
        }
    }

    /// "640×360", "full width × 480".
    pub fn words(self) -> String {
        match self.width {
            Some(w) => format!("{w}×{}", self.height),
            None => format!("full width × {}", self.height),
        }
    }

    fn width_attr(self) -> String {
        self.width.map_or_else(|| "100%".to_string(), |w| w.to_string())
    }
}

/// `text` for an HTML attribute value in double quotes.
fn attr(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

/// An SVG document as a `data:` URL: only what a URL or an attribute cannot hold is escaped,
/// so it stays close to the SVG's size (base64 would add a third).
fn svg_data_url(svg: &str) -> String {
    let mut out = String::from("data:image/svg+xml,");
    for c in svg.chars() {
        match c {
            '%' => out.push_str("%25"),
            '#' => out.push_str("%23"),
            '"' => out.push_str("%22"),
            '\'' => out.push_str("%27"),
            '&' => out.push_str("%26"),
            '<' => out.push_str("%3C"),
            '>' => out.push_str("%3E"),
            '\n' => out.push_str("%0A"),
            c => out.push(c),
        }
    }
    out
}

/// The figure without its tooltips: an SVG shown as an image shows none, and they are half
/// its bytes (each message's words). The first `<title>` names the figure and stays.
fn without_tooltips(svg: &str) -> String {
    let mut out = String::with_capacity(svg.len());
    let mut rest = svg;
    let mut first = true;
    while let Some(at) = rest.find("<title>") {
        let Some(len) = rest[at..].find("</title>").map(|e| e + "</title>".len()) else { break };
        out.push_str(&rest[..at]);
        if first {
            out.push_str(&rest[at..at + len]);
            first = false;
        }
        rest = &rest[at + len..];
    }
    out.push_str(rest);
    out
}

/// The iframe that embeds `url` (the view's link with `embed=1`) at `size`, titled `title`.
pub fn iframe(url: &str, title: &str, size: Size) -> String {
    format!(
        r#"<iframe sandbox="{SANDBOX}" width="{}" height="{}" title="{}" src="{}"></iframe>"#,
        size.width_attr(),
        size.height,
        attr(title),
        attr(url)
    )
}

/// The lite embed: the same frame, holding `figure` (a standalone SVG of the view) as a link
/// to `url`. The page loads no script and none of the app's files until the reader clicks;
/// the click then opens the app in the frame, at the view the figure shows. Styles are
/// attributes only, so a page whose policy forbids inline `<style>` (the app's own) shows it.
pub fn lite(url: &str, title: &str, size: Size, figure: &str) -> String {
    let doc = format!(
        concat!(
            r#"<!doctype html><html lang="en"><meta charset="utf-8"><title>{title}</title>"#,
            r#"<body style="margin:0;background:#fff;font:15px system-ui,sans-serif">"#,
            r#"<a href="{url}" style="display:block;color:#1b2130" aria-label="Start Lock Lab here: {title}">"#,
            // At the frame's width, so its text keeps its 11 px; a figure taller than the frame scrolls.
            r#"<img src="{img}" alt="{title}" style="display:block;width:100%;height:auto">"#,
            r#"<span style="position:fixed;right:8px;bottom:8px;background:#1b2130;color:#fff;padding:7px 14px;border-radius:18px;font-weight:700;white-space:nowrap;box-shadow:0 2px 8px #0004">▶ Run it here</span>"#,
            "</a></body></html>"
        ),
        title = attr(title),
        url = attr(url),
        img = svg_data_url(&without_tooltips(figure)),
    );
    format!(
        r#"<iframe sandbox="{SANDBOX}" width="{}" height="{}" title="{}" srcdoc="{}"></iframe>"#,
        size.width_attr(),
        size.height,
        attr(title),
        attr(&doc)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_iframe_has_the_recommended_sandbox_the_size_and_the_link() {
        let url = "https://host/?scenario=redis-gc-pause&fencing=on&t=15502&embed=1";
        let html = iframe(url, "Lock Lab: \"GC\" pause", Size { width: Some(640), height: 360 });
        assert_eq!(
            html,
            "<iframe sandbox=\"allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox\" width=\"640\" height=\"360\" \
             title=\"Lock Lab: &quot;GC&quot; pause\" src=\"https://host/?scenario=redis-gc-pause&amp;fencing=on&amp;t=15502&amp;embed=1\"></iframe>"
        );
        assert!(iframe(url, "t", Size { width: None, height: 480 }).contains(r#"width="100%" height="480""#));
    }

    #[test]
    fn sizes_stay_within_what_embed_mode_fits() {
        assert_eq!((Size::fit(true, 100), Size::fit(false, 5000)), (320, 1440));
        assert_eq!((Size::fit(true, 9000), Size::fit(false, 100)), (2560, 240));
        assert_eq!(Size::PRESETS[0].words(), "320×240");
        assert_eq!(Size::PRESETS[3].words(), "full width × 480");
    }

    #[test]
    fn a_lite_figure_keeps_its_name_and_drops_the_tooltips() {
        let svg = "<svg><title>Lock Lab · x</title><g><title>A → redis: SET</title><path/></g><g><title>B</title></g></svg>";
        assert_eq!(without_tooltips(svg), "<svg><title>Lock Lab · x</title><g><path/></g><g></g></svg>");
    }

    #[test]
    fn a_lite_embed_holds_its_figure_and_links_to_the_app() {
        let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\"><style>.a{fill:#fff}</style><text>A &amp; B 50%</text></svg>";
        let html = lite("https://host/?scenario=x&embed=1", "Lock Lab: x", Size { width: Some(320), height: 240 }, svg);
        assert!(html.starts_with(&format!(r#"<iframe sandbox="{SANDBOX}" width="320" height="240""#)), "{html}");
        // One attribute: no raw quote or bracket inside srcdoc="…".
        let doc = html.split_once(r#"srcdoc=""#).unwrap().1.strip_suffix(r#""></iframe>"#).unwrap();
        assert!(!doc.contains(['"', '<', '>']), "{doc}");
        // Unescaped once (as the browser reads the attribute), the data URL gives the SVG back.
        let inner = doc.replace("&quot;", "\"").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
        assert!(inner.contains(r#"<a href="https://host/?scenario=x&amp;embed=1""#), "{inner}");
        let img = inner.split_once("src=\"data:image/svg+xml,").unwrap().1.split_once('"').unwrap().0;
        let decoded = img
            .replace("%3C", "<")
            .replace("%3E", ">")
            .replace("%22", "\"")
            .replace("%27", "'")
            .replace("%23", "#")
            .replace("%26", "&")
            .replace("%0A", "\n")
            .replace("%25", "%");
        assert_eq!(decoded, svg);
    }
}
