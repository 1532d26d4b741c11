//! The Explore panel as markup, written from the page model (`page`) in plain Rust, as the
//! diagram's static part is (timeline/draw/svg.rs): a few strings the browser sets as HTML,
//! rather than a virtual DOM per cell and point (most of the panel's wasm, and the bundle is
//! at its budget). What a control does is in its `data-do` (and `data-arg`) attributes, read
//! by the page's one click and one change listener and applied by `Page::input`.
//!
//! Each part is its own string so that one that did not change leaves its elements alone
//! (the browser keeps focus and a half-done click on them): the form changes only when a tab
//! or a sweep's parameter does, the counterexample box when another is shown or shrunk.

use std::fmt::Write;

use super::class::Class;
use super::page::{percent, row_label, Chart, Fencing, Lines, Page, Search, Settings, Sweep, SweepSettings, Tab, MAX_FAULTS};
use super::sweep::Param;
use crate::scenario::{fault, FaultKind, Scenario};
use crate::timeline::draw::svg::{Esc, N};
use crate::timeline::draw::words::thousands;

fn check(out: &mut String, kind: &str, what: &str, arg: &str, on: bool, label: &str, testid: &str) {
    let _ = write!(
        out,
        r#"<label class="explore-check"><input type="{kind}" name="explore-{what}" data-do="{what}" data-arg="{arg}" data-testid="{testid}"{}>{}</label>"#,
        if on { " checked" } else { "" },
        Esc(label)
    );
}

fn number(out: &mut String, what: &str, label: &str, now: i64, lo: i64, hi: i64) {
    let _ = write!(
        out,
        r#"<label class="explore-field"><span>{}</span><input type="number" data-do="{what}" data-testid="explore-set-{what}" min="{lo}" max="{hi}" value="{now}"></label>"#,
        Esc(label)
    );
}

