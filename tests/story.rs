//! A run's story out of the app (issue 36, item 5; `timeline::draw::story`): the strip of its
//! key moments and the animated SVG, for every built-in with fencing off and on. The strip's
//! captions are the ones the app shows when it stands on those moments (read off the session,
//! driven as the browser drives it); the animation plays as the app plays at 1× and stays under
//! its budget.
#![cfg(not(target_arch = "wasm32"))]

use locklab::lab::{self, Run};
use locklab::scenario::catalog;
use locklab::session::{Action, CaptionView, Session, Start};
use locklab::text::{self, Story};
use locklab::theme::Theme;
use locklab::timeline::draw::export::STYLESHEET;
use locklab::timeline::draw::story::{self, Schedule, END_MS, MAX_PANELS, START_MS};
use locklab::timeline::{pacing, Timeline};
use roxmltree::Document;

/// The animated SVG's budget (issue 36): small enough for a README.
const ANIMATED_BUDGET: usize = 300 * 1024;

/// Every built-in, fencing off and on: (the app's address for it, its run, its drawing).
fn every_run() -> Vec<(String, Run, Timeline)> {
    let mut out = Vec::new();
    for s in catalog::all() {
        for fencing in [false, true] {
            let run = lab::run(&lab::with_fencing(&s, fencing));
            let t = Timeline::of_run(&run);
            out.push((format!("?scenario={}{}", s.id, if fencing { "&fencing=on" } else { "" }), run, t));
        }
    }
    out
}

/// All text of the elements whose class list has `class`, one string per element.
fn texts(doc: &Document, class: &str) -> Vec<String> {
    doc.descendants()
        .filter(|n| n.attribute("class").is_some_and(|c| c.split(' ').any(|w| w == class)))
        .map(|n| n.descendants().filter(|d| d.is_text()).filter_map(|d| d.text()).collect())
        .collect()
}

/// The caption the app shows at each key moment it lands on with "next key moment" (Shift+→),
/// by the key moment's event: walked from the start to the end.
fn app_captions(search: &str) -> Vec<(usize, String)> {
    let mut s = Session::new(&Start { search: search.into(), ..Start::default() });
    let story = Story::new(&s.run.trace, &s.run.verdict, &s.timeline);
    let mut out = Vec::new();
    for _ in 0..=s.timeline.key_moments.len() {
        s = s.apply(Action::NextKey);
        if let CaptionView::Event(i) = s.caption_view() {
            out.push((i, text::caption(&s.run.trace, s.run.scenario.approach, &story, i)));
        }
    }
    out
}

#[test]
fn a_strip_has_two_to_eight_panels_each_with_the_apps_caption() {
    for (search, run, t) in every_run() {
        let panels = story::panels(&run, &t);
        assert!((2..=MAX_PANELS).contains(&panels.len()), "{search}: {} panels", panels.len());
        assert!(panels.windows(2).all(|w| (w[0].at, w[0].event) < (w[1].at, w[1].event)), "{search}: panels in time order");
        let app = app_captions(&search);
        for p in &panels {
            let Some(event) = p.event else {
                assert_eq!(p.caption, text::verdict::sentence(&run.verdict), "{search}: the end's caption is the outcome");
                continue;
            };
            assert!(t.key_moments.iter().any(|k| k.at == p.at && k.event == event), "{search}: a panel at {} ms is a key moment", p.at);
            // A key moment at 0 ms is where the app opens, not one it jumps to.
            if let Some((_, words)) = app.iter().find(|(e, _)| *e == event) {
                assert_eq!(&p.caption, words, "{search}: panel at {} ms", p.at);
            } else {
                assert_eq!(p.at, 0, "{search}: the app never lands on the key moment at {} ms", p.at);
            }
        }
        // A story of up to eight key moments is told whole.
        if t.key_moments.len() <= MAX_PANELS {
            assert_eq!(panels.len(), t.key_moments.len().max(2), "{search}");
        }
    }
}

