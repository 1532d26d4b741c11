//! Exported figures (`timeline::draw::export`): well-formed standalone SVG with the diagram's
//! styles inlined, one lane per node, the cursor where the app draws it, nothing from the future
//! but faint shapes; and the whole-run JSON.
#![cfg(not(target_arch = "wasm32"))]

use locklab::lab::{self, Run};
use locklab::scenario::catalog;
use locklab::theme::Theme;
use locklab::timeline::draw::export::{self, figure, FIGURE_WIDTH, STYLESHEET};
use locklab::timeline::draw::svg::N;
use locklab::timeline::draw::Geometry;
use locklab::timeline::{Timeline, WriteResult};
use roxmltree::Document;

fn run(id: &str, fencing: bool) -> (Run, Timeline) {
    let run = lab::run(&lab::with_fencing(&catalog::get(id).unwrap(), fencing));
    let t = Timeline::of_run(&run);
    (run, t)
}

fn svg(id: &str, at: i64, lecture: bool) -> String {
    let (run, t) = run(id, false);
    figure(&run, &t, at, FIGURE_WIDTH, lecture, Theme::shown(None, lecture, false), STYLESHEET)
}

fn has_class(n: &roxmltree::Node, class: &str) -> bool {
    n.attribute("class").is_some_and(|c| c.split(' ').any(|w| w == class))
}

/// All text under the elements with this class.
fn texts(doc: &Document, class: &str) -> Vec<String> {
    doc.descendants()
        .filter(|n| has_class(n, class))
        .map(|n| n.descendants().filter(|d| d.is_text()).filter_map(|d| d.text()).collect())
        .collect()
}

