//! Export: the diagram at the cursor as a self-contained SVG or a PNG, and the run (scenario,
//! verdict, trace) as JSON, downloaded as files. The figure and the JSON are plain Rust
//! (`timeline::draw::export`, `Run::to_json`); the page supplies what only it has: the
//! diagram's stylesheet (read back from the page, so the bundle holds no copy), a canvas to
//! rasterise on, and the download itself.

use wasm_bindgen::prelude::*;
use yew::prelude::*;

use crate::lab::Run;
use crate::timeline::draw::export::{figure, file_name, FIGURE_WIDTH};
use crate::timeline::draw::story;
use crate::timeline::Timeline;
use crate::ui::state::Shared;

// Every function returns an error message instead of throwing: a sandboxed iframe may refuse
// any of these steps, and the app must go on working and say so.
#[wasm_bindgen(inline_js = r#"
const why = (e) => String((e && e.message) || e);
export function diagramCss() {
  try {
    for (const sheet of document.styleSheets) {
      // A linked diagram.css, or the offline file's inline copy of it (scripts/offline.mjs).
      const inline = sheet.ownerNode && sheet.ownerNode.hasAttribute && sheet.ownerNode.hasAttribute('data-diagram-css');
      if (inline || (sheet.href && /\/diagram(-[^/]*)?\.css([?#]|$)/.test(sheet.href))) {
        return Array.from(sheet.cssRules, (r) => r.cssText).join('\n');
      }
    }
  } catch (e) {}
  return null;
}
export function sandboxed() { return self.origin === 'null'; }
export function download(name, type, data) {
  try {
    const url = URL.createObjectURL(data instanceof Blob ? data : new Blob([data], { type }));
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    a.style.display = 'none';
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
    return null;
  } catch (e) { return why(e); }
}
export function downloadPng(name, svg, scale) {
  return new Promise((resolve) => {
    try {
      const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
      const img = new Image();
      img.onload = () => {
        try {
          const canvas = document.createElement('canvas');
          canvas.width = Math.round(img.naturalWidth * scale);
          canvas.height = Math.round(img.naturalHeight * scale);
          const ctx = canvas.getContext('2d');
          ctx.scale(scale, scale);
          ctx.drawImage(img, 0, 0);
          URL.revokeObjectURL(url);
          canvas.toBlob((png) => resolve(png ? download(name, 'image/png', png) : 'the browser could not encode a PNG'), 'image/png');
        } catch (e) { resolve(why(e)); }
      };
      img.onerror = () => { URL.revokeObjectURL(url); resolve('the browser could not draw the figure'); };
      img.src = url;
    } catch (e) { resolve(why(e)); }
  });
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = diagramCss)]
    fn diagram_css() -> Option<String>;
    fn sandboxed() -> bool;
    fn download(name: &str, mime: &str, data: &str) -> Option<String>;
    #[wasm_bindgen(js_name = downloadPng)]
    fn download_png(name: &str, svg: &str, scale: f64) -> js_sys::Promise;
}

/// PNGs are drawn at twice the figure's size: sharp on a projector and in a slide.
const PNG_SCALE: f64 = 2.0;

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Svg,
    Png,
    Json,
}

#[derive(Properties, PartialEq, Clone)]
pub struct ExportProps {
    pub run: Shared<Run>,
    pub timeline: Shared<Timeline>,
    pub cursor_ms: i64,
    pub lecture: bool,
    /// Compare mode: the approach whose run these buttons export (one row per side).
    #[prop_or_default]
    pub side: Option<AttrValue>,
    /// The comparison's other run: its buttons' test hooks end in `-other`.
    #[prop_or_default]
    pub other_side: bool,
}

/// What happened to the last export: (it worked, the words).
pub type Status = UseStateHandle<Option<(bool, String)>>;

fn report(status: &Status, name: &str, error: Option<String>) {
    status.set(Some(match error {
        Some(e) => (false, format!("Could not download {name}: {e}.")),
        // Nothing tells a page that a sandbox swallowed its download; say where to go if so.
        None if sandboxed() => (
            true,
            format!("Downloading {name}. Nothing arrived? This embedded page may not allow downloads: open Lock Lab in a tab of its own."),
        ),
        None => (true, format!("Downloading {name}.")),
    }));
}

fn save(kind: Kind, p: &ExportProps, status: &Status) {
    let run = &p.run;
    if kind == Kind::Json {
        let name = file_name(&run.scenario, None, "json");
        return report(status, &name, download(&name, "application/json", &run.to_json()));
    }
    let figure = Figure { run, timeline: &p.timeline, at: p.cursor_ms, width: FIGURE_WIDTH, lecture: p.lecture };
    save_figure(&figure, (kind == Kind::Png).then_some(PNG_SCALE), None, status);
}