#[test]
fn a_strip_is_well_formed_and_shows_each_panels_moment_and_caption() {
    for (search, run, t) in every_run() {
        let svg = story::strip(&run, &t, STYLESHEET, Theme::Projector);
        let doc = Document::parse(&svg).unwrap_or_else(|e| panic!("{search}: {e}"));
        let panels = story::panels(&run, &t);
        let shown: Vec<_> = doc.descendants().filter(|n| n.attribute("class") == Some("story-panel")).collect();
        assert_eq!(shown.len(), panels.len(), "{search}");
        for (node, p) in shown.iter().zip(&panels) {
            assert_eq!(node.attribute("data-at"), Some(p.at.to_string().as_str()), "{search}");
            let words: Vec<String> = node
                .descendants()
                .filter(|n| n.attribute("class") == Some("story-caption"))
                .filter_map(|n| n.text().map(str::to_string))
                .collect();
            assert_eq!(words.join(" "), p.caption, "{search}: the caption, wrapped, is the whole caption");
            // The panel's cursor stands at its moment.
            let time = node.descendants().find(|n| n.attribute("class") == Some("cursor-time")).and_then(|n| n.text());
            assert_eq!(time, Some(locklab::decimal::seconds(p.at).as_str()), "{search}");
        }
        let outcome = texts(&doc, "story-outcome").join(" ");
        assert_eq!(outcome, format!("Outcome: {}", text::verdict::sentence(&run.verdict)), "{search}");
        // Laid out for a slide: its smallest text (the lecture drawing's 14 px) stays 10 px or
        // more on a 1920×1080 slide.
        let root = doc.root_element();
        let (w, h): (f64, f64) = (root.attribute("width").unwrap().parse().unwrap(), root.attribute("height").unwrap().parse().unwrap());
        let smallest = 14.0 * story::scale_in(story::SLIDE, w, h);
        assert!(smallest >= 10.0, "{search}: {w}×{h} puts its 14 px text at {smallest:.1} px on a slide");
    }
}

#[test]
fn the_animated_svg_is_small_well_formed_and_the_same_every_time() {
    let mut sizes = Vec::new();
    for (search, run, t) in every_run() {
        let svg = story::animated(&run, &t, STYLESHEET, Theme::Projector);
        assert!(svg.len() < ANIMATED_BUDGET, "{search}: {} bytes", svg.len());
        Document::parse(&svg).unwrap_or_else(|e| panic!("{search}: {e}"));
        let again = lab::run(&run.scenario);
        assert_eq!(svg, story::animated(&again, &Timeline::of_run(&again), STYLESHEET, Theme::Projector), "{search}: deterministic");
        assert!(!svg.contains("<script"), "{search}: plays with no script");
        sizes.push((svg.len(), search));
    }
    sizes.sort();
    let (max, median) = (&sizes[sizes.len() - 1], &sizes[sizes.len() / 2]);
    println!("animated SVG: max {} bytes ({}), median {} bytes ({})", max.0, max.1, median.0, median.1);
}

/// The keyframe selector (a percentage) at which animation `name` first turns opacity 1.
fn shows_at(svg: &str, name: &str) -> f64 {
    let rule = svg.split(&format!("@keyframes {name} {{")).nth(1).unwrap_or_else(|| panic!("no @keyframes {name}"));
    let on = rule.split("{ opacity: 1; }").next().unwrap();
    on.trim_end().rsplit(' ').next().unwrap().trim_end_matches('%').parse().unwrap()
}