#[test]
fn a_figure_is_a_standalone_svg_with_its_styles() {
    let out = svg("redis-gc-pause", 15_502, false);
    let doc = Document::parse(&out).expect("well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(root.tag_name().namespace(), Some("http://www.w3.org/2000/svg"));
    assert_eq!((root.attribute("width"), root.attribute("viewBox").map(|v| v.starts_with("0 0 1280 "))), (Some("1280"), Some(true)));
    let style = doc.descendants().find(|n| n.has_tag_name("style")).expect("a <style> element").text().unwrap_or_default().to_string();
    // The diagram's own rules, with the palette resolved for viewers without CSS variables.
    for rule in [".h0 { color: #0072b2; }", ".belief-bar { fill: currentColor; }", ".glyph.stale .tri { fill: #b3261e;"] {
        assert!(style.contains(rule), "{rule} in {style}");
    }
    assert!(!style.contains("var(") && !style.contains("@keyframes"), "{style}");
    let title = doc.descendants().find(|n| n.has_tag_name("title")).unwrap().text().unwrap();
    assert_eq!(title, "Lock Lab · Redis: GC pause after acquire · fencing off · seed 42 · at 15.502 s");
    // The hatching the bands refer to is defined in the file itself.
    assert!(doc.descendants().any(|n| n.attribute("id") == Some("hatch-pause")));
    assert!(out.contains("url(#hatch-pause)"));
}

#[test]
fn one_lane_per_node_with_its_name() {
    for id in ["redis-gc-pause", "redlock-clock-jump", "zookeeper-session-expiry"] {
        let (run, t) = run(id, false);
        let doc_text = figure(&run, &t, t.duration_ms / 2, FIGURE_WIDTH, false, Theme::Light, STYLESHEET);
        let doc = Document::parse(&doc_text).unwrap();
        let names: Vec<String> = t.lanes.iter().map(|l| l.name.clone()).collect();
        assert_eq!(texts(&doc, "lane-name"), names, "{id}");
        let mut sorted = names.clone();
        sorted.sort();
        let mut nodes: Vec<String> = run.trace.nodes.iter().map(|n| n.name.clone()).collect();
        nodes.sort();
        assert_eq!(sorted, nodes, "{id}: every node has a lane");
        assert_eq!(doc.descendants().filter(|n| has_class(n, "lane") && n.has_tag_name("g")).count(), names.len(), "{id}");
    }
}

#[test]
fn the_cursor_is_where_the_app_draws_it() {
    let (run, t) = run("redis-gc-pause", false);
    for (at, lecture) in [(15_502, false), (0, false), (t.duration_ms, true)] {
        let out = figure(&run, &t, at, FIGURE_WIDTH, lecture, Theme::shown(None, lecture, false), STYLESHEET);
        let doc = Document::parse(&out).unwrap();
        let line = doc.descendants().find(|n| has_class(n, "cursor-line")).expect("a cursor line");
        let x = Geometry::new(&t, FIGURE_WIDTH, lecture).x(at as f64);
        assert_eq!(line.attribute("x1"), Some(N(x).to_string().as_str()), "at {at}");
        let future = doc.descendants().find(|n| has_class(n, "future")).expect("the veil");
        assert_eq!(future.attribute("x"), line.attribute("x1"));
        let expected_time = locklab::decimal::seconds(at);
        assert_eq!(texts(&doc, "cursor-time"), vec![expected_time]);
    }
    // A time past the end is drawn at the end (of the story's axis: 18 s of the run's 20).
    assert!(figure(&run, &t, t.duration_ms + 5_000, FIGURE_WIDTH, false, Theme::Light, STYLESHEET).contains(">18 s</text>"));
}

#[test]
fn labels_after_the_cursor_are_absent() {
    let (run, t) = run("redis-gc-pause", false);
    let stale = t.writes.iter().find(|w| w.result == WriteResult::StaleAccepted).unwrap().at;
    let before = figure(&run, &t, stale - 1, FIGURE_WIDTH, false, Theme::Light, STYLESHEET);
    let at = figure(&run, &t, stale, FIGURE_WIDTH, false, Theme::Light, STYLESHEET);
    assert!(!before.contains("STALE") && !before.contains("glyph stale"));
    assert!(at.contains("STALE, accepted") && at.contains("glyph stale"));
    // Labels of what already happened stay.
    assert!(before.contains("paused 15 s") && before.contains("B · token 2"));
    // At the start no label of the story shows yet, but the whole run's shapes are there, veiled.
    let zero = figure(&run, &t, 0, FIGURE_WIDTH, false, Theme::Light, STYLESHEET);
    let doc = Document::parse(&zero).unwrap();
    assert!(texts(&doc, "bar-lbl").is_empty() && texts(&doc, "write-who").is_empty() && texts(&doc, "band-lbl").is_empty());
    assert!(doc.descendants().any(|n| has_class(&n, "belief-bar")) && doc.descendants().any(|n| has_class(&n, "band")));
}

#[test]
fn every_built_in_exports_well_formed_at_its_key_moments() {
    for s in catalog::all() {
        let run = lab::run(&s);
        let t = Timeline::of_run(&run);
        for at in t.key_moments.iter().map(|k| k.at).chain([0, t.duration_ms]) {
            for (width, lecture) in [(FIGURE_WIDTH, false), (480.0, true)] {
                let out = figure(&run, &t, at, width, lecture, Theme::shown(None, lecture, false), STYLESHEET);
                if let Err(e) = Document::parse(&out) {
                    panic!("{} at {at} ms, {width} px: {e}", s.id);
                }
            }
        }
    }
}

#[test]
fn a_lecture_figure_carries_the_lecture_palette() {
    let out = svg("redis-gc-pause", 15_502, true);
    assert!(out.contains(r#"class="lecture""#));
    assert!(out.contains(".lecture .diagram .lane-name { font-size: 19px; }"));
    assert!(out.contains(".diagram text { font-size: 12px; fill: #000000; }"), "the lecture ink");
    let plain = svg("redis-gc-pause", 15_502, false);
    assert!(!plain.contains(".lecture") && plain.contains("fill: #1b2130"));
}

#[test]
fn the_same_run_and_time_give_the_same_figure() {
    assert_eq!(svg("etcd-gc-pause", 12_000, false), svg("etcd-gc-pause", 12_000, false));
}

#[test]
fn file_names_say_scenario_fencing_and_time() {
    let mut s = catalog::get("redis-gc-pause").unwrap();
    assert_eq!(export::file_name(&s, Some(15_502), "svg"), "redis-gc-pause-t15502.svg");
    s.storage.fencing = true;
    assert_eq!(export::file_name(&s, None, "json"), "redis-gc-pause-fencing-on.json");
    s.id = "../my scenario".into();
    assert_eq!(export::file_name(&s, Some(0), "png"), "---my-scenario-fencing-on-t0.png");
    s.id = "//".into();
    s.storage.fencing = false;
    assert_eq!(export::file_name(&s, None, "json"), "scenario.json");
}

#[test]
fn the_run_json_holds_scenario_verdict_and_trace() {
    let (run, _) = run("redis-gc-pause", false);
    let v: serde_json::Value = serde_json::from_str(&run.to_json()).expect("valid JSON");
    assert_eq!(v["verdict"], serde_json::to_value(&run.verdict).unwrap());
    assert_eq!(v["scenario"]["id"], "redis-gc-pause");
    assert_eq!(v["trace"]["events"].as_array().unwrap().len(), run.trace.events.len());
    // The scenario part is a scenario again.
    let back = locklab::scenario::parse(&v["scenario"].to_string()).expect("re-parses");
    assert_eq!(lab::run(&back).trace.hash(), run.trace.hash());
}

#[test]
fn a_dense_run_merges_its_faint_messages_and_keeps_the_story_s() {
    // 100,000 events of retry storm: tens of thousands of faint messages.
    let s = locklab::scenario::parse(include_str!("scenarios/event-limit.json")).unwrap();
    let run = lab::run(&s);
    let t = Timeline::of_run(&run);
    let faint = t.arrows.iter().filter(|a| a.quiet || a.client.is_none()).count();
    let story = t.arrows.len() - faint;
    assert!(faint > 20_000 && story > 100, "{faint} faint, {story} story messages");
    let out = figure(&run, &t, run.trace.duration_ms, FIGURE_WIDTH, false, Theme::Light, STYLESHEET);
    let doc = Document::parse(&out).expect("well-formed XML");
    let msgs: Vec<_> = doc.descendants().filter(|n| has_class(n, "msg")).collect();
    // Every story message keeps its own group and tooltip; the faint ones share one per style.
    let titled = msgs.iter().filter(|n| n.children().any(|c| c.has_tag_name("title"))).count();
    assert_eq!(titled, story);
    assert!(msgs.len() < story + 100, "{} message groups for {story} story messages", msgs.len());
    assert!(out.len() < 6_000_000, "{} bytes", out.len());
}
