//! The Embed button and its dialog (issue 25): the iframe snippet for exactly the view on
//! screen (scenario or `#s=`, switches, cursor, lecture) at a chosen size, with a live preview
//! that is the snippet itself; the lite embed (a figure first, the app on click); and a static
//! figure at a chosen width for pages without JavaScript; and the whole run for a slide, a
//! handout or a page that shows no iframe: its strip of key moments and its animated SVG with
//! the `<img>` that shows it (`timeline::draw::story`, issue 36). The HTML is plain Rust
//! (`scenario::embed`); Copy link and the snippet come from the same link (`share::link`).

use yew::prelude::*;

use super::export::{figure_svg, save_figure, save_story, Figure, Status};
use super::share::write_text;
use crate::lab::Run;
use crate::scenario::embed::{iframe, lite, Size};
use crate::timeline::draw::story;
use crate::timeline::Timeline;
use crate::ui::state::Shared;

#[derive(Properties, PartialEq)]
pub struct EmbedProps {
    /// The full URL of the view in embed mode (Copy link's, with `embed=1`).
    pub src: AttrValue,
    /// What the frame shows, for its title ("Lock Lab: …").
    pub title: AttrValue,
    pub run: Shared<Run>,
    pub timeline: Shared<Timeline>,
    pub cursor_ms: i64,
    pub lecture: bool,
}

/// A static figure's width: 320–2560 px, at which its text is never under 11 px (it is laid
/// out at that width, not scaled).
const FIGURE_WIDTHS: (u32, u32) = (320, 2560);
/// A lite embed of the page's whole width draws its figure this wide.
const LITE_FULL_WIDTH: u32 = 800;

/// The dialog's choices.
#[derive(Clone, Copy, PartialEq)]
struct Choice {
    size: Size,
    lite: bool,
    figure_width: u32,
}

/// A number typed into one of the dialog's fields, held by `keep` to what it allows; the field
/// then shows the number kept (a choice that did not change would not redraw it). None while
/// the text is no number.
fn typed(e: &Event, keep: impl Fn(u32) -> u32) -> Option<u32> {
    let input: web_sys::HtmlInputElement = e.target_unchecked_into();
    let kept = keep(input.value().trim().parse::<u32>().ok()?);
    input.set_value(&kept.to_string());
    Some(kept)
}

/// The snippet for the choice: the iframe, or the lite one with the figure at the frame's width.
fn snippet(p: &EmbedProps, c: Choice) -> Result<String, &'static str> {
    let title = format!("Lock Lab: {}", p.title);
    if !c.lite {
        return Ok(iframe(&p.src, &title, c.size));
    }
    let width = c.size.width.unwrap_or(LITE_FULL_WIDTH) as f64;
    let figure = Figure { run: &p.run, timeline: &p.timeline, at: p.cursor_ms, width, lecture: p.lecture };
    Ok(lite(&p.src, &title, c.size, &figure_svg(&figure)?))
}

/// The size presets and the two size fields.
fn size_fields(choice: &UseStateHandle<Choice>) -> Html {
    let c = **choice;
    let preset = |size: Size| {
        let choice = choice.clone();
        let on_now = c.size == size;
        html! {
            <button type="button" class="small" aria-pressed={on_now.to_string()} data-testid="embed-size"
                onclick={move |_| choice.set(Choice { size, ..*choice })}>{size.words()}</button>
        }
    };
    let set = |width: bool| {
        let choice = choice.clone();
        Callback::from(move |e: Event| {
            let Some(v) = typed(&e, |v| Size::fit(width, v)) else { return };
            let size = if width { Size { width: Some(v), ..choice.size } } else { Size { height: v, ..choice.size } };
            choice.set(Choice { size, ..*choice });
        })
    };
    let (lo, hi) = (Size::MIN, Size::MAX);
    html! {
        <div class="embed-sizes" role="group" aria-label="Frame size">
            {for Size::PRESETS.into_iter().map(preset)}
            <label>{"width "}<input type="number" data-testid="embed-width" min={lo.0.to_string()} max={hi.0.to_string()}
                value={c.size.width.map(|w| w.to_string()).unwrap_or_default()} placeholder="100%" onchange={set(true)} />{" px"}</label>
            <label>{"height "}<input type="number" data-testid="embed-height" min={lo.1.to_string()} max={hi.1.to_string()}
                value={c.size.height.to_string()} onchange={set(false)} />{" px"}</label>
        </div>
    }
}

