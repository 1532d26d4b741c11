//! What a search shows as it runs: Start and Stop, the counter, the counterexample on show,
//! the seed's table; drawn again every frame while a search has work.

use yew::prelude::*;

use super::{chart, on, progress, Send};
use crate::explore::Class;
use crate::scenario::{fault, Scenario};
use crate::session::explore::{percent, row_label, Action, Page, Search, Tab};
use crate::timeline::draw::svg::N;
use crate::timeline::draw::words::thousands;

/// Start and Stop, and why the last Start was refused.
pub fn controls(page: &Page, send: &Send) -> Html {
    let running = page.running();
    html! {
        <div class="explore-controls">
            <button type="button" class="explore-go" data-testid="explore-start" disabled={running} onclick={on(send, Action::Start)}>{"Start"}</button>
            <button type="button" class="small" data-testid="explore-stop" disabled={!running} onclick={on(send, Action::Stop)}>{"Stop"}</button>
            if let Some(e) = &page.error {
                <span class="explore-error" role="alert">{e.clone()}</span>
            }
        </div>
    }
}

/// The live part of the tab on show.
pub fn live(page: &Page, send: &Send) -> Html {
    match page.tab {
        Tab::Search => page.search.as_ref().map_or_else(Html::default, |s| html! { <>{counter(s)}{found(s, send)}</> }),
        Tab::Table => page.table.as_ref().map_or_else(Html::default, |t| html! { <>{counter(t)}{table(t, send)}</> }),
        Tab::Sweep => page.sweep.as_ref().map_or_else(Html::default, |sw| chart::sweep(sw, send)),
    }
}

/// The live counter: a progress bar, schedules run and per second, the count of each class.
fn counter(s: &Search) -> Html {
    let (runs, total, counts) = (s.runs(), s.total(), s.counts());
    let (wall, compute) = s.timing.rates(runs);
    // On workers, `compute` is per core: their time is summed.
    let workers = s.workers();
    let on = match workers {
        0 => String::new(),
        1 => " on 1 worker".to_string(),
        n => format!(" on {n} workers"),
    };
    let state = if s.running() {
        ""
    } else if runs < total {
        " · stopped"
    } else {
        " · done"
    };
    let class = |c: Class| {
        let n = counts.get(c);
        html! {
            <li class={format!("{}{}", c.id(), if n > 0 { " some" } else { "" })} data-class={c.id()} data-count={n.to_string()}>
                <b>{thousands(n as usize)}</b>{" "}{c.label()}
            </li>
        }
    };
    html! {
        <div class="explore-counter">
            {progress(runs, total)}
            <p data-testid="explore-runs" data-runs={runs.to_string()} data-rate={wall.to_string()} data-compute-rate={compute.to_string()}
                data-search-ms={N(s.timing.search_ms).to_string()} data-shrink-ms={N(s.timing.shrink_ms).to_string()} data-wall-ms={N(s.timing.wall_ms).to_string()}
                data-workers={workers.to_string()}>
                <b>{thousands(runs as usize)}</b>{format!(" of {} schedules run · {} schedules/s{on}{state}", thousands(total as usize), thousands(wall as usize))}
            </p>
            if let Some(words) = s.shown_words() {
                <p class="explore-shown" data-testid="explore-shown">{words}</p>
            }
            <ul class="explore-classes" aria-label="Runs per class">{for Class::ALL.into_iter().map(class)}</ul>
        </div>
    }
}

/// A schedule's faults in words, in order.
fn faults(s: &Scenario) -> Html {
    if s.faults.is_empty() {
        return html! { <p class="explore-none">{"no faults"}</p> };
    }
    html! { <ol class="explore-faults">{for s.faults.iter().map(|f| html! { <li>{fault::words(f)}</li> })}</ol> }
}

/// "3 faults, clients A, B".
fn size(s: &Scenario) -> String {
    let names: Vec<&str> = s.clients.iter().map(|c| c.name.as_str()).collect();
    let n = s.faults.len();
    format!("{n} fault{}, clients {}", if n == 1 { "" } else { "s" }, names.join(", "))
}