#[test]
fn the_animation_lasts_as_the_run_plays_and_captions_each_key_moment_at_its_time() {
    for (search, run, t) in every_run() {
        let svg = story::animated(&run, &t, STYLESHEET, Theme::Projector);
        let s = Schedule::of(&t);
        let n = t.key_moments.len();
        // One loop: the start's hold, the cursor's travel, a dwell at each key moment after
        // 0 ms (the app opens on those at 0 ms), the end's hold.
        assert_eq!(s.arrivals.len(), n, "{search}");
        let later: Vec<f64> = t.key_moments.iter().zip(&s.arrivals).filter(|(k, _)| k.at > 0).map(|(_, a)| *a).collect();
        assert!(s.total >= START_MS + later.len() as f64 * pacing::DWELL_MS + END_MS, "{search}");
        assert!(later.windows(2).all(|w| w[1] >= w[0] + pacing::DWELL_MS), "{search}: each key moment is held");
        assert!(s.end >= later.last().map_or(START_MS, |a| a + pacing::DWELL_MS), "{search}");
        assert!(svg.contains(&format!("animation-duration: {}ms;", s.total.round())), "{search}");
        // A caption frame per key moment, from its arrival, with that key moment's caption.
        let doc = Document::parse(&svg).unwrap();
        let keys = story::key_moments(&run, &t);
        for (i, (k, arrival)) in keys.iter().zip(&s.arrivals).enumerate() {
            let f = format!("f{}", i + 1);
            let pct = shows_at(&svg, &f);
            assert!((pct - 100.0 * arrival / s.total).abs() < 0.001, "{search}: frame {f} at {pct}%");
            let words: String = texts(&doc, &f).concat();
            assert!(words.contains(&k.caption.split_whitespace().next().unwrap_or_default().to_string()), "{search}: {f}");
        }
        assert_eq!(svg.matches("@keyframes f").count(), n + 2, "{search}: the start, each key moment, the outcome");
        // The start says what the app says at 0 ms.
        let story = Story::new(&run.trace, &run.verdict, &t);
        if let Some(e) = locklab::timeline::current_event(&run.trace, 0) {
            let start = text::caption(&run.trace, run.scenario.approach, &story, e);
            let in_f0 = |n: &roxmltree::Node| n.ancestors().any(|a| a.attribute("class").is_some_and(|c| c.split(' ').any(|w| w == "f0")));
            let lines: Vec<&str> =
                doc.descendants().filter(|n| n.attribute("class") == Some("story-caption") && in_f0(n)).filter_map(|n| n.text()).collect();
            assert_eq!(lines.join(" "), start, "{search}");
        }
    }
}

/// The schedule is the app's own playback at 1×: the session, ticked at 60 frames a second
/// from play, shows each key moment's caption within a few frames of the animation's time for
/// it (the animation first holds its start for `START_MS`).
#[test]
fn the_animation_keeps_time_with_the_apps_playback() {
    for search in ["?scenario=redis-gc-pause", "?scenario=redlock-clock-jump&fencing=on", "?scenario=k8s-lease-fast-clock"] {
        let mut s = Session::new(&Start { search: search.into(), ..Start::default() });
        let schedule = Schedule::of(&s.timeline);
        let keys = s.timeline.key_moments.clone();
        s = s.apply(Action::TogglePlay);
        let mut seen: Vec<Option<f64>> = vec![None; keys.len()];
        let frame = 1000.0 / 60.0;
        for i in 0..(schedule.total / frame) as usize {
            let now = i as f64 * frame;
            s = s.apply(Action::Tick(now));
            if let CaptionView::Event(e) = s.caption_view() {
                if let Some(k) = keys.iter().position(|k| k.event == e) {
                    seen[k].get_or_insert(now);
                }
            }
        }
        for (k, (app, anim)) in seen.iter().zip(&schedule.arrivals).enumerate() {
            if keys[k].at == 0 {
                continue; // the app opens on it
            }
            let app = app.unwrap_or_else(|| panic!("{search}: the app never showed key moment {k}"));
            let late = (app - (anim - START_MS)).abs();
            assert!(
                late <= 3.0 * frame * (k + 1) as f64,
                "{search}: key moment {k} at {app:.0} ms in the app, {:.0} in the animation",
                anim - START_MS
            );
        }
    }
}

#[test]
fn the_files_are_named_for_the_run_and_the_img_says_what_it_shows() {
    let run = lab::run(&lab::with_fencing(&catalog::get("redis-gc-pause").unwrap(), true));
    assert_eq!(story::file_name(&run.scenario, false, "png"), "redis-gc-pause-fencing-on-strip.png");
    assert_eq!(story::file_name(&run.scenario, true, "svg"), "redis-gc-pause-fencing-on-animated.svg");
    let img = story::img(&run);
    let doc = Document::parse(&img).expect("one well-formed element");
    let el = doc.root_element();
    assert_eq!(el.attribute("src"), Some("redis-gc-pause-fencing-on-animated.svg"));
    assert_eq!(el.attribute("width"), Some("880"));
    let alt = el.attribute("alt").unwrap();
    assert!(alt.starts_with("Lock Lab · Redis: GC pause after acquire · fencing on · seed 42, animated. "), "{alt}");
    assert!(alt.ends_with(&text::verdict::sentence(&run.verdict)), "{alt}");
}

