//! Scenarios are read by a hand-written reader (src/scenario/read.rs), and the path of a JSON
//! syntax error is found from serde_json's error position (src/scenario/json_path.rs). Both are
//! checked here against serde's derived `Deserialize` with serde_path_to_error (kept natively
//! for this), over thousands of broken versions of every built-in scenario: the same texts
//! are accepted, into the same scenario, and the same are refused, naming the same field.

#![cfg(not(target_arch = "wasm32"))] // serde_path_to_error is a native dev-dependency

use locklab::scenario::{catalog, parse, Scenario};

/// What serde's derived Deserialize makes of the text: the scenario, or the path of its error.
fn reference(text: &str) -> Result<Scenario, String> {
    let de = &mut serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(de).map_err(|e| {
        let p = e.path().to_string();
        if p == "." {
            String::new()
        } else {
            p
        }
    })
}

/// Errors of the reading stage (the rest come from validation, which serde does not do).
fn is_read_error(message: &str) -> bool {
    [
        "invalid type",
        "unknown field",
        "missing field",
        "duplicate field",
        "unknown variant",
        "invalid length",
        "invalid value",
        "integer too large",
    ]
    .iter()
    .any(|m| message.starts_with(m))
}

/// A syntax error, in the reader's plain words (`json_path::words`), ends with where it is.
fn is_syntax_error(message: &str) -> bool {
    message.contains(" (line ")
}

/// Every way to break a text that this test tries: for each key, a wrong type, an unknown
/// sibling, the key misspelt, the value replaced, and the field written twice; plus truncations.
fn breakages(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(k) = text[at..].find("\": ") {
        let colon = at + k + 1;
        let key_start = text[..colon - 1].rfind('"').unwrap();
        let (before, after) = (&text[..colon + 1], &text[colon + 1..]);
        out.push(format!("{}\"oops\", \"misspelt{}", &text[..key_start], &text[key_start + 1..]));
        for replacement in [r#" {"x": [1, "y"]}, "was""#, r#" "text", "ignored""#, r#" -1.5, "n""#, r#" null, "n""#, r#" true, "n""#] {
            out.push(format!("{before}{replacement}{after}"));
        }
        for value in [" 7,", " null,", " \"aof-always\",", " [1, 2],", " -3,", " 99999999999999999999,"] {
            // the value replaced outright, where it ends with a comma on its line
            if let Some(end) = after.find(",\n").filter(|&e| !after[..e].contains(['{', '[', '\n'])) {
                out.push(format!("{before}{value}{}", &after[end + 1..]));
            }
        }
        // the field written twice, with its own value and with another
        if let Some(end) = after.find(",\n").filter(|&e| !after[..e].contains(['{', '[', '\n'])) {
            let field = &text[key_start..colon + 1 + end];
            out.push(format!("{}{field}, {field}{}", &text[..key_start], &after[end..]));
            out.push(format!("{}{field}, {} 1{}", &text[..key_start], &text[key_start..colon + 1], &after[end..]));
        }
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
fn the_reader_agrees_with_serde_derive() {
    let (mut accepted, mut refused) = (0, 0);
    // The built-ins, and one that writes out the fields the built-ins leave at their defaults.
    let mut corpus = catalog::all();
    corpus.push(parse(r#"{"version": 1, "approach": "zookeeper", "lock": {"tick_ms": 200, "ttl_ms": 2000}}"#).unwrap());
    // Variants: a yes-or-no setting, and a client's own settings (tests/variants.rs).
    for text in [
        include_str!("scenarios/variants/redlock-skips-elapsed-check.json"),
        r#"{"version": 1, "approach": "k8s-lease", "clients": [{"name": "A", "lock": {"ttl_ms": 30000, "reads_record_duration": false}}]}"#,
    ] {
        corpus.push(parse(text).unwrap());
    }
    for s in corpus {
        let text = serde_json::to_string_pretty(&s).unwrap();
        for broken in breakages(&text) {
            let ours = parse(&broken);
            match (reference(&broken), ours) {
                (Ok(mut theirs), Ok(ours)) => {
                    if theirs.id.is_empty() {
                        theirs.id = ours.id.clone(); // parse derives it from the title
                    }
                    assert_eq!(ours, theirs, "in:\n{broken}");
                    accepted += 1;
                }
                // Validation may refuse what serde reads, but not for how it is written.
                (Ok(_), Err(e)) => assert!(!is_read_error(&e.message), "{e} in:\n{broken}"),
                (Err(want), Ok(_)) => panic!("serde refused ({want}) what the reader accepted:\n{broken}"),
                // A syntax error is found before anything is read, where serde may first have
                // met a data error in the same text: either is right (json_path's own tests
                // cover the syntax error's path).
                (Err(_), Err(e)) if is_syntax_error(&e.message) => {}
                (Err(want), Err(e)) => {
                    // Inside a fault the reader names the field, where serde (which buffers
                    // internally tagged enums) could only name the fault.
                    if want.starts_with("faults[") && !want.contains('.') {
                        assert!(e.path.starts_with(&want), "{e} vs {want} in:\n{broken}");
                    } else {
                        assert_eq!(e.path, want, "{e} in:\n{broken}");
                    }
                    refused += 1;
                }
            }
        }
    }
    assert!(accepted > 100 && refused > 1500, "only {accepted} accepted and {refused} refused texts compared");
}