/// The counterexample on show: its faults before and after shrinking, Open and Next; or, with
/// none, what the search has covered.
fn found(s: &Search, send: &Send) -> Html {
    let Some((cell, f, k, n)) = s.shown() else {
        let text = if s.running() { "No counterexample yet.".to_string() } else { s.nothing_found() };
        return html! { <div class="explore-found" data-testid="explore-found" data-count="0"><p>{text}</p></div> };
    };
    let shrunk = s.shrunk(cell, f.index);
    let after = match shrunk {
        Some(sh) => html! { <><h4>{format!("After shrinking: {} (in {} runs)", size(&sh.after), sh.runs)}</h4>{faults(&sh.after)}</> },
        None => html! { <h4>{"Shrinking…"}</h4> },
    };
    html! {
        <div class="explore-found" data-testid="explore-found" data-count={n.to_string()} data-class={f.class.id()}>
            <h3>
                {format!("Counterexample {} of {n}: {}", k + 1, s.shows(cell, f))}
                <span class="explore-where">{format!(" — {}, schedule {}", s.cell_words(cell), f.index)}</span>
            </h3>
            <div class="explore-before-after">
                <div class="explore-before"><h4>{format!("Before shrinking: {}", size(&f.scenario))}</h4>{faults(&f.scenario)}</div>
                <div class="explore-after">{after}</div>
            </div>
            <div class="explore-controls">
                <button type="button" class="explore-go" data-testid="explore-open" disabled={shrunk.is_none()} onclick={on(send, Action::Open)}>{"Open in the diagram"}</button>
                <button type="button" class="small" data-testid="explore-next" disabled={n < 2} onclick={on(send, Action::Next)}>{"Next counterexample"}</button>
            </div>
        </div>
    }
}

/// The seed's table: every row × fencing off and on, each row at its own plan (mix and N,
/// footnoted under the table), filled as the cells' searches run.
fn table(t: &Search, send: &Send) -> Html {
    let caption = "Lost updates and tokens handed out again, as counts of the schedules each cell ran, and the smallest lost update found: click it to open it. Each row runs the mix that reveals what is claimed of it (notes below).";
    let notes = notes(t);
    let row = |(r, pair): (usize, &[crate::explore::table::CellSearch])| {
        let plan = t.plan(2 * r);
        let label = plan.map_or_else(|| row_label(&pair[0].row), |p| p.row.label.clone());
        let mark = plan.and_then(|p| notes.iter().position(|n| *n == p.mix_words)).map(|k| k + 1);
        html! {
            <tr>
                <th scope="row">{label}if let Some(k) = mark { <sup class="explore-mark" data-testid="explore-row-mix">{k}</sup> }</th>
                {for (0..pair.len()).map(|k| cell(t, 2 * r + k, send))}
            </tr>
        }
    };
    html! {
        <>
            <table class="explore-table" data-testid="explore-table">
                <caption>{caption}</caption>
                <thead><tr><th scope="col">{"approach"}</th><th scope="col">{"fencing off"}</th><th scope="col">{"fencing on"}</th></tr></thead>
                <tbody>{for t.cells.chunks(2).enumerate().map(row)}</tbody>
            </table>
            <ol class="explore-notes" data-testid="explore-table-notes">
                {for notes.iter().map(|n| html! { <li>{format!("{n}; explorer seed {}", t.plans.first().map_or(t.settings.seed, |p| p.seed))}</li> })}
            </ol>
            <ul class="explore-claims">
                {for t.plans.iter().map(|p| html! { <li><b>{p.row.label.clone()}</b>{format!(": {}.", p.claim)}</li> })}
            </ul>
        </>
    }
}

/// The table's mixes in words, each once, in the order the rows first name them.
fn notes(t: &Search) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for p in &t.plans {
        if !out.contains(&p.mix_words) {
            out.push(p.mix_words.clone());
        }
    }
    out
}

/// Table cell `i`: its lost updates and tokens handed out again, each a count of its runs, and
/// its smallest lost update, once shrunk.
fn cell(t: &Search, i: usize, send: &Send) -> Html {
    let c = &t.cells[i];
    let p = c.explorer.progress();
    let (lost, repeats) = (p.counts.lost_update, p.token_repeats);
    let smallest = match t.smallest(i) {
        Some(sh) => {
            let words: Vec<String> = sh.after.faults.iter().map(fault::words).collect();
            html! {
                <button type="button" class="link explore-smallest" data-testid="explore-cell-open" title="Open the smallest lost update in the diagram"
                    onclick={on(send, Action::OpenCell(i))}>{words.join("; ")}</button>
            }
        }
        None if t.shrinking(i) => html! { <span class="explore-none">{" shrinking…"}</span> },
        None => Html::default(),
    };
    let of = |n: u64| format!("{} of {}", thousands(n as usize), thousands(p.runs as usize));
    html! {
        <td class={if lost > 0 { "explore-cell lost" } else { "explore-cell" }} data-testid="explore-cell" data-approach={c.row.clone()}
            data-fencing={if c.fencing { "on" } else { "off" }} data-runs={p.runs.to_string()} data-total={p.total.to_string()} data-lost={lost.to_string()}
            data-classes={Class::ALL.map(|c| p.counts.get(c).to_string()).join(" ")}>
            <span class="explore-of"><b>{of(lost)}</b>{" lost an update "}<span class="explore-share">{format!("({})", percent(lost, p.runs))}</span></span>
            // Fencing's own failure, per cell, whatever else the run showed.
            <span class="explore-tokens" data-testid="explore-cell-tokens" data-count={repeats.to_string()}>
                {format!("{}: {}", Class::TokenRepeated.label(), of(repeats))}
            </span>
            {smallest}
        </td>
    }
}