/// A long story keeps what tells it: Kubernetes' fast clock has 23 key moments, 15 of them
/// A's routine writes; its strip shows the first of those, B's write that is lost, the
/// takeover and the stale write, not A's second routine write.
#[test]
fn a_long_story_keeps_the_moments_that_tell_it() {
    let run = lab::run(&catalog::get("k8s-lease-fast-clock").unwrap());
    let t = Timeline::of_run(&run);
    assert!(t.key_moments.len() > MAX_PANELS);
    let panels = story::panels(&run, &t);
    let text = |p: &story::Moment| t.key_moments.iter().find(|k| Some(k.event) == p.event).unwrap().text.clone();
    let texts: Vec<String> = panels.iter().map(text).collect();
    assert_eq!(texts.iter().filter(|w| w.as_str() == "A's write accepted (leaseTransitions 0)").count(), 1, "{texts:#?}");
    for must in
        ["B's write accepted (leaseTransitions 1)", "B takes over (leaseTransitions 1)", "A's STALE write accepted (leaseTransitions 0)"]
    {
        assert!(texts.iter().any(|w| w == must), "{must} in {texts:#?}");
    }
}

/// A lesson's handout (`lesson::handout`): every step's words, every question with its choices
/// and a blank (and nothing that marks the right one), and one strip per story the lesson shows,
/// laid out for an A4 page, each a well-formed SVG; no strip stands in a question's step (it
/// would tell the answer). Every built-in lesson.
#[test]
fn a_handout_has_every_step_every_question_with_a_blank_and_a_strip_per_story() {
    use locklab::lesson::{builtin, handout::handout};
    use locklab::timeline::draw::svg::Esc;
    for lesson in builtin::all() {
        let page = handout(&lesson, STYLESHEET);
        assert!(page.starts_with("<!DOCTYPE html>") && page.contains("@page { size: A4"), "{}", lesson.id);
        let mut stories = Vec::new();
        for (i, step) in lesson.steps.iter().enumerate() {
            assert!(page.contains(&format!("<h2>Step {}</h2>\n<p>{}</p>", i + 1, Esc(&step.text))), "{} step {i}", lesson.id);
            if let Some(q) = &step.question {
                assert!(page.contains(&Esc(&q.prompt).to_string()), "{} step {i}", lesson.id);
                for c in &q.choices {
                    assert!(page.contains(&format!("<li>{}</li>", Esc(c))), "{} step {i}: {c}", lesson.id);
                }
            }
            if let Some(run) = step.run().filter(|_| !step.is_slide()) {
                let key = (run.scenario.id.clone(), run.scenario.storage.fencing);
                if !stories.contains(&key) {
                    stories.push(key);
                }
            }
        }
        let questions = lesson.steps.iter().filter(|s| s.question.is_some()).count();
        assert_eq!(page.matches(r#"<span class="blank"></span>"#).count(), questions, "{}", lesson.id);
        assert!(!page.contains("data-right") && !page.contains("answer\":"), "{}: no answer is marked", lesson.id);
        for step in page.split("<section class=\"step\">").filter(|s| s.contains("class=\"question\"")) {
            assert!(!step.split("</section>").next().unwrap().contains("<figure"), "{}: a strip under a question", lesson.id);
        }
        let strips: Vec<&str> = page.split(r#"<figure class="strip">"#).skip(1).map(|f| f.split("<figcaption>").next().unwrap()).collect();
        assert_eq!(strips.len(), stories.len(), "{}", lesson.id);
        for svg in strips {
            let doc = Document::parse(svg).unwrap_or_else(|e| panic!("{}: {e}", lesson.id));
            let root = doc.root_element();
            let w: f64 = root.attribute("width").unwrap().parse().unwrap();
            // Two columns at most on a page: four would print its words at a quarter size.
            assert!(w <= 2.0 * story::PANEL_WIDTH + 3.0 * 24.0, "{}: a strip {w} px wide", lesson.id);
        }
    }
}
