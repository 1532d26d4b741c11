//! Transport: play/pause, step, step back, key moments, scrub and speed. Every control only
//! moves the cursor; nothing here touches the simulation.

use yew::prelude::*;

use crate::decimal::seconds;
use crate::ui::icons::{icon, Icon};
use crate::ui::state::{on_click, Act, Action, SPEEDS};

/// What the transport shows. A function the app calls rather than a component (less wasm):
/// the cursor moves on every frame while playing, so it re-rendered with the app anyway.
pub struct TransportProps {
    pub playing: bool,
    pub cursor: f64,
    pub duration_ms: i64,
    pub speed: f64,
    pub act: Act,
}

fn button(act: &Act, action: fn() -> Action, testid: &'static str, label: &'static str, keys: &'static str, glyph: Icon) -> Html {
    html! {
        <button type="button" class="tbtn" data-testid={testid} title={format!("{label} ({keys})")} aria-label={label}
            onclick={on_click(act, action)}>
            {icon(glyph)}
        </button>
    }
}

pub fn transport(p: &TransportProps) -> Html {
    let act = &p.act;
    let play = {
        let (label, glyph) = if p.playing { ("Pause", Icon::Pause) } else { ("Play", Icon::Play) };
        html! {
            <button type="button" class="tbtn play" data-testid="play" aria-pressed={p.playing.to_string()}
                title={format!("{label} (Space)")} onclick={on_click(act, || Action::TogglePlay)}>
                {icon(glyph)}<span class="play-word">{label}</span>
            </button>
        }
    };
    let on_scrub = {
        let act = act.clone();
        Callback::from(move |e: InputEvent| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            // The range steps in whole milliseconds.
            if let Ok(v) = input.value().parse::<i64>() {
                act.dispatch(Action::Seek(v as f64));
            }
        })
    };
    let on_speed = {
        let act = act.clone();
        Callback::from(move |e: Event| {
            let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
            if let Some(&(v, _)) = SPEEDS.iter().find(|(_, text)| *text == select.value()) {
                act.dispatch(Action::SetSpeed(v));
            }
        })
    };
    let ms = p.cursor.max(0.0).floor();
    html! {
        <div class="transport" data-testid="transport" role="group" aria-label="Playback">
            <div class="buttons">
                {button(act, || Action::PrevKey, "key-prev", "Previous key moment", "Shift+←", Icon::PrevKey)}
                {button(act, || Action::StepBack, "step-back", "Step back", "←", Icon::StepBack)}
                {play}
                {button(act, || Action::Step, "step", "Step to the next event", "→", Icon::Step)}
                {button(act, || Action::NextKey, "key-next", "Next key moment", "Shift+→", Icon::NextKey)}
            </div>
            <input type="range" class="scrub" data-testid="scrub" min="0" max={p.duration_ms.to_string()} step="1"
                value={(ms as i64).to_string()} aria-label="Time (ms of true time)" aria-valuetext={seconds(ms as i64)} oninput={on_scrub} />
            <span class="clock-readout" aria-hidden="true">
                <span class="now">{seconds(ms as i64)}</span>{" / "}{seconds(p.duration_ms)}
            </span>
            <label class="speed">
                <span>{"Speed"}</span>
                <select data-testid="speed" onchange={on_speed} aria-label="Playback speed">
                    { for SPEEDS.iter().map(|&(s, text)| html! {
                        <option value={text} selected={(s - p.speed).abs() < 1e-9}>{format!("{text}×")}</option>
                    }) }
                </select>
            </label>
        </div>
    }
}