fn select<'a>(out: &mut String, what: &str, label: &str, options: impl Iterator<Item = (String, &'a str, bool)>) {
    let _ = write!(
        out,
        r#"<label class="explore-field"><span>{}</span><select data-do="{what}" data-testid="explore-set-{what}">"#,
        Esc(label)
    );
    for (value, text, on) in options {
        let _ = write!(out, r#"<option value="{}"{}>{}</option>"#, Esc(&value), if on { " selected" } else { "" }, Esc(text));
    }
    out.push_str("</select></label>");
}

fn tab_button(out: &mut String, page: &Page, tab: Tab, id: &str, label: &str) {
    let on = page.tab == tab;
    let _ = write!(
        out,
        r#"<button type="button" class="small" role="tab" aria-selected="{on}" aria-pressed="{on}" data-do="tab" data-arg="{id}" data-testid="explore-tab-{id}">{label}</button>"#
    );
}

/// The tabs, a line on what the tab does, and its settings.
pub fn form(page: &Page) -> String {
    let mut out = String::from(r#"<div class="explore-tabs" role="tablist">"#);
    tab_button(&mut out, page, Tab::Search, "search", "Search");
    tab_button(&mut out, page, Tab::Table, "table", "The seed’s table");
    tab_button(&mut out, page, Tab::Sweep, "sweep", "Sweep");
    out.push_str("</div>");
    let lede = match page.tab {
        Tab::Search => {
            "Draw fault schedules at random, run each, and keep the ones that go wrong, shrunk to the fewest faults that still fail."
        }
        Tab::Table => "The same fault mix against every approach, with fencing off and on: measured here, not quoted.",
        Tab::Sweep => {
            "Fix one number of a single fault and vary it: the share of lost updates steps up where the fault outlives the lease."
        }
    };
    let _ = write!(out, r#"<p class="explore-lede">{lede}</p><div class="explore-settings">"#);
    match page.tab {
        Tab::Search => settings(&mut out, &page.search_settings, true),
        Tab::Table => settings(&mut out, &page.table_settings, false),
        Tab::Sweep => sweep_settings(&mut out, &page.sweep_settings),
    }
    out.push_str("</div>");
    out
}

fn settings(out: &mut String, s: &Settings, search: bool) {
    if search {
        out.push_str("<fieldset><legend>Approaches</legend>");
        for r in super::table::rows() {
            check(out, "checkbox", "row", &r.id, s.rows.contains(&r.id), &r.label, &format!("explore-row-{}", r.id));
        }
        out.push_str("</fieldset><fieldset><legend>Fencing</legend>");
        for f in Fencing::ALL {
            check(out, "radio", "fencing", f.id(), s.fencing == f, f.words(), &format!("explore-fencing-{}", f.id()));
        }
        out.push_str("</fieldset>");
    }
    out.push_str("<fieldset><legend>Fault kinds</legend>");
    for k in FaultKind::ALL {
        check(out, "checkbox", "kind", k.id(), s.kinds.contains(&k), k.noun(), &format!("explore-kind-{}", k.id()));
    }
    out.push_str(r#"</fieldset><fieldset class="explore-numbers"><legend>Budget</legend>"#);
    let counts: Vec<String> = (1..=MAX_FAULTS).map(|k| k.to_string()).collect();
    select(
        out,
        "max",
        "faults per schedule, at most",
        counts.iter().enumerate().map(|(i, k)| (k.clone(), k.as_str(), s.max_faults == i + 1)),
    );
    number(out, "runs", if search { "schedules per approach" } else { "schedules per cell" }, s.runs as i64, 1, 1_000_000);
    number(out, "seed", "explorer seed", s.seed as i64, 0, i64::MAX);
    out.push_str("</fieldset>");
}

fn lines_id(l: &Lines) -> String {
    match l {
        Lines::Approaches { fencing } => format!("all:{}", if *fencing { "on" } else { "off" }),
        Lines::Fencing { row } => format!("row:{row}"),
    }
}

fn sweep_settings(out: &mut String, s: &SweepSettings) {
    out.push_str(r#"<fieldset class="explore-numbers"><legend>Sweep</legend>"#);
    select(out, "param", "vary", Param::all().into_iter().map(|p| (p.id().to_string(), p.words(), s.param == p)));
    let unit = if s.param.per_ttl() { "from (% of the TTL)" } else { "from" };
    number(out, "from", unit, s.from, -3_600_000, 3_600_000);
    number(out, "to", "to", s.to, -3_600_000, 3_600_000);
    number(out, "steps", "points", s.steps as i64, 2, 41);
    number(out, "points-runs", "schedules per point", s.runs as i64, 1, 100_000);
    let mut choices: Vec<(Lines, String)> =
        super::table::rows().into_iter().map(|r| (Lines::Fencing { row: r.id }, format!("{}: fencing off and on", r.label))).collect();
    choices.push((Lines::Approaches { fencing: false }, "every approach, fencing off".into()));
    choices.push((Lines::Approaches { fencing: true }, "every approach, fencing on".into()));
    select(out, "lines", "lines", choices.iter().map(|(l, text)| (lines_id(l), text.as_str(), *l == s.lines)));
    out.push_str("</fieldset>");
}

/// Start and Stop, and why the last Start was refused.
pub fn controls(page: &Page) -> String {
    let running = page.running();
    let mut out = format!(
        r#"<div class="explore-controls"><button type="button" class="explore-go" data-do="start" data-testid="explore-start"{}>Start</button><button type="button" class="small" data-do="stop" data-testid="explore-stop"{}>Stop</button>"#,
        if running { " disabled" } else { "" },
        if running { "" } else { " disabled" }
    );
    if let Some(e) = &page.error {
        let _ = write!(out, r#"<span class="explore-error" role="alert">{}</span>"#, Esc(e));
    }
    out.push_str("</div>");
    out
}

/// A class as a counter's label.
fn class_label(c: Class) -> &'static str {
    match c {
        Class::LostUpdate => "lost update",
        Class::TokenRepeated => "token handed out again",
        Class::TwoBelievers => "two believers at once",
        Class::NeverGranted => "never granted",
        Class::Safe => "safe",
    }
}

fn progress(out: &mut String, runs: u64, total: u64) {
    let _ = write!(out, r#"<progress max="{total}" value="{runs}" aria-label="Schedules run"></progress>"#);
}

/// The live counter: a progress bar, schedules run and per second, the count of each class.
pub fn counter(s: &Search) -> String {
    let (runs, total, counts) = (s.runs(), s.total(), s.counts());
    let (wall, compute) = s.timing.rates(runs);
    let mut out = String::from(r#"<div class="explore-counter">"#);
    progress(&mut out, runs, total);
    let state = if s.running() {
        ""
    } else if runs < total {
        " · stopped"
    } else {
        " · done"
    };
    let _ = write!(
        out,
        r#"<p data-testid="explore-runs" data-runs="{runs}" data-rate="{wall}" data-compute-rate="{compute}" data-search-ms="{}" data-shrink-ms="{}"><b>{}</b> of {} schedules run · {} schedules/s{state}</p><ul class="explore-classes" aria-label="Runs per class">"#,
        N(s.timing.search_ms),
        N(s.timing.shrink_ms),
        thousands(runs as usize),
        thousands(total as usize),
        thousands(wall as usize)
    );
    for c in Class::ALL {
        let n = counts.get(c);
        let _ = write!(
            out,
            r#"<li class="{}{}" data-class="{}" data-count="{n}"><b>{}</b> {}</li>"#,
            c.id(),
            if n > 0 { " some" } else { "" },
            c.id(),
            thousands(n as usize),
            class_label(c)
        );
    }
    out.push_str("</ul></div>");
    out
}

fn faults(out: &mut String, s: &Scenario) {
    if s.faults.is_empty() {
        out.push_str(r#"<p class="explore-none">no faults</p>"#);
        return;
    }
    out.push_str(r#"<ol class="explore-faults">"#);
    for f in &s.faults {
        let _ = write!(out, "<li>{}</li>", Esc(&fault::words(f)));
    }
    out.push_str("</ol>");
}

/// "3 faults, clients A, B".
fn size(s: &Scenario) -> String {
    let names: Vec<&str> = s.clients.iter().map(|c| c.name.as_str()).collect();
    let n = s.faults.len();
    format!("{n} fault{}, clients {}", if n == 1 { "" } else { "s" }, names.join(", "))
}

/// The counterexample on show: its faults before and after shrinking, Open and Next; or, with
/// none, what the search has covered.
pub fn found(s: &Search) -> String {
    let Some((cell, f, k, n)) = s.shown() else {
        let text = if s.running() { "No counterexample yet.".to_string() } else { s.nothing_found() };
        return format!(r#"<div class="explore-found" data-testid="explore-found" data-count="0"><p>{}</p></div>"#, Esc(&text));
    };
    let mut out = format!(
        r#"<div class="explore-found" data-testid="explore-found" data-count="{n}" data-class="{}"><h3>Counterexample {} of {n}: {}<span class="explore-where"> — {}, schedule {}</span></h3><div class="explore-before-after"><div class="explore-before"><h4>Before shrinking: {}</h4>"#,
        f.class.id(),
        k + 1,
        f.class.words(),
        Esc(&s.cell_words(cell)),
        f.index,
        Esc(&size(&f.scenario))
    );
    faults(&mut out, &f.scenario);
    out.push_str(r#"</div><div class="explore-after">"#);
    let shrunk = s.shrunk(cell, f.index);
    match shrunk {
        Some(sh) => {
            let _ = write!(out, "<h4>After shrinking: {} (in {} runs)</h4>", Esc(&size(&sh.after)), sh.runs);
            faults(&mut out, &sh.after);
        }
        None => out.push_str("<h4>Shrinking…</h4>"),
    }
    let _ = write!(
        out,
        r#"</div></div><div class="explore-controls"><button type="button" class="explore-go" data-do="open" data-testid="explore-open"{}>Open in the diagram</button><button type="button" class="small" data-do="next" data-testid="explore-next"{}>Next counterexample</button></div></div>"#,
        if shrunk.is_some() { "" } else { " disabled" },
        if n > 1 { "" } else { " disabled" }
    );
    out
}

/// The seed's table: every row × fencing off and on, filled as the cells' searches run.
pub fn table(t: &Search) -> String {
    let mut out = format!(
        r#"<table class="explore-table" data-testid="explore-table"><caption>Share of schedules with a lost update ({}; {} per cell, explorer seed {}), and the smallest one found: click it to open it.</caption><thead><tr><th scope="col">approach</th><th scope="col">fencing off</th><th scope="col">fencing on</th></tr></thead><tbody>"#,
        Esc(&t.settings.mix_words()),
        thousands(t.settings.runs as usize),
        t.settings.seed
    );
    for (r, pair) in t.cells.chunks(2).enumerate() {
        let _ = write!(out, r#"<tr><th scope="row">{}</th>"#, Esc(&row_label(&pair[0].row)));
        for (k, c) in pair.iter().enumerate() {
            let i = 2 * r + k;
            let p = c.explorer.progress();
            let lost = p.counts.lost_update;
            let _ = write!(
                out,
                r#"<td class="explore-cell{}" data-testid="explore-cell" data-approach="{}" data-fencing="{}" data-runs="{}" data-lost="{lost}"><span class="explore-share">{}</span><span class="explore-of"> {} of {}</span>"#,
                if lost > 0 { " lost" } else { "" },
                c.row,
                if c.fencing { "on" } else { "off" },
                p.runs,
                percent(p.counts.share(Class::LostUpdate)),
                thousands(lost as usize),
                thousands(p.runs as usize)
            );
            if let Some(sh) = t.smallest(i) {
                let words: Vec<String> = sh.after.faults.iter().map(fault::words).collect();
                let _ = write!(
                    out,
                    r#"<button type="button" class="link explore-smallest" data-do="open-cell" data-arg="{i}" data-testid="explore-cell-open" title="Open the smallest lost update in the diagram">{}</button>"#,
                    Esc(&words.join("; "))
                );
            } else if t.shrinking(i) {
                out.push_str(r#"<span class="explore-none"> shrinking…</span>"#);
            }
            out.push_str("</td>");
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>");
    out
}

/// The sweep, drawn: the share of runs losing an update at each value, one line per setting;
/// each point opens a run at its value.
pub fn sweep(sw: &Sweep, narrow: bool) -> String {
    let c = Chart::new(sw, if narrow { Chart::NARROW } else { Chart::WIDE });
    let (l, t, r, b) = c.area;
    let mut out = String::new();
    progress(&mut out, sw.runs(), sw.total());
    let _ = write!(
        out,
        r#"<figure class="explore-sweep" data-testid="explore-chart" data-runs="{}"><svg class="{}" viewBox="0 0 {} {}" role="img" aria-label="Share of runs with a lost update against {}">"#,
        sw.runs(),
        if narrow { "narrow" } else { "wide" },
        N(c.width),
        N(c.height),
        Esc(sw.settings.param.words())
    );
    for (y, label) in &c.y_ticks {
        let _ = write!(
            out,
            r#"<g class="tick"><line x1="{}" x2="{}" y1="{}" y2="{}"/><text x="{}" y="{}" text-anchor="end">{label}</text></g>"#,
            N(l),
            N(r),
            N(*y),
            N(*y),
            N(l - 6.0),
            N(y + 4.0)
        );
    }
    for (x, label) in &c.x_ticks {
        let _ = write!(out, r#"<text class="tick" x="{}" y="{}" text-anchor="middle">{}</text>"#, N(*x), N(b + 18.0), Esc(label));
    }
    let _ = write!(
        out,
        r#"<line class="axis" x1="{}" x2="{}" y1="{}" y2="{}"/><line class="axis" x1="{}" x2="{}" y1="{}" y2="{}"/><text class="axis-label" x="{}" y="{}" text-anchor="middle">{}</text>"#,
        N(l),
        N(r),
        N(b),
        N(b),
        N(l),
        N(l),
        N(t),
        N(b),
        N((l + r) / 2.0),
        N(c.height - 4.0),
        Esc(sw.settings.param.words())
    );
    if let Some(x) = c.ttl_x {
        let _ = write!(
            out,
            r#"<g class="ttl"><line x1="{x}" x2="{x}" y1="{}" y2="{}"/><text x="{}" y="{}">pause = TTL</text></g>"#,
            N(t),
            N(b),
            N(x + 4.0),
            N(t + 12.0),
            x = N(x)
        );
    }
    for (i, (label, pts)) in c.lines.iter().enumerate() {
        let _ = write!(out, r#"<g class="s{}"><polyline points=""#, i % 6);
        for (x, y, _, _) in pts {
            let _ = write!(out, "{},{} ", N(*x), N(*y));
        }
        out.push_str(r#""/>"#);
        for (k, (x, y, share, runs)) in pts.iter().enumerate() {
            let _ = write!(
                out,
                r#"<circle class="dot" cx="{}" cy="{}" r="5" data-do="open-point" data-arg="{i}:{k}" data-testid="sweep-point"><title>{} at {}: {} of {} runs lost an update. Click to open a run at this value.</title></circle>"#,
                N(*x),
                N(*y),
                Esc(label),
                Esc(&sw.x_words(sw.xs[k])),
                percent(*share),
                thousands(*runs as usize)
            );
        }
        out.push_str("</g>");
    }
    out.push_str(r#"</svg><figcaption><ul class="explore-legend">"#);
    for (i, (label, _)) in sw.lines.iter().enumerate() {
        let _ = write!(out, r#"<li><span class="sw s{}"></span>{}</li>"#, i % 6, Esc(label));
    }
    let _ = write!(
        out,
        "</ul>The share of runs with a lost update; {} schedules per point, each with one {} fault at that value and everything else drawn at random (explorer seed {}). Click a point to open a run at that value.</figcaption></figure>",
        thousands(sw.settings.runs as usize),
        sw.settings.param.kind().noun(),
        sw.settings.seed
    );
    out
}

/// The live part of the tab on show; `narrow` for a phone's screen.
pub fn live(page: &Page, narrow: bool) -> Vec<String> {
    match page.tab {
        Tab::Search => page.search.as_ref().map_or_else(Vec::new, |s| vec![counter(s), found(s)]),
        Tab::Table => page.table.as_ref().map_or_else(Vec::new, |t| vec![counter(t), table(t)]),
        Tab::Sweep => page.sweep.as_ref().map_or_else(Vec::new, |sw| vec![sweep(sw, narrow)]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ticking() -> impl FnMut() -> f64 {
        let mut t = 0.0;
        move || {
            t += 0.01;
            t
        }
    }

    #[test]
    fn the_form_names_every_kind_and_approach_with_what_it_does() {
        let page = Page::default();
        let form = form(&page);
        for k in FaultKind::ALL {
            assert!(form.contains(&format!(r#"data-do="kind" data-arg="{}""#, k.id())), "{}", k.id());
        }
        for r in super::super::table::rows() {
            assert!(form.contains(&format!(r#"data-arg="{}""#, r.id)), "{}", r.id);
        }
        assert!(form.contains(r#"aria-pressed="true" data-do="tab" data-arg="search""#));
        assert!(controls(&page).contains(r#"data-do="stop" data-testid="explore-stop" disabled"#));
    }

    #[test]
    fn inputs_change_the_page_and_the_live_parts_show_the_search() {
        let mut page = Page::default();
        assert_eq!(page.input("runs", "", "300"), None);
        assert_eq!(page.search_settings.runs, 300);
        page.input("runs", "", "many");
        assert_eq!(page.search_settings.runs, 300, "not a number: unchanged");
        page.input("runs", "", "99999999");
        assert_eq!(page.search_settings.runs, 1_000_000, "clamped");
        page.input("runs", "", "300");
        page.input("kind", "pause", "");
        assert!(!page.search_settings.kinds.contains(&FaultKind::by_id("pause").unwrap()));
        page.input("kind", "pause", "");
        page.input("start", "", "");
        assert!(page.running());
        assert!(controls(&page).contains(r#"data-do="start" data-testid="explore-start" disabled"#));
        while page.busy() {
            page.step(&mut ticking(), 8.0);
        }
        let live = live(&page, false);
        assert!(live[0].contains(r#"data-runs="300""#), "{}", live[0]);
        assert!(live[1].contains("Before shrinking") && live[1].contains("After shrinking"), "{}", live[1]);
        let json = page.input("open", "", "").expect("a counterexample to open");
        assert!(json.contains("Found by the explorer"));
        page.input("tab", "table", "");
        assert_eq!(page.tab, Tab::Table);
        assert!(live_is_empty(&page));
        page.input("tab", "sweep", "");
        page.input("param", "", "delay_ms");
        assert_eq!((page.sweep_settings.from, page.sweep_settings.to), (0, 5_000));
        assert!(form(&page).contains(r#"<option value="delay_ms" selected>"#));
    }

    fn live_is_empty(page: &Page) -> bool {
        live(page, false).is_empty()
    }

    #[test]
    fn the_table_and_the_chart_carry_their_numbers() {
        let mut page = Page::default();
        page.input("tab", "table", "");
        page.input("runs", "", "40");
        page.input("start", "", "");
        page.step(&mut ticking(), 50.0);
        let t = &live(&page, false)[1];
        assert_eq!(t.matches(r#"data-testid="explore-cell""#).count(), 12);
        assert!(!t.contains(r#"data-runs="0""#), "every cell ran some: {t}");
        page.input("tab", "sweep", "");
        page.input("steps", "", "3");
        page.input("points-runs", "", "20");
        page.input("start", "", "");
        while page.busy() {
            page.step(&mut ticking(), 8.0);
        }
        let chart = &live(&page, false)[0];
        assert_eq!(chart.matches("<circle").count(), 6, "{chart}");
        assert!(chart.contains(r#"data-do="open-point" data-arg="1:2""#));
        assert!(chart.contains(">pause = TTL</text>"), "the lease's end marked on a pause sweep");
        let json = page.input("open-point", "0:2", "").unwrap();
        assert!(json.contains("2 × TTL"), "{json}");
    }
}
