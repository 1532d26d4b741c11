//! The field path in a parse error is found after the fact from serde_json's error position
//! (src/scenario/json_path.rs). Here it is checked against serde_path_to_error, which tracks
//! the path while deserialising, over many broken versions of every built-in scenario.

use locklab::scenario::{catalog, parse, Scenario};

/// The path serde_path_to_error reports, or None when serde accepts the text.
fn tracked_path(text: &str) -> Option<String> {
    let de = &mut serde_json::Deserializer::from_str(text);
    let r: Result<Scenario, _> = serde_path_to_error::deserialize(de);
    r.err().map(|e| {
        let p = e.path().to_string();
        if p == "." {
            String::new()
        } else {
            p
        }
    })
}

/// Every way to break a text that this test tries: for each key, a wrong type, an unknown
/// sibling, the key misspelt, and the value removed; plus truncations.
fn breakages(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(k) = text[at..].find("\": ") {
        let colon = at + k + 1;
        let key_start = text[..colon - 1].rfind('"').unwrap();
        out.push(format!("{}\"oops\", \"misspelt{}", &text[..key_start], &text[key_start + 1..]));
        out.push(format!("{} {{\"x\": [1, \"y\"]}}, \"was\"{}", &text[..colon + 1], &text[colon + 1..]));
        out.push(format!("{} \"text\", \"ignored\"{}", &text[..colon + 1], &text[colon + 1..]));
        out.push(format!("{} -1.5, \"n\"{}", &text[..colon + 1], &text[colon + 1..]));
        out.push(format!("{} null, \"n\"{}", &text[..colon + 1], &text[colon + 1..]));
        out.push(format!("{} true, \"n\"{}", &text[..colon + 1], &text[colon + 1..]));
        at = colon + 1;
    }
    for cut in (1..text.len()).step_by(7) {
        if text.is_char_boundary(cut) {
            out.push(text[..cut].to_string());
        }
    }
    out
}

#[test]
fn error_paths_match_serde_path_to_error() {
    let mut compared = 0;
    for s in catalog::all() {
        let text = serde_json::to_string_pretty(&s).unwrap();
        for broken in breakages(&text) {
            let Some(want) = tracked_path(&broken) else { continue };
            let got = parse(&broken).expect_err("serde rejected it");
            let message = got.message.clone();
            let got = got.path;
            // Data errors (unknown field, wrong type, unknown variant, missing field) must name
            // exactly the same path. In syntax errors serde_path_to_error stops at the last
            // segment it had entered (or names an unknown one "?"); ours may be one deeper.
            let syntax = message.starts_with("EOF") || message.starts_with("expected") || message.contains("trailing");
            let known = want.split('?').next().unwrap().trim_end_matches('.');
            if syntax || want.contains('?') {
                assert!(got.starts_with(known), "{got} vs {want} ({message}) in:\n{broken}");
            } else {
                assert_eq!(got, want, "({message}) in:\n{broken}");
            }
            compared += 1;
        }
    }
    assert!(compared > 2000, "only {compared} broken texts compared");
}