/// The static figure: its width and the two downloads.
fn figure_fields(p: &EmbedProps, choice: &UseStateHandle<Choice>, status: &Status) -> Html {
    let c = **choice;
    let on_width = {
        let choice = choice.clone();
        Callback::from(move |e: Event| {
            if let Some(w) = typed(&e, |w| w.clamp(FIGURE_WIDTHS.0, FIGURE_WIDTHS.1)) {
                choice.set(Choice { figure_width: w, ..*choice });
            }
        })
    };
    let save = |png: bool| {
        let (run, timeline, status) = (p.run.clone(), p.timeline.clone(), status.clone());
        let (at, lecture, width) = (p.cursor_ms, p.lecture, c.figure_width);
        Callback::from(move |_: MouseEvent| {
            let figure = Figure { run: &run, timeline: &timeline, at, width: width as f64, lecture };
            save_figure(&figure, png.then_some(1.0), Some(&format!("-{width}px")), &status);
        })
    };
    html! {
        <div class="embed-figure" role="group" aria-label="Figure for a page without JavaScript">
            <label>{"Figure for a page without JavaScript, "}
                <input type="number" data-testid="embed-figure-width" min={FIGURE_WIDTHS.0.to_string()} max={FIGURE_WIDTHS.1.to_string()}
                    value={c.figure_width.to_string()} onchange={on_width} />{" px wide (320–2560; its text stays 11 px or more)"}</label>
            <button type="button" class="small" data-testid="embed-figure-svg" onclick={save(false)}>{"SVG"}</button>
            <button type="button" class="small" data-testid="embed-figure-png" onclick={save(true)}>{"PNG"}</button>
            if let Some((ok, text)) = &**status {
                <span class={classes!("export-status", (!ok).then_some("failed"))} role="status" data-testid="embed-figure-status">{text.clone()}</span>
            }
        </div>
    }
}

/// What the last Copy of the `<img>` did: None (not yet), copied, or refused (the field is
/// selected to copy by hand).
type ImgCopied = UseStateHandle<Option<bool>>;

/// The whole run: the strip (SVG, PNG) and the animated SVG, with the `<img>` for it and Copy.
fn story_fields(p: &EmbedProps, status: &Status, copied: &ImgCopied) -> Html {
    let save = |animated: bool, png: bool| {
        let (run, timeline, status) = (p.run.clone(), p.timeline.clone(), status.clone());
        Callback::from(move |_: MouseEvent| save_story(&run, &timeline, animated, png, &status))
    };
    let img = story::img(&p.run);
    let copy = {
        let (copied, img) = (copied.clone(), img.clone());
        Callback::from(move |_: MouseEvent| match write_text(&img) {
            Ok(promise) => {
                let copied = copied.clone();
                wasm_bindgen_futures::spawn_local(async move {
                    copied.set(Some(wasm_bindgen_futures::JsFuture::from(promise).await.is_ok()));
                });
            }
            Err(_) => copied.set(Some(false)),
        })
    };
    html! {
        <div class="embed-story" role="group" aria-label="The whole run, for a slide, a handout or a page without iframes">
            <p class="embed-note">{"The whole run, for a slide, a handout, or a page that shows no iframe (a README, a wiki): its key moments in one picture, or the run animated with no script (it plays as an image)."}</p>
            <div class="embed-story-row">
                <button type="button" class="small" data-testid="embed-strip-svg" onclick={save(false, false)}
                    title="The key moments, a panel each with its caption, as an SVG file">{"Strip SVG"}</button>
                <button type="button" class="small" data-testid="embed-strip-png" onclick={save(false, true)}
                    title="The key moments, a panel each with its caption, as a PNG image">{"Strip PNG"}</button>
                <button type="button" class="small" data-testid="embed-animated-svg" onclick={save(true, false)}
                    title="The whole run animated (CSS, no script), as an SVG file">{"Animated SVG"}</button>
            </div>
            <div class="embed-story-row">
                <span>{"Saved beside the page, the animated SVG shows with:"}</span>
                <button type="button" class="small" data-testid="embed-img-copy" onclick={copy}>{"Copy"}</button>
                if let Some(ok) = **copied {
                    <span class="export-status" role="status" data-testid="embed-img-copied">
                        {if ok { "Copied." } else { "The browser did not let Lock Lab copy it: copy it from the field." }}</span>
                }
            </div>
            <textarea readonly=true rows="2" data-testid="embed-img-snippet" aria-label="Image code for the animated SVG" value={img} />
            if let Some((ok, text)) = &**status {
                <span class={classes!("export-status", (!ok).then_some("failed"))} role="status" data-testid="embed-story-status">{text.clone()}</span>
            }
        </div>
    }
}