/// A figure of a run at a moment, at a width (its text keeps its size: the figure is laid out
/// at that width, not scaled to it).
pub struct Figure<'a> {
    pub run: &'a Run,
    pub timeline: &'a Timeline,
    pub at: i64,
    pub width: f64,
    pub lecture: bool,
}

/// The diagram's stylesheet, or why the page cannot read it.
fn css() -> Result<String, &'static str> {
    diagram_css().ok_or(
        "This page cannot read its own stylesheet (a sandboxed embed?), so it cannot draw the figure: open Lock Lab in a tab of its own, or use `locklab svg`.",
    )
}

/// The figure as a standalone SVG, or why the page cannot draw it.
pub fn figure_svg(f: &Figure) -> Result<String, &'static str> {
    Ok(figure(f.run, f.timeline, f.at, f.width, f.lecture, super::theme::on_page(), &css()?))
}

/// Downloads the figure as SVG, or as PNG at `png` times its size; `suffix` goes before the
/// extension (a width other than the default). Says what happened in `status`.
pub fn save_figure(f: &Figure, png: Option<f64>, suffix: Option<&str>, status: &Status) {
    let name = |ext: &str| {
        let name = file_name(&f.run.scenario, Some(f.at), ext);
        suffix.map_or_else(|| name.clone(), |s| name.replace(&format!(".{ext}"), &format!("{s}.{ext}")))
    };
    save_svg(figure_svg(f), png.map(|scale| (scale, name("png"))), name("svg"), status);
}

/// Downloads the run's strip (`animated` false: as SVG, or as PNG with `png`) or its animated
/// SVG (`draw::story`). Says what happened in `status`.
pub fn save_story(run: &Run, timeline: &Timeline, animated: bool, png: bool, status: &Status) {
    let theme = super::theme::on_page();
    let svg =
        css().map(|css| if animated { story::animated(run, timeline, &css, theme) } else { story::strip(run, timeline, &css, theme) });
    // The strip is drawn for a slide (1,300 px wide and up): its PNG is its own size.
    let png = png.then(|| (1.0, story::file_name(&run.scenario, animated, "png")));
    save_svg(svg, png, story::file_name(&run.scenario, animated, "svg"), status);
}

/// Downloads `svg` as `name`, or, with `png` (scale, name), drawn as a PNG at that scale.
fn save_svg(svg: Result<String, &'static str>, png: Option<(f64, String)>, name: String, status: &Status) {
    let svg = match svg {
        Ok(svg) => svg,
        Err(text) => return status.set(Some((false, text.into()))),
    };
    let Some((scale, name)) = png else {
        return report(status, &name, download(&name, "image/svg+xml", &svg));
    };
    let (status, promise) = (status.clone(), download_png(&name, &svg, scale));
    wasm_bindgen_futures::spawn_local(async move {
        let error = match wasm_bindgen_futures::JsFuture::from(promise).await {
            Ok(v) => v.as_string(),
            Err(e) => Some(e.as_string().unwrap_or_else(|| "the browser refused".into())),
        };
        report(&status, &name, error);
    });
}

#[function_component(Export)]
pub fn export(p: &ExportProps) -> Html {
    let status: Status = use_state(|| None);
    let button = |kind: Kind, testid: &'static str, label: &'static str, title: &'static str| {
        let status = status.clone();
        let props = p.clone();
        let testid = if p.other_side { format!("{testid}-other") } else { testid.to_string() };
        html! { <button type="button" class="small" data-testid={testid} {title} onclick={move |_| save(kind, &props, &status)}>{label}</button> }
    };
    let what = p.side.as_ref().map_or_else(|| AttrValue::from("Export"), |side| AttrValue::from(format!("Export {side}")));
    html! {
        <div class="export" role="group" aria-label={what.clone()}>
            <span class="export-label">{what}</span>
            {button(Kind::Svg, "export-svg", "SVG", "The diagram at the cursor as an SVG file")}
            {button(Kind::Png, "export-png", "PNG", "The diagram at the cursor as a PNG image")}
            {button(Kind::Json, "export-json", "JSON", "The run as JSON: scenario, verdict and trace")}
            if let Some((ok, text)) = &*status {
                <span class={classes!("export-status", (!ok).then_some("failed"))} role="status" data-testid="export-status">{text.clone()}</span>
            }
        </div>
    }
}