/// The dialog, while it is open.
fn dialog(
    p: &EmbedProps,
    choice: &UseStateHandle<Choice>,
    status: &Status,
    story: (&Status, &ImgCopied),
    close: Callback<MouseEvent>,
) -> Html {
    let c = **choice;
    let code = snippet(p, c);
    let on_lite = {
        let choice = choice.clone();
        move |_| choice.set(Choice { lite: !choice.lite, ..*choice })
    };
    let (text, preview) = match &code {
        Ok(html) => (html.clone(), Html::from_html_unchecked(AttrValue::from(html.clone()))),
        Err(why) => (String::new(), html! { <p class="export-status failed">{*why}</p> }),
    };
    html! {
        <div class="overlay embed-overlay" role="dialog" aria-modal="true" aria-labelledby="embed-title" data-testid="embed-dialog">
            <div class="sheet embed-sheet">
                <h2 id="embed-title">{"Embed this view"}</h2>
                <p class="embed-what">{format!("{}, {} frame. Paste this into a page:", p.title, c.size.words())}</p>
                {size_fields(choice)}
                <label class="embed-lite"><input type="checkbox" data-testid="embed-lite" checked={c.lite} onchange={on_lite} />
                    {" Lite: show a figure, start the app when the reader clicks it (nothing of the app loads before)"}</label>
                <textarea readonly=true rows="4" data-testid="embed-snippet" aria-label="Embed code" value={text} />
                <p class="embed-note">{"Preview, the code above as a page shows it:"}</p>
                <div class="embed-preview" data-testid="embed-preview">{preview}</div>
                {figure_fields(p, choice, status)}
                {story_fields(p, story.0, story.1)}
                <button type="button" class="close" onclick={close} autofocus=true>{"Close"}</button>
            </div>
        </div>
    }
}

#[function_component(EmbedButton)]
pub fn embed_button(p: &EmbedProps) -> Html {
    let open = use_state_eq(|| false);
    let choice = use_state_eq(|| Choice { size: Size::PRESETS[1], lite: false, figure_width: 640 });
    let status: Status = use_state(|| None);
    let story_status: Status = use_state(|| None);
    let img_copied: ImgCopied = use_state_eq(|| None);
    let toggle = |to: bool| {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| open.set(to))
    };
    let on_key = {
        let open = open.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Escape" {
                e.stop_propagation();
                open.set(false);
            }
        })
    };
    html! {
        <span class="embed-opener" onkeydown={on_key}>
            <button type="button" class="small" data-testid="embed-open" onclick={toggle(true)}
                title="Code to embed this view in a documentation page, and a figure for pages without JavaScript">{"Embed"}</button>
            if *open {
                {dialog(p, &choice, &status, (&story_status, &img_copied), toggle(false))}
            }
        </span>
    }
}
